//! A migration PR as data: the project before, and what the PR does to it; built into a git
//! repository with the base on `main` and the PR on `migration`.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::RepoBuilder;

/// A built fixture repository.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// The repository's work tree.
    pub path: PathBuf,
    /// Commit id of the base (on `main`).
    pub base: String,
    /// Commit id of the migration (on `migration`).
    pub head: String,
}

/// A migration PR: the project before, and what the PR does to it.
#[derive(Debug, Clone, Copy)]
pub struct Scenario {
    /// Short name of the scenario, e.g. `demo`.
    pub name: &'static str,
    /// The PR's title, used as the migration commit's message.
    pub title: &'static str,
    /// The base commit's files: path and content.
    pub base: &'static [(&'static str, &'static str)],
    /// What the PR does to the base, file by file.
    pub changes: &'static [FileEdit],
}

/// One change of a PR.
#[derive(Debug, Clone, Copy)]
pub enum FileEdit {
    /// Replace, in the base content of the file, each `from` by its `to` (every occurrence).
    Edit(&'static str, &'static [(&'static str, &'static str)]),
    /// Write the file with this content.
    Write(&'static str, &'static str),
    /// Delete the file.
    Delete(&'static str),
}

impl Scenario {
    /// Creates the repository in `dir` (which must not exist or be empty).
    pub fn build(&self, dir: &Path) -> Result<Fixture> {
        let repo = RepoBuilder::init(dir)?;
        for (path, content) in self.base {
            repo.write(path, content)?;
        }
        let base = repo.commit("Initial project")?;
        repo.branch("migration")?;
        for change in self.changes {
            match change {
                FileEdit::Edit(path, replacements) => {
                    let content = std::fs::read_to_string(dir.join(path))?;
                    repo.write(path, self.replace(path, content, replacements)?)?
                }
                FileEdit::Write(path, content) => repo.write(path, content)?,
                FileEdit::Delete(path) => repo.remove(path)?,
            };
        }
        let head = repo.commit(self.title)?;
        repo.checkout("main")?;
        Ok(Fixture { path: dir.to_path_buf(), base, head })
    }

    /// The text of `path` in the project before the PR, if the project has that file.
    pub fn before(&self, path: &str) -> Option<&'static str> {
        self.base.iter().find(|(p, _)| *p == path).map(|(_, text)| *text)
    }

    /// `text` with the PR's edits of `path` applied ([`FileEdit::Edit`]s only, in order), for a
    /// test whose variant of that file takes the same change; an error if a `from` is not in it.
    pub fn edit(&self, path: &str, text: &str) -> Result<String> {
        let mut content = text.to_string();
        for change in self.changes {
            if let FileEdit::Edit(edited, replacements) = change
                && *edited == path
            {
                content = self.replace(path, content, replacements)?;
            }
        }
        Ok(content)
    }

    /// Each `from` of `replacements` in `content` (`path`'s) replaced by its `to`, every occurrence.
    fn replace(&self, path: &str, mut content: String, replacements: &[(&str, &str)]) -> Result<String> {
        for (from, to) in replacements {
            anyhow::ensure!(content.contains(from), "{}: `{from}` not in {path}", self.name);
            content = content.replace(from, to);
        }
        Ok(content)
    }
}
