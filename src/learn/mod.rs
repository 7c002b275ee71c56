//! Learning one reusable recipe from several PRs of the same migration (issue #27, item 4). One
//! PR often migrates part of a codebase, or the part its repository happened to have; the same
//! move in other repositories shows the rest. Each PR is analyzed on its own; the candidates are
//! each PR's reusable recipe and their union (every semantic step any of them learned, once); each
//! candidate runs on every PR, and the one that does best across all of them is the learned
//! recipe. "Best" is the objective the reusable recipe of one PR is chosen by
//! ([`crate::reuse::finish`]), over all the PRs: among the candidates precise enough (a mean
//! migration F1 — [`crate::metrics::MigrationScore`], as the verdict reads it: migration
//! precision, where layout, variants and completions do not count against a recipe, and recall
//! over the PR's migration lines, its side work left out — that keeps the verdict the best one
//! earns), the one that breaks no symbol on any PR's base, then the one that leaves the fewest
//! uses of the old library across the PRs' bases, then the mean migration F1, the mean line F1
//! and fewer steps.

mod report;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use crate::model::{CandidateOption, OptionId, PlannedStep, RunSummary};
use crate::pipeline::{self, AnalysisRequest, NoProgress};
use crate::reuse::scope::LineKey;

/// One PR to learn from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct PrSpec {
    pub repo: PathBuf,
    pub base: String,
    pub head: String,
}

impl PrSpec {
    /// `PATH@BASE..HEAD` (the path may itself contain `@`; the last one separates).
    pub(crate) fn parse(text: &str) -> Result<PrSpec> {
        let usage = || crate::error::bad_input(format!("`{text}` is not PATH@BASE..HEAD"));
        let (repo, range) = text.rsplit_once('@').ok_or_else(usage)?;
        let (base, head) = range.split_once("..").ok_or_else(usage)?;
        if repo.is_empty() || base.is_empty() || head.is_empty() {
            return Err(usage());
        }
        Ok(PrSpec { repo: PathBuf::from(repo), base: base.to_string(), head: head.to_string() })
    }
}

/// One candidate's run on one PR.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct Cell {
    pub pr: usize,
    pub f1: f64,
    pub recall: f64,
    pub migration_precision: Option<f64>,
    pub migration_f1: f64,
    /// Uses of the old library the candidate left on this PR's base (None: not measured).
    pub residual_after: Option<usize>,
    /// Symbols that resolved on this PR's base and no longer do after the candidate.
    pub unresolved_added: usize,
    pub error: Option<String>,
}

/// A candidate recipe and how it did on each PR.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct Candidate {
    /// `pr-1`, `pr-2`, … or `union`.
    pub name: String,
    pub steps: usize,
    pub cells: Vec<Cell>,
    pub mean_migration_f1: f64,
    pub mean_f1: f64,
    /// Uses of the old library left on all the PRs' bases together (None: not measured on one).
    pub residual_after: Option<usize>,
    /// Symbols broken on all the PRs' bases together.
    pub unresolved_added: usize,
}

/// What `learn` did.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct Learned {
    pub prs: Vec<PrSpec>,
    /// Each PR's own analysis.
    pub analyses: Vec<RunSummary>,
    pub candidates: Vec<Candidate>,
    /// The chosen candidate's name; None when no PR gave a reusable recipe.
    pub chosen: Option<String>,
}

