//! Facts about OpenRewrite that several phases share: pinned versions and artifact coordinates.

pub mod versions;

pub use versions::{Coordinates, RecipeModule, Versions};
