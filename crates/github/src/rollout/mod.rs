//! Rollout: one recipe on many repositories, reviewed before anything is pushed. Each repository is
//! cloned and the recipe runs for real on its default branch through the validation machinery
//! (against an empty expected diff: we only want its changes). A dry run (the default) reports what
//! it would change — files, lines, which recipe changed what, warnings, errors — and pushes
//! nothing; `--open-prs` then puts the changes and the recipe (`rewrite.yml`) on a branch and opens
//! one PR each, or updates the open one. At most `jobs` repositories run at once; a repository that
//! fails never stops the others.

mod body;
pub(crate) mod ci;
pub(crate) mod code_search;
pub mod dashboard;
pub(crate) mod figures;
pub mod flags;
pub mod hygiene;
pub mod one;
pub mod recipe;
pub mod table;
pub mod targets;

pub(crate) use figures::Figures;

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::remote::Remote;
use super::source::SourcePr;
use super::{GitHub, RepoId};
use crate::error::bad_input;
use crate::model::OptionResult;
use crate::model::eval::Shard;
use crate::openrewrite::{RecipeFile, Versions};
use crate::validation::ArtifactLookup;

/// What the rollout does with the changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Report what the recipe would change; push nothing.
    DryRun,
    /// Push a branch and open (or update) one PR per repository that changes.
    OpenPrs,
}

/// Where the recipe came from: the analyzed PR and the recipe's run on it, when known.
#[derive(Debug, Clone, Default)]
pub struct Provenance {
    /// The analyzed PR (`result/pull-request.json` of its run directory); None when none was
    /// recorded (a recipe file, a run directory of `analyze`).
    pub source: Option<SourcePr>,
    /// The recipe's validated run on that PR (F1, precision, recall); None for a recipe file.
    pub run: Option<OptionResult>,
    /// The recipe file it was read from, for the PR body when there is no source PR.
    pub file: String,
}

/// One run of a rollout campaign: the recipe, the repositories, how each is validated and what its
/// pull request gets.
pub struct Rollout<'a> {
    /// The recipe file's text (rewrite.yml format).
    pub recipe_yaml: &'a str,
    /// Which recipe of the file to run (None: its only one).
    pub recipe_name: Option<&'a str>,
    /// The repositories this run (this shard) runs on.
    pub repos: &'a [RepoId],
    /// All the campaign's repositories and this run's shard of them (`--shard`): the open PRs are
    /// counted over all of them, and the free places under `--max-prs` shared between the shards.
    pub campaign: (&'a [RepoId], Shard),
    /// The branch of the PRs (default: `rewrite-assist/<recipe name>`).
    pub branch: Option<&'a str>,
    /// The OpenRewrite versions every run uses: the pins with the user's overrides.
    pub versions: &'a Versions,
    /// The time limit of the recipe's run on one repository.
    pub timeout: Duration,
    /// Where the recipe's steps ship (the plugin adds those artifacts).
    pub artifacts_for: ArtifactLookup<'a>,
    /// Per repository: `<out>/<owner>/<name>/` holds `recipe.diff`, `stats.json`, `build.log`.
    pub out_dir: &'a Path,
    /// How far the repositories' builds are trusted (`--trust-build-config`; without it, a
    /// repository whose build would run its own code fails).
    pub trust: crate::validation::trust::Trust,
    /// Report only (dry run), or push branches and open pull requests.
    pub mode: Mode,
    /// Repositories at once.
    pub jobs: usize,
    /// Where the recipe came from, for the pull requests' bodies.
    pub provenance: &'a Provenance,
    /// What runs the recipe on each repository: the embedded runner (it also says whether the
    /// migration is done there) or the repository's build with the plugin.
    pub backend: crate::validation::choice::BackendChoice,
    /// The jar of recipes learned from the analyzed PR that the recipe names (None: it names none).
    pub learned: Option<&'a crate::validation::embedded::protocol::LearnedJars>,
    /// What each run measures: the uses of the old library left, the compile check.
    pub measure: Option<&'a crate::model::residual::Measure>,
    /// Open partial migrations too, as draft pull requests.
    pub include_partial: bool,
    /// Open pull requests that write CI or build configuration too ([`flags`]).
    pub allow_build_config: bool,
    /// The largest share of a repository's files a recipe may change and still get a PR.
    pub max_changed_share: f64,
    /// How many PRs may be open, and what each gets (labels, reviewers, assignees, draft).
    pub hygiene: &'a hygiene::PrHygiene,
    /// Only repositories that use the old library get a PR or count as `would change`
    /// (`--needs-migration`; the residual must be measured).
    pub needs_migration: bool,
}

