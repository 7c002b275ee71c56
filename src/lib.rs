//! rewrite-assist: turns one migration pull request into a validated, reusable OpenRewrite recipe.
//!
//! The binary's own modules: `cli`, the thin layer that parses arguments and calls into the crates
//! under crates/ (ARCHITECTURE.md), and the commands that stand on top of the pipeline: `eval`,
//! `learn`.

pub mod cli;
pub mod eval;
pub mod learn;
pub mod logging;
pub mod schemas;

// The layers this binary stands on (crates/), in scope under the names the modules have always used
// (`crate::pipeline::…`); the integration tests (tests/) reach the ones they use through this crate.
pub use rewrite_assist_core::{catalog, diff, metrics, model, openrewrite, process, setup};
use rewrite_assist_core::{demo, document, error, parallel, redact};
pub use rewrite_assist_engine::intents;
use rewrite_assist_engine::{decision, discovery, pipeline, reuse};
pub use rewrite_assist_github as github;
pub use rewrite_assist_runner as validation;
// Test fixtures stay out of the shipped binary: `cargo test` turns the feature on through the
// dev-dependency on this crate in Cargo.toml.
#[cfg(any(test, feature = "fixtures"))]
pub use rewrite_assist_fixtures as fixtures;

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
