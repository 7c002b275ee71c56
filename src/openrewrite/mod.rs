//! Facts about OpenRewrite that several phases share: pinned versions and artifact coordinates, and
//! the declarative recipe format.

pub mod recipe_yaml;
pub mod rewrite_yml;
pub mod versions;

pub use recipe_yaml::{DeclarativeRecipe, OptionValue, RecipeFile, RecipeStep};
pub use versions::{Coordinates, RecipeModule, Versions};
