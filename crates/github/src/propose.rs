//! The recipe proposed on the PR's own repository (`/rewrite-assist apply`, `mode: pr`): the PR
//! already makes the migration, so what it lacks is the recipe itself, in `rewrite.yml` at the
//! build's root, where the build plugins, the rollout and a CI dry run find it. A copy of the PR's
//! change would conflict with the PR under review.
//!
//! With a token of its own (a GitHub App or a person's), the recipe goes into a commit on top of
//! the PR's branch. The workflow's own `GITHUB_TOKEN` starts no workflow runs, so a commit it
//! pushed there would leave the PR's required checks waiting; that token, a PR from a fork, or a
//! branch that refuses the push get a pull request that adds only the recipe.

use anyhow::{Context, Result};

use super::apply::{self, Changes, MigrationRecipe, Published};
use super::branch::PushTarget;
use super::choice::{self, ChosenRecipe, RecipeChoice};
use super::event::PullRequest;
use super::pulls::{self, Opened};
use super::remote::Remote;
use super::source::SourcePr;
use super::{GitHub, monorepo};
use crate::model::RunSummary;
use crate::openrewrite::Versions;
use crate::setup::ProjectDir;

/// Whose token the action pushes with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushToken {
    /// The workflow's own `GITHUB_TOKEN`: its pushes start no workflow runs.
    WorkflowDefault,
    /// A GitHub App or personal token given as the action's `token`.
    Own,
}

/// Everything a proposal needs.
pub struct Proposal<'a> {
    /// The analyzed PR: the recipe goes to its repository.
    pub pr: &'a PullRequest,
    /// The analysis's result, which the recipe is chosen from.
    pub summary: &'a RunSummary,
    /// A local repository holding the PR's commits.
    pub source: &'a std::path::Path,
    /// The PR's merge base, where a recipe-only PR starts.
    pub base_commit: &'a str,
    /// The recipe asked for (None: the reusable one).
    pub choice: Option<RecipeChoice>,
    /// The OpenRewrite versions a recipe-only PR's body tells users to run it with.
    pub versions: &'a Versions,
    /// The build's directory in a monorepo (None: the root): the recipe goes to its `rewrite.yml`.
    pub project_dir: Option<&'a ProjectDir>,
    /// Whose token pushes: with the workflow's own, the recipe gets a PR of its own (a commit would
    /// start no checks).
    pub token: PushToken,
    /// The server's web address, for links to the PR.
    pub server_url: &'a str,
}

/// What was done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proposed {
    /// A commit adding the recipe was pushed onto the PR's branch.
    Committed {
        /// The recipe's name.
        recipe: String,
        /// The file it went to: `rewrite.yml` at the build's root.
        path: String,
        /// The pushed commit's id.
        commit: String,
    },
    /// The PR's branch already has that recipe in that file.
    AlreadyThere {
        /// The recipe's name.
        recipe: String,
        /// The file that holds it.
        path: String,
    },
    /// A PR adding only the recipe was opened or updated; `why` says why not a commit on the PR.
    Opened {
        /// The recipe's name.
        recipe: String,
        /// The file it goes to: `rewrite.yml` at the build's root.
        path: String,
        /// The recipe-only pull request.
        pr: Opened,
        /// Why not a commit on the PR's branch: a fork, the workflow's own token, a refused push.
        why: String,
    },
}

impl Proposed {
    /// The PR opened or updated, for the step outputs.
    pub fn pull_request(&self) -> Option<&Opened> {
        match self {
            Proposed::Opened { pr, .. } => Some(pr),
            _ => None,
        }
    }
}

/// Brings the chosen recipe to the PR's repository: a commit on the PR's branch when the token may
/// push there, else a pull request adding only the recipe file.
pub fn propose(gh: &GitHub, remote: &Remote, p: &Proposal<'_>) -> Result<Proposed> {
    let chosen = choice::choose(p.summary, p.choice)?;
    let source = SourcePr::of(p.pr, p.server_url, p.project_dir);
    let recipe = apply::migration_recipe(&source, &chosen)?;
    let path = monorepo::recipe_path(p.project_dir);
    let why = match (p.token, p.pr.is_from_fork()) {
        (_, true) => "the pull request comes from a fork, which this token cannot push to".to_string(),
        (PushToken::WorkflowDefault, false) => {
            "a commit pushed with the workflow's own token would start no \
checks on the pull request; give the action a `token` of its own to get the recipe as a commit there"
                .to_string()
        }
        (PushToken::Own, false) => match on_the_pr_branch(remote, p, &recipe, &path) {
            Ok(done) => return Ok(done),
            Err(e) => format!("its branch refused the commit ({})", crate::error::one_line(&e)),
        },
    };
    tracing::info!("proposing the recipe in a pull request of its own: {why}");
    let pr = recipe_only_pr(gh, remote, p, &chosen, &recipe, &path, &source)?;
    Ok(Proposed::Opened { recipe: recipe.name, path, pr, why })
}

