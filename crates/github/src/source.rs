//! Where a recipe came from: the pull request the action analyzed, kept in the run directory as
//! `result/pull-request.json`, so a rollout from the run's artifacts can say so in its PRs.

use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::event::PullRequest;

/// The file in the run directory.
pub(crate) const PULL_REQUEST_JSON: &str = "result/pull-request.json";

/// The analyzed pull request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SourcePr {
    /// `owner/name`.
    pub repository: String,
    /// The PR's number in its repository.
    pub number: u64,
    /// Its title, trimmed.
    pub title: String,
    /// Its web address.
    pub url: String,
    /// The build's directory in a monorepo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_directory: Option<String>,
}

impl SourcePr {
    pub(crate) fn of(pr: &PullRequest, server_url: &str, dir: Option<&crate::setup::ProjectDir>) -> SourcePr {
        SourcePr {
            repository: pr.repo.to_string(),
            number: pr.number,
            title: pr.title.trim().to_string(),
            url: format!("{}/{}/pull/{}", server_url.trim_end_matches('/'), pr.repo, pr.number),
            working_directory: dir.map(ToString::to_string),
        }
    }

    /// `acme/shop#7`, linked.
    pub(crate) fn link(&self) -> String {
        format!("[{}#{}]({})", self.repository, self.number, self.url)
    }
}

pub(crate) fn write(run_dir: &Path, source: &SourcePr) -> Result<()> {
    let path = run_dir.join(PULL_REQUEST_JSON);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(&path, crate::document::to_json(source)?)?;
    Ok(())
}

/// The source PR of a run directory, when the action wrote one.
pub(crate) fn read(run_dir: &Path) -> Option<SourcePr> {
    let text = std::fs::read_to_string(run_dir.join(PULL_REQUEST_JSON)).ok()?;
    serde_json::from_str(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_then_read_back() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read(dir.path()), None);
        let source = SourcePr {
            repository: "acme/shop".into(),
            number: 7,
            title: "Jakarta".into(),
            url: "https://github.com/acme/shop/pull/7".into(),
            working_directory: Some("services/api".into()),
        };
        write(dir.path(), &source).unwrap();
        assert_eq!(read(dir.path()), Some(source.clone()));
        assert_eq!(source.link(), "[acme/shop#7](https://github.com/acme/shop/pull/7)");
    }
}
