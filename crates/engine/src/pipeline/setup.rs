//! Phases 1 and 2: the repository and the PR's diff (a [`Checkout`]), then the intent tree.

use anyhow::{Context as _, Result};

use super::artifacts;
use super::context::Context;
use super::products::{Checkout, Commits, Report, Step};
use super::state::PhaseEnd;
use crate::error::bad_input;
use crate::model::intent::IntentTree;
use crate::setup::Repo;

/// Setup's first half: the repository and the two commits.
pub(super) fn resolve(ctx: &Context) -> Result<(Repo, Commits)> {
    let repo = Repo::open(&ctx.req.repo)?;
    let commits = Commits { base: repo.resolve(&ctx.req.base)?, head: repo.resolve(&ctx.req.head)? };
    Ok((repo, commits))
}

/// Setup's second half: `pr.diff` written and read. A PR with nothing to learn from is a bad input.
pub(super) fn checkout(ctx: &Context, repo: Repo, commits: Commits) -> Result<Step<Checkout>> {
    let (base, head) = (&ctx.req.base, &ctx.req.head);
    let mut text = repo.diff(&commits.base, &commits.head)?;
    if let Some(dir) = &ctx.req.project_dir {
        // A monorepo's build: the PR's changes elsewhere are not this build's to reproduce.
        text = crate::diff::keep_sections(&text, &|path| dir.contains(path));
        if text.trim().is_empty() {
            return Err(bad_input(format!(
                "the diff {base}..{head} changes nothing under the working directory {dir}"
            )));
        }
    }
    // Files too large to read line by line are left out here, once, for every later phase.
    let bounded = crate::diff::bound(&text);
    bounded.warn();
    ctx.dir.write(artifacts::PR_DIFF, bounded.annotated())?;
    ctx.dir.write(artifacts::RESULT_PR_DIFF, bounded.annotated())?;
    let mut pr = crate::diff::parse(&bounded.text).context("reading the PR's diff")?;
    let mut pr_all = crate::diff::parse_all(&bounded.text).context("reading the PR's diff")?;
    (pr.left_out, pr_all.left_out) = (bounded.left_out.clone(), bounded.left_out.clone());
    let pr_view =
        crate::metrics::classes::PrView::from_repo(&repo, &commits.base, &commits.head, pr.clone())?;
    if pr_all.files.is_empty() && bounded.left_out.is_empty() {
        return Err(bad_input(format!("the diff {base}..{head} is empty: nothing to learn from")));
    }
    if pr_all.files.is_empty() {
        return Err(bad_input(format!(
            "every file of the diff {base}..{head} is too large to analyze ({})",
            crate::diff::bounds::LIMITS
        )));
    }
    if pr.change_count() == 0 {
        return Err(bad_input(format!(
            "the diff {base}..{head} has no changed text lines (binary or build-output files only)"
        )));
    }
    let mut detail = format!(
        "{} files, {} changed lines ({}..{})",
        pr.files.len(),
        pr.change_count(),
        crate::setup::git::short_sha(&commits.base),
        crate::setup::git::short_sha(&commits.head)
    );
    if !pr.left_out.is_empty() {
        let files: Vec<String> = pr.left_out.iter().map(crate::diff::TooLarge::describe).collect();
        detail.push_str(&format!("; left out, too large to analyze: {}", files.join("; ")));
    }
    let report =
        Report::new(PhaseEnd::Ok, detail, vec![artifacts::PR_DIFF.into(), artifacts::RESULT_PR_DIFF.into()]);
    Ok(Step::made(report, Checkout::new(repo, commits, pr, pr_all, pr_view)))
}

/// Phase 2: the intent tree, written as `intent-tree.json` / `.md`.
pub(super) fn intents(ctx: &Context, checkout: &Checkout) -> Result<Step<IntentTree>> {
    let tree = {
        let repo = checkout.repo()?;
        let c = &checkout.commits;
        crate::intents::extract(&repo, &c.base, &c.head, ctx.req.project_dir.as_ref())?
    };
    ctx.dir.write(artifacts::INTENT_TREE_MD, crate::intents::render_markdown(&tree))?;
    ctx.dir.write_json(artifacts::INTENT_TREE_JSON, &tree)?;
    let detail = format!(
        "{} strategic, {} atomic intents, coverage {:.0}%",
        tree.intents.iter().filter(|i| i.level() == crate::model::intent::Level::Strategic).count(),
        tree.atomics().len(),
        tree.coverage * 100.0
    );
    let outputs = vec![artifacts::INTENT_TREE_MD.into(), artifacts::INTENT_TREE_JSON.into()];
    Ok(Step::made(Report::new(PhaseEnd::Ok, detail, outputs), tree))
}
