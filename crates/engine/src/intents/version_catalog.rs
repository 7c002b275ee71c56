//! Gradle version catalogs (`gradle/libs.versions.toml`): a string value changed under
//! `[versions]`, `[libraries]` or `[plugins]` (`jspecify = "1.0.0"`,
//! `guava = "com.google.guava:guava:33.0.0-jre"`). Inline tables, added and removed entries are
//! left to the plain-text fallback (the file is not a structured one).

use crate::model::Change;

use super::Side;
use super::atomic::Atomic;
use super::change::{FileChange, lines};
use super::entries::{self, Difference, Entry};

pub(crate) fn analyze(file: &FileChange<'_>) -> Vec<Atomic> {
    let (Some(old), Some(new)) = (file.old_text.as_deref(), file.new_text.as_deref()) else {
        return Vec::new();
    };
    let (old, new) = (parse(old), parse(new));
    let mut out = Vec::new();
    for difference in entries::compare(file, &old, &new) {
        let Difference::Value(before, after) = difference else {
            continue;
        };
        let change = Change::GradleCatalogValue {
            key: before.key.clone(),
            old_value: before.value.clone(),
            new_value: after.value.clone(),
        };
        let title = format!("Set {} {} -> {} in {}", before.key, before.value, after.value, file.path);
        let atomic = Atomic::new(change, file.path, title)
            .evidence(entries::lines_of(file, before, Side::Base, &new))
            .evidence(entries::lines_of(file, after, Side::Head, &old));
        if !atomic.evidence.is_empty() {
            out.push(atomic);
        }
    }
    out
}

/// The `key = "string"` entries of the catalog's tables, keyed by their TOML path
/// (`versions.jspecify`); anything else (inline tables, arrays, multi-line strings) is skipped.
fn parse(text: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut table = String::new();
    for (index, raw) in lines(text).into_iter().enumerate() {
        let line = raw.trim();
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            table = name.trim().to_string();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        let Some(string) = basic_string(value) else {
            continue;
        };
        if table.is_empty() || key.is_empty() || key.contains(['"', '\'', ' ']) {
            continue;
        }
        out.push(Entry {
            scope: 0,
            key: format!("{table}.{key}"),
            value: string.to_string(),
            quoted: true,
            span: (index + 1, index + 1),
            parents: Vec::new(),
        });
    }
    out
}

/// The content of a one-line basic string without escapes (`"1.0.0"`, a comment may follow).
fn basic_string(value: &str) -> Option<&str> {
    let rest = value.strip_prefix('"')?;
    let end = rest.find('"')?;
    let (content, after) = (&rest[..end], rest[end + 1..].trim());
    (!content.contains('\\') && (after.is_empty() || after.starts_with('#'))).then_some(content)
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn string_values_by_their_toml_path() {
        let entries = parse(
            "# c\n[versions]\njspecify = \"1.0.0\" # note\nboot = { strictly = \"3\" }\n\n[libraries]\nguava = \"g:guava:33\"\nesc = \"a\\\"b\"\n",
        );
        let found: Vec<(&str, &str, (usize, usize))> =
            entries.iter().map(|e| (e.key.as_str(), e.value.as_str(), e.span)).collect();
        assert_eq!(
            found,
            vec![("versions.jspecify", "1.0.0", (3, 3)), ("libraries.guava", "g:guava:33", (7, 7))]
        );
    }
}
