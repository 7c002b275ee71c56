//! What an eval batch writes: one `case-result.json` per case, one `shard-results.json` per shard
//! run, and the merged `suite-results.json` (which is also the format of a committed baseline).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{
    Backend, Confidence, ErrorKind, IntentSummary, OptionResult, Recommendation, RunStatus, Strategy,
};

/// One slice of a suite for one matrix job: shard `index` of `count`, 1-based (`2/4`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Shard {
    /// This shard's number, from 1 to `count`.
    pub index: usize,
    /// How many shards the suite is split into.
    pub count: usize,
}

impl Shard {
    /// The whole suite in one job.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Every shard of this split: 1/N … N/N.
    pub fn siblings(self) -> impl Iterator<Item = Shard> {
        (1..=self.count).map(move |index| Shard { index, count: self.count })
    }
}

/// Text that is not `I/N` with 1 ≤ I ≤ N.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a shard: write I/N with 1 <= I <= N, e.g. 2/4")]
pub struct NotAShard(pub String);

impl FromStr for Shard {
    type Err = NotAShard;

    /// `I/N` with 1 ≤ I ≤ N.
    fn from_str(text: &str) -> Result<Shard, NotAShard> {
        let usage = || NotAShard(text.to_string());
        let (index, count) = text.trim().split_once('/').ok_or_else(usage)?;
        let index: usize = index.trim().parse().map_err(|_| usage())?;
        let count: usize = count.trim().parse().map_err(|_| usage())?;
        if index == 0 || count == 0 || index > count {
            return Err(usage());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// How a case ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CaseStatus {
    /// `analyze` recommended a recipe (whatever its confidence: the F1 tells how good it is).
    Passed,
    /// `analyze` ran but no option could be validated.
    Failed,
    /// The case could not be analyzed: unknown ref in a local repository, empty diff, a crash.
    Error,
    /// The case could not be run for a reason outside the tool: its repository is gone or
    /// unreachable, or no longer has the commits. Never a pass; left out of averages and gates.
    Skipped,
}

impl CaseStatus {
    /// The status as written in the JSON and the results table: `passed`, `failed`, `error`, `skipped`.
    pub fn label(self) -> &'static str {
        match self {
            CaseStatus::Passed => "passed",
            CaseStatus::Failed => "failed",
            CaseStatus::Error => "error",
            CaseStatus::Skipped => "skipped",
        }
    }
}

/// Where a case's PR comes from, as the suite file wrote it (so results read the same on every
/// machine: a relative path stays relative).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema)]
pub struct CaseSource {
    /// The repository: a Git URL or a local path, as the suite wrote it; absent for a `pr` case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    /// The base ref or commit, as the suite wrote it; absent for a `pr` case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// The head ref or commit, as the suite wrote it; absent for a `pr` case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// The pull request's URL, when the case names one instead of two refs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pr: Option<String>,
}

/// The commits a case was analyzed at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Commits {
    /// Full commit id of the base (the PR's parent side).
    pub base: String,
    /// Full commit id of the head (the PR's last commit).
    pub head: String,
}

/// `<out>/<case>/case-result.json`: one case of a suite.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CaseResult {
    /// The suite's `name`.
    pub suite_name: String,
    /// The case's name, unique in its suite (also its output directory).
    pub name: String,
    /// How the case ended.
    pub status: CaseStatus,
    /// Why the case failed or errored; for a passed but partial run, what went wrong on the way.
    pub reason: Option<String>,
    /// The case's repository and refs, as the suite wrote them.
    pub source: CaseSource,
    /// None when the refs could not be resolved.
    pub commits: Option<Commits>,
    /// The status `analyze` reported, when it ran to the end.
    pub run_status: Option<RunStatus>,
    /// The option `analyze` recommended, with its scores; absent when none was.
    pub recommended: Option<Recommendation>,
    /// Every option `analyze` tried, recommended or not.
    pub options: Vec<OptionResult>,
    /// Counts of the case's intent tree; absent when intents were not extracted.
    pub intents: Option<IntentSummary>,
    /// What validated the recommended option (else the first option that ran).
    #[serde(default)]
    pub backend: Option<Backend>,
    /// The whole case: fetching the repository and the analysis.
    pub wall_seconds: f64,
    /// The migration gate's answer (migration or ordinary), when `analyze` ran to the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pr_kind: Option<super::PrKind>,
    /// The run's verdict (e.g. `ready_to_roll_out`), when `analyze` ran to the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<super::Verdict>,
}

