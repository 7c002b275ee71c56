//! The catalog with every module's text, as analyses and `catalog search` use it: the embedded
//! snapshot, whose modules under the Moderne Source Available License carry names only
//! (docs/licensing.md), with their text read from the user's own copies of those jars.
//!
//! The first use on a machine runs the catalog generator (`catalog refresh`'s Java program) on the
//! pinned versions through Maven, which resolves the modules into the user's local repository as
//! the embedded runner does anyway; that takes about 20 s with a warm local repository. The result
//! goes into the user's cache ([`Cache`]), so every later run reads it in milliseconds. When it
//! cannot be done (no Maven or JDK, no network and the jars not in the local repository), the
//! embedded snapshot is used as it is, after one warning line, and the next run tries again.

use anyhow::Result;

use super::cache::Cache;
use super::snapshot::Snapshot;
use super::{generate, text};
use crate::openrewrite::Versions;

/// `embedded` with the text of its names-only modules, from the cache or read now; `embedded`
/// itself, after a warning, when the text cannot be had.
pub(crate) fn load(embedded: &Snapshot) -> Snapshot {
    if text::names_only(embedded).is_empty() {
        return embedded.clone();
    }
    match cached_or_read(embedded) {
        Ok(snapshot) => snapshot,
        Err(e) => {
            tracing::warn!(
                "the recipe catalog lacks the descriptions of the Moderne Source Available modules, so \
                 search and recipe mapping are less precise (reading them from the modules' jars failed: \
                 {}); the next run tries again",
                crate::error::one_line(&e)
            );
            embedded.clone()
        }
    }
}

fn cached_or_read(embedded: &Snapshot) -> Result<Snapshot> {
    // The embedded snapshot is of the pins: its text comes from the pinned jars, whatever
    // versions this run validates with.
    let versions = Versions::default();
    let cache = Cache::of(&versions)?;
    if let Some(snapshot) = cache.read(embedded) {
        return Ok(snapshot);
    }
    let _lock = cache.lock()?;
    // Another process may have read them while this one waited for the lock.
    if let Some(snapshot) = cache.read(embedded) {
        return Ok(snapshot);
    }
    eprintln!(
        "rewrite-assist: reading the recipe descriptions of the Moderne Source Available modules from \
         their jars in your Maven repository (once per version set, about 20 s)"
    );
    let generated = generate::generate(&crate::process::maven::executable(), &versions)?;
    let enriched = text::enrich(embedded, &generated);
    let still_missing = text::names_only(&enriched);
    if !still_missing.is_empty() {
        tracing::warn!(
            "the recipe jars lacked recipes the catalog names; descriptions stay missing for {}",
            still_missing.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    if let Err(e) = cache.write(&enriched) {
        tracing::warn!(
            "the recipe descriptions were read but not cached, the next run reads them again: {e:#}"
        );
    }
    Ok(enriched)
}
