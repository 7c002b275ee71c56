//! Where each changed line of a diff sits: its hunk and its change block (a run of removed and
//! added lines with no context between them), and the base lines each replaces.

use std::collections::{BTreeSet, HashMap};

use crate::diff::{ChangeKind, Diff, LineKind};
use crate::model::ChangeLine;

/// One hunk: its file, the base line numbers it removes, and its lines.
pub(crate) struct HunkInfo<'a> {
    pub path: &'a str,
    pub removed: BTreeSet<u32>,
    pub lines: &'a [crate::diff::HunkLine],
}

/// One change block: a hunk's run of changed lines between two context lines. Three lines of
/// context merge nearby changes into one hunk; a block is one change.
pub(crate) struct Block<'a> {
    pub path: &'a str,
    pub removed: BTreeSet<u32>,
    /// The contents of its added lines.
    pub added: Vec<&'a str>,
}

/// The hunks and blocks of a diff, and for each changed line (path, kind, line number) its hunk
/// and block.
pub(crate) struct Index<'a> {
    pub hunks: Vec<HunkInfo<'a>>,
    pub blocks: Vec<Block<'a>>,
    by_line: HashMap<(String, ChangeKind, u32), (usize, usize)>,
}

impl<'a> Index<'a> {
    pub(crate) fn of(diff: &'a Diff) -> Index<'a> {
        let mut index = Index { hunks: Vec::new(), blocks: Vec::new(), by_line: HashMap::new() };
        for file in &diff.files {
            for hunk in &file.hunks {
                index.add_hunk(file, hunk);
            }
        }
        index
    }

    fn add_hunk(&mut self, file: &'a crate::diff::FileDiff, hunk: &'a crate::diff::Hunk) {
        let id = self.hunks.len();
        let mut removed = BTreeSet::new();
        let mut in_block = false;
        for line in &hunk.lines {
            if line.kind == LineKind::Context {
                in_block = false;
                continue;
            }
            if !in_block {
                self.blocks.push(Block { path: file.path(), removed: BTreeSet::new(), added: Vec::new() });
                in_block = true;
            }
            let block = self.blocks.len() - 1;
            let key = match line.kind {
                LineKind::Removed => {
                    let number = line.old_line.unwrap_or(0);
                    removed.insert(number);
                    self.blocks[block].removed.insert(number);
                    let path = file.old_path.as_deref().unwrap_or_else(|| file.path());
                    (path.to_string(), ChangeKind::Removed, number)
                }
                _ => {
                    self.blocks[block].added.push(&line.content);
                    let path = file.new_path.as_deref().unwrap_or_else(|| file.path());
                    (path.to_string(), ChangeKind::Added, line.new_line.unwrap_or(0))
                }
            };
            self.by_line.insert(key, (id, block));
        }
        self.hunks.push(HunkInfo { path: file.path(), removed, lines: &hunk.lines });
    }

    /// The hunk a changed line is in.
    pub(crate) fn hunk_of(&self, line: &ChangeLine) -> Option<usize> {
        self.by_line.get(&(line.path.clone(), line.kind, line.line)).map(|&(hunk, _)| hunk)
    }

    /// The change block a changed line is in.
    pub(crate) fn block_of(&self, line: &ChangeLine) -> Option<usize> {
        self.by_line.get(&(line.path.clone(), line.kind, line.line)).map(|&(_, block)| block)
    }
}