/// One row of the results table: the recommended option's numbers, 0 when there is none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CaseRow {
    /// The case's name.
    pub name: String,
    /// How the case ended.
    pub status: CaseStatus,
    /// Why the case failed, errored or was skipped; absent when it passed cleanly.
    pub reason: Option<String>,
    /// The recommended option.
    pub option: Option<super::OptionId>,
    /// Precision of the recommended option's diff against the PR's, 0.0–1.0.
    pub precision: f64,
    /// Recall of the recommended option's diff against the PR's, 0.0–1.0.
    pub recall: f64,
    /// F1 of the recommended option, 0.0–1.0; 0 without a recommendation.
    pub f1: f64,
    /// True when the recommended option's diff equals the PR's (no FP, no FN).
    pub perfect_match: bool,
    /// Share of the true positives made by semantic (non-text) recipes, 0.0–1.0.
    pub semantic_share: f64,
    /// The part of `semantic_share` recipes learned from the PR made; absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub learned_share: f64,
    /// The recommendation's confidence; absent without one.
    pub confidence: Option<Confidence>,
    /// What validated the recommended option; absent when nothing ran.
    #[serde(default)]
    pub backend: Option<Backend>,
    /// Every option that was tried, recommended or not.
    #[serde(default)]
    pub options: Vec<OptionScore>,
    /// Seconds the whole case took: fetching the repository and the analysis.
    pub wall_seconds: f64,
    /// The recommended option's migration precision (TP / (TP + wrong)), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migration_precision: Option<f64>,
    /// The recommended option's semantic share over the migration's lines (side work left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migration_semantic_share: Option<f64>,
    /// The migration gate's answer (migration or ordinary), when the analysis ran to the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pr_kind: Option<super::PrKind>,
    /// The run's verdict, when the analysis ran to the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<super::Verdict>,
}

/// For `skip_serializing_if`: a share that is 0 (files written before it existed read as 0).
fn is_zero(share: &f64) -> bool {
    *share == 0.0
}

impl CaseRow {
    /// The reusable recipe's run on its own PR (option 4), when there is one.
    pub fn reusable(&self) -> Option<&OptionScore> {
        self.options.iter().find(|o| o.option == super::OptionId::Reusable && o.error.is_none())
    }
}

/// One option of a case, in the results table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct OptionScore {
    /// Which option (1 wide, 2 narrow, 3 refined, 4 reusable, 5 learned).
    pub option: super::OptionId,
    /// How the option's recipe was composed.
    pub strategy: Strategy,
    /// Number of recipe steps in the option.
    pub recipes: usize,
    /// Precision against the PR's diff, 0.0–1.0.
    pub precision: f64,
    /// Recall against the PR's diff, 0.0–1.0.
    pub recall: f64,
    /// F1 against the PR's diff, 0.0–1.0.
    pub f1: f64,
    /// Share of the true positives made by semantic (non-text) recipes, 0.0–1.0.
    pub semantic_share: f64,
    /// The part of `semantic_share` recipes learned from the PR made; absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub learned_share: f64,
    /// Why it could not run, when it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorKind>,
    /// Migration precision, TP / (TP + wrong), when the false positives were classified.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migration_precision: Option<f64>,
    /// The reusable recipe: harmonic mean of migration precision and recall over the migration's lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migration_f1: Option<f64>,
    /// Uses of the case's old library on its base before and after the option's recipe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub residual: Option<super::residual::Residual>,
    /// Symbols of the changed files that resolved before and no longer do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unresolved_added: Option<usize>,
}

impl OptionScore {
    /// The table's row for one option of a case's result (residual samples dropped).
    pub fn of(result: &OptionResult) -> OptionScore {
        OptionScore {
            option: result.option,
            strategy: result.strategy,
            recipes: result.recipes,
            precision: result.precision,
            recall: result.recall,
            f1: result.f1,
            semantic_share: result.semantic_share,
            learned_share: result.learned_share,
            error: result.error.as_ref().map(|e| e.kind),
            migration_precision: result.migration_precision,
            migration_f1: result.migration_f1,
            residual: result.residual.clone().map(|mut r| {
                r.samples.clear();
                r
            }),
            unresolved_added: result.unresolved.as_ref().map(|u| u.added()),
        }
    }
}

