//! What one `analyze` run produced: the `--json` output, `workflow-metadata.json` and the audit log.

use serde::{Deserialize, Serialize};

use super::{RunError, Strategy};

/// How an `analyze` run ended.
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
    /// The confidence an F1 (0.0–1.0) deserves: 0.8 and 0.5 are the thresholds.
    pub fn of(f1: f64) -> Confidence {
        if f1 >= 0.8 {
            Confidence::Recommended
        } else if f1 >= 0.5 {
            Confidence::NeedsReview
        } else {
            Confidence::NoReliableRecipe
        }
    }

    /// The value as reports print it, e.g. `needs review`.
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

    /// The value as the JSON spells it, e.g. `maven-plugin`.
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
    /// The plugin's precision against the PR, 0.0–1.0 (0 when it could not run).
    pub precision: f64,
    /// The plugin's recall against the PR, 0.0–1.0.
    pub recall: f64,
    /// The plugin's F1 against the PR, 0.0–1.0.
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
    /// Which option (1 wide, 2 narrow, 3 refined, 4 reusable, 5 learned).
    pub option: super::OptionId,
    /// How the option's recipe was composed.
    pub strategy: Strategy,
    /// The option's declarative recipe name, e.g. `rewriteassist.Option2Narrow`.
    pub recipe_name: String,
    /// Number of recipes in the option's recipe list (after retries dropped failing ones).
    pub recipes: usize,
    /// Share of the recipe's changed lines that the PR has too, 0.0–1.0.
    pub precision: f64,
    /// Share of the PR's changed lines the recipe made, 0.0–1.0.
    pub recall: f64,
    /// Harmonic mean of precision and recall, 0.0–1.0.
    pub f1: f64,
    /// True when the recipe's diff equals the PR's (no FP, no FN).
    pub perfect_match: bool,
    /// Share of true positives produced by semantic (non-text) recipes: catalog and learned.
    pub semantic_share: f64,
    /// The part of `semantic_share` that catalog recipes produced.
    #[serde(default)]
    pub catalog_share: f64,
    /// The part of `semantic_share` that recipes learned from this PR produced (templates
    /// compiled into a recipe jar): judged by each learned step's own lines (embedded runner).
    #[serde(default)]
    pub learned_share: f64,
    /// Seconds the option's validation took, retries included.
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
    /// the reusable recipe leaves out as side work do not count): with `migration_f1`, how well it
    /// reproduces the PR's *migration* (the one definition, `metrics::MigrationScore`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migration_recall: Option<f64>,
    /// Harmonic mean of migration precision and migration recall, 0.0–1.0 (reusable recipe only).
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
    /// True when the option's recipe ran (its last attempt did not fail).
    pub fn ran(&self) -> bool {
        self.error.is_none()
    }
}

/// The recommendation: the best option and the confidence it deserves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Recommendation {
    /// The recommended option.
    pub option: super::OptionId,
    /// Its precision against the PR, 0.0–1.0.
    pub precision: f64,
    /// Its recall against the PR, 0.0–1.0.
    pub recall: f64,
    /// Its F1 against the PR, 0.0–1.0.
    pub f1: f64,
    /// True when its diff equals the PR's.
    pub perfect_match: bool,
    /// Share of its true positives made by semantic (non-text) recipes, 0.0–1.0: catalog and
    /// learned.
    pub semantic_share: f64,
    /// The part of `semantic_share` catalog recipes made.
    #[serde(default)]
    pub catalog_share: f64,
    /// The part of `semantic_share` recipes learned from this PR made.
    #[serde(default)]
    pub learned_share: f64,
    /// How far to trust it, from its F1.
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
    /// How the run ended.
    pub status: RunStatus,
    /// Why the run is partial or failed.
    pub reason: Option<String>,
    /// Whether the PR is a migration (the gate of `decision::pr_kind`).
    #[serde(default)]
    pub pr_kind: super::PrKind,
    /// One sentence saying why the PR is or is not a migration.
    #[serde(default)]
    pub pr_kind_reason: String,
    /// What the recipes are good for (`decision::verdict`).
    #[serde(default)]
    pub verdict: super::Verdict,
    /// The option to use, with its scores; absent when no option could be validated.
    pub recommended: Option<Recommendation>,
    /// Every option validated, in option order.
    pub options: Vec<OptionResult>,
    /// The intent tree's strategic titles and coverage, for reports.
    pub intents: IntentSummary,
    /// The run's output directory, where every artifact is written.
    pub artifacts_dir: String,
    /// Seconds the whole run took.
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
    /// The file, as the PR names it.
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
    /// How many of the PR's lines there the recommended recipe missed.
    pub lines_missed: usize,
}

/// The reusable recipe: semantic steps only, nothing pinned to this repository.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ReusableRecipe {
    /// Its declarative recipe name in `result/reusable-recipe.yaml`.
    pub recipe_name: String,
    /// Number of recipe steps it keeps.
    pub recipes: usize,
    /// What was left out or generalized, one line each.
    pub generalized: Vec<String>,
    /// Its run on this PR (F1, semantic share); None when it could not run here.
    pub result: Option<OptionResult>,
}

/// The intent tree in a few numbers, for reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, schemars::JsonSchema)]
pub struct IntentSummary {
    /// Share of the PR's changed lines some atomic intent explains, 0.0–1.0.
    pub coverage: f64,
    /// Titles of the strategic intents, e.g. "Upgrade Java 11 -> 17".
    pub strategic: Vec<String>,
    /// Number of tactical intents.
    pub tactical: usize,
    /// Number of atomic intents.
    pub atomic: usize,
}

/// One line of `audit.jsonl`: a phase ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AuditEntry {
    /// RFC 3339 UTC time the phase ended.
    pub at: String,
    /// The phase, as `audit.jsonl` names it (`setup`, `compose_wide`, `decide`, …).
    pub phase: String,
    /// How it ended: `ok`, `skipped`, `failed`, `stuck` or `out_of_budget`.
    pub outcome: String,
    /// Seconds the phase took.
    pub seconds: f64,
    /// The products the phase read.
    pub inputs: Vec<String>,
    /// Files the phase wrote, relative to the run directory.
    pub outputs: Vec<String>,
    /// What happened, in a line; empty when there is nothing to say.
    pub detail: String,
}
