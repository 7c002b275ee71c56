//! One changed file as the analyzers see it: both full contents, and its changed lines looked up by
//! line number so an analyzer that found something at line N can cite the diff line as evidence.

use std::collections::BTreeMap;

use similar::{Algorithm, DiffTag};

use crate::diff::{ChangeKind, FileDiff, LineKind};
use crate::model::ChangeLine;

use super::Side;

pub(crate) struct FileChange<'a> {
    pub diff: &'a FileDiff,
    /// The path that names the file: the new path, or the old one for a deletion.
    pub path: &'a str,
    pub old_path: Option<&'a str>,
    pub new_path: Option<&'a str>,
    /// Full base content (line endings normalized to `\n`), `None` for a new file.
    pub old_text: Option<String>,
    /// Full head content, `None` for a deleted file.
    pub new_text: Option<String>,
    removed: BTreeMap<u32, ChangeLine>,
    added: BTreeMap<u32, ChangeLine>,
    /// Per changed line, the index of its block (a run of changed lines between context lines).
    removed_block: BTreeMap<u32, usize>,
    added_block: BTreeMap<u32, usize>,
    blocks: Vec<Block>,
}

/// A run of changed lines between context lines: git prints its removals, then its additions.
#[derive(Debug, Clone, Default)]
pub(crate) struct Block {
    pub removed: Vec<ChangeLine>,
    pub added: Vec<ChangeLine>,
}

impl<'a> FileChange<'a> {
    /// Reads both sides through `contents`. When a side that exists cannot be read, it is rebuilt
    /// from the hunks (context and changed lines at their line numbers, blanks elsewhere), which is
    /// enough for the line-based analyzers.
    pub(crate) fn load(
        diff: &'a FileDiff,
        contents: &dyn Fn(Side, &str) -> Option<String>,
    ) -> FileChange<'a> {
        let old_path = diff.old_path.as_deref();
        let new_path = diff.new_path.as_deref();
        let old_text = old_path.map(|p| {
            contents(Side::Base, p).map(|t| normalize(&t)).unwrap_or_else(|| rebuild(diff, Side::Base))
        });
        let new_text = new_path.map(|p| {
            contents(Side::Head, p).map(|t| normalize(&t)).unwrap_or_else(|| rebuild(diff, Side::Head))
        });
        let mut change = FileChange {
            diff,
            path: diff.path(),
            old_path,
            new_path,
            old_text,
            new_text,
            removed: BTreeMap::new(),
            added: BTreeMap::new(),
            removed_block: BTreeMap::new(),
            added_block: BTreeMap::new(),
            blocks: Vec::new(),
        };
        change.index();
        change
    }

    fn index(&mut self) {
        let diff = self.diff;
        for hunk in &diff.hunks {
            let mut current: Option<Block> = None;
            for line in &hunk.lines {
                let kind = match line.kind {
                    LineKind::Context => {
                        if let Some(block) = current.take() {
                            self.blocks.push(block);
                        }
                        continue;
                    }
                    LineKind::Added => ChangeKind::Added,
                    LineKind::Removed => ChangeKind::Removed,
                };
                let block = current.get_or_insert_with(Block::default);
                let index = self.blocks.len();
                let (path, number) = match kind {
                    ChangeKind::Added => (self.new_path.unwrap_or(self.path), line.new_line.unwrap_or(0)),
                    ChangeKind::Removed => (self.old_path.unwrap_or(self.path), line.old_line.unwrap_or(0)),
                };
                let change =
                    ChangeLine { path: path.to_string(), kind, line: number, content: line.content.clone() };
                match kind {
                    ChangeKind::Added => {
                        self.added_block.insert(number, index);
                        self.added.insert(number, change.clone());
                        block.added.push(change);
                    }
                    ChangeKind::Removed => {
                        self.removed_block.insert(number, index);
                        self.removed.insert(number, change.clone());
                        block.removed.push(change);
                    }
                }
            }
            if let Some(block) = current.take() {
                self.blocks.push(block);
            }
        }
    }

    /// All changed lines in diff order.
    pub(crate) fn changes(&self) -> Vec<ChangeLine> {
        self.blocks.iter().flat_map(|b| b.removed.iter().chain(&b.added)).cloned().collect()
    }

    pub(crate) fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    pub(crate) fn removed_at(&self, line: usize) -> Option<&ChangeLine> {
        self.removed.get(&(line as u32))
    }

    pub(crate) fn added_at(&self, line: usize) -> Option<&ChangeLine> {
        self.added.get(&(line as u32))
    }

    /// Removed lines within `first..=last` of the base file.
    pub(crate) fn removed_between(&self, first: usize, last: usize) -> Vec<ChangeLine> {
        self.removed.range(first as u32..=last as u32).map(|(_, c)| c.clone()).collect()
    }

    /// Added lines within `first..=last` of the head file.
    pub(crate) fn added_between(&self, first: usize, last: usize) -> Vec<ChangeLine> {
        self.added.range(first as u32..=last as u32).map(|(_, c)| c.clone()).collect()
    }

    /// The block of the first changed line within `first..=last` on `side`, so entities edited in
    /// the same place (a dependency replaced by another) can be paired.
    pub(crate) fn block_between(&self, side: Side, first: usize, last: usize) -> Option<usize> {
        let map = match side {
            Side::Base => &self.removed_block,
            Side::Head => &self.added_block,
        };
        map.range(first as u32..=last as u32).next().map(|(_, b)| *b)
    }

    /// Where an unchanged base line is in the head file; `None` for a removed line.
    pub(crate) fn old_to_new(&self, line: usize) -> Option<usize> {
        let line = line as i64;
        let mut delta: i64 = 0;
        for hunk in &self.diff.hunks {
            // With a length of 0 the start names the line before the insertion.
            let start = i64::from(hunk.old_start) + i64::from(hunk.old_len == 0);
            if line < start {
                break;
            }
            if line < start + i64::from(hunk.old_len) {
                let at = hunk.lines.iter().find(|l| l.old_line.map(i64::from) == Some(line))?;
                return if at.kind == LineKind::Context { at.new_line.map(|n| n as usize) } else { None };
            }
            delta += i64::from(hunk.new_len) - i64::from(hunk.old_len);
        }
        usize::try_from(line + delta).ok()
    }
}