/// Counts and averages over a set of cases. Averages count every case that ran, a case without a
/// recommendation as 0, so an erroring case cannot raise the average; skipped cases (their
/// repository could not be had) are counted apart and left out of the averages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, schemars::JsonSchema)]
pub struct Totals {
    /// Cases finished, skipped ones included.
    pub cases: usize,
    /// Cases with status `passed`.
    pub passed: usize,
    /// Cases with status `failed`.
    pub failed: usize,
    /// Cases with status `error`.
    pub errors: usize,
    /// Cases with status `skipped`, left out of every average.
    #[serde(default)]
    pub skipped: usize,
    /// Cases whose recommended option matched the PR exactly.
    pub perfect_matches: usize,
    /// Average precision, 0.0–1.0.
    pub avg_precision: f64,
    /// Average recall, 0.0–1.0.
    pub avg_recall: f64,
    /// Average F1, 0.0–1.0: the number the regression gate watches.
    pub avg_f1: f64,
    /// Average semantic share, 0.0–1.0.
    pub avg_semantic_share: f64,
    /// Seconds all cases took together.
    pub total_wall_seconds: f64,
    /// Seconds per case on average.
    pub avg_wall_seconds: f64,
    /// The recommended options' migration precision, over the cases that have it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avg_migration_precision: Option<f64>,
    /// Their semantic share over the migration's lines, over the cases that have it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avg_migration_semantic_share: Option<f64>,
    /// Cases the migration gate called a migration (over the cases that have an answer).
    #[serde(default)]
    pub migrations: usize,
    /// Cases whose verdict is `ready_to_roll_out`.
    #[serde(default)]
    pub ready_to_roll_out: usize,
    /// Cases that ran with a reusable recipe (the averages below count a case without one as 0 in F1).
    #[serde(default)]
    pub reusable_recipes: usize,
    /// Average F1 of the reusable recipes on their own PRs, 0.0–1.0.
    #[serde(default)]
    pub avg_reusable_f1: f64,
    /// Average migration precision of the reusable recipes on their own PRs, over the cases that have it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avg_reusable_migration_precision: Option<f64>,
    /// The reusable recipes' migration F1 on their own PRs (a case without one counts as 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avg_reusable_migration_f1: Option<f64>,
    /// Migrations whose reusable recipe's residual was measured on their own base.
    #[serde(default)]
    pub reusable_residual_measured: usize,
    /// Of those measured, the ones whose reusable recipe left no use of the old library and broke nothing.
    #[serde(default)]
    pub reusable_complete: usize,
    /// Of those measured, the ones whose reusable recipe left no use a recipe could reach on this
    /// machine (uses in POMs that did not resolve here are out of reach) and broke nothing.
    #[serde(default)]
    pub reusable_complete_in_reach: usize,
}

/// `<out>/shard-results.json`: what one `eval run` was asked to do and how far it got. It is
/// rewritten after every case, so a shard cut short still says which cases it never finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ShardResults {
    /// The suite's `name`.
    pub suite_name: String,
    /// Which slice of the suite this run was (`1/1` for the whole suite).
    pub shard: Shard,
    /// The cases of this shard, in suite order.
    pub planned: Vec<String>,
    /// The cases finished so far.
    pub cases: Vec<CaseRow>,
    /// Counts and averages over the finished cases.
    pub totals: Totals,
    /// The suite's transfer pairs, once every case of the shard ran.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transfers: Vec<TransferResult>,
}

/// How a transfer pair ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TransferStatus {
    /// The reusable recipe ran on the other case's base and was scored.
    Ran,
    /// The first case has no reusable recipe (no semantic step, or no recommendation): nothing
    /// transfers, recall 0.
    NoRecipe,
    /// The pair could not be tried here: a case was skipped, or the two are in different shards.
    Skipped,
    /// The recipe could not run on the other base.
    Error,
}

impl TransferStatus {
    /// The status as written in the results table: `ran`, `no recipe`, `skipped`, `error`.
    pub fn label(self) -> &'static str {
        match self {
            TransferStatus::Ran => "ran",
            TransferStatus::NoRecipe => "no recipe",
            TransferStatus::Skipped => "skipped",
            TransferStatus::Error => "error",
        }
    }
}

