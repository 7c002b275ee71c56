//! The metric (ARCHITECTURE.md): precision, recall and F1 of a recipe's diff against the PR's diff,
//! over changed lines `(path, added|removed, content)` matched as multisets.

pub mod classes;
mod report;

pub use report::render_text;

use rustc_hash::FxHashMap;

use crate::diff::{ChangeKind, Diff, LineChange, Unreproducible};
use crate::model::intent::UnreproducibleFile;
use crate::model::{ChangeLine, FileCounts, Metrics, UnreproducibleLine};

/// Compares the recipe's diff (`actual`) with the PR's diff (`expected`).
///
/// Identical changes are matched as multisets: for each key, TP = min of the two counts, the PR's
/// excess are false negatives and the recipe's excess false positives. When a key is in excess,
/// its last occurrences are the ones reported. Lines no recipe can make ([`unreproducible`]) are
/// outside the metric: the PR's are listed apart, the recipe's left out. So are the PR's files too
/// large to analyze ([`Diff::left_out`]), listed by file, and the recipe's lines in them.
pub fn compare(expected: &Diff, actual: &Diff) -> Metrics {
    /// Per key: how often each diff has it, and how many occurrences were walked so far.
    #[derive(Default)]
    struct Tally {
        expected: usize,
        actual: usize,
        walked_expected: usize,
        walked_actual: usize,
    }
    type Key<'a> = (&'a str, ChangeKind, &'a str);
    fn key<'a>(c: &LineChange<'a>) -> Key<'a> {
        (c.path, c.kind, c.content)
    }

    let mut metrics = Metrics::default();
    let (expected_changes, left_out) = unreproducible(expected);
    metrics.unreproducible_lines =
        left_out.into_iter().map(|(c, reason)| UnreproducibleLine { line: line_of(&c), reason }).collect();
    metrics.unreproducible_files = expected
        .left_out
        .iter()
        .map(|f| UnreproducibleFile {
            path: f.path.clone(),
            reason: Unreproducible::TooLarge,
            lines: f.lines,
        })
        .collect();
    let (mut actual_changes, _) = unreproducible(actual);
    actual_changes.retain(|c| !expected.left_out.iter().any(|f| f.path == c.path));
    let mut tallies: FxHashMap<Key<'_>, Tally> = FxHashMap::default();
    for change in &expected_changes {
        tallies.entry(key(change)).or_default().expected += 1;
    }
    for change in &actual_changes {
        tallies.entry(key(change)).or_default().actual += 1;
    }

    let mut files: FxHashMap<&str, FileCounts> = FxHashMap::default();
    // Walk each diff in order; the first min(expected, actual) occurrences of a key are matched.
    for change in expected_changes {
        let tally = tallies.get_mut(&key(&change)).expect("tallied above");
        tally.walked_expected += 1;
        let counts = files.entry(change.path).or_default();
        if tally.walked_expected <= tally.expected.min(tally.actual) {
            counts.tp += 1;
            metrics.true_positives += 1;
        } else {
            counts.fn_ += 1;
            metrics.false_negatives += 1;
            metrics.false_negative_lines.push(line_of(&change));
        }
    }
    for change in actual_changes {
        let tally = tallies.get_mut(&key(&change)).expect("tallied above");
        tally.walked_actual += 1;
        if tally.walked_actual > tally.expected.min(tally.actual) {
            files.entry(change.path).or_default().fp += 1;
            metrics.false_positives += 1;
            metrics.false_positive_lines.push(line_of(&change));
        } else {
            metrics.true_positive_lines.push(line_of(&change));
        }
    }
    metrics.files = files.into_iter().map(|(path, counts)| (path.to_string(), counts)).collect();

    let (tp, fp, fn_) = (metrics.true_positives, metrics.false_positives, metrics.false_negatives);
    metrics.total_expected_changes = tp + fn_;
    metrics.total_resulting_changes = tp + fp;
    let precision = ratio(tp, tp + fp);
    let recall = ratio(tp, tp + fn_);
    metrics.precision = round4(precision);
    metrics.recall = round4(recall);
    metrics.f1 = round4(f1(precision, recall));
    metrics.perfect_match = fp == 0 && fn_ == 0;
    metrics
}

/// A diff's changed lines, split: those a recipe can make, and those it cannot, with why (every
/// line of a symbolic link, a submodule or an LFS pointer; a line that is not UTF-8).
fn unreproducible(diff: &Diff) -> (Vec<LineChange<'_>>, Vec<(LineChange<'_>, Unreproducible)>) {
    let mut kept = Vec::new();
    let mut left_out = Vec::new();
    for file in &diff.files {
        let special = file.unreproducible();
        for change in file.changes() {
            let not_utf8 = crate::diff::not_utf8(change.content).then_some(Unreproducible::NotUtf8);
            match special.or(not_utf8) {
                Some(reason) => left_out.push((change, reason)),
                None => kept.push(change),
            }
        }
    }
    (kept, left_out)
}

fn line_of(change: &LineChange<'_>) -> ChangeLine {
    ChangeLine {
        path: change.path.to_string(),
        kind: change.kind,
        line: change.line,
        content: change.content.to_string(),
    }
}

/// F1, the harmonic mean of `precision` and `recall`; 0 when both are 0. Unrounded: round the
/// result ([`round4`]), not its inputs. The operations are the reference analyzer's, in its order,
/// so the rounded values agree.
pub fn f1(precision: f64, recall: f64) -> f64 {
    if precision + recall == 0.0 { 0.0 } else { 2.0 * (precision * recall) / (precision + recall) }
}

