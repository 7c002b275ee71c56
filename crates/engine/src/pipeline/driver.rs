//! The driver: runs the phase the transition table ([`super::state`]) names, gives it the products
//! its signature asks for, keeps its product, and writes its line of `audit.jsonl`.

use std::time::Instant;

use anyhow::{Context as _, Result};

use super::budget::Budget;
use super::context::Context;
use super::generalize::GeneralizeInputs;
use super::products::{Checkout, Products, Report, Step, Validated};
use super::refine::RefineInputs;
use super::state::{self, Phase, PhaseEnd};
use super::{artifacts, compose, confirm, decide, discover, generalize, refine, setup, validate};
use crate::model::intent::IntentTree;
use crate::model::{AuditEntry, CandidateOption, OptionId};

/// A phase as it ran, for `workflow-metadata.json`.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub struct PhaseRecord {
    pub phase: &'static str,
    pub outcome: &'static str,
    pub seconds: f64,
    pub detail: String,
}

/// What the run keeps besides the products: the phases as they ran, why the run is not a full
/// success, and the input error that stopped it (returned after the artifacts are written).
#[derive(Default)]
pub(crate) struct Journal {
    pub phases: Vec<PhaseRecord>,
    pub problems: Vec<String>,
    pub fatal: Option<anyhow::Error>,
}

/// Runs the phases from setup to a terminal phase.
pub(super) fn run(ctx: &Context, budget: &mut Budget, products: &mut Products) -> Result<Journal> {
    let mut journal = Journal::default();
    let mut phase = Phase::Setup;
    while !phase.is_terminal() {
        if crate::process::interrupted() {
            journal.fatal = Some(anyhow::anyhow!("interrupted"));
            break;
        }
        ctx.progress.phase(phase);
        let started = Instant::now();
        let report = match past_the_wall(budget, phase) {
            Some(report) => report,
            None => match step(ctx, budget, products, phase) {
                Ok(report) => report,
                Err(error) => {
                    let detail = crate::error::one_line(&error);
                    if crate::process::interrupted()
                        || error.chain().any(|c| c.is::<crate::error::BadInput>())
                    {
                        journal.fatal = Some(error);
                    }
                    Report::bare(PhaseEnd::Failed, detail)
                }
            },
        };
        let seconds = started.elapsed().as_secs_f64();
        let Report { outcome, detail, outputs, problems } = report;
        journal.problems.extend(problems);
        if outcome == PhaseEnd::Failed || outcome == PhaseEnd::OutOfBudget {
            journal.problems.push(format!("{}: {detail}", phase.name()));
        }
        tracing::info!("phase {} {} in {seconds:.1} s {detail}", phase.name(), outcome.name());
        ctx.dir.audit(&AuditEntry {
            at: artifacts::now(),
            phase: phase.name().to_string(),
            outcome: outcome.name().to_string(),
            seconds,
            inputs: inputs_of(ctx, phase),
            outputs,
            detail: detail.clone(),
        })?;
        journal.phases.push(PhaseRecord { phase: phase.name(), outcome: outcome.name(), seconds, detail });
        phase = if journal.fatal.is_some() { Phase::Failed } else { state::next(phase, outcome) };
    }
    Ok(journal)
}

/// The wall limit, checked before every phase: past `--max-wall`, a phase does not start and is
/// `out_of_budget`, and the transition table goes on to the decision. The decision and publish
/// still run: they write the result of what the run found, and read no line of the PR.
fn past_the_wall(budget: &Budget, phase: Phase) -> Option<Report> {
    let wrap_up = matches!(phase, Phase::Decide | Phase::Publish | Phase::Done | Phase::Failed);
    (!wrap_up && budget.wall_spent()).then(|| Report::bare(PhaseEnd::OutOfBudget, super::budget::WALL_SPENT))
}

