//! Changes a diff shows that no recipe can make: OpenRewrite reads and writes the text of regular
//! files, so it cannot point a symbolic link elsewhere, move a submodule to another commit, change
//! the content behind a Git LFS pointer (its text is only a hash of it), or match or write bytes
//! that are not UTF-8 (the diff's text holds them as U+FFFD). Mapping makes no recipe for these,
//! and the intent tree lists them with the reason. A PR's file too large to analyze
//! ([`super::bound`]) is listed the same way, by file: its lines are never read.

use serde::{Deserialize, Serialize};

use super::{FileDiff, HunkLine};

/// Why no recipe can make a change.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Unreproducible {
    /// A symbolic link (git mode 120000): its "content" is where it points.
    Symlink,
    /// A submodule (git mode 160000): its "content" is the commit it is at.
    Submodule,
    /// A Git LFS pointer: the file's content is stored elsewhere, its text is a hash of it.
    LfsPointer,
    /// Lines that are not UTF-8: the diff holds their bytes as U+FFFD.
    NotUtf8,
    /// A file whose diff is over the bounds of [`super::bound`]: not read line by line, so no
    /// intent, recipe or metric sees its lines.
    TooLarge,
}

impl Unreproducible {
    /// What it is and why no recipe makes it, for reports.
    pub fn describe(self) -> &'static str {
        match self {
            Unreproducible::Symlink => "a symbolic link: recipes edit file contents, not where a link points",
            Unreproducible::Submodule => "a submodule: recipes do not move a submodule to another commit",
            Unreproducible::LfsPointer => {
                "a Git LFS pointer: its text is a hash of content stored elsewhere, which recipes do not see"
            }
            Unreproducible::NotUtf8 => {
                "lines that are not UTF-8: recipes read and write text, and these bytes are not text to them"
            }
            Unreproducible::TooLarge => {
                "a diff too large to analyze (a file's diff is read up to 1 MiB and 10,000 changed lines, the \
                 whole PR's up to 8 MiB and 50,000 lines): left out of the intents, the recipes and the metric"
            }
        }
    }

    /// The kind of entry git's file mode (`120000`, `160000`) names, when it is not a file.
    pub(crate) fn of_mode(mode: &str) -> Option<Unreproducible> {
        match mode.trim() {
            "120000" => Some(Unreproducible::Symlink),
            "160000" => Some(Unreproducible::Submodule),
            _ => None,
        }
    }
}

/// The first line of every Git LFS pointer file.
const LFS_POINTER: &str = "version https://git-lfs.github.com/spec/v1";

impl FileDiff {
    /// Why no recipe can make this file's change (None: a regular text file, whose lines may
    /// still be [`not_utf8`]).
    pub fn unreproducible(&self) -> Option<Unreproducible> {
        if self.special.is_some() {
            return self.special;
        }
        // A pointer has three short lines, so any hunk of it shows its first one.
        let first = |l: &HunkLine| l.old_line == Some(1) || l.new_line == Some(1);
        self.hunks
            .iter()
            .flat_map(|h| &h.lines)
            .any(|l| first(l) && l.content == LFS_POINTER)
            .then_some(Unreproducible::LfsPointer)
    }
}

/// Whether a line of the diff's text is not UTF-8: git gives bytes, and the ones that do not
/// decode became U+FFFD.
pub fn not_utf8(text: &str) -> bool {
    text.contains(char::REPLACEMENT_CHARACTER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symlinks_submodules_and_lfs_pointers_are_told_apart_from_files() {
        let text = "diff --git a/link b/link\nindex 1..2 120000\n--- a/link\n+++ b/link\n@@ -1 +1 @@\n-old/target\n\\ No newline at end of file\n+new/target\n\\ No newline at end of file\n\
diff --git a/vendor/lib b/vendor/lib\nindex 1..2 160000\n--- a/vendor/lib\n+++ b/vendor/lib\n@@ -1 +1 @@\n-Subproject commit aaa\n+Subproject commit bbb\n\
diff --git a/new-link b/new-link\nnew file mode 120000\nindex 0..1\n--- /dev/null\n+++ b/new-link\n@@ -0,0 +1 @@\n+somewhere\n\\ No newline at end of file\n\
diff --git a/model.bin b/model.bin\nindex 1..2 100644\n--- a/model.bin\n+++ b/model.bin\n@@ -1,3 +1,3 @@\n version https://git-lfs.github.com/spec/v1\n-oid sha256:aaa\n-size 10\n+oid sha256:bbb\n+size 12\n\
diff --git a/a.txt b/a.txt\nold mode 100644\nnew mode 100755\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n";
        let kinds: Vec<_> =
            crate::diff::parse_all(text).unwrap().files.iter().map(FileDiff::unreproducible).collect();
        assert_eq!(
            kinds,
            vec![
                Some(Unreproducible::Symlink),
                Some(Unreproducible::Submodule),
                Some(Unreproducible::Symlink),
                Some(Unreproducible::LfsPointer),
                None
            ]
        );
        assert!(not_utf8("caf\u{FFFD}"));
        assert!(!not_utf8("café"));
    }
}
