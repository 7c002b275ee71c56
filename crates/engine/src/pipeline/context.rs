//! What every phase borrows and none changes: the request, the run directory, the catalog, the
//! progress display, when the run started, and the embedded runner's session (started on first use).

use std::sync::OnceLock;
use std::time::Instant;

use super::AnalysisRequest;
use super::artifacts::{self, RunDir};
use super::progress::Progress;
use super::session::RunnerUnavailable;
use crate::catalog::Catalog;

pub(crate) struct Context<'a> {
    pub req: &'a AnalysisRequest,
    pub dir: RunDir,
    pub catalog: &'static Catalog,
    pub progress: &'a dyn Progress,
    pub started: Instant,
    pub started_at: String,
    /// The embedded runner's session on the base commit, started on first use and shared by every
    /// option (one parse for the whole run); `Err` when it could not start. See [`Context::session`].
    pub session: OnceLock<Result<crate::validation::choice::Validator, RunnerUnavailable>>,
}

impl<'a> Context<'a> {
    pub(crate) fn new(req: &'a AnalysisRequest, dir: RunDir, progress: &'a dyn Progress) -> Self {
        Context {
            req,
            dir,
            catalog: Catalog::enriched(),
            progress,
            started: Instant::now(),
            started_at: artifacts::now(),
            session: OnceLock::new(),
        }
    }
}
