//! Bounds on a recipe file, checked before YAML parsing: the parser's time grows with the square of
//! the nesting depth (200,000 levels of `[` in 400 KB took minutes), so depth is measured first by
//! a linear scan that knows just enough YAML (quotes, comments, block scalars, flow brackets,
//! indentation) to count levels.

use std::sync::LazyLock;

use regex::Regex;

/// Largest recipe file read (a generated recipe of a thousand text steps is well under 1 MiB).
pub(crate) const MAX_BYTES: usize = 16 << 20;
/// Deepest nesting of mappings and sequences (a recipe needs about 6).
pub(crate) const MAX_DEPTH: usize = 64;
/// Most `recipeList` and `preconditions` entries in one file, over all its recipes.
pub(crate) const MAX_STEPS: usize = 10_000;

/// Why a recipe file is refused before it is parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    /// The file's size in bytes, over the limit.
    #[error("the file is {0} bytes; recipe files are limited to {MAX_BYTES} bytes")]
    Size(usize),
    /// The line that nests too deep.
    #[error("line {0} nests deeper than {MAX_DEPTH} levels")]
    Depth(usize),
    /// The file's number of recipe steps, over the limit.
    #[error("{0} recipe steps; recipe files are limited to {MAX_STEPS}")]
    Steps(usize),
}

/// Reads a recipe file the user names: at most [`MAX_BYTES`], UTF-8.
pub fn read_recipe_file(path: &std::path::Path) -> anyhow::Result<String> {
    let bytes = crate::setup::input::read_bounded(path, MAX_BYTES, "recipe files")?;
    String::from_utf8(bytes)
        .map_err(|_| crate::error::bad_input(format!("{} is not UTF-8 text", path.display())))
}

/// Checks size and nesting depth of a recipe file's text.
pub(crate) fn check(text: &str) -> Result<(), LimitError> {
    if text.len() > MAX_BYTES {
        return Err(LimitError::Size(text.len()));
    }
    match line_deeper_than(text, MAX_DEPTH) {
        Some(line) => Err(LimitError::Depth(line)),
        None => Ok(()),
    }
}

/// The first line (1-based) where the nesting depth exceeds `max`. The count errs on the high side
/// (a continuation line of a plain scalar counts as a level), never on the low side for the
/// constructs that make parsing slow: flow brackets, compact `- - -` sequences, indentation.
pub(crate) fn line_deeper_than(text: &str, max: usize) -> Option<usize> {
    let mut scan = Scan::default();
    for (index, line) in text.lines().enumerate() {
        if scan.line(line) > max {
            return Some(index + 1);
        }
    }
    None
}

#[derive(Default)]
struct Scan {
    /// Open `[` and `{` (flow collections span lines).
    flow: usize,
    /// Indentations of the open block collections.
    indents: Vec<usize>,
    /// Inside a quoted scalar (quotes span lines too).
    quote: Option<char>,
    /// Inside a block scalar (`|`, `>`) opened on a line with this indentation.
    block_scalar: Option<usize>,
}

impl Scan {
    /// Reads one line; returns the deepest level reached on it.
    fn line(&mut self, line: &str) -> usize {
        let content = line.trim_start_matches([' ', '\t']);
        let indent = line.len() - content.len();
        if let Some(parent) = self.block_scalar {
            if content.is_empty() || indent > parent {
                return 0;
            }
            self.block_scalar = None;
        }
        let mut rest = content;
        if self.quote.is_none() && self.flow == 0 {
            if content.is_empty() || content.starts_with('#') {
                return 0;
            }
            while self.indents.last().is_some_and(|&open| open > indent) {
                self.indents.pop();
            }
            if self.indents.last() != Some(&indent) {
                self.indents.push(indent);
            }
            // `- - - x` and `? ` open one level each on the same line.
            let mut compact = 0;
            while let Some(after) = ["- ", "? "].iter().find_map(|p| rest.strip_prefix(p)) {
                compact += 1;
                rest = after.trim_start_matches(' ');
            }
            let depth = self.indents.len() + compact;
            let deepest = depth + self.flow_in(rest);
            if self.quote.is_none() && self.flow == 0 && opens_block_scalar(rest) {
                self.block_scalar = Some(indent);
            }
            return deepest;
        }
        self.indents.len() + self.flow_in(rest)
    }

