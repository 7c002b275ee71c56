//! The analyze pipeline: the phases of ARCHITECTURE.md driven by the transition table in [`state`].
//! Phases hand off through the run directory's files; each appends one line to `audit.jsonl`;
//! budgets are enforced here, not by the phases.

pub(crate) mod artifacts;
mod discover;
mod execute;
mod generalize;
mod phases;
pub(crate) mod progress;
pub(crate) mod state;
mod summary;

pub(crate) use progress::{NoProgress, Progress};
pub(crate) use summary::{authors_way_line, render_text, reusable_line};

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::catalog::Catalog;
use crate::diff::Diff;
use crate::model::intent::IntentTree;
use crate::model::{AuditEntry, CandidateOption, OptionResult, Recommendation, RunSummary, ValidationStats};
use crate::openrewrite::Versions;
use crate::setup::Repo;
use artifacts::RunDir;
use state::{Outcome, Phase};

/// Limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budgets {
    /// Wall-clock limit of the whole run.
    pub max_wall: Duration,
    /// Limit of one recipe execution.
    pub per_execution: Duration,
    /// Recipe executions in all (retries and refinement rounds included).
    pub max_executions: usize,
    /// Refinement rounds (each synthesizes and validates one option 3).
    pub max_rounds: usize,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            max_wall: Duration::from_secs(45 * 60),
            per_execution: Duration::from_secs(15 * 60),
            max_executions: 10,
            max_rounds: 2,
        }
    }
}

/// One `analyze` run.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    pub repo: PathBuf,
    pub base: String,
    pub head: String,
    pub out_dir: PathBuf,
    /// Recipe executions at once.
    pub jobs: usize,
    pub budgets: Budgets,
    pub versions: Versions,
    /// What validates the options (`auto`: the embedded runner, then the plugin confirms).
    pub backend: crate::validation::choice::BackendChoice,
    /// How far the repository's own build is trusted: whether it may run (the plugin backend,
    /// `auto`'s confirmation) and whether its `.mvn/` configuration is honoured.
    pub trust: crate::validation::trust::Trust,
    /// The build's directory in a monorepo (None: the repository root).
    pub project_dir: Option<crate::setup::ProjectDir>,
}

/// A validated option: the recipe as it finally ran, its stats and its diff.
#[derive(Debug, Clone)]
pub(crate) struct Validated {
    pub option: CandidateOption,
    pub result: OptionResult,
    pub stats: ValidationStats,
    pub diff: String,
}

/// A phase as it ran, for `workflow-metadata.json`.
#[derive(Debug, Clone, serde::Serialize)]
pub(crate) struct PhaseRecord {
    pub phase: &'static str,
    pub outcome: &'static str,
    pub seconds: f64,
    pub detail: String,
}

pub(crate) struct Run<'a> {
    pub req: &'a Request,
    pub dir: RunDir,
    pub started: Instant,
    pub started_at: String,
    pub catalog: &'static Catalog,
    pub progress: &'a dyn Progress,
    /// Behind a mutex: validation threads share the run, and a git2 handle is not `Sync`.
    pub repo: Option<std::sync::Mutex<Repo>>,
    /// The repository's path, for the validation threads (a git2 handle cannot cross threads).
    pub repo_path: Option<PathBuf>,
    pub base: String,
    pub head: String,
    /// The PR's diff as the metric sees it, and with every section (for text replacements).
    pub pr: Diff,
    pub pr_all: Diff,
    /// The PR's files as the false-positive classes need them (base and head texts).
    pub pr_view: Option<crate::metrics::classes::PrView>,
    pub tree: Option<IntentTree>,
    /// What discovery ran and chose; None when it did not run.
    pub discovery: Option<crate::discovery::Discovery>,
    pub candidates: BTreeMap<u8, CandidateOption>,
    pub results: BTreeMap<u8, Validated>,
    /// Signatures of every recipe set validated so far (stuck detection).
    pub tried: Vec<Vec<String>>,
    pub rounds: usize,
    pub executions: AtomicUsize,
    pub phases: Vec<PhaseRecord>,
    pub recommendation: Option<Recommendation>,
    /// Why the run is not a full success.
    pub problems: Vec<String>,
    /// An input error that stopped the run (returned to the caller after the artifacts are written).
    pub fatal: Option<anyhow::Error>,
    /// The embedded runner's session on the base commit, started on first use and shared by every
    /// option (one parse for the whole run); `Err` when it could not start.
    pub session: std::sync::OnceLock<Result<crate::validation::choice::Validator, RunnerUnavailable>>,
    /// With `--backend auto`: the recommended option run once more with the plugin.
    pub confirmation: Option<crate::model::Confirmation>,
    /// The recommended recipe generalized for other repositories, and its run here.
    pub reusable: Option<crate::model::ReusableRecipe>,
}

