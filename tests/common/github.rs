//! A local stand-in for the GitHub REST API: a real HTTP server (axum on 127.0.0.1) that keeps
//! comments, reactions and pull requests in memory and records every request it receives.
//! Failures (a 502, a rate limit) can be queued for a method and path.
#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    /// Path and query.
    pub path: String,
    pub body: Value,
    pub authorization: Option<String>,
    /// The status the server answered.
    pub status: u16,
}

#[derive(Debug, Clone)]
pub struct Comment {
    pub id: u64,
    pub issue: u64,
    pub body: String,
    /// (login, user type, author association); the bot's own comments by default.
    pub author: (String, String, String),
}

fn bot() -> (String, String, String) {
    ("github-actions[bot]".into(), "Bot".into(), "NONE".into())
}

#[derive(Debug, Clone)]
pub struct Pull {
    /// `owner/name`: numbers and branches are per repository, as on GitHub.
    pub repo: String,
    pub number: u64,
    pub head: String,
    pub base: String,
    pub title: String,
    pub body: String,
    /// Opened as a draft.
    pub draft: bool,
    /// As added through the issues API, in order.
    pub labels: Vec<String>,
    pub assignees: Vec<String>,
    /// As requested through `requested_reviewers`: logins, then `team:slug`.
    pub reviewers: Vec<String>,
    /// Closed (`PATCH` with `"state": "closed"`): no longer listed as open.
    pub closed: bool,
    /// Merged ([`FakeGitHub::merge`]): closed, with a `merged_at`.
    pub merged: bool,
}

/// An issue opened through the API (not a pull request).
#[derive(Debug, Clone)]
pub struct Issue {
    pub repo: String,
    pub number: u64,
    pub title: String,
    pub body: String,
}

struct Failure {
    method: String,
    path_prefix: String,
    status: u16,
    headers: Vec<(String, String)>,
    message: String,
}

#[derive(Default)]
struct Data {
    requests: Vec<Recorded>,
    comments: Vec<Comment>,
    reactions: Vec<(u64, String)>,
    pulls: Vec<Pull>,
    permissions: HashMap<String, String>,
    pull_details: HashMap<u64, Value>,
    /// Organisation (or user) to its repositories, as `GET /orgs/{org}/repos` lists them.
    owned: HashMap<String, (&'static str, Vec<Value>)>,
    issues: Vec<Issue>,
    /// The repositories (`owner/name`) code search finds for any term (`None`: it answers 404).
    code_search: Option<Vec<String>>,
    /// Repository (`owner/name`) to the check runs of every commit in it.
    check_runs: HashMap<String, Vec<Value>>,
    failures: VecDeque<Failure>,
    next_id: u64,
}

type Shared = Arc<Mutex<Data>>;

pub struct FakeGitHub {
    pub url: String,
    data: Shared,
}

impl FakeGitHub {
    pub fn start() -> FakeGitHub {
        let data: Shared = Arc::new(Mutex::new(Data { next_id: 1000, ..Data::default() }));
        let app = axum::Router::new().fallback(handle).with_state(data.clone());
        let addr = crate::common::serve(app);
        FakeGitHub { url: format!("http://{addr}"), data }
    }

    /// `login` has this permission (admin, write, read, none) on every repository.
    pub fn permission(&self, login: &str, permission: &str) -> &Self {
        self.data.lock().unwrap().permissions.insert(login.to_string(), permission.to_string());
        self
    }

    /// `org` is an organisation owning these repositories (`full_name`, `archived`, `fork`,
    /// `language`, `topics`), as `GET /orgs/{org}/repos` lists them, page by page.
    pub fn organisation(&self, org: &str, repos: Vec<Value>) -> &Self {
        self.data.lock().unwrap().owned.insert(org.to_string(), ("orgs", repos));
        self
    }

    /// `login` is a user owning these repositories (`GET /users/{login}/repos`).
    pub fn user(&self, login: &str, repos: Vec<Value>) -> &Self {
        self.data.lock().unwrap().owned.insert(login.to_string(), ("users", repos));
        self
    }

    /// What `GET /repos/o/r/pulls/{number}` answers.
    pub fn pull_request(&self, number: u64, value: Value) -> &Self {
        self.data.lock().unwrap().pull_details.insert(number, value);
        self
    }

    /// The next request with `method` and a path starting with `path_prefix` fails with `status`.
    pub fn fail_next(&self, method: &str, path_prefix: &str, status: u16, headers: &[(&str, &str)]) -> &Self {
        self.fail_next_saying(method, path_prefix, status, headers, "injected failure")
    }

