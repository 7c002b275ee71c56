//! The event that started the workflow (`GITHUB_EVENT_NAME` + the JSON at `GITHUB_EVENT_PATH`),
//! reduced to the fields the action uses.

use anyhow::Result;
use serde::Deserialize;

use super::RepoId;
use crate::error::bad_input;

/// Largest event payload read: GitHub caps webhook payloads at 25 MB, and the file is read whole,
/// so a larger one (or `/dev/zero`) is refused at the limit instead of filling the memory.
pub(crate) const MAX_EVENT_BYTES: usize = 25 << 20;

/// The payload at `path` (`GITHUB_EVENT_PATH`), read through the bounded reader; it must be a
/// regular file (a FIFO would block the run for ever, a device never end).
pub(crate) fn read_payload(path: &std::path::Path) -> Result<String> {
    let bytes =
        crate::setup::input::read_regular_named(path, "the event", MAX_EVENT_BYTES, "event payloads")?;
    String::from_utf8(bytes).map_err(|_| bad_input(format!("the event {} is not UTF-8 text", path.display())))
}

/// What happened, as far as the action cares.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Event {
    /// A pull request was opened, pushed to or reopened: analyze it.
    PullRequest(PullRequest),
    /// Someone commented on a pull request (or an issue: `on_pull_request` tells).
    Comment(Comment),
    /// A manual run for the pull request at `pr_url`.
    Dispatch { pr_url: String },
    /// Anything else (another event, or an action such as `closed`): nothing to do.
    Ignored(String),
}

/// A pull request's coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct PullRequest {
    /// The repository the PR targets (the base repository, not a fork).
    pub repo: RepoId,
    /// The PR's number in that repository.
    pub number: u64,
    /// Its title as the author wrote it.
    pub title: String,
    /// The branch it merges into.
    pub base_ref: String,
    /// The base branch's commit when the PR was read (its tip then, not the merge base).
    pub base_sha: String,
    /// The PR's branch, in `head_repo`.
    pub head_ref: String,
    /// The PR's head commit.
    pub head_sha: String,
    /// The repository the head branch lives in; differs from `repo` for a fork (None: deleted).
    pub head_repo: Option<String>,
}

impl PullRequest {
    /// Fork PRs get a read-only token: writing a comment may be refused.
    pub(crate) fn is_from_fork(&self) -> bool {
        self.head_repo.as_deref() != Some(self.repo.to_string().as_str())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Comment {
    pub repo: RepoId,
    pub issue: u64,
    pub on_pull_request: bool,
    /// `created`, `edited` or `deleted`.
    pub action: String,
    pub id: u64,
    pub body: String,
    pub author: String,
    /// `User` or `Bot`.
    pub author_type: String,
    /// OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, FIRST_TIME_CONTRIBUTOR, FIRST_TIMER, NONE.
    pub author_association: String,
}

/// Parses the payload of event `name`. `repository` is `GITHUB_REPOSITORY`, used when the
/// payload has no `repository` (it always has on GitHub).
pub(crate) fn parse(name: &str, payload: &str, repository: Option<&str>) -> Result<Event> {
    let value: serde_json::Value = serde_json::from_str(payload)
        .map_err(|e| bad_input(format!("the event payload is not JSON: {e}")))?;
    let repo_slug = value["repository"]["full_name"]
        .as_str()
        .map(str::to_string)
        .or_else(|| repository.map(str::to_string))
        .ok_or_else(|| bad_input("the event names no repository (set GITHUB_REPOSITORY)"))?;
    let repo = RepoId::parse(&repo_slug)?;
    match name {
        "pull_request" | "pull_request_target" => {
            let payload: PullRequestPayload = serde_json::from_value(value)
                .map_err(|e| bad_input(format!("the {name} event payload: {e}")))?;
            // `labeled`: the example workflow analyzes a PR when its label is added; which label
            // counts is the workflow's `if:`.
            if !matches!(
                payload.action.as_str(),
                "opened" | "synchronize" | "reopened" | "ready_for_review" | "labeled"
            ) {
                return Ok(Event::Ignored(format!("{name}.{}", payload.action)));
            }
            Ok(Event::PullRequest(payload.pull_request.into_pull_request(repo)))
        }
        "issue_comment" => {
            let payload: CommentPayload = serde_json::from_value(value)
                .map_err(|e| bad_input(format!("the issue_comment event payload: {e}")))?;
            Ok(Event::Comment(Comment {
                repo,
                issue: payload.issue.number,
                on_pull_request: payload.issue.pull_request.is_some(),
                action: payload.action,
                id: payload.comment.id,
                body: payload.comment.body.unwrap_or_default(),
                author: payload.comment.user.login,
                author_type: payload.comment.user.r#type,
                author_association: payload.comment.author_association,
            }))
        }
        "workflow_dispatch" => match value["inputs"]["pr_url"].as_str().map(str::trim) {
            Some(url) if !url.is_empty() => Ok(Event::Dispatch { pr_url: url.to_string() }),
            _ => Err(bad_input("workflow_dispatch needs a `pr_url` input (the pull request to analyze)")),
        },
        other => Ok(Event::Ignored(other.to_string())),
    }
}

/// `https://HOST/OWNER/REPO/pull/42` (any host; a tab like `/files`, a query or a fragment after it).
pub(crate) fn parse_pr_url(url: &str) -> Result<(RepoId, u64)> {
    let fail =
        || bad_input(format!("`{url}` is not a pull request URL (https://HOST/OWNER/REPO/pull/NUMBER)"));
    let pr = crate::setup::PrUrl::parse(url).map_err(|_| fail())?;
    let (owner, name) = pr.owner_and_name().ok_or_else(fail)?;
    let repo = RepoId::parse(&format!("{owner}/{name}")).map_err(|_| fail())?;
    Ok((repo, pr.number()))
}

#[derive(Deserialize)]
struct PullRequestPayload {
    action: String,
    pull_request: PullRequestFields,
}

/// The fields of a pull request object (event payloads and `GET /pulls/{n}` alike).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct PullRequestFields {
    pub number: u64,
    #[serde(default)]
    pub title: String,
    pub base: Branch,
    pub head: Branch,
}

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Branch {
    pub r#ref: String,
    pub sha: String,
    pub repo: Option<RepoFields>,
}

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct RepoFields {
    pub full_name: String,
}

impl PullRequestFields {
    pub(crate) fn into_pull_request(self, repo: RepoId) -> PullRequest {
        PullRequest {
            repo,
            number: self.number,
            title: self.title,
            base_ref: self.base.r#ref,
            base_sha: self.base.sha,
            head_ref: self.head.r#ref,
            head_sha: self.head.sha,
            head_repo: self.head.repo.map(|r| r.full_name),
        }
    }
}

#[derive(Deserialize)]
struct CommentPayload {
    action: String,
    issue: Issue,
    comment: CommentFields,
}

#[derive(Deserialize)]
struct Issue {
    number: u64,
    pull_request: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct CommentFields {
    id: u64,
    body: Option<String>,
    user: User,
    #[serde(default)]
    author_association: String,
}

#[derive(Deserialize)]
struct User {
    login: String,
    #[serde(default)]
    r#type: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pr_payload(action: &str) -> String {
        serde_json::json!({
            "action": action,
            "number": 7,
            "pull_request": {
                "number": 7, "title": "Jakarta",
                "base": {"ref": "main", "sha": "aaa", "repo": {"full_name": "acme/shop"}},
                "head": {"ref": "migration", "sha": "bbb", "repo": {"full_name": "someone/shop"}}
            },
            "repository": {"full_name": "acme/shop"}
        })
        .to_string()
    }

