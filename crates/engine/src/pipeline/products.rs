//! What the phases hand to each other: one typed value per phase, kept in [`Products`] by the
//! driver, which gives each phase exactly the products its signature names.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use anyhow::Result;

use super::state::PhaseEnd;
use crate::diff::Diff;
use crate::discovery::Discovery;
use crate::model::intent::IntentTree;
use crate::model::{
    CandidateOption, Confirmation, OptionId, OptionResult, Recommendation, ReusableRecipe, ValidationStats,
};
use crate::setup::Repo;

/// The two commits of the PR, resolved (setup's first product: the metadata names them even when
/// the PR turns out to have nothing to learn from).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Commits {
    pub base: String,
    pub head: String,
}

/// Setup's product: the repository and the PR as every later phase reads them.
pub(crate) struct Checkout {
    /// Behind a mutex: validation threads share the checkout, and a git2 handle is not `Sync`.
    repo: Mutex<Repo>,
    /// The repository's path, for the validation threads (a git2 handle cannot cross threads).
    pub repo_path: PathBuf,
    pub commits: Commits,
    /// The PR's diff as the metric sees it, and with every section (for text replacements).
    pub pr: Diff,
    pub pr_all: Diff,
    /// The PR's files as the false-positive classes need them (base and head texts).
    pub pr_view: crate::metrics::classes::PrView,
}

impl Checkout {
    pub(crate) fn new(
        repo: Repo,
        commits: Commits,
        pr: Diff,
        pr_all: Diff,
        pr_view: crate::metrics::classes::PrView,
    ) -> Self {
        let repo_path = repo.path().to_path_buf();
        Checkout { repo: Mutex::new(repo), repo_path, commits, pr, pr_all, pr_view }
    }

    pub(crate) fn repo(&self) -> Result<MutexGuard<'_, Repo>> {
        self.repo.lock().map_err(|_| anyhow::anyhow!("the repository handle is poisoned"))
    }
}

/// A validated option: the recipe as it finally ran, its stats and its diff.
#[derive(Debug, Clone)]
pub(crate) struct Validated {
    pub option: CandidateOption,
    pub result: OptionResult,
    pub stats: ValidationStats,
    pub diff: String,
}

/// Every option validated so far, the best round of option 3 included.
pub(crate) type Validations = BTreeMap<OptionId, Validated>;

/// How a phase ended, for the audit log: its outcome, a one-line detail, the files it wrote, and
/// why the run is not a full success when the phase itself carried on.
#[derive(Debug)]
pub(crate) struct Report {
    pub outcome: PhaseEnd,
    pub detail: String,
    pub outputs: Vec<String>,
    pub problems: Vec<String>,
}

impl Report {
    pub(crate) fn new(outcome: PhaseEnd, detail: impl Into<String>, outputs: Vec<String>) -> Self {
        Report { outcome, detail: detail.into(), outputs, problems: Vec::new() }
    }

    /// A report that wrote nothing.
    pub(crate) fn bare(outcome: PhaseEnd, detail: impl Into<String>) -> Self {
        Report::new(outcome, detail, Vec::new())
    }
}

/// A phase's report and its product (None when it made none: skipped, failed, out of budget).
#[derive(Debug)]
pub(crate) struct Step<T> {
    pub report: Report,
    pub product: Option<T>,
}

impl<T> Step<T> {
    pub(crate) fn made(report: Report, product: T) -> Self {
        Step { report, product: Some(product) }
    }

    pub(crate) fn none(report: Report) -> Self {
        Step { report, product: None }
    }
}

impl<T> From<Report> for Step<T> {
    fn from(report: Report) -> Self {
        Step::none(report)
    }
}

/// The products of the phases that ran, in phase order.
#[derive(Default)]
pub(crate) struct Products {
    pub commits: Option<Commits>,
    pub checkout: Option<Checkout>,
    pub tree: Option<IntentTree>,
    pub wide: Option<CandidateOption>,
    pub narrow: Option<CandidateOption>,
    pub validated: Validations,
    pub discovery: Option<Discovery>,
    /// The latest synthesized option 3, until it is validated.
    pub refined: Option<CandidateOption>,
    pub recommendation: Option<Recommendation>,
    pub reusable: Option<ReusableRecipe>,
    pub confirmation: Option<Confirmation>,
}

impl Products {
    /// The recommended option's validation.
    pub(crate) fn chosen(&self) -> Option<&Validated> {
        self.validated.get(&self.recommendation.as_ref()?.option)
    }
}
