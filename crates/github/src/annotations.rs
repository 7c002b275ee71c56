//! Workflow-command annotations on the PR's files: a `::notice` on each of the largest stretches of
//! the PR's changed lines that the recommended recipe did not make (its false negatives), so a
//! reviewer sees in "Files changed" what is left to do by hand. At most [`MAX_NOTICES`], on the
//! PR's head lines, with repository paths (the PR's diff names files from the repository's root,
//! also with a `working-directory`).

use std::fmt;
use std::path::Path;

use serde::Deserialize;

use crate::diff::{ChangeKind, Diff, FileDiff, LineKind};
use crate::model::{ChangeLine, OptionId, PrKind, RunSummary};

/// Notices per run: GitHub shows only so many per step, and a long list says no more than the
/// results comment does.
pub(crate) const MAX_NOTICES: usize = 10;
/// Lines quoted in one notice.
const QUOTED_LINES: usize = 5;

/// One `::notice` workflow command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Notice {
    /// The repository path of the PR's head file.
    pub file: String,
    pub line: u32,
    pub end_line: u32,
    pub title: String,
    pub message: String,
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "::notice file={},line={}", escape_property(&self.file), self.line)?;
        if self.end_line > self.line {
            write!(f, ",endLine={}", self.end_line)?;
        }
        write!(f, ",title={}::{}", escape_property(&self.title), escape_data(&self.message))
    }
}

/// A workflow command's message: the runner reads `%`, CR and LF back from these escapes (a raw
/// newline would end the command).
pub(crate) fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property value: also `:` and `,`, which would end it.
pub(crate) fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// What of an option's `stats.json` the notices read.
#[derive(Deserialize)]
struct Stats {
    metrics: Missed,
}

#[derive(Deserialize)]
struct Missed {
    #[serde(default)]
    false_negative_lines: Vec<ChangeLine>,
}

/// The notices of the analysis in `summary`: its recommended option's false negatives, read from
/// the run directory (`option-N-stats.json`, `pr.diff`). None for an ordinary PR (no recipe is
/// meant to make it), without a recommendation, or when those files cannot be read.
pub(crate) fn of_run(summary: &RunSummary) -> Vec<Notice> {
    if summary.pr_kind == PrKind::Ordinary {
        return Vec::new();
    }
    let Some(recommended) = &summary.recommended else { return Vec::new() };
    let dir = Path::new(&summary.artifacts_dir);
    let stats = dir.join(crate::pipeline::artifacts::option_file_name(recommended.option, "stats.json"));
    let read = || -> anyhow::Result<(Vec<ChangeLine>, Diff)> {
        let stats: Stats = serde_json::from_str(&std::fs::read_to_string(&stats)?)?;
        let pr = crate::diff::read_file(&dir.join(crate::pipeline::artifacts::PR_DIFF))?;
        Ok((stats.metrics.false_negative_lines, pr))
    };
    match read() {
        Ok((missed, pr)) => notices(recommended.option, &missed, &pr),
        Err(e) => {
            tracing::warn!("no annotations of the lines left to do: {}", crate::error::one_line(&e));
            Vec::new()
        }
    }
}

/// The notices for the `missed` lines of `pr`: neighbouring lines of one file make one notice,
/// the largest first (ties in the diff's order), at most [`MAX_NOTICES`].
pub(crate) fn notices(option: OptionId, missed: &[ChangeLine], pr: &Diff) -> Vec<Notice> {
    let mut stretches: Vec<(String, u32, u32, Vec<&ChangeLine>)> = Vec::new();
    for line in missed {
        let Some((file, at)) = head_position(line, pr) else { continue };
        match stretches.last_mut() {
            Some((f, start, end, lines)) if *f == file && at + 1 >= *start && at <= *end + 1 => {
                (*start, *end) = ((*start).min(at), (*end).max(at));
                lines.push(line);
            }
            _ => stretches.push((file, at, at, vec![line])),
        }
    }
    stretches.sort_by_key(|(_, _, _, lines)| std::cmp::Reverse(lines.len()));
    stretches
        .into_iter()
        .take(MAX_NOTICES)
        .map(|(file, line, end_line, lines)| Notice {
            file,
            line,
            end_line,
            title: format!("Not made by the recipe (option {option})"),
            message: message(option, &lines),
        })
        .collect()
}