    #[test]
    fn pull_request_events() {
        let Event::PullRequest(pr) = parse("pull_request", &pr_payload("synchronize"), None).unwrap() else {
            panic!("not a pull request event")
        };
        assert_eq!((pr.number, pr.base_sha.as_str(), pr.head_sha.as_str()), (7, "aaa", "bbb"));
        assert_eq!(pr.repo.to_string(), "acme/shop");
        assert!(pr.is_from_fork());
        for action in ["opened", "reopened", "ready_for_review", "labeled"] {
            assert!(
                matches!(parse("pull_request", &pr_payload(action), None).unwrap(), Event::PullRequest(_)),
                "{action}"
            );
        }
        for action in ["closed", "unlabeled", "edited"] {
            assert_eq!(
                parse("pull_request", &pr_payload(action), None).unwrap(),
                Event::Ignored(format!("pull_request.{action}"))
            );
        }
    }

    #[test]
    fn comment_events() {
        let payload = serde_json::json!({
            "action": "created",
            "issue": {"number": 7, "pull_request": {"url": "x"}},
            "comment": {"id": 99, "body": "/rewrite-assist run", "user": {"login": "alice", "type": "User"},
                        "author_association": "MEMBER"},
            "repository": {"full_name": "acme/shop"}
        });
        let Event::Comment(c) = parse("issue_comment", &payload.to_string(), None).unwrap() else {
            panic!("not a comment")
        };
        assert!(c.on_pull_request);
        assert_eq!((c.id, c.author.as_str(), c.author_association.as_str()), (99, "alice", "MEMBER"));
    }

    #[test]
    fn dispatch_and_bad_payloads() {
        let payload = r#"{"inputs": {"pr_url": " https://github.com/acme/shop/pull/7 "}}"#;
        assert_eq!(
            parse("workflow_dispatch", payload, Some("acme/shop")).unwrap(),
            Event::Dispatch { pr_url: "https://github.com/acme/shop/pull/7".into() }
        );
        assert!(parse("workflow_dispatch", r#"{"inputs": {}}"#, Some("acme/shop")).is_err());
        assert!(parse("pull_request", "not json", Some("acme/shop")).is_err());
        // A payload without the fields we need is bad input (exit 2), not an internal failure.
        for (name, payload) in [("pull_request", "{}"), ("issue_comment", r#"{"action": "created"}"#)] {
            let error = parse(name, payload, Some("acme/shop")).unwrap_err();
            assert_eq!(
                crate::error::exit_code_of(&error),
                crate::error::exit::BAD_INPUT,
                "{name}: {error:#}"
            );
        }
        assert!(parse("push", "{}", None).is_err(), "no repository anywhere");
        assert_eq!(parse("push", "{}", Some("acme/shop")).unwrap(), Event::Ignored("push".into()));
    }

    #[test]
    fn pr_urls() {
        let (repo, number) = parse_pr_url("https://ghe.example.com/acme/shop/pull/42/files").unwrap();
        assert_eq!((repo.to_string(), number), ("acme/shop".into(), 42));
        assert_eq!(parse_pr_url("https://github.com/acme/shop/pull/5#discussion").unwrap().1, 5);
        for bad in
            ["github.com/acme/shop/pull/1", "https://github.com/acme/shop/issues/1", "https://x/a/b/pull/x"]
        {
            assert!(parse_pr_url(bad).is_err(), "{bad}");
        }
    }
}
