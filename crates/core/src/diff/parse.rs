//! The unified-diff parser.
//!
//! It follows the reference analyzer of the metric (a Python script built on `unidiff`) wherever
//! that one has an opinion, so the counts agree on real diffs:
//! - line endings: `\r\n` and lone `\r` become `\n` before anything else;
//! - a hunk body is read by the line counts of its header, so body lines that look like headers
//!   (`--- x`, `+++ y`, `diff --git`) are still body lines;
//! - text after the closing `@@` of a hunk header (OpenRewrite writes the recipe name there) is
//!   ignored; `\ No newline at end of file` markers carry no change;
//! - for the metric ([`parse`]): binary sections are dropped, then the first section of a path
//!   wins, then excluded paths are dropped.
//!
//! Where the reference would crash on malformed input, this parser keeps what it understood and
//! logs a warning instead.

use std::borrow::Cow;
use std::collections::HashSet;

use super::{Diff, FileDiff, Hunk, HunkLine, LineKind, is_excluded};

/// The input is not a diff at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

/// Parses a diff the way the metric sees it: binary sections dropped, one section per path (the
/// first), excluded paths dropped. Empty or whitespace-only input is an empty diff.
pub fn parse(text: &str) -> Result<Diff, ParseError> {
    let mut diff = parse_all(text)?;
    let mut seen = HashSet::new();
    diff.files.retain(|file| {
        // Keyed by the old path, as the reference keys sections by the `a/` path of their header.
        let key = file.old_path.clone().or_else(|| file.new_path.clone()).unwrap_or_default();
        !file.binary && seen.insert(key.clone()) && !is_excluded(&key)
    });
    Ok(diff)
}

/// [`parse`] of a PR's diff: the files over the bounds of [`super::bound`] are left out, and named
/// in [`Diff::left_out`].
pub fn parse_pr(text: &str) -> Result<Diff, ParseError> {
    let bounded = super::bound(text);
    bounded.warn();
    let mut diff = parse(&bounded.text)?;
    diff.left_out = bounded.left_out;
    Ok(diff)
}

/// Parses every file section, binary and excluded ones included, duplicates kept.
pub fn parse_all(text: &str) -> Result<Diff, ParseError> {
    let text = normalize_line_endings(text);
    let lines: Vec<&str> = split_lines(&text);
    let mut parser = Parser { lines: &lines, at: 0, files: Vec::new(), current: None, orphan_hunks: 0 };
    parser.run();
    let files = parser.files;
    if files.is_empty() && !text.trim().is_empty() {
        return Err(ParseError(if parser.orphan_hunks > 0 {
            "not a unified diff: its `@@` hunks have no file header (`diff --git` or `---`/`+++`)".into()
        } else {
            "not a unified diff: no `diff --git`, `---`/`+++` or `@@` header found".into()
        }));
    }
    if parser.orphan_hunks > 0 {
        tracing::warn!("ignored {} hunk(s) without a file header", parser.orphan_hunks);
    }
    Ok(Diff { files, left_out: Vec::new() })
}

/// `text` without the file sections of excluded paths (build output, wrapper files): what a recipe
/// run's diff artifact keeps. Sections are cut at `diff --git` lines, which never start a hunk
/// body line.
pub fn remove_excluded_sections(text: &str) -> String {
    keep_sections(text, &|path| !is_excluded(path))
}

/// `text` with only the file sections whose path (the old one, else the new) `keep` accepts; a
/// preamble before the first section is kept. Sections are cut at `diff --git` lines.
pub fn keep_sections(text: &str, keep_path: &dyn Fn(&str) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut keep = true;
    for line in text.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("diff --git ") {
            let (old, new) = git_header_paths(rest.trim_end_matches(['\n', '\r']));
            let path = old.or(new).unwrap_or_default();
            keep = keep_path(&path);
        }
        if keep {
            out.push_str(line);
        }
    }
    out
}

fn normalize_line_endings(text: &str) -> Cow<'_, str> {
    if text.contains('\r') {
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(text)
    }
}