/// What the rollout did in one repository (`status` and its fields in `rollout.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Status {
    /// Dry run: the recipe changes something here.
    WouldChange,
    /// The recipe changes nothing here, and the campaign has no open or merged PR here.
    NoChanges,
    /// A new pull request holds the changes.
    Opened {
        /// The pull request's web address.
        url: String,
        /// Opened as a draft: a partial migration (`--include-partial`), or the campaign asks for
        /// drafts.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        draft: bool,
    },
    /// The campaign's PR was open and now holds this run's changes; `ci`: its head commit's
    /// check runs, when it has any.
    Updated {
        /// The pull request's web address.
        url: String,
        /// Its head commit's check runs; None when it has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ci: Option<ci::Ci>,
    },
    /// The campaign's PR was merged: the recipe changes nothing here any more.
    Merged {
        /// The merged pull request's web address.
        url: String,
    },
    /// The migration is not done here (partial, or it breaks compilation): no pull request
    /// (`--include-partial` opens a partial one as a draft).
    NotOpened {
        /// What keeps the migration from being done here (partial, compile errors).
        reason: String,
    },
    /// The branch is the default branch or someone else's: nothing was pushed (`reason`); the
    /// open PR, if any (`url`), says so.
    LeftAlone {
        /// Why nothing was pushed.
        reason: String,
        /// The branch's open pull request, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
        /// Someone else pushed to the campaign's branch (the PR was edited by a human).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        edited: bool,
    },
    /// The repository could not be rolled out to (clone, run or push failed); the others go on.
    Failed {
        /// What failed (the clone, the recipe's run, the push), in one line.
        error: String,
    },
    /// The rollout was interrupted before this repository's turn: nothing ran here.
    NotStarted,
    /// The repository does not use the old library (`--needs-migration`): nothing is proposed.
    NotNeeded {
        /// Why: no use of the old library before the recipe, and what the recipe would still
        /// change.
        reason: String,
    },
    /// The recipe changes nothing here any more: the campaign's open PR was closed, with a comment.
    Closed {
        /// The closed pull request's web address.
        url: String,
    },
    /// The campaign's limit of open pull requests is reached: nothing was pushed here, a later
    /// run opens it (`reason` says so).
    Queued {
        /// That the limit (`--max-prs`) is reached: this repository waits for a later run.
        reason: String,
    },
}

/// One repository's row of the rollout report (`rollout.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RepoOutcome {
    /// The repository, `owner/name`.
    pub repo: String,
    /// What the rollout did there.
    #[serde(flatten)]
    pub status: Status,
    /// What the recipe changed there and how far the migration got (zeros when it did not run).
    #[serde(flatten)]
    pub figures: Figures,
    /// Wall time spent on this repository, in seconds (0 when it did not start).
    pub seconds: f64,
    /// The repository's artifacts: the recipe's diff, stats and build log.
    pub artifacts: String,
}

/// The recipe to run: the one named, or the file's only top-level recipe (checked before cloning
/// anything).
pub fn recipe_to_run(yaml: &str, asked: Option<&str>) -> Result<String> {
    let file = RecipeFile::parse(yaml).map_err(|e| bad_input(format!("the recipe file: {e}")))?;
    crate::validation::choose_recipe(&file, asked)
}

/// The repositories of a comma-separated list, each once (the first spelling kept): GitHub's
/// names ignore case, and a repository named twice would be cloned, run and pushed to twice.
pub(crate) fn parse_repos(list: &str) -> Result<Vec<RepoId>> {
    let mut repos: Vec<RepoId> = Vec::new();
    for slug in list.split([',', ' ', '\n']).filter(|s| !s.trim().is_empty()) {
        let repo = RepoId::parse(slug)?;
        let same = |r: &RepoId| r.to_string().eq_ignore_ascii_case(&repo.to_string());
        if !repos.iter().any(same) {
            repos.push(repo);
        }
    }
    if repos.is_empty() {
        return Err(bad_input("--repos names no repository"));
    }
    Ok(repos)
}

/// `rewrite-assist/<recipe name as a branch-safe slug>`.
pub(crate) fn default_branch(recipe_name: &str) -> String {
    let slug: String = recipe_name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c.to_ascii_lowercase() } else { '-' })
        .collect();
    format!("rewrite-assist/{}", slug.trim_matches(['-', '.']))
}