    /// [`Self::fail_next`] with the error `message` of the JSON body.
    pub fn fail_next_saying(
        &self,
        method: &str,
        path_prefix: &str,
        status: u16,
        headers: &[(&str, &str)],
        message: &str,
    ) -> &Self {
        self.data.lock().unwrap().failures.push_back(Failure {
            method: method.to_string(),
            path_prefix: path_prefix.to_string(),
            status,
            headers: headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            message: message.to_string(),
        });
        self
    }

    /// A comment already in the thread (e.g. an earlier results comment).
    pub fn add_comment(&self, issue: u64, body: &str) -> u64 {
        let mut data = self.data.lock().unwrap();
        data.next_id += 1;
        let id = data.next_id;
        data.comments.push(Comment { id, issue, body: body.to_string(), author: bot() });
        id
    }

    /// A comment someone else wrote (`kind` is the user type, `association` their relation to
    /// the repository, as GitHub reports them).
    pub fn add_comment_by(&self, issue: u64, body: &str, login: &str, kind: &str, association: &str) -> u64 {
        let mut data = self.data.lock().unwrap();
        data.next_id += 1;
        let id = data.next_id;
        let author = (login.to_string(), kind.to_string(), association.to_string());
        data.comments.push(Comment { id, issue, body: body.to_string(), author });
        id
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.data.lock().unwrap().requests.clone()
    }

    /// `METHOD path` of every request, in order.
    pub fn calls(&self) -> Vec<String> {
        self.requests().iter().map(|r| format!("{} {}", r.method, r.path)).collect()
    }

    pub fn comments(&self) -> Vec<Comment> {
        self.data.lock().unwrap().comments.clone()
    }

    pub fn reactions(&self) -> Vec<(u64, String)> {
        self.data.lock().unwrap().reactions.clone()
    }

    pub fn issues(&self) -> Vec<Issue> {
        self.data.lock().unwrap().issues.clone()
    }

    pub fn pulls(&self) -> Vec<Pull> {
        self.data.lock().unwrap().pulls.clone()
    }

    /// Someone edits the body of pull request `number` of `repo` (e.g. ticks a checkbox).
    pub fn edit_pull_body(&self, repo: &str, number: u64, body: &str) {
        let mut data = self.data.lock().unwrap();
        let pull = data.pulls.iter_mut().find(|p| p.repo == repo && p.number == number).expect("no such PR");
        pull.body = body.to_string();
    }

    /// Someone merges pull request `number` of `repo`.
    pub fn merge(&self, repo: &str, number: u64) {
        let mut data = self.data.lock().unwrap();
        let pull = data.pulls.iter_mut().find(|p| p.repo == repo && p.number == number).expect("no such PR");
        (pull.closed, pull.merged) = (true, true);
    }

    /// Code search finds every term in these repositories (of the owner the query names).
    pub fn code_search(&self, repos: &[&str]) {
        self.data.lock().unwrap().code_search = Some(repos.iter().map(|r| r.to_string()).collect());
    }

    /// Every commit of `repo` has these check runs (`{"status": …, "conclusion": …}`).
    pub fn check_runs(&self, repo: &str, runs: Vec<Value>) {
        self.data.lock().unwrap().check_runs.insert(repo.to_string(), runs);
    }

