//! Phase 1, setup: a repository and two commits, the PR's diff between them, and isolated
//! temporary clones to run recipes in. The user's repository is only ever read.

pub mod artifact_caps;
pub mod git;
pub mod input;
pub mod out_dir;
pub mod pr_url;
pub mod project_dir;

pub use git::{Clone, Repo};
pub use pr_url::PrUrl;
pub use project_dir::ProjectDir;
