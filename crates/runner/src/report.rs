//! `option-N-validation-analysis.md`: what a recipe run did, in a reviewer's words.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::model::{ChangeLine, ValidationStats};

/// Lines of each FP/FN list shown before the rest is summarised.
const LINES_SHOWN: usize = 40;

/// Renders the analysis; `notes` are extra bullet points (retries, dropped recipes).
pub fn render_markdown(title: &str, stats: &ValidationStats, notes: &[String]) -> String {
    let m = &stats.metrics;
    let mut out = String::new();
    let _ = writeln!(out, "# {title}\n");
    let _ = writeln!(out, "Recipe `{}`", stats.recipe_name);
    if let Some(command) = &stats.command {
        let _ = writeln!(out, "\n```sh\n{command}\n```");
    }
    match &stats.error {
        Some(error) => {
            let _ = writeln!(out, "\n**The recipe could not run** ({}): {}\n", error.kind, error.detail);
            if !error.excerpt.trim().is_empty() {
                let _ = writeln!(out, "```text\n{}\n```", error.excerpt.trim_end());
            }
        }
        None => {
            let _ = writeln!(out, "\nRan in {:.1} s.", stats.timings.run_seconds);
        }
    }
    let _ = writeln!(out, "\n## Metrics\n");
    let _ = writeln!(out, "| precision | recall | F1 | TP | FP | FN | perfect match |");
    let _ = writeln!(out, "|---|---|---|---|---|---|---|");
    let _ = writeln!(
        out,
        "| {:.4} | {:.4} | {:.4} | {} | {} | {} | {} |",
        m.precision,
        m.recall,
        m.f1,
        m.true_positives,
        m.false_positives,
        m.false_negatives,
        if m.perfect_match { "yes" } else { "no" }
    );
    if !m.files.is_empty() {
        let _ = writeln!(out, "\n| file | TP | FP | FN |\n|---|---|---|---|");
        for (path, c) in &m.files {
            let _ = writeln!(out, "| `{path}` | {} | {} | {} |", c.tp, c.fp, c.fn_);
        }
    }
    match &stats.migration {
        Some(migration) => classes_section(&mut out, migration, m.true_positives),
        None => lines_section(
            &mut out,
            "False positives (the recipe changed, the PR did not)",
            &m.false_positive_lines,
        ),
    }
    lines_section(&mut out, "False negatives (the PR changed, the recipe did not)", &m.false_negative_lines);
    left_out_section(&mut out, &m.unreproducible_lines);
    left_out_files_section(&mut out, &m.unreproducible_files);

    if !stats.attribution.is_empty() {
        let mut by_recipe: BTreeMap<String, Vec<&str>> = BTreeMap::new();
        for row in &stats.attribution {
            let key = if row.options.is_empty() {
                row.recipe.clone()
            } else {
                format!("{} {}", row.recipe, row.options)
            };
            by_recipe.entry(key).or_default().push(&row.source_path);
        }
        let _ = writeln!(out, "\n## Attribution\n");
        for (recipe, files) in by_recipe {
            let _ = writeln!(
                out,
                "- `{recipe}`: {}",
                files.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
            );
        }
    }
    let _ = writeln!(out, "\n## Tests\n");
    let _ = writeln!(
        out,
        "{} test methods before, {} after{}.",
        stats.tests.before,
        stats.tests.after,
        if stats.tests.dropped { " — **the recipe removed tests**" } else { "" }
    );
    let all_notes: Vec<&String> = notes.iter().chain(stats.warnings.iter()).collect();
    if !all_notes.is_empty() {
        let _ = writeln!(out, "\n## Notes\n");
        for note in all_notes {
            let _ = writeln!(out, "- {note}");
        }
    }
    out
}

/// Lines of each class shown as examples.
const EXAMPLES: usize = 12;

/// The false positives by class (docs/how-it-works.md, "Migration precision"), with examples.
fn classes_section(out: &mut String, migration: &crate::model::validation::Migration, tp: usize) {
    let c = &migration.counts;
    let _ = writeln!(
        out,
        "
## Migration precision
"
    );
    let _ = writeln!(
        out,
        "**{:.4}** = TP / (TP + wrong) = {tp} / ({tp} + {}). Of the false positives, {} are layout (the PR's code laid out differently), {} variants (the PR's change in its place, written another way), {} completions (the PR's change made where the author had not) and {} wrong.",
        migration.precision, c.wrong, c.layout, c.variant, c.completion, c.wrong
    );
    let l = &migration.lines;
    by_rule(out, l);
    let lines_of = |list: &[crate::model::classes::Classified]| -> Vec<ChangeLine> {
        list.iter().map(|c| c.line.clone()).collect()
    };
    for (title, lines) in [
        ("Wrong (they count against the recipe)", &l.wrong),
        ("Layout", &lines_of(&l.layout)),
        ("Variants", &lines_of(&l.variant)),
        ("Completions", &lines_of(&l.completion)),
    ] {
        if !lines.is_empty() {
            let shown: Vec<ChangeLine> = lines.iter().take(EXAMPLES).cloned().collect();
            lines_section(out, &format!("False positives: {title}"), &shown);
            if lines.len() > EXAMPLES {
                let _ = writeln!(
                    out,
                    "
… and {} more.",
                    lines.len() - EXAMPLES
                );
            }
        }
    }
}

