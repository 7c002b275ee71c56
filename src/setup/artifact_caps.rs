//! Bounds on what a run writes. The artifacts that repeat a diff or list its lines — a recipe's
//! diff, a markdown report — are cut at [`MAX_ARTIFACT_BYTES`] each, and all of them in one run
//! together at [`MAX_RUN_BYTES`] (past it, each is only a note), so that no PR makes a run write
//! hundreds of MB. A cut file says so where a reader looks first: a diff in `#` lines before its
//! first section (which diff readers and `git apply` skip), a markdown report in its last
//! paragraph. The stats files list at most [`MAX_LISTED_LINES`] lines per list; their counts stay
//! whole. `pr.diff` is not cut: the PR's diff is bounded before it is written
//! (`diff::bounds`).

use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Largest diff or markdown report written whole.
pub(crate) const MAX_ARTIFACT_BYTES: usize = 4 << 20;
/// All the diffs and markdown reports of one run together.
pub(crate) const MAX_RUN_BYTES: usize = 32 << 20;
/// Lines listed per list of a stats file (false positives, false negatives, …).
pub(crate) const MAX_LISTED_LINES: usize = 2_000;

/// What a run has written of its capped artifacts so far; shared by every writer of the run
/// (validation threads too).
#[derive(Debug, Default)]
pub(crate) struct Ledger {
    written: AtomicUsize,
}

impl Ledger {
    /// `text` as `name` may hold it: whole, or cut at a line (a diff: at a file section when one
    /// ends in the room left) with a note. Only `.diff` and `.md` files are capped.
    pub(crate) fn fit<'a>(&self, name: &str, text: &'a str) -> Cow<'a, str> {
        let kind = match name.rsplit('.').next() {
            Some("diff") => Kind::Diff,
            Some("md") => Kind::Markdown,
            _ => return Cow::Borrowed(text),
        };
        let want = text.len().min(MAX_ARTIFACT_BYTES);
        let before = self.written.fetch_add(want, Ordering::SeqCst);
        let room = want.min(MAX_RUN_BYTES.saturating_sub(before));
        if room == text.len() {
            return Cow::Borrowed(text);
        }
        let kept = cut(text, room, kind);
        let note = note(kept.len(), text.len(), room < want);
        Cow::Owned(match kind {
            Kind::Diff => format!("# {note}\n{kept}"),
            Kind::Markdown => format!("{kept}\n\n> **Cut here.** {note}\n"),
        })
    }

    /// Bytes of capped artifacts written so far.
    #[cfg(test)]
    pub(crate) fn written(&self) -> usize {
        self.written.load(Ordering::SeqCst)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Diff,
    Markdown,
}

/// The longest start of `text` within `room` bytes that ends a line (a diff: that ends a file
/// section, when one does).
fn cut(text: &str, room: usize, kind: Kind) -> &str {
    let bytes = &text.as_bytes()[..room.min(text.len())];
    let line_end = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let end = match kind {
        Kind::Diff => text[..line_end].rfind("\ndiff --git ").map_or(line_end, |i| i + 1),
        Kind::Markdown => line_end,
    };
    &text[..end]
}

fn note(kept: usize, whole: usize, run_full: bool) -> String {
    let mib = |n: usize| n as f64 / f64::from(1 << 20);
    let why = if run_full {
        "this run's diffs and reports reached 32 MiB together"
    } else {
        "a diff or report is written up to 4 MiB"
    };
    format!(
        "rewrite-assist cut this file: {:.1} MiB of {:.1} MiB kept ({why}); the stats and the summary count every line.",
        mib(kept),
        mib(whole)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(path: &str, lines: usize) -> String {
        let body: String = (0..lines).map(|i| format!("+line {i:08}\n")).collect();
        format!("diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -0,0 +1,{lines} @@\n{body}")
    }

    #[test]
    fn a_diff_over_the_cap_is_cut_at_a_file_section_with_a_note_first() {
        let ledger = Ledger::default();
        let small = section("a.txt", 3);
        assert_eq!(ledger.fit("option-1-recipe.diff", &small), small, "under the cap: whole");
        let big = format!("{small}{}", section("big.txt", 400_000));
        let fitted = ledger.fit("option-2-recipe.diff", &big);
        assert!(
            fitted.starts_with("# rewrite-assist cut this file: 0.0 MiB of 5.7 MiB kept"),
            "{fitted:.200}"
        );
        assert!(fitted.contains("(a diff or report is written up to 4 MiB)"));
        assert_eq!(fitted.lines().skip(1).collect::<Vec<_>>().join("\n") + "\n", small, "the whole sections");
        // The cut diff still reads as a diff, of the sections kept.
        assert_eq!(crate::diff::parse(&fitted).unwrap(), crate::diff::parse(&small).unwrap());
        // A single section over the cap is cut at a line.
        let one = section("big.txt", 400_000);
        let fitted = Ledger::default().fit("x.diff", &one);
        assert!(fitted.len() <= MAX_ARTIFACT_BYTES + 200 && fitted.ends_with('\n'));
        // Other files are never cut.
        assert_eq!(ledger.fit("option-2-stats.json", &big).len(), big.len());
    }

    #[test]
    fn past_the_run_total_reports_are_only_the_note() {
        let ledger = Ledger::default();
        let report = "| a | b |\n".repeat(MAX_ARTIFACT_BYTES / 10 + 1);
        for _ in 0..MAX_RUN_BYTES / MAX_ARTIFACT_BYTES {
            let fitted = ledger.fit("option-1-validation-analysis.md", &report);
            assert!(fitted.contains("> **Cut here.**") && fitted.len() <= MAX_ARTIFACT_BYTES + 300);
        }
        assert_eq!(ledger.written(), MAX_RUN_BYTES);
        let fitted = ledger.fit("option-3-validation-analysis.md", &report);
        assert!(fitted.starts_with("\n\n> **Cut here.** rewrite-assist cut this file: 0.0 MiB"), "{fitted}");
        assert!(fitted.contains("reached 32 MiB together"));
    }
}
