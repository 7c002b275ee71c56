//! The analysis of rewrite-assist: the phases (intents, mapping, discovery, refinement, decision,
//! generalization) and the pipeline that drives them (ARCHITECTURE.md).
#![deny(missing_docs)]

pub mod decision;
pub mod discovery;
pub mod intents;
mod mapping;
pub mod pipeline;
mod refinement;
pub mod reuse;
mod templates;

// The layers below, in scope under the names the modules have always used (`crate::diff::…`).
use rewrite_assist_core::{catalog, diff, document, error, metrics, model, openrewrite, process, setup};
use rewrite_assist_runner as validation;

#[cfg(test)]
use rewrite_assist_fixtures as fixtures;
