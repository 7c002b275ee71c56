//! `workflow-metadata.json`: the run's summary with what it ran on and what it spent, for tools
//! and for a later `apply` or eval that reads an analyze output directory.

use serde::Serialize;

use super::driver::PhaseRecord;
use crate::model::RunSummary;

/// `workflow-metadata.json`: the run's result (as `analyze --json` prints it), what it ran on,
/// what it spent and how each phase went.
#[derive(Serialize, schemars::JsonSchema)]
pub struct WorkflowMetadata<'a> {
    pub tool: &'static str,
    /// This tool's version.
    pub version: &'static str,
    /// The analysis's result, as `analyze --json` prints it.
    #[serde(flatten)]
    pub summary: &'a RunSummary,
    pub repository: String,
    pub base: Ref<'a>,
    pub head: Ref<'a>,
    pub started_at: &'a str,
    pub finished_at: String,
    pub openrewrite: OpenRewrite<'a>,
    pub budgets: BudgetsUsed,
    pub phases: &'a [PhaseRecord],
    /// The embedded runner's log, or why it could not start (absent when no phase needed it).
    pub embedded_runner: Option<EmbeddedRunner>,
}

/// A ref as given and the commit it resolved to (empty when setup did not get that far).
#[derive(Serialize, schemars::JsonSchema)]
pub struct Ref<'a> {
    #[serde(rename = "ref")]
    pub name: &'a str,
    pub commit: &'a str,
}

/// The OpenRewrite plugin versions the run used, and the recipe artifacts the user pinned.
#[derive(Serialize, schemars::JsonSchema)]
pub struct OpenRewrite<'a> {
    pub maven_plugin: &'a str,
    pub gradle_plugin: &'a str,
    pub recipe_artifacts_override: Vec<String>,
}

/// The run's limits and what it used of them.
#[derive(Serialize, schemars::JsonSchema)]
pub struct BudgetsUsed {
    pub max_wall_seconds: u64,
    pub per_execution_seconds: u64,
    pub max_executions: usize,
    pub max_rounds: usize,
    pub executions_used: usize,
    pub rounds_used: usize,
}

#[derive(Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum EmbeddedRunner {
    /// It ran; `log` names its log in the run directory, when it was kept.
    Ran { log: Option<&'static str> },
    /// Why it could not start.
    Unavailable { unavailable: String },
}
