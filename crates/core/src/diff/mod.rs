//! Unified diffs, as `git diff` and OpenRewrite's plugins write them, parsed into files, hunks and
//! changed lines. Everything that compares or explains changes (metrics, intents, validation) reads
//! diffs through this module, so they all agree on what a "changed line" is.

pub mod bounds;
mod exclude;
#[cfg(test)]
mod fuzz;
mod parse;
mod unreproducible;

pub use bounds::TooLarge;
pub use bounds::bound;
pub use exclude::{TEMPORARY_INIT_SCRIPT, TEMPORARY_RECIPE, is_excluded};
pub use parse::{keep_sections, parse, parse_all, parse_pr, remove_excluded_sections};
pub use unreproducible::Unreproducible;
pub use unreproducible::not_utf8;

use serde::{Deserialize, Serialize};

/// Whether a line was added or removed.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// A `+` line: in the new file only.
    Added,
    /// A `-` line: in the old file only.
    Removed,
}

impl ChangeKind {
    /// The line's prefix in a diff: `+` or `-`.
    pub fn sign(self) -> char {
        match self {
            ChangeKind::Added => '+',
            ChangeKind::Removed => '-',
        }
    }
}

/// One line of a hunk body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HunkLine {
    /// Context, added or removed.
    pub kind: LineKind,
    /// The text without the leading `+`/`-`/space and without the line terminator.
    pub content: String,
    /// 1-based line number in the old file (context and removed lines).
    pub old_line: Option<u32>,
    /// 1-based line number in the new file (context and added lines).
    pub new_line: Option<u32>,
    /// The line has no line terminator (`\ No newline at end of file` follows it): it is the
    /// last line of its file.
    pub no_newline: bool,
}

/// What a line of a hunk body is, by its first character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// A ` ` line: in both files.
    Context,
    /// A `+` line.
    Added,
    /// A `-` line.
    Removed,
}

/// One hunk: its `@@ -a,b +c,d @@` header and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    /// 1-based first line in the old file (`a`).
    pub old_start: u32,
    /// Lines of the old file it covers (`b`).
    pub old_len: u32,
    /// 1-based first line in the new file (`c`).
    pub new_start: u32,
    /// Lines of the new file it covers (`d`).
    pub new_len: u32,
    /// The body's lines, in order.
    pub lines: Vec<HunkLine>,
}

/// One file's section of a diff.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileDiff {
    /// Path before the change, without the `a/` prefix; `None` for a new file.
    pub old_path: Option<String>,
    /// Path after the change, without the `b/` prefix; `None` for a deleted file.
    pub new_path: Option<String>,
    /// `Binary files … differ` or a `GIT binary patch`: no line-level changes are known.
    pub binary: bool,
    /// A symbolic link or a submodule (from git's file modes): not a file a recipe can edit.
    pub special: Option<Unreproducible>,
    /// The file's hunks, in order; empty for a binary or special file, or a pure rename.
    pub hunks: Vec<Hunk>,
}

impl FileDiff {
    /// The path that names this section: the new path, or the old one for a deletion.
    pub fn path(&self) -> &str {
        self.new_path.as_deref().or(self.old_path.as_deref()).unwrap_or("")
    }

    /// True for a new file (no old path).
    pub fn is_new(&self) -> bool {
        self.old_path.is_none()
    }

    /// True for a deleted file (no new path).
    pub fn is_deleted(&self) -> bool {
        self.new_path.is_none()
    }

    #[cfg(test)]
    pub(crate) fn is_rename(&self) -> bool {
        matches!((&self.old_path, &self.new_path), (Some(a), Some(b)) if a != b)
    }

    /// Changed lines in diff order. Removals belong to the old path and additions to the new one,
    /// so a rename's removed lines are keyed by where they came from.
    pub(crate) fn changes(&self) -> impl Iterator<Item = LineChange<'_>> {
        self.hunks.iter().flat_map(move |hunk| {
            hunk.lines.iter().filter_map(move |line| {
                let (kind, path, line_no) = match line.kind {
                    LineKind::Added => (ChangeKind::Added, self.new_path.as_deref(), line.new_line),
                    LineKind::Removed => (ChangeKind::Removed, self.old_path.as_deref(), line.old_line),
                    LineKind::Context => return None,
                };
                Some(LineChange {
                    path: path.unwrap_or_else(|| self.path()),
                    kind,
                    content: &line.content,
                    line: line_no.unwrap_or(0),
                })
            })
        })
    }
}

/// A changed line: the unit the metric counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineChange<'a> {
    /// The file: the old path for a removed line, the new one for an added line.
    pub path: &'a str,
    /// Added or removed.
    pub kind: ChangeKind,
    /// The line's text, without the `+`/`-` and the line terminator.
    pub content: &'a str,
    /// Line number in the old file (removed) or new file (added); not used for matching.
    pub line: u32,
}

/// A parsed diff after the metric's preprocessing (see [`parse`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Diff {
    /// The files' sections, in diff order (excluded paths and repeated sections dropped).
    pub files: Vec<FileDiff>,
    /// The PR's files left out for their size ([`bound`]; empty for any other diff): outside the
    /// metric, and the other diff's lines in them are left out too.
    pub left_out: Vec<TooLarge>,
}

impl Diff {
    /// Every changed line of every file, in diff order.
    pub fn changes(&self) -> impl Iterator<Item = LineChange<'_>> {
        self.files.iter().flat_map(FileDiff::changes)
    }

    /// Number of changed lines.
    pub fn change_count(&self) -> usize {
        self.changes().count()
    }
}

/// Largest diff read (see [`crate::setup::input::MAX_DIFF_BYTES`]).
pub(crate) const MAX_BYTES: usize = crate::setup::input::MAX_DIFF_BYTES;

/// Reads and parses a diff file for the metric. A missing or unreadable file, one over
/// [`MAX_BYTES`], or one that is not a diff, is bad input (exit 2).
pub fn read_file(path: &std::path::Path) -> anyhow::Result<Diff> {
    let bytes = read_text(path)?;
    // Diffs of files in other encodings are still diffs: keep going with replacement characters.
    parse(&bytes).map_err(|e| crate::error::bad_input(format!("{}: {e}", path.display())))
}

/// [`read_file`] of a PR's diff: files too large to analyze are left out ([`parse_pr`]).
pub fn read_pr_file(path: &std::path::Path) -> anyhow::Result<Diff> {
    let bytes = read_text(path)?;
    parse_pr(&bytes).map_err(|e| crate::error::bad_input(format!("{}: {e}", path.display())))
}

/// A diff file's text, at most [`MAX_BYTES`]. Diffs of files in other encodings are still diffs:
/// invalid UTF-8 becomes replacement characters.
pub fn read_text(path: &std::path::Path) -> anyhow::Result<String> {
    let bytes = crate::setup::input::read_bounded(path, MAX_BYTES, "diffs")?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
