//! Phase 4, validation: run a recipe for real with OpenRewrite on a fresh temporary clone of the base
//! commit and measure its diff against the PR's.
//!
//! The user's repository is only read: the clone lives in a temporary directory that is removed
//! whatever happens (success, failure, timeout, Ctrl-C); the recipe file and the Gradle init script
//! live beside the clone, never inside it.
//!
//! Two backends validate: [`embedded`] (our runner on OpenRewrite's libraries) and [`plugin`] (the
//! project's build tool with the rewrite plugin). [`choice`] picks and starts one on a base
//! ([`choice::start`]), and its [`choice::Validator::run`] runs a [`Recipe`] against what is
//! [`Expected`], into an [`Output`], within [`Limits`]; this module holds what both backends share:
//! those inputs (as the backends read them, a [`RecipeRun`]), the artifacts a run writes and their
//! stats.
#![deny(missing_docs)]

pub mod build;
pub mod choice;
pub mod datatables;
pub mod embedded;
pub mod jdk;
pub mod maven_settings;
pub(crate) mod plugin;
pub use plugin::learned::install as install_learned_for_plugin;
pub mod report;
pub(crate) mod tests_count;
pub mod trust;
pub(crate) mod xml;

// The layer below, in scope under the names the modules have always used (`crate::diff::…`), and
// this crate under its module's old name (`crate::validation::…`).
use crate as validation;
use rewrite_assist_core::{
    catalog, diff, document, error, metrics, model, openrewrite, process, redact, setup,
};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::diff::Diff;
use crate::error::bad_input;
use crate::model::{ErrorKind, RunError, TestCounts, Timings, ValidationStats};
use crate::openrewrite::{Coordinates, RecipeFile, RecipeStep, Versions};

/// Default limit for one recipe execution.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// Looks up the artifact that ships a recipe (None: bundled with the plugins, or unknown).
pub type ArtifactLookup<'a> = &'a (dyn Fn(&str) -> Option<Coordinates> + Sync);
/// Checks a recipe step's option names before running (OpenRewrite ignores unknown ones).
pub type OptionCheck<'a> =
    &'a (dyn Fn(&RecipeStep) -> Result<(), crate::catalog::options::StepProblem> + Sync);

/// The recipe a run validates.
pub struct Recipe<'a> {
    /// The recipe file's text (rewrite.yml format).
    pub yaml: &'a str,
    /// Which recipe of the file to run; None = the only one it defines.
    pub name: Option<&'a str>,
    /// Where its steps' recipes ship (the plugin adds those artifacts).
    pub artifacts_for: ArtifactLookup<'a>,
    /// Checks its steps' option names before running; None: they are not checked.
    pub option_check: Option<OptionCheck<'a>>,
}

/// What a run's result is measured against.
pub struct Expected<'a> {
    /// The PR's diff: the ground truth (empty where there is no PR: a rollout's target).
    pub diff: &'a Diff,
    /// The PR's files, for telling false positives apart ([`crate::metrics::classes`]); None
    /// when only its diff is known.
    pub pr: Option<&'a crate::metrics::classes::PrView>,
    /// What the run measures besides the diff: the old library's residual uses and the compile
    /// check (embedded runner only; None: nothing).
    pub measure: Option<&'a crate::model::residual::Measure>,
}

/// Where a run writes its files.
pub struct Output<'a> {
    /// Where `<prefix>recipe.diff`, `<prefix>stats.json`, `<prefix>build.log` and the data tables
    /// (`<prefix>datatables/`) are written.
    pub dir: &'a Path,
    /// `""` for `validate`, `"option-2-"` in the analyze pipeline.
    pub prefix: &'a str,
    /// The run's ledger of capped artifacts (the analyze pipeline's); None: the diff written is
    /// still capped on its own ([`crate::setup::artifact_caps`]).
    pub ledger: Option<&'a crate::setup::artifact_caps::Ledger>,
}

