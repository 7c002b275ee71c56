//! What a campaign's pull requests get besides their changes, as Renovate and Dependabot do it: at
//! most `--max-prs` of them open at once (a repository whose PR is already open keeps it; the
//! others wait for a later run), labels, assignees, reviewers on a new PR, drafts when asked.

use std::collections::HashSet;

use anyhow::Result;
use serde_json::json;

use crate::github::{GitHub, RepoId, pulls};

/// Dependabot's default limit of open pull requests.
pub(crate) const DEFAULT_MAX_PRS: usize = 5;

/// How the campaign's pull requests are opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PrHygiene {
    /// At most this many of the campaign's pull requests open at once.
    pub max_prs: usize,
    pub labels: Vec<String>,
    /// Logins, and `org/team` for a team.
    pub reviewers: Vec<String>,
    pub assignees: Vec<String>,
    /// Every new pull request as a draft.
    pub draft: bool,
}

impl Default for PrHygiene {
    fn default() -> Self {
        PrHygiene {
            max_prs: DEFAULT_MAX_PRS,
            labels: Vec::new(),
            reviewers: Vec::new(),
            assignees: Vec::new(),
            draft: false,
        }
    }
}

/// The campaign's open pull requests and how many more may open.
#[derive(Debug)]
pub(super) struct Budget {
    max: usize,
    /// Repositories whose pull request from the campaign's branch is open (`owner/name`).
    open: HashSet<String>,
}

/// What a repository may do about its pull request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Slot {
    /// Its pull request is open already: update it.
    Open,
    /// A new one may open; give it back with [`Budget::release`] if none does.
    Fresh,
    /// The limit is reached: why it waits.
    Queued(String),
}

impl Budget {
    /// Counts the campaign's open pull requests (those from `branch`) among `repos`.
    pub(super) fn count(gh: &GitHub, repos: &[RepoId], branch: &str, max: usize) -> Result<Budget> {
        let mut open = HashSet::new();
        for repo in repos {
            if pulls::open_for(gh, repo, branch)?.is_some() {
                open.insert(repo.to_string());
            }
        }
        Ok(Budget { max, open })
    }

    pub(super) fn reserve(&mut self, repo: &RepoId) -> Slot {
        let key = repo.to_string();
        if self.open.contains(&key) {
            return Slot::Open;
        }
        if self.open.len() >= self.max {
            return Slot::Queued(format!(
                "{} of the campaign's pull requests are open (`--max-prs {}`): this one waits for a later run",
                self.open.len(),
                self.max
            ));
        }
        self.open.insert(key);
        Slot::Fresh
    }

    /// Gives back a fresh slot no pull request took.
    pub(super) fn release(&mut self, repo: &RepoId) {
        self.open.remove(&repo.to_string());
    }
}

/// Labels and assignees on the pull request `number` of `repo`, and reviewers when it was just
/// `created` (asking again on every update would notify them again). Each refusal (a label the
/// token may not create, a reviewer who is no collaborator) is a warning, never a failure: the
/// pull request is open.
pub(super) fn dress(
    gh: &GitHub,
    repo: &RepoId,
    number: u64,
    created: bool,
    hygiene: &PrHygiene,
) -> Vec<String> {
    let mut warnings = Vec::new();
    let mut call = |what: &str, path: String, body: serde_json::Value| {
        if let Err(e) = gh.post::<serde_json::Value>(&path, &body) {
            warnings.push(format!("{what} of pull request #{number}: {}", crate::error::one_line(&e)));
        }
    };
    if !hygiene.labels.is_empty() {
        call(
            "the labels",
            format!("{}/issues/{number}/labels", repo.api()),
            json!({ "labels": hygiene.labels }),
        );
    }
    if !hygiene.assignees.is_empty() {
        call(
            "the assignees",
            format!("{}/issues/{number}/assignees", repo.api()),
            json!({ "assignees": hygiene.assignees }),
        );
    }
    if created && !hygiene.reviewers.is_empty() {
        let (teams, users): (Vec<&String>, Vec<&String>) =
            hygiene.reviewers.iter().partition(|r| r.contains('/'));
        let teams: Vec<&str> = teams.iter().filter_map(|t| t.split_once('/').map(|(_, slug)| slug)).collect();
        call(
            "the reviewers",
            format!("{}/pulls/{number}/requested_reviewers", repo.api()),
            json!({ "reviewers": users, "team_reviewers": teams }),
        );
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_pull_requests_keep_their_place_and_new_ones_wait_for_a_free_one() {
        let repo = |n: &str| RepoId::parse(&format!("acme/{n}")).unwrap();
        let mut budget = Budget { max: 2, open: HashSet::from(["acme/a".to_string()]) };
        assert_eq!(budget.reserve(&repo("a")), Slot::Open);
        assert_eq!(budget.reserve(&repo("b")), Slot::Fresh);
        let Slot::Queued(reason) = budget.reserve(&repo("c")) else { panic!("the limit is reached") };
        assert!(reason.contains("2 of the campaign's pull requests are open (`--max-prs 2`)"), "{reason}");
        // b opened nothing after all: c may go.
        budget.release(&repo("b"));
        assert_eq!(budget.reserve(&repo("c")), Slot::Fresh);
        assert_eq!(budget.reserve(&repo("a")), Slot::Open, "an open one never waits");
    }
}
