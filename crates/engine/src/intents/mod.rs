//! Phase 2, intent extraction: what the PR meant to do, as a tree of strategic, tactical and atomic
//! intents (`intent-tree.md` + `intent-tree.json`).
//!
//! Each analyzer reads the full base and head contents of the files it understands and explains
//! changed lines with atomic intents of exact kinds and params (see `docs/intents.md`). Lines no
//! analyzer explains go through the whitespace/import-order check and the plain-text fallback;
//! what is still left is reported as unexplained. `tree` groups the atomic intents, `coverage`
//! counts what they claim.

mod atomic;
mod change;
mod coverage;
mod dockerfile;
mod entries;
mod github_actions;
mod gradle;
mod java;
pub(crate) mod libraries;
mod library_moves;
mod library_removals;
mod library_swaps;
pub mod old_library;
mod pom;
mod properties;
mod render;
mod strategy;
mod text;
mod tree;
mod unreproducible;
mod version_catalog;
mod versions;
mod yaml;

#[cfg(test)]
mod tests;

use std::collections::HashSet;

use anyhow::Result;

use crate::diff::{self, FileDiff};
use crate::model::IntentTree;
use crate::setup::Repo;

pub use render::render_markdown;

use atomic::Atomic;
use change::FileChange;

/// Which side of the PR a file content is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Side {
    /// The base commit (before the PR).
    Base,
    /// The head commit (after the PR).
    Head,
}

/// Extracts the intent tree of `base..head` in `repo`. Unknown refs are bad input.
pub fn extract(
    repo: &Repo,
    base_commit: &str,
    head_commit: &str,
    scope: Option<&crate::setup::ProjectDir>,
) -> Result<IntentTree> {
    let base = repo.resolve(base_commit)?;
    let head = repo.resolve(head_commit)?;
    let mut diff_text = repo.diff(&base, &head)?;
    if let Some(dir) = scope {
        diff_text = diff::keep_sections(&diff_text, &|path| dir.contains(path));
    }
    let contents = |side: Side, path: &str| -> Option<String> {
        let commit = match side {
            Side::Base => &base,
            Side::Head => &head,
        };
        let bytes = repo.read_file(commit, path).ok().flatten()?;
        // Binary blobs have no lines to analyse.
        if bytes.contains(&0) {
            return None;
        }
        Some(String::from_utf8_lossy(&bytes).into_owned())
    };
    Ok(extract_from(&diff_text, &contents))
}