impl<'a> Output<'a> {
    /// The files without a prefix, capped on their own.
    pub fn dir(dir: &'a Path) -> Output<'a> {
        Output { dir, prefix: "", ledger: None }
    }
}

/// What one run may spend.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The recipe run's time limit (the embedded runner: parse included).
    pub timeout: Duration,
}

/// One validation run, as the backends read it: [`choice::Validator::run`] puts it together
/// from the validator's base and the run's recipe, expectation, output and limits.
pub(crate) struct RecipeRun<'a> {
    /// The repository (work tree or bare directory), see [`crate::setup::Repo::path`].
    pub repo: &'a Path,
    /// The base commit (a full id, see [`Repo::resolve`]).
    pub base: &'a str,
    /// The PR's diff: the ground truth.
    pub expected: &'a Diff,
    pub recipe_yaml: &'a str,
    /// Which recipe of the file to run; None = the only one it defines.
    pub recipe_name: Option<&'a str>,
    pub timeout: Duration,
    pub versions: &'a Versions,
    pub artifacts_for: ArtifactLookup<'a>,
    pub option_check: Option<OptionCheck<'a>>,
    /// Where `<prefix>recipe.diff`, `<prefix>stats.json`, `<prefix>build.log` and the data tables
    /// (`<prefix>datatables/`) are written.
    pub out_dir: &'a Path,
    /// `""` for `validate`, `"option-2-"` in the analyze pipeline.
    pub file_prefix: &'a str,
    /// The run's ledger of capped artifacts (the analyze pipeline's); None: the diff written is
    /// still capped on its own ([`crate::setup::artifact_caps`]).
    pub ledger: Option<&'a crate::setup::artifact_caps::Ledger>,
    /// The embedded runner's session on this repository and base, when it validates; None: the
    /// project's build tool with the rewrite plugin.
    pub session: Option<&'a embedded::Session>,
    /// How far the repository's own build is trusted: whether the plugin backend may run its code
    /// and honours the clone's `.mvn/` configuration.
    pub trust: trust::Trust,
    /// The build's directory in the repository (None: its root).
    pub project_dir: Option<&'a crate::setup::ProjectDir>,
    /// The PR's files, for telling false positives apart ([`crate::metrics::classes`]); None
    /// when only its diff is known.
    pub pr: Option<&'a crate::metrics::classes::PrView>,
    /// What the run measures besides the diff: the old library's residual uses and the compile
    /// check (embedded runner only; None: nothing).
    pub measure: Option<&'a crate::model::residual::Measure>,
}

impl RecipeRun<'_> {
    pub(crate) fn artifact(&self, name: &str) -> PathBuf {
        self.out_dir.join(format!("{}{name}", self.file_prefix))
    }
}

/// What a run produced besides the stats.
pub struct RunOutput {
    /// The run's stats, as written to `<prefix>stats.json` (metrics, timings, error).
    pub stats: ValidationStats,
    /// The recipe's diff (excluded paths removed), as written to `<prefix>recipe.diff`.
    pub diff: String,
}

/// Runs the recipe and writes the artifacts. A recipe that cannot run is a classified error inside
/// the stats; `Err` is for problems with the input or the machine (unknown ref, no build file, no
/// JDK, no `mvn`).
fn run(req: &RecipeRun<'_>) -> Result<RunOutput> {
    datatables::clear(req)?;
    match req.session {
        Some(session) => embedded::run(req, session),
        None => plugin::run(req),
    }
}

/// The request's recipe file and the name of the recipe to run, with `stats.recipe_name` set; a
/// file that is not YAML, or a step the option check refuses, is the run's error.
pub(crate) fn checked_recipe(
    req: &RecipeRun<'_>,
    stats: &mut ValidationStats,
) -> Result<std::result::Result<(RecipeFile, String), RunError>> {
    let file = match RecipeFile::parse(req.recipe_yaml) {
        Ok(file) => file,
        Err(e) => return Ok(Err(RunError::new(ErrorKind::YamlError, e.to_string()))),
    };
    let name = choose_recipe(&file, req.recipe_name)?;
    stats.recipe_name = name.clone();
    if let Some(check) = req.option_check {
        for step in file.external_steps(&name) {
            if let Err(problem) = check(step) {
                let mut error = RunError::new(ErrorKind::InvalidOption, problem.to_string());
                error.recipe = Some(step.name.clone());
                return Ok(Err(error));
            }
        }
    }
    Ok(Ok((file, name)))
}

