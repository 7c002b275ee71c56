//! The rollout's report: a Markdown table, one row per repository (printed, written to
//! `rollout.md` and fit for a job summary), and a line of totals.

use std::fmt::Write;

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::ci::Ci;
use super::{Mode, RepoOutcome, Status};
use crate::error::bad_input;
use crate::github::report::cell;

/// `rollout.json` of a rollout written to `out`: what `apply --json` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Report {
    /// The recipe the campaign rolls out (empty in reports of older versions).
    #[serde(default)]
    pub recipe: String,
    /// Dry run, or pull requests opened.
    pub mode: Mode,
    /// One row per repository the report covers (merged shards: each once, sorted by name).
    pub results: Vec<RepoOutcome>,
    /// The rollout's output directory: `rollout.md`, `rollout.json` and one `<owner>/<name>/` per
    /// repository.
    pub artifacts_dir: PathBuf,
}

impl Report {
    /// Writes `rollout.md` (the table and the totals, returned) and `rollout.json` to `artifacts_dir`.
    pub fn write(&self) -> Result<String> {
        let table = format!("{}\n{}", render_table(&self.results), totals_line(&self.results, self.mode));
        std::fs::create_dir_all(&self.artifacts_dir)?;
        std::fs::write(self.artifacts_dir.join("rollout.md"), &table)?;
        std::fs::write(self.artifacts_dir.join("rollout.json"), crate::document::to_json(self)?)?;
        Ok(table)
    }

    /// The report one run wrote to `dir`.
    pub fn read(dir: &Path) -> Result<Report> {
        let path = dir.join("rollout.json");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| bad_input(format!("{}: {e} (did that shard finish?)", path.display())))?;
        serde_json::from_str(&text)
            .map_err(|e| bad_input(format!("{}: not a rollout report: {e}", path.display())))
    }

    /// The shards' reports as one, in `out`: each repository once, sorted by name; all of one mode.
    pub fn merge(shards: Vec<Report>, out: &Path) -> Result<Report> {
        let mode = shards.first().map(|r| r.mode).ok_or_else(|| bad_input("no report to merge"))?;
        if let Some(other) = shards.iter().find(|r| r.mode != mode) {
            return Err(bad_input(format!(
                "{} was a {:?} run and {} a {:?} one: merge the shards of one run",
                shards[0].artifacts_dir.display(),
                mode,
                other.artifacts_dir.display(),
                other.mode
            )));
        }
        let recipe = shards[0].recipe.clone();
        let mut results: Vec<RepoOutcome> = Vec::new();
        for outcome in shards.into_iter().flat_map(|r| r.results) {
            if let Some(twice) = results.iter().find(|r| r.repo.eq_ignore_ascii_case(&outcome.repo)) {
                return Err(bad_input(format!(
                    "{} is in two of the reports: merge the shards of one run",
                    twice.repo
                )));
            }
            results.push(outcome);
        }
        results.sort_by_key(|r| r.repo.to_ascii_lowercase());
        Ok(Report { recipe, mode, results, artifacts_dir: out.to_path_buf() })
    }
}

/// The table of outcomes.
pub(crate) fn render_table(outcomes: &[RepoOutcome]) -> String {
    let mut out = String::from(
        "| repository | result | migration | old library left | new unresolved | files | lines | changed by | warnings | time | detail |\n\
|---|---|---|---:|---:|---:|---:|---|---:|---:|---|\n",
    );
    for o in outcomes {
        let (result, detail) = result_and_detail(o);
        let f = &o.figures;
        let _ = writeln!(
            out,
            "| {} | {result} | {} | {} | {} | {} | {} | {} | {} | {:.0} s | {detail} |",
            o.repo,
            f.completion.map(|c| c.label()).unwrap_or("-"),
            f.residual_cell(),
            f.unresolved_cell(),
            f.files,
            f.lines,
            f.steps_line(),
            f.warnings.len(),
            o.seconds
        );
    }
    out
}

/// A repository's result as a table cell, and what to read beside it (the PR, the reason, the
/// error; markdown-safe).
pub(crate) fn result_and_detail(o: &RepoOutcome) -> (&'static str, String) {
    match &o.status {
        Status::WouldChange => {
            ("would change", o.figures.flags.as_ref().map(|f| cell(&f.line())).unwrap_or_default())
        }
        Status::NoChanges => ("no changes", String::new()),
        Status::Opened { url, draft: false } => ("opened", url.clone()),
        Status::Opened { url, draft: true } => ("opened as a draft", url.clone()),
        Status::NotOpened { reason } => ("not opened", cell(reason)),
        Status::Updated { url, ci: None } => ("updated", url.clone()),
        Status::Updated { url, ci: Some(Ci::Passing) } => ("updated, CI passing", url.clone()),
        Status::Updated { url, ci: Some(Ci::Running) } => ("updated, CI running", url.clone()),
        Status::Updated { url, ci: Some(Ci::Failing) } => ("**updated, CI failing**", url.clone()),
        Status::Merged { url } => ("merged", url.clone()),
        Status::LeftAlone { reason, url, edited } => (
            if *edited { "**edited by a human**" } else { "**left alone**" },
            cell(&format!("{reason}{}", url.as_ref().map(|u| format!(" ({u})")).unwrap_or_default())),
        ),
        Status::Failed { error } => ("**failed**", cell(error)),
        Status::NotStarted => ("not started", "interrupted before its turn".to_string()),
        Status::Queued { reason } => ("queued", cell(reason)),
        Status::NotNeeded { reason } => ("not needed", cell(reason)),
        Status::Closed { url } => ("closed (no longer needed)", url.clone()),
    }
}

