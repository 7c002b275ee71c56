//! `eval run`: every case of one shard through `analyze`, `workers` cases at once, each worker's
//! embedded runner kept from one case to the next (`embedded::pool`: the JVM, the recipes it read
//! and the POMs it resolved are paid once per worker, not per case). A case that fails —
//! unreachable repository, unknown ref, a pipeline error, a runner that crashed, even a panic — is
//! recorded with its reason and the other cases run; only an unusable suite or output directory,
//! or Ctrl-C, stops the batch.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use super::cache::CloneCache;
use super::source::{Prepared, Sources, is_unavailable};
use super::suite::{Case, Defaults, Suite};
use super::totals;
use crate::model::{CaseResult, CaseStatus, Commits, RunSummary, Shard, ShardResults};
use crate::openrewrite::Versions;
use crate::parallel::Progress;
use crate::pipeline::{self, AnalysisRequest, NoProgress};

/// File names of an eval output directory.
pub(crate) const CASE_RESULT: &str = "case-result.json";
pub(crate) const SHARD_RESULTS: &str = "shard-results.json";

/// How to run a suite.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub shard: Shard,
    /// Must not exist or be empty; gets `<case>/` per case and `shard-results.json`.
    pub out: PathBuf,
    /// Command-line settings, over the suite's defaults.
    pub overrides: Defaults,
    pub versions: Versions,
    /// Limit of each clone or fetch.
    pub network_timeout: Duration,
    /// Where remote repositories are kept between runs; None: temporary clones.
    pub cache: Option<CloneCache>,
    /// What validates each case's options.
    pub backend: crate::validation::choice::BackendChoice,
    /// How far each repository's own build is trusted (`--trust-build-config`, `--backend plugin`).
    pub trust: crate::validation::trust::Trust,
    /// Cases (and transfer pairs) analyzed at once, each worker with its own runner.
    pub workers: usize,
}

/// What the batch reports while it runs.
pub(crate) enum Event<'a> {
    Start {
        position: usize,
        total: usize,
        case: &'a Case,
    },
    Done {
        position: usize,
        total: usize,
        result: &'a CaseResult,
    },
    /// The transfer pairs start (after every case).
    Transfers {
        pairs: usize,
    },
}

/// Runs the shard's cases and writes their results; returns the shard's results.
pub(crate) fn run_suite(
    suite: &Suite,
    options: &Options,
    on_event: &mut dyn FnMut(Event),
) -> Result<ShardResults> {
    prepare_out_dir(&options.out)?;
    let settings = suite.defaults.overridden_by(options.overrides);
    let cases = super::shard::cases(options.shard, suite);
    let mut shard = ShardResults {
        suite_name: suite.name.clone(),
        shard: options.shard,
        planned: cases.iter().map(|c| c.name.clone()).collect(),
        cases: Vec::new(),
        totals: totals::of(&[]),
        transfers: Vec::new(),
    };
    write_json(&options.out.join(SHARD_RESULTS), &shard)?;
    let sources = Mutex::new(Sources::new(options.network_timeout, options.cache.clone())?);
    // Each worker's runner serves case after case (and the transfer pairs after them).
    let _kept = crate::validation::embedded::pool::keep_runners(options.workers);
    let total = cases.len();
    let mut rows: Vec<Option<crate::model::CaseRow>> = vec![None; total];
    let mut written: Result<()> = Ok(());
    crate::parallel::map_reporting(
        &cases,
        options.workers,
        |case| run_case(suite, case, &settings, options, &sources),
        &mut |progress: Progress<CaseResult>| match progress {
            Progress::Started(index) => {
                on_event(Event::Start { position: index + 1, total, case: cases[index] })
            }
            Progress::Done(index, result) => {
                if crate::process::interrupted() || written.is_err() {
                    return;
                }
                written =
                    write_json(&options.out.join(&result.name).join(CASE_RESULT), result).and_then(|()| {
                        rows[index] = Some(totals::row(result));
                        // In the order of the suite, whichever case finished first.
                        shard.cases = rows.iter().flatten().cloned().collect();
                        shard.totals = totals::of(&shard.cases);
                        write_json(&options.out.join(SHARD_RESULTS), &shard)
                    });
                on_event(Event::Done { position: index + 1, total, result });
            }
        },
        crate::process::interrupted,
    );
    if crate::process::interrupted() {
        bail!("interrupted");
    }
    written?;
    let sources = sources.into_inner().map_err(|_| anyhow::anyhow!("a case's worker panicked"))?;
    if !suite.pairs.is_empty() {
        on_event(Event::Transfers { pairs: suite.pairs.len() });
        shard.transfers = super::transfer::run_pairs(suite, &cases, &settings, options, sources);
        if crate::process::interrupted() {
            bail!("interrupted");
        }
        write_json(&options.out.join(SHARD_RESULTS), &shard)?;
    }
    Ok(shard)
}

