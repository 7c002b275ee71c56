//! A fluent builder for throw-away git repositories: what the demo needs to build its example, and
//! the tags and bare clones the tests add (here, since a type's methods live in its own crate).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::setup::git::git_output;

/// Builds a git repository commit by commit:
/// `RepoBuilder::init(dir)?.file("pom.xml", POM).commit("base")?.tag("base")?`.
pub struct RepoBuilder {
    path: PathBuf,
}

impl RepoBuilder {
    /// `git init` in `path` (created if missing), with `main` as the initial branch.
    pub fn init(path: &Path) -> Result<RepoBuilder> {
        std::fs::create_dir_all(path).with_context(|| format!("creating {}", path.display()))?;
        git_output(path, ["init", "--quiet", "--initial-branch=main"])?;
        Ok(RepoBuilder { path: path.to_path_buf() })
    }

    /// The repository's work tree.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes a file (parent directories created). Panics are avoided: errors surface at commit.
    pub fn write(&self, relative: &str, content: impl AsRef<[u8]>) -> Result<&Self> {
        let target = self.path.join(relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&target, content).with_context(|| format!("writing {}", target.display()))?;
        Ok(self)
    }

    /// Deletes a file of the work tree (committed by the next [`RepoBuilder::commit`]).
    pub fn remove(&self, relative: &str) -> Result<&Self> {
        std::fs::remove_file(self.path.join(relative)).with_context(|| format!("removing {relative}"))?;
        Ok(self)
    }

    /// Stages everything and commits; returns the new commit id.
    pub fn commit(&self, message: &str) -> Result<String> {
        git_output(&self.path, ["add", "-A"])?;
        git_output(&self.path, ["commit", "--quiet", "--allow-empty", "-m", message])?;
        let out = git_output(&self.path, ["rev-parse", "HEAD"])?;
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    /// Creates or resets branch `name` at the current commit and checks it out.
    pub fn branch(&self, name: &str) -> Result<&Self> {
        git_output(&self.path, ["checkout", "--quiet", "-B", name])?;
        Ok(self)
    }

    /// Checks out `rev` (a branch, tag or commit).
    pub fn checkout(&self, rev: &str) -> Result<&Self> {
        git_output(&self.path, ["checkout", "--quiet", rev])?;
        Ok(self)
    }

    /// Tags the current commit `name`.
    pub fn tag(&self, name: &str) -> Result<&Self> {
        git_output(self.path(), ["tag", name])?;
        Ok(self)
    }

    /// A bare clone of this repository next to it (`<path>.git`), for tests of bare `--repo`s.
    pub fn bare_clone(&self) -> Result<PathBuf> {
        let bare = self.path().with_extension("git");
        git_output(
            self.path().parent().unwrap_or(self.path()),
            [
                std::ffi::OsStr::new("clone"),
                "--quiet".as_ref(),
                "--bare".as_ref(),
                self.path().as_os_str(),
                bare.as_os_str(),
            ],
        )?;
        Ok(bare)
    }
}