    /// Follows quotes and brackets through `text`; returns the deepest flow level it reached.
    fn flow_in(&mut self, text: &str) -> usize {
        let mut deepest = self.flow;
        let mut previous = ' ';
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match self.quote {
                Some('\'') => {
                    if c == '\'' {
                        // `''` is an escaped quote inside single quotes.
                        if chars.peek() == Some(&'\'') {
                            chars.next();
                        } else {
                            self.quote = None;
                        }
                    }
                }
                Some(_) => {
                    if c == '\\' {
                        chars.next();
                    } else if c == '"' {
                        self.quote = None;
                    }
                }
                None => match c {
                    '#' if previous == ' ' || previous == '\t' => break,
                    '\'' | '"' if " \t[{,:-?".contains(previous) => self.quote = Some(c),
                    '[' | '{' => {
                        self.flow += 1;
                        deepest = deepest.max(self.flow);
                    }
                    ']' | '}' => self.flow = self.flow.saturating_sub(1),
                    _ => {}
                },
            }
            previous = c;
        }
        deepest
    }
}

/// A value that starts a block scalar: `key: |`, `- >-`, `|2+` … at the end of the line.
fn opens_block_scalar(text: &str) -> bool {
    static INDICATOR: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"(?:^|[\s:])[|>][+-]?[1-9]?[+-]?\s*(?:#.*)?$").ok());
    INDICATOR.as_ref().is_some_and(|re| re.is_match(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECIPE: &str = "type: specs.openrewrite.org/v1beta/recipe\nname: a.B\nrecipeList:\n  - org.openrewrite.text.FindAndReplace:\n      find: \"[[[[\"\n      replace: '{{'' # not a comment'\n  - org.openrewrite.java.ChangeType: {oldFullyQualifiedTypeName: a.B, newFullyQualifiedTypeName: [c]}\n  - org.openrewrite.text.CreateTextFile:\n      fileContents: |\n        [[[[[[[[[[[[ - - - - - - - -\n          {{{{{{{{{{{{{{{{{{{{\n      relativeFileName: x # [[[[[\n";

    #[test]
    fn a_recipe_is_shallow_whatever_its_quoted_and_literal_text_holds() {
        for max in [5, 64] {
            assert_eq!(line_deeper_than(RECIPE, max), None, "max {max}");
        }
        assert_eq!(line_deeper_than(RECIPE, 3), Some(7), "a flow sequence in a flow mapping in a step");
    }

    #[test]
    fn deep_flow_compact_and_indented_nesting_are_caught_where_they_start() {
        let flow = format!("a: b\nc: {}1{}\n", "[".repeat(100), "]".repeat(100));
        assert_eq!(line_deeper_than(&flow, 64), Some(2));
        let flow_over_lines = format!("a: {}\n", "[\n".repeat(100));
        assert_eq!(line_deeper_than(&flow_over_lines, 64), Some(64));
        let compact = format!("a:\n  {}x\n", "- ".repeat(100));
        assert_eq!(line_deeper_than(&compact, 64), Some(2));
        let indented: String = (0..100).map(|i| format!("{}k{i}:\n", " ".repeat(i))).collect();
        assert_eq!(line_deeper_than(&indented, 64), Some(65));
        let mappings = format!("a: {}1{}\n", "{x: ".repeat(100), "}".repeat(100));
        assert_eq!(line_deeper_than(&mappings, 64), Some(1));
    }

    #[test]
    fn size_is_checked_first() {
        let big = "#".repeat(MAX_BYTES + 1);
        assert_eq!(check(&big), Err(LimitError::Size(MAX_BYTES + 1)));
        assert_eq!(check(RECIPE), Ok(()));
    }

    #[test]
    fn block_scalar_indicators() {
        for yes in ["key: |", "- >-", "key: |2+", "key: > # folded", "|"] {
            assert!(opens_block_scalar(yes), "{yes}");
        }
        for no in ["key: a | b", "key: a>", "key: x", "a: \"|\""] {
            assert!(!opens_block_scalar(no), "{no}");
        }
    }
}
