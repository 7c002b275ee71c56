//! Checking the option names a generated recipe gives against the catalog. OpenRewrite matches
//! option names case-insensitively and silently ignores the ones it does not know, and only logs a
//! missing required option, so a typo would quietly turn a recipe into a no-op.

use std::fmt;

use crate::catalog::Catalog;
use crate::model::RecipeDescriptor;
use crate::openrewrite::RecipeStep;

/// What is wrong with the options given to one recipe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OptionProblems {
    pub recipe: String,
    /// The catalog does not know the recipe, so its options could not be checked.
    pub unknown_recipe: bool,
    /// Given names no option of the recipe has, even ignoring case.
    pub unknown: Vec<UnknownOption>,
    /// Required options not given.
    pub missing: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UnknownOption {
    pub name: String,
    /// The recipe's closest option name, when one is close.
    pub did_you_mean: Option<String>,
}

impl std::error::Error for OptionProblems {}

impl fmt::Display for OptionProblems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.unknown_recipe {
            return write!(f, "{}: not a recipe in the catalog; its options cannot be checked", self.recipe);
        }
        write!(f, "{}:", self.recipe)?;
        let mut parts = Vec::new();
        for u in &self.unknown {
            parts.push(match &u.did_you_mean {
                Some(s) => format!("unknown option `{}` (did you mean `{s}`?)", u.name),
                None => format!("unknown option `{}`", u.name),
            });
        }
        for m in &self.missing {
            parts.push(format!("missing required option `{m}`"));
        }
        write!(f, " {}", parts.join("; "))
    }
}

/// Compares `given` option names with `recipe`'s options, the way OpenRewrite matches them.
pub(crate) fn check(recipe: &RecipeDescriptor, given: &[&str]) -> Result<(), OptionProblems> {
    let known = |name: &str| recipe.options.iter().any(|o| o.name.eq_ignore_ascii_case(name));
    let unknown: Vec<UnknownOption> = given
        .iter()
        .filter(|g| !known(g))
        .map(|g| UnknownOption { name: g.to_string(), did_you_mean: closest(recipe, g) })
        .collect();
    let missing: Vec<String> = recipe
        .options
        .iter()
        .filter(|o| o.required && !given.iter().any(|g| g.eq_ignore_ascii_case(&o.name)))
        .map(|o| o.name.clone())
        .collect();
    if unknown.is_empty() && missing.is_empty() {
        Ok(())
    } else {
        Err(OptionProblems { recipe: recipe.name.clone(), unknown_recipe: false, unknown, missing })
    }
}

fn closest(recipe: &RecipeDescriptor, given: &str) -> Option<String> {
    let given = given.to_lowercase();
    recipe
        .options
        .iter()
        .map(|o| (strsim::jaro_winkler(&given, &o.name.to_lowercase()), &o.name))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name.clone())
}

/// Whether the catalog accepts the step: the recipe exists, every option name is known, every
/// required option is given.
pub fn check_step(catalog: &Catalog, step: &RecipeStep) -> Result<(), StepProblem> {
    if catalog.get(&step.name).is_none() {
        return Err(StepProblem::NotInCatalog(step.name.clone()));
    }
    let given: Vec<&str> = step.options.keys().map(String::as_str).collect();
    catalog.check_options(&step.name, &given).map_err(|problems| StepProblem::Options {
        recipe: step.name.clone(),
        problems: problems.to_string(),
    })
}

/// Why the catalog does not accept a step.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StepProblem {
    /// The recipe name is not in the catalog.
    #[error("`{0}` is not in the recipe catalog")]
    NotInCatalog(String),
    /// Unknown option names or missing required options, as the catalog words them.
    #[error("`{recipe}`: {problems}")]
    Options {
        /// The step's recipe name.
        recipe: String,
        /// What is wrong with its options.
        problems: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::RecipeOption;

    fn recipe() -> RecipeDescriptor {
        let option = |name: &str, required| RecipeOption {
            name: name.into(),
            option_type: "String".into(),
            required,
            description: None,
            example: None,
            valid: Vec::new(),
        };
        RecipeDescriptor {
            name: "org.openrewrite.java.ChangePackage".into(),
            display_name: "Rename package name".into(),
            description: String::new(),
            tags: Vec::new(),
            options: vec![
                option("oldPackageName", true),
                option("newPackageName", true),
                option("recursive", false),
            ],
            members: Vec::new(),
            artifact: None,
            module: "rewrite-java".into(),
            licence: "Apache-2.0".into(),
        }
    }

    #[test]
    fn exact_and_case_insensitive_names_pass() {
        assert_eq!(check(&recipe(), &["oldPackageName", "newPackageName"]), Ok(()));
        assert_eq!(check(&recipe(), &["OLDPACKAGENAME", "newpackagename", "Recursive"]), Ok(()));
    }

    #[test]
    fn unknown_and_missing_names_are_reported_with_a_suggestion() {
        let problems = check(&recipe(), &["oldPackageName", "newPackage", "foo"]).unwrap_err();
        assert_eq!(problems.missing, ["newPackageName"]);
        assert_eq!(problems.unknown[0].did_you_mean.as_deref(), Some("newPackageName"));
        assert_eq!(problems.unknown[1].did_you_mean, None);
        assert_eq!(
            problems.to_string(),
            "org.openrewrite.java.ChangePackage: unknown option `newPackage` (did you mean `newPackageName`?); \
             unknown option `foo`; missing required option `newPackageName`"
        );
    }
}
