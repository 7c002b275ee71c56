//! Facts about OpenRewrite that several phases share: pinned versions and artifact coordinates, and
//! the declarative recipe format.

pub(crate) mod recipe_yaml;
pub(crate) mod rewrite_yml;
pub(crate) mod text;
pub mod versions;
pub(crate) mod yaml_limits;

pub(crate) use recipe_yaml::{DeclarativeRecipe, RecipeFile, RecipeStep};
pub use versions::{Coordinates, RecipeModule, Versions};

/// A recipe's simple name, the part after the last dot: `ChangePackage` for
/// `org.openrewrite.java.ChangePackage`.
pub(crate) fn simple_name(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}
