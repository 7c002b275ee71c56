//! Variants: the recipe made the PR's change in the PR's place and wrote it another way.

use std::collections::{BTreeMap, BTreeSet};

use super::index::{HunkInfo, Index};
use super::rules::Work;
use super::text::{collapse, imported, masked_versions, newer};
use super::{PrView, ResultTypes, take_where};
use crate::diff::{ChangeKind, LineKind};
use crate::model::ChangeLine;

/// A version line the PR also wrote, with a newer version, for the same artifact (the PR's line
/// is used up).
pub(super) fn newer_version(w: &mut Work<'_>) -> Vec<ChangeLine> {
    let (misses, run, pr_index) = (&mut w.misses, w.run, w.pr_index);
    take_where(&mut w.pending, |l| newer_version_of_the_same_artifact(l, misses, run, pr_index))
}

/// An added line of a hunk or block that replaces exactly the base lines the PR replaces, written
/// another way, without a version of its own and without keeping the old library.
pub(super) fn same_lines_replaced(w: &mut Work<'_>) -> Vec<ChangeLine> {
    let (misses, run, pr_index, pr, types) = (&w.misses, w.run, w.pr_index, w.pr, w.types);
    // A hunk, or one change of a hunk (a block), that removes exactly the base lines one of the
    // PR's removes, and adds other lines. Blocks count because three lines of context merge nearby
    // changes into one hunk: the PR's hunk may hold a neighbouring change the recipe leaves alone.
    // Each maps to the versions the PR wrote in its place.
    let added_of_hunk = |h: &super::index::HunkInfo<'_>| -> Vec<String> {
        h.lines.iter().filter(|l| l.kind == LineKind::Added).map(|l| l.content.clone()).collect()
    };
    let replacing_hunks: BTreeMap<usize, BTreeSet<String>> = (0..run.hunks.len())
        .filter_map(|h| {
            let ours = &run.hunks[h];
            let theirs =
                pr_index.hunks.iter().find(|t| same_removed(ours.path, &ours.removed, t.path, &t.removed))?;
            Some((h, versions_in(added_of_hunk(theirs).iter().map(String::as_str))))
        })
        .collect();
    let replacing_blocks: BTreeMap<usize, BTreeSet<String>> = (0..run.blocks.len())
        .filter_map(|b| {
            let ours = &run.blocks[b];
            let theirs = pr_index
                .blocks
                .iter()
                .find(|t| same_removed(ours.path, &ours.removed, t.path, &t.removed))?;
            Some((b, versions_in(theirs.added.iter().copied())))
        })
        .collect();
    take_where(&mut w.pending, |l| {
        let theirs = run
            .hunk_of(l)
            .and_then(|h| replacing_hunks.get(&h))
            .or_else(|| run.block_of(l).and_then(|b| replacing_blocks.get(&b)));
        // A version is a choice of its own: only the rule above makes one a variant.
        let writes_its_own_version =
            |theirs: &BTreeSet<String>| masked_versions(&l.content).1.iter().any(|v| !theirs.contains(v));
        l.kind == ChangeKind::Added
            && theirs.is_some_and(|t| !writes_its_own_version(t))
            && !keeps_the_old_library(l, &run.hunks[run.hunk_of(l).expect("checked")], misses, pr, types)
    })
}

/// Whether `ours` (base lines of `path`, not none) is exactly what `theirs` removes in the same file.
fn same_removed(path: &str, ours: &BTreeSet<u32>, their_path: &str, theirs: &BTreeSet<u32>) -> bool {
    !ours.is_empty() && path == their_path && ours == theirs
}

/// The versions written in `lines`.
fn versions_in<'a>(lines: impl Iterator<Item = &'a str>) -> BTreeSet<String> {
    lines.flat_map(|l| masked_versions(l).1).collect()
}

/// A version line the PR also wrote, with a newer version, for the same artifact: a `<version>`
/// under the same `<artifactId>`, a property of the same name, or the same `group:artifact`.
fn newer_version_of_the_same_artifact(
    line: &ChangeLine,
    misses: &mut [Option<ChangeLine>],
    run: &Index<'_>,
    pr_index: &Index<'_>,
) -> bool {
    if line.kind != ChangeKind::Added {
        return false;
    }
    let (masked, ours) = masked_versions(&line.content);
    if ours.is_empty() {
        return false;
    }
    let bare_version = collapse(&masked) == "<version><v></version>";
    let artifact = run.hunk_of(line).and_then(|h| artifact_above(&run.hunks[h], line, true));
    let found = misses.iter_mut().find(|m| {
        let Some(m) = m.as_ref() else { return false };
        if m.kind != ChangeKind::Added || m.path != line.path {
            return false;
        }
        let (their_masked, theirs) = masked_versions(&m.content);
        let same_place = collapse(&their_masked) == collapse(&masked) && theirs.len() == ours.len();
        let same_artifact = !bare_version
            || (artifact.is_some()
                && pr_index.hunk_of(m).and_then(|h| artifact_above(&pr_index.hunks[h], m, true)) == artifact);
        same_place
            && same_artifact
            && ours.iter().zip(&theirs).any(|(a, b)| a != b)
            && ours.iter().zip(&theirs).all(|(a, b)| a == b || newer(a, b))
    });
    match found {
        Some(slot) => {
            *slot = None;
            true
        }
        None => false,
    }
}

/// The `<artifactId>` nearest above `line` in its hunk (context lines and lines on the same side).
fn artifact_above(hunk: &HunkInfo<'_>, line: &ChangeLine, added: bool) -> Option<String> {
    let number = |l: &crate::diff::HunkLine| if added { l.new_line } else { l.old_line };
    let side = if added { LineKind::Added } else { LineKind::Removed };
    let at = hunk.lines.iter().position(|l| l.kind == side && number(l) == Some(line.line))?;
    hunk.lines[..at].iter().rev().filter(|l| l.kind == LineKind::Context || l.kind == side).find_map(|l| {
        let c = collapse(&l.content);
        c.strip_prefix("<artifactId>").and_then(|r| r.strip_suffix("</artifactId>")).map(str::to_string)
    })
}

/// Whether the recipe's result still uses the library the PR migrates away from: its result types
/// for the file (from the runner), an import of it the PR removed and the recipe kept, or the line
/// itself naming it.
fn keeps_the_old_library(
    line: &ChangeLine,
    hunk: &HunkInfo<'_>,
    misses: &[Option<ChangeLine>],
    pr: &PrView,
    types: Option<&ResultTypes>,
) -> bool {
    if pr.old_packages.is_empty() {
        return false;
    }
    let in_result = types
        .and_then(|t| t.get(&line.path))
        .is_some_and(|names| names.iter().any(|n| pr.names_old_package(n)));
    let import_kept = misses.iter().flatten().any(|m| {
        m.path == line.path
            && m.kind == ChangeKind::Removed
            && imported(&m.content).is_some_and(|n| pr.names_old_package(&n))
    });
    let written = hunk.lines.iter().any(|l| l.kind == LineKind::Added && pr.mentions_old_package(&l.content));
    in_result || import_kept || written
}
