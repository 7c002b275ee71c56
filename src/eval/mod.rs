//! Eval batches: a suite of PRs across repositories through `analyze`, sharded over matrix jobs,
//! merged into one table and gated against a committed baseline (DESIGN.md, Eval).
//!
//! - [`suite`]: the YAML suite file; [`shard`]: which cases a matrix job runs;
//! - [`source`]: cloning a case's repository or fetching its pull request;
//! - [`run`]: `eval run`, one `case-result.json` per case and a `shard-results.json`;
//! - [`totals`]: rows and averages.

pub mod run;
pub mod shard;
pub mod source;
pub mod suite;
pub mod totals;
