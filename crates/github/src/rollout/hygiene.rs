//! What a campaign's pull requests get besides their changes, as Renovate and Dependabot do it: at
//! most `--max-prs` of them open at once (a repository whose PR is already open keeps it; the
//! others wait for a later run), labels, assignees, reviewers on a new PR, drafts when asked.

use std::collections::HashSet;

use anyhow::Result;
use serde_json::json;

use crate::github::{GitHub, RepoId, pulls};
use crate::model::eval::Shard;

/// Dependabot's default limit of open pull requests.
pub const DEFAULT_MAX_PRS: usize = 5;

/// How the campaign's pull requests are opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrHygiene {
    /// At most this many of the campaign's pull requests open at once.
    pub max_prs: usize,
    /// Labels added to each of the campaign's pull requests.
    pub labels: Vec<String>,
    /// Logins, and `org/team` for a team.
    pub reviewers: Vec<String>,
    /// Logins assigned to each of the campaign's pull requests.
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

/// The campaign's open pull requests and how many more may open in this run.
#[derive(Debug)]
pub(super) struct Budget {
    /// New pull requests this run may still open.
    fresh: usize,
    /// The limit, for the reason a repository waits.
    max: usize,
    /// This run's repositories whose pull request from the campaign's branch is open (`owner/name`).
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
    /// Counts the campaign's open pull requests (those from `branch`) among all its repositories;
    /// of the places left under `max`, `shard` gets its share (the first shards one more when they
    /// do not divide evenly), so shards that run at once never open more than `max` together.
    pub(super) fn count(
        gh: &GitHub,
        (all, shard): (&[RepoId], Shard),
        mine: &[RepoId],
        branch: &str,
        max: usize,
    ) -> Result<Budget> {
        let mut open = HashSet::new();
        for repo in all {
            if pulls::open_for(gh, repo, branch)?.is_some() {
                open.insert(repo.to_string());
            }
        }
        let fresh = share(max.saturating_sub(open.len()), shard);
        let mine: HashSet<String> = mine.iter().map(ToString::to_string).collect();
        open.retain(|repo| mine.contains(repo));
        Ok(Budget { fresh, max, open })
    }

    pub(super) fn reserve(&mut self, repo: &RepoId) -> Slot {
        let key = repo.to_string();
        if self.open.contains(&key) {
            return Slot::Open;
        }
        if self.fresh == 0 {
            return Slot::Queued(format!(
                "the campaign has as many pull requests open as it may (`--max-prs {}`): this one waits for a \
later run",
                self.max
            ));
        }
        self.fresh -= 1;
        self.open.insert(key);
        Slot::Fresh
    }

    /// Gives back the place of a repository whose pull request did not open, or was closed.
    pub(super) fn release(&mut self, repo: &RepoId) {
        if self.open.remove(&repo.to_string()) {
            self.fresh += 1;
        }
    }
}

/// Shard `shard`'s part of `free` places: an even split, the first shards one more for the rest.
fn share(free: usize, shard: Shard) -> usize {
    free / shard.count + usize::from(shard.index - 1 < free % shard.count)
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
        let mut budget = Budget { fresh: 1, max: 2, open: HashSet::from(["acme/a".to_string()]) };
        assert_eq!(budget.reserve(&repo("a")), Slot::Open);
        assert_eq!(budget.reserve(&repo("b")), Slot::Fresh);
        let Slot::Queued(reason) = budget.reserve(&repo("c")) else { panic!("the limit is reached") };
        assert!(reason.contains("as many pull requests open as it may (`--max-prs 2`)"), "{reason}");
        // b opened nothing after all: c may go.
        budget.release(&repo("b"));
        assert_eq!(budget.reserve(&repo("c")), Slot::Fresh);
        assert_eq!(budget.reserve(&repo("a")), Slot::Open, "an open one never waits");
    }

    #[test]
    fn shards_share_the_free_places_and_never_open_more_together() {
        let parts =
            |free, count| (1..=count).map(|index| share(free, Shard { index, count })).collect::<Vec<_>>();
        assert_eq!(parts(5, 1), [5]);
        assert_eq!(parts(5, 4), [2, 1, 1, 1]);
        assert_eq!(parts(2, 4), [1, 1, 0, 0]);
        assert_eq!(parts(0, 3), [0, 0, 0]);
    }
}
