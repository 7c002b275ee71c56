//! A case's row in the results table, and counts and averages over rows.

use crate::metrics::round4;
use crate::model::{CaseResult, CaseRow, CaseStatus, OptionScore, Totals};

/// The recommended option's numbers (0 when there is no recommendation).
pub(crate) fn row(result: &CaseResult) -> CaseRow {
    let recommended = result.recommended.as_ref();
    CaseRow {
        name: result.name.clone(),
        status: result.status,
        reason: result.reason.clone(),
        option: recommended.map(|r| r.option),
        precision: recommended.map_or(0.0, |r| r.precision),
        recall: recommended.map_or(0.0, |r| r.recall),
        f1: recommended.map_or(0.0, |r| r.f1),
        perfect_match: recommended.is_some_and(|r| r.perfect_match),
        semantic_share: recommended.map_or(0.0, |r| r.semantic_share),
        learned_share: recommended.map_or(0.0, |r| r.learned_share),
        confidence: recommended.map(|r| r.confidence),
        backend: result.backend,
        options: result.options.iter().map(OptionScore::of).collect(),
        wall_seconds: result.wall_seconds,
        migration_precision: recommended.and_then(|r| r.migration_precision),
        migration_semantic_share: recommended.and_then(|r| r.migration_semantic_share),
        pr_kind: result.pr_kind,
        verdict: result.verdict,
    }
}

/// The row of a case that has no recommendation (it failed, errored or never finished).
pub(crate) fn row_without_recommendation(name: &str, status: CaseStatus, reason: String) -> CaseRow {
    CaseRow {
        name: name.to_string(),
        status,
        reason: Some(reason),
        option: None,
        precision: 0.0,
        recall: 0.0,
        f1: 0.0,
        perfect_match: false,
        semantic_share: 0.0,
        learned_share: 0.0,
        confidence: None,
        backend: None,
        options: Vec::new(),
        wall_seconds: 0.0,
        migration_precision: None,
        migration_semantic_share: None,
        pr_kind: None,
        verdict: None,
    }
}

/// Counts, and averages over every row that ran, skipped ones left out (rounded to 4 places; 0
/// for no rows).
pub(crate) fn of(rows: &[CaseRow]) -> Totals {
    let count = |status: CaseStatus| rows.iter().filter(|r| r.status == status).count();
    let ran: Vec<CaseRow> = rows.iter().filter(|r| r.status != CaseStatus::Skipped).cloned().collect();
    let total_wall: f64 = rows.iter().map(|r| r.wall_seconds).sum();
    // Migrations whose reusable recipe measured what it leaves of the old library on their base.
    let measured: Vec<&crate::model::OptionScore> = ran
        .iter()
        .filter(|r| r.pr_kind == Some(crate::model::PrKind::Migration))
        .filter_map(|r| r.reusable())
        .filter(|o| o.residual.as_ref().is_some_and(|x| x.before > 0))
        .collect();
    Totals {
        cases: rows.len(),
        passed: count(CaseStatus::Passed),
        failed: count(CaseStatus::Failed),
        errors: count(CaseStatus::Error),
        skipped: count(CaseStatus::Skipped),
        perfect_matches: rows.iter().filter(|r| r.perfect_match).count(),
        avg_precision: average(&ran, |r| r.precision),
        avg_recall: average(&ran, |r| r.recall),
        avg_f1: average(&ran, |r| r.f1),
        avg_semantic_share: average(&ran, |r| r.semantic_share),
        total_wall_seconds: round4(total_wall),
        avg_wall_seconds: average(rows, |r| r.wall_seconds),
        avg_migration_precision: average_of(ran.iter().filter_map(|r| r.migration_precision)),
        avg_migration_semantic_share: average_of(ran.iter().filter_map(|r| r.migration_semantic_share)),
        migrations: ran.iter().filter(|r| r.pr_kind == Some(crate::model::PrKind::Migration)).count(),
        ready_to_roll_out: ran
            .iter()
            .filter(|r| r.verdict == Some(crate::model::Verdict::ReadyToRollOut))
            .count(),
        reusable_recipes: ran.iter().filter(|r| r.reusable().is_some()).count(),
        avg_reusable_f1: average(&ran, |r| r.reusable().map_or(0.0, |o| o.f1)),
        avg_reusable_migration_precision: average_of(
            ran.iter().filter_map(|r| r.reusable().and_then(|o| o.migration_precision)),
        ),
        avg_reusable_migration_f1: ran
            .iter()
            .any(|r| r.reusable().is_some_and(|o| o.migration_f1.is_some()))
            .then(|| average(&ran, |r| r.reusable().and_then(|o| o.migration_f1).unwrap_or(0.0))),
        reusable_residual_measured: measured.len(),
        reusable_complete: measured
            .iter()
            .filter(|o| {
                o.residual.as_ref().is_some_and(|r| r.after == 0) && o.unresolved_added.unwrap_or(0) == 0
            })
            .count(),
        reusable_complete_in_reach: measured
            .iter()
            .filter(|o| {
                o.residual.as_ref().is_some_and(|r| r.after_in_reach() == 0)
                    && o.unresolved_added.unwrap_or(0) == 0
            })
            .count(),
    }
}

