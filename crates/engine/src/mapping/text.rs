//! The last resort: plain-text `FindAndReplace` steps that reproduce one block of a PR's diff
//! exactly. Case-sensitive, literal, restricted to the one file, and widened with context lines
//! until the text they look for occurs exactly once in the base file.

use crate::diff::{FileDiff, LineKind};
use crate::openrewrite::RecipeStep;

use crate::openrewrite::recipe_names::{CREATE_TEXT_FILE, DELETE_SOURCE_FILES, FIND_AND_REPLACE};
use crate::openrewrite::text::glob_escape;

/// A run of changed lines between context lines, with the context around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Block {
    pub path: String,
    /// Removed lines (old file order) and their first old line number.
    pub removed: Vec<String>,
    pub added: Vec<String>,
    /// 1-based old line number where the block starts (for pure additions: where it is inserted).
    pub old_start: u32,
    /// Context lines before and after the block inside its hunk (closest last / first).
    pub before: Vec<String>,
    pub after: Vec<String>,
    /// The last line of the old (before + removed + after) / new (before + added + after) text
    /// is the file's last line and has no line ending.
    pub old_ends_without_eol: bool,
    pub new_ends_without_eol: bool,
}

impl Block {
    /// Whether this block contains the changed line `(kind, line_number)`.
    pub(crate) fn contains(&self, removed: bool, line: u32, new_start: u32) -> bool {
        if removed {
            line >= self.old_start && line < self.old_start + self.removed.len() as u32
        } else {
            line >= new_start && line < new_start + self.added.len() as u32
        }
    }
}

/// Change blocks of a file's diff, each with its first new-file line number.
pub(crate) fn blocks(file: &FileDiff) -> Vec<(Block, u32)> {
    // The recipe runs on the base commit: a renamed file still has its old path there.
    let path = file.old_path.clone().or_else(|| file.new_path.clone()).unwrap_or_default();
    let mut out = Vec::new();
    for hunk in &file.hunks {
        let lines = &hunk.lines;
        let mut i = 0;
        while i < lines.len() {
            if lines[i].kind == LineKind::Context {
                i += 1;
                continue;
            }
            let start = i;
            while i < lines.len() && lines[i].kind != LineKind::Context {
                i += 1;
            }
            let run = &lines[start..i];
            let removed: Vec<String> =
                run.iter().filter(|l| l.kind == LineKind::Removed).map(|l| l.content.clone()).collect();
            let added: Vec<String> =
                run.iter().filter(|l| l.kind == LineKind::Added).map(|l| l.content.clone()).collect();
            let before: Vec<String> = lines[..start]
                .iter()
                .rev()
                .take_while(|l| l.kind == LineKind::Context)
                .map(|l| l.content.clone())
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let after: Vec<String> = lines[i..]
                .iter()
                .take_while(|l| l.kind == LineKind::Context)
                .map(|l| l.content.clone())
                .collect();
            // Line numbers: the first old line of the run, or the old line before which lines are added.
            let old_start = run
                .iter()
                .find_map(|l| l.old_line)
                .or_else(|| lines[..start].iter().rev().find_map(|l| l.old_line).map(|n| n + 1))
                .unwrap_or(hunk.old_start.max(1));
            let new_start = run
                .iter()
                .find_map(|l| l.new_line)
                .or_else(|| lines[..start].iter().rev().find_map(|l| l.new_line).map(|n| n + 1))
                .unwrap_or(hunk.new_start.max(1));
            // Only the hunk's last run can reach the end of the file.
            let last_run = i + after.len() == lines.len();
            let ends_without_eol = |side: fn(&crate::diff::HunkLine) -> bool| {
                last_run && lines.iter().rev().find(|l| side(l)).is_some_and(|l| l.no_newline)
            };
            let old_ends_without_eol = ends_without_eol(|l| l.old_line.is_some());
            let new_ends_without_eol = ends_without_eol(|l| l.new_line.is_some());
            let block = Block {
                path: path.clone(),
                removed,
                added,
                old_start,
                before,
                after,
                old_ends_without_eol,
                new_ends_without_eol,
            };
            out.push((block, new_start));
        }
    }
    out
}

