//! `workflow-metadata.json`: the run's summary with what it ran on and what it spent, for tools
//! and for a later `apply` or eval that reads an analyze output directory.

use serde::Serialize;

use super::driver::PhaseRecord;
use crate::model::RunSummary;

/// `workflow-metadata.json`: the run's result (as `analyze --json` prints it), what it ran on,
/// what it spent and how each phase went.
#[derive(Serialize, schemars::JsonSchema)]
pub struct WorkflowMetadata<'a> {
    /// The tool that wrote the file: always `rewrite-assist`.
    pub tool: &'static str,
    /// This tool's version.
    pub version: &'static str,
    /// The analysis's result, as `analyze --json` prints it.
    #[serde(flatten)]
    pub summary: &'a RunSummary,
    /// The analyzed repository's path, as given.
    pub repository: String,
    /// The PR's base ref and its commit.
    pub base: Ref<'a>,
    /// The PR's head ref and its commit.
    pub head: Ref<'a>,
    /// When the run started, UTC (`YYYY-MM-DDTHH:MM:SSZ`).
    pub started_at: &'a str,
    /// When the run ended, UTC (`YYYY-MM-DDTHH:MM:SSZ`), as this file was written.
    pub finished_at: String,
    /// The OpenRewrite versions the validations used.
    pub openrewrite: OpenRewrite<'a>,
    /// The run's limits and what it used of them.
    pub budgets: BudgetsUsed,
    /// Each phase as it ran, in order: its outcome, seconds and detail.
    pub phases: &'a [PhaseRecord],
    /// The embedded runner's log, or why it could not start (absent when no phase needed it).
    pub embedded_runner: Option<EmbeddedRunner>,
}

/// A ref as given and the commit it resolved to (empty when setup did not get that far).
#[derive(Serialize, schemars::JsonSchema)]
pub struct Ref<'a> {
    /// The ref as given (a branch, tag or any commit-ish).
    #[serde(rename = "ref")]
    pub name: &'a str,
    /// The full commit id it resolved to; empty when setup did not get that far.
    pub commit: &'a str,
}

/// The OpenRewrite plugin versions the run used, and the recipe artifacts the user pinned.
#[derive(Serialize, schemars::JsonSchema)]
pub struct OpenRewrite<'a> {
    /// The rewrite-maven-plugin version of Maven builds.
    pub maven_plugin: &'a str,
    /// The rewrite Gradle plugin version of Gradle builds.
    pub gradle_plugin: &'a str,
    /// Recipe-module coordinates (`group:artifact:version`) the user put in place of the pinned
    /// ones.
    pub recipe_artifacts_override: Vec<String>,
}

/// The run's limits and what it used of them.
#[derive(Serialize, schemars::JsonSchema)]
pub struct BudgetsUsed {
    /// The wall-time limit of the whole run, in seconds (`--max-wall`).
    pub max_wall_seconds: u64,
    /// The time limit of one recipe execution, in seconds.
    pub per_execution_seconds: u64,
    /// Recipe executions allowed in all (retries and refinement rounds included).
    pub max_executions: usize,
    /// Refinement rounds allowed.
    pub max_rounds: usize,
    /// Recipe executions taken (a refused one is not counted).
    pub executions_used: usize,
    /// Refinement rounds run.
    pub rounds_used: usize,
}

/// The embedded runner in `workflow-metadata.json`: its log when it ran, or why it could not start.
#[derive(Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum EmbeddedRunner {
    /// It ran; `log` names its log in the run directory, when it was kept.
    Ran {
        /// The log's file name in the run directory; None when it was not kept.
        log: Option<&'static str>,
    },
    /// Why it could not start.
    Unavailable {
        /// The error that kept it from starting (with `auto`, the plugin validated instead).
        unavailable: String,
    },
}
