//! Code moved from one library to another is a library migration, whether or not the build swaps
//! a dependency for another (Hamcrest often stays in the POM while its `assertThat` calls move to
//! AssertJ; a PR that drops Guava for the JDK adds nothing): types, packages, annotations and
//! static call targets moved from one known library's namespace to another's
//! ([`super::libraries`]) make one strategic intent per target library, named after both, with
//! the dependencies of either library that the PR adds or removes. A move within one library, or
//! of the repository's own code, is no such migration.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::Strategic;

use super::atomic::Atomic;
use super::libraries::{self, Library};
use super::strategy::{Dependency, dependency, java_rename};

/// Files one moved name must be moved in, with no other name or dependency change beside it, to
/// make a migration: a feature PR may call one JDK method where it called Guava's, in a file or
/// two; the same call moved across the codebase is the migration's first step.
const MIN_FILES_OF_ONE_MOVE: usize = 3;

/// Gives the unowned code moves between two libraries, and the dependencies of those libraries the
/// PR adds or removes, their library migration. A single moved name with no dependency change
/// beside it is not enough unless it moves in [`MIN_FILES_OF_ONE_MOVE`] files or more.
pub(super) fn library_migrations(atomics: &[Atomic], owners: &mut [Option<Strategic>]) {
    let mut sources: BTreeMap<&'static str, BTreeSet<&'static str>> = BTreeMap::new();
    // Per target library: how many names moved to it, and in how many files at most.
    let mut moved: BTreeMap<&'static str, (usize, usize)> = BTreeMap::new();
    for (atomic, owner) in atomics.iter().zip(owners.iter()) {
        if let (None, Some((from, to))) = (owner, library_move(atomic)) {
            sources.entry(to.name).or_default().insert(from.name);
            let files = atomic.files.as_ref().map_or(1, Vec::len);
            let entry = moved.entry(to.name).or_default();
            *entry = (entry.0 + 1, entry.1.max(files));
        }
    }
    for (target, from) in sources {
        let touches_dependency = |a: &Atomic| match dependency(&a.change) {
            Some(Dependency::Added(group)) => library_of_group(group) == Some(target),
            Some(Dependency::Removed(group)) => library_of_group(group).is_some_and(|l| from.contains(l)),
            _ => false,
        };
        let with_dependency =
            atomics.iter().zip(owners.iter()).any(|(a, o)| o.is_none() && touches_dependency(a));
        let (names, files) = moved[target];
        if names < 2 && files < MIN_FILES_OF_ONE_MOVE && !with_dependency {
            continue;
        }
        let strategic = Strategic::Library {
            from: from.iter().copied().collect::<Vec<_>>().join(" and "),
            to: target.to_string(),
        };
        for (atomic, owner) in atomics.iter().zip(owners.iter_mut()) {
            let member = library_move(atomic).is_some_and(|(f, t)| t.name == target && from.contains(f.name));
            if owner.is_none() && (member || touches_dependency(atomic)) {
                *owner = Some(strategic.clone());
            }
        }
    }
}

/// The two libraries a Java change moves code between, when they are two.
fn library_move(atomic: &Atomic) -> Option<(&'static Library, &'static Library)> {
    let (old, new) = java_rename(&atomic.change)?;
    let (from, to) = (libraries::of_name(old)?, libraries::of_name(new)?);
    (from.name != to.name).then_some((from, to))
}

fn library_of_group(group: &str) -> Option<&'static str> {
    libraries::of_group(group).map(|l| l.name)
}
