//! What one validation run produced: `stats.json` / `option-N-stats.json`.

use serde::{Deserialize, Serialize};

use super::{Backend, Metrics};

/// The result of running one recipe on a clean clone of the base commit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ValidationStats {
    /// The recipe that was run (`rewrite.activeRecipes`).
    pub recipe_name: String,
    /// `maven` or `gradle`; None when the run stopped before the build was detected.
    pub build_tool: Option<String>,
    /// Major version of the JDK that ran OpenRewrite.
    pub jdk: Option<u32>,
    /// The command line, for reproducing the run by hand.
    pub command: Option<String>,
    /// Recipe modules put on the classpath (`g:a:v`).
    pub recipe_artifacts: Vec<String>,
    /// The recipe's diff against the PR's diff (all zeros recall when the run failed).
    pub metrics: Metrics,
    /// Seconds each stage of the validation took.
    pub timings: Timings,
    /// Which recipe changed which file (from the SourcesFileResults data table).
    pub attribution: Vec<Attribution>,
    /// Test methods before and after the recipe.
    pub tests: TestCounts,
    /// Problems that did not stop the run, e.g. files OpenRewrite could not parse.
    pub warnings: Vec<String>,
    /// Why the recipe could not run; None when it ran.
    pub error: Option<RunError>,
    /// What ran the recipe.
    #[serde(default)]
    pub backend: Option<Backend>,
    /// Steps the run left out because they failed on their own (embedded backend only: the plugin
    /// stops at the first failing step).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOut>,
    /// With `--backend auto`: the same recipe run with the project's build tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmation: Option<super::Confirmation>,
    /// The false positives by class and the migration precision (when the PR's files were known).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migration: Option<Migration>,
    /// Uses of the migration's old library before and after the recipe (embedded runner, when
    /// the old library is known).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub residual: Option<super::residual::Residual>,
    /// Symbols of the changed files that do not resolve before and after the recipe (embedded
    /// runner): a compile check without a build.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unresolved: Option<super::residual::Unresolved>,
    /// Embedded runner: the types each changed Java file of the result uses. In memory only
    /// (the classes ask whether a result still uses the library the PR migrates away from).
    #[serde(skip)]
    pub result_types: super::classes::ResultTypes,
    /// Embedded runner: what each step did on its own, line by line. In memory only (refinement
    /// judges a step by its own lines rather than by the files it shares with other steps).
    #[serde(skip)]
    pub step_lines: Vec<StepLines>,
    /// Embedded runner: for each file the whole run changed, the steps in its recipe stacks (by
    /// index). In memory only: who made a line in the whole run, where a step on its own would have
    /// made it too (a text step whose `find` an earlier learned or catalog step already rewrote).
    #[serde(skip)]
    pub whole_steps_by_file: std::collections::BTreeMap<String, Vec<usize>>,
}

impl ValidationStats {
    /// The stats as a file holds them: each list of lines (false positives, false negatives, the
    /// lines left out, each class of false positive) at most `max` long. The counts stay whole,
    /// so a reader sees how many are not listed.
    pub fn listed(&self, max: usize) -> std::borrow::Cow<'_, ValidationStats> {
        let m = &self.metrics;
        let classes = self.migration.as_ref().map(|m| &m.lines);
        let long = [m.false_positive_lines.len(), m.false_negative_lines.len(), m.unreproducible_lines.len()]
            .into_iter()
            .chain(
                classes
                    .iter()
                    .flat_map(|c| [c.layout.len(), c.variant.len(), c.completion.len(), c.wrong.len()]),
            )
            .any(|n| n > max);
        if !long {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut stats = self.clone();
        let m = &mut stats.metrics;
        m.false_positive_lines.truncate(max);
        m.false_negative_lines.truncate(max);
        m.unreproducible_lines.truncate(max);
        m.true_positive_lines = Vec::new();
        if let Some(c) = stats.migration.as_mut().map(|m| &mut m.lines) {
            for list in [&mut c.layout, &mut c.variant, &mut c.completion] {
                list.truncate(max);
            }
            c.wrong.truncate(max);
        }
        std::borrow::Cow::Owned(stats)
    }
}

/// Migration precision (TP / (TP + wrong)) and what each false positive is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Migration {
    /// TP / (TP + wrong), 0.0–1.0: layout, variants and completions do not count against it.
    pub precision: f64,
    /// How many false positives fall in each class.
    pub counts: super::classes::ClassCounts,
    /// The false-positive lines of each class (lists capped in the written file).
    pub lines: super::classes::Classes,
}

impl Migration {
    /// The migration precision and counts of these classes, for a recipe with `true_positives`.
    pub fn of(classes: super::classes::Classes, true_positives: usize) -> Migration {
        Migration {
            precision: classes.migration_precision(true_positives),
            counts: classes.counts(),
            lines: classes,
        }
    }
}

/// One step's own run, scored against the PR.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StepLines {
    /// Its 0-based position in the option's recipe list.
    pub step: usize,
    /// The step's lines the PR has too.
    pub tp_lines: Vec<super::ChangeLine>,
    /// The step's lines the PR does not have.
    pub fp_lines: Vec<super::ChangeLine>,
    /// Its false positives by class, when the PR's files were known.
    pub classes: Option<super::classes::Classes>,
    /// Its own diff (for touch-ups of what it wrote).
    pub diff: String,
}

