//! One repository of a rollout: clone it, run the recipe on its default branch, and either report
//! what it would change (dry run) or push the changes with the recipe and open or update its PR.

use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context as _, Result};

use super::hygiene::Slot;
use super::{Figures, Mode, RepoOutcome, Rollout, Status, body};
use crate::github::apply::{self, Changes, Published, REWRITE_YML};
use crate::github::branch::{self, PushTarget, Refusal};
use crate::github::remote::Remote;
use crate::github::{GitHub, RepoId, pulls};
use crate::model::residual::Completion;
use crate::openrewrite::RecipeFile;

/// What every repository of one rollout shares.
pub(super) struct Context<'a> {
    pub gh: Option<Mutex<&'a GitHub>>,
    pub remote: &'a Remote,
    pub rollout: &'a Rollout<'a>,
    /// The campaign's open PRs and the limit (`--open-prs` only).
    pub budget: Option<Mutex<super::hygiene::Budget>>,
    /// The recipe to run and the PRs' branch.
    pub name: &'a str,
    pub branch: &'a str,
    /// The recipe's own steps with their options, for each repository's `result.json`.
    pub steps: &'a [crate::openrewrite::RecipeStep],
    /// What code search found using the old library (`--needs-migration`, when it could say).
    pub searched: Option<super::code_search::Found>,
}

/// `<artifacts>/result.json`: one repository's rollout result for tools, without the metrics of
/// a validation against a PR (there is no PR here: its `stats.json` scores the run against an
/// empty diff).
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct RepoResult<'a> {
    recipe: &'a str,
    recipe_steps: &'a [crate::openrewrite::RecipeStep],
    #[serde(flatten)]
    outcome: &'a RepoOutcome,
}

/// The outcome for `repo`; a failure is an outcome too, never an error.
pub(super) fn outcome(ctx: &Context<'_>, repo: &RepoId) -> RepoOutcome {
    let started = Instant::now();
    let artifacts = super::artifacts_dir(ctx.rollout.out_dir, repo);
    let (status, figures) = match run(ctx, repo, &artifacts) {
        Ok(done) => done,
        Err(error) => (Status::Failed { error: crate::error::one_line(&error) }, Figures::default()),
    };
    let outcome = RepoOutcome {
        repo: repo.to_string(),
        status,
        figures,
        seconds: crate::metrics::round4(started.elapsed().as_secs_f64()),
        artifacts: artifacts.display().to_string(),
    };
    let result = RepoResult { recipe: ctx.name, recipe_steps: ctx.steps, outcome: &outcome };
    let written = std::fs::create_dir_all(&artifacts).and_then(|()| {
        std::fs::write(artifacts.join("result.json"), crate::document::to_json(&result).unwrap_or_default())
    });
    if let Err(e) = written {
        tracing::warn!("{repo}: result.json not written: {e}");
    }
    outcome
}

