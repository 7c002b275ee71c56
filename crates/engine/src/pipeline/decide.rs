//! Phase 6, decision: the recommendation among the validated options; and publish, which writes the
//! recommended recipe into `result/`.

use anyhow::{Context as _, Result};

use super::artifacts;
use super::context::Context;
use super::products::{Report, Step, Validations};
use super::state::PhaseEnd;
use crate::model::Recommendation;
use crate::model::intent::IntentTree;

/// `evidence`: what discovery saw the catalog's migration make, for the migration's lines
/// ([`crate::reuse::scope::side_work_lines`]).
pub(super) fn decide(
    validated: &Validations,
    tree: Option<&IntentTree>,
    evidence: Option<(&crate::discovery::Discovery, &crate::catalog::Catalog)>,
) -> Result<Step<Recommendation>> {
    let results: Vec<_> = validated.values().map(|v| v.result.clone()).collect();
    let mut recommendation = crate::decision::choose(&results);
    if let (Some(recommendation), Some(tree)) = (recommendation.as_mut(), tree)
        && let Some(chosen) = validated.get(&recommendation.option)
    {
        let side_work = super::generalize::side_work_lines(tree, evidence);
        let changed = super::execute::changed_files(&chosen.option, &chosen.stats);
        let made = (changed.as_deref(), chosen.stats.step_lines.as_slice());
        let shares = crate::decision::shares_among(&chosen.option.steps, &chosen.stats.metrics, made, |l| {
            !side_work.contains(&(l.path.clone(), l.kind, l.content.clone()))
        });
        recommendation.migration_semantic_share = Some(shares.semantic);
    }
    Ok(match recommendation {
        Some(r) => {
            let detail = format!("option {} (F1 {:.4}, {})", r.option, r.f1, r.confidence.label());
            Step::made(Report::bare(PhaseEnd::Ok, detail), r)
        }
        None => Report::bare(PhaseEnd::Failed, "no option could be validated").into(),
    })
}

/// `result/recommended-recipe.yaml` and its diff.
pub(super) fn publish(
    ctx: &Context,
    recommendation: Option<&Recommendation>,
    validated: &Validations,
) -> Result<Report> {
    let Some(recommendation) = recommendation else {
        return Ok(Report::bare(PhaseEnd::Ok, "no recommendation: result/ holds the PR's diff only"));
    };
    let chosen = validated.get(&recommendation.option).context("recommended option without results")?;
    ctx.dir.write(artifacts::RECOMMENDED_RECIPE, chosen.option.to_yaml())?;
    ctx.dir.write(artifacts::RECOMMENDED_DIFF, &chosen.diff)?;
    Ok(Report::new(
        PhaseEnd::Ok,
        format!("option {}", recommendation.option),
        vec![artifacts::RECOMMENDED_RECIPE.into(), artifacts::RECOMMENDED_DIFF.into()],
    ))
}
