//! Which backend validates recipes (`--backend`, action input `backend`), and the one place that
//! acts on the choice: [`start`] turns it into a [`Validator`] (`auto`: the embedded runner, the
//! plugin when the runner cannot start), which also decides `auto`'s confirmation with the plugin.
//! `analyze`, `validate` and eval's transfer pairs all start their backend here.

use std::path::PathBuf;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::embedded::{self, CannotStart, Session};
use super::trust::Trust;
use super::{Expected, Limits, Output, Recipe, RecipeRun, RunOutput};
use crate::metrics::classes::PrView;
use crate::model::{Backend, Confirmation, ErrorKind, RunError};
use crate::openrewrite::Versions;

/// The environment variable behind `--backend`.
pub const BACKEND_ENV: &str = "REWRITE_ASSIST_BACKEND";

/// Which backend validates recipes: `--backend`, the action input `backend`.
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

    /// The choice as users write it (`embedded`, `plugin`, `auto`), for messages and reports.
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
    pub fn asks_for_the_build(self) -> bool {
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

    /// Whether a measurement of this choice runs the plugin, which loads recipe jars from a
    /// repository only (a learned jar is installed for it first).
    pub fn measures_with_the_plugin(self) -> bool {
        self.for_measurement() == BackendChoice::Plugin
    }

    /// Whether a run of this choice counts the old library and checks compilation (the embedded
    /// runner does; the plugin's build does not).
    pub fn measures(self) -> bool {
        self.for_measurement() == BackendChoice::Embedded
    }
}

/// The environment variable behind `--trust-build-config`.
pub const TRUST_BUILD_CONFIG_ENV: &str = "REWRITE_ASSIST_TRUST_BUILD_CONFIG";

/// What the recipes are validated on: the repository at its base commit, with the versions, the
/// trust in its build and the build's directory. A [`Validator`] keeps it for every run.
#[derive(Debug, Clone)]
pub struct Base {
    /// The repository (work tree or bare directory), see [`crate::setup::Repo::path`].
    pub repo: PathBuf,
    /// The base commit (a full id, see [`crate::setup::Repo::resolve`]).
    pub commit: String,
    /// The OpenRewrite versions every run uses: the pins with the user's overrides.
    pub versions: Versions,
    /// The build's directory in the repository (None: its root).
    pub project: Option<crate::setup::ProjectDir>,
    /// How far the repository's own build is trusted: whether the plugin backend may run its code
    /// and honours the clone's `.mvn/` configuration.
    pub trust: Trust,
}

/// The backend a command validates with, started on its [`Base`].
pub struct Validator {
    choice: BackendChoice,
    base: Base,
    /// The embedded runner's session on the base; None: the plugin validates.
    session: Option<Session>,
    /// Why the embedded runner could not start, when `auto` fell back to the plugin.
    unavailable: Option<String>,
}

/// Starts the backend `choice` names on `base`. `embedded`: a runner that cannot start is an
/// error ([`CannotStart`]); `auto`: the plugin takes over, with a warning saying why; `plugin`:
/// nothing to start. `head`: the PR's files, which the embedded runner parses once beside the
/// base, for the types they use (the same view the runs' [`Expected::pr`] then classifies with).
pub fn start(choice: BackendChoice, base: Base, head: Option<&PrView>) -> Result<Validator> {
    if !choice.explores_embedded() {
        return Ok(Validator { choice, base, session: None, unavailable: None });
    }
    match start_session(&base, head) {
        Ok(session) => Ok(Validator { choice, base, session: Some(session), unavailable: None }),
        Err(e) if choice == BackendChoice::Embedded => Err(e.context(CannotStart)),
        Err(e) => {
            let reason = crate::error::one_line(&e);
            tracing::warn!("the embedded runner cannot start ({reason}); using the plugin");
            Ok(Validator { choice, base, session: None, unavailable: Some(reason) })
        }
    }
}

/// The embedded runner whatever was chosen, for a command that scores recipes on the runner's
/// trees alone (`learn`).
pub fn start_embedded(base: Base, head: Option<&PrView>) -> Result<Validator> {
    start(BackendChoice::Embedded, base, head)
}

