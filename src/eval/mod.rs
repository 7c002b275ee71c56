//! Eval batches: a suite of PRs across repositories through `analyze`, sharded over matrix jobs,
//! merged into one table and gated against a committed baseline (DESIGN.md, Eval).
//!
//! - [`suite`]: the YAML suite file; [`shard`]: which cases a matrix job runs.

pub mod shard;
pub mod suite;
