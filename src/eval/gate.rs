//! The regression gate: results against a baseline.
//!
//! It fails when the average F1 or the average semantic share over the cases both have drops by
//! more than its tolerance, or when a case that passed in the baseline now fails or errors.
//! Averages are taken over the common cases only, so adding or removing cases never trips it; new
//! and removed cases are reported. A case skipped on either side (its repository could not be
//! had) is listed and left out: nothing about the tool can be learned from it.

use std::collections::BTreeMap;

use super::totals::average;
use crate::metrics::round4;
use crate::model::{CaseChange, CaseRow, CaseStatus, Comparison};

/// The default tolerance of `--max-f1-drop`.
pub(crate) const DEFAULT_MAX_F1_DROP: f64 = 0.02;
/// The default tolerance of `--max-semantic-drop`.
pub(crate) const DEFAULT_MAX_SEMANTIC_DROP: f64 = 0.02;
/// The default tolerance of `--max-transfer-drop`.
pub(crate) const DEFAULT_MAX_TRANSFER_DROP: f64 = 0.02;

/// How much worse the averages may get.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Tolerances {
    pub max_f1_drop: f64,
    pub max_semantic_drop: f64,
    /// How much the average transfer F1 may drop ([`super::transfer_gate`]).
    pub max_transfer_drop: f64,
}

impl Default for Tolerances {
    fn default() -> Self {
        Tolerances {
            max_f1_drop: DEFAULT_MAX_F1_DROP,
            max_semantic_drop: DEFAULT_MAX_SEMANTIC_DROP,
            max_transfer_drop: DEFAULT_MAX_TRANSFER_DROP,
        }
    }
}

/// A case's baseline row and its row now.
type Pair<'a> = (&'a CaseRow, &'a CaseRow);

