//! Plain serde data types shared by the phases: what one phase writes, the next one reads.

pub mod recipe;
pub mod stats;

pub use recipe::{RecipeDescriptor, RecipeOption};
pub use stats::{ChangeLine, FileCounts, Metrics};
