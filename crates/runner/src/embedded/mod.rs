//! The embedded backend (docs/embedded-runner.md): validation without the project's build. A Java
//! runner of ours parses the base commit's files once with OpenRewrite's own parsers and runs each
//! recipe of an option on its own and the option as a whole on the same trees. Nothing of the
//! repository runs: no Maven, Gradle or wrapper process, no build plugin, no `.mvn/` configuration.
//!
//! - [`protocol`]: the request and results files; [`runner`]: building the runner once;
//! - [`session`]: one runner process per clone, parse once, run many;
//! - [`pool`]: a batch's runners, kept between its sessions.

mod paths;
pub mod pool;
pub mod protocol;
pub mod runner;
pub(crate) mod session;

use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use self::protocol::{Failure, FailureKind, ParseResults, RunResults, StepRun};
pub use self::session::{Session, Settings, Stopped};
use super::{RecipeRun, RunOutput, empty_stats, finish_run};
use crate::diff;
use crate::model::{Attribution, Backend, ErrorKind, LeftOut, RunError, StepLines, TestCounts};
use crate::openrewrite::Versions;

/// Why a command that needed the runner could not even start it (context on the cause): `validate`
/// reports it as a `runner_failure`.
#[derive(Debug, thiserror::Error)]
#[error("the embedded runner cannot start")]
pub struct CannotStart;

/// Starts a session on a fresh clone of `repo` at `base`: builds the runner when needed and picks
/// a JDK (17 or newer: the runner's own level, and at least the project's).
pub(crate) fn start(
    repo: &std::path::Path,
    base: &str,
    versions: &Versions,
    project: Option<&crate::setup::ProjectDir>,
    trust: super::trust::Trust,
) -> Result<Session> {
    let runner = runner::ensure(versions)?;
    let clone = crate::setup::git::clone_at(repo, base)?;
    let root = crate::setup::project_dir::project_root(clone.path(), project)?;
    if !root.is_dir() {
        return Err(crate::error::bad_input(format!(
            "the working directory {} does not exist at the base commit",
            project.map(ToString::to_string).unwrap_or_default()
        )));
    }
    let level = super::build::detect(&root)
        .ok()
        .and_then(|tool| super::build::language_level(&root, tool))
        .unwrap_or(17)
        .max(17);
    let jdk = super::jdk::choose(Some(level), &super::jdk::installed())
        .or_else(|_| super::jdk::choose(Some(17), &super::jdk::installed()))
        .context("the embedded runner needs a JDK 17 or newer")?;
    Session::new(Settings::new(runner, jdk, trust), clone, project.cloned())
}