/// The per-repository artifacts directory: `<out>/<owner>/<name>`. A folder of its own per owner,
/// as `-` may be part of either name (`acme-x/y` and `acme/x-y` would share `acme-x-y`); neither
/// holds a `/` ([`RepoId::parse`]).
pub(crate) fn artifacts_dir(out: &Path, repo: &RepoId) -> std::path::PathBuf {
    out.join(&repo.owner).join(&repo.name)
}

/// Runs the rollout; `report` sees each repository's outcome as soon as it is done. `gh` is needed
/// to open PRs only.
pub fn run(
    gh: Option<&GitHub>,
    remote: &Remote,
    rollout: &Rollout<'_>,
    report: &mut dyn FnMut(&RepoOutcome),
) -> Result<Vec<RepoOutcome>> {
    let name = recipe_to_run(rollout.recipe_yaml, rollout.recipe_name)?;
    let branch = rollout.branch.map(str::to_string).unwrap_or_else(|| default_branch(&name));
    // The campaign's open PRs are counted before any opens, so the limit holds across the run.
    let budget = match (gh, rollout.mode) {
        (Some(gh), Mode::OpenPrs) => {
            let (all, shard) = rollout.campaign;
            Some(Mutex::new(hygiene::Budget::count(
                gh,
                (all, shard),
                rollout.repos,
                &branch,
                rollout.hygiene.max_prs,
            )?))
        }
        _ => None,
    };
    let steps = RecipeFile::parse(rollout.recipe_yaml)
        .ok()
        .and_then(|file| file.recipes.into_iter().find(|r| r.name == name))
        .map(|recipe| recipe.steps)
        .unwrap_or_default();
    // `--needs-migration`: code search drops the repositories that name none of the old library,
    // before any clone (the count on the clone decides for the others).
    let searched = match (gh, rollout.needs_migration, rollout.measure.and_then(|m| m.residual.as_ref())) {
        (Some(gh), true, Some(old)) => code_search::search(gh, rollout.repos, &code_search::terms(old)),
        _ => None,
    };
    let context = one::Context {
        searched,
        steps: &steps,
        // One API call at a time: the client's runtime serves one caller, and the calls are few.
        gh: gh.map(Mutex::new),
        budget,
        remote,
        rollout,
        name: &name,
        branch: &branch,
    };
    // Each of the `jobs` workers keeps its embedded runner from one repository to the next.
    let _kept = crate::validation::embedded::pool::keep_runners(rollout.jobs);
    let outcomes = crate::parallel::map(
        rollout.repos,
        rollout.jobs,
        |repo| one::outcome(&context, repo),
        report,
        crate::process::interrupted,
    );
    // An interrupted rollout still reports every repository it was asked for.
    Ok(rollout
        .repos
        .iter()
        .zip(outcomes)
        .map(|(repo, outcome)| outcome.unwrap_or_else(|| not_started(rollout.out_dir, repo)))
        .collect())
}

fn not_started(out: &Path, repo: &RepoId) -> RepoOutcome {
    RepoOutcome {
        repo: repo.to_string(),
        status: Status::NotStarted,
        figures: Figures::default(),
        seconds: 0.0,
        artifacts: artifacts_dir(out, repo).display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repository_lists() {
        let repos = parse_repos("acme/a, acme/b\nacme/c").unwrap();
        assert_eq!(repos.len(), 3);
        assert!(parse_repos(" , ").is_err());
        assert!(parse_repos("acme").is_err());
        assert_eq!(artifacts_dir(Path::new("out"), &repos[1]), Path::new("out/acme/b"));
    }

    #[test]
    fn each_repository_runs_once_in_a_folder_of_its_own() {
        let repos = parse_repos("acme/a, acme-x/y, acme/x-y, Acme/A, acme/a").unwrap();
        let names: Vec<String> = repos.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["acme/a", "acme-x/y", "acme/x-y"], "the first of each kept, in order");
        let out = Path::new("out");
        assert_ne!(artifacts_dir(out, &repos[1]), artifacts_dir(out, &repos[2]));
    }

    #[test]
    fn branch_names_and_recipe_choice() {
        assert_eq!(default_branch("com.acme.Jakarta Migration"), "rewrite-assist/com.acme.jakarta-migration");
        let yaml = crate::fixtures::NOOP_RECIPE;
        assert_eq!(recipe_to_run(yaml, None).unwrap(), "com.example.Noop");
        assert!(recipe_to_run(yaml, Some("nope")).is_err());
        assert!(recipe_to_run("a: [", None).is_err());
    }
}
