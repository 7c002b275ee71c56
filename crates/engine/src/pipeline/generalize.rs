//! The generalize phase: the recommended recipe made reusable ([`crate::reuse`]) and run on this
//! PR like an option, so its F1 and semantic share are measured, not assumed.

use anyhow::{Context as _, Result};

use super::artifacts::{OPTION_FILES, REUSABLE_OPTION, REUSABLE_RECIPE, RunDir, option_file_name};
use super::budget::Budget;
use super::context::Context;
use super::execute::OptionValidation;
use super::products::{Checkout, Report, Step, Validations};
use super::state::PhaseEnd;
use crate::discovery::Discovery;
use crate::model::intent::IntentTree;
use crate::model::{OptionId, Recommendation, ReusableRecipe, Strategy};

/// What generalizing reads.
pub(super) struct GeneralizeInputs<'r> {
    pub checkout: &'r Checkout,
    pub tree: Option<&'r IntentTree>,
    pub discovery: Option<&'r Discovery>,
    pub validated: &'r Validations,
    pub recommendation: Option<&'r Recommendation>,
}

use crate::reuse::scope::LineKey;

pub(super) use crate::reuse::scope::side_work_lines;

/// The reusable recipe's migration recall and migration F1 ([`crate::metrics::MigrationScore`]),
/// the PR's side work left out of the recall.
fn with_migration_recall(
    mut result: crate::model::OptionResult,
    stats: &crate::model::ValidationStats,
    side_work: &std::collections::HashSet<LineKey>,
) -> crate::model::OptionResult {
    let score = crate::metrics::migration_score(&stats.metrics, result.migration_precision, |l| {
        side_work.contains(&(l.path.clone(), l.kind, l.content.clone()))
    });
    result.migration_recall = Some(score.recall);
    result.migration_f1 = Some(score.f1);
    result
}

/// Candidates for the reusable recipe run on this PR: the recommended recipe generalized, and at
/// most this many others led by a catalog composite that may finish the migration.
const MAX_CANDIDATES: usize = 3;

/// The recommended recipe generalized, and its run on this PR as option 4; or, where a candidate
/// led by a catalog composite finishes the migration on this PR's base and the generalized steps
/// do not ([`crate::reuse::finish`]), that candidate.
pub(super) fn generalize(
    ctx: &Context,
    budget: &Budget,
    inputs: &GeneralizeInputs,
) -> Result<Step<ReusableRecipe>> {
    let Some(recommendation) = inputs.recommendation else {
        return Ok(Report::bare(PhaseEnd::Skipped, "no recommendation").into());
    };
    let chosen =
        inputs.validated.get(&recommendation.option).context("recommended option without results")?;
    let composites = match (inputs.discovery, inputs.tree) {
        (Some(discovery), Some(tree)) => crate::reuse::composites::migration_composites(
            discovery,
            tree,
            &inputs.checkout.pr,
            ctx.catalog,
            // By the tree alone: a composite that reaches into the PR's other changes is not
            // made the migration by its own evidence.
            &crate::reuse::incidental_intents(tree, None),
        ),
        _ => Vec::new(),
    };
    let candidates = candidates(ctx, inputs, &chosen.option, &composites);
    let Some(first) = candidates.first() else {
        return Ok(Report::bare(PhaseEnd::Skipped, "the recommended recipe has no semantic step").into());
    };
    let mut problems = Vec::new();
    let mut outputs = vec![REUSABLE_RECIPE.to_string(), REUSABLE_OPTION.to_string()];
    std::fs::create_dir_all(ctx.dir.path("result"))?;
    let evidence = inputs.discovery.map(|d| (d, ctx.catalog));
    let side_work = inputs.tree.map(|t| side_work_lines(t, evidence)).unwrap_or_default();
    let measure =
        inputs.tree.map(|t| crate::model::residual::Measure::of(&crate::intents::old_library::of(t)));
    let validator = OptionValidation { ctx, budget, checkout: inputs.checkout, measure: measure.as_ref() };
    let same = first.option.signature() == chosen.option.signature();
    // Each candidate runs in a directory of its own (`reusable/candidate-N/`), kept for the
    // reviewer; the winner's files become option 4's.
    let mut results = Vec::new();
    for (n, candidate) in candidates.iter().enumerate() {
        let dir = ctx.dir.sub(&candidate_dir(n))?;
        dir.write(REUSABLE_RECIPE_NAME, candidate.option.to_yaml())?;
        if n == 0 && same {
            // The recommended recipe is reusable as it is: its run holds.
            let mut result = chosen.result.clone();
            result.option = OptionId::Reusable;
            result.strategy = Strategy::Reusable;
            result.recipe_name = first.option.recipe_name();
            results.push(Some(with_migration_recall(result, &chosen.stats, &side_work)));
            continue;
        }
        results.push(run_candidate(&validator, &candidate.option, &dir, &side_work, &mut problems)?);
    }
    let scored: Vec<crate::reuse::finish::Candidate> = candidates
        .iter()
        .zip(&results)
        .map(|(c, r)| crate::reuse::finish::Candidate {
            result: r.as_ref(),
            composite: c.led_by.is_some(),
            steps: c.option.steps.len(),
        })
        .collect();
    let best = crate::reuse::finish::best(&scored);
    let mut reusable = candidates[best].clone();
    let result = results[best].clone();
    let dir = ctx.dir.path(&candidate_dir(best));
    for name in OPTION_FILES.iter().map(|what| option_file_name(OptionId::Reusable, what)) {
        if dir.join(&name).exists() {
            ctx.dir.copy_in(&dir.join(&name), &name)?;
            outputs.push(name);
        }
    }
    if best > 0
        && let (Some(won), Some(Some(lost))) = (&result, results.first())
    {
        reusable.reusable.changes.push(format!(
            "chose the candidate led by `{}` over the recommended recipe generalized: {}",
            reusable.led_by.as_deref().map(crate::openrewrite::simple_name).unwrap_or_default(),
            crate::reuse::finish::why(won, lost)
        ));
    }
    ctx.dir.write(REUSABLE_RECIPE, reusable.option.to_yaml())?;
    ctx.dir.write_json(REUSABLE_OPTION, &reusable.option)?;
    outputs.sort();
    outputs.dedup();
    let detail = detail(&reusable, result.as_ref(), same && best == 0, candidates.len());
    let made = ReusableRecipe {
        recipe_name: reusable.option.recipe_name(),
        recipes: reusable.option.steps.len(),
        generalized: reusable.reusable.changes.clone(),
        result,
    };
    Ok(Step::made(Report { problems, ..Report::new(PhaseEnd::Ok, detail, outputs) }, made))
}