/// Extracts the intent tree from a diff and a way to read full file contents (`None` when a file
/// does not exist on that side or cannot be read). Never fails: input that is not a diff gives an
/// empty tree, and files that cannot be parsed fall back to plain-text intents.
///
/// Files too large to read line by line ([`diff::bound`]) get no intent and are listed, with their
/// size, among the changes left out.
pub(crate) fn extract_from(diff_text: &str, contents: &dyn Fn(Side, &str) -> Option<String>) -> IntentTree {
    let bounded = diff::bound(diff_text);
    let parsed = match diff::parse_all(&bounded.text) {
        Ok(parsed) => parsed,
        Err(e) => {
            tracing::warn!("intents: {e}");
            return coverage::finish(Vec::new(), &[], Vec::new());
        }
    };
    let (sections, binary_files) = select_sections(&parsed.files);
    let files: Vec<FileChange<'_>> = sections.iter().map(|f| FileChange::load(f, contents)).collect();

    let mut atomics: Vec<Atomic> = Vec::new();
    let mut structured: HashSet<usize> = HashSet::new();
    let mut java_files = Vec::new();
    // Links, submodules and LFS pointers get no intent: their lines stay unexplained.
    let reproducible = |file: &FileChange<'_>| file.diff.unreproducible().is_none();
    for (index, file) in files.iter().enumerate().filter(|(_, f)| reproducible(f)) {
        if let Some(whole) = text::whole_file(file) {
            atomics.push(whole);
            continue;
        }
        if let Some(renamed) = text::renamed(file) {
            atomics.push(renamed);
        }
        let found = match FileKind::of(file.path) {
            FileKind::Java => {
                java_files.push(index);
                structured.insert(index);
                continue;
            }
            FileKind::Pom => pom::analyze(file),
            FileKind::Gradle => gradle::analyze(file),
            FileKind::GradleWrapper => gradle::analyze_wrapper(file),
            FileKind::VersionCatalog => {
                // Not a structured file: lines its value changes leave (entries added or
                // removed) stay text edits, as in any file no analyzer understands.
                atomics.extend(version_catalog::analyze(file));
                continue;
            }
            FileKind::Properties => properties::analyze(file),
            FileKind::Workflow => github_actions::analyze(file),
            FileKind::Yaml => yaml::analyze(file),
            FileKind::Dockerfile => dockerfile::analyze(file),
            FileKind::Text => None,
        };
        if let Some(found) = found {
            structured.insert(index);
            atomics.extend(found);
        }
    }
    let java: Vec<&FileChange<'_>> = java_files.iter().map(|&i| &files[i]).collect();
    atomics.extend(java::analyze(&java));
    let dropped = library_removals::DroppedImports::of(&java);
    library_swaps::pair(&mut atomics);

    let claimed = coverage::claimed_keys(&atomics);
    for (index, file) in files.iter().enumerate().filter(|(_, f)| reproducible(f)) {
        atomics.extend(text::leftovers(file, &claimed, structured.contains(&index)));
    }
    let tree = tree::build(atomics, &dropped);
    let mut tree = coverage::finish(tree, &files, binary_files);
    tree.unreproducible = unreproducible::list(&files, &tree.unexplained, &bounded.left_out);
    tree
}

/// The sections whose lines count, as the metric sees them (first section per path, excluded paths
/// dropped), and the binary files, which are reported but have no lines.
fn select_sections(all: &[FileDiff]) -> (Vec<&FileDiff>, Vec<String>) {
    let mut seen = HashSet::new();
    let mut sections = Vec::new();
    let mut binary = Vec::new();
    for file in all {
        let key = file.old_path.clone().or_else(|| file.new_path.clone()).unwrap_or_default();
        if diff::is_excluded(&key) || !seen.insert(key) {
            continue;
        }
        if file.binary {
            binary.push(file.path().to_string());
        } else {
            sections.push(file);
        }
    }
    binary.sort();
    (sections, binary)
}

/// Which analyzer reads a file, decided by its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FileKind {
    Java,
    Pom,
    Gradle,
    GradleWrapper,
    VersionCatalog,
    Properties,
    Workflow,
    Yaml,
    Dockerfile,
    Text,
}

impl FileKind {
    fn of(path: &str) -> FileKind {
        let name = path.rsplit('/').next().unwrap_or(path);
        let lower = name.to_ascii_lowercase();
        let in_workflows = path.starts_with(".github/workflows/") || path.contains("/.github/workflows/");
        if lower.ends_with(".java") {
            FileKind::Java
        } else if lower == "pom.xml" || lower.ends_with(".pom") {
            FileKind::Pom
        } else if lower.ends_with(".gradle") || lower.ends_with(".gradle.kts") {
            FileKind::Gradle
        } else if lower == "gradle-wrapper.properties" {
            FileKind::GradleWrapper
        } else if lower.ends_with(".versions.toml") {
            FileKind::VersionCatalog
        } else if lower.ends_with(".properties") {
            FileKind::Properties
        } else if (lower.ends_with(".yml") || lower.ends_with(".yaml")) && in_workflows {
            FileKind::Workflow
        } else if lower.ends_with(".yml") || lower.ends_with(".yaml") {
            FileKind::Yaml
        } else if lower == "dockerfile"
            || lower == "containerfile"
            || lower.starts_with("dockerfile.")
            || lower.ends_with(".dockerfile")
        {
            FileKind::Dockerfile
        } else {
            FileKind::Text
        }
    }
}