/// The mean of some values, rounded to 4 places; None for none.
pub(crate) fn average_of(values: impl Iterator<Item = f64>) -> Option<f64> {
    let values: Vec<f64> = values.collect();
    (!values.is_empty()).then(|| round4(values.iter().sum::<f64>() / values.len() as f64))
}

/// The mean of `value` over `rows`, rounded to 4 places; 0 for no rows.
pub(crate) fn average(rows: &[CaseRow], value: impl Fn(&CaseRow) -> f64) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    round4(rows.iter().map(value).sum::<f64>() / rows.len() as f64)
}

/// A row with precision, recall and F1 all `f1`, for tests.
#[cfg(test)]
pub(crate) fn sample_row(name: &str, status: CaseStatus, f1: f64, wall_seconds: f64) -> CaseRow {
    CaseRow {
        name: name.into(),
        status,
        reason: None,
        option: Some(crate::model::OptionId::Narrow),
        precision: f1,
        recall: f1,
        f1,
        perfect_match: f1 == 1.0,
        semantic_share: 1.0,
        learned_share: 0.0,
        confidence: None,
        backend: None,
        options: Vec::new(),
        wall_seconds,
        migration_precision: None,
        migration_semantic_share: None,
        pr_kind: None,
        verdict: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use sample_row as row;

    #[test]
    fn averages_count_every_case() {
        let rows = [
            row("a", CaseStatus::Passed, 1.0, 10.0),
            row("b", CaseStatus::Passed, 0.5, 20.0),
            row("c", CaseStatus::Error, 0.0, 0.5),
        ];
        let totals = of(&rows);
        assert_eq!((totals.cases, totals.passed, totals.failed, totals.errors), (3, 2, 0, 1));
        assert_eq!(totals.perfect_matches, 1);
        assert_eq!(totals.avg_f1, 0.5);
        assert_eq!(totals.total_wall_seconds, 30.5);
        assert_eq!(totals.avg_wall_seconds, 10.1667);
        assert_eq!(of(&[]), Totals::default());
    }

    #[test]
    fn skipped_cases_are_counted_apart_and_never_averaged() {
        let rows = [
            row("a", CaseStatus::Passed, 1.0, 10.0),
            row_without_recommendation("b", CaseStatus::Failed, "no option could be validated".into()),
            row_without_recommendation("gone", CaseStatus::Skipped, "cannot clone".into()),
        ];
        let totals = of(&rows);
        assert_eq!((totals.cases, totals.passed, totals.failed, totals.skipped), (3, 1, 1, 1));
        assert_eq!((totals.avg_f1, totals.avg_semantic_share), (0.5, 0.5));
    }

    #[test]
    fn the_migration_gate_and_the_migration_semantic_share_are_counted() {
        use crate::model::{PrKind, Verdict};
        let with = |name, kind, verdict, share: Option<f64>| CaseRow {
            pr_kind: Some(kind),
            verdict: Some(verdict),
            migration_semantic_share: share,
            ..row(name, CaseStatus::Passed, 1.0, 1.0)
        };
        let rows = [
            with("a", PrKind::Migration, Verdict::ReadyToRollOut, Some(1.0)),
            with("b", PrKind::Migration, Verdict::ReproducesThisPrOnly, Some(0.5)),
            with("c", PrKind::Ordinary, Verdict::ReproducesThisPrOnly, None),
            row("d", CaseStatus::Passed, 1.0, 1.0),
        ];
        let totals = of(&rows);
        assert_eq!((totals.migrations, totals.ready_to_roll_out), (2, 1));
        // Over the cases that have it.
        assert_eq!(totals.avg_migration_semantic_share, Some(0.75));
        let results = crate::model::SuiteResults {
            suite_name: "s".into(),
            tool_version: String::new(),
            shards: Vec::new(),
            missing_shards: Vec::new(),
            cases: rows.to_vec(),
            totals,
            transfers: Vec::new(),
            transfer_totals: None,
            comparison: None,
        };
        let summary = crate::eval::summary::render(&results, None);
        assert!(summary.contains("Migration gate: **2** of 4 cases called a migration"), "{summary}");
        assert!(summary.contains("side work left out): 0.7500"), "{summary}");
    }
}
