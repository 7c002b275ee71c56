//! The plugin backend: the project's own Maven or Gradle build runs the rewrite plugin on a fresh
//! clone of the base commit (what users run). Its report comes from the build's log and
//! OpenRewrite's data tables, which are kept beside it ([`super::datatables`]).
//!
//! - [`invocation`]: the command line (Maven's `runNoFork`, Gradle's `rewriteRun` with an init
//!   script);
//! - [`errors`]: why a run failed, from the log; [`attribution`]: which recipe changed which file;
//! - [`gradle_available`]: whether any Gradle can run here; [`confirm`]: `auto`'s second run;
//! - [`known_recipes`]: names the plugin must not load as classes; [`learned`]: the learned jar
//!   installed where the plugin finds it.

mod attribution;
pub mod confirm;
mod errors;
mod gradle_available;
pub(crate) mod invocation;
mod known_recipes;
pub mod learned;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::{RecipeRun, RunOutput, build, empty_stats, finish, jdk, tests_count, trust};
use crate::diff::{self, TEMPORARY_INIT_SCRIPT, TEMPORARY_RECIPE};
use crate::model::{ErrorKind, RunError, TestCounts, ValidationStats};
use crate::openrewrite::{Coordinates, RecipeStep};
use crate::process;

/// Runs `req`'s recipe with the project's build tool and writes the artifacts.
pub(crate) fn run(req: &RecipeRun<'_>) -> Result<RunOutput> {
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
    let (file, name) = match super::checked_recipe(req, &mut stats)? {
        Ok(recipe) => recipe,
        Err(error) => return finish(req, stats, String::new(), Some(error), total),
    };
    if let Some(error) = known_recipes::refused(&file, req.versions, crate::catalog::Catalog::embedded()) {
        return finish(req, stats, String::new(), Some(error), total);
    }
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
    let jdk = jdk::choose(build::language_level(&project, tool), &jdk::installed())?;
    stats.jdk = Some(jdk.major);
    let tests_before = tests_count::count(&project);

    let prepared =
        prepare(req, &clone, &project, tool, Recipe { name: &name, artifacts: &artifacts, jdk: &jdk })?;
    let invocation = invocation::invocation(tool, &prepared.spec());
    stats.command = Some(invocation.display());
    tracing::info!("running {}", invocation.display());

    let started = Instant::now();
    let log_path = req.artifact("build.log");
    let outcome = process::run_logged(invocation.command(), &log_path, req.timeout)?;
    stats.timings.run_seconds = started.elapsed().as_secs_f64();
    let log = std::fs::read(&log_path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    let error = outcome_error(&outcome, &log, req.timeout);
    if matches!(outcome, process::ProcessEnd::Interrupted) {
        return finish(req, stats, String::new(), error, total);
    }

    let started = Instant::now();
    let diff_text = diff::remove_excluded_sections(&clone.staged_diff()?);
    report(req, &mut stats, &project, &log, &prepared.ignored, tests_before);
    stats.warnings.splice(0..0, prepared.guarded.iter().cloned());
    // The clone goes, and the tables the plugin exported into it with it.
    if let Err(e) = super::datatables::keep(req, &super::datatables::plugin_exports(&project)) {
        stats.warnings.push(format!("the data tables were not kept: {}", crate::error::one_line(&e)));
    }
    stats.timings.analysis_seconds = started.elapsed().as_secs_f64();
    drop(clone);
    finish(req, stats, diff_text, error, total)
}

/// What of the recipe the build runs.
struct Recipe<'a> {
    name: &'a str,
    artifacts: &'a [Coordinates],
    jdk: &'a jdk::Jdk,
}

/// The files a run needs beside the clone (never inside it), written.
struct Prepared<'a> {
    recipe: Recipe<'a>,
    project: PathBuf,
    recipe_file: PathBuf,
    init_script: PathBuf,
    /// Where Maven takes the project's base directory to be, when the clone's `.mvn/` is ignored.
    maven_basedir: Option<PathBuf>,
    maven_settings: Option<PathBuf>,
    maven_plugin_version: &'a str,
    gradle_plugin_version: &'a str,
    /// The clone's `.mvn/` files the run ignores (see [`trust::Trust`]).
    ignored: Vec<&'static str>,
    /// Repositories Maven asks without the credentials it would otherwise send them (see
    /// [`super::maven_settings::guard`]).
    guarded: Vec<String>,
}

impl Prepared<'_> {
    fn spec(&self) -> invocation::RunSpec<'_> {
        invocation::RunSpec {
            project: &self.project,
            recipe_file: &self.recipe_file,
            recipe_name: self.recipe.name,
            artifacts: self.recipe.artifacts,
            jdk: self.recipe.jdk,
            maven_plugin_version: self.maven_plugin_version,
            gradle_plugin_version: self.gradle_plugin_version,
            init_script: &self.init_script,
            maven_basedir: self.maven_basedir.as_deref(),
            maven_settings: self.maven_settings.as_deref(),
        }
    }
}

