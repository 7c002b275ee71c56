//! `--needs-migration` ahead of the clone: GitHub's code search for the old library's packages,
//! types and configuration keys over the campaign's owners, so that a repository that names
//! none of them is not needed without cloning it. The search is a filter that can only drop
//! repositories: where it cannot answer for sure (an error, the rate limit, more hits than it
//! lists, nothing literal to look for), every repository is cloned and the count on the clone
//! decides, as without it.

use std::collections::BTreeSet;

use serde::Deserialize;

use crate::github::{GitHub, RepoId, pulls};
use crate::model::residual::OldLibrary;

/// At most this many terms are searched (code search allows 10 requests a minute).
const MAX_TERMS: usize = 6;
/// GitHub lists at most 1,000 hits of a search.
const MAX_PAGES: usize = 10;

/// The repositories code search found using the old library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    /// What was searched, for the reason a repository is not needed.
    pub terms: Vec<String>,
    repos: BTreeSet<String>,
}

impl Found {
    pub(crate) fn uses(&self, repo: &RepoId) -> bool {
        self.repos.contains(&repo.to_string().to_ascii_lowercase())
    }
}

#[derive(Debug, Deserialize)]
struct Page {
    #[serde(default)]
    incomplete_results: bool,
    #[serde(default)]
    total_count: usize,
    #[serde(default)]
    items: Vec<Item>,
}

#[derive(Debug, Deserialize)]
struct Item {
    repository: Repository,
}

#[derive(Debug, Deserialize)]
struct Repository {
    full_name: String,
}

/// What to search for: the old library's packages, types and keys as code names them (a Maven
/// coordinate is not one string in a POM, so dependencies alone are not searched).
pub(crate) fn terms(old: &OldLibrary) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    for term in old.packages.iter().chain(&old.types).chain(&old.config_keys) {
        if !term.trim().is_empty() && !terms.contains(term) {
            terms.push(term.clone());
        }
    }
    terms
}

/// The repositories of `repos`' owners that code search finds naming one of `terms`; `None`
/// when it cannot say for sure (then every repository is cloned).
pub(crate) fn search(gh: &GitHub, repos: &[RepoId], terms: &[String]) -> Option<Found> {
    if terms.is_empty() || terms.len() > MAX_TERMS {
        return None;
    }
    let owners: BTreeSet<&str> = repos.iter().map(|r| r.owner.as_str()).collect();
    let mut found = BTreeSet::new();
    for term in terms {
        for owner in &owners {
            match hits(gh, term, owner) {
                Ok(names) => found.extend(names),
                Err(e) => {
                    tracing::warn!(
                        "code search for `{term}` in {owner}: {e:#}; every repository is cloned instead"
                    );
                    return None;
                }
            }
        }
    }
    Some(Found { terms: terms.to_vec(), repos: found })
}

/// The repositories (lower case) of `owner` whose code names `term`; an error when the answer is
/// not complete.
fn hits(gh: &GitHub, term: &str, owner: &str) -> anyhow::Result<BTreeSet<String>> {
    let query = pulls::encode(&format!("\"{term}\" user:{owner}"));
    let mut names = BTreeSet::new();
    for page in 1..=MAX_PAGES {
        let answer: Page = gh.get(&format!("/search/code?q={query}&per_page=100&page={page}"))?;
        anyhow::ensure!(!answer.incomplete_results, "GitHub says the results are incomplete");
        let listed = answer.items.len();
        names.extend(answer.items.into_iter().map(|i| i.repository.full_name.to_ascii_lowercase()));
        if listed < 100 {
            return Ok(names);
        }
        anyhow::ensure!(page < MAX_PAGES, "{} hits, more than a search lists", answer.total_count);
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packages_types_and_keys_are_searched_and_coordinates_are_not() {
        let old = OldLibrary {
            packages: vec!["javax.persistence".into()],
            types: vec!["org.junit.Assert".into()],
            dependencies: vec!["junit:junit".into()],
            config_keys: vec!["spring.datasource.initialization-mode".into(), "javax.persistence".into()],
            ..OldLibrary::default()
        };
        assert_eq!(
            terms(&old),
            ["javax.persistence", "org.junit.Assert", "spring.datasource.initialization-mode"]
        );
        assert_eq!(
            terms(&OldLibrary { dependencies: vec!["junit:junit".into()], ..OldLibrary::default() }),
            Vec::<String>::new()
        );
    }
}