    pub fn clear_requests(&self) {
        self.data.lock().unwrap().requests.clear();
    }
}

async fn handle(
    State(data): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path_and_query = uri.path_and_query().map(|p| p.as_str().to_string()).unwrap_or_default();
    let body: Value =
        if body.is_empty() { Value::Null } else { serde_json::from_slice(&body).unwrap_or(Value::Null) };
    let authorization = headers.get("authorization").and_then(|v| v.to_str().ok()).map(str::to_string);
    let mut data = data.lock().unwrap();
    let (status, extra, answer) =
        answer(&mut data, method.as_str(), uri.path(), uri.query().unwrap_or(""), &body);
    data.requests.push(Recorded {
        method: method.to_string(),
        path: path_and_query,
        body,
        authorization,
        status,
    });
    // A failure message may echo the request's credentials, as careless servers and proxies do.
    let answer = answer
        .to_string()
        .replace("{authorization}", headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or(""));
    let mut response = (StatusCode::from_u16(status).unwrap(), answer).into_response();
    response.headers_mut().insert("content-type", "application/json".parse().unwrap());
    for (k, v) in extra {
        response
            .headers_mut()
            .insert(axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(), v.parse().unwrap());
    }
    response
}

/// A status, extra headers and a JSON body.
type Answer = (u16, Vec<(String, String)>, Value);

fn answer(data: &mut Data, method: &str, path: &str, query: &str, body: &Value) -> Answer {
    if let Some(i) = data.failures.iter().position(|f| f.method == method && path.starts_with(&f.path_prefix))
    {
        let failure = data.failures.remove(i).unwrap();
        return (failure.status, failure.headers, json!({"message": failure.message}));
    }
    let not_found =
        (404, vec![], json!({"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}));
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let param = |name: &str| {
        query
            .split('&')
            .find_map(|kv| kv.split_once('=').filter(|(k, _)| *k == name).map(|(_, v)| v.to_string()))
    };
    let per_page: usize = param("per_page").and_then(|v| v.parse().ok()).unwrap_or(30);
    let page: usize = param("page").and_then(|v| v.parse().ok()).unwrap_or(1);
    if let (Some(repos), ("GET", ["search", "code"])) = (&data.code_search, (method, segments.as_slice())) {
        let query = param("q").map(|q| decode(&q)).unwrap_or_default();
        let owner = query.split("user:").nth(1).unwrap_or_default().split(' ').next().unwrap_or_default();
        let items: Vec<Value> = repos
            .iter()
            .filter(|r| r.split('/').next() == Some(owner))
            .map(|r| json!({"name": "Hit.java", "repository": {"full_name": r}}))
            .collect();
        return (
            200,
            vec![],
            json!({"total_count": items.len(), "incomplete_results": false, "items": items}),
        );
    }
    if let ("GET", [kind @ ("orgs" | "users"), owner, "repos"]) = (method, segments.as_slice()) {
        return match data.owned.get(*owner) {
            Some((k, repos)) if k == kind => (
                200,
                vec![],
                json!(repos.iter().skip((page - 1) * per_page).take(per_page).collect::<Vec<_>>()),
            ),
            _ => not_found,
        };
    }
    let ["repos", owner, repo, rest @ ..] = segments.as_slice() else { return not_found };
    let comment_json = |c: &Comment| {
        json!({"id": c.id, "body": c.body, "html_url": format!("https://github.com/{owner}/{repo}/pull/{}#issuecomment-{}", c.issue, c.id),
               "user": {"login": c.author.0, "type": c.author.1}, "author_association": c.author.2})
    };
    match (method, rest) {
        ("GET", ["issues", issue, "comments"]) => {
            let issue: u64 = issue.parse().unwrap_or(0);
            let all: Vec<Value> =
                data.comments.iter().filter(|c| c.issue == issue).map(comment_json).collect();
            let start = (page - 1) * per_page;
            let page: Vec<Value> = all.into_iter().skip(start).take(per_page).collect();
            (200, vec![], Value::Array(page))
        }
        ("POST", ["issues", issue, "comments"]) => {
            data.next_id += 1;
            let comment = Comment {
                id: data.next_id,
                issue: issue.parse().unwrap_or(0),
                body: body["body"].as_str().unwrap_or("").to_string(),
                author: bot(),
            };
            let json = comment_json(&comment);
            data.comments.push(comment);
            (201, vec![], json)
        }
        ("PATCH", ["issues", "comments", id]) => {
            let id: u64 = id.parse().unwrap_or(0);
            match data.comments.iter_mut().find(|c| c.id == id) {
                Some(c) => {
                    c.body = body["body"].as_str().unwrap_or("").to_string();
                    let c = c.clone();
                    (200, vec![], comment_json(&c))
                }
                None => not_found,
            }
        }
        ("POST", ["issues", "comments", id, "reactions"]) => {
            let content = body["content"].as_str().unwrap_or("").to_string();
            data.reactions.push((id.parse().unwrap_or(0), content.clone()));
            (201, vec![], json!({"id": 1, "content": content}))
        }
        ("GET", ["collaborators", user, "permission"]) => match data.permissions.get(*user) {
            Some(p) => (200, vec![], json!({"permission": p, "role_name": p, "user": {"login": user}})),
            None => not_found,
        },
        ("GET", ["pulls", number]) => match data.pull_details.get(&number.parse().unwrap_or(0)) {
            Some(v) => (200, vec![], v.clone()),
            None => not_found,
        },
        ("GET", ["issues"]) => {
            let slug = format!("{owner}/{repo}");
            let all: Vec<Value> = data
                .issues
                .iter()
                .filter(|i| i.repo == slug)
                .map(|i| json!({"number": i.number, "html_url": format!("https://github.com/{slug}/issues/{}", i.number), "title": i.title, "body": i.body}))
                .collect();
            (
                200,
                vec![],
                json!(all.into_iter().skip((page - 1) * per_page).take(per_page).collect::<Vec<_>>()),
            )
        }
        ("POST", ["issues"]) => {
            let slug = format!("{owner}/{repo}");
            let number = 1 + data.issues.iter().filter(|i| i.repo == slug).count() as u64;
            let issue = Issue {
                repo: slug.clone(),
                number,
                title: body["title"].as_str().unwrap_or("").to_string(),
                body: body["body"].as_str().unwrap_or("").to_string(),
            };
            data.issues.push(issue);
            (
                201,
                vec![],
                json!({"number": number, "html_url": format!("https://github.com/{slug}/issues/{number}")}),
            )
        }
        ("PATCH", ["issues", number]) => {
            let slug = format!("{owner}/{repo}");
            let number: u64 = number.parse().unwrap_or(0);
            let Some(issue) = data.issues.iter_mut().find(|i| i.repo == slug && i.number == number) else {
                return not_found;
            };
            issue.title = body["title"].as_str().unwrap_or(&issue.title).to_string();
            issue.body = body["body"].as_str().unwrap_or(&issue.body).to_string();
            (
                200,
                vec![],
                json!({"number": number, "html_url": format!("https://github.com/{slug}/issues/{number}")}),
            )
        }
        (
            "POST",
            [kind @ ("issues" | "pulls"), number, what @ ("labels" | "assignees" | "requested_reviewers")],
        ) => {
            let number: u64 = number.parse().unwrap_or(0);
            let slug = format!("{owner}/{repo}");
            let Some(p) = data.pulls.iter_mut().find(|p| p.repo == slug && p.number == number) else {
                return not_found;
            };
            let strings = |key: &str| -> Vec<String> {
                body[key]
                    .as_array()
                    .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
                    .unwrap_or_default()
            };
            match (*kind, *what) {
                ("issues", "labels") => p.labels.extend(strings("labels")),
                ("issues", "assignees") => p.assignees.extend(strings("assignees")),
                ("pulls", "requested_reviewers") => {
                    p.reviewers.extend(strings("reviewers"));
                    p.reviewers.extend(strings("team_reviewers").iter().map(|t| format!("team:{t}")));
                }
                _ => return not_found,
            }
            (201, vec![], json!({"number": number}))
        }
        ("GET", ["commits", _, "check-runs"]) => {
            let runs = data.check_runs.get(&format!("{owner}/{repo}")).cloned().unwrap_or_default();
            (200, vec![], json!({"total_count": runs.len(), "check_runs": runs}))
        }
        (_, ["pulls"]) | ("PATCH", ["pulls", _]) => {
            let state = param("state").unwrap_or_else(|| "open".into());
            pulls(data, method, &format!("{owner}/{repo}"), rest, (param("head"), &state), body)
                .unwrap_or(not_found)
        }
        _ => not_found,
    }
}

/// The pull requests of repository `slug`: list them by head branch and state (`open`, `closed`,
/// `all`), create, update. None for an unknown pull request or method.
fn pulls(
    data: &mut Data,
    method: &str,
    slug: &str,
    rest: &[&str],
    (head, state): (Option<String>, &str),
    body: &Value,
) -> Option<Answer> {
    let pull_json = |p: &Pull| {
        json!({"number": p.number, "html_url": format!("https://github.com/{slug}/pull/{}", p.number),
               "title": p.title, "body": p.body, "draft": p.draft, "head": {"ref": p.head}, "base": {"ref": p.base},
               "state": if p.closed { "closed" } else { "open" },
               "merged_at": if p.merged { json!("2026-11-29T09:00:00Z") } else { Value::Null }})
    };
    let text = |key: &str| body[key].as_str().unwrap_or("").to_string();
    match (method, rest) {
        ("GET", ["pulls"]) => {
            let head = head.unwrap_or_default();
            let branch = head.split_once(':').map(|(_, b)| b.to_string()).unwrap_or(head);
            let listed: Vec<Value> = data
                .pulls
                .iter()
                .filter(|p| {
                    p.repo == slug && p.head == branch && (state == "all" || p.closed == (state == "closed"))
                })
                .map(pull_json)
                .collect();
            Some((200, vec![], Value::Array(listed)))
        }
        ("POST", ["pulls"]) => {
            let pull = Pull {
                number: 100 + data.pulls.iter().filter(|p| p.repo == slug).count() as u64,
                repo: slug.to_string(),
                head: text("head"),
                base: text("base"),
                title: text("title"),
                body: text("body"),
                draft: body["draft"].as_bool().unwrap_or(false),
                labels: Vec::new(),
                assignees: Vec::new(),
                reviewers: Vec::new(),
                closed: false,
                merged: false,
            };
            let json = pull_json(&pull);
            data.pulls.push(pull);
            Some((201, vec![], json))
        }
        ("PATCH", ["pulls", number]) => {
            let number: u64 = number.parse().unwrap_or(0);
            let p = data.pulls.iter_mut().find(|p| p.repo == slug && p.number == number)?;
            p.title = body["title"].as_str().unwrap_or(&p.title).to_string();
            p.body = body["body"].as_str().unwrap_or(&p.body).to_string();
            p.closed = p.closed || body["state"] == "closed";
            let p = p.clone();
            Some((200, vec![], pull_json(&p)))
        }
        _ => None,
    }
}

/// `text` with its `%XX` escapes decoded.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], text.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