/// One case, start to end; never an error: failures become the result's status and reason.
fn run_case(
    suite: &Suite,
    case: &Case,
    settings: &Defaults,
    options: &Options,
    sources: &Mutex<Sources>,
) -> CaseResult {
    let started = Instant::now();
    let dir = options.out.join(&case.name);
    let prepared = match sources.lock() {
        Ok(mut sources) => sources.prepare(case),
        Err(_) => Err(anyhow::anyhow!("a case's worker panicked while preparing its repository")),
    };
    let outcome = prepared.and_then(|prepared| {
        let request = AnalysisRequest {
            repo: prepared.repo.clone(),
            base: prepared.base.clone(),
            head: prepared.head.clone(),
            out_dir: dir.clone(),
            jobs: settings.jobs(),
            budgets: settings.budgets(),
            versions: options.versions.clone(),
            backend: options.backend,
            trust: options.trust,
            project_dir: None,
        };
        // A bug in one case must not cost the others their results.
        match catch_unwind(AssertUnwindSafe(|| pipeline::analyze(&request, &NoProgress))) {
            Ok(summary) => summary.map(|s| (prepared, s)),
            Err(panic) => bail!("internal error (panic): {}", panic_message(&panic)),
        }
    });
    let mut result = CaseResult {
        suite_name: suite.name.clone(),
        name: case.name.clone(),
        status: CaseStatus::Error,
        reason: None,
        source: case.written_source(),
        commits: commits_from_metadata(&dir),
        run_status: None,
        recommended: None,
        options: Vec::new(),
        intents: None,
        backend: None,
        wall_seconds: 0.0,
        pr_kind: None,
        verdict: None,
    };
    match outcome {
        Ok((prepared, summary)) => apply_summary(&mut result, &prepared, summary),
        Err(error) => {
            if is_unavailable(&error) {
                result.status = CaseStatus::Skipped;
            }
            result.reason = Some(crate::error::one_line(&error));
        }
    }
    result.wall_seconds = crate::metrics::round4(started.elapsed().as_secs_f64());
    result
}

/// A finished analysis: passed when it recommended a recipe, failed when no option validated.
fn apply_summary(result: &mut CaseResult, prepared: &Prepared, summary: RunSummary) {
    result.status = if summary.recommended.is_some() { CaseStatus::Passed } else { CaseStatus::Failed };
    result.reason = summary.reason.or_else(|| {
        (result.status == CaseStatus::Failed).then(|| "no option could be validated".to_string())
    });
    if result.commits.is_none() {
        result.commits = Some(Commits { base: prepared.base.clone(), head: prepared.head.clone() });
    }
    result.run_status = Some(summary.status);
    result.pr_kind = Some(summary.pr_kind);
    result.verdict = Some(summary.verdict);
    let recommended = summary.recommended.as_ref().map(|r| r.option);
    result.backend = summary
        .options
        .iter()
        .find(|o| Some(o.option) == recommended)
        .or_else(|| summary.options.iter().find(|o| o.ran()))
        .or(summary.options.first())
        .and_then(|o| o.backend);
    result.recommended = summary.recommended;
    result.options = summary.options;
    // The reusable recipe's run on this PR, as option 4 (strategy `reusable`): not a candidate,
    // but what a rollout would apply.
    result.options.extend(summary.reusable.and_then(|r| r.result));
    result.intents = Some(summary.intents);
}

/// The commits `analyze` resolved, from the `workflow-metadata.json` it wrote.
fn commits_from_metadata(dir: &Path) -> Option<Commits> {
    let text = std::fs::read_to_string(dir.join(pipeline::artifacts::METADATA)).ok()?;
    let metadata: serde_json::Value = serde_json::from_str(&text).ok()?;
    let commit = |side: &str| metadata[side]["commit"].as_str().filter(|c| !c.is_empty()).map(str::to_string);
    Some(Commits { base: commit("base")?, head: commit("head")? })
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown".into())
}

/// The output directory must be new or empty: results of two runs must never mix.
fn prepare_out_dir(out: &Path) -> Result<()> {
    crate::setup::out_dir::prepare(out)
}