fn split_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

/// A file section being read.
struct Section {
    file: FileDiff,
    /// Started by `diff --git`: the `---`/`+++` lines that follow belong to it.
    git: bool,
    saw_old_header: bool,
    saw_new_header: bool,
}

struct Parser<'a> {
    lines: &'a [&'a str],
    at: usize,
    files: Vec<FileDiff>,
    current: Option<Section>,
    /// Hunks before any file header, skipped (reported once, by the caller).
    orphan_hunks: usize,
}

impl Parser<'_> {
    fn run(&mut self) {
        while let Some(&line) = self.lines.get(self.at) {
            self.at += 1;
            if let Some(rest) = line.strip_prefix("diff --git ") {
                let (old, new) = git_header_paths(rest);
                self.start(FileDiff { old_path: old, new_path: new, ..FileDiff::default() }, true);
            } else if let Some(rest) = line.strip_prefix("--- ") {
                self.old_header(rest);
            } else if let Some(rest) = line.strip_prefix("+++ ") {
                self.new_header(rest);
            } else if line.starts_with("@@ ") {
                self.hunk(line);
            } else if let Some(section) = self.current.as_mut().filter(|s| s.file.hunks.is_empty()) {
                extended_header(&mut section.file, line);
            }
            // Anything else (index lines, trailing blank lines, `\ No newline` markers after a
            // hunk, a preamble before the first file) carries no change.
        }
        self.finish();
    }

    fn start(&mut self, file: FileDiff, git: bool) {
        self.finish();
        self.current = Some(Section { file, git, saw_old_header: false, saw_new_header: false });
    }

    fn finish(&mut self) {
        if let Some(section) = self.current.take() {
            self.files.push(section.file);
        }
    }

    /// `--- path`: the old side of a git section, or the start of a plain unified diff's section
    /// (only when `+++` follows, so a stray `---` in a preamble is not mistaken for a header).
    fn old_header(&mut self, rest: &str) {
        let path = header_path(rest, "a/");
        match self.current.as_mut() {
            Some(section) if section.git && !section.saw_old_header && section.file.hunks.is_empty() => {
                section.saw_old_header = true;
                section.file.old_path = path;
            }
            _ => {
                let next = self.lines.get(self.at).copied().unwrap_or("");
                if next.starts_with("+++ ") {
                    let file = FileDiff { old_path: path, ..FileDiff::default() };
                    self.start(file, false);
                    if let Some(section) = self.current.as_mut() {
                        section.saw_old_header = true;
                    }
                }
            }
        }
    }

    fn new_header(&mut self, rest: &str) {
        if let Some(section) = self.current.as_mut()
            && !section.saw_new_header
            && section.file.hunks.is_empty()
        {
            section.saw_new_header = true;
            section.file.new_path = header_path(rest, "b/");
        }
    }

    fn hunk(&mut self, header: &str) {
        let Some((old_start, old_len, new_start, new_len)) = hunk_header(header) else {
            tracing::warn!("ignoring malformed hunk header: {header}");
            return;
        };
        let Some(section) = self.current.as_mut() else {
            tracing::debug!("ignoring a hunk without a file header: {header}");
            self.orphan_hunks += 1;
            return;
        };
        let mut hunk = Hunk { old_start, old_len, new_start, new_len, lines: Vec::new() };
        let (mut old_left, mut new_left) = (old_len, new_len);
        // With a length of 0 the start names the line before the (empty) range.
        let mut old_no = if old_len == 0 { old_start + 1 } else { old_start };
        let mut new_no = if new_len == 0 { new_start + 1 } else { new_start };
        while old_left > 0 || new_left > 0 {
            let Some(&line) = self.lines.get(self.at) else {
                tracing::warn!("diff ends inside a hunk of {}", section.file.path());
                break;
            };
            let (kind, content) = match line.as_bytes().first() {
                Some(b' ') => (LineKind::Context, &line[1..]),
                // Some tools strip the single space of an empty context line.
                None => (LineKind::Context, ""),
                Some(b'-') => (LineKind::Removed, &line[1..]),
                Some(b'+') => (LineKind::Added, &line[1..]),
                Some(b'\\') => {
                    if let Some(last) = hunk.lines.last_mut() {
                        last.no_newline = true;
                    }
                    self.at += 1;
                    continue;
                }
                Some(_) => {
                    tracing::warn!("hunk of {} is shorter than its header says", section.file.path());
                    break;
                }
            };
            let uses_old = kind != LineKind::Added;
            let uses_new = kind != LineKind::Removed;
            if (uses_old && old_left == 0) || (uses_new && new_left == 0) {
                tracing::warn!("hunk of {} is longer than its header says", section.file.path());
                break;
            }
            let mut body = HunkLine {
                kind,
                content: content.to_string(),
                old_line: None,
                new_line: None,
                no_newline: false,
            };
            if uses_old {
                body.old_line = Some(old_no);
                old_no += 1;
                old_left -= 1;
            }
            if uses_new {
                body.new_line = Some(new_no);
                new_no += 1;
                new_left -= 1;
            }
            hunk.lines.push(body);
            self.at += 1;
        }
        // A marker right after the hunk's last line belongs to that line.
        while self.lines.get(self.at).is_some_and(|l| l.starts_with('\\')) {
            if let Some(last) = hunk.lines.last_mut() {
                last.no_newline = true;
            }
            self.at += 1;
        }
        section.file.hunks.push(hunk);
    }
}

