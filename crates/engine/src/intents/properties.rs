//! `.properties` files (Spring `application.properties`, `gradle.properties`, ...): key renames,
//! value changes, added and removed keys.

use super::atomic::Atomic;
use super::change::{FileChange, lines};
use super::entries::{self, Entry, Format};

pub(crate) fn analyze(file: &FileChange<'_>) -> Option<Vec<Atomic>> {
    let old = parse(file.old_text.as_deref()?);
    let new = parse(file.new_text.as_deref()?);
    Some(entries::intents(file, &old, &new, Format::Properties))
}

/// Parses `key=value`, `key: value` and `key value` entries, with `\` line continuations; `#` and
/// `!` start comments.
pub(crate) fn parse(text: &str) -> Vec<Entry> {
    let all = lines(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let first = i;
        let mut logical = all[i].trim_start().to_string();
        while ends_with_continuation(&logical) && i + 1 < all.len() {
            logical.pop();
            i += 1;
            logical.push_str(all[i].trim_start());
        }
        i += 1;
        if logical.is_empty() || logical.starts_with('#') || logical.starts_with('!') {
            continue;
        }
        let (key, value) = split_entry(&logical);
        out.push(Entry { scope: 0, key, value, quoted: false, span: (first + 1, i), parents: Vec::new() });
    }
    out
}

/// An odd number of trailing backslashes continues the line.
fn ends_with_continuation(line: &str) -> bool {
    line.chars().rev().take_while(|&c| c == '\\').count() % 2 == 1
}

/// The key ends at the first unescaped `=`, `:` or whitespace; one separator and the whitespace
/// around it are skipped.
fn split_entry(line: &str) -> (String, String) {
    let mut key = String::new();
    let mut chars = line.char_indices().peekable();
    let mut rest_at = line.len();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, next)) = chars.next() {
                    key.push(next);
                }
            }
            '=' | ':' | ' ' | '\t' => {
                rest_at = i;
                break;
            }
            _ => key.push(c),
        }
    }
    let rest = line[rest_at..].trim_start();
    let rest = rest.strip_prefix(['=', ':']).unwrap_or(rest).trim_start();
    (key, rest.to_string())
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn keys_values_and_continuations() {
        let entries = parse("# c\na.b=1\nc.d : two words\ne\\:f x\nlong=a,\\\n  b\n\n");
        let pairs: Vec<(&str, &str, (usize, usize))> =
            entries.iter().map(|e| (e.key.as_str(), e.value.as_str(), e.span)).collect();
        assert_eq!(
            pairs,
            vec![
                ("a.b", "1", (2, 2)),
                ("c.d", "two words", (3, 3)),
                ("e:f", "x", (4, 4)),
                ("long", "a,b", (5, 6))
            ]
        );
    }
}