/// A `FindAndReplace` that turns the block's old text into its new text, or None when it cannot
/// be made unique in `base` (the file's content at the base commit).
pub(crate) fn find_and_replace(block: &Block, base: &str) -> Option<RecipeStep> {
    let eol = if base.contains("\r\n") { "\r\n" } else { "\n" };
    // Byte offset where each (1-based) line of the base file starts.
    let line_starts: Vec<usize> =
        std::iter::once(0).chain(base.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let join = |lines: &[String]| -> String { lines.iter().map(|l| format!("{l}{eol}")).collect() };
    // Text of lines; `ends_file` drops the line ending of the last one (the file's last line).
    let text = |parts: [&[String]; 3], ends_file: bool| -> String {
        let mut text: String = parts.iter().map(|p| join(p)).collect();
        if ends_file {
            text.truncate(text.len() - eol.len().min(text.len()));
        }
        text
    };
    // Widen with as little context as possible (preferring lines before) until the old text
    // occurs exactly once in the file.
    let (most_before, most_after) = (block.before.len(), block.after.len());
    for total in 0..=most_before + most_after {
        for taken_before in (0..=total.min(most_before)).rev() {
            let taken_after = total - taken_before;
            if taken_after > most_after {
                continue;
            }
            let before = &block.before[most_before - taken_before..];
            let after = &block.after[..taken_after];
            // All the context after is taken: the text reaches as far as the block's own end.
            let to_end = taken_after == most_after;
            let find = text([before, &block.removed, after], to_end && block.old_ends_without_eol);
            if find.is_empty() {
                continue;
            }
            // Unique, and where the block is: the same text elsewhere must not be mistaken for it.
            let first_line = (block.old_start as usize).saturating_sub(taken_before);
            let expected_at = first_line.checked_sub(1).and_then(|i| line_starts.get(i)).copied();
            let mut found = base.match_indices(find.as_str()).map(|(at, _)| at);
            if let (Some(at), None) = (found.next(), found.next())
                && Some(at) == expected_at
            {
                let replace = text([before, &block.added, after], to_end && block.new_ends_without_eol);
                return Some(step(&block.path, &find, &replace));
            }
        }
    }
    None
}

/// A file the PR adds, created with exactly its contents (from the diff's added lines).
pub(crate) fn create_file(file: &FileDiff) -> Option<RecipeStep> {
    let path = file.new_path.as_deref()?;
    let lines: Vec<&crate::diff::HunkLine> = file.hunks.iter().flat_map(|h| h.lines.iter()).collect();
    if lines.iter().any(|l| l.kind != crate::diff::LineKind::Added) {
        return None;
    }
    let mut contents: String = lines.iter().map(|l| format!("{}\n", l.content)).collect();
    if lines.last().is_some_and(|l| l.no_newline) {
        contents.pop();
    }
    Some(
        RecipeStep::new(CREATE_TEXT_FILE)
            .with("relativeFileName", path)
            .with("fileContents", contents)
            .with_bool("overwriteExisting", false),
    )
}

/// A file the PR deletes.
pub(crate) fn delete_file(path: &str) -> RecipeStep {
    RecipeStep::new(DELETE_SOURCE_FILES).with("filePattern", glob_escape(path))
}

fn step(path: &str, find: &str, replace: &str) -> RecipeStep {
    RecipeStep::new(FIND_AND_REPLACE)
        .with("find", find)
        .with("replace", replace)
        .with_bool("regex", false)
        .with_bool("caseSensitive", true)
        .with("filePattern", glob_escape(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openrewrite::recipe_yaml::OptionValue;

    fn file(text: &str) -> FileDiff {
        crate::diff::parse(text).unwrap().files.remove(0)
    }

    fn text(step: &RecipeStep, key: &str) -> String {
        match &step.options[key] {
            OptionValue::Text(t) => t.clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_edit_becomes_a_literal_case_sensitive_replacement_in_one_file() {
        let diff = file(
            "diff --git a/Dockerfile b/Dockerfile\n--- a/Dockerfile\n+++ b/Dockerfile\n@@ -1,2 +1,2 @@\n-FROM eclipse-temurin:11-jre\n+FROM eclipse-temurin:17-jre\n WORKDIR /app\n",
        );
        let blocks = blocks(&diff);
        assert_eq!(blocks.len(), 1);
        let step = find_and_replace(&blocks[0].0, "FROM eclipse-temurin:11-jre\nWORKDIR /app\n").unwrap();
        assert_eq!(step.name, FIND_AND_REPLACE);
        assert_eq!(text(&step, "find"), "FROM eclipse-temurin:11-jre\n");
        assert_eq!(text(&step, "replace"), "FROM eclipse-temurin:17-jre\n");
        assert_eq!(text(&step, "filePattern"), "Dockerfile");
        assert_eq!(step.options["caseSensitive"], OptionValue::Bool(true));
        assert_eq!(step.options["regex"], OptionValue::Bool(false));
    }

    #[test]
    fn repeated_text_is_widened_with_context_until_unique() {
        let base = "a:\n  version: 1\nb:\n  version: 1\n";
        let diff = file(
            "diff --git a/x.yml b/x.yml\n--- a/x.yml\n+++ b/x.yml\n@@ -2,3 +2,3 @@\n   version: 1\n b:\n-  version: 1\n+  version: 2\n",
        );
        let (block, new_start) = &blocks(&diff)[0];
        assert_eq!(*new_start, 4);
        assert_eq!(block.old_start, 4);
        let step = find_and_replace(block, base).unwrap();
        assert_eq!(text(&step, "find"), "b:\n  version: 1\n");
        assert_eq!(text(&step, "replace"), "b:\n  version: 2\n");
    }

    #[test]
    fn pure_additions_are_anchored_to_their_context() {
        let base = "x=1\ny=2\n";
        let diff = file(
            "diff --git a/a.properties b/a.properties\n--- a/a.properties\n+++ b/a.properties\n@@ -1,2 +1,3 @@\n x=1\n+z=3\n y=2\n",
        );
        let step = find_and_replace(&blocks(&diff)[0].0, base).unwrap();
        assert_eq!(text(&step, "find"), "x=1\n");
        assert_eq!(text(&step, "replace"), "x=1\nz=3\n");
    }

    #[test]
    fn crlf_files_keep_their_line_endings_and_ambiguity_gives_up() {
        let diff = file("diff --git a/w.txt b/w.txt\n--- a/w.txt\n+++ b/w.txt\n@@ -1 +1 @@\n-same\n+other\n");
        let step = find_and_replace(&blocks(&diff)[0].0, "same\r\nkeep\r\n").unwrap();
        assert_eq!(text(&step, "find"), "same\r\n");
        assert!(find_and_replace(&blocks(&diff)[0].0, "same\nsame\n").is_none(), "no context to widen with");
    }

    #[test]
    fn a_last_line_without_line_ending_is_replaced_without_one() {
        // The PR edits the last line, which has no line ending; the same text stands earlier,
        // so the context before makes it unique.
        let base = "same\nmiddle\nsame";
        let diff = file(
            "diff --git a/t.txt b/t.txt\n--- a/t.txt\n+++ b/t.txt\n@@ -2,2 +2,2 @@\n middle\n-same\n\\ No newline at end of file\n+other\n\\ No newline at end of file\n",
        );
        let (block, _) = &blocks(&diff)[0];
        assert_eq!(block.old_start, 3);
        assert!(block.old_ends_without_eol && block.new_ends_without_eol);
        let step = find_and_replace(block, base).unwrap();
        assert_eq!(text(&step, "find"), "middle\nsame");
        assert_eq!(text(&step, "replace"), "middle\nother");
        // Without context to widen with, the twin on line 1 leaves it ambiguous.
        let bare = file(
            "diff --git a/t.txt b/t.txt\n--- a/t.txt\n+++ b/t.txt\n@@ -3 +3 @@\n-same\n\\ No newline at end of file\n+other\n\\ No newline at end of file\n",
        );
        assert!(find_and_replace(&blocks(&bare)[0].0, base).is_none());
    }

    #[test]
    fn adding_the_missing_final_line_ending_is_reproduced() {
        let base = "a=1\nb=2";
        let diff = file(
            "diff --git a/x.properties b/x.properties\n--- a/x.properties\n+++ b/x.properties\n@@ -1,2 +1,3 @@\n a=1\n-b=2\n\\ No newline at end of file\n+b=2\n+c=3\n",
        );
        let (block, _) = &blocks(&diff)[0];
        assert!(block.old_ends_without_eol && !block.new_ends_without_eol);
        let step = find_and_replace(block, base).unwrap();
        assert_eq!(text(&step, "find"), "b=2");
        assert_eq!(text(&step, "replace"), "b=2\nc=3\n");
    }

    #[test]
    fn an_earlier_block_in_the_hunk_keeps_its_line_endings() {
        let base = "x\nk\ny";
        let diff = file(
            "diff --git a/t b/t\n--- a/t\n+++ b/t\n@@ -1,3 +1,3 @@\n-x\n+X\n k\n-y\n\\ No newline at end of file\n+Y\n\\ No newline at end of file\n",
        );
        let found = blocks(&diff);
        assert!(!found[0].0.old_ends_without_eol && found[1].0.old_ends_without_eol);
        assert_eq!(text(&find_and_replace(&found[0].0, base).unwrap(), "find"), "x\n");
        assert_eq!(text(&find_and_replace(&found[1].0, base).unwrap(), "replace"), "Y");
    }

    #[test]
    fn block_membership_by_line_number() {
        let diff = file("diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,4 +1,4 @@\n k\n-x\n-y\n+z\n k2\n");
        let (block, new_start) = &blocks(&diff)[0];
        assert!(block.contains(true, 2, *new_start) && block.contains(true, 3, *new_start));
        assert!(block.contains(false, 2, *new_start));
        assert!(!block.contains(false, 3, *new_start));
        assert_eq!(text(&find_and_replace(block, "k\nx\ny\nk2\n").unwrap(), "find"), "x\ny\n");
        assert_eq!(glob_escape("src/[id]/a*.txt"), "src/\\[id\\]/a\\*.txt");
    }

    #[test]
    fn new_files_are_created_with_their_exact_contents_and_deleted_ones_deleted() {
        let catalog = crate::catalog::Catalog::enriched();
        let added = file(
            "diff --git a/conf/app.yml b/conf/app.yml\nnew file mode 100644\n--- /dev/null\n+++ b/conf/app.yml\n@@ -0,0 +1,2 @@\n+a: 1\n+b: 2\n",
        );
        let step = create_file(&added).unwrap();
        assert_eq!(text(&step, "relativeFileName"), "conf/app.yml");
        assert_eq!(text(&step, "fileContents"), "a: 1\nb: 2\n");
        assert_eq!(crate::mapping::check_step(catalog, &step), Ok(()));
        let unterminated = file(
            "diff --git a/VERSION b/VERSION\nnew file mode 100644\n--- /dev/null\n+++ b/VERSION\n@@ -0,0 +1 @@\n+2.0\n\\ No newline at end of file\n",
        );
        assert_eq!(text(&create_file(&unterminated).unwrap(), "fileContents"), "2.0");

        let step = delete_file("old/[legacy].txt");
        assert_eq!(text(&step, "filePattern"), glob_escape("old/[legacy].txt"));
        assert_eq!(crate::mapping::check_step(catalog, &step), Ok(()));
    }
}