fn run(ctx: &Context<'_>, repo: &RepoId, artifacts: &Path) -> Result<(Status, Figures)> {
    if let Some(found) = ctx.searched.as_ref().filter(|found| !found.uses(repo)) {
        let reason = format!(
            "GitHub code search finds none of {} in it (not cloned)",
            found.terms.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")
        );
        return Ok((Status::NotNeeded { reason }, Figures::default()));
    }
    let scratch = tempfile::Builder::new().prefix("rewrite-assist-rollout-").tempdir()?;
    let checkout = scratch.path().join("repo");
    ctx.remote.clone_into(repo, &checkout).with_context(|| format!("cloning {repo}"))?;
    let default_branch = crate::setup::git::git_output(&checkout, ["symbolic-ref", "--short", "HEAD"])
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .context("the repository has no default branch")?;
    let base = crate::setup::Repo::open(&checkout)?.resolve("HEAD")?;
    let rollout = ctx.rollout;
    let expected = crate::diff::Diff::default();
    let on = crate::validation::choice::Base {
        repo: checkout.clone(),
        commit: base.clone(),
        versions: rollout.versions.clone(),
        project: None,
        trust: rollout.trust,
    };
    // The embedded runner also says whether the migration is done here; the plugin runs the
    // repository's own build, as its users do.
    let validator = crate::validation::choice::start(rollout.backend.for_measurement(), on, None)?;
    if let Some(learned) = rollout.learned {
        match validator.session() {
            Some(session) => session.use_learned(learned.clone())?,
            None => {
                // The plugin finds the learned recipes only once their jar is installed in the local
                // repository it reads (`apply` installs it and passes no jars to load then).
                let error = "the recipe runs recipes learned from its PR, whose jar is not installed for the plugin: use --backend embedded, or apply, which installs it".to_string();
                return Ok((Status::Failed { error }, Figures::default()));
            }
        }
    }
    let recipe = crate::validation::Recipe {
        yaml: rollout.recipe_yaml,
        name: Some(ctx.name),
        artifacts_for: rollout.artifacts_for,
        option_check: None,
    };
    // A target has no PR: nothing to compare with.
    let expected = crate::validation::Expected { diff: &expected, pr: None, measure: rollout.measure };
    let limits = crate::validation::Limits { timeout: rollout.timeout };
    let outcome = validator.run(&recipe, &expected, &crate::validation::Output::dir(artifacts), limits)?;
    let mut figures = Figures::of(&outcome.stats, &outcome.diff);
    figures.flags =
        Some(super::flags::Flags::of(&outcome.diff, tracked_files(&checkout), rollout.max_changed_share));
    if let Some(error) = &outcome.stats.error {
        let status =
            Status::Failed { error: format!("the recipe could not run ({}): {}", error.kind, error.detail) };
        return Ok((status, figures));
    }
    if outcome.diff.trim().is_empty() {
        return Ok((nothing_to_change(ctx, repo)?, figures));
    }
    if rollout.needs_migration && figures.residual.as_ref().is_some_and(|r| r.before == 0) {
        let reason = format!(
            "it does not use the old library (0 uses before the recipe); the recipe would still change {} file{}",
            figures.files,
            crate::model::plural(figures.files)
        );
        return Ok((Status::NotNeeded { reason }, figures));
    }
    if rollout.mode == Mode::DryRun {
        return Ok((Status::WouldChange, figures));
    }
    let flagged =
        figures.flags.as_ref().and_then(|f| f.refusal(rollout.allow_build_config, rollout.max_changed_share));
    if let Some(reason) = flagged {
        return Ok((Status::NotOpened { reason }, figures));
    }
    let draft = match figures.completion {
        Some(Completion::BreaksCompilation) => {
            let reason = format!("it breaks compilation here ({})", unresolved_line(&figures));
            return Ok((Status::NotOpened { reason }, figures));
        }
        Some(Completion::Partial) if !rollout.include_partial => {
            let reason = format!(
                "the migration is partial here ({}); `--include-partial` opens it as a draft",
                residual_line(&figures)
            );
            return Ok((Status::NotOpened { reason }, figures));
        }
        Some(Completion::Partial) => true,
        Some(Completion::Complete) | None => rollout.hygiene.draft,
    };
    let gh = ctx.gh.as_ref().context("opening pull requests needs a GitHub client")?;
    let here = Here { repo, default_branch: &default_branch, base: &base, diff: &outcome.diff };
    let recipe_artifacts = outcome.stats.recipe_artifacts.clone();
    let (status, warnings) =
        within_limit(ctx, repo, || open_pr(ctx, gh, &checkout, &here, &figures, (&recipe_artifacts, draft)))?;
    figures.warnings.extend(warnings);
    Ok((status, figures))
}

