//! Plain serde data types shared by the phases: what one phase writes, the next one reads.

pub mod stats;

pub use stats::{ChangeLine, FileCounts, Metrics};
