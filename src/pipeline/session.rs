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
        use crate::validation::choice::BackendChoice;
        if !self.req.backend.explores_embedded() {
            return Ok(None);
        }
        let started = self.session.get_or_init(|| {
            self.progress.message("starting the embedded OpenRewrite runner");
            crate::validation::embedded::start(
                &checkout.repo_path,
                &checkout.commits.base,
                &self.req.versions,
                self.req.project_dir.as_ref(),
                self.req.trust,
            )
            .and_then(|session| {
                // The PR's head versions are parsed beside the base, for the types they use.
                session.set_head(&checkout.pr_view.head)?;
                Ok(session)
            })
            .map_err(|e| RunnerUnavailable(crate::error::one_line(&e)))
        });
        match (started, self.req.backend) {
            (Ok(session), _) => Ok(Some(session)),
            (Err(reason), BackendChoice::Embedded) => {
                Err(anyhow::anyhow!("the embedded runner cannot start: {reason}"))
            }
            (Err(_), _) => Ok(None),
        }
    }
}

/// Why the embedded runner could not start, kept for every option that asks again.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct RunnerUnavailable(pub String);