/// No change here: a campaign PR still open is stale, and closed (its place under the limit freed).
fn nothing_to_change(ctx: &Context<'_>, repo: &RepoId) -> Result<Status> {
    if let (Mode::OpenPrs, Some(gh)) = (ctx.rollout.mode, &ctx.gh)
        && let Some(url) = close_stale(&lock(gh), repo, ctx.branch, ctx.name)?
    {
        if let Some(budget) = &ctx.budget {
            lock(budget).release(repo);
        }
        return Ok(Status::Closed { url });
    }
    if let (Mode::OpenPrs, Some(gh)) = (ctx.rollout.mode, &ctx.gh)
        && let Some(url) = pulls::merged_for(&lock(gh), repo, ctx.branch)?
    {
        return Ok(Status::Merged { url });
    }
    Ok(Status::NoChanges)
}

/// `open` runs when `repo` has a place under `--max-prs` (its PR is open, or a new one may open);
/// a place it took and no PR filled is given back.
fn within_limit(
    ctx: &Context<'_>,
    repo: &RepoId,
    open: impl FnOnce() -> Result<(Status, Vec<String>)>,
) -> Result<(Status, Vec<String>)> {
    let slot = match &ctx.budget {
        Some(budget) => lock(budget).reserve(repo),
        None => Slot::Open,
    };
    if let Slot::Queued(reason) = slot {
        return Ok((Status::Queued { reason }, Vec::new()));
    }
    let opened = open();
    if let Some(budget) = &ctx.budget
        && slot == Slot::Fresh
        && !matches!(opened, Ok((Status::Opened { .. }, _)))
    {
        lock(budget).release(repo);
    }
    opened
}

/// The lock, also after a thread panicked while holding it (its data stays consistent: each
/// change under it is one insert or remove).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The files git tracks in the checkout (0 when git cannot tell).
fn tracked_files(checkout: &Path) -> usize {
    crate::setup::git::git_output(checkout, ["ls-files", "-z"])
        .map(|o| o.stdout.split(|b| *b == 0).filter(|p| !p.is_empty()).count())
        .unwrap_or(0)
}

/// `3 uses of the old library left in 2 files`, and `(1 out of reach: …)` when some are in POMs
/// that did not resolve.
fn residual_line(figures: &Figures) -> String {
    let Some(r) = &figures.residual else { return "not measured".into() };
    let line = format!(
        "{} use{} of the old library left in {} file{}",
        r.after,
        crate::model::plural(r.after),
        r.files_after,
        crate::model::plural(r.files_after)
    );
    match r.out_of_reach {
        0 => line,
        n => format!("{line} ({n} in POMs that did not resolve here, which Maven recipes skip)"),
    }
}

/// `2 symbols no longer resolve`.
fn unresolved_line(figures: &Figures) -> String {
    let added = figures.unresolved.as_ref().map_or(0, |u| u.added());
    format!(
        "{added} symbol{} no longer resolve{}",
        crate::model::plural(added),
        if added == 1 { "s" } else { "" }
    )
}

/// The repository as the recipe found it.
pub(super) struct Here<'a> {
    pub repo: &'a RepoId,
    pub default_branch: &'a str,
    pub base: &'a str,
    pub diff: &'a str,
}