/// Writes the recipe (and for Gradle the init script) beside the clone, decides which of the
/// clone's `.mvn/` files are ignored, and keeps build output out of the diff.
fn prepare<'a>(
    req: &RecipeRun<'a>,
    clone: &crate::setup::git::Clone,
    project: &Path,
    tool: build::BuildTool,
    recipe: Recipe<'a>,
) -> Result<Prepared<'a>> {
    let recipe_file = clone.scratch().join(TEMPORARY_RECIPE);
    // The plugin's source paths start at the project directory; the recipe's at the repository's root.
    let relative = req
        .project_dir
        .and_then(|dir| crate::openrewrite::project_paths::relative_to(req.recipe_yaml, &dir.prefix()));
    std::fs::write(&recipe_file, relative.as_deref().unwrap_or(req.recipe_yaml))?;
    let ignored = match tool {
        // Maven finds `.mvn/` in the project directory or above it, up to the repository's root.
        build::BuildTool::Maven if !req.trust.honours_build_config() => {
            let mut found = invocation::maven_build_config(project);
            if found.is_empty() && project != clone.path() {
                found = invocation::maven_build_config(clone.path());
            }
            found
        }
        _ => Vec::new(),
    };
    let maven_basedir = (!ignored.is_empty()).then(|| clone.scratch().join("maven-basedir"));
    if let Some(dir) = &maven_basedir {
        std::fs::create_dir_all(dir)?;
    }
    let guarded = match tool {
        build::BuildTool::Maven => super::maven_settings::guard::settings_for(
            super::maven_settings::user_settings().as_deref(),
            clone.path(),
            &super::maven_settings::CredentialUrls::allowed(),
            clone.scratch(),
        )?,
        // Gradle reads no settings.xml.
        build::BuildTool::Gradle => Default::default(),
    };
    let prepared = Prepared {
        recipe,
        project: project.to_path_buf(),
        recipe_file,
        init_script: clone.scratch().join(TEMPORARY_INIT_SCRIPT),
        maven_basedir,
        maven_settings: guarded.settings,
        maven_plugin_version: &req.versions.maven_plugin,
        gradle_plugin_version: &req.versions.gradle_plugin,
        ignored,
        guarded: guarded.warnings,
    };
    if tool == build::BuildTool::Gradle {
        std::fs::write(&prepared.init_script, invocation::gradle_init_script(&prepared.spec()))?;
    }
    ignore_build_output(clone.path())?;
    Ok(prepared)
}

/// What the run's log and data tables say: which recipe changed which file, the tests kept, the
/// warnings.
fn report(
    req: &RecipeRun<'_>,
    stats: &mut ValidationStats,
    project: &Path,
    log: &str,
    ignored: &[&str],
    tests_before: usize,
) {
    stats.attribution = attribution::collect(project, log);
    if let Some(dir) = req.project_dir {
        // The plugin's paths are relative to the project; the PR's to the repository.
        for row in &mut stats.attribution {
            row.source_path = format!("{}{}", dir.prefix(), row.source_path);
        }
    }
    stats.tests = TestCounts::new(tests_before, tests_count::count(project));
    stats.warnings = warnings(log, ignored, &stats.tests);
}

/// Why the project's build may not or cannot run, decided before anything of it runs: it would
/// run the repository's own code, which is not trusted (see [`trust`]), or no Gradle can start.
fn cannot_run(req: &RecipeRun<'_>, project: &Path, tool: build::BuildTool) -> Option<RunError> {
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
fn warnings(log: &str, ignored: &[&str], tests: &TestCounts) -> Vec<String> {
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

/// How the build tool's run ended, as the run's error (None: it succeeded).
fn outcome_error(outcome: &process::ProcessEnd, log: &str, timeout: Duration) -> Option<RunError> {
    match outcome {
        process::ProcessEnd::Exited(status) if status.success() => None,
        process::ProcessEnd::Exited(_) => Some(errors::classify(log)),
        process::ProcessEnd::TimedOut => {
            let mut e = RunError::new(
                ErrorKind::Timeout,
                format!("the run exceeded {} s and was stopped", timeout.as_secs()),
            );
            e.excerpt = tail(log, 20);
            Some(e)
        }
        process::ProcessEnd::Interrupted => {
            Some(RunError::new(ErrorKind::Interrupted, "interrupted by the user"))
        }
    }
}

/// Recipe modules the recipe needs, plus the user's extra artifacts; sorted, deduplicated.
fn artifacts_for(steps: &[&RecipeStep], req: &RecipeRun<'_>) -> Vec<Coordinates> {
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