/// `The recommended recipe (option 2) does not make 3 changed lines here:` and the first lines.
fn message(option: OptionId, lines: &[&ChangeLine]) -> String {
    let count = lines.len();
    let mut text = format!(
        "The recommended recipe (option {option}) does not make {count} changed line{} of this PR here:",
        crate::model::plural(count)
    );
    for line in lines.iter().take(QUOTED_LINES) {
        text.push_str(&format!("\n{}{}", line.kind.sign(), line.content));
    }
    if count > QUOTED_LINES {
        text.push_str(&format!("\n… and {} more", count - QUOTED_LINES));
    }
    text
}

/// Where a missed line is in the PR's head file: an added line where it is; a removed line where
/// the head goes on after it (the head has no such line). None for a deleted file's lines.
fn head_position(line: &ChangeLine, pr: &Diff) -> Option<(String, u32)> {
    if line.kind == ChangeKind::Added {
        return Some((line.path.clone(), line.line));
    }
    let file = pr.files.iter().find(|f| f.old_path.as_deref() == Some(line.path.as_str()))?;
    let head = file.new_path.clone()?;
    removed_at(file, line.line).map(|at| (head, at))
}

/// The head line that follows the removal of old line `old` in `file`.
fn removed_at(file: &FileDiff, old: u32) -> Option<u32> {
    for hunk in &file.hunks {
        let mut next = hunk.new_start.max(1);
        for l in &hunk.lines {
            match l.kind {
                LineKind::Removed if l.old_line == Some(old) => {
                    let last = (hunk.new_start + hunk.new_len).saturating_sub(1).max(1);
                    return Some(next.min(last));
                }
                LineKind::Removed => {}
                LineKind::Added | LineKind::Context => next = l.new_line.map_or(next, |n| n + 1),
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const PR: &str = "diff --git a/src/Order.java b/src/Order.java\n--- a/src/Order.java\n+++ b/src/Order.java\n@@ -1,5 +1,5 @@\n package a;\n \n-import java.math.BigDecimal;\n import jakarta.persistence.Entity;\n+import java.math.BigDecimal;\n class Order {}\ndiff --git a/old.txt b/old.txt\ndeleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\ndiff --git a/docs/a,b: 100%.md b/docs/a,b: 100%.md\n--- a/docs/a,b: 100%.md\n+++ b/docs/a,b: 100%.md\n@@ -1,2 +1,2 @@\n-50% done\n+100% done\n end\n";

    fn missed(pr: &Diff) -> Vec<ChangeLine> {
        pr.changes()
            .map(|c| ChangeLine {
                path: c.path.into(),
                kind: c.kind,
                line: c.line,
                content: c.content.into(),
            })
            .collect()
    }

    #[test]
    fn missed_lines_become_notices_on_the_heads_lines_largest_first() {
        let pr = crate::diff::parse(PR).unwrap();
        let notices = notices(OptionId::Narrow, &missed(&pr), &pr);
        // The moved import: removed at old line 3 (where head line 3 now is), added at head line 4.
        assert_eq!(
            (notices[0].file.as_str(), notices[0].line, notices[0].end_line),
            ("src/Order.java", 3, 4)
        );
        assert!(
            notices[0]
                .message
                .ends_with("of this PR here:\n-import java.math.BigDecimal;\n+import java.math.BigDecimal;")
        );
        // The deleted file has no head line to point at.
        assert_eq!(notices.len(), 2, "{notices:#?}");
        assert_eq!(
            notices[1].to_string(),
            "::notice file=docs/a%2Cb%3A 100%25.md,line=1,title=Not made by the recipe (option 2)::The recommended recipe (option 2) does not make 2 changed lines of this PR here:%0A-50%25 done%0A+100%25 done"
        );
    }

    #[test]
    fn at_most_ten_notices_and_five_quoted_lines_each() {
        let lines: Vec<ChangeLine> = (0..30)
            .map(|i| ChangeLine {
                path: format!("f{}.txt", i % 12),
                kind: ChangeKind::Added,
                line: 1 + i / 12,
                content: format!("line {i}"),
            })
            .collect();
        let mut sorted = lines.clone();
        sorted.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
        let notices = notices(OptionId::Synthesized, &sorted, &Diff::default());
        assert_eq!(notices.len(), MAX_NOTICES);
        assert_eq!((notices[0].line, notices[0].end_line), (1, 3), "three lines of f0.txt together first");
        let long: Vec<ChangeLine> = (1..=8)
            .map(|n| ChangeLine { path: "a".into(), kind: ChangeKind::Added, line: n, content: "x".into() })
            .collect();
        let one = &super::notices(OptionId::Wide, &long, &Diff::default())[0];
        assert!(one.message.ends_with("\n+x\n… and 3 more"), "{}", one.message);
        assert_eq!(escape_data("a\r\nb"), "a%0D%0Ab");
    }
}
