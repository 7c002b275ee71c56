//! Completions: the change the recipe made where the PR made it, made where the author had not.

use std::collections::{BTreeMap, BTreeSet};

use super::index::Index;
use super::rules::Work;
use super::shape::{Shape, substitution};
use super::take_where;
use super::text::collapse;
use crate::diff::ChangeKind;
use crate::model::ChangeLine;

/// The recipe's lines that complete the PR: a pair of removed and added lines (in one hunk) with
/// the shape of a pair the recipe got right, or a line the recipe got right elsewhere.
pub(super) fn same_change_elsewhere(w: &mut Work<'_>) -> Vec<ChangeLine> {
    let (pending, true_positives, run) = (&mut w.pending, w.true_positives, w.run);
    let right_shapes: BTreeSet<Shape> = pairs(true_positives, run)
        .into_iter()
        .filter_map(|(r, a)| substitution(&r.content, &a.content))
        .collect();
    let right_lines: BTreeSet<(ChangeKind, String)> =
        true_positives.iter().map(|l| (l.kind, collapse(&l.content))).collect();
    let mut completing: Vec<ChangeLine> = Vec::new();
    for (removed, added) in pairs(pending, run) {
        if substitution(&removed.content, &added.content).is_some_and(|s| right_shapes.contains(&s)) {
            completing.push(removed);
            completing.push(added);
        }
    }
    take_where(pending, |l| completing.contains(l) || right_lines.contains(&(l.kind, collapse(&l.content))))
}

/// Removed and added lines of each hunk, paired in their order.
fn pairs(lines: &[ChangeLine], index: &Index<'_>) -> Vec<(ChangeLine, ChangeLine)> {
    let mut by_hunk: BTreeMap<usize, (Vec<ChangeLine>, Vec<ChangeLine>)> = BTreeMap::new();
    for line in lines {
        if let Some(hunk) = index.hunk_of(line) {
            let entry = by_hunk.entry(hunk).or_default();
            match line.kind {
                ChangeKind::Removed => entry.0.push(line.clone()),
                ChangeKind::Added => entry.1.push(line.clone()),
            }
        }
    }
    by_hunk.into_values().flat_map(|(removed, added)| removed.into_iter().zip(added)).collect()
}
