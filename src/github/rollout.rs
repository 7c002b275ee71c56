//! Rollout: one recipe applied to many repositories, one pull request each where it changes
//! something. Each repository is cloned, the recipe runs for real through the validation
//! machinery (against an empty expected diff: we only want its changes), and the changes go to a
//! branch and a PR. A repository that fails never stops the others.

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};

use crate::error::bad_input;
use serde::Serialize;

use super::apply::{self, Changes, PrBody};
use super::remote::Remote;
use super::{GitHub, RepoId, pulls};
use crate::model::Confidence;
use crate::openrewrite::{RecipeFile, Versions};
use crate::validation::ArtifactLookup;

pub(crate) struct Rollout<'a> {
    pub recipe_yaml: &'a str,
    /// Which recipe of the file to run (None: its only one).
    pub recipe_name: Option<&'a str>,
    pub repos: &'a [RepoId],
    /// The branch of the PRs (default: `rewrite-assist/<recipe name>`).
    pub branch: Option<&'a str>,
    pub versions: &'a Versions,
    pub timeout: Duration,
    pub artifacts_for: ArtifactLookup<'a>,
    /// Per repository: `<out>/<owner>-<name>/` holds `recipe.diff`, `stats.json`, `build.log`.
    pub out_dir: &'a Path,
    /// Whether each repository's build may run and its `.mvn/` configuration is honoured
    /// (`--trust-build-config`; without it, a repository whose build would run its own code fails).
    pub trust: crate::validation::trust::Trust,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub(crate) enum Status {
    Opened { url: String },
    Updated { url: String },
    NoChanges,
    Failed { error: String },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct RepoOutcome {
    pub repo: String,
    #[serde(flatten)]
    pub status: Status,
    /// Files and lines the recipe changed.
    pub files: usize,
    pub lines: usize,
    pub seconds: f64,
}

/// The recipe to run: the one named, or the file's only recipe (checked before cloning anything).
pub(crate) fn recipe_to_run(yaml: &str, asked: Option<&str>) -> Result<String> {
    let file =
        RecipeFile::parse(yaml).map_err(|e| crate::error::bad_input(format!("the recipe file: {e}")))?;
    crate::validation::choose_recipe(&file, asked)
}

/// The repositories of a comma-separated list.
pub(crate) fn parse_repos(list: &str) -> Result<Vec<RepoId>> {
    let repos: Vec<RepoId> = list
        .split([',', ' ', '\n'])
        .filter(|s| !s.trim().is_empty())
        .map(RepoId::parse)
        .collect::<Result<_>>()?;
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

/// Runs the rollout; `report` is called after each repository (for progress output).
pub(crate) fn run(
    gh: &GitHub,
    remote: &Remote,
    rollout: &Rollout<'_>,
    report: &mut dyn FnMut(&RepoOutcome),
) -> Result<Vec<RepoOutcome>> {
    let name = recipe_to_run(rollout.recipe_yaml, rollout.recipe_name)?;
    let branch = rollout.branch.map(str::to_string).unwrap_or_else(|| default_branch(&name));
    let mut outcomes = Vec::new();
    for repo in rollout.repos {
        let started = std::time::Instant::now();
        let mut outcome = match one(gh, remote, rollout, &name, &branch, repo) {
            Ok(outcome) => outcome,
            Err(error) => RepoOutcome {
                repo: repo.to_string(),
                status: Status::Failed { error: crate::error::one_line(&error) },
                files: 0,
                lines: 0,
                seconds: 0.0,
            },
        };
        outcome.seconds = crate::metrics::round4(started.elapsed().as_secs_f64());
        report(&outcome);
        outcomes.push(outcome);
        if crate::process::interrupted() {
            break;
        }
    }
    Ok(outcomes)
}

fn one(
    gh: &GitHub,
    remote: &Remote,
    rollout: &Rollout<'_>,
    name: &str,
    branch: &str,
    repo: &RepoId,
) -> Result<RepoOutcome> {
    let scratch = tempfile::Builder::new().prefix("rewrite-assist-rollout-").tempdir()?;
    let checkout = scratch.path().join("repo");
    remote.clone_into(repo, &checkout).with_context(|| format!("cloning {repo}"))?;
    let default_branch = crate::setup::git::git_output(&checkout, ["symbolic-ref", "--short", "HEAD"])
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .context("the repository has no default branch")?;
    let base = crate::setup::Repo::open(&checkout)?.resolve("HEAD")?;
    let out_dir: PathBuf = rollout.out_dir.join(format!("{}-{}", repo.owner, repo.name));
    let expected = crate::diff::Diff::default();
    let outcome = crate::validation::run(&crate::validation::Request {
        repo: &checkout,
        base: &base,
        expected: &expected,
        recipe_yaml: rollout.recipe_yaml,
        recipe_name: Some(name),
        timeout: rollout.timeout,
        versions: rollout.versions,
        artifacts_for: rollout.artifacts_for,
        option_check: None,
        out_dir: &out_dir,
        file_prefix: "",
        // Rollout runs what users run: the project's own build with the plugin.
        session: None,
        trust: rollout.trust,
        pr: None,
        project_dir: None,
    })?;
    if let Some(error) = &outcome.stats.error {
        anyhow::bail!("the recipe could not run ({}): {}", error.kind, error.detail);
    }
    let files = crate::diff::parse_all(&outcome.diff).map(|d| d.files.len()).unwrap_or(0);
    let lines = outcome.stats.metrics.total_resulting_changes;
    if outcome.diff.trim().is_empty() {
        return Ok(RepoOutcome {
            repo: repo.to_string(),
            status: Status::NoChanges,
            files: 0,
            lines: 0,
            seconds: 0.0,
        });
    }
    let message = format!("Apply {name} (rewrite-assist rollout)");
    apply::publish_branch(
        &checkout,
        &base,
        &Changes { diff: &outcome.diff, recipe_yaml: None, message: &message },
        remote,
        repo,
        branch,
    )?;
    let body = apply::render_pr_body(&PrBody {
        origin: format!(
            "Opened by `rewrite-assist apply`: the OpenRewrite recipe `{name}` run on `{default_branch}` (`{}`). \
It changes {lines} lines in {files} files; review them like any other change.",
            crate::setup::git::short_sha(&base)
        ),
        option: None,
        confidence: Confidence::Recommended,
        recipe_name: name,
        recipe_yaml: rollout.recipe_yaml,
        recipe_artifacts: &outcome.stats.recipe_artifacts,
        versions: rollout.versions,
        diff: &outcome.diff,
    });
    let opened = pulls::upsert(gh, repo, branch, &default_branch, &format!("Apply {name}"), &body)?;
    let status =
        if opened.created { Status::Opened { url: opened.url } } else { Status::Updated { url: opened.url } };
    Ok(RepoOutcome { repo: repo.to_string(), status, files, lines, seconds: 0.0 })
}

/// The results table printed at the end.
pub(crate) fn render_table(outcomes: &[RepoOutcome]) -> String {
    let width = outcomes.iter().map(|o| o.repo.len()).max().unwrap_or(0).max("repository".len());
    let mut out = format!(
        "{:<width$}  {:<10}  {:>5}  {:>5}  {:>6}  detail\n",
        "repository", "result", "files", "lines", "time"
    );
    for o in outcomes {
        let (result, detail) = match &o.status {
            Status::Opened { url } => ("opened", url.as_str()),
            Status::Updated { url } => ("updated", url.as_str()),
            Status::NoChanges => ("no changes", ""),
            Status::Failed { error } => ("FAILED", error.as_str()),
        };
        let _ = writeln!(
            out,
            "{:<width$}  {result:<10}  {:>5}  {:>5}  {:>4.0} s  {detail}",
            o.repo, o.files, o.lines, o.seconds
        );
    }
    out
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
    }

    #[test]
    fn branch_names_and_recipe_choice() {
        assert_eq!(default_branch("com.acme.Jakarta Migration"), "rewrite-assist/com.acme.jakarta-migration");
        let yaml = crate::fixtures::NOOP_RECIPE;
        assert_eq!(recipe_to_run(yaml, None).unwrap(), "com.example.Noop");
        assert!(recipe_to_run(yaml, Some("nope")).is_err());
        assert!(recipe_to_run("a: [", None).is_err());
    }

    #[test]
    fn results_table() {
        let outcomes = vec![
            RepoOutcome {
                repo: "acme/a".into(),
                status: Status::Opened { url: "https://github.com/acme/a/pull/3".into() },
                files: 2,
                lines: 12,
                seconds: 41.2,
            },
            RepoOutcome {
                repo: "acme/bb".into(),
                status: Status::NoChanges,
                files: 0,
                lines: 0,
                seconds: 30.0,
            },
            RepoOutcome {
                repo: "acme/c".into(),
                status: Status::Failed { error: "cloning acme/c: not found".into() },
                files: 0,
                lines: 0,
                seconds: 0.1,
            },
        ];
        insta::assert_snapshot!(render_table(&outcomes));
        let json = serde_json::to_value(&outcomes[0]).unwrap();
        assert_eq!(json["status"], "opened");
        assert_eq!(json["url"], "https://github.com/acme/a/pull/3");
    }
}
