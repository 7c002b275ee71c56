//! Phase 3, mapping: options 1 (wide) and 2 (narrow) composed from the intent tree.

use anyhow::Result;

use super::artifacts::{RunDir, option_file_name};
use super::context::Context;
use super::products::{Checkout, Report, Step};
use super::state::PhaseEnd;
use crate::model::intent::IntentTree;
use crate::model::{CandidateOption, plural};

/// Option 1: broad catalog recipes for the strategic and tactical intents.
pub(super) fn compose_wide(ctx: &Context, tree: &IntentTree) -> Result<Step<CandidateOption>> {
    composed(ctx, crate::mapping::compose_wide(tree, ctx.catalog))
}

/// Option 2: one targeted recipe per atomic intent.
pub(super) fn compose_narrow(
    ctx: &Context,
    checkout: &Checkout,
    tree: &IntentTree,
) -> Result<Step<CandidateOption>> {
    let option = {
        let repo = checkout.repo()?;
        let read = base_reader(&repo, &checkout.commits.base);
        crate::mapping::compose_narrow(tree, &checkout.pr_all, ctx.catalog, &read)
    };
    composed(ctx, option)
}

/// The option written; skipped when it has no recipe (it is kept: its creation analysis says why).
fn composed(ctx: &Context, option: CandidateOption) -> Result<Step<CandidateOption>> {
    let outputs = write_option(&ctx.dir, &option)?;
    let count = option.steps.len();
    let detail = format!("{count} recipe{} ({} semantic)", plural(count), option.semantic_steps());
    let outcome = if option.steps.is_empty() { PhaseEnd::Skipped } else { PhaseEnd::Ok };
    Ok(Step::made(Report::new(outcome, detail, outputs), option))
}

/// Reads a file's text at the base commit (None: absent there), for text replacements.
pub(super) fn base_reader<'a>(
    repo: &'a crate::setup::Repo,
    base: &'a str,
) -> impl Fn(&str) -> Option<String> + 'a {
    move |path| repo.read_file(base, path).ok().flatten().map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// Writes `option-N-recipe.yaml` and `option-N-creation-analysis.md`.
pub(super) fn write_option(dir: &RunDir, option: &CandidateOption) -> Result<Vec<String>> {
    let yaml = option_file_name(option.number, "recipe.yaml");
    let analysis = option_file_name(option.number, "creation-analysis.md");
    if !option.steps.is_empty() {
        dir.write(&yaml, option.to_yaml())?;
    }
    dir.write(&analysis, crate::mapping::creation_analysis(option))?;
    Ok([yaml, analysis].into_iter().filter(|f| dir.path(f).exists()).collect())
}