/// Runs `req`'s recipe on the session's trees and writes the same artifacts as the plugin path:
/// `<prefix>recipe.diff`, `<prefix>stats.json`, `<prefix>build.log` (here: what the runner did,
/// per step) and `<prefix>datatables/`.
pub(crate) fn run(req: &RecipeRun<'_>, session: &Session) -> Result<RunOutput> {
    crate::process::install_interrupt_handler();
    let total = Instant::now();
    std::fs::create_dir_all(req.out_dir).with_context(|| format!("creating {}", req.out_dir.display()))?;
    let mut stats = empty_stats(req.recipe_name.unwrap_or_default(), req.expected);
    stats.backend = Some(Backend::Embedded);
    let mut log = String::new();
    let (_, name) = match super::checked_recipe(req, &mut stats)? {
        Ok(recipe) => recipe,
        Err(error) => return finish_run(req, stats, String::new(), Some(error), total, &log),
    };
    // The session's own log goes with its scratch directory: the run names the copy it keeps.
    stats.command = Some(format!("embedded runner (its log: {})", req.out_dir.join(RUNNER_LOG).display()));
    stats.build_tool = super::build::detect(&session.root()).ok().map(|t| format!("{t:?}").to_lowercase());

    let started = Instant::now();
    let parsed = session.parsed(req.timeout)?;
    let parsed = match parsed {
        Ok(parsed) if parsed.ok => parsed,
        Ok(parsed) => {
            let error = parsed.error.map(|f| run_error(&f)).unwrap_or_else(|| {
                RunError::new(ErrorKind::RunnerFailure, "the runner could not parse the repository")
            });
            return finish(req, session, stats, String::new(), Some(error), total, &log);
        }
        Err(stopped) => {
            return finish(req, session, stats, String::new(), Some(stopped_error(&stopped)), total, &log);
        }
    };
    log.push_str(&parse_log(&parsed));
    stats.warnings.extend(parse_warnings(&parsed));
    let view = req.pr.map(|pr| pr.refined(parsed.types.as_ref().map(|t| (&t.base, &t.head))));
    let req = &RecipeRun { pr: view.as_deref(), ..*req };
    let left = req.timeout.saturating_sub(started.elapsed()).max(Duration::from_secs(1));
    let outcome = run_recipe(req, session, &name, left, &mut stats.warnings)?;
    stats.timings.run_seconds = started.elapsed().as_secs_f64();
    let results = match outcome {
        Ok(results) => results,
        Err(stopped) => {
            return finish(req, session, stats, String::new(), Some(stopped_error(&stopped)), total, &log);
        }
    };
    log.push_str(&run_log(&results));
    add_shortfalls(&results, &mut stats.warnings);
    if !results.ok {
        let error = results
            .error
            .as_ref()
            .map(run_error)
            .unwrap_or_else(|| RunError::new(ErrorKind::RunnerFailure, "the runner reported a failure"));
        return finish(req, session, stats, String::new(), Some(error), total, &log);
    }
    let Some(whole) = results.whole() else {
        let error = RunError::new(ErrorKind::RunnerFailure, "the runner did not run the recipe as a whole");
        return finish(req, session, stats, String::new(), Some(error), total, &log);
    };
    if let Some(failure) = &whole.error {
        return finish(req, session, stats, String::new(), Some(run_error(failure)), total, &log);
    }
    let analysis = Instant::now();
    let diff_text = diff::remove_excluded_sections(&whole.diff);
    stats.result_types = whole.types.clone();
    stats.residual = whole.residual.clone();
    stats.unresolved = whole.unresolved.clone();
    stats.attribution = attribution(&name, &results);
    stats.step_lines = step_lines(req, &results);
    stats.whole_steps_by_file = whole.steps_by_file.clone();
    stats.left_out = left_out(whole, &results);
    stats.warnings.extend(stats.left_out.iter().map(|left_out| {
        format!(
            "step {} `{}` was left out: {}: {}",
            left_out.step + 1,
            left_out.recipe,
            left_out.error.kind,
            left_out.error.detail
        )
    }));
    let before = super::tests_count::count(&session.root());
    stats.tests = TestCounts::new(before, tests_after(before, &diff_text));
    if stats.tests.dropped {
        stats.warnings.push(format!(
            "the recipe removed test methods: {} before, {} after",
            stats.tests.before, stats.tests.after
        ));
    }
    stats.timings.analysis_seconds = analysis.elapsed().as_secs_f64();
    finish(req, session, stats, diff_text, None, total, &log)
}

/// Runs the recipe on the session's trees; the whole run's data tables are kept in
/// `<prefix>datatables/` (when they cannot be, `warnings` says so).
fn run_recipe(
    req: &RecipeRun<'_>,
    session: &Session,
    name: &str,
    left: Duration,
    warnings: &mut Vec<String>,
) -> Result<std::result::Result<RunResults, Stopped>> {
    let recipe_file = req.artifact("recipe.yaml.run");
    std::fs::write(&recipe_file, req.recipe_yaml)?;
    // The runner writes them whole; they reach the artifacts within the caps.
    let tables = tempfile::Builder::new().prefix("rewrite-assist-datatables-").tempdir()?;
    let whole = session::WholeRun { measure: req.measure, datatables: Some(tables.path()) };
    let outcome = session.run(&recipe_file, name, whole, left);
    let _ = std::fs::remove_file(&recipe_file);
    let export = super::datatables::Export { module: Default::default(), dir: tables.path().to_path_buf() };
    if let Err(e) = super::datatables::keep(req, &[export]) {
        warnings.push(format!("the data tables were not kept: {}", crate::error::one_line(&e)));
    }
    outcome
}

/// Each step that ran, scored on its own against the PR: what attribution reads.
fn step_lines(req: &RecipeRun<'_>, results: &RunResults) -> Vec<StepLines> {
    results
        .steps()
        .filter(|step| step.error.is_none())
        .filter_map(|step| {
            let scored = crate::metrics::score(req.expected, req.pr, &step.diff, Some(&step.types));
            step.step.map(|index| StepLines {
                step: index,
                tp_lines: scored.tp_lines,
                fp_lines: scored.fp_lines,
                classes: scored.classes,
                diff: step.diff.clone(),
            })
        })
        .collect()
}

