//! Learned templates (#39): where an option still writes Java lines as plain text, the PR's own
//! edits of those lines are the examples the runner learns Refaster templates from
//! (`learn_templates`, docs/embedded-runner.md). This module says which edits those are and
//! what step a learned recipe becomes; the runner anti-unifies, compiles and checks.

pub(crate) mod gradle;
mod readme;

pub(crate) use readme::readme;

use crate::diff::{ChangeKind, Diff, LineKind};
use crate::model::{ChangeLine, PlannedStep};
use crate::openrewrite::RecipeStep;
use crate::validation::embedded::protocol::TemplateEdit;

/// The package and class of the generated template source.
pub(crate) const PACKAGE: &str = "rewriteassist.learned";
/// The class holding every learned template (each a nested class).
pub(crate) const CLASS: &str = "LearnedTemplates";
/// The recipe jar's group and artifact.
pub(crate) const GROUP_AND_ARTIFACT: &str = "rewriteassist.learned:learned-recipes";

/// The recipe jar's coordinates for the PR whose head commit is `head` (the plugins find it under
/// them once installed): its version names that commit, so the jars of two PRs installed in one
/// local repository do not replace each other, and the same PR gives the same coordinates.
pub(crate) fn coordinates(head: &str) -> String {
    let head: String = head.chars().filter(char::is_ascii_hexdigit).take(12).collect();
    if head.is_empty() {
        format!("{GROUP_AND_ARTIFACT}:1.0.0")
    } else {
        format!("{GROUP_AND_ARTIFACT}:1.0.0-{head}")
    }
}
/// How many times the PR must make one edit for it to become a template.
pub(crate) const MIN_OCCURRENCES: usize = 2;

/// The PR's edits in Java files, one per run of changed lines of a hunk that replaces base lines
/// and that `is_text` says at least one line of is plain-text work: the examples a template may be
/// learned from. New files and pure insertions have no base lines to learn from and are left out.
pub(crate) fn edits(pr: &Diff, is_text: impl Fn(&ChangeLine) -> bool) -> Vec<TemplateEdit> {
    let mut edits = Vec::new();
    for file in &pr.files {
        let (Some(old), Some(new)) = (&file.old_path, &file.new_path) else { continue };
        if !old.ends_with(".java") || old != new {
            continue;
        }
        for hunk in &file.hunks {
            let mut block: Vec<&crate::diff::HunkLine> = Vec::new();
            // The old line the next change would start at: after the last context line.
            let mut next_old = hunk.old_start as usize;
            let mut start = next_old;
            for line in hunk.lines.iter().chain(std::iter::once(&CONTEXT_END)) {
                if line.kind == LineKind::Context {
                    if !block.is_empty() {
                        edits.extend(edit(old, start, &block, &is_text));
                        block.clear();
                    }
                    next_old = line.old_line.map(|l| l as usize + 1).unwrap_or(next_old);
                    start = next_old;
                    continue;
                }
                if block.is_empty() {
                    start = next_old;
                }
                if let Some(l) = line.old_line {
                    next_old = l as usize + 1;
                }
                block.push(line);
            }
        }
    }
    edits
}

/// Ends a hunk's last block of changes.
const CONTEXT_END: crate::diff::HunkLine = crate::diff::HunkLine {
    kind: LineKind::Context,
    content: String::new(),
    old_line: None,
    new_line: None,
    no_newline: false,
};

/// One block of changed lines as an edit, when a line of it is text work.
fn edit(
    path: &str,
    start: usize,
    block: &[&crate::diff::HunkLine],
    is_text: impl Fn(&ChangeLine) -> bool,
) -> Option<TemplateEdit> {
    let as_change = |l: &crate::diff::HunkLine| ChangeLine {
        path: path.to_string(),
        kind: if l.kind == LineKind::Added { ChangeKind::Added } else { ChangeKind::Removed },
        line: l.old_line.or(l.new_line).unwrap_or_default(),
        content: l.content.clone(),
    };
    // Imports follow what a recipe rewrites; they are no example of a rewrite themselves.
    let import = |l: &&crate::diff::HunkLine| {
        let line = l.content.trim();
        line.is_empty() || line.starts_with("import ") || line.starts_with("package ")
    };
    if block.iter().all(import) || !block.iter().any(|l| is_text(&as_change(l))) {
        return None;
    }
    let removed = block.iter().filter(|l| l.kind == LineKind::Removed).count();
    if removed == 0 {
        // A pure insertion rewrote nothing of the base: no example of a rewrite.
        return None;
    }
    let after: String =
        block.iter().filter(|l| l.kind == LineKind::Added).map(|l| format!("{}\n", l.content)).collect();
    Some(TemplateEdit { path: path.to_string(), before_start: start, before_end: start + removed - 1, after })
}

