//! The verdict in three levels, from the recommended recipe's line F1, the PR's kind and the
//! reusable recipe's own run on the PR together:
//!
//! - *ready to roll out*: a migration whose reusable recipe (semantic steps only) ran on the PR
//!   and reproduces its migration with F1 at least [`READY_F1`], mostly with semantic recipes. The
//!   F1 is the migration F1 when known ([`crate::metrics::MigrationScore`]: layout, variants and
//!   completions are not errors, and the PR's side work, a README or the project's own version, is
//!   not the migration's to make), else the line F1;
//! - *reproduces this PR only*: a recipe reproduces the PR, but there is no reusable one, it does
//!   not hold up on the PR, or the PR is ordinary work (its recipe replays this repository's own
//!   names and values);
//! - *no reliable recipe*: nothing reproduces the PR with F1 0.5 or more, or nothing ran.

use crate::model::{Confidence, PrKind, Recommendation, ReusableRecipe, Verdict};

/// The reusable recipe's F1 on its own PR for a rollout: the threshold of the confidence
/// "recommended", since the rollout PRs are what users will review.
pub const READY_F1: f64 = 0.8;

/// The share of the reusable recipe's reproduced lines that semantic recipes must make.
pub const READY_SEMANTIC_SHARE: f64 = 0.5;

pub(crate) fn verdict(
    kind: PrKind,
    recommended: Option<&Recommendation>,
    reusable: Option<&ReusableRecipe>,
) -> Verdict {
    let Some(recommended) = recommended else { return Verdict::NoReliableRecipe };
    if recommended.confidence == Confidence::NoReliableRecipe {
        return Verdict::NoReliableRecipe;
    }
    let holds = reusable.and_then(|r| r.result.as_ref()).is_some_and(|run| {
        run.ran()
            && run.migration_f1.unwrap_or(run.f1) >= READY_F1
            && run.semantic_share >= READY_SEMANTIC_SHARE
    });
    if kind == PrKind::Migration && holds { Verdict::ReadyToRollOut } else { Verdict::ReproducesThisPrOnly }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{OptionId, OptionResult, Strategy};

    fn recommended(f1: f64) -> Recommendation {
        Recommendation {
            option: OptionId::Narrow,
            precision: f1,
            recall: f1,
            f1,
            perfect_match: f1 == 1.0,
            semantic_share: 0.2,
            catalog_share: 0.2,
            learned_share: 0.0,
            confidence: Confidence::of(f1),
            migration_precision: None,
            why: None,
            migration_semantic_share: None,
        }
    }

    fn reusable(f1: f64, semantic_share: f64) -> ReusableRecipe {
        ReusableRecipe {
            recipe_name: "r".into(),
            recipes: 1,
            generalized: vec![],
            result: Some(OptionResult {
                option: OptionId::Reusable,
                strategy: Strategy::Reusable,
                recipe_name: "r".into(),
                recipes: 1,
                precision: f1,
                recall: f1,
                f1,
                perfect_match: false,
                semantic_share,
                catalog_share: semantic_share,
                learned_share: 0.0,
                wall_seconds: 1.0,
                attempts: 1,
                dropped: vec![],
                tests_dropped: false,
                error: None,
                backend: None,
                migration_precision: None,
                false_positive_classes: None,
                migration_recall: None,
                migration_f1: None,
                residual: None,
                unresolved: None,
            }),
        }
    }

    #[test]
    fn three_levels() {
        use PrKind::{Migration, Ordinary};
        use Verdict::*;
        let good = reusable(0.9, 1.0);
        assert_eq!(verdict(Migration, Some(&recommended(1.0)), Some(&good)), ReadyToRollOut);
        assert_eq!(verdict(Migration, Some(&recommended(0.6)), Some(&reusable(0.8, 0.5))), ReadyToRollOut);
        // Mostly text, no reusable recipe, or one that does not hold up on its own PR.
        assert_eq!(
            verdict(Migration, Some(&recommended(1.0)), Some(&reusable(0.9, 0.4))),
            ReproducesThisPrOnly
        );
        assert_eq!(verdict(Migration, Some(&recommended(1.0)), None), ReproducesThisPrOnly);
        assert_eq!(
            verdict(Migration, Some(&recommended(1.0)), Some(&reusable(0.79, 1.0))),
            ReproducesThisPrOnly
        );
        let mut failed = good.clone();
        failed.result.as_mut().unwrap().error =
            Some(crate::model::RunError::new(crate::model::ErrorKind::Timeout, "slow"));
        assert_eq!(verdict(Migration, Some(&recommended(1.0)), Some(&failed)), ReproducesThisPrOnly);
        // The migration F1 decides when known: side work and layout do not hold a rollout back,
        // a migration the recipe misses does.
        let mut side_work_left = reusable(0.6, 1.0);
        side_work_left.result.as_mut().unwrap().migration_f1 = Some(0.95);
        assert_eq!(verdict(Migration, Some(&recommended(1.0)), Some(&side_work_left)), ReadyToRollOut);
        let mut migration_missed = reusable(0.9, 1.0);
        migration_missed.result.as_mut().unwrap().migration_f1 = Some(0.7);
        assert_eq!(
            verdict(Migration, Some(&recommended(1.0)), Some(&migration_missed)),
            ReproducesThisPrOnly
        );
        // Ordinary work is never rolled out, however well its recipe replays it.
        assert_eq!(verdict(Ordinary, Some(&recommended(1.0)), Some(&good)), ReproducesThisPrOnly);
        assert_eq!(verdict(Migration, Some(&recommended(0.49)), Some(&good)), NoReliableRecipe);
        assert_eq!(verdict(Migration, None, Some(&good)), NoReliableRecipe);
    }
}
