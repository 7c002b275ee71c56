//! Eval batches: a suite of PRs across repositories through `analyze`, sharded over matrix jobs,
//! merged into one table and gated against a committed baseline (ARCHITECTURE.md; docs/eval.md).
//!
//! - [`suite`]: the YAML suite file; [`shard`]: which cases a matrix job runs;
//! - [`source`]: cloning a case's repository or fetching its pull request; [`cache`]: clones kept
//!   between runs;
//! - [`run`]: `eval run`, one `case-result.json` per case and a `shard-results.json`;
//! - [`aggregate`]: `eval aggregate`, merging shard outputs; [`totals`]: rows and averages;
//! - [`gate`]: the regression gate against a baseline; [`summary`]: `summary.md`;
//! - [`transfer`]: the transfer score, one case's reusable recipe on another case's PR;
//!   [`transfer_gate`]: its average against the baseline's, gated like F1;
//! - [`trend`]: the history of the last runs' averages, charted in `summary.md`.

pub(crate) mod aggregate;
pub(crate) mod cache;
pub(crate) mod gate;
pub(crate) mod run;
pub(crate) mod shard;
pub(crate) mod source;
pub mod suite;
pub(crate) mod summary;
pub(crate) mod totals;
pub(crate) mod transfer;
pub(crate) mod transfer_gate;
pub(crate) mod trend;

#[cfg(test)]
mod tests;
