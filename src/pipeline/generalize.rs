//! The generalize phase: the recommended recipe made reusable ([`crate::reuse`]) and run on this
//! PR like an option, so its F1 and semantic share are measured, not assumed.

use anyhow::{Context as _, Result};

use super::artifacts::{OPTION_FILES, REUSABLE_OPTION, REUSABLE_RECIPE, option_file_name};
use super::budget::Budget;
use super::context::Context;
use super::execute::Validator;
use super::products::{Checkout, Report, Step, Validations};
use super::state::Outcome;
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

/// The reusable recipe's migration recall and migration F1 (see [`crate::model::OptionResult`]).
fn with_migration_recall(
    mut result: crate::model::OptionResult,
    stats: &crate::model::ValidationStats,
    side_work: &std::collections::HashSet<LineKey>,
) -> crate::model::OptionResult {
    let m = &stats.metrics;
    let missed = m
        .false_negative_lines
        .iter()
        .filter(|l| !side_work.contains(&(l.path.clone(), l.kind, l.content.clone())))
        .count();
    let whole = m.true_positives + missed;
    let recall = if whole == 0 { 0.0 } else { m.true_positives as f64 / whole as f64 };
    let precision = result.migration_precision.unwrap_or(result.precision);
    let f1 = if precision + recall == 0.0 { 0.0 } else { 2.0 * precision * recall / (precision + recall) };
    result.migration_recall = Some(crate::metrics::round4(recall));
    result.migration_f1 = Some(crate::metrics::round4(f1));
    result
}

/// The recommended recipe generalized, and its run on this PR as option 4.
pub(super) fn generalize(
    ctx: &Context,
    budget: &Budget,
    inputs: &GeneralizeInputs,
) -> Result<Step<ReusableRecipe>> {
    let Some(recommendation) = inputs.recommendation else {
        return Ok(Report::bare(Outcome::Skipped, "no recommendation").into());
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
    let Some(reusable) = crate::reuse::generalize_with(
        &chosen.option,
        ctx.catalog,
        inputs.tree,
        &composites,
        inputs.discovery,
    ) else {
        return Ok(Report::bare(Outcome::Skipped, "the recommended recipe has no semantic step").into());
    };
    let mut problems = Vec::new();
    let mut outputs = vec![REUSABLE_RECIPE.to_string(), REUSABLE_OPTION.to_string()];
    std::fs::create_dir_all(ctx.dir.path("result"))?;
    ctx.dir.write(REUSABLE_RECIPE, reusable.option.to_yaml())?;
    ctx.dir.write_json(REUSABLE_OPTION, &reusable.option)?;
    let same = reusable.option.signature() == chosen.option.signature();
    let evidence = inputs.discovery.map(|d| (d, ctx.catalog));
    let side_work = inputs.tree.map(|t| side_work_lines(t, evidence)).unwrap_or_default();
    let result = if same {
        // The recommended recipe is reusable as it is: its run holds.
        let mut result = chosen.result.clone();
        result.option = OptionId::Reusable;
        result.strategy = Strategy::Reusable;
        result.recipe_name = reusable.option.recipe_name();
        Some(with_migration_recall(result, &chosen.stats, &side_work))
    } else if ctx.session(inputs.checkout)?.is_some() && budget.can_run_again() {
        let validator = Validator { ctx, budget, checkout: inputs.checkout };
        let (mut validated, broken) = validator.validate_all(vec![reusable.option.clone()], None)?;
        problems.extend(broken.iter().map(|b| format!("generalize: {b}")));
        outputs.extend(
            OPTION_FILES
                .iter()
                .map(|what| option_file_name(OptionId::Reusable, what))
                .filter(|name| ctx.dir.path(name).exists()),
        );
        validated.pop().map(|v| with_migration_recall(v.result, &v.stats, &side_work))
    } else {
        None
    };
    let detail = match &result {
        Some(r) if r.ran() => format!(
            "{} recipes, F1 {:.4} on this PR, semantic share {:.2}{}",
            reusable.option.steps.len(),
            r.f1,
            r.semantic_share,
            if same { " (the recommended recipe as it is)" } else { "" }
        ),
        Some(r) => format!(
            "{} recipes; its run failed: {}",
            reusable.option.steps.len(),
            r.error.as_ref().map(|e| e.detail.clone()).unwrap_or_default()
        ),
        None => {
            format!("{} recipes; not run here (needs the embedded runner)", reusable.option.steps.len())
        }
    };
    let made = ReusableRecipe {
        recipe_name: reusable.option.recipe_name(),
        recipes: reusable.option.steps.len(),
        generalized: reusable.changes,
        result,
    };
    Ok(Step::made(Report { problems, ..Report::new(Outcome::Ok, detail, outputs) }, made))
}
