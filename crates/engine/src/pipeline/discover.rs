//! The discovery phase: runs the candidate pool on the embedded runner's session (the one option
//! validation parsed) and keeps the evidence for refinement.

use std::time::Duration;

use anyhow::Result;

use super::budget::Budget;
use super::context::Context;
use super::products::{Checkout, Report, Step};
use super::state::PhaseEnd;
use crate::discovery::{self, DISCOVERY_JSON, DISCOVERY_MD, Discovery};
use crate::model::intent::IntentTree;

/// Share of the run's wall time left that discovery may use.
const SHARE_OF_TIME_LEFT: u32 = 3;

pub(super) fn discover(
    ctx: &Context,
    budget: &Budget,
    checkout: &Checkout,
    tree: &IntentTree,
) -> Result<Step<Discovery>> {
    let Some(session) = ctx.session(checkout)? else {
        return Ok(Report::bare(PhaseEnd::Skipped, "needs the embedded runner (backend plugin)").into());
    };
    let Some(left) = budget.time_left() else {
        return Ok(Report::bare(PhaseEnd::OutOfBudget, super::budget::WALL_SPENT).into());
    };
    let changed: Vec<String> = checkout.pr_all.files.iter().map(|f| f.path().to_string()).collect();
    let pool = discovery::pool::build(tree, &changed, ctx.catalog, discovery::MAX_POOL);
    if pool.is_empty() {
        return Ok(Report::bare(PhaseEnd::Skipped, "no catalog recipe to try").into());
    }
    ctx.progress.message(&format!("discovery: running {} catalog recipes one by one", pool.len()));
    // The old packages from the runner's parse of the base and head versions, when it has them.
    let types = match session.parsed(left) {
        Ok(Ok(parsed)) => parsed.types,
        _ => None,
    };
    let view = checkout.pr_view.refined(types.as_ref().map(|t| (&t.base, &t.head)));
    let side_work =
        |found: &discovery::Discovery| crate::reuse::scope::side_work_lines(tree, Some((found, ctx.catalog)));
    let inputs = discovery::run::Inputs {
        session,
        catalog: ctx.catalog,
        pr: &checkout.pr,
        view: Some(&*view),
        dir: ctx.dir.root(),
        budget: (left / SHARE_OF_TIME_LEFT)
            .min(ctx.req.budgets.per_execution)
            .min(Duration::from_secs(discovery::DEFAULT_SECONDS))
            .max(Duration::from_secs(1)),
        side_work: Some(&side_work),
    };
    let mut found = discovery::run::run(&inputs, &pool)?;
    found.chosen = discovery::cover::choose(&found.tried);
    ctx.dir.write_json(DISCOVERY_JSON, &found)?;
    ctx.dir.write(DISCOVERY_MD, discovery::render_markdown(&found))?;
    let detail = format!(
        "pool {}, {} recipe runs in {:.1} s{}, {} chosen ({} PR lines){}",
        found.pool,
        found.runs,
        found.seconds,
        if found.not_run > 0 { format!(" ({} not run: time)", found.not_run) } else { String::new() },
        found.chosen.len(),
        found.chosen.iter().map(|c| c.fresh).sum::<usize>(),
        found.stopped.as_ref().map(|s| format!("; ended early: {s}")).unwrap_or_default()
    );
    let outcome = if found.runs == 0 { PhaseEnd::Failed } else { PhaseEnd::Ok };
    let mut outputs = vec![discovery::POOL_YAML.to_string(), DISCOVERY_JSON.into(), DISCOVERY_MD.into()];
    if ctx.dir.root().join(discovery::follow_up::FOLLOW_UPS_YAML).exists() {
        outputs.push(discovery::follow_up::FOLLOW_UPS_YAML.into());
    }
    Ok(Step::made(Report::new(outcome, detail, outputs), found))
}