/// The directory of candidate `n` (0: the recommended recipe generalized).
fn candidate_dir(n: usize) -> String {
    format!("reusable/candidate-{n}")
}

/// The name of a candidate's recipe file in its directory.
const REUSABLE_RECIPE_NAME: &str = "reusable-recipe.yaml";

/// A candidate for the reusable recipe.
#[derive(Clone)]
struct Candidate {
    reusable: crate::reuse::Reusable,
    option: crate::model::CandidateOption,
    /// The catalog composite that may finish the migration and leads it (None: the recommended
    /// recipe's own steps).
    led_by: Option<String>,
}

/// The recommended recipe generalized (first), then the same led by each composite that may
/// finish a migration of the tree ([`crate::reuse::composites::finishing_composites`]), without
/// duplicates, at most [`MAX_CANDIDATES`].
fn candidates(
    ctx: &Context,
    inputs: &GeneralizeInputs,
    recommended: &crate::model::CandidateOption,
    composites: &[crate::reuse::composites::Composite],
) -> Vec<Candidate> {
    let make = |led: &[crate::reuse::composites::Composite], by: Option<String>| {
        crate::reuse::generalize_with(recommended, ctx.catalog, inputs.tree, led, inputs.discovery)
            .map(|reusable| Candidate { option: reusable.option.clone(), reusable, led_by: by })
    };
    // The first is led by the composites that made this PR's migration, if any.
    let Some(first) = make(composites, composites.first().map(|c| c.step.name.clone())) else {
        return Vec::new();
    };
    let mut out = vec![first];
    let (Some(discovery), Some(tree)) = (inputs.discovery, inputs.tree) else { return out };
    for extra in crate::reuse::composites::finishing_composites(discovery, tree, ctx.catalog, composites) {
        let by = Some(extra.step.name.clone());
        let mut led: Vec<_> = composites.iter().filter(|c| c.intent != extra.intent).cloned().collect();
        led.push(extra);
        if let Some(candidate) = make(&led, by)
            && !out.iter().any(|c| c.option.signature() == candidate.option.signature())
        {
            out.push(candidate);
        }
        if out.len() >= MAX_CANDIDATES {
            break;
        }
    }
    out
}

/// A candidate's run on this PR (as option 4, its files in `dir`); None when it cannot run here
/// (the plugin backend, or no execution left).
fn run_candidate(
    validator: &OptionValidation,
    option: &crate::model::CandidateOption,
    dir: &RunDir,
    side_work: &std::collections::HashSet<LineKey>,
    problems: &mut Vec<String>,
) -> Result<Option<crate::model::OptionResult>> {
    if validator.ctx.session(validator.checkout)?.is_none() || !validator.budget.can_run_again() {
        return Ok(None);
    }
    let (mut validated, broken) = validator.validate_all(vec![option.clone()], Some(dir))?;
    problems.extend(broken.iter().map(|b| format!("generalize: {b}")));
    Ok(validated.pop().map(|v| with_migration_recall(v.result, &v.stats, side_work)))
}

/// The phase's one line.
fn detail(
    chosen: &Candidate,
    result: Option<&crate::model::OptionResult>,
    as_is: bool,
    tried: usize,
) -> String {
    let steps = chosen.option.steps.len();
    let of = if tried > 1 { format!(" (the best of {tried} candidates)") } else { String::new() };
    match result {
        Some(r) if r.ran() => format!(
            "{steps} recipes{of}, F1 {:.4} on this PR, semantic share {:.2}{}{}",
            r.f1,
            r.semantic_share,
            r.residual
                .as_ref()
                .map(|x| format!(", {} of {} uses of the old library left", x.after, x.before))
                .unwrap_or_default(),
            if as_is { " (the recommended recipe as it is)" } else { "" }
        ),
        Some(r) => format!(
            "{steps} recipes{of}; its run failed: {}",
            r.error.as_ref().map(|e| e.detail.clone()).unwrap_or_default()
        ),
        None => format!("{steps} recipes; not run here (needs the embedded runner)"),
    }
}
