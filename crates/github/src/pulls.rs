//! The pull requests API: read a PR, and open a bot PR or update the one already open for its
//! branch (never a duplicate).

use anyhow::Result;
use serde::Deserialize;
use serde_json::json;

use super::event::{PullRequest, PullRequestFields};
use super::report::Doc;
use super::{GitHub, RepoId};

/// Below GitHub's 65,536-character limit for a PR body.
pub(crate) const BODY_LIMIT: usize = super::client::BODY_LIMIT - 1_024;

/// An open pull request as the list of a branch's PRs gives it.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Listed {
    pub number: u64,
    pub html_url: String,
    #[serde(default)]
    pub body: Option<String>,
}

/// The open pull request from `branch` of `repo`, if there is one.
pub(crate) fn open_for(gh: &GitHub, repo: &RepoId, branch: &str) -> Result<Option<Listed>> {
    let open: Vec<Listed> =
        gh.get(&format!("{}/pulls?state=open&head={}:{}", repo.api(), repo.owner, encode(branch)))?;
    Ok(open.into_iter().next())
}

/// The merged pull request from `branch` of `repo`, if there is one: its address.
pub(crate) fn merged_for(gh: &GitHub, repo: &RepoId, branch: &str) -> Result<Option<String>> {
    #[derive(Deserialize)]
    struct Closed {
        html_url: String,
        #[serde(default)]
        merged_at: Option<String>,
    }
    let closed: Vec<Closed> =
        gh.get(&format!("{}/pulls?state=closed&head={}:{}", repo.api(), repo.owner, encode(branch)))?;
    Ok(closed.into_iter().find(|pr| pr.merged_at.is_some()).map(|pr| pr.html_url))
}

/// A bot PR after [`upsert`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    /// The PR's number in its repository.
    pub number: u64,
    /// Its web address.
    pub url: String,
    /// False when an open PR for the branch existed and was updated.
    pub created: bool,
}

/// The pull request `number` of `repo`, read from the API.
pub fn get(gh: &GitHub, repo: &RepoId, number: u64) -> Result<PullRequest> {
    let fields: PullRequestFields = gh.get(&format!("{}/pulls/{number}", repo.api()))?;
    Ok(fields.into_pull_request(repo.clone()))
}

/// Opens a PR from `branch` into `base`, or updates the title and body of the open one.
pub(crate) fn upsert(
    gh: &GitHub,
    repo: &RepoId,
    branch: &str,
    base: &str,
    title: &str,
    body: &str,
) -> Result<Opened> {
    upsert_draft(gh, repo, (branch, base), (title, body), false)
}

/// [`upsert`], a new PR opened as a draft when `draft` (an open one keeps its state: GitHub's
/// REST API does not turn a PR into a draft).
pub(crate) fn upsert_draft(
    gh: &GitHub,
    repo: &RepoId,
    (branch, base): (&str, &str),
    (title, body): (&str, &str),
    draft: bool,
) -> Result<Opened> {
    let body = Doc::new().push(body).render(BODY_LIMIT);
    if let Some(existing) = open_for(gh, repo, branch)? {
        let _: serde_json::Value = gh.patch(
            &format!("{}/pulls/{}", repo.api(), existing.number),
            &json!({ "title": title, "body": body, "base": base }),
        )?;
        return Ok(Opened { number: existing.number, url: existing.html_url, created: false });
    }
    let created: Listed = gh
        .post(
            &format!("{}/pulls", repo.api()),
            &json!({ "title": title, "head": branch, "base": base, "body": body, "maintainer_can_modify": true, "draft": draft }),
        )
        .map_err(|e| match super::client::status_of(&e) {
            // Organisations (and new repositories) turn this off by default; the push went through.
            Some(403) => super::user_facing(format!(
                "GitHub refused to open the pull request with this token (403): the branch `{branch}` is pushed, \
but the workflow's token may not create pull requests. Turn on *Allow GitHub Actions to create and approve pull \
requests* (Settings → Actions → General → Workflow permissions, for the repository or the organisation) and give \
the job `pull-requests: write`, or pass a GitHub App token or personal access token as the action's `token` input."
            )),
            _ => e,
        })?;
    Ok(Opened { number: created.number, url: created.html_url, created: true })
}

/// Closes pull request `number` of `repo` (unmerged; it can be reopened).
pub(crate) fn close(gh: &GitHub, repo: &RepoId, number: u64) -> Result<()> {
    let _: serde_json::Value =
        gh.patch(&format!("{}/pulls/{number}", repo.api()), &json!({ "state": "closed" }))?;
    Ok(())
}

/// Percent-encodes a branch name for a query string (`/` is kept, as GitHub expects it).
pub(crate) fn encode(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                out.push(byte as char)
            }
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn branch_names_are_encoded_for_queries() {
        assert_eq!(super::encode("rewrite-assist/pr-7-option-2"), "rewrite-assist/pr-7-option-2");
        assert_eq!(super::encode("a b&c"), "a%20b%26c");
    }
}