/// One pair: the reusable recipe of case `from`, run on the base of case `to` and compared with
/// `to`'s own PR.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TransferResult {
    /// The case whose reusable recipe ran.
    pub from: String,
    /// The case (or rollout target) whose base it ran on.
    pub to: String,
    /// How the pair ended.
    pub status: TransferStatus,
    /// Why the pair was skipped or errored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Recipes in the reusable recipe.
    pub recipes: usize,
    /// Lines the recipe changed as the second PR did.
    pub true_positives: usize,
    /// Lines the recipe changed that the second PR did not.
    pub false_positives: usize,
    /// Lines of the second PR the recipe did not change.
    pub false_negatives: usize,
    /// Precision against the second PR, 0.0–1.0.
    pub precision: f64,
    /// Recall against the second PR, 0.0–1.0.
    pub recall: f64,
    /// F1 against the second PR, 0.0–1.0.
    pub f1: f64,
    /// Seconds the pair took.
    pub wall_seconds: f64,
    /// TP / (TP + wrong) on the second PR, when its files were known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migration_precision: Option<f64>,
    /// Recall divided by the recall of the second case's own reusable recipe on its own PR,
    /// capped at 1: that PR usually holds other work too, so absolute recall cannot reach 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relative_recall: Option<f64>,
    /// Uses of the first case's old library on the second repository, before and after the
    /// recipe: whether the migration is done there, whatever the second PR's author wrote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub residual: Option<super::residual::Residual>,
    /// Symbols of the changed files that resolved before the recipe and no longer do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unresolved_added: Option<usize>,
    /// The second is a rollout target (a repository with no PR): precision and recall say
    /// nothing, only the old library left and the compile check do.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rollout: bool,
}

impl TransferResult {
    /// Precision means something only when the recipe changed some line.
    pub fn has_precision(&self) -> bool {
        self.status == TransferStatus::Ran && self.true_positives + self.false_positives > 0
    }

    /// Recall counts for pairs that ran and for a case with nothing to transfer (0); never for a
    /// rollout, which has no PR.
    pub fn counts_for_recall(&self) -> bool {
        !self.rollout && matches!(self.status, TransferStatus::Ran | TransferStatus::NoRecipe)
    }
}

/// The transfer pairs' averages: precision over the pairs whose recipe changed something,
/// recall and F1 over those that ran or had no recipe (recall 0).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, schemars::JsonSchema)]
pub struct TransferTotals {
    /// Transfer pairs in the suite.
    pub pairs: usize,
    /// Pairs whose recipe ran (status `ran`).
    pub ran: usize,
    /// Pairs whose recipe changed at least one line (they count for precision).
    pub with_changes: usize,
    /// Average precision over the pairs with changes, 0.0–1.0.
    pub avg_precision: f64,
    /// Average recall over the pairs that ran or had no recipe, 0.0–1.0.
    pub avg_recall: f64,
    /// Average F1 over the pairs that ran or had no recipe, 0.0–1.0.
    pub avg_f1: f64,
    /// Average migration precision over the pairs that have it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avg_migration_precision: Option<f64>,
    /// Over the pairs whose second case has a reusable recipe with some recall on its own PR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avg_relative_recall: Option<f64>,
    /// Over the pairs that measured it: the share of the old library's uses the recipe took away
    /// on the second repository.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avg_residual_reduction: Option<f64>,
    /// Pairs whose recipe left no use of the old library and broke nothing.
    #[serde(default)]
    pub complete: usize,
    /// Pairs whose recipe left no use a recipe could reach on this machine, and broke nothing.
    #[serde(default)]
    pub complete_in_reach: usize,
    /// Pairs whose recipe left a symbol of a changed file unresolved that resolved before.
    #[serde(default)]
    pub breaking: usize,
}

/// `suite-results.json`: the merged results of a suite (and the format of a baseline).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SuiteResults {
    /// The suite's `name`.
    pub suite_name: String,
    /// Version of rewrite-assist that merged the results.
    pub tool_version: String,
    /// Shards whose output was found (empty when the inputs had no `shard-results.json`).
    #[serde(default)]
    pub shards: Vec<Shard>,
    /// Shards of the split that produced no output (`3/4`): the results are incomplete.
    #[serde(default)]
    pub missing_shards: Vec<Shard>,
    /// Sorted by name.
    pub cases: Vec<CaseRow>,
    /// Counts and averages over every case.
    pub totals: Totals,
    /// Transfer pairs of every shard, in suite order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transfers: Vec<TransferResult>,
    /// The transfer pairs' averages; absent when the suite has no pairs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transfer_totals: Option<TransferTotals>,
    /// The regression gate, when a baseline was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comparison: Option<Comparison>,
}