/// The embedded runner's log, as a run keeps it beside its stats (masked): the session's own is
/// removed with the session.
pub const RUNNER_LOG: &str = "embedded-runner.log";

/// [`finish_run`] for a run that reached the session: its log is kept in the run's directory first.
fn finish(
    req: &RecipeRun<'_>,
    session: &Session,
    stats: crate::model::ValidationStats,
    diff_text: String,
    error: Option<RunError>,
    total: Instant,
    log: &str,
) -> Result<RunOutput> {
    session.keep_log(&req.out_dir.join(RUNNER_LOG));
    finish_run(req, stats, diff_text, error, total, log)
}

/// A repository that refused access while the recipe ran (a version list, a new parent) is named
/// like one that refused it during the parse, and so is a file a recipe left as it was for a host
/// out of reach: the result lacks what it would have made.
fn add_shortfalls(results: &RunResults, warnings: &mut Vec<String>) {
    let short_of =
        |w: &String| w.contains(protocol::ACCESS_REFUSED) || w.contains(protocol::HOST_OUT_OF_REACH);
    for warning in results.runs.iter().flat_map(|run| &run.warnings) {
        if short_of(warning) && !warnings.contains(warning) {
            warnings.push(warning.clone());
        }
    }
}

/// The parse's warnings (at most 20) and the files kept as plain text.
fn parse_warnings(parsed: &ParseResults) -> Vec<String> {
    let unparsed = parsed
        .unparsed
        .iter()
        .map(|u| format!("OpenRewrite could not parse {} ({}); kept as plain text", u.path, u.error));
    parsed.warnings.iter().take(20).cloned().chain(unparsed).collect()
}

/// The steps the whole run left out (they threw or failed validation on their own), with why.
fn left_out(whole: &StepRun, results: &RunResults) -> Vec<LeftOut> {
    whole
        .left_out
        .iter()
        .filter_map(|index| results.steps().find(|s| s.step == Some(*index)))
        .map(|step| LeftOut {
            step: step.step.unwrap_or_default(),
            recipe: step.name.clone(),
            error: step
                .error
                .as_ref()
                .map(run_error)
                .unwrap_or_else(|| RunError::new(ErrorKind::RunnerFailure, "left out of the whole run")),
        })
        .collect()
}

/// Which step changed which file: what each step changed on its own, and what the whole run's
/// recipe stacks credit it with (a step that only works on an earlier step's result, such as a
/// method renamed after its call moved to another type, shows only there). Options are printed
/// as the plugin's log prints them (`key=value, …`), so two steps of one recipe stay apart.
fn attribution(root: &str, results: &RunResults) -> Vec<Attribution> {
    let row = |step: &StepRun, file: &String| Attribution {
        source_path: file.clone(),
        after_source_path: file.clone(),
        parent_recipe: root.to_string(),
        recipe: step.name.clone(),
        options: options_text(step),
    };
    let on_their_own = results
        .steps()
        .filter(|step| step.error.is_none())
        .flat_map(|step| step.files.iter().map(move |file| row(step, file)));
    let in_the_whole = results.whole().into_iter().flat_map(|whole| {
        whole.steps_by_file.iter().flat_map(move |(file, indexes)| {
            indexes
                .iter()
                .filter_map(|index| results.steps().find(|s| s.step == Some(*index)))
                .map(move |step| row(step, file))
        })
    });
    let mut rows: Vec<Attribution> = on_their_own.chain(in_the_whole).collect();
    rows.sort();
    rows.dedup();
    rows
}

fn options_text(step: &StepRun) -> String {
    let shown: Vec<String> = step
        .options
        .iter()
        .map(|(k, v)| match v {
            serde_json::Value::String(s) => format!("{k}={s}"),
            other => format!("{k}={other}"),
        })
        .collect();
    shown.join(", ")
}

/// Test methods after the recipe: the count before, less the test annotations the diff removes
/// from test sources, plus those it adds.
fn tests_after(before: usize, diff_text: &str) -> usize {
    let Ok(parsed) = diff::parse(diff_text) else { return before };
    let mut removed = String::new();
    let mut added = String::new();
    for change in parsed.changes() {
        if !super::tests_count::is_test_source(std::path::Path::new(change.path)) {
            continue;
        }
        let target = if change.kind == diff::ChangeKind::Added { &mut added } else { &mut removed };
        target.push_str(change.content);
        target.push('\n');
    }
    (before + super::tests_count::count_in(&added)).saturating_sub(super::tests_count::count_in(&removed))
}

