//! rewrite-assist: turns one migration pull request into a validated, reusable OpenRewrite recipe.
//!
//! The modules follow the pipeline of ARCHITECTURE.md; `cli` is the thin layer that parses arguments and
//! calls into them.

pub mod catalog;
pub mod cli;
pub mod decision;
pub mod demo;
pub mod diff;
pub mod discovery;
pub mod document;
pub mod error;
pub mod eval;
// Test fixtures stay out of the shipped binary: `cargo test` turns the feature on through the
// dev-dependency on this crate in Cargo.toml.
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
pub mod github;
pub mod intents;
pub mod learn;
pub mod logging;
pub mod mapping;
pub mod metrics;
pub mod model;
pub mod openrewrite;
pub mod pipeline;
pub mod process;
pub(crate) mod redact;
pub mod refinement;
pub mod reuse;
pub mod schemas;
pub mod setup;
pub mod validation;

use std::ffi::OsString;
use std::process::ExitCode;

/// The real entry point: parses `args`, runs the command, and turns any error into one line on
/// stderr and an exit code (see [`error::exit`]).
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    ExitCode::from(cli::main(args))
}