/// Runs the pipeline. The artifacts, `workflow-metadata.json` included, are written even when a
/// phase fails; a bad input (not a repository, unknown ref, empty diff, no build file) is returned
/// as an error after that.
pub(crate) fn analyze(req: &Request, progress: &dyn Progress) -> Result<RunSummary> {
    let (summary, fatal) = analyze_to_end(req, progress)?;
    match fatal {
        Some(error) => Err(error),
        None => Ok(summary),
    }
}

/// [`analyze`], also giving the summary (status `failed`, with its reason) when a fatal error ended
/// the run: `--json` prints it either way. `Err` only when not even the run directory was made.
pub(crate) fn analyze_to_end(
    req: &Request,
    progress: &dyn Progress,
) -> Result<(RunSummary, Option<anyhow::Error>)> {
    crate::process::install_interrupt_handler();
    let dir = RunDir::create_fresh(&req.out_dir)?;
    let mut run = Run {
        req,
        dir,
        started: Instant::now(),
        started_at: artifacts::now(),
        catalog: Catalog::embedded(),
        progress,
        repo: None,
        repo_path: None,
        base: String::new(),
        head: String::new(),
        pr: Diff::default(),
        pr_all: Diff::default(),
        pr_view: None,
        tree: None,
        discovery: None,
        candidates: BTreeMap::new(),
        results: BTreeMap::new(),
        tried: Vec::new(),
        rounds: 0,
        executions: AtomicUsize::new(0),
        phases: Vec::new(),
        recommendation: None,
        problems: Vec::new(),
        fatal: None,
        session: std::sync::OnceLock::new(),
        confirmation: None,
        reusable: None,
    };
    let mut phase = Phase::Setup;
    while !phase.is_terminal() {
        if crate::process::interrupted() {
            run.fatal = Some(anyhow::anyhow!("interrupted"));
            break;
        }
        progress.phase(phase);
        let started = Instant::now();
        let (outcome, detail, outputs) = match run.step(phase) {
            Ok(done) => done,
            Err(error) => {
                let detail = crate::error::one_line(&error);
                if crate::process::interrupted() || error.chain().any(|c| c.is::<crate::error::BadInput>()) {
                    run.fatal = Some(error);
                }
                (Outcome::Failed, detail, Vec::new())
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        if outcome == Outcome::Failed || outcome == Outcome::OutOfBudget {
            run.problems.push(format!("{}: {detail}", phase.name()));
        }
        tracing::info!("phase {} {} in {seconds:.1} s {detail}", phase.name(), outcome.name());
        run.dir.audit(&AuditEntry {
            at: artifacts::now(),
            phase: phase.name().to_string(),
            outcome: outcome.name().to_string(),
            seconds,
            inputs: run.inputs_of(phase),
            outputs,
            detail: detail.clone(),
        })?;
        run.phases.push(PhaseRecord { phase: phase.name(), outcome: outcome.name(), seconds, detail });
        phase = if run.fatal.is_some() { Phase::Failed } else { state::next(phase, outcome) };
    }
    progress.finish();
    let summary = run.summary();
    run.write_metadata(&summary)?;
    Ok((summary, run.fatal.take()))
}

impl Run<'_> {
    /// Runs one phase: its outcome, a one-line detail and the files it wrote.
    fn step(&mut self, phase: Phase) -> Result<(Outcome, String, Vec<String>)> {
        match phase {
            Phase::Setup => self.setup(),
            Phase::Intents => self.intents(),
            Phase::ComposeWide => self.compose(1),
            Phase::ComposeNarrow => self.compose(2),
            Phase::ValidateCandidates => self.validate_candidates(),
            Phase::Discover => self.discover(),
            Phase::Refine => self.refine(),
            Phase::ValidateRefined => self.validate_refined(),
            Phase::Decide => self.decide(),
            Phase::Generalize => self.generalize(),
            Phase::Confirm => self.confirm(),
            Phase::Publish => self.publish(),
            Phase::Done | Phase::Failed => Ok((Outcome::Ok, String::new(), Vec::new())),
        }
    }

    /// The files a phase reads, for the audit log.
    fn inputs_of(&self, phase: Phase) -> Vec<String> {
        let names: &[&str] = match phase {
            Phase::Setup => &[],
            Phase::Intents => &[artifacts::PR_DIFF],
            Phase::ComposeWide | Phase::ComposeNarrow => &[artifacts::INTENT_TREE_JSON],
            Phase::ValidateCandidates => {
                &["option-1-recipe.yaml", "option-2-recipe.yaml", artifacts::PR_DIFF]
            }
            Phase::Discover => &[artifacts::INTENT_TREE_JSON, artifacts::PR_DIFF],
            Phase::Refine => &[
                crate::discovery::DISCOVERY_JSON,
                "option-1-stats.json",
                "option-2-stats.json",
                "option-3-stats.json",
                artifacts::INTENT_TREE_JSON,
            ],
            Phase::ValidateRefined => &["option-3-recipe.yaml", artifacts::PR_DIFF],
            Phase::Decide => &["option-1-stats.json", "option-2-stats.json", "option-3-stats.json"],
            Phase::Generalize => &["option-1-recipe.yaml", "option-2-recipe.yaml", "option-3-recipe.yaml"],
            Phase::Confirm => &["result/recommended-recipe.yaml"],
            Phase::Publish => &[],
            Phase::Done | Phase::Failed => &[],
        };
        if phase == Phase::Setup {
            return vec![format!("{} {}..{}", self.req.repo.display(), self.req.base, self.req.head)];
        }
        names.iter().filter(|n| self.dir.path(n).exists()).map(|n| n.to_string()).collect()
    }

    /// Takes one execution from the budget; false when none is left.
    /// The embedded session options validate with: None for `--backend plugin`, and for `auto` when
    /// the runner cannot start (the plugin validates then; the problem is reported). With
    /// `--backend embedded` a runner that cannot start is an error.
    pub(crate) fn session(&self) -> Result<Option<&crate::validation::embedded::Session>> {
        let Some(repo) = self.repo_path.as_deref() else { return Ok(None) };
        let started = self.session.get_or_init(|| {
            if self.req.backend.explores_embedded() {
                self.progress.message("starting the embedded OpenRewrite runner");
            }
            let target = crate::validation::choice::Target {
                repo,
                base: &self.base,
                versions: &self.req.versions,
                project: self.req.project_dir.as_ref(),
                trust: self.req.trust,
                pr: self.pr_view.as_ref(),
            };
            crate::validation::choice::start(self.req.backend, &target)
                .map_err(|e| RunnerUnavailable(crate::error::one_line(&e)))
        });
        match started {
            Ok(validator) => Ok(validator.session()),
            Err(reason) => Err(anyhow::anyhow!("{reason}")),
        }
    }

    pub(crate) fn take_execution(&self) -> bool {
        self.executions.fetch_add(1, Ordering::SeqCst) < self.req.budgets.max_executions
    }

    /// Whether one more execution fits the budgets (without taking it).
    pub(crate) fn can_run_again(&self) -> bool {
        self.time_left().is_some() && self.executions.load(Ordering::SeqCst) < self.req.budgets.max_executions
    }

    /// Wall time left, or None when the run's budget is spent.
    pub(crate) fn time_left(&self) -> Option<Duration> {
        let left = self.req.budgets.max_wall.checked_sub(self.started.elapsed())?;
        (left > Duration::from_secs(5)).then_some(left)
    }
}

/// Why the embedded runner could not start, kept for every option that asks again.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct RunnerUnavailable(pub String);
