//! `--backend auto`: the recommended option, found with the embedded runner, runs once more with
//! the project's build tool (what users will run). Both results are reported; a build that does
//! not resolve makes the confirmation impossible, not the recommendation wrong.

use anyhow::{Context as _, Result};

use super::artifacts::option_prefix;
use super::budget::Budget;
use super::context::Context;
use super::products::{Checkout, Report, Step, Validations};
use super::state::Outcome;
use crate::model::{Confirmation, Recommendation};

pub(super) fn confirm(
    ctx: &Context,
    budget: &Budget,
    checkout: Option<&Checkout>,
    recommendation: Option<&Recommendation>,
    validated: &Validations,
) -> Result<Step<Confirmation>> {
    let Some(recommendation) = recommendation else {
        return Ok(Report::bare(Outcome::Skipped, "no recommendation").into());
    };
    if !ctx.req.backend.confirms() {
        return Ok(Report::bare(Outcome::Skipped, format!("backend {}", ctx.req.backend.label())).into());
    }
    let chosen = validated.get(&recommendation.option).context("recommended option without results")?;
    if chosen.result.backend != Some(crate::model::Backend::Embedded) {
        return Ok(Report::bare(Outcome::Skipped, "validated with the plugin already").into());
    }
    let Some(left) = budget.time_left() else {
        return Ok(Report::bare(Outcome::OutOfBudget, "no time left to confirm").into());
    };
    let Some(checkout) = checkout else {
        return Ok(Report::bare(Outcome::Skipped, "no repository").into());
    };
    ctx.progress.message(&format!("confirming option {} with the plugin", recommendation.option));
    let lookup = |name: &str| ctx.catalog.artifact_for(name);
    let yaml = chosen.option.to_yaml();
    let prefix = option_prefix(chosen.option.number);
    let recipe_name = chosen.option.recipe_name();
    let request = crate::validation::Request {
        repo: &checkout.repo_path,
        base: &checkout.commits.base,
        expected: &checkout.pr,
        recipe_yaml: &yaml,
        recipe_name: Some(&recipe_name),
        timeout: ctx.req.budgets.per_execution.min(left).max(std::time::Duration::from_secs(1)),
        versions: &ctx.req.versions,
        artifacts_for: &lookup,
        option_check: None,
        out_dir: ctx.dir.root(),
        file_prefix: &prefix,
        ledger: Some(ctx.dir.ledger()),
        session: None,
        trust: ctx.req.trust,
        project_dir: ctx.req.project_dir.as_ref(),
        measure: None,
        pr: Some(&checkout.pr_view),
    };
    let explored = crate::validation::Outcome { stats: chosen.stats.clone(), diff: chosen.diff.clone() };
    let confirmation = crate::validation::confirm(&request, &explored)?;
    let detail = crate::validation::report::confirmation_line(&confirmation).trim().to_string();
    let outputs = ["confirm-recipe.diff", "confirm-stats.json", "confirm-build.log"]
        .iter()
        .map(|f| format!("{prefix}{f}"))
        .filter(|f| ctx.dir.path(f).exists())
        .collect();
    // Impossible (the build does not resolve) or different, the embedded result stands and
    // the report says so: not a failure of the run.
    Ok(Step::made(Report::new(Outcome::Ok, detail, outputs), confirmation))
}
