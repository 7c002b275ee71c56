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
        let started = self.session.get_or_init(|| {
            if self.req.backend.explores_embedded() {
                self.progress.message("starting the embedded OpenRewrite runner");
            }
            let target = crate::validation::choice::Target {
                repo: &checkout.repo_path,
                base: &checkout.commits.base,
                versions: &self.req.versions,
                project: self.req.project_dir.as_ref(),
                trust: self.req.trust,
                // The PR's head versions are parsed beside the base, for the types they use.
                pr: Some(&checkout.pr_view),
            };
            crate::validation::choice::start(self.req.backend, &target)
                .map_err(|e| RunnerUnavailable(crate::error::one_line(&e)))
        });
        match started {
            Ok(validator) => Ok(validator.session()),
            Err(reason) => Err(anyhow::anyhow!("{reason}")),
        }
    }
}

/// Why the embedded runner could not start, kept for every option that asks again.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct RunnerUnavailable(pub String);
