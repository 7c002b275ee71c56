//! Which repositories a rollout runs on: a list on the command line, a file (one `owner/name` a
//! line, or Moderne's `repos.csv`), or an organisation's (or a user's) repositories from the API,
//! filtered by topic and language, archived repositories and forks left out unless asked.

use std::path::Path;

use anyhow::{Context as _, Result};
use serde::Deserialize;

use crate::error::bad_input;
use crate::github::{GitHub, RepoId};

/// Where the repositories come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Targets {
    /// `--repos a/b,c/d`.
    List(String),
    /// `--repos-file FILE`.
    File(std::path::PathBuf),
    /// `--org ORG` and its filters.
    Org(OrgQuery),
}

/// An organisation's repositories, as `--org` and its filters ask for them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrgQuery {
    /// The organisation's login.
    pub org: String,
    /// Keep a repository only if it has every one of these topics.
    pub topics: Vec<String>,
    /// Keep a repository only if GitHub's main language of it is one of these (any case).
    pub languages: Vec<String>,
    /// Keep archived repositories too (left out by default).
    pub include_archived: bool,
    /// Keep forks too (left out by default).
    pub include_forks: bool,
}

impl Targets {
    /// The repositories, each once, in the order given (an organisation's sorted by name). `gh` is
    /// needed for an organisation only.
    pub fn resolve(&self, gh: Option<&GitHub>) -> Result<Vec<RepoId>> {
        let repos = match self {
            Targets::List(list) => super::parse_repos(list)?,
            Targets::File(path) => of_file(path)?,
            Targets::Org(query) => {
                let gh = gh.context("listing an organisation's repositories needs a GitHub client")?;
                of_org(gh, query)?
            }
        };
        if repos.is_empty() {
            return Err(bad_input(match self {
                Targets::Org(q) => format!("`--org {}` has no repository that passes the filters", q.org),
                _ => "no repository to run on".to_string(),
            }));
        }
        Ok(repos)
    }
}

/// The repositories of a file: one `owner/name` a line (blank lines and `#` comments skipped), or a
/// CSV whose header names a `cloneUrl` column (Moderne's `repos.csv`; a `path` column of
/// `owner/name` is read where there is no clone URL).
fn of_file(path: &Path) -> Result<Vec<RepoId>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| bad_input(format!("--repos-file {}: {e}", path.display())))?;
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or_default();
    let slugs: Vec<String> = if first.contains(',') && first.to_ascii_lowercase().contains("cloneurl") {
        csv_slugs(&text).map_err(|e| bad_input(format!("--repos-file {}: {e}", path.display())))?
    } else {
        text.lines()
            .map(|l| l.split('#').next().unwrap_or_default().trim().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    };
    let mut repos: Vec<RepoId> = Vec::new();
    for (i, slug) in slugs.iter().enumerate() {
        let repo = RepoId::parse(slug)
            .map_err(|e| bad_input(format!("--repos-file {}: entry {}: {e}", path.display(), i + 1)))?;
        if !repos.iter().any(|r| r.to_string().eq_ignore_ascii_case(&repo.to_string())) {
            repos.push(repo);
        }
    }
    Ok(repos)
}

/// `owner/name` of each row of a `repos.csv`.
fn csv_slugs(text: &str) -> Result<Vec<String>> {
    let mut reader =
        csv::ReaderBuilder::new().flexible(true).trim(csv::Trim::All).from_reader(text.as_bytes());
    let headers = reader.headers()?.clone();
    let column = |name: &str| headers.iter().position(|h| h.eq_ignore_ascii_case(name));
    let (clone_url, path) = (column("cloneUrl"), column("path"));
    let mut out = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record?;
        let field = |c: Option<usize>| c.and_then(|c| record.get(c)).filter(|v| !v.is_empty());
        let slug = match (field(clone_url), field(path)) {
            (Some(url), _) => slug_of_url(url)
                .ok_or_else(|| anyhow::anyhow!("row {}: `{url}` names no owner/name", i + 2))?,
            (None, Some(path)) => path.trim_matches('/').to_string(),
            (None, None) => anyhow::bail!("row {}: neither cloneUrl nor path", i + 2),
        };
        out.push(slug);
    }
    Ok(out)
}

