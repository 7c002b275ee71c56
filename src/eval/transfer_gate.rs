//! The transfer score in the regression gate: the average F1 of the reusable recipes on the other
//! case of their pair, over the pairs that ran (or had no recipe, counting 0) in both the baseline
//! and the results, gated like the cases' F1. Pairs skipped or failed on either side say nothing
//! about the recipes and are left out, as are pairs in one side only.

use std::collections::BTreeMap;

use crate::metrics::round4;
use crate::model::{Comparison, TransferComparison, TransferResult};

/// Adds the transfer comparison to `comparison`, failing the gate when the average F1 dropped by
/// more than `max_drop`. Nothing is added when the two have no pair in common.
pub(crate) fn apply(
    comparison: &mut Comparison,
    current: &[TransferResult],
    baseline: &[TransferResult],
    max_drop: f64,
) {
    let Some(transfer) = compare(current, baseline, max_drop) else { return };
    if transfer.f1_drop > max_drop {
        comparison.reasons.push(format!(
            "the average transfer F1 of the {} pairs in both dropped by {:.4} ({:.4} -> {:.4}), more than the tolerance {max_drop:.4}",
            transfer.common_pairs, transfer.f1_drop, transfer.baseline_avg_f1, transfer.avg_f1
        ));
        comparison.regressed = true;
    }
    comparison.transfer = Some(transfer);
}

/// A pair's F1 and recall.
#[derive(Debug, Clone, Copy)]
struct Score {
    f1: f64,
    recall: f64,
}

fn compare(
    current: &[TransferResult],
    baseline: &[TransferResult],
    max_drop: f64,
) -> Option<TransferComparison> {
    let scored = |pairs: &[TransferResult]| -> BTreeMap<(String, String), Score> {
        pairs
            .iter()
            .filter(|p| p.counts_for_recall())
            .map(|p| ((p.from.clone(), p.to.clone()), Score { f1: p.f1, recall: p.recall }))
            .collect()
    };
    let now = scored(current);
    let before = scored(baseline);
    // (baseline, now) of each pair in both.
    let common: Vec<[Score; 2]> = before.iter().filter_map(|(pair, b)| Some([*b, *now.get(pair)?])).collect();
    if common.is_empty() {
        return None;
    }
    let average = |side: usize, value: fn(Score) -> f64| {
        round4(common.iter().map(|both| value(both[side])).sum::<f64>() / common.len() as f64)
    };
    let (baseline_avg_f1, avg_f1) = (average(0, |s| s.f1), average(1, |s| s.f1));
    Some(TransferComparison {
        common_pairs: common.len(),
        max_f1_drop: max_drop,
        baseline_avg_f1,
        avg_f1,
        f1_drop: round4(baseline_avg_f1 - avg_f1),
        baseline_avg_recall: average(0, |s| s.recall),
        avg_recall: average(1, |s| s.recall),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TransferStatus;

    fn pair(from: &str, to: &str, status: TransferStatus, f1: f64) -> TransferResult {
        TransferResult {
            from: from.into(),
            to: to.into(),
            status,
            reason: None,
            recipes: 1,
            true_positives: 1,
            false_positives: 0,
            false_negatives: 0,
            precision: f1,
            recall: f1,
            f1,
            wall_seconds: 1.0,
            migration_precision: None,
            relative_recall: None,
            residual: None,
            unresolved_added: None,
            rollout: false,
        }
    }

    fn comparison() -> Comparison {
        crate::eval::gate::compare(&[], &[], crate::eval::gate::Tolerances::default())
    }

    use TransferStatus::{NoRecipe, Ran, Skipped};

    #[test]
    fn a_drop_beyond_the_tolerance_fails_the_gate_like_f1() {
        let baseline = [pair("a", "b", Ran, 0.8), pair("b", "a", Ran, 0.6)];
        let current = [pair("a", "b", Ran, 0.7), pair("b", "a", NoRecipe, 0.0)];
        let mut c = comparison();
        apply(&mut c, &current, &baseline, 0.02);
        let t = c.transfer.clone().unwrap();
        assert_eq!((t.common_pairs, t.baseline_avg_f1, t.avg_f1, t.f1_drop), (2, 0.7, 0.35, 0.35));
        assert!(c.regressed);
        assert_eq!(
            c.reasons,
            [
                "the average transfer F1 of the 2 pairs in both dropped by 0.3500 (0.7000 -> 0.3500), more than the tolerance 0.0200"
            ]
        );
        let mut loose = comparison();
        apply(&mut loose, &current, &baseline, 0.5);
        assert!(!loose.regressed && loose.transfer.is_some());
    }

    #[test]
    fn a_drop_at_the_tolerance_passes_and_skipped_or_lone_pairs_are_left_out() {
        let baseline = [pair("a", "b", Ran, 0.8), pair("c", "d", Ran, 1.0), pair("x", "y", Ran, 1.0)];
        let current = [pair("a", "b", Ran, 0.78), pair("c", "d", Skipped, 0.0), pair("new", "one", Ran, 0.0)];
        let mut c = comparison();
        apply(&mut c, &current, &baseline, 0.02);
        let t = c.transfer.unwrap();
        assert_eq!((t.common_pairs, t.f1_drop), (1, 0.02));
        assert!(!c.regressed, "{:?}", c.reasons);
        let mut none = comparison();
        apply(&mut none, &current, &[], 0.02);
        assert_eq!(none.transfer, None, "no pair in common: nothing to say");
    }
}
