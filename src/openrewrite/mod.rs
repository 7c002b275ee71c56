//! Facts about OpenRewrite that several phases share: pinned versions and artifact coordinates, and
//! the declarative recipe format.

pub mod recipe_yaml;
pub mod rewrite_yml;
pub mod text;
pub mod versions;

pub use recipe_yaml::{DeclarativeRecipe, OptionValue, RecipeFile, RecipeStep};
pub use versions::{Coordinates, RecipeModule, Versions};

/// A recipe's simple name, the part after the last dot: `ChangePackage` for
/// `org.openrewrite.java.ChangePackage`.
pub fn simple_name(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}
