//! Layout: the same code as the PR's, laid out differently.

use super::index::Index;
use super::rules::Work;
use super::text::{collapse, groovy_quotes, imported, is_groovy, simple_names};
use super::{PrView, take_where};
use crate::diff::ChangeKind;
use crate::model::ChangeLine;

/// A blank line placed elsewhere (an import group separator, the gap between two members).
pub(super) fn blank_line(w: &mut Work<'_>) -> Vec<ChangeLine> {
    take_where(&mut w.pending, |l| l.content.trim().is_empty())
}

/// The line the PR wrote, with other whitespace or a qualified name for an imported type.
pub(super) fn same_code(w: &mut Work<'_>) -> Vec<ChangeLine> {
    let misses = &mut w.misses;
    take_where(&mut w.pending, |l| {
        consume(misses, |m| m.path == l.path && m.kind == l.kind && key(m) == key(l))
    })
}

/// An import the recipe adds (or removes) where the PR names the type fully qualified (or the
/// recipe does).
pub(super) fn import_for_a_qualified_name(w: &mut Work<'_>) -> Vec<ChangeLine> {
    let added_by_run: Vec<ChangeLine> =
        w.pending.iter().filter(|l| l.kind == ChangeKind::Added).cloned().collect();
    let pr = w.pr;
    take_where(&mut w.pending, |l| qualified_instead_of_imported(l, pr, &added_by_run))
}

/// An import of a member where the PR imports its owner on demand (`Assertions.assertTrue`
/// against `Assertions.*`), or the reverse.
pub(super) fn import_in_the_other_style(w: &mut Work<'_>) -> Vec<ChangeLine> {
    let misses = &w.misses;
    take_where(&mut w.pending, |l| imported_in_the_other_style(l, misses))
}

/// The PR's lines wrapped differently: consecutive lines of a hunk that join to the same code.
pub(super) fn wrapped_otherwise(w: &mut Work<'_>) -> Vec<ChangeLine> {
    wrapped(&mut w.pending, &mut w.misses, w.run, w.pr_index)
}

/// A line the PR left alone, in a file it changed, that the recipe laid out anew (a formatter's
/// indentation, spaces inside braces around its edits): it removed it and added the same code,
/// whitespace aside, in the same hunk. In a file the PR did not touch, that is over-applying.
pub(super) fn relaid_in_a_changed_file(w: &mut Work<'_>) -> Vec<ChangeLine> {
    relaid(&mut w.pending, w.run, w.pr)
}

/// Pairs of a removed and an added line of one hunk of the run, in a file the PR changed, that
/// differ in whitespace only (names compared as written: a qualified name against a simple one is
/// a change of type here).
fn relaid(pending: &mut Vec<ChangeLine>, run: &Index<'_>, pr: &PrView) -> Vec<ChangeLine> {
    let place = |l: &ChangeLine| (l.path.clone(), run.hunk_of(l), collapse(&l.content));
    let mut removed: Vec<Option<(_, usize)>> = pending
        .iter()
        .enumerate()
        .filter(|(_, l)| l.kind == ChangeKind::Removed && pr.head.contains_key(&l.path))
        .map(|(i, l)| Some((place(l), i)))
        .collect();
    let mut taken = vec![false; pending.len()];
    for (i, line) in pending.iter().enumerate().filter(|(_, l)| l.kind == ChangeKind::Added) {
        let here = place(line);
        if let Some(pair) = removed.iter_mut().find(|r| r.as_ref().is_some_and(|(p, _)| *p == here)) {
            let (_, j) = pair.take().expect("found only where present");
            taken[i] = true;
            taken[j] = true;
        }
    }
    let mut index = 0;
    take_where(pending, |_| {
        index += 1;
        taken[index - 1]
    })
}

/// What a line is once layout is taken out (in a Groovy build file, the quotes of a plain string
/// too).
fn key(line: &ChangeLine) -> String {
    normalized(&line.path, &line.content)
}

fn normalized(path: &str, text: &str) -> String {
    let key = collapse(&simple_names(text));
    if is_groovy(path) { groovy_quotes(&key) } else { key }
}

