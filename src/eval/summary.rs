//! `summary.md`: the regression gate's verdict first, then the overview, the trend of the last runs
//! (charts), the per-case table and the regression section, as a reviewer reads them in the job
//! summary.

use std::fmt::Write;

use crate::model::{CaseRow, CaseStatus, Comparison, OptionScore, SuiteResults};

/// Longest failure reason shown in a table cell; the full text is in `suite-results.json`.
const REASON_CHARS: usize = 160;

pub(crate) fn render(results: &SuiteResults, history: Option<&super::trend::History>) -> String {
    let mut md = String::new();
    let t = &results.totals;
    let _ = writeln!(md, "# Eval: {}\n", results.suite_name);
    md.push_str(&verdict(results));
    md.push_str("| cases | passed | failed | errors | skipped | perfect matches | avg precision | avg recall | avg F1 | avg semantic share | wall time | per case |\n");
    md.push_str("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    let _ = writeln!(
        md,
        "| {} | {} | {} | {} | {} | {} | {:.4} | {:.4} | {:.4} | {:.4} | {} | {} |\n",
        t.cases,
        t.passed,
        t.failed,
        t.errors,
        t.skipped,
        t.perfect_matches,
        t.avg_precision,
        t.avg_recall,
        t.avg_f1,
        t.avg_semantic_share,
        seconds(t.total_wall_seconds),
        seconds(t.avg_wall_seconds),
    );
    migration(&mut md, t);
    if results.cases.iter().any(|r| r.pr_kind.is_some()) {
        let _ = writeln!(
            md,
            "Migration gate: **{}** of {} cases called a migration (the rest ordinary); verdict *ready to roll out* \
             for {}.\n",
            t.migrations,
            t.cases - t.skipped,
            t.ready_to_roll_out
        );
    }
    md.push_str(
        "Averages count every case that ran; a case without a recommended recipe counts as 0. \
         A case passes when `analyze` recommends a recipe; it is skipped (and left out of the \
         averages and the gate) when its repository or commits could not be had.\n\n",
    );
    if !results.missing_shards.is_empty() {
        let shown: Vec<String> = results.missing_shards.iter().map(|s| format!("{s}")).collect();
        let _ = writeln!(
            md,
            "> **Incomplete:** no output from shard {}; its cases are missing from these results.\n",
            shown.join(", ")
        );
    }
    if let Some(history) = history {
        md.push_str(&super::trend::render(history));
    }
    md.push_str("## Cases\n\n");
    md.push_str("| case | status | option | precision | recall | F1 | perfect | semantic share | confidence | every option (F1 / semantic) | backend | wall time | reason |\n");
    md.push_str("|---|---|---:|---:|---:|---:|:---:|---:|---|---|---|---:|---|\n");
    for row in &results.cases {
        case_row(&mut md, row);
    }
    if !results.transfers.is_empty() {
        md.push('\n');
        transfers(&mut md, results);
    }
    if let Some(comparison) = &results.comparison {
        md.push('\n');
        regression(&mut md, comparison);
    }
    md
}

/// Migration precision (false positives that are layout, variants or completions do not count) and
/// the reusable recipes on their own PRs, when the results have them.
fn migration(md: &mut String, t: &crate::model::Totals) {
    let shown = |v: Option<f64>| v.map_or("–".to_string(), |v| format!("{v:.4}"));
    if t.avg_migration_precision.is_none()
        && t.avg_migration_semantic_share.is_none()
        && t.reusable_recipes == 0
    {
        return;
    }
    let _ = writeln!(
        md,
        "Migration precision of the recommended recipes: **{}**; their semantic share over the migration's lines \
         (side work left out): {}. Reusable recipes: {} of {} cases; on their own PRs average F1 **{:.4}**, \
         migration precision {}, migration F1 {} (recall over the migration's lines; a case without one counts as 0).\n",
        shown(t.avg_migration_precision),
        shown(t.avg_migration_semantic_share),
        t.reusable_recipes,
        t.cases - t.skipped,
        t.avg_reusable_f1,
        shown(t.avg_reusable_migration_precision),
        shown(t.avg_reusable_migration_f1),
    );
    if t.reusable_residual_measured > 0 {
        let _ = writeln!(
            md,
            "Finished migrations: on {} of the {} migrations whose old library was measured on their own base, the \
reusable recipe left none of it and broke no symbol; on {} of them it left none a recipe could reach here (the rest \
is in POMs that did not resolve on this machine: their parent or a BOM cannot be downloaded).\n",
            t.reusable_complete, t.reusable_residual_measured, t.reusable_complete_in_reach
        );
    }
}