/// Computes the metrics, writes `<prefix>recipe.diff` and `<prefix>stats.json`.
pub(crate) fn finish(
    req: &RecipeRun<'_>,
    mut stats: ValidationStats,
    diff_text: String,
    error: Option<RunError>,
    total: Instant,
) -> Result<RunOutput> {
    let actual = diff::parse(&diff_text).context("reading the recipe's own diff")?;
    stats.metrics = crate::metrics::compare(req.expected, &actual);
    stats.migration = req.pr.map(|pr| {
        let classes =
            crate::metrics::classes::classify(pr, &actual, &stats.metrics, Some(&stats.result_types));
        crate::model::validation::Migration::of(classes, stats.metrics.true_positives)
    });
    stats.error = error;
    stats.timings.total_seconds = total.elapsed().as_secs_f64();
    let own = crate::setup::artifact_caps::Ledger::default();
    let ledger = req.ledger.unwrap_or(&own);
    std::fs::write(req.artifact("recipe.diff"), ledger.fit("recipe.diff", &diff_text).as_bytes())?;
    write_stats(&req.artifact("stats.json"), &stats)?;
    Ok(RunOutput { stats, diff: diff_text })
}

/// Writes `stats` to `path` as `stats.json` holds them: each list of lines capped
/// ([`ValidationStats::listed`]), the counts whole.
pub(crate) fn write_stats(path: &Path, stats: &ValidationStats) -> Result<()> {
    let listed = stats.listed(crate::setup::artifact_caps::MAX_LISTED_LINES);
    std::fs::write(path, crate::document::to_json(&listed)?)?;
    Ok(())
}

/// Stats of a run that did not happen (yet): no changes, so every PR line is a false negative.
pub fn empty_stats(recipe_name: &str, expected: &Diff) -> ValidationStats {
    ValidationStats {
        recipe_name: recipe_name.to_string(),
        build_tool: None,
        jdk: None,
        command: None,
        recipe_artifacts: Vec::new(),
        metrics: crate::metrics::compare(expected, &Diff::default()),
        timings: Timings::default(),
        attribution: Vec::new(),
        tests: TestCounts::default(),
        warnings: Vec::new(),
        error: None,
        backend: None,
        left_out: Vec::new(),
        confirmation: None,
        step_lines: Vec::new(),
        whole_steps_by_file: Default::default(),
        migration: None,
        residual: None,
        unresolved: None,
        result_types: Default::default(),
    }
}

/// [`finish`] for a backend that produces its own log: writes `<prefix>build.log` first.
pub(crate) fn finish_run(
    req: &RecipeRun<'_>,
    stats: ValidationStats,
    diff_text: String,
    error: Option<RunError>,
    total: Instant,
    log: &str,
) -> Result<RunOutput> {
    std::fs::write(req.artifact("build.log"), log)
        .with_context(|| format!("writing {}", req.artifact("build.log").display()))?;
    finish(req, stats, diff_text, error, total)
}