fn open_pr(
    ctx: &Context<'_>,
    gh: &Mutex<&GitHub>,
    checkout: &Path,
    here: &Here<'_>,
    figures: &Figures,
    (recipe_artifacts, draft): (&[String], bool),
) -> Result<(Status, Vec<String>)> {
    // The recipe travels with its changes, so the build plugins and a CI dry run find it.
    let family = recipe_family(ctx.rollout.recipe_yaml, ctx.name)?;
    let message = format!(
        "Apply {} (rewrite-assist rollout)\n\nThe recipe's changes, and the recipe in {REWRITE_YML}.",
        ctx.name
    );
    let changes =
        Changes { diff: here.diff, recipe_yaml: Some(&family), recipe_path: REWRITE_YML, message: &message };
    let target = PushTarget { repo: here.repo, branch: ctx.branch, default_branch: here.default_branch };
    let lock = || lock(gh);
    let mut published = apply::publish_branch(checkout, here.base, &changes, ctx.remote, &target, false)?;
    if let Published::Refused(Refusal::NotTheBots(_)) = &published {
        // The PR's ticked box hands the branch back to the bot.
        let open = pulls::open_for(&lock(), here.repo, ctx.branch)?;
        if open.and_then(|pr| pr.body).is_some_and(|body| branch::recreate_ticked(&body)) {
            published = apply::publish_branch(checkout, here.base, &changes, ctx.remote, &target, true)?;
        }
    }
    let commit = match published {
        Published::Pushed { commit } => commit,
        Published::Refused(refusal) => {
            let url = say_left_alone(&lock(), &target, &refusal)?;
            let edited = matches!(refusal, Refusal::NotTheBots(_));
            return Ok((Status::LeftAlone { reason: refusal.to_string(), url, edited }, Vec::new()));
        }
    };
    let body = body::render(&body::RolloutPr {
        recipe_name: ctx.name,
        recipe_yaml: &family,
        recipe_artifacts,
        versions: ctx.rollout.versions,
        provenance: ctx.rollout.provenance,
        here,
        figures,
    });
    let title = format!("Apply {}", ctx.name);
    let opened =
        pulls::upsert_draft(&lock(), here.repo, (ctx.branch, here.default_branch), (&title, &body), draft)?;
    let warnings =
        super::hygiene::dress(&lock(), here.repo, opened.number, opened.created, ctx.rollout.hygiene);
    if opened.created {
        return Ok((Status::Opened { url: opened.url, draft }, warnings));
    }
    // An open PR's checks say how far its review can go; a freshly pushed commit has none yet.
    let ci = super::ci::of(&lock(), here.repo, &commit).unwrap_or_else(|e| {
        tracing::warn!("{}: the PR's check runs could not be read: {e:#}", here.repo);
        None
    });
    Ok((Status::Updated { url: opened.url, ci }, warnings))
}

/// Closes the campaign's open PR from `branch` of `repo`, if there is one, with a comment that
/// says why; its address. The branch stays: someone may have built on it.
fn close_stale(gh: &GitHub, repo: &RepoId, branch: &str, recipe: &str) -> Result<Option<String>> {
    let Some(pr) = pulls::open_for(gh, repo, branch)? else { return Ok(None) };
    let text = format!(
        "rewrite-assist ran this rollout again: `{recipe}` changes nothing in this repository any more (the code \
was migrated another way, or the recipe no longer applies to it), so this pull request is closed. The branch `{branch}` \
is left as it is; reopen the pull request if it is still wanted.\n"
    );
    crate::github::comment::reply(gh, repo, pr.number, &text)?;
    pulls::close(gh, repo, pr.number)?;
    Ok(Some(pr.html_url))
}

/// The first line of the comment that says why a rerun left the PR's branch alone (one comment,
/// edited on later runs).
const LEFT_ALONE_MARKER: &str = "<!-- rewrite-assist:left-alone -->";

/// Says on the branch's open PR, if there is one, why the rollout left its branch as it is, and
/// how to hand it back; returns the PR's address.
fn say_left_alone(gh: &GitHub, target: &PushTarget<'_>, refusal: &Refusal) -> Result<Option<String>> {
    let Some(pr) = pulls::open_for(gh, target.repo, target.branch)? else { return Ok(None) };
    let text = format!(
        "{LEFT_ALONE_MARKER}\nrewrite-assist ran this rollout again and left the branch `{}` as it is: {refusal}. \
It pushes nothing to a branch others have pushed to. To hand the branch back, tick the box at the end of the \
description (your commits on it are then dropped on the next run), or close this pull request and delete the \
branch.\n",
        target.branch
    );
    crate::github::comment::upsert_results(gh, target.repo, pr.number, &text)?;
    Ok(Some(pr.html_url))
}

/// The recipe and the recipes of its file it runs, as YAML to merge into a `rewrite.yml`.
fn recipe_family(yaml: &str, name: &str) -> Result<String> {
    let file = RecipeFile::parse(yaml).context("reading the recipe file")?;
    Ok(file.family(name).iter().map(|r| r.to_declarative().to_yaml()).collect())
}
