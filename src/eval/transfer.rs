//! The transfer score: a recipe is worth something when it works on the next repository. For each
//! pair of the suite, the reusable recipe learned from case `from` runs on the base of case `to`,
//! and its diff is compared with `to`'s own PR (precision, recall, F1), as `validate` would.
//!
//! A pair runs after every case of the shard, when both its cases are in the shard (a shard has
//! only its own cases' results). The runs go to `<out>/transfers/<from>--<to>/`.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::run::{CASE_RESULT, Options};
use super::source::Sources;
use super::suite::{Case, Defaults, Pair, Suite};
use crate::model::{CaseResult, CaseStatus, TransferResult, TransferStatus, TransferTotals};
use crate::pipeline::artifacts::{INTENT_TREE_JSON, PR_DIFF, REUSABLE_RECIPE};

/// The directory of the pairs' runs, under the eval output.
pub(crate) const TRANSFERS_DIR: &str = "transfers";

/// Runs the pairs whose two cases are in `cases` (the shard's, with their results written).
pub(crate) fn run_pairs(
    suite: &Suite,
    cases: &[&Case],
    settings: &Defaults,
    options: &Options,
    sources: Sources,
) -> Vec<TransferResult> {
    let in_shard = |name: &str| cases.iter().find(|c| c.name == name).copied();
    let sources = std::sync::Mutex::new(sources);
    // The pairs are independent: as many at once as the cases ran.
    let results = crate::parallel::map(
        &suite.pairs,
        options.workers,
        |pair| match (in_shard(&pair.from), in_shard(&pair.to), suite.target(&pair.to)) {
            (Some(_), Some(to), _) => run_pair(pair, Second::Case(to), settings, options, &sources),
            // A rollout target runs in the shard of the case whose recipe it takes.
            (Some(_), None, Some(target)) => {
                run_pair(pair, Second::Target(target), settings, options, &sources)
            }
            _ => not_run(pair, TransferStatus::Skipped, "its two cases are not in the same shard"),
        },
        &mut |_| {},
        crate::process::interrupted,
    );
    let pairs = suite.pairs.iter().zip(results);
    pairs
        .map(|(pair, result)| result.unwrap_or_else(|| not_run(pair, TransferStatus::Error, "interrupted")))
        .collect()
}