/// Uses up the first PR line `matches` accepts.
fn consume(misses: &mut [Option<ChangeLine>], matches: impl Fn(&ChangeLine) -> bool) -> bool {
    match misses.iter_mut().find(|m| m.as_ref().is_some_and(&matches)) {
        Some(found) => {
            *found = None;
            true
        }
        None => false,
    }
}

fn qualified_instead_of_imported(line: &ChangeLine, pr: &PrView, added_by_run: &[ChangeLine]) -> bool {
    let Some(name) = imported(&line.content).filter(|n| !n.ends_with('*')) else { return false };
    let used_qualified =
        |text: &str| text.lines().any(|l| imported(l).is_none() && l.contains(name.as_str()));
    match line.kind {
        ChangeKind::Added => pr.head.get(&line.path).is_some_and(|head| used_qualified(head)),
        ChangeKind::Removed => added_by_run.iter().any(|a| a.path == line.path && used_qualified(&a.content)),
    }
}

/// Whether `line` adds an import of the names an import the PR added makes in the other style:
/// one name against its owner's on-demand import (`.*`), static against static.
fn imported_in_the_other_style(line: &ChangeLine, misses: &[Option<ChangeLine>]) -> bool {
    let style = |l: &ChangeLine| -> Option<(bool, String)> {
        let name = imported(&l.content)?;
        Some((l.content.trim_start().starts_with("import static "), name))
    };
    let Some((is_static, ours)) = style(line).filter(|_| line.kind == ChangeKind::Added) else {
        return false;
    };
    let owner = |name: &str| name.rsplit_once('.').map(|(owner, _)| owner.to_string());
    misses.iter().flatten().filter(|m| m.kind == ChangeKind::Added && m.path == line.path).any(|m| {
        let Some((their_static, theirs)) = style(m) else { return false };
        let on_demand = |a: &str, b: &str| a.ends_with(".*") && !b.ends_with(".*") && owner(a) == owner(b);
        their_static == is_static && (on_demand(&ours, &theirs) || on_demand(&theirs, &ours))
    })
}

/// Runs of consecutive lines (same file, kind and hunk) that join to the same code as a run of the
/// PR's lines.
fn wrapped(
    pending: &mut Vec<ChangeLine>,
    misses: &mut [Option<ChangeLine>],
    run: &Index<'_>,
    pr_index: &Index<'_>,
) -> Vec<ChangeLine> {
    let ours = runs(pending.iter().cloned().map(Some).collect::<Vec<_>>().as_slice(), run);
    let theirs = runs(misses, pr_index);
    let mut taken = Vec::new();
    let mut used = vec![false; theirs.len()];
    for group in ours.iter().filter(|g| g.len() > 1 || theirs.iter().any(|t| t.len() > 1)) {
        let joined = join(group);
        let found = theirs.iter().enumerate().find(|(i, t)| {
            !used[*i]
                && t[0].path == group[0].path
                && t[0].kind == group[0].kind
                && (group.len() > 1 || t.len() > 1)
                && join(t) == joined
        });
        if let Some((i, t)) = found {
            used[i] = true;
            for line in t {
                consume(misses, |m| m == line);
            }
            taken.extend(group.iter().cloned());
        }
    }
    take_where(pending, |l| taken.contains(l))
}

/// Maximal runs of consecutive line numbers of the same file, kind and hunk.
fn runs(lines: &[Option<ChangeLine>], index: &Index<'_>) -> Vec<Vec<ChangeLine>> {
    let mut out: Vec<Vec<ChangeLine>> = Vec::new();
    for line in lines.iter().flatten() {
        let hunk = index.hunk_of(line);
        let continues = out.last().is_some_and(|group: &Vec<ChangeLine>| {
            let last = group.last().expect("groups are never empty");
            last.path == line.path
                && last.kind == line.kind
                && last.line + 1 == line.line
                && index.hunk_of(last) == hunk
        });
        if continues {
            out.last_mut().expect("checked").push(line.clone());
        } else {
            out.push(vec![line.clone()]);
        }
    }
    out
}

/// The lines of a run as one line, normalized as [`key`] does; a run is never empty.
fn join(lines: &[ChangeLine]) -> String {
    normalized(&lines[0].path, &lines.iter().map(|l| l.content.as_str()).collect::<Vec<_>>().join(" "))
}