/// Analyzes each PR into `out/pr-N`, runs every candidate on every PR (`out/runs/…`) and writes
/// the chosen recipe to `out/result/reusable-recipe.yaml`, with `out/learn.md` and `learn.json`.
pub(crate) fn learn(prs: &[PrSpec], template: &AnalysisRequest) -> Result<Learned> {
    let out = &template.out_dir;
    crate::setup::out_dir::prepare(out)?;
    // One runner serves every PR's analysis and every candidate's run, one after the other.
    let _kept = crate::validation::embedded::pool::keep_runners(1);
    let mut analyses = Vec::new();
    let mut options = Vec::new();
    for (index, pr) in prs.iter().enumerate() {
        let dir = out.join(format!("pr-{}", index + 1));
        let request = AnalysisRequest {
            repo: pr.repo.clone(),
            base: pr.base.clone(),
            head: pr.head.clone(),
            out_dir: dir.clone(),
            ..template.clone()
        };
        // One line a PR, as it is done, in a CI log too.
        let (summary, fatal) = pipeline::analyze_to_end(&request, &NoProgress)?;
        if let Some(error) = fatal {
            return Err(error.context(format!("analyzing PR {} ({})", index + 1, pr.repo.display())));
        }
        eprintln!(
            "learn: [{}/{}] {}: {}, {}",
            index + 1,
            prs.len(),
            pr.repo.display(),
            format!("{:?}", summary.status).to_lowercase(),
            summary.recommended.as_ref().map_or("no recipe".to_string(), |r| format!("F1 {:.4}", r.f1))
        );
        analyses.push(summary);
        options.push(read_reusable(&dir)?);
    }
    let candidates = candidates(&options);
    let side_work: Vec<HashSet<LineKey>> =
        (1..=prs.len()).map(|n| side_work_of(&out.join(format!("pr-{n}")))).collect();
    let mut scored = Vec::new();
    for (name, option) in &candidates {
        let cells = prs
            .iter()
            .enumerate()
            .map(|(index, pr)| {
                run_on(
                    option,
                    pr,
                    index,
                    &out.join("runs").join(name).join(format!("pr-{}", index + 1)),
                    template,
                    &side_work[index],
                )
            })
            .collect::<Result<Vec<Cell>>>()?;
        scored.push(score(name, option.steps.len(), cells));
    }
    let chosen = choose(&scored).map(|c| c.name.clone());
    if let Some(name) = &chosen {
        let (_, option) = candidates.iter().find(|(n, _)| n == name).context("the chosen candidate")?;
        std::fs::create_dir_all(out.join("result"))?;
        std::fs::write(out.join(pipeline::artifacts::REUSABLE_RECIPE), option.to_yaml())?;
    }
    let learned = Learned { prs: prs.to_vec(), analyses, candidates: scored, chosen };
    std::fs::write(out.join("learn.json"), crate::document::to_json(&learned)?)?;
    std::fs::write(out.join("learn.md"), report::render(&learned))?;
    Ok(learned)
}

/// The side work of a PR, from the intent tree its analysis wrote in `dir` (by the tree alone:
/// discovery's evidence is not kept); none without a tree.
fn side_work_of(dir: &Path) -> HashSet<LineKey> {
    let path = dir.join(pipeline::artifacts::INTENT_TREE_JSON);
    let tree = std::fs::read_to_string(path).ok().and_then(|text| serde_json::from_str(&text).ok());
    tree.map(|tree| crate::reuse::scope::side_work_lines(&tree, None)).unwrap_or_default()
}

/// A PR's reusable recipe, as its analysis wrote it; None when it has none.
fn read_reusable(dir: &Path) -> Result<Option<CandidateOption>> {
    let path = dir.join(pipeline::artifacts::REUSABLE_OPTION);
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    Ok(Some(serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?))
}

/// Each PR's reusable recipe, and their union when it differs from each of them.
fn candidates(options: &[Option<CandidateOption>]) -> Vec<(String, CandidateOption)> {
    let mut out: Vec<(String, CandidateOption)> = Vec::new();
    let mut union = CandidateOption::new(OptionId::Learned, "");
    for (index, option) in options.iter().enumerate() {
        let Some(option) = option else { continue };
        let mut own = option.clone();
        own.number = OptionId::Learned;
        if union.purpose.is_empty() {
            union.purpose = option.purpose.clone();
        }
        for step in &option.steps {
            if !union.steps.iter().any(|s: &PlannedStep| s.signature() == step.signature()) {
                union.steps.push(step.clone());
            }
        }
        out.push((format!("pr-{}", index + 1), own));
    }
    if out.len() > 1 && out.iter().all(|(_, o)| o.signature() != union.signature()) {
        out.push(("union".to_string(), union));
    }
    out
}