pub(crate) fn compare(current: &[CaseRow], baseline: &[CaseRow], tolerances: Tolerances) -> Comparison {
    let Tolerances { max_f1_drop, max_semantic_drop, .. } = tolerances;
    let now: BTreeMap<&str, &CaseRow> = current.iter().map(|r| (r.name.as_str(), r)).collect();
    let before: BTreeMap<&str, &CaseRow> = baseline.iter().map(|r| (r.name.as_str(), r)).collect();
    let skipped_row = |r: &CaseRow| r.status == CaseStatus::Skipped;
    let (skipped_pairs, pairs): (Vec<Pair>, Vec<Pair>) = before
        .iter()
        .filter_map(|(name, b)| now.get(name).map(|n| (*b, *n)))
        .partition(|(b, n)| skipped_row(b) || skipped_row(n));
    let skipped = skipped_pairs.iter().map(|(_, n)| n.name.clone()).collect();
    let baseline_rows: Vec<CaseRow> = pairs.iter().map(|(b, _)| (*b).clone()).collect();
    let current_rows: Vec<CaseRow> = pairs.iter().map(|(_, n)| (*n).clone()).collect();
    let baseline_avg_f1 = average(&baseline_rows, |r| r.f1);
    let avg_f1 = average(&current_rows, |r| r.f1);
    let f1_drop = round4(baseline_avg_f1 - avg_f1);
    let baseline_avg_semantic_share = average(&baseline_rows, |r| r.semantic_share);
    let avg_semantic_share = average(&current_rows, |r| r.semantic_share);
    let semantic_drop = round4(baseline_avg_semantic_share - avg_semantic_share);

    let names = |keep: &dyn Fn(&CaseRow, &CaseRow) -> bool| -> Vec<String> {
        pairs.iter().filter(|(b, n)| keep(b, n)).map(|(_, n)| n.name.clone()).collect()
    };
    let passed = |r: &CaseRow| r.status == CaseStatus::Passed;
    let newly_failing = names(&|b, n| passed(b) && !passed(n));
    let newly_passing = names(&|b, n| !passed(b) && passed(n));
    let changes = pairs
        .iter()
        .filter(|(b, n)| {
            b.status != n.status
                || round4(b.f1 - n.f1) != 0.0
                || round4(b.semantic_share - n.semantic_share) != 0.0
        })
        .map(|(b, n)| CaseChange {
            name: n.name.clone(),
            baseline_status: b.status,
            status: n.status,
            baseline_f1: b.f1,
            f1: n.f1,
            baseline_semantic_share: b.semantic_share,
            semantic_share: n.semantic_share,
        })
        .collect();
    let new_cases = now.keys().filter(|name| !before.contains_key(*name)).map(|n| n.to_string()).collect();
    let removed_cases =
        before.keys().filter(|name| !now.contains_key(*name)).map(|n| n.to_string()).collect();

    let mut reasons = Vec::new();
    // Both sides are rounded to 4 places, so the comparison is exact at the tolerance itself.
    if f1_drop > max_f1_drop {
        reasons.push(format!(
            "the average F1 of the {} cases in both dropped by {f1_drop:.4} ({baseline_avg_f1:.4} -> {avg_f1:.4}), more than the tolerance {max_f1_drop:.4}",
            pairs.len()
        ));
    }
    if semantic_drop > max_semantic_drop {
        reasons.push(format!(
            "the average semantic share of the {} cases in both dropped by {semantic_drop:.4} ({baseline_avg_semantic_share:.4} -> {avg_semantic_share:.4}), more than the tolerance {max_semantic_drop:.4}",
            pairs.len()
        ));
    }
    if !newly_failing.is_empty() {
        reasons.push(format!("passed in the baseline, no longer passing: {}", newly_failing.join(", ")));
    }
    Comparison {
        max_f1_drop,
        common_cases: pairs.len(),
        baseline_avg_f1,
        avg_f1,
        f1_drop,
        max_semantic_drop,
        baseline_avg_semantic_share,
        avg_semantic_share,
        semantic_drop,
        newly_failing,
        newly_passing,
        changes,
        skipped,
        new_cases,
        removed_cases,
        transfer: None,
        regressed: !reasons.is_empty(),
        reasons,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, status: CaseStatus, f1: f64) -> CaseRow {
        crate::eval::totals::sample_row(name, status, f1, 1.0)
    }

    use CaseStatus::{Error, Failed, Passed, Skipped};

    fn compare(current: &[CaseRow], baseline: &[CaseRow], max_f1_drop: f64) -> Comparison {
        super::compare(current, baseline, Tolerances { max_f1_drop, ..Tolerances::default() })
    }

    fn with_semantic(mut row: CaseRow, share: f64) -> CaseRow {
        row.semantic_share = share;
        row
    }

    #[test]
    fn a_drop_within_the_tolerance_passes_even_at_the_limit() {
        let baseline = [row("a", Passed, 1.0), row("b", Passed, 0.9)];
        let current = [row("a", Passed, 0.98), row("b", Passed, 0.88)];
        let c = compare(&current, &baseline, 0.02);
        assert_eq!((c.baseline_avg_f1, c.avg_f1, c.f1_drop), (0.95, 0.93, 0.02));
        assert!(!c.regressed, "{c:#?}");
        assert_eq!(c.changes.len(), 2);
    }

    #[test]
    fn a_drop_beyond_the_tolerance_fails() {
        let baseline = [row("a", Passed, 1.0), row("b", Passed, 0.9)];
        let current = [row("a", Passed, 1.0), row("b", Passed, 0.85)];
        let c = compare(&current, &baseline, 0.02);
        assert_eq!(c.f1_drop, 0.025);
        assert!(c.regressed);
        assert_eq!(
            c.reasons,
            [
                "the average F1 of the 2 cases in both dropped by 0.0250 (0.9500 -> 0.9250), more than the tolerance 0.0200"
            ]
        );
        assert!(!compare(&current, &baseline, 0.05).regressed);
    }

    #[test]
    fn a_case_that_passed_and_now_fails_fails_the_gate_even_when_f1_is_unchanged() {
        // `b` had no recommendation worth anything either way: F1 0 before and after.
        let baseline = [row("a", Passed, 1.0), row("b", Passed, 0.0)];
        let current = [row("a", Passed, 1.0), row("b", Error, 0.0)];
        let c = compare(&current, &baseline, 0.02);
        assert_eq!(c.f1_drop, 0.0);
        assert!(c.regressed);
        assert_eq!(c.newly_failing, ["b"]);
        assert_eq!(c.reasons, ["passed in the baseline, no longer passing: b"]);
    }

    #[test]
    fn new_and_removed_cases_are_reported_not_gated() {
        let baseline = [row("a", Passed, 0.9), row("gone", Passed, 1.0), row("c", Failed, 0.0)];
        let current = [row("a", Passed, 0.9), row("new", Error, 0.0), row("c", Passed, 0.8)];
        let c = compare(&current, &baseline, 0.02);
        assert!(!c.regressed, "{c:#?}");
        assert_eq!(c.common_cases, 2);
        assert_eq!(c.new_cases, ["new"]);
        assert_eq!(c.removed_cases, ["gone"]);
        assert_eq!(c.newly_passing, ["c"]);
        assert_eq!(c.f1_drop, -0.4);
        assert_eq!(c.changes.len(), 1);
    }

    #[test]
    fn a_drop_of_the_semantic_share_fails_even_when_f1_holds() {
        let baseline = [with_semantic(row("a", Passed, 1.0), 0.8), with_semantic(row("b", Passed, 0.9), 0.6)];
        let current = [with_semantic(row("a", Passed, 1.0), 0.2), with_semantic(row("b", Passed, 0.9), 0.6)];
        let c = compare(&current, &baseline, 0.02);
        assert_eq!((c.baseline_avg_semantic_share, c.avg_semantic_share, c.semantic_drop), (0.7, 0.4, 0.3));
        assert!(c.regressed);
        assert_eq!(
            c.reasons,
            [
                "the average semantic share of the 2 cases in both dropped by 0.3000 (0.7000 -> 0.4000), more than the tolerance 0.0200"
            ]
        );
        assert_eq!(c.changes.len(), 1);
        assert_eq!(c.changes[0].verdict(), "worse");
        let loose = super::compare(
            &current,
            &baseline,
            Tolerances { max_semantic_drop: 0.5, ..Tolerances::default() },
        );
        assert!(!loose.regressed);
    }

    #[test]
    fn skipped_cases_are_listed_and_neither_gate_nor_average() {
        // `gone` passed with F1 1.0 and is now skipped: its repository disappeared, which says
        // nothing about the tool. `c` is better now, `d` worse.
        let baseline = [row("gone", Passed, 1.0), row("c", Passed, 0.5), row("d", Passed, 0.9)];
        let current = [row("gone", Skipped, 0.0), row("c", Passed, 0.9), row("d", Passed, 0.6)];
        let c = compare(&current, &baseline, 0.02);
        assert_eq!(c.skipped, ["gone"]);
        assert_eq!(c.common_cases, 2);
        assert!(c.newly_failing.is_empty());
        assert!(!c.regressed, "{c:#?}");
        let verdicts: Vec<(&str, &str)> =
            c.changes.iter().map(|ch| (ch.name.as_str(), ch.verdict())).collect();
        assert_eq!(verdicts, [("c", "better"), ("d", "worse")]);
    }
}
