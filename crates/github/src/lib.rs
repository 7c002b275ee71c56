//! GitHub: the container action's entry point, the PR bot (results comment, slash commands) and
//! migration pull requests, all through one REST client.
//!
//! - [`event`] reads the event payload, [`command`] finds a slash command in a comment,
//!   [`conversation`] decides what the bot does (a transition table), [`action`] does it.
//! - [`report`], [`comment`] and [`summary`] render what users read: the results comment, the job
//!   summary and the step outputs; [`annotations`] the notices on the PR's lines the recipe left.
//! - [`verdict`] leads what users read (the verdict, whether the PR is a migration and why);
//!   [`policy`] decides when the results comment is written (input `comment`); [`monorepo`] keeps
//!   one comment, branch and recipe file per working directory.
//! - [`permissions`] checks who may run commands; [`choice`] says which recipe to use;
//!   [`propose`] brings it to the PR's own repository (a commit on its branch, or a PR adding
//!   `rewrite.yml`, [`recipe_pr`]); [`rollout`] runs it on other repositories (a dry run, then
//!   PRs); [`apply`] commits and pushes through [`remote`] (git over HTTPS with the token kept
//!   out of URLs and logs); [`instructions`] and [`source`] feed the PR bodies.
#![deny(missing_docs)]

pub mod action;
pub(crate) mod annotations;
pub(crate) mod apply;
pub(crate) mod branch;
pub mod choice;
pub(crate) mod client;
pub(crate) mod command;
pub mod comment;
pub(crate) mod conversation;
pub mod event;
pub(crate) mod instructions;
pub(crate) mod monorepo;
pub(crate) mod permissions;
pub(crate) mod policy;
pub mod propose;
pub mod pulls;
pub(crate) mod recipe_pr;
pub mod remote;
pub(crate) mod report;
pub mod rollout;
pub mod source;
pub mod summary;
pub(crate) mod verdict;

// The layers below, in scope under the names the modules have always used (`crate::diff::…`), and
// this crate under its module's old name (`crate::github::…`).
use crate as github;
use rewrite_assist_core::{
    catalog, diff, document, error, metrics, model, openrewrite, parallel, process, setup,
};
use rewrite_assist_engine::{decision, intents, pipeline};
use rewrite_assist_runner as validation;

#[cfg(test)]
use rewrite_assist_fixtures as fixtures;

pub use client::{Config, GitHub, RetryPolicy};

use std::fmt;

/// A repository on GitHub, `owner/name`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RepoId {
    /// The user or organisation that owns it.
    pub owner: String,
    /// The repository's name under its owner.
    pub name: String,
}

impl RepoId {
    /// Parses `owner/name`.
    pub fn parse(slug: &str) -> anyhow::Result<RepoId> {
        let slug = slug.trim();
        client::check_slug(slug)?;
        let (owner, name) = slug.split_once('/').unwrap_or_default();
        Ok(RepoId { owner: owner.to_string(), name: name.to_string() })
    }

    /// `/repos/owner/name`, the prefix of the repository's REST endpoints.
    pub(crate) fn api(&self) -> String {
        format!("/repos/{}/{}", self.owner, self.name)
    }
}

impl fmt::Display for RepoId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.owner, self.name)
    }
}

/// A problem the user can act on. Its text is markdown and becomes the bot's reply as is; any
/// other error is logged and answered with a generic message.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct UserFacing(pub String);

pub(crate) fn user_facing(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UserFacing(message.into()))
}

/// The markdown to show the user for `error`, when it is theirs to fix: a [`UserFacing`] message,
/// or a bad input (unknown ref, no build file, …) quoted as a one-liner.
pub fn user_message(error: &anyhow::Error) -> Option<String> {
    if let Some(user) = error.chain().find_map(|c| c.downcast_ref::<UserFacing>()) {
        return Some(user.0.clone());
    }
    error
        .chain()
        .find_map(|c| c.downcast_ref::<crate::error::BadInput>())
        .map(|bad| format!("I could not analyze this pull request: {}.", bad.0.trim_end_matches('.')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repo_ids() {
        let repo = RepoId::parse(" acme/shop ").unwrap();
        assert_eq!(repo.to_string(), "acme/shop");
        assert_eq!(repo.api(), "/repos/acme/shop");
        assert!(RepoId::parse("acme").is_err());
    }

    #[test]
    fn user_facing_errors_are_told_apart_from_internal_ones() {
        let user = user_facing("Option 3 was not produced.").context("applying");
        assert_eq!(user_message(&user).as_deref(), Some("Option 3 was not produced."));
        let bad = crate::error::bad_input("no build file (pom.xml, build.gradle) at the base commit");
        assert_eq!(
            user_message(&bad).as_deref(),
            Some(
                "I could not analyze this pull request: no build file (pom.xml, build.gradle) at the base commit."
            )
        );
        assert_eq!(user_message(&anyhow::anyhow!("connection reset")), None);
    }
}