/// What a pair's recipe runs on: another case's base, scored against its PR, or a rollout target
/// (a repository at a commit, no PR), scored by the old library left and the compile check alone.
#[derive(Clone, Copy)]
enum Second<'a> {
    Case(&'a Case),
    Target(&'a Case),
}

fn run_pair(
    pair: &Pair,
    to: Second<'_>,
    settings: &Defaults,
    options: &Options,
    sources: &std::sync::Mutex<Sources>,
) -> TransferResult {
    let started = Instant::now();
    let mut result = match try_pair(pair, to, settings, options, sources) {
        Ok(result) => result,
        Err(error) => not_run(pair, TransferStatus::Error, &crate::error::one_line(&error)),
    };
    result.rollout = matches!(to, Second::Target(_));
    result.wall_seconds = crate::metrics::round4(started.elapsed().as_secs_f64());
    result
}

/// The result of a transfer that ran: the reusable recipe's metrics on the second PR, and its
/// recall relative to that PR's own reusable recipe.
fn ran(
    pair: &Pair,
    recipes: usize,
    stats: &crate::model::ValidationStats,
    to_dir: Option<&std::path::Path>,
) -> Result<TransferResult> {
    let m = &stats.metrics;
    let own = match to_dir {
        Some(dir) => own_reusable_recall(dir)?,
        None => None,
    };
    Ok(TransferResult {
        from: pair.from.clone(),
        to: pair.to.clone(),
        status: TransferStatus::Ran,
        reason: None,
        recipes,
        true_positives: m.true_positives,
        false_positives: m.false_positives,
        false_negatives: m.false_negatives,
        precision: m.precision,
        recall: m.recall,
        f1: m.f1,
        wall_seconds: 0.0,
        migration_precision: stats.migration.as_ref().map(|m| m.precision),
        rollout: to_dir.is_none(),
        relative_recall: own
            .filter(|own| *own > 0.0)
            .map(|own| crate::metrics::round4((m.recall / own).min(1.0))),
        residual: stats.residual.clone(),
        unresolved_added: stats.unresolved.as_ref().map(|u| u.added()),
    })
}

fn try_pair(
    pair: &Pair,
    second: Second<'_>,
    settings: &Defaults,
    options: &Options,
    sources: &std::sync::Mutex<Sources>,
) -> Result<TransferResult> {
    let from_dir = options.out.join(&pair.from);
    let to_dir = options.out.join(&pair.to);
    let (to, rollout) = match second {
        Second::Case(case) => (case, false),
        Second::Target(case) => (case, true),
    };
    let checked: &[(&String, &Path)] =
        if rollout { &[(&pair.from, &from_dir)] } else { &[(&pair.from, &from_dir), (&pair.to, &to_dir)] };
    for &(name, dir) in checked {
        let status = read_status(dir)?;
        if status != CaseStatus::Passed {
            return Ok(not_run(pair, TransferStatus::Skipped, &format!("case `{name}` {}", status.label())));
        }
    }
    let recipe_file = from_dir.join(REUSABLE_RECIPE);
    if !recipe_file.is_file() {
        return no_recipe(pair, (!rollout).then_some(to_dir.as_path()));
    }
    let recipe_yaml = crate::openrewrite::yaml_limits::read_recipe_file(&recipe_file)?;
    // The file's first recipe is the reusable recipe; the others are its wrappers (a step kept
    // to some files or modules by a precondition).
    let main = crate::openrewrite::RecipeFile::parse(&recipe_yaml)
        .ok()
        .and_then(|file| file.recipes.first().map(|recipe| (recipe.name.clone(), recipe.steps.len())));
    let recipes = main.as_ref().map_or(0, |(_, steps)| *steps);
    // A target has no PR: nothing to compare with.
    let expected = match rollout {
        false => crate::diff::parse(&crate::diff::read_text(&to_dir.join(PR_DIFF))?)
            .context("the PR diff of the second case")?,
        true => crate::diff::Diff::default(),
    };
    let prepared = sources.lock().map_err(|_| anyhow::anyhow!("a pair's worker panicked"))?.prepare(to)?;
    // The second PR's files, so that the transfer's false positives are told apart too.
    let view = (!rollout).then(|| pr_view(&prepared, &expected)).flatten();
    // Absolute: the runner works in a directory of its own and reads the recipe from here.
    let out_dir =
        std::path::absolute(options.out.join(TRANSFERS_DIR).join(format!("{}--{}", pair.from, pair.to)))?;
    crate::setup::out_dir::prepare(&out_dir)?;
    let catalog = crate::catalog::Catalog::embedded();
    let lookup = |name: &str| catalog.artifact_for(name);
    // A measurement, not a recommendation to confirm: see `BackendChoice::for_measurement`.
    let base = crate::validation::choice::Base {
        repo: prepared.repo.clone(),
        commit: prepared.base.clone(),
        versions: options.versions.clone(),
        project: None,
        trust: options.trust,
    };
    let validator = crate::validation::choice::start(options.backend.for_measurement(), base, view.as_ref())?;
    // What the first case's migration moves away from, measured on the second repository.
    let measure = crate::intents::old_library::of_tree_file(&from_dir.join(INTENT_TREE_JSON))
        .map(|old| crate::model::residual::Measure::of(&old));
    let recipe = crate::validation::Recipe {
        yaml: &recipe_yaml,
        name: main.as_ref().map(|(name, _)| name.as_str()),
        artifacts_for: &lookup,
        option_check: None,
    };
    let expected =
        crate::validation::Expected { diff: &expected, pr: view.as_ref(), measure: measure.as_ref() };
    let limits = crate::validation::Limits {
        timeout: settings.budgets().per_execution.min(Duration::from_secs(3600)),
    };
    let outcome = validator
        .run(&recipe, &expected, &crate::validation::Output::dir(&out_dir), limits)
        .context("validating the reusable recipe")?;
    let stats = outcome.stats;
    if let Some(error) = &stats.error {
        return Ok(TransferResult {
            recipes,
            ..not_run(pair, TransferStatus::Error, &format!("{} ({})", error.detail, error.kind))
        });
    }
    ran(pair, recipes, &stats, (!rollout).then_some(to_dir.as_path()))
}

/// The first case left no reusable recipe: nothing reached the next repository, and as far as
/// relative recall goes (when the second case is a case, `to_dir`), that is 0.
fn no_recipe(pair: &Pair, to_dir: Option<&Path>) -> Result<TransferResult> {
    let relative_recall = match to_dir {
        Some(dir) => own_reusable_recall(dir)?.filter(|own| *own > 0.0).map(|_| 0.0),
        None => None,
    };
    Ok(TransferResult {
        relative_recall,
        ..not_run(
            pair,
            TransferStatus::NoRecipe,
            &format!("case `{}` has no reusable recipe (no semantic step to generalize)", pair.from),
        )
    })
}

/// The second PR's files, so that the transfer's false positives are told apart too.
fn pr_view(
    prepared: &crate::eval::source::Prepared,
    expected: &crate::diff::Diff,
) -> Option<crate::metrics::classes::PrView> {
    let repo = crate::setup::Repo::open(&prepared.repo).ok()?;
    crate::metrics::classes::PrView::from_repo(&repo, &prepared.base, &prepared.head, expected.clone()).ok()
}

/// The recall of a case's own reusable recipe on its own PR (option 4 of its result).
fn own_reusable_recall(dir: &Path) -> Result<Option<f64>> {
    let path = dir.join(CASE_RESULT);
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let result: CaseResult =
        serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
    Ok(result
        .options
        .iter()
        .find(|o| o.option == crate::model::OptionId::Reusable && o.ran())
        .map(|o| o.recall))
}

fn read_status(dir: &Path) -> Result<CaseStatus> {
    let path = dir.join(CASE_RESULT);
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let result: CaseResult =
        serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
    Ok(result.status)
}

fn not_run(pair: &Pair, status: TransferStatus, reason: &str) -> TransferResult {
    TransferResult {
        from: pair.from.clone(),
        to: pair.to.clone(),
        status,
        reason: Some(reason.to_string()),
        recipes: 0,
        true_positives: 0,
        false_positives: 0,
        false_negatives: 0,
        precision: 0.0,
        recall: 0.0,
        f1: 0.0,
        wall_seconds: 0.0,
        migration_precision: None,
        relative_recall: None,
        residual: None,
        unresolved_added: None,
        rollout: false,
    }
}

/// The averages over the pairs (see [`TransferTotals`]); None without pairs.
pub(crate) fn totals(pairs: &[TransferResult]) -> Option<TransferTotals> {
    if pairs.is_empty() {
        return None;
    }
    let average = |values: Vec<f64>| {
        if values.is_empty() {
            0.0
        } else {
            crate::metrics::round4(values.iter().sum::<f64>() / values.len() as f64)
        }
    };
    // A rollout has no PR to score precision and recall against: only what it leaves counts.
    let with_changes: Vec<&TransferResult> =
        pairs.iter().filter(|p| !p.rollout && p.has_precision()).collect();
    let for_recall: Vec<&TransferResult> =
        pairs.iter().filter(|p| !p.rollout && p.counts_for_recall()).collect();
    Some(TransferTotals {
        pairs: pairs.len(),
        ran: pairs.iter().filter(|p| p.status == TransferStatus::Ran).count(),
        with_changes: with_changes.len(),
        avg_precision: average(with_changes.iter().map(|p| p.precision).collect()),
        avg_recall: average(for_recall.iter().map(|p| p.recall).collect()),
        avg_f1: average(for_recall.iter().map(|p| p.f1).collect()),
        avg_migration_precision: crate::eval::totals::average_of(
            with_changes.iter().filter_map(|p| p.migration_precision),
        ),
        avg_relative_recall: crate::eval::totals::average_of(pairs.iter().filter_map(|p| p.relative_recall)),
        avg_residual_reduction: crate::eval::totals::average_of(
            pairs.iter().filter_map(|p| p.residual.as_ref()).map(|r| r.reduction()),
        ),
        complete: pairs
            .iter()
            .filter(|p| p.residual.as_ref().is_some_and(|r| r.after == 0) && p.unresolved_added == Some(0))
            .count(),
        complete_in_reach: pairs
            .iter()
            .filter(|p| {
                p.residual.as_ref().is_some_and(|r| r.after_in_reach() == 0) && p.unresolved_added == Some(0)
            })
            .count(),
        breaking: pairs.iter().filter(|p| p.unresolved_added.is_some_and(|n| n > 0)).count(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(status: TransferStatus, tp: usize, fp: usize, precision: f64, recall: f64) -> TransferResult {
        TransferResult {
            status,
            true_positives: tp,
            false_positives: fp,
            precision,
            recall,
            f1: crate::metrics::f1(precision, recall),
            ..not_run(&Pair { from: "a".into(), to: "b".into() }, status, "")
        }
    }

    #[test]
    fn precision_counts_pairs_that_changed_something_and_recall_counts_missing_recipes_as_zero() {
        let pairs = [
            pair(TransferStatus::Ran, 8, 2, 0.8, 0.5),
            // Ran and changed nothing: recall 0, no precision.
            pair(TransferStatus::Ran, 0, 0, 0.0, 0.0),
            pair(TransferStatus::NoRecipe, 0, 0, 0.0, 0.0),
            // Not tried: counted apart.
            pair(TransferStatus::Skipped, 0, 0, 0.0, 0.0),
            pair(TransferStatus::Error, 0, 0, 0.0, 0.0),
        ];
        let totals = totals(&pairs).unwrap();
        assert_eq!((totals.pairs, totals.ran, totals.with_changes), (5, 2, 1));
        assert_eq!(totals.avg_precision, 0.8);
        assert_eq!(totals.avg_recall, 0.1667);
        assert!(super::totals(&[]).is_none());
    }
}
