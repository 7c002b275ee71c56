//! `intent-tree.md`: the tree as a nested list, like a reviewer's summary of the PR.

use std::fmt::Write;

use crate::model::intent::Node;
use crate::model::{Intent, IntentTree};

/// Unexplained lines listed in full up to this many; the JSON always has them all.
const UNEXPLAINED_SHOWN: usize = 100;

/// `intent-tree.md`: the strategic, tactical and atomic intents as a nested list, then the lines no
/// intent explains.
pub fn render_markdown(tree: &IntentTree) -> String {
    let mut out = String::from("# Intent tree\n\n");
    let unexplained = tree.unexplained.len();
    let _ = writeln!(
        out,
        "**Coverage {:.1}%**: {} of {} changed lines explained, {unexplained} unexplained.",
        tree.coverage * 100.0,
        tree.claimed_lines,
        tree.changed_lines
    );
    if !tree.labels.is_empty() {
        let labels: Vec<String> = tree.labels.iter().map(|(label, n)| format!("{n} {label}")).collect();
        let _ = writeln!(out, "Non-semantic lines: {}.", labels.join(", "));
    }
    out.push('\n');
    if tree.intents.is_empty() {
        out.push_str("No intents found.\n");
    }
    for intent in &tree.intents {
        node(&mut out, intent, 0);
    }
    if unexplained > 0 {
        let _ = writeln!(out, "\n## Unexplained lines ({unexplained})\n");
        for line in tree.unexplained.iter().take(UNEXPLAINED_SHOWN) {
            let _ = writeln!(out, "- {}", code(&line.display()));
        }
        if unexplained > UNEXPLAINED_SHOWN {
            let _ = writeln!(out, "- … and {} more (see intent-tree.json)", unexplained - UNEXPLAINED_SHOWN);
        }
    }
    let (too_large, unreproducible): (Vec<_>, Vec<_>) =
        tree.unreproducible.iter().partition(|f| f.reason == crate::diff::Unreproducible::TooLarge);
    files_section(&mut out, "Changes no recipe can make", &unreproducible);
    files_section(&mut out, "Files left out: too large to analyze", &too_large);
    if !tree.binary_files.is_empty() {
        let _ = writeln!(out, "\n## Binary files ({})\n", tree.binary_files.len());
        for file in &tree.binary_files {
            let _ = writeln!(out, "- {}", code(file));
        }
    }
    out
}

/// A `## title (n)` list of files left out, each with its lines and why.
fn files_section(out: &mut String, title: &str, files: &[&crate::model::intent::UnreproducibleFile]) {
    if files.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n## {title} ({})\n", files.len());
    for file in files {
        let (lines, s) = (file.lines, crate::model::plural(file.lines));
        let _ = writeln!(out, "- {} ({lines} line{s}): {}", code(&file.path), file.reason.describe());
    }
}

fn node(out: &mut String, intent: &Intent, depth: usize) {
    let indent = "  ".repeat(depth);
    match &intent.node {
        Node::Atomic { files, .. } => {
            let lines = intent.evidence.len();
            let files = files.as_ref().map(Vec::len).unwrap_or(0);
            let mut facts = vec![code(intent.kind())];
            if files > 1 {
                facts.push(format!("{files} files"));
            }
            facts.push(format!("{lines} line{}", if lines == 1 { "" } else { "s" }));
            let _ = writeln!(out, "{indent}- {} {} ({})", intent.id, intent.title, facts.join(", "));
        }
        _ => {
            let _ = writeln!(out, "{indent}- **{} {}** ({})", intent.id, intent.title, code(intent.kind()));
        }
    }
    for child in &intent.children {
        node(out, child, depth + 1);
    }
}

/// An inline code span that survives backticks in the text.
fn code(text: &str) -> String {
    if text.contains('`') { format!("`` {text} ``") } else { format!("`{text}`") }
}