/// The recipe to activate: the one asked for, or the file's only recipe.
pub fn choose_recipe(file: &RecipeFile, asked: Option<&str>) -> Result<String> {
    let names = file.names();
    match asked {
        Some(name) if file.get(name).is_some() => Ok(name.to_string()),
        Some(name) => Err(bad_input(format!(
            "recipe `{name}` is not defined in the recipe file (it defines {})",
            names.join(", ")
        ))),
        None => match file.roots().as_slice() {
            [only] => Ok(only.to_string()),
            _ => Err(bad_input(format!(
                "the recipe file defines several recipes ({}); choose one with --recipe-name",
                names.join(", ")
            ))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WRAPPED: &str = "type: specs.openrewrite.org/v1beta/recipe\nname: a.Main\nrecipeList:\n  - a.Main.Scoped1\n  - org.openrewrite.java.migrate.UpgradeToJava17\n---\ntype: specs.openrewrite.org/v1beta/recipe\nname: a.Main.Scoped1\npreconditions:\n  - org.openrewrite.java.dependencies.search.ModuleHasDependency:\n      groupIdPattern: org.springframework.boot\n      artifactIdPattern: \"*\"\nrecipeList:\n  - org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_1\n";

    #[test]
    fn without_a_name_the_recipe_no_other_recipe_runs_is_chosen() {
        let file = RecipeFile::parse(WRAPPED).unwrap();
        assert_eq!(choose_recipe(&file, None).unwrap(), "a.Main");
        assert_eq!(choose_recipe(&file, Some("a.Main.Scoped1")).unwrap(), "a.Main.Scoped1");
        let two_roots = format!(
            "{WRAPPED}---\ntype: specs.openrewrite.org/v1beta/recipe\nname: b.Other\nrecipeList:\n  - org.openrewrite.java.migrate.UpgradeToJava21\n"
        );
        let error = choose_recipe(&RecipeFile::parse(&two_roots).unwrap(), None).unwrap_err();
        assert!(error.to_string().contains("choose one with --recipe-name"), "{error}");
    }

    #[test]
    fn a_stats_file_lists_at_most_so_many_lines_and_keeps_the_counts() {
        let added: String = (0..30).map(|i| format!("+line {i}\n")).collect();
        let pr = crate::diff::parse(&format!(
            "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -0,0 +1,30 @@\n{added}"
        ))
        .unwrap();
        let stats = empty_stats("r", &pr);
        assert!(matches!(stats.listed(30), std::borrow::Cow::Borrowed(_)), "short lists: as they are");
        let listed = stats.listed(10);
        assert_eq!(listed.metrics.false_negative_lines.len(), 10);
        assert_eq!(listed.metrics.false_negatives, 30, "the count stays whole");
        assert_eq!(stats.metrics.false_negative_lines.len(), 30, "the stats in memory are whole");
    }

    /// A reviewer reads in `stats.json` why a false positive is not counted against the recipe:
    /// the rule that classified it.
    #[test]
    fn stats_json_names_the_rule_of_each_classified_line() {
        let section = |after: &str| {
            format!(
                "diff --git a/src/T.java b/src/T.java\n--- a/src/T.java\n+++ b/src/T.java\n@@ -1,2 +1,3 @@\n package a;\n+{after}\n class T {{}}\n"
            )
        };
        let pr = crate::diff::parse(&section("import b.B;")).unwrap();
        let base = std::collections::BTreeMap::from([(
            "src/T.java".to_string(),
            "package a;\nclass T {}\n".to_string(),
        )]);
        let head = std::collections::BTreeMap::from([(
            "src/T.java".to_string(),
            "package a;\nimport b.B;\nclass T {}\n".to_string(),
        )]);
        let view = crate::metrics::classes::PrView::new(pr.clone(), &base, head);
        let dir = tempfile::tempdir().unwrap();
        let lookup = |_: &str| None;
        let req = RecipeRun {
            repo: dir.path(),
            base: "0000000000000000000000000000000000000000",
            expected: &pr,
            recipe_yaml: "",
            recipe_name: None,
            timeout: DEFAULT_TIMEOUT,
            versions: &Versions::default(),
            artifacts_for: &lookup,
            option_check: None,
            out_dir: dir.path(),
            file_prefix: "",
            ledger: None,
            session: None,
            trust: trust::Trust::Untrusted,
            project_dir: None,
            pr: Some(&view),
            measure: None,
        };
        // The recipe adds a blank line where the PR adds an import: a false positive, layout.
        finish(&req, empty_stats("r", &pr), section(""), None, Instant::now()).unwrap();
        let written: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("stats.json")).unwrap()).unwrap();
        let layout = &written["migration"]["lines"]["layout"];
        assert_eq!(layout[0]["content"], "", "{written:#}");
        assert_eq!(layout[0]["rule"], "blank_line", "{written:#}");
        assert_eq!(written["migration"]["counts"]["layout"], 1);
    }
}