/// The results against a baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Comparison {
    /// The largest F1 drop the gate allows (`--max-f1-drop`).
    pub max_f1_drop: f64,
    /// Cases in both the baseline and the results; the averages below are over these only.
    pub common_cases: usize,
    /// The baseline's average F1 over the common cases.
    pub baseline_avg_f1: f64,
    /// These results' average F1 over the common cases.
    pub avg_f1: f64,
    /// `baseline_avg_f1 - avg_f1`: positive is worse.
    pub f1_drop: f64,
    /// The largest semantic share drop the gate allows (`--max-semantic-drop`).
    #[serde(default)]
    pub max_semantic_drop: f64,
    /// The baseline's average semantic share over the common cases.
    #[serde(default)]
    pub baseline_avg_semantic_share: f64,
    /// These results' average semantic share over the common cases.
    #[serde(default)]
    pub avg_semantic_share: f64,
    /// `baseline_avg_semantic_share - avg_semantic_share`: positive is worse.
    #[serde(default)]
    pub semantic_drop: f64,
    /// Cases that passed in the baseline and failed or errored now.
    pub newly_failing: Vec<String>,
    /// Failed or errored in the baseline, passed now.
    pub newly_passing: Vec<String>,
    /// Common cases whose status, F1 or semantic share changed.
    pub changes: Vec<CaseChange>,
    /// Cases skipped on either side (their repository could not be had): not compared.
    #[serde(default)]
    pub skipped: Vec<String>,
    /// Cases in the results but not in the baseline: reported, not gated.
    pub new_cases: Vec<String>,
    /// Cases in the baseline but not in the results: reported, not gated.
    pub removed_cases: Vec<String>,
    /// The transfer pairs in both, when both have any: gated like F1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transfer: Option<TransferComparison>,
    /// True when the gate failed; `reasons` says why.
    pub regressed: bool,
    /// Why the gate failed, one sentence each; empty when it passed.
    pub reasons: Vec<String>,
}

/// The transfer score against the baseline's, over the pairs that ran (or had no recipe) in both.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TransferComparison {
    /// Pairs that ran (or had no recipe) in both the baseline and the results.
    pub common_pairs: usize,
    /// The largest transfer F1 drop the gate allows.
    pub max_f1_drop: f64,
    /// The baseline's average transfer F1 over the common pairs.
    pub baseline_avg_f1: f64,
    /// These results' average transfer F1 over the common pairs.
    pub avg_f1: f64,
    /// `baseline_avg_f1 - avg_f1`: positive is worse.
    pub f1_drop: f64,
    /// The baseline's average transfer recall over the common pairs.
    pub baseline_avg_recall: f64,
    /// These results' average transfer recall over the common pairs.
    pub avg_recall: f64,
}

/// One common case whose status, F1 or semantic share differs from the baseline's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CaseChange {
    /// The case's name.
    pub name: String,
    /// Its status in the baseline.
    pub baseline_status: CaseStatus,
    /// Its status now.
    pub status: CaseStatus,
    /// Its F1 in the baseline.
    pub baseline_f1: f64,
    /// Its F1 now.
    pub f1: f64,
    /// Its semantic share in the baseline.
    #[serde(default)]
    pub baseline_semantic_share: f64,
    /// Its semantic share now.
    #[serde(default)]
    pub semantic_share: f64,
}

impl CaseChange {
    /// Better, worse or mixed: status first, then F1, then semantic share.
    pub fn verdict(&self) -> &'static str {
        let rank = |s: CaseStatus| match s {
            CaseStatus::Passed => 2,
            CaseStatus::Failed => 1,
            CaseStatus::Error | CaseStatus::Skipped => 0,
        };
        let status = rank(self.status).cmp(&rank(self.baseline_status));
        let f1 = self.f1.total_cmp(&self.baseline_f1);
        let semantic = self.semantic_share.total_cmp(&self.baseline_semantic_share);
        use std::cmp::Ordering::{Equal, Greater, Less};
        match status.then(f1) {
            Greater if semantic != Less => "better",
            Less if semantic != Greater => "worse",
            Equal if semantic == Greater => "better",
            Equal if semantic == Less => "worse",
            _ => "mixed",
        }
    }
}
