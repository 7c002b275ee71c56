//! Phase 4, validation: run a recipe for real with OpenRewrite on a fresh temporary clone of the base
//! commit and measure its diff against the PR's.
//!
//! The user's repository is only read: the clone lives in a temporary directory that is removed
//! whatever happens (success, failure, timeout, Ctrl-C); the recipe file and the Gradle init script
//! live beside the clone, never inside it.

pub(crate) mod attribution;
pub(crate) mod backend;
pub(crate) mod build;
pub(crate) mod choice;
pub mod embedded;
pub(crate) mod errors;
pub(crate) mod gradle_available;
pub mod jdk;
pub(crate) mod report;
pub(crate) mod tests_count;
pub(crate) mod trust;

use crate::process;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::diff::{self, Diff, TEMPORARY_INIT_SCRIPT, TEMPORARY_RECIPE};
use crate::error::bad_input;
use crate::model::{ErrorKind, RunError, TestCounts, Timings, ValidationStats};
use crate::openrewrite::{Coordinates, RecipeFile, RecipeStep, Versions};

/// Default limit for one recipe execution.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// Looks up the artifact that ships a recipe (None: bundled with the plugins, or unknown).
pub(crate) type ArtifactLookup<'a> = &'a (dyn Fn(&str) -> Option<Coordinates> + Sync);
/// Checks a recipe step's option names before running (OpenRewrite ignores unknown ones).
pub(crate) type OptionCheck<'a> = &'a (dyn Fn(&RecipeStep) -> Result<(), crate::mapping::StepProblem> + Sync);

/// One validation run.
pub(crate) struct Request<'a> {
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
    /// Where `<prefix>recipe.diff`, `<prefix>stats.json` and `<prefix>build.log` are written.
    pub out_dir: &'a Path,
    /// `""` for `validate`, `"option-2-"` in the analyze pipeline.
    pub file_prefix: &'a str,
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
}

impl Request<'_> {
    pub(crate) fn artifact(&self, name: &str) -> PathBuf {
        self.out_dir.join(format!("{}{name}", self.file_prefix))
    }
}

/// What a run produced besides the stats.
pub(crate) struct Outcome {
    pub stats: ValidationStats,
    /// The recipe's diff (excluded paths removed), as written to `<prefix>recipe.diff`.
    pub diff: String,
}

/// Runs the recipe and writes the artifacts. A recipe that cannot run is a classified error inside
/// the stats; `Err` is for problems with the input or the machine (unknown ref, no build file, no
/// JDK, no `mvn`).
pub(crate) fn run(req: &Request<'_>) -> Result<Outcome> {
    match req.session {
        Some(session) => embedded::run(req, session),
        None => run_plugin(req),
    }
}