/// The step that runs every template learned from the PR (`recipe`, the jar's aggregate recipe),
/// for `intents`: the intents of the text steps whose lines it writes.
pub(crate) fn learned_step(recipe: &str, templates: usize, intents: Vec<String>) -> PlannedStep {
    let mut step = PlannedStep::new(
        RecipeStep::new(recipe),
        true,
        intents,
        format!(
            "{templates} Refaster template{} learned from the PR's repeated edits (see learned/)",
            if templates == 1 { "" } else { "s" }
        ),
    );
    step.learned = true;
    step
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pr(text: &str) -> Diff {
        crate::diff::parse(text).unwrap()
    }

    #[test]
    fn each_block_of_changed_lines_is_an_edit_with_its_base_lines() {
        let diff = pr("diff --git a/src/A.java b/src/A.java\n--- a/src/A.java\n+++ b/src/A.java\n\
            @@ -10,7 +10,7 @@\n ctx\n-    assertThat(a, is(b));\n+    assertThat(a).isEqualTo(b);\n ctx\n ctx\n\
            -    assertThat(c, is(d));\n-    x();\n+    assertThat(c).isEqualTo(d);\n ctx\n\
            diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-a\n+b\n");
        let edits = edits(&diff, |_| true);
        assert_eq!(
            edits,
            vec![
                TemplateEdit {
                    path: "src/A.java".into(),
                    before_start: 11,
                    before_end: 11,
                    after: "    assertThat(a).isEqualTo(b);\n".into()
                },
                TemplateEdit {
                    path: "src/A.java".into(),
                    before_start: 14,
                    before_end: 15,
                    after: "    assertThat(c).isEqualTo(d);\n".into()
                },
            ]
        );
    }

    #[test]
    fn only_blocks_with_text_work_and_no_pure_insertion() {
        let diff = pr("diff --git a/src/A.java b/src/A.java\n--- a/src/A.java\n+++ b/src/A.java\n\
            @@ -1,3 +1,4 @@\n a\n+x();\n b\n-c();\n+d();\n");
        let all = edits(&diff, |_| true);
        assert_eq!(all.len(), 1);
        assert_eq!((all[0].before_start, all[0].before_end), (3, 3));
        // A file that was empty: its only hunk inserts.
        let empty = pr("diff --git a/src/B.java b/src/B.java\n--- a/src/B.java\n+++ b/src/B.java\n\
            @@ -0,0 +1 @@\n+class B {}\n");
        assert!(edits(&empty, |_| true).is_empty());
        let text_only = edits(&diff, |l| l.content.contains('d'));
        assert_eq!(text_only.len(), 1);
        assert_eq!(text_only[0].after, "d();\n");
    }

    #[test]
    fn the_jars_version_names_the_prs_head_commit() {
        assert_eq!(
            coordinates("0123456789abcdef0123456789abcdef01234567"),
            "rewriteassist.learned:learned-recipes:1.0.0-0123456789ab"
        );
        assert_eq!(coordinates(""), "rewriteassist.learned:learned-recipes:1.0.0");
    }

    #[test]
    fn blocks_of_imports_only_are_no_examples() {
        let diff = pr("diff --git a/src/A.java b/src/A.java\n--- a/src/A.java\n+++ b/src/A.java\n\
            @@ -1,4 +1,4 @@\n package a;\n-import static x.Y.is;\n+import x.Z;\n \n-a(b, is(c));\n+a(b).is(c);\n");
        let edits = edits(&diff, |_| true);
        assert_eq!(edits.len(), 1);
        assert_eq!(edits[0].after, "a(b).is(c);\n");
    }
}