/// `owner/name` of a clone URL: `https://github.com/owner/name(.git)` or `git@github.com:owner/name.git`.
fn slug_of_url(url: &str) -> Option<String> {
    let path = match url.split_once("://") {
        Some((_, rest)) => rest.split_once('/')?.1,
        None => url.split_once(':')?.1,
    };
    let path = path.trim_end_matches('/').trim_end_matches(".git");
    let mut parts = path.rsplitn(3, '/');
    let name = parts.next().filter(|n| !n.is_empty())?;
    let owner = parts.next().filter(|o| !o.is_empty())?;
    Some(format!("{owner}/{name}"))
}

/// A repository as the organisation's list gives it.
#[derive(Debug, Deserialize)]
struct Listed {
    full_name: String,
    #[serde(default)]
    archived: bool,
    #[serde(default)]
    fork: bool,
    #[serde(default)]
    language: Option<String>,
    #[serde(default)]
    topics: Vec<String>,
}

/// The organisation's repositories that pass the query's filters, sorted by name; a user's when
/// there is no organisation of that name.
fn of_org(gh: &GitHub, query: &OrgQuery) -> Result<Vec<RepoId>> {
    crate::github::client::check_slug(&format!("{}/x", query.org))
        .map_err(|_| bad_input(format!("--org `{}` is not an organisation's name", query.org)))?;
    let listed: Vec<Listed> = match gh.get_all(&format!("/orgs/{}/repos?type=all", query.org)) {
        Err(e) if crate::github::client::status_of(&e) == Some(404) => gh
            .get_all(&format!("/users/{}/repos?type=owner", query.org))
            .map_err(|e| match crate::github::client::status_of(&e) {
                Some(404) => bad_input(format!("--org `{}`: no such organisation or user", query.org)),
                _ => e,
            })?,
        other => other?,
    };
    let mut repos: Vec<RepoId> = listed
        .into_iter()
        .filter(|r| query.include_archived || !r.archived)
        .filter(|r| query.include_forks || !r.fork)
        .filter(|r| query.topics.iter().all(|t| r.topics.iter().any(|have| have.eq_ignore_ascii_case(t))))
        .filter(|r| {
            query.languages.is_empty()
                || r.language
                    .as_deref()
                    .is_some_and(|l| query.languages.iter().any(|q| q.eq_ignore_ascii_case(l)))
        })
        .map(|r| RepoId::parse(&r.full_name))
        .collect::<Result<_>>()?;
    repos.sort_by_key(|r| r.to_string().to_ascii_lowercase());
    Ok(repos)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> Result<Vec<String>> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("repos");
        std::fs::write(&path, text).unwrap();
        Ok(of_file(&path)?.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn a_list_file_one_repository_a_line() {
        let repos =
            file("# the shop's services\nacme/cart\n\nacme/billing  # owns invoices\nAcme/Cart\n").unwrap();
        assert_eq!(repos, ["acme/cart", "acme/billing"]);
        let error = file("acme/cart\nnot a repo\n").unwrap_err().to_string();
        assert!(error.contains("entry 2"), "{error}");
    }

    #[test]
    fn modernes_repos_csv_by_its_clone_url_or_path() {
        let csv = "cloneUrl,branch,origin,path\n\
https://github.com/acme/cart.git,main,github.com,acme/cart\n\
git@github.com:acme/billing.git,master,github.com,acme/billing\n\
,main,github.com,acme/search\n\
\"https://ghe.acme.example/platform/gateway\",main,ghe.acme.example,platform/gateway\n";
        assert_eq!(file(csv).unwrap(), ["acme/cart", "acme/billing", "acme/search", "platform/gateway"]);
        let error = file("cloneUrl,branch\n,main\n").unwrap_err().to_string();
        assert!(error.contains("row 2: neither cloneUrl nor path"), "{error}");
    }

    #[test]
    fn clone_urls() {
        assert_eq!(slug_of_url("https://github.com/acme/cart.git").as_deref(), Some("acme/cart"));
        assert_eq!(slug_of_url("ssh://git@github.com/acme/cart").as_deref(), Some("acme/cart"));
        assert_eq!(slug_of_url("git@github.com:acme/cart.git").as_deref(), Some("acme/cart"));
        assert_eq!(slug_of_url("https://github.com/cart"), None);
    }
}
