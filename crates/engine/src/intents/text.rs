//! The fallback for lines no structured analyzer explained: whole added/deleted files, import lines
//! that only moved, whitespace-only edits, and line-level `from -> to` text edits.

use std::collections::{BTreeMap, HashSet};

use crate::diff::ChangeKind;
use crate::model::Change;
use crate::model::ChangeLine;
use crate::model::intent::label;

use super::atomic::Atomic;
use super::change::{FileChange, pair_lines};
use super::coverage::{ClaimKey, key_of};

/// A new or deleted file is one intent claiming all its lines. A new file with lines that are not
/// UTF-8 is none: no recipe can write it (a deleted one is deleted whatever its bytes).
pub(crate) fn whole_file(file: &FileChange<'_>) -> Option<Atomic> {
    let changes = file.changes();
    let count = changes.len();
    if file.old_path.is_none() {
        if super::unreproducible::any_not_utf8(changes.iter()) {
            return None;
        }
        let title = format!("Add file {}", file.path);
        return Some(Atomic::new(Change::FileAdded { lines: count }, file.path, title).evidence(changes));
    }
    if file.new_path.is_none() {
        let title = format!("Delete file {}", file.path);
        return Some(Atomic::new(Change::FileDeleted { lines: count }, file.path, title).evidence(changes));
    }
    None
}

/// A renamed (moved) file; its content changes are explained by the other intents.
pub(crate) fn renamed(file: &FileChange<'_>) -> Option<Atomic> {
    match (file.old_path, file.new_path) {
        (Some(old), Some(new)) if old != new => Some(Atomic::new(
            Change::FileRenamed { old_file: old.to_string(), new_file: new.to_string() },
            new,
            format!("Move file {old} -> {new}"),
        )),
        _ => None,
    }
}

/// Intents for the lines of `file` nobody claimed. In a file no analyzer understood (`structured`
/// false) every line ends up in a text edit; in a structured one only replaced lines do, and lines
/// purely added or removed stay unexplained. So do blocks with a line that is not UTF-8: a text
/// edit of them could neither match nor write those bytes.
pub(crate) fn leftovers(file: &FileChange<'_>, claimed: &HashSet<ClaimKey>, structured: bool) -> Vec<Atomic> {
    let free = |line: &&ChangeLine| !claimed.contains(&key_of(line));
    let mut blocks: Vec<(Vec<&ChangeLine>, Vec<&ChangeLine>)> = file
        .blocks()
        .iter()
        .filter(|b| !super::unreproducible::any_not_utf8(b.removed.iter().chain(&b.added)))
        .map(|b| (b.removed.iter().filter(free).collect(), b.added.iter().filter(free).collect()))
        .filter(|(r, a): &(Vec<&ChangeLine>, Vec<&ChangeLine>)| !r.is_empty() || !a.is_empty())
        .collect();
    if blocks.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some(moved) = import_order(file, &mut blocks) {
        out.push(moved);
    }
    let mut whitespace = Vec::new();
    let mut edits: BTreeMap<(String, String), Vec<ChangeLine>> = BTreeMap::new();
    let mut order: Vec<(String, String)> = Vec::new();
    let mut add_edit = |from: String, to: String, lines: Vec<ChangeLine>| {
        let key = (from, to);
        if !edits.contains_key(&key) {
            order.push(key.clone());
        }
        edits.entry(key).or_default().extend(lines);
    };
    for (removed, added) in &blocks {
        let old: Vec<&str> = removed.iter().map(|c| c.content.as_str()).collect();
        let new: Vec<&str> = added.iter().map(|c| c.content.as_str()).collect();
        let pairs = pair_lines(&old, &new);
        let mut paired_old = vec![false; removed.len()];
        let mut paired_new = vec![false; added.len()];
        for &(i, j) in &pairs {
            paired_old[i] = true;
            paired_new[j] = true;
            let (r, a) = (removed[i], added[j]);
            if same_words(&r.content, &a.content) {
                whitespace.extend([r.clone(), a.clone()]);
            } else {
                add_edit(r.content.clone(), a.content.clone(), vec![r.clone(), a.clone()]);
            }
        }
        let run_old = unpaired(removed, &paired_old, &mut whitespace);
        let run_new = unpaired(added, &paired_new, &mut whitespace);
        if !structured {
            if !run_old.is_empty() {
                add_edit(joined(&run_old), String::new(), run_old.iter().map(|c| (*c).clone()).collect());
            }
            if !run_new.is_empty() {
                add_edit(String::new(), joined(&run_new), run_new.iter().map(|c| (*c).clone()).collect());
            }
        }
    }
    if !whitespace.is_empty() {
        sort_lines(&mut whitespace);
        out.push(
            Atomic::new(
                Change::Whitespace {},
                file.path,
                format!("Whitespace-only changes in {}", file.path),
            )
            .label(label::WHITESPACE)
            .evidence(whitespace),
        );
    }
    for key in order {
        let lines = edits.remove(&key).unwrap_or_default();
        let (from, to) = key;
        let title = match (from.is_empty(), to.is_empty()) {
            (true, _) => format!("Add text `{}` in {}", short(&to), file.path),
            (_, true) => format!("Remove text `{}` in {}", short(&from), file.path),
            _ => format!("Replace `{}` with `{}` in {}", short(&from), short(&to), file.path),
        };
        out.push(
            Atomic::new(Change::TextEdit { from: from.to_string(), to: to.to_string() }, file.path, title)
                .label(label::TEXT)
                .evidence(lines),
        );
    }
    out
}