/// The plugin backend: the project's Maven or Gradle build runs the rewrite plugin.
fn run_plugin(req: &Request<'_>) -> Result<Outcome> {
    process::install_interrupt_handler();
    let total = Instant::now();
    std::fs::create_dir_all(req.out_dir).with_context(|| format!("creating {}", req.out_dir.display()))?;
    // A log left by an earlier run in the same directory would be taken for this run's.
    if let Err(e) = std::fs::remove_file(req.artifact("build.log"))
        && e.kind() != std::io::ErrorKind::NotFound
    {
        return Err(anyhow::Error::new(e).context("removing the previous build.log"));
    }
    let mut stats = empty_stats(req.recipe_name.unwrap_or_default(), req.expected);

    let (file, name) = match checked_recipe(req, &mut stats)? {
        Ok(recipe) => recipe,
        Err(error) => return finish(req, stats, String::new(), Some(error), total),
    };
    let artifacts = artifacts_for(&file.external_steps(&name), req);
    stats.recipe_artifacts = artifacts.iter().map(ToString::to_string).collect();

    let started = Instant::now();
    let clone = crate::setup::git::clone_at(req.repo, req.base)?;
    stats.timings.clone_seconds = started.elapsed().as_secs_f64();
    // Where the build is: the clone, or a monorepo's project directory in it.
    let project = crate::setup::project_dir::project_root(clone.path(), req.project_dir)?;
    let tool = build::detect(&project)?;
    stats.build_tool = Some(format!("{tool:?}").to_lowercase());
    stats.backend = crate::model::Backend::of_build_tool(stats.build_tool.as_deref().unwrap_or_default());
    if let Some(error) = cannot_run(req, &project, tool) {
        return finish(req, stats, String::new(), Some(error), total);
    }
    let level = build::language_level(&project, tool);
    let jdk = jdk::choose(level, &jdk::installed())?;
    stats.jdk = Some(jdk.major);
    let tests_before = tests_count::count(&project);

    let recipe_file = clone.scratch().join(TEMPORARY_RECIPE);
    std::fs::write(&recipe_file, req.recipe_yaml)?;
    let init_script = clone.scratch().join(TEMPORARY_INIT_SCRIPT);
    let maven_basedir = clone.scratch().join("maven-basedir");
    let user_settings = backend::maven_user_settings();
    let ignored = match tool {
        // Maven finds `.mvn/` in the project directory or above it, up to the repository's root.
        build::BuildTool::Maven if !req.trust.honours_build_config() => {
            let mut found = backend::maven_build_config(&project);
            if found.is_empty() && project != clone.path() {
                found = backend::maven_build_config(clone.path());
            }
            found
        }
        _ => Vec::new(),
    };
    if !ignored.is_empty() {
        std::fs::create_dir_all(&maven_basedir)?;
    }
    let spec = backend::RunSpec {
        project: &project,
        recipe_file: &recipe_file,
        recipe_name: &name,
        artifacts: &artifacts,
        jdk: &jdk,
        maven_plugin_version: &req.versions.maven_plugin,
        gradle_plugin_version: &req.versions.gradle_plugin,
        init_script: &init_script,
        maven_basedir: (!ignored.is_empty()).then_some(maven_basedir.as_path()),
        maven_settings: user_settings.as_deref(),
    };
    if tool == build::BuildTool::Gradle {
        std::fs::write(&init_script, backend::gradle_init_script(&spec))?;
    }
    ignore_build_output(clone.path())?;
    let invocation = backend::invocation(tool, &spec);
    stats.command = Some(invocation.display());
    tracing::info!("running {}", invocation.display());

    let started = Instant::now();
    let log_path = req.artifact("build.log");
    let outcome = process::run_logged(invocation.command(), &log_path, req.timeout)?;
    stats.timings.run_seconds = started.elapsed().as_secs_f64();
    let log = std::fs::read(&log_path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    let error = outcome_error(&outcome, &log, req.timeout);
    if matches!(outcome, process::Outcome::Interrupted) {
        return finish(req, stats, String::new(), error, total);
    }

    let started = Instant::now();
    let diff_text = diff::remove_excluded_sections(&clone.staged_diff()?);
    stats.attribution = attribution::collect(&project, &log);
    if let Some(dir) = req.project_dir {
        // The plugin's paths are relative to the project; the PR's to the repository.
        for row in &mut stats.attribution {
            row.source_path = format!("{}{}", dir.prefix(), row.source_path);
        }
    }
    stats.tests = TestCounts::new(tests_before, tests_count::count(&project));
    stats.warnings = plugin_warnings(&log, &ignored, &stats.tests);
    stats.timings.analysis_seconds = started.elapsed().as_secs_f64();
    drop(clone);
    finish(req, stats, diff_text, error, total)
}

/// Why the project's build may not or cannot run, decided before anything of it runs: it would
/// run the repository's own code, which is not trusted (see [`trust`]), or no Gradle can start.
fn cannot_run(req: &Request<'_>, project: &Path, tool: build::BuildTool) -> Option<RunError> {
    if !req.trust.runs_own_build()
        && let Some(what) = trust::own_code(project, tool)
    {
        return Some(RunError::new(ErrorKind::UntrustedBuild, trust::withheld(&what)));
    }
    if tool == build::BuildTool::Gradle
        && let Some(why) = gradle_available::why_not(project)
    {
        return Some(RunError::new(ErrorKind::NoBuildTool, format!("no Gradle can run here: {why}")));
    }
    None
}

/// What the plugin run's report warns about: files OpenRewrite could not parse, recipes' own
/// warnings, the `.mvn/` files that were `ignored`, test methods removed.
fn plugin_warnings(log: &str, ignored: &[&str], tests: &TestCounts) -> Vec<String> {
    let mut warnings: Vec<String> = errors::parse_problems(log)
        .into_iter()
        .map(|f| format!("OpenRewrite could not parse {f}; no recipe saw it"))
        .chain(errors::recipe_warnings(log))
        .collect();
    if !ignored.is_empty() {
        warnings.push(format!(
            "ignored the repository's {}: it can run code of the repository in the build (use \
             --trust-build-config, or the action's trust-build-config input, to honour it)",
            ignored.join(", ")
        ));
    }
    if tests.dropped {
        warnings
            .push(format!("the recipe removed test methods: {} before, {} after", tests.before, tests.after));
    }
    warnings
}

/// The request's recipe file and the name of the recipe to run, with `stats.recipe_name` set; a
/// file that is not YAML, or a step the option check refuses, is the run's error.
pub(crate) fn checked_recipe(
    req: &Request<'_>,
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

/// How the build tool's run ended, as the run's error (None: it succeeded).
fn outcome_error(outcome: &process::Outcome, log: &str, timeout: Duration) -> Option<RunError> {
    match outcome {
        process::Outcome::Exited(status) if status.success() => None,
        process::Outcome::Exited(_) => Some(errors::classify(log)),
        process::Outcome::TimedOut => {
            let mut e = RunError::new(
                ErrorKind::Timeout,
                format!("the run exceeded {} s and was stopped", timeout.as_secs()),
            );
            e.excerpt = tail(log, 20);
            Some(e)
        }
        process::Outcome::Interrupted => {
            Some(RunError::new(ErrorKind::Interrupted, "interrupted by the user"))
        }
    }
}

/// Computes the metrics, writes `<prefix>recipe.diff` and `<prefix>stats.json`.
fn finish(
    req: &Request<'_>,
    mut stats: ValidationStats,
    diff_text: String,
    error: Option<RunError>,
    total: Instant,
) -> Result<Outcome> {
    let actual = diff::parse(&diff_text).context("reading the recipe's own diff")?;
    stats.metrics = crate::metrics::compare(req.expected, &actual);
    stats.migration = req.pr.map(|pr| {
        let classes =
            crate::metrics::classes::classify(pr, &actual, &stats.metrics, Some(&stats.result_types));
        crate::model::validation::Migration::of(classes, stats.metrics.true_positives)
    });
    stats.error = error;
    stats.timings.total_seconds = total.elapsed().as_secs_f64();
    std::fs::write(req.artifact("recipe.diff"), &diff_text)?;
    let json = serde_json::to_string_pretty(&stats)?;
    std::fs::write(req.artifact("stats.json"), json + "\n")?;
    Ok(Outcome { stats, diff: diff_text })
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
        migration: None,
        result_types: Default::default(),
    }
}

/// Runs `req`'s recipe once more with the project's build tool (files `<prefix>confirm-…`) and
/// compares it with what `explored` (the embedded runner's run) produced.
pub(crate) fn confirm(req: &Request<'_>, explored: &Outcome) -> Result<crate::model::Confirmation> {
    let prefix = format!("{}confirm-", req.file_prefix);
    let plugin = Request { session: None, file_prefix: &prefix, ..*req };
    let outcome = match run_plugin(&plugin) {
        Ok(outcome) => outcome,
        Err(e) if !process::interrupted() && !e.chain().any(|c| c.is::<crate::error::BadInput>()) => {
            return Ok(crate::model::Confirmation {
                backend: None,
                confirmed: false,
                precision: 0.0,
                recall: 0.0,
                f1: 0.0,
                error: Some(RunError::new(ErrorKind::BuildToolFailure, crate::error::one_line(&e))),
                differing_lines: 0,
            });
        }
        Err(e) => return Err(e),
    };
    let m = &outcome.stats.metrics;
    let differing_lines = match (diff::parse(&outcome.diff), diff::parse(&explored.diff)) {
        // A plugin that could not run says nothing about the embedded run's lines.
        _ if outcome.stats.error.is_some() => 0,
        (Ok(plugin_diff), Ok(embedded_diff)) => {
            let c = crate::metrics::compare(&embedded_diff, &plugin_diff);
            c.false_positives + c.false_negatives
        }
        _ => 0,
    };
    Ok(crate::model::Confirmation {
        backend: outcome.stats.backend,
        confirmed: outcome.stats.error.is_none() && differing_lines == 0,
        precision: m.precision,
        recall: m.recall,
        f1: m.f1,
        error: outcome.stats.error.clone(),
        differing_lines,
    })
}

/// [`finish`] for a backend that produces its own log: writes `<prefix>build.log` first.
pub(crate) fn finish_run(
    req: &Request<'_>,
    stats: ValidationStats,
    diff_text: String,
    error: Option<RunError>,
    total: Instant,
    log: &str,
) -> Result<Outcome> {
    std::fs::write(req.artifact("build.log"), log)
        .with_context(|| format!("writing {}", req.artifact("build.log").display()))?;
    finish(req, stats, diff_text, error, total)
}

/// The recipe to activate: the one asked for, or the file's only recipe.
pub(crate) fn choose_recipe(file: &RecipeFile, asked: Option<&str>) -> Result<String> {
    let names = file.names();
    match asked {
        Some(name) if file.get(name).is_some() => Ok(name.to_string()),
        Some(name) => Err(bad_input(format!(
            "recipe `{name}` is not defined in the recipe file (it defines {})",
            names.join(", ")
        ))),
        None if names.len() == 1 => Ok(names[0].to_string()),
        None => Err(bad_input(format!(
            "the recipe file defines several recipes ({}); choose one with --recipe-name",
            names.join(", ")
        ))),
    }
}

/// Recipe modules the recipe needs, plus the user's extra artifacts; sorted, deduplicated.
fn artifacts_for(steps: &[&RecipeStep], req: &Request<'_>) -> Vec<Coordinates> {
    let mut artifacts: Vec<Coordinates> =
        steps.iter().filter_map(|s| (req.artifacts_for)(&s.name)).map(|c| req.versions.apply(c)).collect();
    artifacts.extend(req.versions.extra_artifacts());
    artifacts.sort();
    artifacts.dedup();
    artifacts
}

/// Keeps build output out of `git add -A`: data tables, reports and compiled classes would make
/// the diff huge. The metric excludes these paths anyway.
fn ignore_build_output(project: &Path) -> Result<()> {
    let info = project.join(".git/info");
    std::fs::create_dir_all(&info)?;
    let patterns = "/target/\n*/target/\n/build/\n*/build/\n.gradle/\n";
    let exclude = info.join("exclude");
    let mut text = std::fs::read_to_string(&exclude).unwrap_or_default();
    text.push_str(patterns);
    std::fs::write(exclude, text)?;
    Ok(())
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}