/// A step left out of a run, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LeftOut {
    /// Its 0-based position in the option's recipe list.
    pub step: usize,
    /// The step's recipe name.
    pub recipe: String,
    /// Why it failed.
    pub error: RunError,
}

/// Wall-clock seconds per step.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default, schemars::JsonSchema)]
pub struct Timings {
    /// Seconds spent cloning the base commit.
    pub clone_seconds: f64,
    /// Seconds the recipe run took (build tool or embedded runner).
    pub run_seconds: f64,
    /// Seconds spent diffing and scoring the result.
    pub analysis_seconds: f64,
    /// Seconds the whole validation took.
    pub total_seconds: f64,
}

/// Test methods counted in the project before and after the recipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema)]
pub struct TestCounts {
    /// Test methods before the recipe.
    pub before: usize,
    /// Test methods after the recipe.
    pub after: usize,
    /// Fewer test methods after the recipe than before.
    pub dropped: bool,
}

impl TestCounts {
    /// Counts of test methods; `dropped` when there are fewer after.
    pub fn new(before: usize, after: usize) -> Self {
        TestCounts { before, after, dropped: after < before }
    }
}

/// One row: a recipe (at some level of the recipe hierarchy) changed a file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Attribution {
    /// Path of the file before the recipe (OpenRewrite's `sourcePath`).
    pub source_path: String,
    /// Path of the file after the recipe (`afterSourcePath`); differs when the recipe moved it.
    pub after_source_path: String,
    /// The recipe above `recipe` in the hierarchy (the option's own recipe); empty when not known.
    pub parent_recipe: String,
    /// Fully qualified name of the recipe that made the change.
    pub recipe: String,
    /// The recipe's options as the build tool's log prints them (`{key=value, …}`); the data table
    /// does not record them, and they tell two steps of the same recipe apart.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub options: String,
}

/// What kind of failure stopped a recipe run (`error.kind` in the JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// A recipe name OpenRewrite does not know (misspelled, or its module is not on the classpath).
    UnknownRecipe,
    /// A required option missing, an option value of the wrong type, or an option name the
    /// catalog does not know for that recipe.
    InvalidOption,
    /// The recipe YAML is not well-formed or not a recipe.
    YamlError,
    /// Maven/Gradle could not resolve the plugin, a recipe artifact or the project's dependencies.
    DependencyResolution,
    /// Sources could not be parsed and the run failed because of it.
    ParseFailure,
    /// Any other failure of the build tool.
    BuildToolFailure,
    /// The run exceeded its time limit and was killed.
    Timeout,
    /// The user interrupted the run (Ctrl-C).
    Interrupted,
    /// A recipe threw while it ran (embedded backend: the step is named).
    RecipeError,
    /// The run needed more memory than its heap limit.
    OutOfMemory,
    /// The embedded runner itself failed (crashed, or could not read the repository).
    RunnerFailure,
    /// The project's build tool cannot run here (a Gradle wrapper whose distribution is neither
    /// downloaded nor reachable): the plugin backend cannot start.
    NoBuildTool,
    /// The repository's own build (`./gradlew`, Maven build extensions) would have run, and the
    /// repository is not trusted: `auto`'s confirmation was skipped, or a rollout left it out.
    UntrustedBuild,
    /// The command's input could not be used (not a repository, an unknown ref, a file over its
    /// limit): nothing ran. Exit code 2.
    BadInput,
    /// rewrite-assist could not set the run up (a clone, a file it could not write: a full disk, a
    /// read-only directory): nothing of the recipe ran.
    SetupFailure,
}

impl ErrorKind {
    /// The kind as the JSON spells it, e.g. `unknown_recipe`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::UnknownRecipe => "unknown_recipe",
            ErrorKind::InvalidOption => "invalid_option",
            ErrorKind::YamlError => "yaml_error",
            ErrorKind::DependencyResolution => "dependency_resolution",
            ErrorKind::ParseFailure => "parse_failure",
            ErrorKind::BuildToolFailure => "build_tool_failure",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Interrupted => "interrupted",
            ErrorKind::RecipeError => "recipe_error",
            ErrorKind::OutOfMemory => "out_of_memory",
            ErrorKind::RunnerFailure => "runner_failure",
            ErrorKind::NoBuildTool => "no_build_tool",
            ErrorKind::UntrustedBuild => "untrusted_build",
            ErrorKind::BadInput => "bad_input",
            ErrorKind::SetupFailure => "setup_failure",
        }
    }
}

impl std::fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A classified run failure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RunError {
    /// What kind of failure it was.
    pub kind: ErrorKind,
    /// One line saying what went wrong.
    pub detail: String,
    /// The relevant part of the tool's log.
    #[serde(default)]
    pub excerpt: String,
    /// The recipe at fault, when the log names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recipe: Option<String>,
    /// The option at fault, when the log names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub property: Option<String>,
}

impl RunError {
    /// An error of `kind` with only a detail line.
    pub fn new(kind: ErrorKind, detail: impl Into<String>) -> Self {
        RunError { kind, detail: detail.into(), excerpt: String::new(), recipe: None, property: None }
    }
}