/// The transfer pairs: each case's reusable recipe on another case's PR.
fn transfers(md: &mut String, results: &SuiteResults) {
    md.push_str(
        "## Transfer

",
    );
    if let Some(t) = &results.transfer_totals {
        let _ = writeln!(
            md,
            "{} pairs, {} ran: average precision **{:.4}** (over the {} whose recipe changed something), \
             average recall **{:.4}**, average F1 {:.4} (a case with no reusable recipe counts as recall 0; \
             skipped and failed pairs are left out).\n",
            t.pairs, t.ran, t.avg_precision, t.with_changes, t.avg_recall, t.avg_f1
        );
        if t.avg_relative_recall.is_some() || t.avg_migration_precision.is_some() {
            let shown = |v: Option<f64>| v.map_or("–".to_string(), |v| format!("{v:.4}"));
            let _ = writeln!(
                md,
                "Average relative recall **{}** (recall over the second case's own reusable recipe's recall on its PR, capped at 1), average migration precision {}.\n",
                shown(t.avg_relative_recall),
                shown(t.avg_migration_precision)
            );
        }
        if let Some(reduction) = t.avg_residual_reduction {
            let _ = writeln!(
                md,
                "Without the second PR: average residual reduction **{reduction:.4}** (the share of the first migration's old \
library the recipe took away on the second repository), {} pairs complete (nothing left, nothing broken; {} \
with nothing left that a recipe could reach here), {} breaking compilation.\n",
                t.complete, t.complete_in_reach, t.breaking
            );
        }
    }
    md.push_str("| reusable recipe of | run on the PR of | status | recipes | precision | recall | F1 | TP | FP | FN | old library left | new unresolved | wall time | reason |\n");
    md.push_str("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for p in &results.transfers {
        let reason = p.reason.as_deref().map(cell).unwrap_or_default();
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {:.4} | {:.4} | {:.4} | {} | {} | {} | {} | {} | {} | {reason} |",
            p.from,
            p.to,
            if p.rollout && p.status == crate::model::TransferStatus::Ran {
                "rollout"
            } else {
                p.status.label()
            },
            p.recipes,
            p.precision,
            p.recall,
            p.f1,
            p.true_positives,
            p.false_positives,
            p.false_negatives,
            p.residual.as_ref().map_or("–".to_string(), |r| r.before_after()),
            p.unresolved_added.map_or("–".to_string(), |n| n.to_string()),
            seconds(p.wall_seconds),
        );
    }
}

fn case_row(md: &mut String, row: &CaseRow) {
    let reason = row.reason.as_deref().map(cell).unwrap_or_default();
    let wall = seconds(row.wall_seconds);
    let options = options_cell(&row.options);
    let backend = row.backend.map(|b| b.label()).unwrap_or("–");
    match row.option {
        Some(option) => {
            let _ = writeln!(
                md,
                "| {} | {} | {option} | {:.4} | {:.4} | {:.4} | {} | {:.4}{} | {} | {options} | {backend} | {wall} | {reason} |",
                row.name,
                row.status.label(),
                row.precision,
                row.recall,
                row.f1,
                if row.perfect_match { "yes" } else { "no" },
                row.semantic_share,
                // The learned part, only where there is one: the table stays as it was elsewhere.
                if row.learned_share > 0.0 {
                    format!(" (learned {:.4})", row.learned_share)
                } else {
                    String::new()
                },
                row.confidence.map(|c| c.label()).unwrap_or("–"),
            );
        }
        None => {
            let _ = writeln!(
                md,
                "| {} | {} | – | – | – | – | – | – | – | {options} | {backend} | {wall} | {reason} |",
                row.name,
                row.status.label()
            );
        }
    }
}

/// `1: 0.9310 / 0.40 · 2: 1.0000 / 0.25 · 3: failed (dependency_resolution)`.
fn options_cell(options: &[OptionScore]) -> String {
    if options.is_empty() {
        return "–".to_string();
    }
    let shown: Vec<String> = options
        .iter()
        .map(|o| {
            let label = match o.strategy {
                crate::model::Strategy::Reusable => "reusable".to_string(),
                _ => o.option.to_string(),
            };
            match o.error {
                Some(kind) => format!("{label}: failed ({})", kind.as_str()),
                None => format!("{label}: {:.4} / {:.2}", o.f1, o.semantic_share),
            }
        })
        .collect();
    shown.join(" · ")
}

