//! `auto`'s confirmation: the recipe the embedded runner explored runs once more with the project's
//! build tool, and the two diffs are compared. Whether it runs is [`crate::validation::choice`]'s
//! decision.

use anyhow::Result;

use crate::diff;
use crate::model::{Confirmation, ErrorKind, RunError};
use crate::process;
use crate::validation::{RecipeRun, RunOutput};

/// Runs `req`'s recipe once more with the project's build tool (files `<prefix>confirm-…`) and
/// compares it with what `explored` (the embedded runner's run) produced.
pub fn confirm(req: &RecipeRun<'_>, explored: &RunOutput) -> Result<Confirmation> {
    let prefix = format!("{}confirm-", req.file_prefix);
    let plugin = RecipeRun { session: None, file_prefix: &prefix, ..*req };
    let outcome = match super::run(&plugin) {
        Ok(outcome) => outcome,
        Err(e) if !process::interrupted() && !e.chain().any(|c| c.is::<crate::error::BadInput>()) => {
            return Ok(Confirmation {
                backend: None,
                confirmed: false,
                precision: 0.0,
                recall: 0.0,
                f1: 0.0,
                error: Some(RunError::new(ErrorKind::BuildToolFailure, crate::error::one_line(&e))),
                differing_lines: 0,
            });
        }
        Err(e) => return Err(e),
    };
    let m = &outcome.stats.metrics;
    let differing_lines = match (diff::parse(&outcome.diff), diff::parse(&explored.diff)) {
        // A plugin that could not run says nothing about the embedded run's lines.
        _ if outcome.stats.error.is_some() => 0,
        (Ok(plugin_diff), Ok(embedded_diff)) => {
            let c = crate::metrics::compare(&embedded_diff, &plugin_diff);
            c.false_positives + c.false_negatives
        }
        _ => 0,
    };
    Ok(Confirmation {
        backend: outcome.stats.backend,
        confirmed: outcome.stats.error.is_none() && differing_lines == 0,
        precision: m.precision,
        recall: m.recall,
        f1: m.f1,
        error: outcome.stats.error.clone(),
        differing_lines,
    })
}
