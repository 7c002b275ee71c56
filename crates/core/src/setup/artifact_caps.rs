//! Bounds on what a run writes. The artifacts that repeat a diff or list its lines — a recipe's
//! diff, a markdown report — are cut at [`MAX_ARTIFACT_BYTES`] each, and all of them in one run
//! together at [`MAX_RUN_BYTES`] (past it, each is only a note), so that no PR makes a run write
//! hundreds of MB. A cut file says so where a reader looks first: a diff in `#` lines before its
//! first section (which diff readers and `git apply` skip), a markdown report in its last
//! paragraph. OpenRewrite's data tables (`.csv`) have the same caps, with a total of their own so
//! that they never crowd out the diffs and reports; one is cut at a record and says so in a `#`
//! line first (the comment lines OpenRewrite's own CSV files start with). The stats files list at
//! most [`MAX_LISTED_LINES`] lines per list; their counts stay whole. `pr.diff` is not cut: the
//! PR's diff is bounded before it is written (`diff::bounds`).

use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Largest diff, markdown report or data table written whole.
pub const MAX_ARTIFACT_BYTES: usize = 4 << 20;
/// All the diffs and markdown reports of one run together (and, apart, all its data tables).
pub(crate) const MAX_RUN_BYTES: usize = 32 << 20;
/// Lines listed per list of a stats file (false positives, false negatives, …).
pub const MAX_LISTED_LINES: usize = 2_000;

/// What a run has written of its capped artifacts so far; shared by every writer of the run
/// (validation threads too).
#[derive(Debug, Default)]
pub struct Ledger {
    written: AtomicUsize,
    /// The data tables' bytes, counted apart.
    tables: AtomicUsize,
}

impl Ledger {
    /// `text` as `name` may hold it: whole, or cut at a line (a diff: at a file section when one
    /// ends in the room left; a data table: at a record) with a note. Only `.diff`, `.md` and
    /// `.csv` files are capped.
    pub fn fit<'a>(&self, name: &str, text: &'a str) -> Cow<'a, str> {
        self.fit_start(name, text, text.len())
    }

    /// [`Ledger::fit`] for a file of `whole` bytes of which `start` is the beginning, read up to
    /// at least [`MAX_ARTIFACT_BYTES`] (or whole): a large file is never read whole to be cut.
    pub fn fit_start<'a>(&self, name: &str, start: &'a str, whole: usize) -> Cow<'a, str> {
        let kind = match name.rsplit('.').next() {
            Some("diff") => Kind::Diff,
            Some("md") => Kind::Markdown,
            Some("csv") => Kind::Table,
            _ => return Cow::Borrowed(start),
        };
        let want = whole.min(MAX_ARTIFACT_BYTES);
        let counter = if kind == Kind::Table { &self.tables } else { &self.written };
        let before = counter.fetch_add(want, Ordering::SeqCst);
        let room = want.min(MAX_RUN_BYTES.saturating_sub(before));
        if room == whole && start.len() == whole {
            return Cow::Borrowed(start);
        }
        let kept = cut(start, room, kind);
        let note = note(kept.len(), whole, room < want, kind);
        Cow::Owned(match kind {
            Kind::Diff | Kind::Table => format!("# {note}\n{kept}"),
            Kind::Markdown => format!("{kept}\n\n> **Cut here.** {note}\n"),
        })
    }

    /// Bytes of capped artifacts written so far.
    #[cfg(any(test, feature = "test-support"))]
    pub fn written(&self) -> usize {
        self.written.load(Ordering::SeqCst)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Diff,
    Markdown,
    Table,
}

/// The longest start of `text` within `room` bytes that ends a line (a diff: that ends a file
/// section, when one does; a data table: that ends a record, whose quoted values may span lines).
fn cut(text: &str, room: usize, kind: Kind) -> &str {
    let bytes = &text.as_bytes()[..room.min(text.len())];
    let line_end = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let end = match kind {
        Kind::Diff => text[..line_end].rfind("\ndiff --git ").map_or(line_end, |i| i + 1),
        Kind::Markdown => line_end,
        Kind::Table => record_end(&bytes[..line_end]),
    };
    &text[..end]
}

/// Where the last whole CSV record of `bytes` (which end a line) ends.
fn record_end(bytes: &[u8]) -> usize {
    let mut reader =
        csv::ReaderBuilder::new().has_headers(false).flexible(true).comment(Some(b'#')).from_reader(bytes);
    let mut record = csv::ByteRecord::new();
    let mut end = 0;
    while let Ok(true) = reader.read_byte_record(&mut record) {
        let at = reader.position().byte() as usize;
        // A record cut inside a quoted value still reads as one at the end: only one that its
        // line end closed counts.
        if at <= bytes.len() && at > 0 && bytes[at - 1] == b'\n' {
            end = at;
        }
    }
    end
}

fn note(kept: usize, whole: usize, run_full: bool, kind: Kind) -> String {
    let mib = |n: usize| n as f64 / f64::from(1 << 20);
    let why = match (run_full, kind) {
        (true, Kind::Table) => "this run's data tables reached 32 MiB together",
        (true, _) => "this run's diffs and reports reached 32 MiB together",
        (false, Kind::Table) => "a data table is written up to 4 MiB",
        (false, _) => "a diff or report is written up to 4 MiB",
    };
    let counted = match kind {
        Kind::Table => "the rows after the cut are not kept",
        _ => "the stats and the summary count every line",
    };
    format!(
        "rewrite-assist cut this file: {:.1} MiB of {:.1} MiB kept ({why}); {counted}.",
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

    #[test]
    fn a_data_table_over_the_cap_is_cut_at_a_record_and_counted_apart() {
        let ledger = Ledger::default();
        // A quoted value spanning lines: never cut inside it.
        let row = "src/A.java,R,\"java.lang.IllegalStateException: boom\n\tat a.B.c(B.java:1)\"\n";
        let table = format!(
            "# @name org.openrewrite.table.SourcesFileErrors\nsourcePath,recipe,stackTrace\n{}",
            row.repeat(MAX_ARTIFACT_BYTES / row.len() + 10)
        );
        let fitted = ledger.fit("org.openrewrite.table.SourcesFileErrors.csv", &table);
        assert!(fitted.starts_with("# rewrite-assist cut this file: 4.0 MiB of 4.0 MiB kept (a data table is written up to 4 MiB)"), "{:.200}", fitted);
        assert!(fitted.len() <= MAX_ARTIFACT_BYTES + 300 && fitted.ends_with("B.java:1)\"\n"));
        let rows =
            csv::ReaderBuilder::new().comment(Some(b'#')).from_reader(fitted.as_bytes()).records().count();
        assert!(rows > 1000 && fitted.matches(&row[..10]).count() == rows, "whole records only");
        assert_eq!(ledger.written(), 0, "tables do not crowd out the diffs and reports");
        // Read from its start only, a large table still says how large it was.
        let start = &table[..MAX_ARTIFACT_BYTES + 1];
        let fitted = Ledger::default().fit_start("t.csv", start, 40 << 20);
        assert!(fitted.contains("MiB of 40.0 MiB kept"), "{:.200}", fitted);
        assert_eq!(Ledger::default().fit("small.csv", row), row);
    }
}
