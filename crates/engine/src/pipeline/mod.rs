//! The analyze pipeline: the phases of ARCHITECTURE.md driven by the transition table in [`state`].
//! Each phase is a function from the products it reads to its own product ([`products`]), given by
//! the [`driver`]; every phase borrows the run's [`context::Context`], and those that spend budget
//! take the [`budget::Budget`] ledger. Each appends one line to `audit.jsonl`; budgets are enforced
//! here, not by the phases.

pub mod artifacts;
mod budget;
mod compose;
mod confirm;
mod context;
mod decide;
mod discover;
mod driver;
mod execute;
mod generalize;
mod learn;
pub mod metadata;
mod one_recipe;
mod products;
pub mod progress;
mod refine;
mod session;
mod setup;
pub(crate) mod state;
mod summary;
mod validate;

pub use one_recipe::{RecipeCheck, Truth, validate_recipe};
pub use progress::{NoProgress, Progress};
pub use summary::{authors_way_line, render_text, reusable_line};

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;

use crate::model::RunSummary;
use crate::openrewrite::Versions;
use artifacts::RunDir;

/// Limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budgets {
    /// Wall-clock limit of the whole run.
    pub max_wall: Duration,
    /// Limit of one recipe execution.
    pub per_execution: Duration,
    /// Recipe executions in all (retries and refinement rounds included).
    pub max_executions: usize,
    /// Refinement rounds (each synthesizes and validates one option 3).
    pub max_rounds: usize,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            max_wall: Duration::from_secs(45 * 60),
            per_execution: Duration::from_secs(15 * 60),
            max_executions: 10,
            max_rounds: 2,
        }
    }
}

/// One `analyze` run.
#[derive(Debug, Clone)]
pub struct AnalysisRequest {
    /// The repository to analyze (work tree or bare directory); only read.
    pub repo: PathBuf,
    /// The PR's base: any commit-ish, resolved by setup.
    pub base: String,
    /// The PR's head: any commit-ish, resolved by setup.
    pub head: String,
    /// The run directory the artifacts go to; it must not exist yet or be empty.
    pub out_dir: PathBuf,
    /// Recipe executions at once.
    pub jobs: usize,
    /// The run's limits: wall time, per execution, executions, refinement rounds.
    pub budgets: Budgets,
    /// The OpenRewrite versions to validate with: the pins with the user's overrides.
    pub versions: Versions,
    /// What validates the options (`auto`: the embedded runner, then the plugin confirms).
    pub backend: crate::validation::choice::BackendChoice,
    /// How far the repository's own build is trusted: whether it may run (the plugin backend,
    /// `auto`'s confirmation) and whether its `.mvn/` configuration is honoured.
    pub trust: crate::validation::trust::Trust,
    /// The build's directory in a monorepo (None: the repository root).
    pub project_dir: Option<crate::setup::ProjectDir>,
}

/// Runs the pipeline. The artifacts, `workflow-metadata.json` included, are written even when a
/// phase fails; a bad input (not a repository, unknown ref, empty diff, no build file) is returned
/// as an error after that.
pub fn analyze(req: &AnalysisRequest, progress: &dyn Progress) -> Result<RunSummary> {
    let (summary, fatal) = analyze_to_end(req, progress)?;
    match fatal {
        Some(error) => Err(error),
        None => Ok(summary),
    }
}

/// [`analyze`], also giving the summary (status `failed`, with its reason) when a fatal error ended
/// the run: `--json` prints it either way. `Err` only when not even the run directory was made.
pub fn analyze_to_end(
    req: &AnalysisRequest,
    progress: &dyn Progress,
) -> Result<(RunSummary, Option<anyhow::Error>)> {
    crate::process::install_interrupt_handler();
    let ctx = context::Context::new(req, RunDir::create_fresh(&req.out_dir)?, progress);
    let mut budget = budget::Budget::new(req.budgets, ctx.started);
    let mut products = products::Products::default();
    let mut journal = driver::run(&ctx, &mut budget, &mut products)?;
    progress.finish();
    let summary = summary::summary(&ctx, &products, &journal);
    summary::write_metadata(&ctx, &budget, &products, &journal, &summary)?;
    Ok((summary, journal.fatal.take()))
}