/// Git's extended header lines between `diff --git` and the first hunk.
fn extended_header(file: &mut FileDiff, line: &str) {
    // A link or a submodule on either side is no file a recipe can edit.
    let mode = ["new file mode ", "deleted file mode ", "old mode ", "new mode "]
        .iter()
        .find_map(|prefix| line.strip_prefix(prefix))
        .or_else(|| line.strip_prefix("index ").and_then(|rest| rest.split_once(' ')).map(|(_, m)| m));
    if let Some(special) = mode.and_then(super::Unreproducible::of_mode) {
        file.special = Some(special);
    }
    if line.starts_with("new file mode") {
        file.old_path = None;
    } else if line.starts_with("deleted file mode") {
        file.new_path = None;
    } else if let Some(path) = line.strip_prefix("rename from ").or(line.strip_prefix("copy from ")) {
        file.old_path = Some(unquote(path));
    } else if let Some(path) = line.strip_prefix("rename to ").or(line.strip_prefix("copy to ")) {
        file.new_path = Some(unquote(path));
    } else if line.starts_with("Binary files ") || line == "GIT binary patch" {
        file.binary = true;
    }
}

/// `@@ -a[,b] +c[,d] @@ anything` → (a, b, c, d); lengths default to 1.
fn hunk_header(line: &str) -> Option<(u32, u32, u32, u32)> {
    let rest = line.strip_prefix("@@ -")?;
    let (ranges, _after) = rest.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    let range = |text: &str| -> Option<(u32, u32)> {
        match text.split_once(',') {
            Some((start, len)) => Some((start.parse().ok()?, len.parse().ok()?)),
            None => Some((text.parse().ok()?, 1)),
        }
    };
    let (old_start, old_len) = range(old)?;
    let (new_start, new_len) = range(new)?;
    // Line numbers are counted up to start + len: a header whose range overflows is malformed.
    old_start.checked_add(old_len)?.checked_add(1)?;
    new_start.checked_add(new_len)?.checked_add(1)?;
    Some((old_start, old_len, new_start, new_len))
}

/// The path of a `---`/`+++` line: a timestamp after a tab is dropped, quotes are undone,
/// `/dev/null` is no path, and the `a/` (or `b/`) prefix is removed.
fn header_path(rest: &str, prefix: &str) -> Option<String> {
    let raw = if rest.starts_with('"') { rest } else { rest.split('\t').next().unwrap_or(rest) };
    let path = unquote(raw.trim_end());
    if path == "/dev/null" {
        return None;
    }
    Some(path.strip_prefix(prefix).map(str::to_string).unwrap_or(path))
}

