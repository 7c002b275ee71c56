//! The CI state of a campaign PR's head commit, from GitHub's check runs, for the table and the
//! dashboard: a reviewer of a fleet wants to see which migration PRs are green before opening any.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::github::{GitHub, RepoId};

/// What the head commit's check runs say together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Ci {
    /// Every check run completed, none failed.
    Passing,
    /// A check run failed, timed out, was cancelled or needs an action.
    Failing,
    /// Some check run has not completed yet.
    Running,
}

impl Ci {
    pub fn label(self) -> &'static str {
        match self {
            Ci::Passing => "CI passing",
            Ci::Failing => "CI failing",
            Ci::Running => "CI running",
        }
    }
}

#[derive(Debug, Deserialize)]
struct CheckRuns {
    #[serde(default)]
    check_runs: Vec<CheckRun>,
}

#[derive(Debug, Deserialize)]
struct CheckRun {
    status: String,
    #[serde(default)]
    conclusion: Option<String>,
}

/// The CI state of `commit` in `repo`; `None` when it has no check runs (no CI, or none started).
pub(crate) fn of(gh: &GitHub, repo: &RepoId, commit: &str) -> Result<Option<Ci>> {
    let runs: CheckRuns = gh.get(&format!("{}/commits/{commit}/check-runs?per_page=100", repo.api()))?;
    Ok(summarize(&runs.check_runs))
}

fn summarize(runs: &[CheckRun]) -> Option<Ci> {
    if runs.is_empty() {
        return None;
    }
    let failed = |r: &CheckRun| {
        matches!(
            r.conclusion.as_deref(),
            Some("failure" | "timed_out" | "cancelled" | "action_required" | "startup_failure")
        )
    };
    Some(if runs.iter().any(failed) {
        Ci::Failing
    } else if runs.iter().any(|r| r.status != "completed") {
        Ci::Running
    } else {
        Ci::Passing
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(status: &str, conclusion: Option<&str>) -> CheckRun {
        CheckRun { status: status.into(), conclusion: conclusion.map(Into::into) }
    }

    #[test]
    fn one_failure_fails_and_one_unfinished_run_keeps_it_running() {
        assert_eq!(summarize(&[]), None);
        assert_eq!(
            summarize(&[run("completed", Some("success")), run("completed", Some("skipped"))]),
            Some(Ci::Passing)
        );
        assert_eq!(
            summarize(&[run("completed", Some("success")), run("in_progress", None)]),
            Some(Ci::Running)
        );
        assert_eq!(
            summarize(&[run("in_progress", None), run("completed", Some("timed_out"))]),
            Some(Ci::Failing)
        );
    }
}
