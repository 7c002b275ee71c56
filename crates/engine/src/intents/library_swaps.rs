//! A dependency removed and another added in the same POM are one library replaced by another when
//! the Java code moved from the first one's packages to the second one's: the POM alone cannot
//! tell (log4j-api 2.1 and slf4j-api 1.7.9 share no name and no major version), the code can.

use crate::diff::ChangeKind;
use crate::model::Change;

use super::atomic::Atomic;

/// Merges removed/added dependency pairs of one POM into swaps where a Java rename (type, static
/// call target, package) went from the removed group's packages to the added group's. Pairs are
/// made in the POM's order, and only when the file removed and added as many such dependencies.
pub(crate) fn pair(atomics: &mut Vec<Atomic>) {
    let moves: Vec<(String, String)> = atomics.iter().filter_map(|a| java_move(&a.change)).collect();
    if moves.is_empty() {
        return;
    }
    let moved = |old_group: &str, new_group: &str| {
        moves.iter().any(|(from, to)| in_group(from, old_group) && in_group(to, new_group))
    };
    let files: Vec<String> = atomics
        .iter()
        .filter(|a| matches!(a.change, Change::MavenDependencyRemoved { .. }))
        .map(|a| a.file.clone())
        .collect();
    for file in dedup(files) {
        let of = |want_removed: bool| -> Vec<usize> {
            let mut found: Vec<usize> = (0..atomics.len())
                .filter(|&i| atomics[i].file == file)
                .filter(|&i| match &atomics[i].change {
                    Change::MavenDependencyRemoved { managed: false, .. } => want_removed,
                    Change::MavenDependencyAdded { managed: false, .. } => !want_removed,
                    _ => false,
                })
                .collect();
            found.sort_by_key(|&i| first_line(&atomics[i]));
            found
        };
        let (removed, added) = (of(true), of(false));
        let pairs: Vec<(usize, usize)> = removed
            .iter()
            .zip(&added)
            .filter(|&(&r, &a)| moved(group(&atomics[r].change), group(&atomics[a].change)))
            .map(|(&r, &a)| (r, a))
            .collect();
        if pairs.is_empty() || removed.len() != added.len() || pairs.len() != removed.len() {
            continue;
        }
        let mut gone = Vec::new();
        for (r, a) in pairs {
            let swap = swap(&atomics[r], &atomics[a]);
            atomics[r] = swap;
            gone.push(a);
        }
        gone.sort_unstable();
        for a in gone.into_iter().rev() {
            atomics.remove(a);
        }
    }
}

fn swap(removed: &Atomic, added: &Atomic) -> Atomic {
    let (
        Change::MavenDependencyRemoved { group_id: og, artifact_id: oa, .. },
        Change::MavenDependencyAdded { group_id: ng, artifact_id: na, version, .. },
    ) = (&removed.change, &added.change)
    else {
        return removed.clone();
    };
    let change = Change::MavenDependencySwap {
        old_group_id: og.clone(),
        old_artifact_id: oa.clone(),
        new_group_id: ng.clone(),
        new_artifact_id: na.clone(),
        old_version: removed_version(removed),
        new_version: version.clone(),
        managed: false,
    };
    let title = format!("Replace {og}:{oa} with {ng}:{na} (the code moved from one to the other)");
    let mut evidence = removed.evidence.clone();
    evidence.extend(added.evidence.iter().cloned());
    let mut labels = removed.labels.clone();
    labels.extend(added.labels.iter().filter(|l| !removed.labels.contains(l)).cloned());
    Atomic { change, title, file: removed.file.clone(), files: None, labels, evidence }
}

/// The version the removed dependency declared, from its `<version>` line.
fn removed_version(removed: &Atomic) -> String {
    removed
        .evidence
        .iter()
        .filter(|l| l.kind == ChangeKind::Removed)
        .find_map(|l| {
            let text = l.content.trim();
            text.strip_prefix("<version>")?.strip_suffix("</version>").map(str::to_string)
        })
        .unwrap_or_default()
}

/// Old and new fully qualified names of a Java rename.
fn java_move(change: &Change) -> Option<(String, String)> {
    match change {
        Change::JavaTypeRename { old_type, new_type } => Some((old_type.clone(), new_type.clone())),
        Change::JavaStaticCallTarget { old_type, new_type, .. } => Some((old_type.clone(), new_type.clone())),
        Change::JavaPackageMove { old_package, new_package } => {
            Some((format!("{old_package}."), format!("{new_package}.")))
        }
        _ => None,
    }
}

fn group(change: &Change) -> &str {
    match change {
        Change::MavenDependencyRemoved { group_id, .. } | Change::MavenDependencyAdded { group_id, .. } => {
            group_id
        }
        _ => "",
    }
}

/// A name in the group's packages (`org.slf4j.Logger` in `org.slf4j`). Groups of one word
/// (`junit`) name no package reliably.
fn in_group(name: &str, group: &str) -> bool {
    group.contains('.') && name.starts_with(&format!("{group}."))
}

fn first_line(atomic: &Atomic) -> u32 {
    atomic.evidence.iter().map(|l| l.line).min().unwrap_or(u32::MAX)
}

fn dedup(mut files: Vec<String>) -> Vec<String> {
    files.sort();
    files.dedup();
    files
}
