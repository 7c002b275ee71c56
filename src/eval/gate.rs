//! The regression gate: results against a baseline.
//!
//! It fails when the average F1 over the cases both have drops by more than the tolerance, or
//! when a case that passed in the baseline no longer passes. Averages are taken over the common
//! cases only, so adding or removing cases never trips it; new and removed cases are reported.

use std::collections::BTreeMap;

use super::totals::average;
use crate::metrics::round4;
use crate::model::{CaseChange, CaseRow, CaseStatus, Comparison};

/// The default tolerance of `--max-f1-drop`.
pub const DEFAULT_MAX_F1_DROP: f64 = 0.02;

pub fn compare(current: &[CaseRow], baseline: &[CaseRow], max_f1_drop: f64) -> Comparison {
    let now: BTreeMap<&str, &CaseRow> = current.iter().map(|r| (r.name.as_str(), r)).collect();
    let before: BTreeMap<&str, &CaseRow> = baseline.iter().map(|r| (r.name.as_str(), r)).collect();
    let pairs: Vec<(&CaseRow, &CaseRow)> =
        before.iter().filter_map(|(name, b)| now.get(name).map(|n| (*b, *n))).collect();
    let baseline_rows: Vec<CaseRow> = pairs.iter().map(|(b, _)| (*b).clone()).collect();
    let current_rows: Vec<CaseRow> = pairs.iter().map(|(_, n)| (*n).clone()).collect();
    let baseline_avg_f1 = average(&baseline_rows, |r| r.f1);
    let avg_f1 = average(&current_rows, |r| r.f1);
    let f1_drop = round4(baseline_avg_f1 - avg_f1);

    let names = |keep: &dyn Fn(&CaseRow, &CaseRow) -> bool| -> Vec<String> {
        pairs.iter().filter(|(b, n)| keep(b, n)).map(|(_, n)| n.name.clone()).collect()
    };
    let passed = |r: &CaseRow| r.status == CaseStatus::Passed;
    let newly_failing = names(&|b, n| passed(b) && !passed(n));
    let newly_passing = names(&|b, n| !passed(b) && passed(n));
    let changes = pairs
        .iter()
        .filter(|(b, n)| b.status != n.status || round4(b.f1 - n.f1) != 0.0)
        .map(|(b, n)| CaseChange {
            name: n.name.clone(),
            baseline_status: b.status,
            status: n.status,
            baseline_f1: b.f1,
            f1: n.f1,
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
    if !newly_failing.is_empty() {
        reasons.push(format!("passed in the baseline, no longer passing: {}", newly_failing.join(", ")));
    }
    Comparison {
        max_f1_drop,
        common_cases: pairs.len(),
        baseline_avg_f1,
        avg_f1,
        f1_drop,
        newly_failing,
        newly_passing,
        changes,
        new_cases,
        removed_cases,
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

    use CaseStatus::{Error, Failed, Passed};

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
}