/// Paths of `diff --git <old> <new>`. Unquoted paths may contain spaces, so among the places where
/// ` b/` could split the two, the one giving equal paths is preferred (the common, non-rename case),
/// then the first one (as the reference analyzer does).
pub(super) fn git_header_paths(rest: &str) -> (Option<String>, Option<String>) {
    if rest.starts_with('"') {
        let (old, after) = take_quoted(rest);
        let new = after.trim_start();
        let new = if new.starts_with('"') { take_quoted(new).0 } else { new.to_string() };
        return (Some(strip(&old, "a/")), Some(strip(&new, "b/")));
    }
    if let Some(without_a) = rest.strip_prefix("a/") {
        let splits: Vec<usize> = without_a.match_indices(" b/").map(|(i, _)| i).collect();
        let pick = splits
            .iter()
            .copied()
            .find(|&i| without_a[..i] == without_a[i + 3..])
            .or_else(|| splits.first().copied());
        if let Some(i) = pick {
            let new = &without_a[i + 3..];
            let new = if new.starts_with('"') { take_quoted(new).0 } else { new.to_string() };
            return (Some(without_a[..i].to_string()), Some(new));
        }
    }
    // `--no-prefix`: two equal halves.
    let half = rest.len() / 2;
    if rest.len() % 2 == 1 && rest.as_bytes().get(half) == Some(&b' ') && rest[..half] == rest[half + 1..] {
        let path = rest[..half].to_string();
        return (Some(path.clone()), Some(path));
    }
    (Some(rest.to_string()), Some(rest.to_string()))
}

fn strip(path: &str, prefix: &str) -> String {
    path.strip_prefix(prefix).unwrap_or(path).to_string()
}

/// Undoes git's C-style quoting of unusual paths (`"a/caf\303\251.txt"`).
fn unquote(text: &str) -> String {
    if text.starts_with('"') { take_quoted(text).0 } else { text.to_string() }
}

