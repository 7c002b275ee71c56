//! What one `analyze` run produced: the `--json` output, `workflow-metadata.json` and the audit log.

use serde::{Deserialize, Serialize};

use super::{RunError, Strategy};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Every phase ran.
    Success,
    /// A recommendation exists but a phase failed or a budget cut the run short.
    Partial,
    /// No option could be validated.
    Failed,
}

/// How far to trust the recommended recipe (ARCHITECTURE.md, decision phase).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// F1 ≥ 0.8: a migration PR may be opened on request.
    Recommended,
    /// 0.5 ≤ F1 < 0.8.
    NeedsReview,
    /// F1 < 0.5: the intent tree only.
    NoReliableRecipe,
}

impl Confidence {
    pub fn of(f1: f64) -> Confidence {
        if f1 >= 0.8 {
            Confidence::Recommended
        } else if f1 >= 0.5 {
            Confidence::NeedsReview
        } else {
            Confidence::NoReliableRecipe
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Confidence::Recommended => "recommended",
            Confidence::NeedsReview => "needs review",
            Confidence::NoReliableRecipe => "no reliable recipe",
        }
    }
}

/// What ran the recipes of a validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Backend {
    /// `rewrite-maven-plugin:runNoFork` on the project's Maven build.
    MavenPlugin,
    /// The rewrite Gradle plugin through an init script on the project's Gradle build.
    GradlePlugin,
    /// Our runner on OpenRewrite's libraries: parse once, no build tool (docs/embedded-runner.md).
    Embedded,
}

impl Backend {
    /// The backend of a build tool as `ValidationStats::build_tool` names it.
    pub fn of_build_tool(tool: &str) -> Option<Backend> {
        match tool {
            "maven" => Some(Backend::MavenPlugin),
            "gradle" => Some(Backend::GradlePlugin),
            _ => None,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Backend::MavenPlugin => "maven-plugin",
            Backend::GradlePlugin => "gradle-plugin",
            Backend::Embedded => "embedded",
        }
    }
}

/// The recommended recipe run once more with the project's own build tool (what users will run),
/// after the embedded runner found it (`--backend auto`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Confirmation {
    /// The plugin that ran it; None when it could not start (no build file).
    pub backend: Option<Backend>,
    /// The plugin ran and produced the same changes as the embedded runner.
    pub confirmed: bool,
    /// The plugin's scores (0 when it could not run).
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    /// Why the plugin could not run (e.g. `dependency_resolution`: the build does not resolve).
    pub error: Option<RunError>,
    /// Lines where the two backends' diffs differ (plugin's minus embedded's and vice versa).
    #[serde(default)]
    pub differing_lines: usize,
}

/// One validated option.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct OptionResult {
    pub option: super::OptionId,
    pub strategy: Strategy,
    pub recipe_name: String,
    /// Number of recipes in the option's recipe list (after retries dropped failing ones).
    pub recipes: usize,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub perfect_match: bool,
    /// Share of true positives produced by semantic (non-text) recipes.
    pub semantic_share: f64,
    pub wall_seconds: f64,
    /// Recipe executions spent on this option (retries included).
    pub attempts: usize,
    /// Recipes dropped because they failed to run.
    pub dropped: Vec<String>,
    /// Fewer test methods after the recipe than before.
    pub tests_dropped: bool,
    /// Why the last attempt failed, if it did.
    pub error: Option<RunError>,
    /// What ran it; None when the run stopped before the build was detected.
    #[serde(default)]
    pub backend: Option<Backend>,
    /// TP / (TP + wrong false positives): layout, variants and completions do not count
    /// (computed in `metrics::classes`); None when the PR's files were not known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migration_precision: Option<f64>,
    /// Its false positives by class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub false_positive_classes: Option<super::classes::ClassCounts>,
    /// The reusable recipe only: recall over the PR's migration lines (the lines of the intents
    /// the reusable recipe leaves out as side work do not count), and the harmonic mean of
    /// migration precision and that recall: how well it reproduces the PR's *migration* (the one
    /// definition, `metrics::MigrationScore`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migration_recall: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migration_f1: Option<f64>,
    /// Uses of the migration's old library before and after the option's recipe, on this PR's
    /// base (embedded runner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub residual: Option<super::residual::Residual>,
    /// Symbols of the files it changed that no longer resolve (embedded runner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unresolved: Option<super::residual::Unresolved>,
}

