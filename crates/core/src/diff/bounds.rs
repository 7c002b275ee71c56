//! How much of a PR's diff the line-level work reads (intents, recipes, the metric, refinement).
//! That work is linear or worse in the changed lines, and every artifact that lists lines repeats
//! them, so a PR that adds one 11 MB data file would spend the run's time and fill the disk on a
//! file no recipe is meant to make. A file whose diff section is over [`MAX_FILE_BYTES`] or
//! [`MAX_FILE_LINES`] changed lines is left out, and so are the largest of the rest while they are
//! together over [`MAX_TOTAL_BYTES`] or [`MAX_TOTAL_LINES`]. A file left out is
//! [`super::Unreproducible::TooLarge`]: the intent tree and every option's metrics list it with its
//! size, outside the metric, as they list a symbolic link's lines.

use serde::{Deserialize, Serialize};

/// Largest diff section of one file that is read line by line.
pub(crate) const MAX_FILE_BYTES: usize = 1 << 20;
/// Most changed lines of one file that are read line by line.
pub(crate) const MAX_FILE_LINES: usize = 10_000;
/// Largest diff of the whole PR read line by line (the largest files are left out past it).
pub(crate) const MAX_TOTAL_BYTES: usize = 8 << 20;
/// Most changed lines of the whole PR read line by line.
pub(crate) const MAX_TOTAL_LINES: usize = 50_000;

/// A file whose diff section was left out: where, and how large it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TooLarge {
    /// Path of the file, as its section names it.
    pub path: String,
    /// Changed lines of its section.
    pub lines: usize,
    /// Bytes of its section.
    pub bytes: usize,
}

/// A diff's text within the bounds, and the files left out of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bounded {
    /// The diff's text, without the sections left out.
    pub text: String,
    /// Sorted by path.
    pub left_out: Vec<TooLarge>,
}

impl Bounded {
    /// The text with a preamble naming the files left out (`#` lines before the first section,
    /// which diff readers and `git apply` skip): what `pr.diff` holds.
    pub fn annotated(&self) -> String {
        if self.left_out.is_empty() {
            return self.text.clone();
        }
        let mut out = format!(
            "# rewrite-assist left {} file{} out of this diff and of the analysis: {}\n",
            self.left_out.len(),
            plural(self.left_out.len()),
            LIMITS
        );
        for file in &self.left_out {
            out.push_str(&format!("#   {}\n", file.describe()));
        }
        out + &self.text
    }
}

impl TooLarge {
    /// `big.txt: 182277 changed lines, 11.0 MiB of diff`.
    pub fn describe(&self) -> String {
        format!(
            "{}: {} changed line{}, {:.1} MiB of diff",
            self.path,
            self.lines,
            plural(self.lines),
            self.bytes as f64 / f64::from(1 << 20)
        )
    }
}

/// The bounds in words, for reports (a unit test keeps them in step with the constants).
pub const LIMITS: &str = "a file's diff is read line by line up to 1 MiB and 10,000 changed lines, \
and the whole PR's up to 8 MiB and 50,000 lines (the largest files are left out past that)";

/// One file's section of the diff text.
struct Section<'a> {
    text: &'a str,
    path: String,
    excluded: bool,
    lines: usize,
}

/// `text` without the file sections over the bounds. Sections are cut at `diff --git` lines (a
/// diff without them, which git never writes for a PR, is one preamble and kept whole). A section
/// of an excluded path (build output), which never counts, is dropped without being listed.
pub fn bound(text: &str) -> Bounded {
    let (preamble, sections) = sections(text);
    let mut keep: Vec<bool> = sections.iter().map(|s| within_file_bounds(s)).collect();
    // Past the PR's total, the largest files go first (by changed lines, then bytes, then path).
    let mut order: Vec<usize> = (0..sections.len()).filter(|&i| keep[i] && !sections[i].excluded).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&sections[a], &sections[b]);
        (b.lines, b.text.len(), &a.path).cmp(&(a.lines, a.text.len(), &b.path))
    });
    let mut bytes: usize = order.iter().map(|&i| sections[i].text.len()).sum();
    let mut lines: usize = order.iter().map(|&i| sections[i].lines).sum();
    for &i in &order {
        if bytes <= MAX_TOTAL_BYTES && lines <= MAX_TOTAL_LINES {
            break;
        }
        keep[i] = false;
        bytes -= sections[i].text.len();
        lines -= sections[i].lines;
    }
    let mut bounded = Bounded { text: preamble.to_string(), left_out: Vec::new() };
    for (section, keep) in sections.iter().zip(keep) {
        if keep {
            bounded.text.push_str(section.text);
        } else if !section.excluded {
            let (path, lines, bytes) = (section.path.clone(), section.lines, section.text.len());
            bounded.left_out.push(TooLarge { path, lines, bytes });
        }
    }
    bounded.left_out.sort_by(|a, b| a.path.cmp(&b.path));
    bounded
}