/// Runs `option` on `pr` (its base, scored against its diff) with the embedded runner.
fn run_on(
    option: &CandidateOption,
    pr: &PrSpec,
    index: usize,
    dir: &Path,
    template: &AnalysisRequest,
    side_work: &HashSet<LineKey>,
) -> Result<Cell> {
    let repo = crate::setup::Repo::open(&pr.repo)?;
    let base = repo.resolve(&pr.base)?;
    let head = repo.resolve(&pr.head)?;
    let expected = crate::diff::parse_pr(&repo.diff(&base, &head)?).context("reading the PR's diff")?;
    let view = crate::metrics::classes::PrView::from_repo(&repo, &base, &head, expected.clone())?;
    let measure =
        crate::model::residual::Measure::of(&crate::intents::old_library::of_pr(&repo, &base, &head)?);
    let base = crate::validation::choice::Base {
        repo: repo.path().to_path_buf(),
        commit: base,
        versions: template.versions.clone(),
        project: None,
        trust: template.trust,
    };
    let validator = crate::validation::choice::start_embedded(base, Some(&view))?;
    std::fs::create_dir_all(dir)?;
    let catalog = crate::catalog::Catalog::embedded();
    let lookup = |name: &str| catalog.artifact_for(name);
    let yaml = option.to_yaml();
    let recipe_name = option.recipe_name();
    let recipe = crate::validation::Recipe {
        yaml: &yaml,
        name: Some(&recipe_name),
        artifacts_for: &lookup,
        option_check: None,
    };
    let expected = crate::validation::Expected { diff: &expected, pr: Some(&view), measure: Some(&measure) };
    let limits = crate::validation::Limits { timeout: template.budgets.per_execution };
    let stats = validator.run(&recipe, &expected, &crate::validation::Output::dir(dir), limits)?.stats;
    let m = &stats.metrics;
    let migration_precision = stats.migration.as_ref().map(|m| m.precision);
    // The PR's side work is not the migration's: not a candidate's to make.
    let migration_f1 = crate::metrics::migration_score(m, migration_precision, |l| {
        side_work.contains(&(l.path.clone(), l.kind, l.content.clone()))
    })
    .f1;
    Ok(Cell {
        pr: index + 1,
        f1: m.f1,
        recall: m.recall,
        migration_precision,
        migration_f1,
        residual_after: stats.residual.as_ref().map(|r| r.after),
        unresolved_added: stats.unresolved.as_ref().map_or(0, |u| u.added()),
        error: stats.error.map(|e| format!("{}: {}", e.kind, e.detail)),
    })
}

fn score(name: &str, steps: usize, cells: Vec<Cell>) -> Candidate {
    let mean = |value: fn(&Cell) -> f64| {
        if cells.is_empty() {
            0.0
        } else {
            crate::metrics::round4(cells.iter().map(value).sum::<f64>() / cells.len() as f64)
        }
    };
    Candidate {
        name: name.to_string(),
        steps,
        mean_migration_f1: mean(|c| c.migration_f1),
        mean_f1: mean(|c| c.f1),
        residual_after: cells.iter().map(|c| c.residual_after).sum(),
        unresolved_added: cells.iter().map(|c| c.unresolved_added).sum(),
        cells,
    }
}

/// The best candidate (see the module's comment): precise enough, then no broken symbol, then the
/// fewest uses of the old library left, then mean migration F1, mean F1, fewer steps, the earlier.
fn choose(candidates: &[Candidate]) -> Option<&Candidate> {
    let best_f1 = candidates.iter().map(|c| c.mean_migration_f1).fold(0.0, f64::max);
    let floor = best_f1.min(crate::decision::verdict::READY_F1);
    let precise = |c: &Candidate| {
        c.mean_migration_f1 >= floor
            && c.cells.iter().all(|cell| {
                cell.migration_precision.is_none_or(|p| p >= crate::reuse::finish::MIN_MIGRATION_PRECISION)
            })
    };
    let left = |c: &Candidate| c.residual_after.unwrap_or(usize::MAX);
    // When none is precise enough, the objective still ranks them all: something is learned.
    let any_precise = candidates.iter().any(precise);
    candidates.iter().rev().filter(|c| !any_precise || precise(c)).max_by(|a, b| {
        b.unresolved_added
            .cmp(&a.unresolved_added)
            .then(left(b).cmp(&left(a)))
            .then(a.mean_migration_f1.total_cmp(&b.mean_migration_f1))
            .then(a.mean_f1.total_cmp(&b.mean_f1))
            .then(b.steps.cmp(&a.steps))
    })
}

#[cfg(test)]
mod tests;