/// Runs one phase on the products it reads and keeps what it makes.
fn step(ctx: &Context, budget: &mut Budget, p: &mut Products, phase: Phase) -> Result<Report> {
    Ok(match phase {
        Phase::Setup => {
            let (repo, commits) = setup::resolve(ctx)?;
            p.commits = Some(commits.clone());
            keep(setup::checkout(ctx, repo, commits)?, &mut p.checkout)
        }
        Phase::Intents => keep(setup::intents(ctx, checkout(p)?)?, &mut p.tree),
        Phase::ComposeWide => keep(compose::compose_wide(ctx, tree(p)?)?, &mut p.wide),
        Phase::ComposeNarrow => {
            let tree = tree(p)?;
            keep(compose::compose_narrow(ctx, checkout(p)?, tree)?, &mut p.narrow)
        }
        Phase::ValidateCandidates => {
            let candidates: Vec<&CandidateOption> = [&p.wide, &p.narrow].into_iter().flatten().collect();
            let measure = p.tree.as_ref().map(measure_of);
            let step =
                validate::validate_candidates(ctx, budget, checkout(p)?, &candidates, measure.as_ref())?;
            p.validated.extend(step.product.into_iter().flatten().map(|v| (v.option.number, v)));
            step.report
        }
        Phase::Discover => keep(discover::discover(ctx, budget, checkout(p)?, tree(p)?)?, &mut p.discovery),
        Phase::Refine => {
            let inputs = RefineInputs {
                checkout: checkout(p)?,
                tree: tree(p)?,
                validated: &p.validated,
                discovery: p.discovery.as_ref(),
            };
            keep(refine::refine(ctx, budget, &inputs)?, &mut p.refined)
        }
        Phase::ValidateRefined => {
            let refined = p.refined.as_ref().context("no synthesized option")?;
            let current = p.validated.get(&OptionId::Synthesized);
            let measure = p.tree.as_ref().map(measure_of);
            let step =
                validate::validate_refined(ctx, budget, checkout(p)?, refined, current, measure.as_ref())?;
            p.validated.extend(step.product.map(|v| (OptionId::Synthesized, v)));
            step.report
        }
        Phase::Learn => {
            // The option the decision would pick now (option 2 that reproduced the PR with text
            // where option 3's catalog recipes wrote more than the PR did), then option 3 (whose
            // text, once learned, may make it the pick): learning starts from the first of them
            // with something to learn.
            let results: Vec<_> = p.validated.values().map(|v| v.result.clone()).collect();
            let best = crate::decision::choose(&results).map(|r| r.option);
            let mut candidates: Vec<&Validated> =
                best.and_then(|o| p.validated.get(&o)).into_iter().collect();
            if best != Some(OptionId::Synthesized) {
                candidates.extend(p.validated.get(&OptionId::Synthesized));
            }
            let measure = p.tree.as_ref().map(measure_of);
            let step = super::learn::learn(
                ctx,
                budget,
                (checkout(p)?, p.tree.as_ref()),
                &candidates,
                measure.as_ref(),
            )?;
            p.validated.extend(step.product.map(|v| (OptionId::Synthesized, v)));
            step.report
        }
        Phase::Decide => {
            let evidence = p.discovery.as_ref().map(|d| (d, ctx.catalog));
            keep(decide::decide(&p.validated, p.tree.as_ref(), evidence)?, &mut p.recommendation)
        }
        Phase::Generalize => {
            let inputs = GeneralizeInputs {
                checkout: checkout(p)?,
                tree: p.tree.as_ref(),
                discovery: p.discovery.as_ref(),
                validated: &p.validated,
                recommendation: p.recommendation.as_ref(),
            };
            keep(generalize::generalize(ctx, budget, &inputs)?, &mut p.reusable)
        }
        Phase::Confirm => {
            let recommendation = p.recommendation.as_ref();
            let step = confirm::confirm(ctx, budget, p.checkout.as_ref(), recommendation, &p.validated)?;
            keep(step, &mut p.confirmation)
        }
        Phase::Publish => decide::publish(ctx, p.recommendation.as_ref(), &p.validated)?,
        Phase::Done | Phase::Failed => Report::bare(PhaseEnd::Ok, ""),
    })
}

/// Keeps a phase's product (when it made one); its report goes to the audit log.
fn keep<T>(step: Step<T>, into: &mut Option<T>) -> Report {
    if let Some(product) = step.product {
        *into = Some(product);
    }
    step.report
}

fn checkout(p: &Products) -> Result<&Checkout> {
    p.checkout.as_ref().context("no repository")
}

fn tree(p: &Products) -> Result<&IntentTree> {
    p.tree.as_ref().context("no intent tree")
}

/// What each validation of an option measures besides its diff: the uses of the tree's old library
/// left ([`crate::intents::old_library`]) and the compile check.
fn measure_of(tree: &crate::model::IntentTree) -> crate::model::residual::Measure {
    crate::model::residual::Measure::of(&crate::intents::old_library::of(tree))
}

/// The files a phase reads, for the audit log.
fn inputs_of(ctx: &Context, phase: Phase) -> Vec<String> {
    let names: &[&str] = match phase {
        Phase::Setup => {
            let req = ctx.req;
            return vec![format!("{} {}..{}", req.repo.display(), req.base, req.head)];
        }
        Phase::Intents => &[artifacts::PR_DIFF],
        Phase::ComposeWide | Phase::ComposeNarrow => &[artifacts::INTENT_TREE_JSON],
        Phase::ValidateCandidates => &["option-1-recipe.yaml", "option-2-recipe.yaml", artifacts::PR_DIFF],
        Phase::Discover => &[artifacts::INTENT_TREE_JSON, artifacts::PR_DIFF],
        Phase::Refine => &[
            crate::discovery::DISCOVERY_JSON,
            "option-1-stats.json",
            "option-2-stats.json",
            "option-3-stats.json",
            artifacts::INTENT_TREE_JSON,
        ],
        Phase::ValidateRefined => &["option-3-recipe.yaml", artifacts::PR_DIFF],
        Phase::Learn => &["option-3-recipe.yaml", artifacts::PR_DIFF],
        Phase::Decide => &["option-1-stats.json", "option-2-stats.json", "option-3-stats.json"],
        Phase::Generalize => &["option-1-recipe.yaml", "option-2-recipe.yaml", "option-3-recipe.yaml"],
        Phase::Confirm => &["result/recommended-recipe.yaml"],
        Phase::Publish | Phase::Done | Phase::Failed => &[],
    };
    names.iter().filter(|n| ctx.dir.path(n).exists()).map(|n| n.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::pipeline::Budgets;

    #[test]
    fn past_the_wall_no_phase_starts_but_the_decision_and_publish() {
        let limits = Budgets { max_wall: Duration::from_secs(10), ..Budgets::default() };
        let within = Budget::new(limits, Instant::now());
        assert!(past_the_wall(&within, Phase::Intents).is_none());
        let past = Budget::new(limits, Instant::now().checked_sub(Duration::from_secs(11)).unwrap());
        for phase in [Phase::Setup, Phase::Intents, Phase::ComposeNarrow, Phase::Discover, Phase::Confirm] {
            let report = past_the_wall(&past, phase).expect("stopped");
            assert_eq!(
                (report.outcome, report.detail.as_str()),
                (PhaseEnd::OutOfBudget, super::super::budget::WALL_SPENT)
            );
        }
        assert!(past_the_wall(&past, Phase::Decide).is_none());
        assert!(past_the_wall(&past, Phase::Publish).is_none());
    }
}