/// Concurrent runs (matrix legs of a monorepo) may push to the branch at the same time: the loser
/// fetches the new tip and tries again.
const ATTEMPTS: usize = 3;

fn on_the_pr_branch(
    remote: &Remote,
    p: &Proposal<'_>,
    recipe: &MigrationRecipe,
    path: &str,
) -> Result<Proposed> {
    let branch = &p.pr.head_ref;
    let yaml = recipe.to_yaml();
    let message = format!(
        "Add the OpenRewrite recipe {} to {path}\n\nGenerated by rewrite-assist from #{}: run it with the build \
plugins, or roll it out to other repositories.",
        recipe.name, p.pr.number
    );
    let changes = Changes { diff: "", recipe_yaml: Some(&yaml), recipe_path: path, message: &message };
    let mut last = None;
    for _ in 0..ATTEMPTS {
        let clone = crate::setup::git::clone_at(p.source, &p.pr.head_sha)?;
        let dir = clone.path();
        let tip = "refs/remotes/rewrite-assist/pr-branch";
        remote
            .fetch(dir, &p.pr.repo, &[format!("+refs/heads/{branch}:{tip}")])
            .with_context(|| format!("fetching the branch `{branch}`"))?;
        crate::setup::git::git_output(dir, ["checkout", "--quiet", "--detach", tip])?;
        if !apply::commit(dir, &changes)? {
            return Ok(Proposed::AlreadyThere { recipe: recipe.name.clone(), path: path.to_string() });
        }
        match remote.push_head_fast_forward(dir, &p.pr.repo, branch) {
            Ok(()) => {
                let commit = apply::head(dir)?;
                return Ok(Proposed::Committed {
                    recipe: recipe.name.clone(),
                    path: path.to_string(),
                    commit,
                });
            }
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| anyhow::anyhow!("the push did not happen")))
}

fn recipe_only_pr(
    gh: &GitHub,
    remote: &Remote,
    p: &Proposal<'_>,
    chosen: &ChosenRecipe,
    recipe: &MigrationRecipe,
    path: &str,
    source: &SourcePr,
) -> Result<Opened> {
    let yaml = recipe.to_yaml();
    let branch = format!("rewrite-assist/pr-{}-recipe{}", p.pr.number, monorepo::suffix(p.project_dir));
    let message = format!("Add the OpenRewrite recipe {} of #{} to {path}", recipe.name, p.pr.number);
    let changes = Changes { diff: "", recipe_yaml: Some(&yaml), recipe_path: path, message: &message };
    let target = PushTarget { repo: &p.pr.repo, branch: &branch, default_branch: &p.pr.base_ref };
    if let Published::Refused(refusal) =
        apply::publish_branch(p.source, p.base_commit, &changes, remote, &target, false)?
    {
        return Err(super::user_facing(format!(
            "I left the branch `{branch}` as it is: {refusal}. Delete the branch (or merge what is on it) and \
run the command again."
        )));
    }
    let body = super::recipe_pr::body(&super::recipe_pr::RecipePr {
        source,
        chosen,
        recipe_name: &recipe.name,
        recipe_yaml: &yaml,
        recipe_path: path,
        versions: p.versions,
    });
    let title = format!("Add the recipe of #{} to {path}: {}", p.pr.number, p.pr.title.trim());
    pulls::upsert(gh, &p.pr.repo, &branch, &p.pr.base_ref, &title, &body)
}

/// The reply in the thread: where the recipe went.
pub(crate) fn reply(proposed: &Proposed, server_url: &str, repo: &super::RepoId) -> String {
    match proposed {
        Proposed::Committed { recipe, path, commit } => format!(
            "Added the recipe `{recipe}` to `{path}` in a commit on this pull request's branch ({}/{repo}/commit/{commit}). \
The build plugins find it there (`-Drewrite.activeRecipes={recipe}`), a CI dry run can keep the code migrated, and \
`rewrite-assist apply --recipe <this run's artifacts> --repos …` rolls it out to other repositories.",
            server_url.trim_end_matches('/')
        ),
        Proposed::AlreadyThere { recipe, path } => {
            format!(
                "`{path}` on this pull request's branch already has the recipe `{recipe}`: nothing to add."
            )
        }
        Proposed::Opened { recipe, path, pr, why } => format!(
            "{} {} to add the recipe `{recipe}` to `{path}`, not a commit here: {why}.",
            if pr.created { "Opened" } else { "Updated" },
            pr.url
        ),
    }
}