impl OptionResult {
    pub fn ran(&self) -> bool {
        self.error.is_none()
    }
}

/// The recommendation: the best option and the confidence it deserves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Recommendation {
    pub option: super::OptionId,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub perfect_match: bool,
    pub semantic_share: f64,
    pub confidence: Confidence,
    /// Its migration precision, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migration_precision: Option<f64>,
    /// Its semantic share over the migration's lines: the true positives of the intents outside
    /// the migration (side work such as a README or a version of the project itself, the same
    /// lines the reusable recipe's migration recall leaves out) do not count. None without an
    /// intent tree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migration_semantic_share: Option<f64>,
    /// Why it was chosen over an option with a higher F1, when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// The outcome of `analyze` (its `--json` output; also inside `workflow-metadata.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RunSummary {
    pub status: RunStatus,
    /// Why the run is partial or failed.
    pub reason: Option<String>,
    /// Whether the PR is a migration (the gate of `decision::pr_kind`), and why, in one sentence.
    #[serde(default)]
    pub pr_kind: super::PrKind,
    #[serde(default)]
    pub pr_kind_reason: String,
    /// What the recipes are good for (`decision::verdict`).
    #[serde(default)]
    pub verdict: super::Verdict,
    pub recommended: Option<Recommendation>,
    pub options: Vec<OptionResult>,
    /// The intent tree's strategic titles and coverage, for reports.
    pub intents: IntentSummary,
    pub artifacts_dir: String,
    pub wall_seconds: f64,
    /// The backend choice of the run (`embedded`, `plugin`, `auto`).
    #[serde(default)]
    pub backend: Option<String>,
    /// With `auto`: the recommended recipe confirmed with the project's build tool, or why not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmation: Option<Confirmation>,
    /// The recommended recipe generalized for other repositories (`result/reusable-recipe.yaml`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reusable: Option<ReusableRecipe>,
    /// Where the recommended recipe wrote the migration another way, which catalog recipe writes
    /// it the author's way.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authors_way: Vec<AuthorsWay>,
}

/// A file where the recommended recipe wrote the migration another way than the author, and the
/// catalog recipe (run on its own by discovery) that writes the author's lines there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AuthorsWay {
    pub path: String,
    /// The recommended recipe's lines there that the PR does not have (variants and wrong lines).
    pub lines_differing: usize,
    /// The recipe, with its options (`Name{key=value}`).
    pub recipe: String,
    /// It ran on the migrated code (discovery's follow-up round): add it after the migration.
    #[serde(default)]
    pub on_migration: bool,
    /// How many of the PR's lines there that the recommended recipe missed it writes exactly.
    pub lines_written: usize,
    pub lines_missed: usize,
}

/// The reusable recipe: semantic steps only, nothing pinned to this repository.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ReusableRecipe {
    pub recipe_name: String,
    pub recipes: usize,
    /// What was left out or generalized, one line each.
    pub generalized: Vec<String>,
    /// Its run on this PR (F1, semantic share); None when it could not run here.
    pub result: Option<OptionResult>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, schemars::JsonSchema)]
pub struct IntentSummary {
    pub coverage: f64,
    pub strategic: Vec<String>,
    pub tactical: usize,
    pub atomic: usize,
}

/// One line of `audit.jsonl`: a phase ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AuditEntry {
    /// RFC 3339 UTC time the phase ended.
    pub at: String,
    pub phase: String,
    pub outcome: String,
    pub seconds: f64,
    pub inputs: Vec<String>,
    pub outputs: Vec<String>,
    pub detail: String,
}