fn start_session(base: &Base, head: Option<&PrView>) -> Result<Session> {
    let session =
        embedded::start(&base.repo, &base.commit, &base.versions, base.project.as_ref(), base.trust)?;
    if let Some(pr) = head {
        session.set_head(&pr.head)?;
    }
    Ok(session)
}

impl Validator {
    /// The embedded runner's session (discovery runs steps on it); None: the plugin validates.
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// Why the embedded runner could not start, when `auto` validates with the plugin instead.
    pub fn unavailable(&self) -> Option<&str> {
        self.unavailable.as_deref()
    }

    /// Runs `recipe` on the base with this backend, measures it against `expected` and writes
    /// the artifacts to `output`. A recipe that cannot run is a classified error inside the
    /// stats; `Err` is for problems with the input or the machine (no build file, no JDK, no
    /// `mvn`).
    pub fn run(
        &self,
        recipe: &Recipe<'_>,
        expected: &Expected<'_>,
        output: &Output<'_>,
        limits: Limits,
    ) -> Result<RunOutput> {
        super::run(&self.recipe_run(recipe, expected, output, limits, self.session()))
    }

    /// [`Validator::run`], then `auto`'s confirmation with the plugin when the embedded runner
    /// ran it without error: the confirmation goes into the stats and `stats.json` is written
    /// again with it (a Ctrl-C during the confirmation makes the run interrupted).
    pub fn run_confirmed(
        &self,
        recipe: &Recipe<'_>,
        expected: &Expected<'_>,
        output: &Output<'_>,
        limits: Limits,
    ) -> Result<RunOutput> {
        let mut explored = self.run(recipe, expected, output, limits)?;
        if !self.confirms(&explored) {
            return Ok(explored);
        }
        let confirmation = self
            .confirm(recipe, expected, output, limits, &explored)
            .context("confirming with the plugin")?;
        if crate::process::interrupted() {
            // Ctrl-C during the confirmation: the run as a whole was interrupted.
            explored.stats.error = Some(RunError::new(ErrorKind::Interrupted, "interrupted by the user"));
        }
        explored.stats.confirmation = Some(confirmation);
        // Written again, with the confirmation.
        crate::write_stats(&output.dir.join(format!("{}stats.json", output.prefix)), &explored.stats)?;
        Ok(explored)
    }

    /// Whether the choice confirms `explored`: `auto`, and a run the embedded runner made without
    /// error.
    pub fn confirms(&self, explored: &RunOutput) -> bool {
        let embedded_run =
            explored.stats.backend == Some(Backend::Embedded) && explored.stats.error.is_none();
        self.choice.confirms() && embedded_run
    }

    /// Runs `recipe` once more with the project's build tool (files `<prefix>confirm-…`) and
    /// compares it with `explored`, the embedded runner's run of it.
    pub fn confirm(
        &self,
        recipe: &Recipe<'_>,
        expected: &Expected<'_>,
        output: &Output<'_>,
        limits: Limits,
        explored: &RunOutput,
    ) -> Result<Confirmation> {
        super::plugin::confirm::confirm(&self.recipe_run(recipe, expected, output, limits, None), explored)
    }

    fn recipe_run<'a>(
        &'a self,
        recipe: &Recipe<'a>,
        expected: &Expected<'a>,
        output: &Output<'a>,
        limits: Limits,
        session: Option<&'a Session>,
    ) -> RecipeRun<'a> {
        RecipeRun {
            repo: &self.base.repo,
            base: &self.base.commit,
            expected: expected.diff,
            recipe_yaml: recipe.yaml,
            recipe_name: recipe.name,
            timeout: limits.timeout,
            versions: &self.base.versions,
            artifacts_for: recipe.artifacts_for,
            option_check: recipe.option_check,
            out_dir: output.dir,
            file_prefix: output.prefix,
            ledger: output.ledger,
            session,
            trust: self.base.trust,
            project_dir: self.base.project.as_ref(),
            pr: expected.pr,
            measure: expected.measure,
        }
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
        let base = Base {
            repo: dir.path().to_path_buf(),
            commit: "0000000000000000000000000000000000000000".into(),
            versions: Versions::default(),
            project: None,
            trust: Trust::Untrusted,
        };
        // Nothing is cloned: the directory is not even a repository.
        let validator = start(BackendChoice::Plugin, base, None).unwrap();
        assert!(validator.session().is_none() && validator.unavailable().is_none());
    }
}
