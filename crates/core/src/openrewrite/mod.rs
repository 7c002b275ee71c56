//! Facts about OpenRewrite that several phases share: pinned versions and artifact coordinates, the
//! names of the recipes the tool writes or recognises, and the declarative recipe format.

#[cfg(test)]
mod fuzz;
pub mod project_paths;
pub mod recipe_names;
pub mod recipe_yaml;
pub mod rewrite_yml;
pub mod text;
pub mod versions;
pub mod yaml;
pub mod yaml_limits;

pub use recipe_yaml::{DeclarativeRecipe, OptionValue, RecipeFile, RecipeStep};
pub use versions::{Coordinates, RecipeModule, Versions};

/// Checks a recipe file as `validate` does before running anything (size, depth and step limits,
/// YAML, recipe shape) and returns how many recipes it defines. Public for the benchmarks.
pub fn check_recipe_file(text: &str) -> anyhow::Result<usize> {
    let file = RecipeFile::parse(text)?;
    for recipe in &file.recipes {
        file.external_steps(&recipe.name);
    }
    Ok(file.recipes.len())
}

/// A recipe's simple name, the part after the last dot: `ChangePackage` for
/// `org.openrewrite.java.ChangePackage`.
pub fn simple_name(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}
