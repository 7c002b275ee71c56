//! Variants: the recipe made the PR's change in the PR's place and wrote it another way.

use std::collections::BTreeSet;

use super::index::{HunkInfo, Index};
use super::text::{collapse, imported, masked_versions, newer};
use super::{PrView, ResultTypes, take_where};
use crate::diff::{ChangeKind, LineKind};
use crate::model::ChangeLine;

/// The recipe's lines that are variants; matched PR lines are used up in `misses`.
pub(crate) fn take(
    pending: &mut Vec<ChangeLine>,
    misses: &mut [Option<ChangeLine>],
    run: &Index<'_>,
    pr_index: &Index<'_>,
    pr: &PrView,
    types: Option<&ResultTypes>,
) -> Vec<ChangeLine> {
    let mut variants = take_where(pending, |l| newer_version_of_the_same_artifact(l, misses, run, pr_index));
    // A hunk, or one change of a hunk (a block), that removes exactly the base lines one of the
    // PR's removes, and adds other lines. Blocks count because three lines of context merge nearby
    // changes into one hunk: the PR's hunk may hold a neighbouring change the recipe leaves alone.
    let replacing_hunks: BTreeSet<usize> = (0..run.hunks.len())
        .filter(|&h| {
            same_removed(
                run.hunks[h].path,
                &run.hunks[h].removed,
                pr_index.hunks.iter().map(|t| (t.path, &t.removed)),
            )
        })
        .collect();
    let replacing_blocks: BTreeSet<usize> = (0..run.blocks.len())
        .filter(|&b| {
            same_removed(
                run.blocks[b].path,
                &run.blocks[b].removed,
                pr_index.blocks.iter().map(|t| (t.path, &t.removed)),
            )
        })
        .collect();
    variants.extend(take_where(pending, |l| {
        let replaces = run.hunk_of(l).is_some_and(|h| replacing_hunks.contains(&h))
            || run.block_of(l).is_some_and(|b| replacing_blocks.contains(&b));
        l.kind == ChangeKind::Added
            && replaces
            && !keeps_the_old_library(l, &run.hunks[run.hunk_of(l).expect("checked")], misses, pr, types)
    }));
    variants
}

/// Whether `removed` (base lines of `path`, not none) is exactly what one of `theirs` removes.
fn same_removed<'a>(
    path: &str,
    removed: &BTreeSet<u32>,
    mut theirs: impl Iterator<Item = (&'a str, &'a BTreeSet<u32>)>,
) -> bool {
    !removed.is_empty() && theirs.any(|(p, r)| p == path && r == removed)
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
