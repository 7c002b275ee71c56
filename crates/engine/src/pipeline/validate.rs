//! Phase 4, validation: options 1 and 2 (`validate_candidates`), then each round's option 3
//! (`validate_refined`), through the [`OptionValidation`].

use crate::model::residual::Measure;
use anyhow::Result;

use super::artifacts::{self, RunDir, option_file_name};
use super::budget::Budget;
use super::context::Context;
use super::execute::OptionValidation;
use super::products::{Checkout, Report, Step, Validated};
use super::state::PhaseEnd;
use crate::model::{CandidateOption, OptionId};

/// Options 1 and 2, those with recipes; their validations, in option order.
pub(super) fn validate_candidates(
    ctx: &Context,
    budget: &mut Budget,
    checkout: &Checkout,
    candidates: &[&CandidateOption],
    measure: Option<&Measure>,
) -> Result<Step<Vec<Validated>>> {
    let options: Vec<CandidateOption> =
        candidates.iter().filter(|o| !o.steps.is_empty()).map(|o| (*o).clone()).collect();
    if options.is_empty() {
        return Ok(Report::bare(PhaseEnd::Failed, "no candidate recipe to validate").into());
    }
    let (validated, broken) =
        OptionValidation { ctx, budget, checkout, measure }.validate_all(options, None)?;
    let ran = validated.iter().filter(|v| v.result.ran()).count();
    let mut detail: Vec<String> = validated.iter().map(option_detail).collect();
    let outputs = validated.iter().flat_map(|v| option_outputs(v.option.number)).collect();
    budget.tried.extend(validated.iter().map(|v| v.option.signature()));
    let outcome = if ran > 0 {
        PhaseEnd::Ok
    } else if broken.is_empty() && !budget.can_run_again() {
        PhaseEnd::OutOfBudget
    } else {
        PhaseEnd::Failed
    };
    let mut problems = Vec::new();
    if !detail.is_empty() {
        problems.extend(broken.iter().map(|b| format!("validate_candidates: {b}")));
    } else if !broken.is_empty() {
        // Nothing ran because something failed first (the runner could not start, a clone):
        // that is the phase's story, not the budget.
        detail = broken;
    } else {
        detail.push(format!(
            "no option could run: the budget of {} recipe executions (--max-executions) or the wall time is spent",
            ctx.req.budgets.max_executions
        ));
    }
    let report = Report { problems, ..Report::new(outcome, detail.join("; "), outputs) };
    Ok(Step::made(report, validated))
}

/// This round's option 3; its validation when it beats the best round so far (`current`), by the
/// decision's own rules, and then its files become option 3's.
pub(super) fn validate_refined(
    ctx: &Context,
    budget: &mut Budget,
    checkout: &Checkout,
    refined: &CandidateOption,
    current: Option<&Validated>,
    measure: Option<&Measure>,
) -> Result<Step<Validated>> {
    let round_dir = round_dir(ctx, budget.rounds)?;
    let round = format!("round {}", budget.rounds);
    validate_challenger(ctx, budget, (checkout, measure), refined, current, (round_dir, round))
}

/// Validates `challenger` for option 3 in `dir` (named `name` in the detail); its validation when
/// it beats `current` by the decision's own rules, and then its files become option 3's.
pub(super) fn validate_challenger(
    ctx: &Context,
    budget: &mut Budget,
    (checkout, measure): (&Checkout, Option<&Measure>),
    refined: &CandidateOption,
    current: Option<&Validated>,
    (round_dir, name): (RunDir, String),
) -> Result<Step<Validated>> {
    budget.tried.push(refined.signature());
    let validator = OptionValidation { ctx, budget, checkout, measure };
    let (mut validated, broken) = validator.validate_all(vec![refined.clone()], Some(&round_dir))?;
    let Some(v) = validated.pop() else {
        // Either something failed before the run (the cause is the detail) or no execution
        // was left.
        return Ok(if broken.is_empty() {
            Report::bare(PhaseEnd::OutOfBudget, "no execution left")
        } else {
            Report::bare(PhaseEnd::Failed, broken.join("; "))
        }
        .into());
    };
    let problems = broken.iter().map(|b| format!("validate_refined: {b}")).collect();
    let detail = format!("{name}: {}", option_detail(&v));
    let outcome = if v.result.ran() { PhaseEnd::Ok } else { PhaseEnd::Failed };
    let better = match current {
        Some(current) => {
            v.result.ran() && (!current.result.ran() || crate::decision::better(&v.result, &current.result))
        }
        None => true,
    };
    if !better {
        return Ok(Report { problems, ..Report::bare(outcome, detail) }.into());
    }
    let mut outputs = Vec::new();
    for what in artifacts::OPTION_FILES {
        let name = option_file_name(OptionId::Synthesized, what);
        let from = round_dir.path(&name);
        if from.exists() {
            ctx.dir.copy_in(&from, &name)?;
            outputs.push(name);
        }
    }
    Ok(Step::made(Report { problems, ..Report::new(outcome, detail, outputs) }, v))
}

/// `refinement/round-N/` for refinement round `round`.
pub(super) fn round_dir(ctx: &Context, round: usize) -> Result<RunDir> {
    ctx.dir.sub(&format!("refinement/round-{round}"))
}

fn option_outputs(number: OptionId) -> Vec<String> {
    ["recipe.diff", "stats.json", "validation-analysis.md"]
        .iter()
        .map(|w| option_file_name(number, w))
        .collect()
}

fn option_detail(v: &Validated) -> String {
    match &v.result.error {
        None => format!("option {}: F1 {:.4}", v.option.number, v.result.f1),
        Some(e) => format!("option {}: {} ({})", v.option.number, e.kind, e.detail),
    }
}
