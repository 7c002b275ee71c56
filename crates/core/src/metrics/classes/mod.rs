//! What a recipe's false positives are (issue #27). Line-level F1 against one PR calls every line
//! the recipe writes differently from the author wrong; for a recipe meant for the next
//! repository most of them are not. Each false-positive line is one of:
//!
//! - **layout**: the same code laid out differently — whitespace, line wrapping, a blank line, a
//!   fully qualified name against an import, a line of a file the PR changed re-indented ([`layout`]);
//! - **variant**: the recipe replaced exactly the lines the PR replaced, in the same hunk or the
//!   same change of a hunk (a run of changed lines between context lines), and wrote
//!   them another way, without keeping the library the PR migrates away from; or it wrote a newer
//!   version of the same artifact ([`variant`]);
//! - **completion**: the same change the recipe also made where the PR made it (same shape,
//!   [`shape`]), applied where the author had not ([`completion`]);
//! - **wrong**: everything else — a change the migration does not call for, or a "variant" that
//!   keeps the old library in use.
//!
//! The comparison is token-level (whitespace-blind, qualified names by their simple name) on the
//! diffs and the PR's head files; which library the PR migrates away from comes from the types the
//! base uses and the head does not (the embedded runner parses both), or from their imports. The
//! line F1 is unchanged; **migration precision** = TP / (TP + wrong) sits beside it.
//!
//! The rules are a table ([`rules::RULES`]: name, what it matches, class, in order); each
//! classified line names the rule that took it.

mod completion;
mod index;
mod layout;
mod pr;
pub mod rules;
pub(crate) mod shape;
pub mod text;
mod variant;

pub use pr::PrView;

use crate::diff::Diff;
use crate::model::{ChangeLine, Metrics};

pub use crate::model::classes::{Classes, ResultTypes};

/// Classifies the false positives of `metrics` (the comparison of `run` with the PR) by the rules
/// of [`rules::RULES`], in their order.
pub fn classify(pr: &PrView, run: &Diff, metrics: &Metrics, types: Option<&ResultTypes>) -> Classes {
    classify_by(rules::RULES, pr, run, metrics, types)
}

/// [`classify`] by the rules given.
fn classify_by(
    table: &[rules::Rule],
    pr: &PrView,
    run: &Diff,
    metrics: &Metrics,
    types: Option<&ResultTypes>,
) -> Classes {
    let run_index = index::Index::of(run);
    let pr_index = index::Index::of(&pr.diff);
    let work = rules::Work {
        pending: metrics.false_positive_lines.clone(),
        misses: metrics.false_negative_lines.iter().cloned().map(Some).collect(),
        run: &run_index,
        pr_index: &pr_index,
        pr,
        types,
        true_positives: &metrics.true_positive_lines,
    };
    rules::apply(table, work)
}

/// Moves the lines of `pending` that `keep` accepts out of it, in order.
fn take_where(pending: &mut Vec<ChangeLine>, mut keep: impl FnMut(&ChangeLine) -> bool) -> Vec<ChangeLine> {
    let mut taken = Vec::new();
    let mut rest = Vec::with_capacity(pending.len());
    for line in pending.drain(..) {
        if keep(&line) { taken.push(line) } else { rest.push(line) }
    }
    *pending = rest;
    taken
}

#[cfg(test)]
mod tests;