/// `\r\n` and lone `\r` become `\n`, as the diff parser does, so line numbers agree.
pub(crate) fn normalize(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.contains('\r') { text.replace("\r\n", "\n").replace('\r', "\n") } else { text.to_string() }
}

/// The lines of a text, 1-based: `lines(t)[n - 1]` is line n.
pub(crate) fn lines(text: &str) -> Vec<&str> {
    text.split('\n').collect()
}

/// One side of a file rebuilt from the hunks: known lines at their numbers, blanks between.
fn rebuild(diff: &FileDiff, side: Side) -> String {
    let mut known: BTreeMap<u32, &str> = BTreeMap::new();
    for hunk in &diff.hunks {
        for line in &hunk.lines {
            let number = match (side, line.kind) {
                (Side::Base, LineKind::Context | LineKind::Removed) => line.old_line,
                (Side::Head, LineKind::Context | LineKind::Added) => line.new_line,
                _ => None,
            };
            if let Some(n) = number {
                known.insert(n, &line.content);
            }
        }
    }
    let last = known.keys().next_back().copied().unwrap_or(0);
    let mut out = String::new();
    for n in 1..=last {
        out.push_str(known.get(&n).copied().unwrap_or(""));
        out.push('\n');
    }
    out
}

/// Pairs removed lines with the added lines that replace them, in order: by position when a block
/// has as many of each, otherwise by word similarity (at least one half) in a small window.
pub(crate) fn pair_lines(removed: &[&str], added: &[&str]) -> Vec<(usize, usize)> {
    if removed.len() == added.len() {
        return (0..removed.len()).map(|i| (i, i)).collect();
    }
    const WINDOW: usize = 8;
    let mut pairs = Vec::new();
    let mut next = 0;
    for (i, old) in removed.iter().enumerate() {
        let mut best: Option<(usize, f32)> = None;
        for (j, new) in added.iter().enumerate().skip(next).take(WINDOW) {
            let score = similarity(old, new);
            if score >= 0.5 && best.is_none_or(|(_, s)| score > s) {
                best = Some((j, score));
            }
        }
        if let Some((j, _)) = best {
            pairs.push((i, j));
            next = j + 1;
        }
    }
    pairs
}

/// Word-level similarity of two lines, 0..=1.
pub(crate) fn similarity(a: &str, b: &str) -> f32 {
    let a = tokens(a);
    let b = tokens(b);
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let ops = similar::capture_diff_slices(Algorithm::Myers, &a, &b);
    let same: usize = ops.iter().filter(|op| op.tag() == DiffTag::Equal).map(|op| op.old_range().len()).sum();
    (2 * same) as f32 / (a.len() + b.len()) as f32
}

/// Identifiers, numbers and single punctuation characters; whitespace dropped.
pub(crate) fn tokens(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in line.char_indices() {
        let word = c.is_alphanumeric() || c == '_' || c == '$';
        match (word, start) {
            (true, None) => start = Some(i),
            (true, Some(_)) => {}
            (false, Some(s)) => {
                out.push(&line[s..i]);
                start = None;
            }
            (false, None) => {}
        }
        if !word && !c.is_whitespace() {
            out.push(&line[i..i + c.len_utf8()]);
        }
    }
    if let Some(s) = start {
        out.push(&line[s..]);
    }
    out
}
