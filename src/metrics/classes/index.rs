//! Where each changed line of a diff sits: its hunk, and the base lines that hunk replaces.

use std::collections::{BTreeSet, HashMap};

use crate::diff::{ChangeKind, Diff, LineKind};
use crate::model::ChangeLine;

/// One hunk: its file, the base line numbers it removes, and its lines.
pub(crate) struct HunkInfo<'a> {
    pub path: &'a str,
    pub removed: BTreeSet<u32>,
    pub lines: &'a [crate::diff::HunkLine],
}

/// The hunks of a diff, and for each changed line (path, kind, line number) its hunk.
pub(crate) struct Index<'a> {
    pub hunks: Vec<HunkInfo<'a>>,
    by_line: HashMap<(String, ChangeKind, u32), usize>,
}

impl<'a> Index<'a> {
    pub(crate) fn of(diff: &'a Diff) -> Index<'a> {
        let mut hunks = Vec::new();
        let mut by_line = HashMap::new();
        for file in &diff.files {
            for hunk in &file.hunks {
                let id = hunks.len();
                let mut removed = BTreeSet::new();
                for line in &hunk.lines {
                    match line.kind {
                        LineKind::Removed => {
                            let number = line.old_line.unwrap_or(0);
                            removed.insert(number);
                            let path = file.old_path.as_deref().unwrap_or_else(|| file.path());
                            by_line.insert((path.to_string(), ChangeKind::Removed, number), id);
                        }
                        LineKind::Added => {
                            let path = file.new_path.as_deref().unwrap_or_else(|| file.path());
                            by_line.insert(
                                (path.to_string(), ChangeKind::Added, line.new_line.unwrap_or(0)),
                                id,
                            );
                        }
                        LineKind::Context => {}
                    }
                }
                hunks.push(HunkInfo { path: file.path(), removed, lines: &hunk.lines });
            }
        }
        Index { hunks, by_line }
    }

    /// The hunk a changed line is in.
    pub(crate) fn hunk_of(&self, line: &ChangeLine) -> Option<usize> {
        self.by_line.get(&(line.path.clone(), line.kind, line.line)).copied()
    }
}