fn run_error(failure: &Failure) -> RunError {
    let kind = match failure.kind {
        FailureKind::UnknownRecipe => ErrorKind::UnknownRecipe,
        FailureKind::YamlError => ErrorKind::YamlError,
        FailureKind::InvalidOption => ErrorKind::InvalidOption,
        FailureKind::RecipeError => ErrorKind::RecipeError,
        FailureKind::NoParse | FailureKind::Internal | FailureKind::Other => ErrorKind::RunnerFailure,
    };
    let mut error = RunError::new(kind, failure.message.clone());
    error.excerpt = failure.stack.clone().unwrap_or_default();
    error
}

fn stopped_error(stopped: &Stopped) -> RunError {
    let kind = match stopped {
        Stopped::TimedOut(_) => ErrorKind::Timeout,
        Stopped::OutOfMemory => ErrorKind::OutOfMemory,
        Stopped::Interrupted => ErrorKind::Interrupted,
        Stopped::Crashed(_) => ErrorKind::RunnerFailure,
    };
    RunError::new(kind, stopped.to_string())
}

fn parse_log(parsed: &protocol::ParseResults) -> String {
    let kinds: Vec<String> =
        parsed.files.by_kind.iter().filter(|(_, n)| **n > 0).map(|(k, n)| format!("{k} {n}")).collect();
    let mut text = format!(
        "[parse] {} files in {:.1} s ({}); {} binary skipped, {} kept as plain text after a parse error\n",
        parsed.files.total,
        parsed.seconds,
        kinds.join(", "),
        parsed.files.binary_skipped,
        parsed.unparsed.len()
    );
    for module in &parsed.modules {
        text.push_str(&format!(
            "[module] {} {}: {} jars on the classpath, {} unresolved\n",
            module.pom,
            module.gav.as_deref().unwrap_or("?"),
            module.classpath_jars,
            module.unresolved
        ));
    }
    for warning in &parsed.warnings {
        text.push_str(&format!("[warning] {warning}\n"));
    }
    for unparsed in &parsed.unparsed {
        text.push_str(&format!("[unparsed] {}: {}\n", unparsed.path, unparsed.error));
    }
    text
}

fn run_log(results: &RunResults) -> String {
    let mut text = String::new();
    for run in &results.runs {
        let label = match run.step {
            Some(index) => format!("[step {}]", index + 1),
            None => "[whole]".to_string(),
        };
        let options = options_text(run);
        text.push_str(&format!(
            "{label} {}{} in {:.2} s: {} file(s) changed\n",
            run.name,
            if options.is_empty() { String::new() } else { format!(" {{{options}}}") },
            run.seconds,
            run.files.len()
        ));
        for file in &run.files {
            text.push_str(&format!("    {file}\n"));
        }
        if let Some(error) = &run.error {
            text.push_str(&format!("    error: {:?}: {}\n", error.kind, error.message));
            if let Some(stack) = &error.stack {
                for line in stack.lines().take(10) {
                    text.push_str(&format!("      {line}\n"));
                }
            }
        }
        for warning in &run.warnings {
            text.push_str(&format!("    warning: {warning}\n"));
        }
        if !run.left_out.is_empty() {
            let shown: Vec<String> = run.left_out.iter().map(|i| (i + 1).to_string()).collect();
            text.push_str(&format!("    left out: step {}\n", shown.join(", ")));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_and_hosts_out_of_reach_reach_the_warnings_once_and_nothing_else_does() {
        let refused =
            "repository `corp` (https://repo.example/maven) refused access (HTTP 401) to com.acme:lib:1.0";
        let unreachable = "org.openrewrite.gradle.UpdateGradleWrapper left gradle/wrapper/gradle-wrapper.properties as it was, a host out of reach (java.net.UnknownHostException: services.gradle.org); the recipe's other changes stand";
        let run = |step: Option<usize>| serde_json::json!({"step": step, "name": "r", "warnings": [refused, unreachable, "a deprecated option"]});
        let results: RunResults = serde_json::from_value(serde_json::json!({
            "id": "run-1", "ok": true, "runs": [run(Some(0)), run(None)]
        }))
        .unwrap();
        let mut warnings = vec!["from the parse".to_string()];
        add_shortfalls(&results, &mut warnings);
        assert_eq!(warnings, vec!["from the parse", refused, unreachable]);
    }
}