/// The gate's verdict, first thing in the summary: failed (and why), passed, or not gated.
fn verdict(results: &SuiteResults) -> String {
    let mut reasons: Vec<String> = Vec::new();
    if !results.missing_shards.is_empty() {
        let shown: Vec<String> = results.missing_shards.iter().map(|s| format!("{s}")).collect();
        reasons.push(format!("no output from shard {}: the results are incomplete", shown.join(", ")));
    }
    if let Some(c) = &results.comparison {
        reasons.extend(c.reasons.iter().cloned());
    }
    match (&results.comparison, reasons.is_empty()) {
        (_, false) => {
            let list: String = reasons.iter().map(|r| format!("- {r}\n")).collect();
            format!("**Regression gate: failed**\n\n{list}\n")
        }
        (Some(c), true) => {
            let transfer = c
                .transfer
                .as_ref()
                .map(|t| format!(" and {} transfer pairs", t.common_pairs))
                .unwrap_or_default();
            format!(
                "**Regression gate: passed** (the {} cases{transfer} in both the baseline and this run).\n\n",
                c.common_cases
            )
        }
        (None, true) => "**Regression gate: not run**: no baseline to compare with.\n\n".to_string(),
    }
}

fn regression(md: &mut String, c: &Comparison) {
    md.push_str("## Against the baseline\n\n");
    let _ = writeln!(
        md,
        "Over the {} cases in both: average F1 {:.4} in the baseline, {:.4} now (drop {:.4}, tolerance {:.4}); \
         average semantic share {:.4} in the baseline, {:.4} now (drop {:.4}, tolerance {:.4}).\n",
        c.common_cases,
        c.baseline_avg_f1,
        c.avg_f1,
        c.f1_drop,
        c.max_f1_drop,
        c.baseline_avg_semantic_share,
        c.avg_semantic_share,
        c.semantic_drop,
        c.max_semantic_drop,
    );
    if let Some(t) = &c.transfer {
        let _ = writeln!(
            md,
            "Over the {} transfer pairs in both: average transfer F1 {:.4} in the baseline, {:.4} now (drop {:.4}, \
             tolerance {:.4}); average transfer recall {:.4} in the baseline, {:.4} now.\n",
            t.common_pairs,
            t.baseline_avg_f1,
            t.avg_f1,
            t.f1_drop,
            t.max_f1_drop,
            t.baseline_avg_recall,
            t.avg_recall
        );
    }
    if c.changes.is_empty() {
        md.push_str("No case changed its status, F1 or semantic share.\n");
    } else {
        md.push_str("| case | verdict | baseline | now | F1 change | semantic share change |\n|---|---|---|---|---:|---:|\n");
        for change in &c.changes {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {:+.4} | {:+.4} |",
                change.name,
                change.verdict(),
                status_f1(change.baseline_status, change.baseline_f1),
                status_f1(change.status, change.f1),
                crate::metrics::round4(change.f1 - change.baseline_f1),
                crate::metrics::round4(change.semantic_share - change.baseline_semantic_share),
            );
        }
    }
    for (label, names) in [
        ("Now passing", &c.newly_passing),
        ("Skipped on one side (not compared)", &c.skipped),
        ("New cases (not gated)", &c.new_cases),
        ("Removed cases (not gated)", &c.removed_cases),
    ] {
        if !names.is_empty() {
            let shown: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            let _ = writeln!(md, "\n{label}: {}.", shown.join(", "));
        }
    }
}

fn status_f1(status: CaseStatus, f1: f64) -> String {
    format!("{}, F1 {f1:.4}", status.label())
}

fn seconds(value: f64) -> String {
    format!("{value:.1} s")
}

/// Text safe inside a table cell: one line, pipes escaped, long text cut.
fn cell(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let cut: String = flat.chars().take(REASON_CHARS).collect();
    let cut = if cut.len() < flat.len() { format!("{cut}…") } else { cut };
    cut.replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_stay_on_one_line_and_escape_pipes() {
        assert_eq!(cell("a |\n b"), "a \\| b");
        let long = "x".repeat(200);
        assert_eq!(cell(&long).chars().count(), REASON_CHARS + 1);
    }
}