/// The lines of one side of a block that no line of the other side pairs with; blank ones go to
/// `whitespace`.
fn unpaired<'a>(
    lines: &[&'a ChangeLine],
    paired: &[bool],
    whitespace: &mut Vec<ChangeLine>,
) -> Vec<&'a ChangeLine> {
    let mut run = Vec::new();
    for (line, _) in lines.iter().zip(paired).filter(|(_, paired)| !**paired) {
        if line.content.trim().is_empty() {
            whitespace.push((*line).clone());
        } else {
            run.push(*line);
        }
    }
    run
}

/// Import lines removed in one place and added back unchanged in another: only their order changed.
/// Takes them out of `blocks`.
fn import_order<'a>(
    file: &FileChange<'_>,
    blocks: &mut [(Vec<&'a ChangeLine>, Vec<&'a ChangeLine>)],
) -> Option<Atomic> {
    let is_import = |c: &ChangeLine| {
        let t = c.content.trim_start();
        t.starts_with("import ") || t.starts_with("import\t")
    };
    let mut added: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, a) in blocks.iter() {
        for line in a.iter().filter(|c| is_import(c)) {
            *added.entry(line.content.trim()).or_default() += 1;
        }
    }
    let mut removed: BTreeMap<&str, usize> = BTreeMap::new();
    for (r, _) in blocks.iter() {
        for line in r.iter().filter(|c| is_import(c)) {
            *removed.entry(line.content.trim()).or_default() += 1;
        }
    }
    let mut budget: BTreeMap<String, usize> = BTreeMap::new();
    for (text, n) in &removed {
        let both = (*n).min(added.get(text).copied().unwrap_or(0));
        if both > 0 {
            budget.insert((*text).to_string(), both);
        }
    }
    if budget.is_empty() {
        return None;
    }
    let mut evidence = Vec::new();
    for side in [ChangeKind::Removed, ChangeKind::Added] {
        let mut left = budget.clone();
        for (r, a) in blocks.iter_mut() {
            let lines = if side == ChangeKind::Removed { r } else { a };
            lines.retain(|line| {
                if !is_import(line) {
                    return true;
                }
                match left.get_mut(line.content.trim()) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        evidence.push((*line).clone());
                        false
                    }
                    _ => true,
                }
            });
        }
    }
    sort_lines(&mut evidence);
    Some(
        Atomic::new(Change::ImportOrder {}, file.path, format!("Reorder imports in {}", file.path))
            .label(label::IMPORT_ORDER)
            .evidence(evidence),
    )
}

/// Equal once whitespace is ignored altogether.
fn same_words(a: &str, b: &str) -> bool {
    a.split_whitespace().collect::<String>() == b.split_whitespace().collect::<String>()
}

fn joined(lines: &[&ChangeLine]) -> String {
    lines.iter().map(|c| c.content.as_str()).collect::<Vec<_>>().join("\n")
}

/// Removed lines first, then added ones, each by line number: a stable evidence order.
pub(crate) fn sort_lines(lines: &mut Vec<ChangeLine>) {
    lines.sort_by(|a, b| {
        (a.path.as_str(), std::cmp::Reverse(a.kind), a.line).cmp(&(
            b.path.as_str(),
            std::cmp::Reverse(b.kind),
            b.line,
        ))
    });
    lines.dedup();
}

/// A title-sized excerpt of a line.
pub(crate) fn short(text: &str) -> String {
    let first = text.lines().next().unwrap_or("").trim();
    let more = text.contains('\n');
    let mut out: String = first.chars().take(60).collect();
    if more || first.chars().count() > 60 {
        out.push('…');
    }
    out
}