impl Bounded {
    /// Logs a warning per file left out (once per run: where the PR's diff is first read).
    pub fn warn(&self) {
        for file in &self.left_out {
            tracing::warn!("left out of the analysis, too large to read line by line: {}", file.describe());
        }
    }
}

/// `s` after a count other than one (the model's `plural`, which this bottom module cannot use).
fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn within_file_bounds(section: &Section<'_>) -> bool {
    section.text.len() <= MAX_FILE_BYTES && section.lines <= MAX_FILE_LINES
}

/// The preamble before the first `diff --git` line, and each file's section.
fn sections(text: &str) -> (&str, Vec<Section<'_>>) {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices("\ndiff --git ").map(|(i, _)| i + 1))
        .filter(|&i| text[i..].starts_with("diff --git "))
        .collect();
    let preamble = &text[..starts.first().copied().unwrap_or(text.len())];
    let ends = starts.iter().skip(1).copied().chain(std::iter::once(text.len()));
    let sections = starts.iter().zip(ends).map(|(&start, end)| section(&text[start..end])).collect();
    (preamble, sections)
}

fn section(text: &str) -> Section<'_> {
    let header = text.lines().next().unwrap_or("");
    let (old, new) = super::parse::git_header_paths(header.trim_start_matches("diff --git ").trim_end());
    let key = old.clone().or_else(|| new.clone()).unwrap_or_default();
    let path = new.or(old).unwrap_or_default();
    // Changed lines: `+`/`-` lines from the first hunk on (the `---`/`+++` headers come before it).
    let lines = text
        .lines()
        .skip_while(|l| !l.starts_with("@@ "))
        .filter(|l| l.starts_with('+') || l.starts_with('-'))
        .count();
    Section { text, path, excluded: super::is_excluded(&key), lines }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn added_file(path: &str, lines: usize, width: usize) -> String {
        let mut out = format!(
            "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{lines} @@\n"
        );
        let pad = "x".repeat(width);
        for i in 0..lines {
            out.push_str(&format!("+{i}{pad}\n"));
        }
        out
    }

    const EDIT: &str = "diff --git a/A.java b/A.java\n--- a/A.java\n+++ b/A.java\n@@ -1 +1 @@\n-import java.util.Vector;\n+import java.util.ArrayList;\n";

    #[test]
    fn a_file_over_the_bounds_is_left_out_and_named_the_rest_kept_as_it_was() {
        let big = added_file("data/big.txt", MAX_FILE_LINES + 1, 3);
        let wide = added_file("wide.txt", 10, MAX_FILE_BYTES / 10);
        let text = format!("{EDIT}{big}{wide}");
        let bounded = bound(&text);
        assert_eq!(bounded.text, EDIT);
        let left: Vec<(&str, usize)> = bounded.left_out.iter().map(|t| (t.path.as_str(), t.lines)).collect();
        assert_eq!(left, vec![("data/big.txt", MAX_FILE_LINES + 1), ("wide.txt", 10)]);
        assert_eq!(bounded.left_out[0].bytes, big.len());
        let annotated = bounded.annotated();
        assert!(annotated.starts_with("# rewrite-assist left 2 files out"), "{annotated}");
        assert!(
            annotated.contains("#   data/big.txt: 10001 changed lines, 0.1 MiB of diff\n"),
            "{annotated}"
        );
        // The preamble is no change: the annotated diff reads as the bounded one.
        assert_eq!(super::super::parse(&annotated).unwrap(), super::super::parse(EDIT).unwrap());
        // Nothing over the bounds: the text as it was.
        assert_eq!(bound(&text[..EDIT.len()]), Bounded { text: EDIT.into(), left_out: Vec::new() });
        assert_eq!(bound("").text, "");
    }

    #[test]
    fn past_the_total_the_largest_files_go_first_and_build_output_is_never_listed() {
        let per_file = MAX_FILE_LINES;
        let files: Vec<String> =
            (0..6).map(|i| added_file(&format!("f{i}.txt"), per_file - i * 10, 2)).collect();
        let output = added_file("target/out.txt", MAX_FILE_LINES * 2, 2);
        let text = format!("{EDIT}{}{output}", files.concat());
        let bounded = bound(&text);
        // 6 files of about 10,000 lines: the largest one goes, the other five fit 50,000 lines.
        let left: Vec<&str> = bounded.left_out.iter().map(|t| t.path.as_str()).collect();
        assert_eq!(left, vec!["f0.txt"]);
        assert_eq!(bounded.text, format!("{EDIT}{}", files[1..].concat()));
    }

    #[test]
    fn the_limits_in_words_are_the_constants() {
        assert_eq!(MAX_FILE_BYTES, 1 << 20);
        assert_eq!(MAX_TOTAL_BYTES, 8 << 20);
        for words in ["1 MiB", "10,000 changed lines", "8 MiB", "50,000 lines"] {
            assert!(LIMITS.contains(words), "{words}");
            assert!(super::super::Unreproducible::TooLarge.describe().contains(words), "{words}");
        }
        assert_eq!((MAX_FILE_LINES, MAX_TOTAL_LINES), (10_000, 50_000));
    }
}