/// Reads one C-quoted string at the start of `text`; returns it and the rest after the closing quote.
fn take_quoted(text: &str) -> (String, &str) {
    let bytes = text.as_bytes();
    let mut out: Vec<u8> = Vec::new();
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return (String::from_utf8_lossy(&out).into_owned(), &text[i + 1..]),
            b'\\' if i + 1 < bytes.len() => {
                i += 1;
                match bytes[i] {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'a' => out.push(7),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'v' => out.push(11),
                    d @ b'0'..=b'7' => {
                        let mut value = u32::from(d - b'0');
                        let mut digits = 1;
                        while digits < 3 && i + 1 < bytes.len() && (b'0'..=b'7').contains(&bytes[i + 1]) {
                            i += 1;
                            value = value * 8 + u32::from(bytes[i] - b'0');
                            digits += 1;
                        }
                        out.push(value as u8);
                    }
                    other => out.push(other),
                }
            }
            other => out.push(other),
        }
        i += 1;
    }
    (String::from_utf8_lossy(&out).into_owned(), "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::ChangeKind;

    fn changes(diff: &Diff) -> Vec<(String, char, String)> {
        diff.changes().map(|c| (c.path.to_string(), c.kind.sign(), c.content.to_string())).collect()
    }

    #[test]
    fn parses_a_git_diff_with_line_numbers() {
        let text = "diff --git a/src/App.java b/src/App.java\nindex 1..2 100644\n--- a/src/App.java\n+++ b/src/App.java\n@@ -1,3 +1,3 @@\n package x;\n-import javax.persistence.Entity;\n+import jakarta.persistence.Entity;\n class App {}\n";
        let diff = parse(text).unwrap();
        assert_eq!(diff.files.len(), 1);
        let all: Vec<_> = diff.changes().collect();
        assert_eq!(all[0].kind, ChangeKind::Removed);
        assert_eq!(all[0].line, 2);
        assert_eq!(all[1].content, "import jakarta.persistence.Entity;");
        assert_eq!(all[1].line, 2);
        assert_eq!(all[1].path, "src/App.java");
    }

    #[test]
    fn body_lines_that_look_like_headers_stay_in_the_hunk() {
        let text = "diff --git a/notes.md b/notes.md\n--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,2 @@\n--- old rule\n+++ new rule\n same\n";
        let diff = parse(text).unwrap();
        assert_eq!(
            changes(&diff),
            vec![
                ("notes.md".into(), '-', "-- old rule".into()),
                ("notes.md".into(), '+', "++ new rule".into())
            ]
        );
    }

    #[test]
    fn openrewrite_recipe_name_after_hunk_header_is_ignored() {
        let text = "diff --git a/pom.xml b/pom.xml\n--- a/pom.xml\n+++ b/pom.xml\n@@ -5,1 +5,1 @@ com.example.Option2\n-<v>1</v>\n+<v>2</v>\n";
        assert_eq!(parse(text).unwrap().change_count(), 2);
    }

    #[test]
    fn crlf_and_missing_newline_markers() {
        let text = "diff --git a/a.txt b/a.txt\r\n--- a/a.txt\r\n+++ b/a.txt\r\n@@ -1 +1 @@\r\n-old\r\n\\ No newline at end of file\r\n+new\r\n\\ No newline at end of file\r\n";
        let diff = parse(text).unwrap();
        assert_eq!(
            changes(&diff),
            vec![("a.txt".into(), '-', "old".into()), ("a.txt".into(), '+', "new".into())]
        );
    }

    #[test]
    fn new_deleted_and_renamed_files() {
        let text = "diff --git a/New.java b/New.java\nnew file mode 100644\nindex 0000000..1\n--- /dev/null\n+++ b/New.java\n@@ -0,0 +1,2 @@\n+class New {\n+}\ndiff --git a/Old.java b/Old.java\ndeleted file mode 100644\n--- a/Old.java\n+++ /dev/null\n@@ -1 +0,0 @@\n-class Old {}\ndiff --git a/src/A.java b/src/B.java\nsimilarity index 90%\nrename from src/A.java\nrename to src/B.java\n--- a/src/A.java\n+++ b/src/B.java\n@@ -1 +1 @@\n-class A {}\n+class B {}\ndiff --git a/x/Same.java b/y/Same.java\nsimilarity index 100%\nrename from x/Same.java\nrename to y/Same.java\n";
        let diff = parse(text).unwrap();
        assert_eq!(diff.files.len(), 4);
        assert!(diff.files[0].is_new());
        assert!(diff.files[1].is_deleted());
        assert!(diff.files[2].is_rename());
        assert_eq!(diff.files[3].old_path.as_deref(), Some("x/Same.java"));
        assert_eq!(diff.files[3].new_path.as_deref(), Some("y/Same.java"));
        assert_eq!(
            changes(&diff),
            vec![
                ("New.java".into(), '+', "class New {".into()),
                ("New.java".into(), '+', "}".into()),
                ("Old.java".into(), '-', "class Old {}".into()),
                ("src/A.java".into(), '-', "class A {}".into()),
                ("src/B.java".into(), '+', "class B {}".into()),
            ]
        );
        assert_eq!(diff.files[0].hunks[0].lines[1].new_line, Some(2));
    }

    #[test]
    fn binary_sections_are_dropped_for_the_metric_but_seen_by_parse_all() {
        let text = "diff --git a/logo.png b/logo.png\nnew file mode 100644\nindex 0000000..cb76119\nBinary files /dev/null and b/logo.png differ\ndiff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n";
        assert_eq!(parse(text).unwrap().files.len(), 1);
        let all = parse_all(text).unwrap();
        assert_eq!(all.files.len(), 2);
        assert!(all.files[0].binary);
    }

    #[test]
    fn duplicated_sections_keep_the_first() {
        let section = |new: &str| {
            format!(
                "diff --git a/gradle/wrapper/gradle-wrapper.properties b/gradle/wrapper/gradle-wrapper.properties\n--- a/gradle/wrapper/gradle-wrapper.properties\n+++ b/gradle/wrapper/gradle-wrapper.properties\n@@ -1 +1 @@\n-old\n+{new}\n"
            )
        };
        let text = format!("{}{}", section("first"), section("second"));
        let diff = parse(&text).unwrap();
        assert_eq!(diff.files.len(), 1);
        assert_eq!(changes(&diff)[1].2, "first");
    }

    #[test]
    fn excluded_paths_are_dropped() {
        let text = "diff --git a/gradlew b/gradlew\n--- a/gradlew\n+++ b/gradlew\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/target/x.txt b/target/x.txt\n--- a/target/x.txt\n+++ b/target/x.txt\n@@ -1 +1 @@\n-a\n+b\n";
        assert!(parse(text).unwrap().files.is_empty());
        assert_eq!(parse_all(text).unwrap().files.len(), 2);
    }

    #[test]
    fn plain_unified_diffs_without_git_headers() {
        let text = "--- a/one.txt\t2024-01-01 00:00:00\n+++ b/one.txt\t2024-01-02 00:00:00\n@@ -1 +1 @@\n-1\n+2\n--- a/two.txt\n+++ b/two.txt\n@@ -1 +1,2 @@\n x\n+y\n";
        let diff = parse(text).unwrap();
        assert_eq!(
            changes(&diff),
            vec![
                ("one.txt".into(), '-', "1".into()),
                ("one.txt".into(), '+', "2".into()),
                ("two.txt".into(), '+', "y".into())
            ]
        );
    }

    #[test]
    fn empty_context_line_without_its_space() {
        let text = "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,3 +1,3 @@\n x\n\n-y\n+z\n";
        assert_eq!(parse(text).unwrap().change_count(), 2);
    }

    #[test]
    fn quoted_and_spaced_paths() {
        let text = "diff --git \"a/caf\\303\\251 menu.txt\" \"b/caf\\303\\251 menu.txt\"\n--- \"a/caf\\303\\251 menu.txt\"\n+++ \"b/caf\\303\\251 menu.txt\"\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/my b/file.txt b/my b/file.txt\n--- a/my b/file.txt\n+++ b/my b/file.txt\n@@ -1 +1 @@\n-a\n+b\n";
        let diff = parse(text).unwrap();
        assert_eq!(diff.files[0].path(), "café menu.txt");
        assert_eq!(diff.files[1].path(), "my b/file.txt");
    }

    #[test]
    fn excluded_sections_are_cut_from_the_text() {
        let text = "diff --git a/target/x b/target/x\n--- a/target/x\n+++ b/target/x\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/A.java b/A.java\n--- a/A.java\n+++ b/A.java\n@@ -1 +1 @@\n-a\n+b\n";
        let kept = remove_excluded_sections(text);
        assert!(kept.starts_with("diff --git a/A.java"), "{kept}");
        assert_eq!(parse(&kept).unwrap(), parse(text).unwrap());
    }

    #[test]
    fn empty_and_whitespace_input_is_an_empty_diff() {
        assert!(parse("").unwrap().files.is_empty());
        assert!(parse("\n  \n").unwrap().files.is_empty());
    }

    #[test]
    fn text_that_is_not_a_diff_is_an_error() {
        assert!(parse("hello world\nthis is prose\n--- but not a header\n").is_err());
    }

    #[test]
    fn truncated_hunk_keeps_what_was_read() {
        let text = "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,3 +1,3 @@\n-x\n+y\n";
        assert_eq!(parse(text).unwrap().change_count(), 2);
    }

    #[test]
    fn hunk_header_forms() {
        assert_eq!(hunk_header("@@ -1 +1 @@"), Some((1, 1, 1, 1)));
        assert_eq!(hunk_header("@@ -0,0 +1,20 @@ class X"), Some((0, 0, 1, 20)));
        assert_eq!(hunk_header("@@ -x +1 @@"), None);
        assert_eq!(hunk_header("@@ -4294967295,0 +1 @@"), None, "overflowing ranges are malformed");
        assert!(parse("diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -4294967295,0 +1 @@\n+x\n").is_ok());
    }
}
