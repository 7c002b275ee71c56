//! Plain serde data types shared by the phases: what one phase writes, the next one reads.

pub mod intent;
pub mod recipe;
pub mod stats;
pub mod validation;

pub use intent::{Intent, IntentTree, Level};
pub use recipe::{RecipeDescriptor, RecipeOption};
pub use stats::{ChangeLine, FileCounts, Metrics};
pub use validation::{Attribution, ErrorKind, RunError, TestCounts, Timings, ValidationStats};
