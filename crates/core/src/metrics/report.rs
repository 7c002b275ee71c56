//! The short human-readable report of `rewrite-assist metrics`.

use std::fmt::Write;

use crate::model::Metrics;

/// How many FP / FN lines the text report lists before summarising the rest.
const LINES_SHOWN: usize = 20;

/// The text report of `rewrite-assist metrics`: counts, scores and the first FP / FN lines.
pub fn render_text(metrics: &Metrics) -> String {
    let mut out = String::new();
    let m = metrics;
    let _ = writeln!(
        out,
        "precision {:.4}  recall {:.4}  F1 {:.4}{}",
        m.precision,
        m.recall,
        m.f1,
        if m.perfect_match { "  (perfect match)" } else { "" }
    );
    let _ = writeln!(
        out,
        "TP {}  FP {}  FN {}  (expected {} changed lines, got {})",
        m.true_positives,
        m.false_positives,
        m.false_negatives,
        m.total_expected_changes,
        m.total_resulting_changes
    );
    if !m.files.is_empty() {
        let width = m.files.keys().map(String::len).max().unwrap_or(0).min(70);
        let _ = writeln!(out, "\n{:width$}  {:>5} {:>5} {:>5}", "file", "TP", "FP", "FN");
        for (path, counts) in &m.files {
            let _ = writeln!(out, "{path:width$}  {:>5} {:>5} {:>5}", counts.tp, counts.fp, counts.fn_);
        }
    }
    for (title, lines) in [
        ("false positives (the recipe changed, the PR did not)", &m.false_positive_lines),
        ("false negatives (the PR changed, the recipe did not)", &m.false_negative_lines),
    ] {
        if lines.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n{title}:");
        for line in lines.iter().take(LINES_SHOWN) {
            let _ = writeln!(out, "  {}", line.display());
        }
        if lines.len() > LINES_SHOWN {
            let _ = writeln!(out, "  … and {} more (see --json)", lines.len() - LINES_SHOWN);
        }
    }
    let left_out = &m.unreproducible_lines;
    if !left_out.is_empty() {
        let _ = writeln!(out, "\nleft out of the metric (no recipe can make them):");
        for line in left_out.iter().take(LINES_SHOWN) {
            let _ = writeln!(out, "  {} ({})", line.line.display(), line.reason.describe());
        }
        if left_out.len() > LINES_SHOWN {
            let _ = writeln!(out, "  … and {} more (see --json)", left_out.len() - LINES_SHOWN);
        }
    }
    if !m.unreproducible_files.is_empty() {
        let _ = writeln!(out, "\nfiles left out of the metric:");
        for file in &m.unreproducible_files {
            let _ = writeln!(out, "  {} ({} lines): {}", file.path, file.lines, file.reason.describe());
        }
    }
    out
}