pub(crate) fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    }
    let text = crate::document::to_json(value)?;
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::suite;

    fn options(out: &Path) -> Options {
        Options {
            shard: Shard::ALL,
            out: out.to_path_buf(),
            overrides: Defaults::default(),
            versions: Versions::from_env().unwrap(),
            network_timeout: Duration::from_secs(60),
            cache: None,
            backend: crate::validation::choice::BackendChoice::default(),
            trust: crate::validation::trust::Trust::default(),
            workers: 1,
        }
    }

    /// Cases that fail before any recipe runs: each is recorded with its reason, and every case
    /// of the shard gets its turn.
    #[test]
    fn failing_cases_are_recorded_and_the_batch_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let fixture = crate::fixtures::scenarios::JAVAX_TO_JAKARTA.build(&dir.path().join("repo")).unwrap();
        let suite_path = dir.path().join("suite.yaml");
        std::fs::write(
            &suite_path,
            "suite_name: broken
cases:
  - { name: missing-dir, repo: does/not/exist, base: main, head: migration }
  - { name: unknown-ref, repo: repo, base: main, head: no-such-ref }
  - { name: empty-diff, repo: repo, base: main, head: main }
  - { name: unreachable-pr, pr: 'file:///nonexistent/shop.git/pull/4' }
",
        )
        .unwrap();
        let suite = suite::load(&suite_path).unwrap();
        let out = dir.path().join("out");
        let mut events = Vec::new();
        let shard = run_suite(&suite, &options(&out), &mut |event| {
            events.push(match event {
                Event::Start { position, total, case } => format!("start {position}/{total} {}", case.name),
                Event::Done { position, total, result } => {
                    format!("done {position}/{total} {} {}", result.name, result.status.label())
                }
                Event::Transfers { pairs } => format!("transfers {pairs}"),
            })
        })
        .unwrap();
        assert_eq!(events.len(), 8, "{events:#?}");
        assert_eq!(events[7], "done 4/4 unreachable-pr skipped");
        assert_eq!(shard.planned, ["missing-dir", "unknown-ref", "empty-diff", "unreachable-pr"]);
        // The repository of the PR cannot be had: skipped, not an error of the tool.
        assert_eq!((shard.totals.errors, shard.totals.skipped), (3, 1));

        let read = |name: &str| -> CaseResult {
            let text = std::fs::read_to_string(out.join(name).join(CASE_RESULT)).unwrap();
            serde_json::from_str(&text).unwrap()
        };
        let missing = read("missing-dir");
        assert_eq!(missing.status, CaseStatus::Error);
        assert!(
            missing.reason.as_deref().unwrap().contains("does/not/exist: no such directory"),
            "{missing:?}"
        );
        assert_eq!(missing.source.repo.as_deref(), Some("does/not/exist"));
        let unknown = read("unknown-ref");
        assert!(unknown.reason.as_deref().unwrap().contains("unknown ref `no-such-ref`"), "{unknown:?}");
        assert!(out.join("unknown-ref").join("workflow-metadata.json").is_file());
        let empty = read("empty-diff");
        assert!(empty.reason.as_deref().unwrap().contains("empty"), "{empty:?}");
        assert_eq!(empty.commits.as_ref().map(|c| c.base.as_str()), Some(fixture.base.as_str()));
        let pr = read("unreachable-pr");
        assert_eq!(pr.status, CaseStatus::Skipped);
        assert!(
            pr.reason.as_deref().unwrap().starts_with("cannot clone file:///nonexistent/shop.git"),
            "{pr:?}"
        );
        assert_eq!(pr.source.pr.as_deref(), Some("file:///nonexistent/shop.git/pull/4"));

        let written: ShardResults =
            serde_json::from_str(&std::fs::read_to_string(out.join(SHARD_RESULTS)).unwrap()).unwrap();
        assert_eq!(written, shard);
    }

    #[test]
    fn a_shard_runs_only_its_cases_and_refuses_a_used_directory() {
        let dir = tempfile::tempdir().unwrap();
        let suite = suite::parse(
            "suite_name: s\ncases:\n  - {name: a, repo: x, base: b, head: h}\n  - {name: b, repo: x, base: b, head: h}\n  - {name: c, repo: x, base: b, head: h}\n",
            dir.path(),
        )
        .unwrap();
        let out = dir.path().join("out");
        let mut options = options(&out);
        options.shard = Shard { index: 2, count: 2 };
        let shard = run_suite(&suite, &options, &mut |_| {}).unwrap();
        assert_eq!(shard.planned, ["b"]);
        assert!(out.join("b").join(CASE_RESULT).is_file());
        assert!(!out.join("a").exists() && !out.join("c").exists());

        let error = run_suite(&suite, &options, &mut |_| {}).unwrap_err();
        assert_eq!(crate::error::exit_code_of(&error), crate::error::exit::BAD_INPUT);
        assert!(error.to_string().contains("exists and is not empty"), "{error}");
    }
}
