//! Which backend validates recipes (`--backend`, action input `backend`), and the one place that
//! acts on the choice: [`start`] turns it into a [`Validator`] (`auto`: the embedded runner, the
//! plugin when the runner cannot start), which also decides `auto`'s confirmation with the plugin.
//! `analyze`, `validate` and eval's transfer pairs all start their backend here.

use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::embedded::{self, CannotStart, Session};
use super::trust::Trust;
use super::{Outcome, Request};
use crate::model::{Backend, Confirmation};
use crate::openrewrite::Versions;

/// The environment variable behind `--backend`.
pub const BACKEND_ENV: &str = "REWRITE_ASSIST_BACKEND";

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum BackendChoice {
    /// Our runner on OpenRewrite's libraries: parses once, needs no build of the project, runs no
    /// code of it.
    Embedded,
    /// The project's own build tool with the rewrite plugin (what users run).
    Plugin,
    /// Explore with the embedded runner (falling back to the plugin when the runner cannot
    /// start), then confirm the recommended recipe once with the plugin where the build resolves.
    #[default]
    Auto,
}

impl BackendChoice {
    /// `apply`'s default: a recipe applied to a repository runs none of its code unless asked.
    pub const APPLY_DEFAULT: BackendChoice = BackendChoice::Embedded;

    pub fn label(self) -> &'static str {
        match self {
            BackendChoice::Embedded => "embedded",
            BackendChoice::Plugin => "plugin",
            BackendChoice::Auto => "auto",
        }
    }

    /// Whether options are validated by the embedded runner first.
    pub fn explores_embedded(self) -> bool {
        self != BackendChoice::Plugin
    }

    /// Whether the recipe the embedded runner explored runs once more with the plugin.
    pub fn confirms(self) -> bool {
        self == BackendChoice::Auto
    }

    /// Whether the choice itself vouches for running the repository's build: the user asked for
    /// the project's build tool by name (see [`Trust`]).
    pub(crate) fn asks_for_the_build(self) -> bool {
        self == BackendChoice::Plugin
    }

    /// The choice for a measurement (eval's transfer pairs), which recommends nothing: `auto`
    /// validates with the embedded runner alone, with no plugin to fall back to or confirm with.
    pub fn for_measurement(self) -> BackendChoice {
        match self {
            BackendChoice::Auto => BackendChoice::Embedded,
            other => other,
        }
    }

    /// Whether a run of this choice counts the old library and checks compilation (the embedded
    /// runner does; the plugin's build does not).
    pub fn measures(self) -> bool {
        self.for_measurement() == BackendChoice::Embedded
    }
}

/// The environment variable behind `--trust-build-config`.
pub const TRUST_BUILD_CONFIG_ENV: &str = "REWRITE_ASSIST_TRUST_BUILD_CONFIG";

/// What the recipes are validated on.
pub struct Target<'a> {
    /// The repository (work tree or bare directory).
    pub repo: &'a Path,
    /// The base commit (a full id).
    pub base: &'a str,
    pub versions: &'a Versions,
    /// The build's directory in the repository (None: its root).
    pub project: Option<&'a crate::setup::ProjectDir>,
    pub trust: Trust,
    /// The PR's files: the embedded runner parses their head versions beside the base, for the
    /// types they use.
    pub pr: Option<&'a crate::metrics::classes::PrView>,
}

/// The backend a command validates with, started.
pub struct Validator {
    choice: BackendChoice,
    /// The embedded runner's session on the target; None: the plugin validates.
    session: Option<Session>,
    /// Why the embedded runner could not start, when `auto` fell back to the plugin.
    unavailable: Option<String>,
}

/// Starts the backend `choice` names on `target`. `embedded`: a runner that cannot start is an
/// error ([`CannotStart`]); `auto`: the plugin takes over, with a warning saying why; `plugin`:
/// nothing to start.
pub fn start(choice: BackendChoice, target: &Target<'_>) -> Result<Validator> {
    if !choice.explores_embedded() {
        return Ok(Validator { choice, session: None, unavailable: None });
    }
    match start_session(target) {
        Ok(session) => Ok(Validator { choice, session: Some(session), unavailable: None }),
        Err(e) if choice == BackendChoice::Embedded => Err(e.context(CannotStart)),
        Err(e) => {
            let reason = crate::error::one_line(&e);
            tracing::warn!("the embedded runner cannot start ({reason}); using the plugin");
            Ok(Validator { choice, session: None, unavailable: Some(reason) })
        }
    }
}

/// The embedded runner whatever was chosen, for a command that scores recipes on the runner's
/// trees alone (`learn`).
pub fn start_embedded(target: &Target<'_>) -> Result<Validator> {
    start(BackendChoice::Embedded, target)
}

fn start_session(target: &Target<'_>) -> Result<Session> {
    let session = embedded::start(target.repo, target.base, target.versions, target.project, target.trust)?;
    if let Some(pr) = target.pr {
        session.set_head(&pr.head)?;
    }
    Ok(session)
}

impl Validator {
    /// The embedded runner's session, for [`Request::session`]; None: the plugin validates.
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// Why the embedded runner could not start, when `auto` validates with the plugin instead.
    pub fn unavailable(&self) -> Option<&str> {
        self.unavailable.as_deref()
    }

    /// `auto`'s confirmation of a run the embedded runner made without error (None: the choice
    /// does not confirm, or there is nothing to confirm).
    pub fn confirm(&self, req: &Request<'_>, explored: &Outcome) -> Result<Option<Confirmation>> {
        let embedded_run =
            explored.stats.backend == Some(Backend::Embedded) && explored.stats.error.is_none();
        if !self.choice.confirms() || !embedded_run {
            return Ok(None);
        }
        super::plugin::confirm::confirm(req, explored).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_each_choice_does() {
        assert!(BackendChoice::Auto.explores_embedded() && BackendChoice::Auto.confirms());
        assert!(BackendChoice::Embedded.explores_embedded() && !BackendChoice::Embedded.confirms());
        assert!(!BackendChoice::Plugin.explores_embedded() && !BackendChoice::Plugin.confirms());
        assert!(BackendChoice::Plugin.asks_for_the_build() && !BackendChoice::Auto.asks_for_the_build());
        assert_eq!(BackendChoice::Auto.for_measurement(), BackendChoice::Embedded);
        assert_eq!(BackendChoice::Plugin.for_measurement(), BackendChoice::Plugin);
    }

    #[test]
    fn the_plugin_starts_nothing_and_confirms_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let versions = Versions::default();
        let target = Target {
            repo: dir.path(),
            base: "0000000000000000000000000000000000000000",
            versions: &versions,
            project: None,
            trust: Trust::Untrusted,
            pr: None,
        };
        // Nothing is cloned: the directory is not even a repository.
        let validator = start(BackendChoice::Plugin, &target).unwrap();
        assert!(validator.session().is_none() && validator.unavailable().is_none());
    }
}
