//! `--backend auto`: the recommended option, found with the embedded runner, runs once more with
//! the project's build tool (what users will run). Both results are reported; a build that does
//! not resolve makes the confirmation impossible, not the recommendation wrong.

use anyhow::{Context as _, Result};

use super::artifacts::option_prefix;
use super::budget::Budget;
use super::context::Context;
use super::products::{Checkout, Report, Step, Validations};
use super::state::PhaseEnd;
use crate::model::{Confirmation, Recommendation};

pub(super) fn confirm(
    ctx: &Context,
    budget: &Budget,
    checkout: Option<&Checkout>,
    recommendation: Option<&Recommendation>,
    validated: &Validations,
) -> Result<Step<Confirmation>> {
    let Some(recommendation) = recommendation else {
        return Ok(Report::bare(PhaseEnd::Skipped, "no recommendation").into());
    };
    if !ctx.req.backend.confirms() {
        return Ok(Report::bare(PhaseEnd::Skipped, format!("backend {}", ctx.req.backend.label())).into());
    }
    let chosen = validated.get(&recommendation.option).context("recommended option without results")?;
    if chosen.result.backend != Some(crate::model::Backend::Embedded) {
        return Ok(Report::bare(PhaseEnd::Skipped, "validated with the plugin already").into());
    }
    if chosen.option.steps.iter().any(|s| s.learned) {
        // The plugin finds a learned recipe only in a local repository it was installed in
        // (learned/README.md says how); the run's own repository is not the user's.
        return Ok(Report::bare(
            PhaseEnd::Skipped,
            "its learned recipe jar is not installed for the build tool",
        )
        .into());
    }
    let Some(left) = budget.time_left() else {
        return Ok(Report::bare(PhaseEnd::OutOfBudget, "no time left to confirm").into());
    };
    let Some(checkout) = checkout else {
        return Ok(Report::bare(PhaseEnd::Skipped, "no repository").into());
    };
    ctx.progress.message(&format!("confirming option {} with the plugin", recommendation.option));
    let lookup = |name: &str| ctx.catalog.artifact_for(name);
    let yaml = chosen.option.to_yaml();
    let prefix = option_prefix(chosen.option.number);
    let recipe_name = chosen.option.recipe_name();
    let recipe = crate::validation::Recipe {
        yaml: &yaml,
        name: Some(&recipe_name),
        artifacts_for: &lookup,
        option_check: None,
    };
    let expected =
        crate::validation::Expected { diff: &checkout.pr, pr: Some(&checkout.pr_view), measure: None };
    let output =
        crate::validation::Output { dir: ctx.dir.root(), prefix: &prefix, ledger: Some(ctx.dir.ledger()) };
    let limits = crate::validation::Limits {
        timeout: ctx.req.budgets.per_execution.min(left).max(std::time::Duration::from_secs(1)),
    };
    let explored = crate::validation::RunOutput { stats: chosen.stats.clone(), diff: chosen.diff.clone() };
    // The phase decided above that this run is confirmed (the recommended option, explored by the
    // embedded runner): the plugin runs it once more.
    let confirmation = ctx.validator(checkout)?.confirm(&recipe, &expected, &output, limits, &explored)?;
    let detail = crate::validation::report::confirmation_line(&confirmation).trim().to_string();
    let outputs = ["confirm-recipe.diff", "confirm-stats.json", "confirm-build.log"]
        .iter()
        .map(|f| format!("{prefix}{f}"))
        .filter(|f| ctx.dir.path(f).exists())
        .collect();
    // Impossible (the build does not resolve) or different, the embedded result stands and
    // the report says so: not a failure of the run.
    Ok(Step::made(Report::new(PhaseEnd::Ok, detail, outputs), confirmation))
}
