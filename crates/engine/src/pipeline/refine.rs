//! Phase 5, refinement: one round synthesizes option 3 from what validation and discovery showed.

use anyhow::Result;

use super::artifacts::option_file_name;
use super::budget::Budget;
use super::compose::{base_reader, write_option};
use super::context::Context;
use super::products::{Checkout, Report, Step, Validated, Validations};
use super::state::PhaseEnd;
use super::validate::round_dir;
use crate::discovery::Discovery;
use crate::model::intent::IntentTree;
use crate::model::{CandidateOption, OptionId, plural};
use crate::refinement::{self, Evaluated};

/// What one refinement round reads.
pub(super) struct RefineInputs<'r> {
    pub checkout: &'r Checkout,
    pub tree: &'r IntentTree,
    pub validated: &'r Validations,
    pub discovery: Option<&'r Discovery>,
}

/// One round; when it makes no option 3 and none was validated yet, option 3's creation analysis
/// says why, so the layout stays whole.
pub(super) fn refine(
    ctx: &Context,
    budget: &mut Budget,
    inputs: &RefineInputs,
) -> Result<Step<CandidateOption>> {
    let mut step = refine_round(ctx, budget, inputs)?;
    let report = &mut step.report;
    if report.outcome != PhaseEnd::Ok && !inputs.validated.contains_key(&OptionId::Synthesized) {
        let name = option_file_name(OptionId::Synthesized, "creation-analysis.md");
        let text = format!(
            "# Option 3: synthesized recipe\n\nNot synthesized: {}.\n\nOption 3 is built from what \
             validating options 1 and 2 showed; see their validation analyses.\n",
            report.detail
        );
        ctx.dir.write(&name, text)?;
        report.outputs.push(name);
    }
    Ok(step)
}

fn refine_round(ctx: &Context, budget: &mut Budget, inputs: &RefineInputs) -> Result<Step<CandidateOption>> {
    if let Some(perfect) = inputs.validated.values().find(|v| v.result.perfect_match)
        && !discovery_may_improve(inputs, perfect)
    {
        let detail = format!("option {} already reproduces the PR exactly", perfect.option.number);
        return Ok(Report::bare(PhaseEnd::Skipped, detail).into());
    }
    if budget.rounds >= ctx.req.budgets.max_rounds {
        // The planned number of rounds is the normal end of refinement, not a shortfall.
        let detail = format!("{} refinement rounds done (--max-rounds)", budget.rounds);
        return Ok(Report::bare(PhaseEnd::Skipped, detail).into());
    }
    if budget.time_left().is_none() {
        return Ok(Report::bare(PhaseEnd::OutOfBudget, super::budget::WALL_SPENT).into());
    }
    let option = synthesize(ctx, budget.rounds, inputs)?;
    budget.rounds += 1;
    if option.steps.is_empty() {
        return Ok(Report::bare(PhaseEnd::Skipped, "nothing to synthesize").into());
    }
    if budget.tried.contains(&option.signature()) {
        let detail = format!("round {}: the synthesized recipe set was already validated", budget.rounds);
        return Ok(Report::bare(PhaseEnd::Stuck, detail).into());
    }
    let outputs = write_option(&round_dir(ctx, budget.rounds)?, &option)?;
    let count = option.steps.len();
    let detail = format!("round {}: {count} recipe{}", budget.rounds, plural(count));
    Ok(Step::made(Report::new(PhaseEnd::Ok, detail, outputs), option))
}

/// Round `round`'s option 3: the migration as the recipes write it first; then, touched up to this
/// PR's text.
fn synthesize(ctx: &Context, round: usize, inputs: &RefineInputs) -> Result<CandidateOption> {
    let repo = inputs.checkout.repo()?;
    let read = base_reader(&repo, &inputs.checkout.commits.base);
    let evaluated: Vec<Evaluated<'_>> =
        inputs.validated.values().map(|v| Evaluated { option: &v.option, stats: &v.stats }).collect();
    let discovered = inputs.discovery.map(|d| d.evidence(inputs.tree)).unwrap_or_default();
    let form = if round == 0 { refinement::Form::Migration } else { refinement::Form::Faithful };
    let pr_all = &inputs.checkout.pr_all;
    Ok(refinement::synthesize(inputs.tree, pr_all, ctx.catalog, &read, &evaluated, &discovered, form))
}

/// Whether discovery's recipes may make a better recipe than a perfect option 1 or 2: one that
/// is more semantic, or as semantic with fewer recipes (one composite for several narrow steps).
fn discovery_may_improve(inputs: &RefineInputs, perfect: &Validated) -> bool {
    let chosen = inputs.discovery.map_or(0, |d| d.chosen.len());
    perfect.option.number != OptionId::Synthesized
        && !inputs.validated.contains_key(&OptionId::Synthesized)
        && chosen > 0
        && (perfect.result.semantic_share < 1.0 || chosen < perfect.result.recipes)
}