/// `3 repositories: 1 would change, 1 without changes, 1 failed.` and what the mode did.
pub(crate) fn totals_line(outcomes: &[RepoOutcome], mode: Mode) -> String {
    let count = |f: &dyn Fn(&Status) -> bool| outcomes.iter().filter(|o| f(&o.status)).count();
    let mut parts = Vec::new();
    for (n, what) in [
        (count(&|s| matches!(s, Status::WouldChange)), "would change"),
        (count(&|s| matches!(s, Status::Opened { .. })), "opened"),
        (count(&|s| matches!(s, Status::Updated { .. })), "updated"),
        (count(&|s| matches!(s, Status::Merged { .. })), "merged"),
        (count(&|s| matches!(s, Status::NotOpened { .. })), "not opened"),
        (count(&|s| matches!(s, Status::NoChanges)), "without changes"),
        (count(&|s| matches!(s, Status::LeftAlone { .. })), "left alone"),
        (count(&|s| matches!(s, Status::Failed { .. })), "failed"),
        (count(&|s| matches!(s, Status::NotStarted)), "not started"),
        (count(&|s| matches!(s, Status::Queued { .. })), "queued"),
        (count(&|s| matches!(s, Status::NotNeeded { .. })), "not needed"),
        (count(&|s| matches!(s, Status::Closed { .. })), "closed as no longer needed"),
    ] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    }
    let what = match mode {
        Mode::DryRun => "Dry run: nothing was pushed; `--open-prs` opens the pull requests.",
        Mode::OpenPrs => "A repository with an open pull request of this rollout had it updated.",
    };
    format!(
        "{} repositor{}: {}. {what}\n",
        outcomes.len(),
        if outcomes.len() == 1 { "y" } else { "ies" },
        if parts.is_empty() { "none".to_string() } else { parts.join(", ") }
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::github::rollout::Figures;
    use crate::github::rollout::figures::StepChanges;

    /// Three repositories of a dry run: one changes, one does not, one fails.
    pub(crate) fn outcomes(first: Status) -> Vec<RepoOutcome> {
        let figures = Figures {
            files: 2,
            lines: 12,
            steps: vec![
                StepChanges {
                    recipe: "org.openrewrite.java.ChangePackage".into(),
                    files: vec!["src/main/java/A.java".into()],
                },
                StepChanges {
                    recipe: "org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId".into(),
                    files: vec!["pom.xml".into()],
                },
            ],
            warnings: vec![
                "could not resolve com.acme:internal-bom:1.0 (the type attribution of 3 files is missing)"
                    .into(),
            ],
            residual: Some(crate::model::residual::Residual {
                before: 6,
                after: 0,
                files_after: 0,
                out_of_reach: 0,
                samples: vec![],
            }),
            unresolved: Some(crate::model::residual::Unresolved::default()),
            completion: Some(crate::model::residual::Completion::Complete),
            flags: None,
        };
        let outcome = |repo: &str, status, figures: Figures, seconds| RepoOutcome {
            repo: repo.into(),
            status,
            figures,
            seconds,
            artifacts: format!("out/{repo}"),
        };
        vec![
            outcome("acme/a", first, figures, 41.2),
            outcome("acme/bb", Status::NoChanges, Figures::default(), 30.0),
            outcome(
                "acme/c",
                Status::Failed { error: "cloning acme/c: repository | not found".into() },
                Figures::default(),
                0.1,
            ),
        ]
    }

    #[test]
    fn rollout_table_of_a_dry_run() {
        let outcomes = outcomes(Status::WouldChange);
        let text = format!("{}\n{}", render_table(&outcomes), totals_line(&outcomes, Mode::DryRun));
        insta::assert_snapshot!(text);
        let json = serde_json::to_value(&outcomes[0]).unwrap();
        assert_eq!(json["status"], "would_change");
        assert_eq!(json["files"], 2);
        assert_eq!(json["steps"][1]["files"][0], "pom.xml");
        assert_eq!(json["artifacts"], "out/acme/a");
    }

    #[test]
    fn totals_of_pull_requests() {
        let url = "https://github.com/acme/a/pull/3".to_string();
        let outcomes = outcomes(Status::Updated { url, ci: None });
        assert_eq!(
            totals_line(&outcomes, Mode::OpenPrs),
            "3 repositories: 1 updated, 1 without changes, 1 failed. A repository with an open pull request of this \
rollout had it updated.\n"
        );
        assert!(render_table(&outcomes).contains("| acme/a | updated | complete | 6 → 0 | 0 | 2 | 12 |"));
    }
}
