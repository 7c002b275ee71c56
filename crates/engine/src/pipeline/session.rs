//! The embedded runner's session as the phases ask for it: started once, on first use.

use anyhow::Result;

use super::context::Context;
use super::products::Checkout;

impl Context<'_> {
    /// The embedded session options validate with: None for `--backend plugin`, and for `auto` when
    /// the runner cannot start (the plugin validates then; the problem is reported). With
    /// `--backend embedded` a runner that cannot start is an error.
    pub(crate) fn session(
        &self,
        checkout: &Checkout,
    ) -> Result<Option<&crate::validation::embedded::Session>> {
        Ok(self.validator(checkout)?.session())
    }

    /// The backend the options validate with, started on the checkout's base on first use (see
    /// [`Context::session`] for what a runner that cannot start does).
    pub(crate) fn validator(&self, checkout: &Checkout) -> Result<&crate::validation::choice::Validator> {
        let started = self.session.get_or_init(|| {
            if self.req.backend.explores_embedded() {
                self.progress.message("starting the embedded OpenRewrite runner");
            }
            let base = crate::validation::choice::Base {
                repo: checkout.repo_path.clone(),
                commit: checkout.commits.base.clone(),
                versions: self.req.versions.clone(),
                project: self.req.project_dir.clone(),
                trust: self.req.trust,
            };
            // The PR's head versions are parsed beside the base, for the types they use.
            crate::validation::choice::start(self.req.backend, base, Some(&checkout.pr_view)).map_err(|e| {
                RunnerUnavailable {
                    reason: crate::error::one_line(&e),
                    bad_input: crate::error::exit_code_of(&e) == crate::error::exit::BAD_INPUT,
                }
            })
        });
        match started {
            Ok(validator) => Ok(validator),
            // The input the runner refused (a working directory that leads out of the clone) is
            // what the plugin refuses too: the same exit code whichever backend met it.
            Err(unavailable) if unavailable.bad_input => Err(crate::error::bad_input(&unavailable.reason)),
            Err(unavailable) => Err(anyhow::anyhow!("{unavailable}")),
        }
    }
}

/// Why the embedded runner could not start, kept for every option that asks again.
#[derive(Debug, thiserror::Error)]
#[error("{reason}")]
pub(crate) struct RunnerUnavailable {
    pub reason: String,
    /// The input was at fault, not the machine (exit code 2).
    pub bad_input: bool,
}
