//! The bottom layer of rewrite-assist, shared by every phase: errors and redaction, child processes,
//! the repository and the PR's diff, facts about OpenRewrite, the data types the phases exchange, the
//! metrics, the recipe catalog, and the demo's example repository.

#![deny(missing_docs)]

pub mod catalog;
pub mod demo;
pub mod diff;
pub mod document;
pub mod error;
pub mod metrics;
pub mod model;
pub mod openrewrite;
pub mod parallel;
pub mod process;
pub mod redact;
pub mod setup;
