//! Which reusable recipe to roll out: the one that finishes the migration. The recommended recipe
//! is chosen to reproduce this PR's lines; the next repository needs the migration done, whatever
//! this PR's author happened to write. So the candidates — the recommended recipe's semantic
//! steps (generalized), and the same led by a catalog composite that may finish the migration —
//! each run on this PR's base, and the one to roll out is, among those precise enough on this PR:
//!
//! 1. the one that breaks no symbol that resolved before (the compile check);
//! 2. then the one that leaves the fewest uses of the old library;
//! 3. then a composite's over narrow steps that only reproduce the author's lines: on this base
//!    both may leave nothing, and the composite knows the rest of the migration, which the next
//!    repository may need;
//! 4. then the higher migration F1, then the fewer steps.
//!
//! Precise enough: migration precision (layout, variants and completions are not wrong) at least
//! [`MIN_MIGRATION_PRECISION`], and a migration F1 that keeps the verdict the first candidate
//! earns (at least [`READY`], or at least its own).

use std::cmp::Ordering;

use crate::model::OptionResult;

/// The lowest migration precision a candidate may have on its own PR.
pub const MIN_MIGRATION_PRECISION: f64 = 0.8;

/// The migration F1 the verdict "ready to roll out" asks of the reusable recipe.
const READY: f64 = crate::decision::verdict::READY_F1;

/// A candidate as the choice sees it: its run on this PR, whether a catalog composite leads it,
/// and how many steps it has.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Candidate<'a> {
    pub result: Option<&'a OptionResult>,
    pub composite: bool,
    pub steps: usize,
}

/// The index of the candidate to roll out; the first (the recommended recipe generalized) unless
/// another one is precise enough and better by the rules above.
pub(crate) fn best(candidates: &[Candidate<'_>]) -> usize {
    let Some(first) = candidates.first() else { return 0 };
    let floor = first.result.filter(|r| r.ran()).map_or(READY, |r| migration_f1(r).min(READY));
    candidates
        .iter()
        .enumerate()
        .filter(|(i, c)| *i == 0 || c.result.is_some_and(|r| acceptable(r, floor)))
        .filter(|(_, c)| c.result.is_some_and(OptionResult::ran))
        .min_by(|(_, a), (_, b)| compare(a, b))
        .map_or(0, |(i, _)| i)
}

fn acceptable(result: &OptionResult, floor: f64) -> bool {
    result.ran()
        && result.migration_precision.unwrap_or(result.precision) >= MIN_MIGRATION_PRECISION
        && migration_f1(result) >= floor
}

fn migration_f1(result: &OptionResult) -> f64 {
    result.migration_f1.unwrap_or(result.f1)
}

/// Better first.
fn compare(a: &Candidate<'_>, b: &Candidate<'_>) -> Ordering {
    let (Some(ra), Some(rb)) = (a.result, b.result) else { return Ordering::Equal };
    let breaks = |r: &OptionResult| r.unresolved.as_ref().is_some_and(|u| u.added() > 0);
    let left = |r: &OptionResult| r.residual.as_ref().map_or(usize::MAX, |x| x.after);
    breaks(ra)
        .cmp(&breaks(rb))
        .then(left(ra).cmp(&left(rb)))
        .then(b.composite.cmp(&a.composite))
        .then(migration_f1(rb).total_cmp(&migration_f1(ra)))
        .then(a.steps.cmp(&b.steps))
}

/// Why the chosen candidate won over the first, for the reviewer: one line.
pub(crate) fn why(chosen: &OptionResult, first: &OptionResult) -> String {
    let left = |r: &OptionResult| r.residual.as_ref().map(|x| x.after);
    let added = |r: &OptionResult| r.unresolved.as_ref().map_or(0, |u| u.added());
    match (left(chosen), left(first)) {
        _ if added(first) > 0 && added(chosen) == 0 => format!(
            "the recommended recipe generalized breaks {} symbol{} here, and this one none",
            added(first),
            crate::model::plural(added(first))
        ),
        (Some(mine), Some(theirs)) if mine < theirs => format!(
            "it leaves {mine} use{} of the old library on this PR's base, the recommended recipe generalized {theirs}",
            crate::model::plural(mine)
        ),
        _ => "it finishes the migration as the catalog knows it, where the recommended recipe generalized reproduces \
only this PR's lines"
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::residual::{Residual, Unresolved};

    fn result(mp: f64, mf1: f64, left: usize, broken: usize) -> OptionResult {
        let mut r: OptionResult = serde_json::from_value(serde_json::json!({
            "option": 4, "strategy": "reusable", "recipe_name": "r", "recipes": 3, "precision": mp,
            "recall": mf1, "f1": mf1, "perfect_match": false, "semantic_share": 1.0, "wall_seconds": 1.0,
            "attempts": 1, "dropped": [], "tests_dropped": false, "error": null
        }))
        .unwrap();
        r.migration_precision = Some(mp);
        r.migration_f1 = Some(mf1);
        r.residual = Some(Residual {
            before: 5,
            after: left,
            files_after: left.min(1),
            out_of_reach: 0,
            samples: vec![],
        });
        r.unresolved = Some(Unresolved { before: 1, after: 1 + broken, checked_files: 2, samples: vec![] });
        r
    }

    fn candidate(result: &OptionResult, composite: bool) -> Candidate<'_> {
        Candidate { result: Some(result), composite, steps: 3 }
    }

    #[test]
    fn the_candidate_that_finishes_the_migration_wins() {
        let narrow = result(1.0, 0.97, 3, 0);
        let umbrella = result(0.95, 0.9, 0, 0);
        assert_eq!(best(&[candidate(&narrow, false), candidate(&umbrella, true)]), 1);
        assert!(why(&umbrella, &narrow).starts_with("it leaves 0 uses of the old library"));
        // Both leave nothing: the composite knows the rest of the migration.
        let narrow_done = result(1.0, 0.97, 0, 0);
        assert_eq!(best(&[candidate(&narrow_done, false), candidate(&umbrella, true)]), 1);
    }

    #[test]
    fn a_candidate_that_breaks_compilation_or_is_imprecise_loses() {
        let narrow = result(1.0, 0.97, 3, 0);
        let breaks = result(1.0, 0.95, 0, 2);
        assert_eq!(best(&[candidate(&narrow, false), candidate(&breaks, true)]), 0);
        let imprecise = result(0.6, 0.9, 0, 0);
        assert_eq!(best(&[candidate(&narrow, false), candidate(&imprecise, true)]), 0);
        // A candidate that would lose the verdict the first one earns is not taken.
        let unready = result(0.95, 0.7, 0, 0);
        assert_eq!(best(&[candidate(&narrow, false), candidate(&unready, true)]), 0);
        // Nothing measured, nothing else ran: the first.
        assert_eq!(best(&[Candidate { result: None, composite: false, steps: 2 }]), 0);
    }
}
