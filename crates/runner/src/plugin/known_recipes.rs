//! The plugin loads each name in a recipe list as a class, and loading a class runs its static
//! initialiser: a name that is a class of the build's classpath but not a recipe would run code
//! before anything checks what it is. The embedded runner refuses such a name before it loads it
//! (the runner's `RecipeNames`); here there is no JVM to ask, so only names this file declares or
//! the catalog knows as recipes go to the plugin. With `--recipe-artifacts` the user names recipe
//! artifacts of their own and vouches for the names they bring.

use crate::catalog::Catalog;
use crate::model::{ErrorKind, RunError};
use crate::openrewrite::{RecipeFile, Versions};

/// The first recipe-list or precondition entry the plugin must not be given, as the run's error.
pub(super) fn refused(file: &RecipeFile, versions: &Versions, catalog: &Catalog) -> Option<RunError> {
    if !versions.extra_artifacts().is_empty() {
        return None;
    }
    let declared = file.names();
    let name = file
        .recipes
        .iter()
        .flat_map(|recipe| recipe.steps.iter().chain(&recipe.preconditions))
        .map(|step| step.name.as_str())
        .find(|name| !declared.contains(name) && catalog.get(name).is_none())?;
    let mut error = RunError::new(
        ErrorKind::UnknownRecipe,
        format!(
            "`{name}` is not a recipe of the catalog: the plugin would load it as a class, so it is refused \
             before the build runs (name a catalog recipe, or its artifact with --recipe-artifacts)"
        ),
    );
    error.recipe = Some(name.to_string());
    Some(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(step: &str) -> RecipeFile {
        RecipeFile::parse(&format!(
            "type: specs.openrewrite.org/v1beta/recipe\nname: com.acme.Mine\nrecipeList:\n  - com.acme.Inner\n  - {step}\n---\ntype: specs.openrewrite.org/v1beta/recipe\nname: com.acme.Inner\nrecipeList:\n  - org.openrewrite.java.RemoveUnusedImports\n"
        ))
        .unwrap()
    }

    #[test]
    fn a_class_that_is_not_a_catalog_recipe_is_refused_and_named() {
        let error = refused(&file("java.lang.Thread"), &Versions::default(), Catalog::embedded()).unwrap();
        assert_eq!(error.kind, ErrorKind::UnknownRecipe);
        assert_eq!(error.recipe.as_deref(), Some("java.lang.Thread"));
    }

    #[test]
    fn declared_and_catalog_recipes_pass() {
        let ok = file("org.openrewrite.java.format.AutoFormat");
        assert!(refused(&ok, &Versions::default(), Catalog::embedded()).is_none());
    }

    #[test]
    fn recipe_artifacts_of_the_user_vouch_for_their_names() {
        let mine = crate::openrewrite::Coordinates::new("com.acme", "mine", "1.0");
        let versions = Versions { overrides: vec![mine], ..Versions::default() };
        assert!(refused(&file("com.acme.recipes.Own"), &versions, Catalog::embedded()).is_none());
    }
}
