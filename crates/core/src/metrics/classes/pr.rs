//! What the classes need to know about the PR: its diff, the head version of its files, and the
//! libraries it migrates away from.

use std::collections::{BTreeMap, BTreeSet};

use super::ResultTypes;
use super::text::{imported, package_of};
use crate::diff::Diff;

/// Files larger than this are not kept for comparison (nothing of layout needs a 1 MiB file).
const MAX_FILE_BYTES: usize = 1 << 20;

/// The PR as the classes see it.
#[derive(Debug, Clone, Default)]
pub struct PrView {
    /// The PR's diff.
    pub diff: Diff,
    /// The head version of each file the PR changes, by path.
    pub head: BTreeMap<String, String>,
    /// Packages whose types the base of the PR's Java files uses and its head no longer does: what
    /// the PR migrates away from. A recipe result that still uses one of them did not migrate.
    pub old_packages: BTreeSet<String>,
}

impl PrView {
    /// From the PR's diff and the base and head texts of its files; the old packages from their
    /// imports (until [`PrView::with_types`] gives the parsed types).
    pub fn new(diff: Diff, base: &BTreeMap<String, String>, head: BTreeMap<String, String>) -> PrView {
        let imports = |texts: &BTreeMap<String, String>| -> Vec<String> {
            java(texts).flat_map(|text| text.lines().filter_map(imported).collect::<Vec<_>>()).collect()
        };
        let old_packages = left_behind(&imports(base), &imports(&head));
        PrView { diff, head, old_packages }
    }

    /// The old packages from the types the embedded runner found in the base and head versions
    /// of the PR's Java files (attributed types, called methods' owners and imports).
    pub(crate) fn with_types(
        mut self,
        base: &BTreeMap<String, Vec<String>>,
        head: &BTreeMap<String, Vec<String>>,
    ) -> PrView {
        let all =
            |types: &BTreeMap<String, Vec<String>>| types.values().flatten().cloned().collect::<Vec<_>>();
        if !base.is_empty() {
            self.old_packages = left_behind(&all(base), &all(head));
        }
        self
    }

    /// This view with the old packages the embedded runner's parse found, when it parsed the head.
    pub fn refined(&self, types: Option<(&ResultTypes, &ResultTypes)>) -> std::borrow::Cow<'_, PrView> {
        match types {
            Some((base, head)) if !base.is_empty() => {
                std::borrow::Cow::Owned(self.clone().with_types(base, head))
            }
            _ => std::borrow::Cow::Borrowed(self),
        }
    }

    /// Reads the base and head versions of the PR's files from `repo`.
    pub fn from_repo(
        repo: &crate::setup::Repo,
        base: &str,
        head: &str,
        diff: Diff,
    ) -> anyhow::Result<PrView> {
        let mut base_texts = BTreeMap::new();
        let mut head_texts = BTreeMap::new();
        for file in &diff.files {
            if let Some(old) = &file.old_path
                && let Some(bytes) = repo.read_file(base, old)?.filter(|b| b.len() <= MAX_FILE_BYTES)
            {
                base_texts.insert(old.clone(), String::from_utf8_lossy(&bytes).into_owned());
            }
            if let Some(new) = &file.new_path
                && let Some(bytes) = repo.read_file(head, new)?.filter(|b| b.len() <= MAX_FILE_BYTES)
            {
                head_texts.insert(new.clone(), String::from_utf8_lossy(&bytes).into_owned());
            }
        }
        Ok(PrView::new(diff, &base_texts, head_texts))
    }

    /// Whether a type name, import or line names one of the old packages.
    pub(crate) fn names_old_package(&self, name: &str) -> bool {
        package_of(name).is_some_and(|p| self.old_packages.contains(&p))
    }

    /// Whether `line` names a type of an old package (`org.hamcrest.Matchers`, or `org.junit.*`).
    /// A package below it is another package: `org.junit.jupiter.api.Test` is JUnit 5's, not the
    /// old `org.junit`'s.
    pub(crate) fn mentions_old_package(&self, line: &str) -> bool {
        self.old_packages.iter().any(|p| {
            let prefix = format!("{p}.");
            line.match_indices(&prefix).any(|(at, _)| {
                let before = line[..at].chars().next_back();
                let after = line[at + prefix.len()..].chars().next();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                    && after.is_some_and(|c| c.is_uppercase() || c == '*')
            })
        })
    }
}

fn java(texts: &BTreeMap<String, String>) -> impl Iterator<Item = &String> {
    texts.iter().filter(|(path, _)| path.ends_with(".java")).map(|(_, text)| text)
}

/// Packages of `before`'s names that none of `after`'s names is in.
fn left_behind(before: &[String], after: &[String]) -> BTreeSet<String> {
    let after: BTreeSet<String> = after.iter().filter_map(|n| package_of(n)).collect();
    before.iter().filter_map(|n| package_of(n)).filter(|p| !after.contains(p)).collect()
}
