//! The PR every PR-reading command takes: a repository and two commits.

use std::path::PathBuf;

#[derive(Debug, Clone, clap::Args)]
pub(crate) struct PrArgs {
    /// The repository: a work tree or a bare git directory. It is never modified.
    #[arg(long, value_name = "PATH", value_parser = super::paths::absolute)]
    pub repo: PathBuf,
    /// The PR's base commit (any commit-ish: branch, tag, sha).
    #[arg(long, value_name = "REF")]
    pub base: String,
    /// The PR's head commit.
    #[arg(long, value_name = "REF")]
    pub head: String,
}