/// How well a recipe reproduces the PR's *migration*, rather than its every line. The one
/// definition: the reusable recipe's run on its PR (`generalize`), each candidate's run on each
/// PR (`learn`) and the verdict (`decision::verdict`, through `OptionResult::migration_f1`)
/// read it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MigrationScore {
    /// TP / (TP + the PR's missed lines that are its migration's): the missed lines of the PR's
    /// side work (the intents a reusable recipe leaves out, a README or the project's own
    /// version: `reuse::scope::side_work_lines`) do not count; with no side work known, every
    /// missed line counts (the line recall, unrounded). Rounded to 4 places.
    pub recall: f64,
    /// F1 of the migration precision (TP / (TP + wrong false positives): layout, variants and
    /// completions do not count, [`classes`]; the line precision when the PR's files were not
    /// known) and that recall (unrounded). Rounded to 4 places.
    pub f1: f64,
}

/// The [`MigrationScore`] of a run scored `metrics` (its missed lines whole, not as a file lists
/// them), with `migration_precision` when its false positives were classified; `side_work`
/// says which of the PR's lines are side work.
pub fn migration_score(
    metrics: &Metrics,
    migration_precision: Option<f64>,
    side_work: impl Fn(&ChangeLine) -> bool,
) -> MigrationScore {
    let missed = metrics.false_negative_lines.iter().filter(|l| !side_work(l)).count();
    let recall = ratio(metrics.true_positives, metrics.true_positives + missed);
    let precision = migration_precision.unwrap_or(metrics.precision);
    MigrationScore { recall: round4(recall), f1: round4(f1(precision, recall)) }
}

/// `part / whole`, or 0.0 when nothing was expected or produced.
fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 / whole as f64 }
}

/// Rounds to 4 decimal places like Python's `round(x, 4)`: correctly rounded from the exact binary
/// value, ties to even. Formatting does exactly that; `(x * 1e4).round()` would not.
pub fn round4(value: f64) -> f64 {
    format!("{value:.4}").parse().unwrap_or(value)
}

/// The PR lines a recipe's diff reproduces (true positives) and the lines it changes that the PR
/// does not (false positives).
pub fn score_lines(
    pr: &Diff,
    diff_text: &str,
) -> (Vec<crate::model::ChangeLine>, Vec<crate::model::ChangeLine>) {
    if diff_text.trim().is_empty() {
        return (Vec::new(), Vec::new());
    }
    let text = crate::diff::remove_excluded_sections(diff_text);
    let Ok(diff) = crate::diff::parse(&text) else { return (Vec::new(), Vec::new()) };
    let metrics = crate::metrics::compare(pr, &diff);
    (metrics.true_positive_lines, metrics.false_positive_lines)
}

/// A recipe diff scored against the PR: the lines it got right and wrong, and what its false
/// positives are when the PR's files are known.
pub struct Scored {
    /// Lines the recipe changed as the PR did.
    pub tp_lines: Vec<ChangeLine>,
    /// Lines the recipe changed that the PR did not.
    pub fp_lines: Vec<ChangeLine>,
    /// What each false positive is, when the PR's files were known.
    pub classes: Option<classes::Classes>,
}

/// [`score_lines`], with the false positives classified when `view` is given.
pub fn score(
    pr: &Diff,
    view: Option<&classes::PrView>,
    diff_text: &str,
    types: Option<&classes::ResultTypes>,
) -> Scored {
    let text = crate::diff::remove_excluded_sections(diff_text);
    let diff = if diff_text.trim().is_empty() { None } else { crate::diff::parse(&text).ok() };
    let Some(diff) = diff else {
        return Scored { tp_lines: Vec::new(), fp_lines: Vec::new(), classes: None };
    };
    let metrics = compare(pr, &diff);
    let classes = view.map(|view| classes::classify(view, &diff, &metrics, types));
    Scored { tp_lines: metrics.true_positive_lines, fp_lines: metrics.false_positive_lines, classes }
}

/// The false positives that count against a recipe: the wrong ones when they are classified,
/// else [`counted_false_positives`].
pub fn counted<'a>(
    tp: usize,
    fp_lines: &'a [ChangeLine],
    classes: Option<&'a classes::Classes>,
) -> Vec<&'a ChangeLine> {
    match classes {
        Some(classes) => classes.wrong.iter().collect(),
        None => counted_false_positives(tp, fp_lines),
    }
}

/// The false positives that count against a recipe when judging it (discovery, refinement): a
/// blank line it adds or removes where the PR does not is layout, its formatter's choice (an
/// import group separator, the gap between two dependencies), not a different migration. Up to
/// one such line per two true positives is tolerated; beyond that every false positive counts.
/// The metrics themselves still count every line.
pub(crate) fn counted_false_positives(tp: usize, fp_lines: &[ChangeLine]) -> Vec<&ChangeLine> {
    let blank = fp_lines.iter().filter(|l| is_blank(l)).count();
    if blank * 2 <= tp {
        fp_lines.iter().filter(|l| !is_blank(l)).collect()
    } else {
        fp_lines.iter().collect()
    }
}

/// A line with nothing but whitespace on it.
pub(crate) fn is_blank(line: &ChangeLine) -> bool {
    line.content.trim().is_empty()
}

#[cfg(test)]
mod tests;
