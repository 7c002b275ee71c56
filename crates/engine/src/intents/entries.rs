//! Key/value configuration (`.properties`, YAML, workflow values) compared key by key: a value
//! changed, a key renamed (the same value under a new key, edited in the same place), a key added
//! or removed.

use std::collections::BTreeMap;

use crate::model::{Change, ChangeLine};

use super::Side;
use super::atomic::Atomic;
use super::change::FileChange;

/// The configuration formats whose differences become intents of their own kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Properties,
    /// YAML values carry whether they are quoted (YAML keeps quoting; recipes need to know it).
    Yaml,
}

impl Format {
    fn value_change(self, key: &str, old_value: &str, new_value: &str, quoted: bool) -> Change {
        let (key, old_value, new_value) = (key.to_string(), old_value.to_string(), new_value.to_string());
        match self {
            Format::Properties => Change::PropertiesValueChange { key, old_value, new_value },
            Format::Yaml => Change::YamlValueChange { key, old_value, new_value, quoted },
        }
    }

    fn key_rename(self, old_key: &str, new_key: &str) -> Change {
        let (old_key, new_key) = (old_key.to_string(), new_key.to_string());
        match self {
            Format::Properties => Change::PropertiesKeyRename { old_key, new_key },
            Format::Yaml => Change::YamlKeyRename { old_key, new_key },
        }
    }

    fn key_added(self, key: &str, value: &str, quoted: bool) -> Change {
        let (key, value) = (key.to_string(), value.to_string());
        match self {
            Format::Properties => Change::PropertiesKeyAdded { key, value },
            Format::Yaml => Change::YamlKeyAdded { key, value, quoted },
        }
    }

    fn key_removed(self, key: &str) -> Change {
        let key = key.to_string();
        match self {
            Format::Properties => Change::PropertiesKeyRemoved { key },
            Format::Yaml => Change::YamlKeyRemoved { key },
        }
    }
}

/// One atomic intent per difference between the two sides, with the changed lines as evidence.
pub(crate) fn intents(file: &FileChange<'_>, old: &[Entry], new: &[Entry], format: Format) -> Vec<Atomic> {
    let path = file.path;
    let before = |b: &Entry| lines_of(file, b, Side::Base, new);
    let after = |a: &Entry| lines_of(file, a, Side::Head, old);
    let mut out = Vec::new();
    for difference in compare(file, old, new) {
        let atomic = match difference {
            Difference::Value(b, a) => {
                let title = format!("Set {} {} -> {} in {path}", b.key, b.value, a.value);
                Atomic::new(format.value_change(&b.key, &b.value, &a.value, a.quoted), path, title)
                    .evidence(before(b))
                    .evidence(after(a))
            }
            Difference::Rename(b, a) => {
                let title = format!("Rename key {} -> {} in {path}", b.key, a.key);
                Atomic::new(format.key_rename(&b.key, &a.key), path, title)
                    .evidence(before(b))
                    .evidence(after(a))
            }
            Difference::Added(a) => {
                let title = format!("Add key {} = {} in {path}", a.key, a.value);
                Atomic::new(format.key_added(&a.key, &a.value, a.quoted), path, title).evidence(after(a))
            }
            Difference::Removed(b) => {
                let title = format!("Remove key {} from {path}", b.key);
                Atomic::new(format.key_removed(&b.key), path, title).evidence(before(b))
            }
        };
        if !atomic.evidence.is_empty() {
            out.push(atomic);
        }
    }
    out
}

/// One key with its value and the lines that hold it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Documents of a multi-document YAML file are told apart by this; 0 elsewhere.
    pub scope: usize,
    pub key: String,
    pub value: String,
    pub quoted: bool,
    /// Lines of the entry itself (key to end of value), inclusive.
    pub span: (usize, usize),
    /// Key lines of parent mappings, for YAML: `(path, line)`. A parent that exists on only one
    /// side was added or removed with this entry.
    pub parents: Vec<(String, usize)>,
}

pub(crate) enum Difference<'a> {
    Value(&'a Entry, &'a Entry),
    Rename(&'a Entry, &'a Entry),
    Added(&'a Entry),
    Removed(&'a Entry),
}

/// Compares two sides; later duplicates of a key win, as they do when the file is loaded.
pub(crate) fn compare<'a>(file: &FileChange<'_>, old: &'a [Entry], new: &'a [Entry]) -> Vec<Difference<'a>> {
    let index = |entries: &'a [Entry]| -> BTreeMap<(usize, &'a str), &'a Entry> {
        entries.iter().map(|e| ((e.scope, e.key.as_str()), e)).collect()
    };
    let (old_map, new_map) = (index(old), index(new));
    let mut out = Vec::new();
    let mut removed: Vec<&Entry> = Vec::new();
    for (key, before) in &old_map {
        match new_map.get(key) {
            Some(after) if after.value != before.value || after.quoted != before.quoted => {
                out.push(Difference::Value(before, after))
            }
            Some(_) => {}
            None => removed.push(before),
        }
    }
    let mut added: Vec<&Entry> =
        new_map.iter().filter(|(k, _)| !old_map.contains_key(*k)).map(|(_, e)| *e).collect();
    // Renames: the same non-empty value under a new key; an edit in the same place wins over one
    // elsewhere in the file.
    removed.sort_by_key(|e| e.span);
    added.sort_by_key(|e| e.span);
    let mut left = Vec::new();
    for before in removed {
        let same = |a: &&Entry| a.scope == before.scope && a.value == before.value && !a.value.is_empty();
        let here = added.iter().position(|a| same(a) && same_place(file, before, a));
        match here.or_else(|| added.iter().position(same)) {
            Some(j) => out.push(Difference::Rename(before, added.remove(j))),
            None => left.push(before),
        }
    }
    out.extend(left.into_iter().map(Difference::Removed));
    out.extend(added.into_iter().map(Difference::Added));
    out
}

fn same_place(file: &FileChange<'_>, old: &Entry, new: &Entry) -> bool {
    let block = file.block_between(Side::Base, old.span.0, old.span.1);
    block.is_some() && block == file.block_between(Side::Head, new.span.0, new.span.1)
}

/// The changed lines of an entry on its side, with the key lines of parents the other side lacks.
pub(crate) fn lines_of(file: &FileChange<'_>, entry: &Entry, side: Side, other: &[Entry]) -> Vec<ChangeLine> {
    let pick = |first: usize, last: usize| match side {
        Side::Base => file.removed_between(first, last),
        Side::Head => file.added_between(first, last),
    };
    let mut lines = pick(entry.span.0, entry.span.1);
    for (path, line) in &entry.parents {
        let shared = other.iter().any(|o| o.scope == entry.scope && o.parents.iter().any(|(p, _)| p == path));
        if !shared {
            lines.extend(pick(*line, *line));
        }
    }
    lines
}