/// How many lines each rule of the table classified, for the reviewer who asks why a line counted
/// as layout, variant or completion.
fn by_rule(out: &mut String, lines: &crate::model::classes::Classes) {
    let classified: Vec<&crate::model::classes::Classified> =
        lines.layout.iter().chain(&lines.variant).chain(&lines.completion).collect();
    if classified.is_empty() {
        return;
    }
    let _ = writeln!(out, "\nBy rule (`rule` of each line in `stats.json`):\n");
    for rule in crate::metrics::classes::rules::RULES {
        let n = classified.iter().filter(|c| c.rule == rule.name).count();
        if n > 0 {
            let _ = writeln!(out, "- `{}` ({:?}): {n} — {}", rule.name, rule.class, rule.matches);
        }
    }
}

fn lines_section(out: &mut String, title: &str, lines: &[ChangeLine]) {
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n## {title}\n\n```diff");
    let mut current = "";
    for line in lines.iter().take(LINES_SHOWN) {
        if line.path != current {
            let _ = writeln!(out, "# {}", line.path);
            current = &line.path;
        }
        let _ = writeln!(out, "{}{}", line.kind.sign(), line.content);
    }
    let _ = writeln!(out, "```");
    if lines.len() > LINES_SHOWN {
        let _ = writeln!(out, "\n… and {} more lines.", lines.len() - LINES_SHOWN);
    }
}
/// The PR's lines no recipe can make, which the metric leaves out.
fn left_out_section(out: &mut String, lines: &[crate::model::UnreproducibleLine]) {
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n## Left out of the metric ({})\n\nLines of the PR that no recipe can make, counted neither way:\n",
        lines.len()
    );
    for line in lines.iter().take(LINES_SHOWN) {
        let _ = writeln!(out, "- `{}`: {}", line.line.display(), line.reason.describe());
    }
    if lines.len() > LINES_SHOWN {
        let _ = writeln!(out, "- … and {} more (see the stats)", lines.len() - LINES_SHOWN);
    }
}

/// The PR's files left out whole (too large to analyze), which the metric leaves out too.
fn left_out_files_section(out: &mut String, files: &[crate::model::intent::UnreproducibleFile]) {
    if files.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n## Files left out of the metric ({})\n", files.len());
    for file in files {
        let _ = writeln!(out, "- `{}` ({} lines): {}", file.path, file.lines, file.reason.describe());
    }
}

/// One line on the plugin's confirmation of an embedded result.
pub fn confirmation_line(c: &crate::model::Confirmation) -> String {
    let plugin = c.backend.map(|b| b.label()).unwrap_or("plugin");
    match &c.error {
        Some(e) if e.kind == crate::model::ErrorKind::UntrustedBuild => {
            format!("confirmation with the {plugin}: skipped ({}: {})\n", e.kind, e.detail)
        }
        Some(e) => format!("confirmation with the {plugin}: impossible ({}: {})\n", e.kind, e.detail),
        None if c.confirmed => format!("confirmation with the {plugin}: the same changes (F1 {:.4})\n", c.f1),
        None => format!(
            "confirmation with the {plugin}: F1 {:.4}, {} line(s) differ from the embedded run\n",
            c.f1, c.differing_lines
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Backend, Confirmation, ErrorKind, RunError};

    #[test]
    fn a_confirmation_held_back_for_trust_says_skipped_and_why() {
        let confirmation = |kind| Confirmation {
            backend: Some(Backend::of_build_tool("gradle").unwrap()),
            confirmed: false,
            precision: 0.0,
            recall: 0.0,
            f1: 0.0,
            error: Some(RunError::new(kind, "why")),
            differing_lines: 0,
        };
        assert_eq!(
            confirmation_line(&confirmation(ErrorKind::UntrustedBuild)),
            "confirmation with the gradle-plugin: skipped (untrusted_build: why)\n"
        );
        assert_eq!(
            confirmation_line(&confirmation(ErrorKind::NoBuildTool)),
            "confirmation with the gradle-plugin: impossible (no_build_tool: why)\n"
        );
    }
}
