//! The catalog snapshot: every recipe of the pinned modules as OpenRewrite describes it, stored as
//! gzip-compressed JSON. `catalog/recipes.json.gz`, committed and embedded in the binary, holds the
//! text of the Apache-2.0 modules only ([`ModuleText`]); the user's cache holds the full one.

use std::io::{Read, Write};

use anyhow::{Context, Result};
use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use serde::{Deserialize, Serialize};

use crate::model::RecipeDescriptor;

/// Where `catalog refresh` writes by default, relative to the repository root.
pub const DEFAULT_PATH: &str = "catalog/recipes.json.gz";

/// The snapshot compiled into the binary.
pub static EMBEDDED: &[u8] = include_bytes!("../../../../catalog/recipes.json.gz");

/// The recipe catalog as `catalog refresh` writes it (`catalog/recipes.json.gz`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// The rewrite core the recipes were loaded with.
    pub rewrite_version: String,
    /// Recipe count per module, in `MODULES` order.
    pub modules: Vec<ModuleSummary>,
    /// Jars that shipped recipes but are not pinned modules (transitive dependencies); their
    /// recipes are left out.
    #[serde(default)]
    pub excluded: Vec<ExcludedJar>,
    /// Sorted by name, names unique.
    pub recipes: Vec<RecipeDescriptor>,
}

/// One recipe module of a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModuleSummary {
    /// The module's artifact id, e.g. `rewrite-spring`.
    pub module: String,
    /// `g:a:v`; `None` for core modules bundled with the build plugins.
    pub artifact: Option<String>,
    /// The module's version the recipes were read from.
    pub version: String,
    /// The module's licence: `Apache-2.0` or `Moderne Source Available License`.
    pub licence: String,
    /// Number of recipes the module ships.
    pub recipes: usize,
    /// How much of OpenRewrite's text about the module's recipes this snapshot holds.
    pub text: ModuleText,
}

/// How much of OpenRewrite's text about a module's recipes a snapshot holds. The embedded snapshot
/// ships the text of the modules whose licence lets us redistribute it, and only what identifies
/// the recipes of the others; the rest is read from the user's own jars ([`super::text`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ModuleText {
    /// Everything: display names, descriptions, tags, option descriptions and examples.
    Full,
    /// Names, option names, types and valid values, the members of composites, module and licence.
    NamesOnly,
}

/// A jar on the generator's classpath that ships recipes but is not a pinned module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExcludedJar {
    /// The jar's file name.
    pub jar: String,
    /// Number of recipes it ships, left out of the catalog.
    pub recipes: usize,
}

impl Snapshot {
    /// Reads a gzipped JSON snapshot (as [`Snapshot::encode`] writes it).
    pub fn decode(gzipped: &[u8]) -> Result<Snapshot> {
        let mut json = Vec::new();
        GzDecoder::new(gzipped).read_to_end(&mut json).context("catalog snapshot is not gzip")?;
        serde_json::from_slice(&json).context("catalog snapshot is not valid JSON")
    }

    /// Compact JSON, gzip with a zero timestamp: the same recipes always give the same bytes, so
    /// a refresh that changed nothing leaves git clean.
    pub fn encode(&self) -> Result<Vec<u8>> {
        let json = serde_json::to_vec(self)?;
        let mut gz = GzEncoder::new(Vec::new(), Compression::best());
        gz.write_all(&json)?;
        Ok(gz.finish()?)
    }
}
