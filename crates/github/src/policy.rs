//! When the action writes its results comment: the input `comment` (`migrations`, `always`,
//! `never`) together with `mode` and the PR's kind. A team that runs the action on every PR hears
//! from it on migrations only; an ordinary PR gets one line in the job summary.

use anyhow::Result;

use super::action::Mode;
use crate::error::bad_input;
use crate::model::PrKind;

/// The input `comment`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CommentPolicy {
    /// The results comment on migrations only (default).
    #[default]
    Migrations,
    /// On every analyzed PR, ordinary ones too.
    Always,
    /// Never on automatic runs (job summary, outputs and artifacts only).
    Never,
}

impl CommentPolicy {
    pub(crate) fn parse(text: &str) -> Result<CommentPolicy> {
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "migrations" => Ok(CommentPolicy::Migrations),
            "always" => Ok(CommentPolicy::Always),
            "never" => Ok(CommentPolicy::Never),
            other => {
                Err(bad_input(format!("input `comment` must be migrations, always or never, not `{other}`")))
            }
        }
    }
}

/// Who asked for the analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// A pull_request event or a dispatch.
    Automatic,
    /// A slash command: someone asked in the thread, so a migration's results are always written.
    Command,
}

/// Whether an analysis of a PR of `kind` goes into the results comment.
pub(crate) fn posts_results(mode: Mode, policy: CommentPolicy, kind: PrKind, trigger: Trigger) -> bool {
    match trigger {
        Trigger::Command => kind == PrKind::Migration || policy == CommentPolicy::Always,
        Trigger::Automatic => {
            mode != Mode::None
                && match policy {
                    CommentPolicy::Always => true,
                    CommentPolicy::Migrations => kind == PrKind::Migration,
                    CommentPolicy::Never => false,
                }
        }
    }
}

/// Whether an analysis that could not run is explained in the results comment (automatic runs;
/// commands are answered by a reply).
pub(crate) fn posts_failure(mode: Mode, policy: CommentPolicy) -> bool {
    mode != Mode::None && policy != CommentPolicy::Never
}

#[cfg(test)]
mod tests {
    use super::*;
    use CommentPolicy::{Always, Migrations, Never};
    use PrKind::{Migration, Ordinary};
    use Trigger::{Automatic, Command};

    #[test]
    fn inputs() {
        assert_eq!(CommentPolicy::parse("").unwrap(), Migrations);
        assert_eq!(CommentPolicy::parse(" Always ").unwrap(), Always);
        assert_eq!(CommentPolicy::parse("never").unwrap(), Never);
        let error = CommentPolicy::parse("sometimes").unwrap_err();
        assert_eq!(crate::error::exit_code_of(&error), crate::error::exit::BAD_INPUT);
        assert_eq!(error.to_string(), "input `comment` must be migrations, always or never, not `sometimes`");
    }

    #[test]
    fn automatic_runs_comment_on_migrations_by_default() {
        assert!(posts_results(Mode::Comment, Migrations, Migration, Automatic));
        assert!(!posts_results(Mode::Comment, Migrations, Ordinary, Automatic));
        assert!(posts_results(Mode::Pr, Always, Ordinary, Automatic));
        assert!(!posts_results(Mode::Comment, Never, Migration, Automatic));
        assert!(!posts_results(Mode::None, Always, Migration, Automatic), "mode none posts nothing");
        assert!(posts_failure(Mode::Comment, Migrations));
        assert!(!posts_failure(Mode::Comment, Never));
        assert!(!posts_failure(Mode::None, Always));
    }

    #[test]
    fn commands_always_write_a_migrations_results_and_an_ordinary_prs_only_when_asked() {
        for mode in [Mode::None, Mode::Comment] {
            for policy in [Migrations, Always, Never] {
                assert!(posts_results(mode, policy, Migration, Command));
            }
            assert!(posts_results(mode, Always, Ordinary, Command));
            assert!(!posts_results(mode, Migrations, Ordinary, Command));
            assert!(!posts_results(mode, Never, Ordinary, Command));
        }
    }
}
