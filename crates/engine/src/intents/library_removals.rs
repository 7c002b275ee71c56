//! A library removed from the build, with the code that used it rewritten: a library migration
//! even when nothing moved name for name. A PR that drops Guava rewrites `ImmutableList.of(x)` as
//! `Collections.unmodifiableList(Arrays.asList(x))` and `Joiner.on(",").join(xs)` as its own
//! helper; the analyzers see text edits, and only the imports say what happened: Java files that
//! imported the library import nothing of it after the PR, and import something else in its place.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::Strategic;

use super::atomic::Atomic;
use super::change::FileChange;
use super::libraries;
use super::strategy::{Dependency, dependency};

/// Java files that must stop using a library, beside its dependency's removal, to make the removal
/// a migration: one file may only have lost an unused import.
const MIN_FILES: usize = 2;

/// What the PR's Java files stopped importing: per known library, the files that imported it
/// before and import nothing of it after, and the known libraries those files import in its place.
#[derive(Debug, Default)]
pub(super) struct DroppedImports {
    by_library: BTreeMap<&'static str, Dropped>,
}

#[derive(Debug, Default)]
struct Dropped {
    files: usize,
    /// Libraries newly imported by those files, with the number of files.
    instead: BTreeMap<&'static str, usize>,
}

impl DroppedImports {
    /// Reads the imports of the changed Java files before and after (a deleted or added file is
    /// not code rewritten away from a library).
    pub(super) fn of(java: &[&FileChange<'_>]) -> DroppedImports {
        let mut out = DroppedImports::default();
        for file in java {
            let (Some(old), Some(new)) = (&file.old_text, &file.new_text) else { continue };
            let (before, after) = (imported(old), imported(new));
            for &library in before.difference(&after) {
                let dropped = out.by_library.entry(library).or_default();
                dropped.files += 1;
                for &other in after.difference(&before) {
                    *dropped.instead.entry(other).or_default() += 1;
                }
            }
        }
        out
    }

    /// The library most files import in place of `library`; the JDK when they import no other
    /// known library (the code now uses the JDK and its own helpers).
    fn replacement(&self, library: &str) -> Option<&'static str> {
        let dropped = self.by_library.get(library).filter(|d| d.files >= MIN_FILES)?;
        let best = dropped.instead.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)));
        Some(best.map_or(JDK, |(name, _)| *name))
    }
}

const JDK: &str = "the JDK";

/// The known libraries a Java text imports (`import` and `import static`).
fn imported(text: &str) -> BTreeSet<&'static str> {
    text.lines()
        .filter_map(crate::metrics::classes::text::imported)
        .filter_map(|name| libraries::of_name(name.trim_end_matches(".*")).map(|l| l.name))
        .collect()
}

/// Gives an unowned removal of a known library's dependency its library migration when the PR's
/// Java code stopped importing that library ([`MIN_FILES`] files or more).
pub(super) fn library_removals(
    atomics: &[Atomic],
    owners: &mut [Option<Strategic>],
    dropped: &DroppedImports,
) {
    for index in 0..atomics.len() {
        if owners[index].is_some() {
            continue;
        }
        let Some(Dependency::Removed(group)) = dependency(&atomics[index].change) else { continue };
        let Some(library) = libraries::of_group(group) else { continue };
        let Some(to) = dropped.replacement(library.name) else { continue };
        let strategic = Strategic::Library { from: library.name.to_string(), to: to.to_string() };
        for (atomic, owner) in atomics.iter().zip(owners.iter_mut()) {
            let same = matches!(dependency(&atomic.change), Some(Dependency::Removed(g))
                if libraries::of_group(g).is_some_and(|l| l.name == library.name));
            if owner.is_none() && same {
                *owner = Some(strategic.clone());
            }
        }
    }
}
