//! The recipe catalog: every recipe of the pinned OpenRewrite modules, generated from the real jars
//! (`catalog refresh`, see [`generate`]), embedded in the binary, and searchable.
//!
//! The embedded snapshot carries the text of the Apache-2.0 modules only ([`text`]);
//! [`Catalog::enriched`], the catalog analyses and search use, adds the rest from the user's own
//! jars once per machine ([`enriched`]). [`Catalog::embedded`] is enough where only names, options,
//! members and artifacts matter.
//!
//! Recipe mapping searches it by intent ([`Catalog::search`], several phrasings fused by reciprocal
//! rank fusion); validation checks generated option names ([`Catalog::check_options`]) and puts
//! exactly the needed modules on the classpath ([`Catalog::artifact_for`]).

pub mod cache;
pub(crate) mod enriched;
pub mod generate;
pub mod options;
pub mod query;
pub(crate) mod search;
pub mod snapshot;
pub mod text;
pub(crate) mod tokenize;

#[cfg(test)]
mod tests;

use std::sync::OnceLock;

use rustc_hash::FxHashMap;
use serde::Serialize;

pub(crate) use options::OptionProblems;
#[cfg(test)]
pub(crate) use search::CacheStats;
pub use snapshot::{ModuleText, Snapshot};

use crate::model::RecipeDescriptor;
use crate::openrewrite::Coordinates;
use search::SearchIndex;

/// One search result.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    /// Fully qualified recipe name, e.g. `org.openrewrite.java.ChangePackage`.
    pub name: String,
    /// OpenRewrite's display name; empty when the catalog holds no text for its module.
    pub display_name: String,
    /// Reciprocal-rank-fusion score: the sum over phrasings of `1 / (60 + rank)`.
    pub score: f64,
    /// `g:a:v` of the module to add; `None` for bundled core recipes.
    pub artifact: Option<String>,
}

/// The recipe catalog: a snapshot's recipes by name, and their search index.
pub struct Catalog {
    snapshot: Snapshot,
    by_name: FxHashMap<String, usize>,
    /// Built at the first search, once per process.
    index: OnceLock<SearchIndex>,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalog").field("recipes", &self.len()).finish()
    }
}

impl Catalog {
    /// The catalog analyses and search use: the embedded one with the text of every module, read
    /// once per machine from the user's own recipe jars and cached (see [`enriched`]); the embedded
    /// one itself, after a warning, when that cannot be done. Loaded once per process.
    pub fn enriched() -> &'static Catalog {
        static ENRICHED: OnceLock<Catalog> = OnceLock::new();
        ENRICHED.get_or_init(Catalog::load)
    }

    /// [`Catalog::enriched`], loaded anew (for measuring what loading it costs).
    pub fn load() -> Catalog {
        Catalog::new(enriched::load(Catalog::embedded().snapshot()))
    }

    /// The snapshot compiled into the binary, decoded once per process: without the text of the
    /// modules whose licence does not let us ship it ([`ModuleText::NamesOnly`]).
    pub fn embedded() -> &'static Catalog {
        static EMBEDDED: OnceLock<Catalog> = OnceLock::new();
        EMBEDDED.get_or_init(|| {
            // Our own build artefact, checked by the tests: failing to read it is a bug, not input.
            let snapshot =
                Snapshot::decode(snapshot::EMBEDDED).expect("the embedded catalog snapshot is valid");
            Catalog::new(snapshot)
        })
    }

    /// A catalog of `snapshot` (its recipes sorted by name, as generated).
    pub fn new(mut snapshot: Snapshot) -> Catalog {
        snapshot.recipes.sort_by(|a, b| a.name.cmp(&b.name));
        snapshot.recipes.dedup_by(|a, b| a.name == b.name);
        let by_name = snapshot.recipes.iter().enumerate().map(|(i, r)| (r.name.clone(), i)).collect();
        Catalog { snapshot, by_name, index: OnceLock::new() }
    }

    /// Number of recipes.
    pub fn len(&self) -> usize {
        self.snapshot.recipes.len()
    }

    /// True when the catalog has no recipe.
    pub fn is_empty(&self) -> bool {
        self.snapshot.recipes.is_empty()
    }

    /// The snapshot the catalog was made of.
    pub fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }

    /// Every recipe, sorted by name.
    pub fn recipes(&self) -> &[RecipeDescriptor] {
        &self.snapshot.recipes
    }

    /// Whether this catalog holds OpenRewrite's text about `recipe` (its display name, description,
    /// tags and option descriptions), or only its names.
    pub fn has_text_of(&self, recipe: &RecipeDescriptor) -> bool {
        !self.snapshot.modules.iter().any(|m| m.module == recipe.module && m.text == ModuleText::NamesOnly)
    }

    /// The recipe with exactly this fully qualified name.
    pub fn get(&self, name: &str) -> Option<&RecipeDescriptor> {
        self.by_name.get(name).map(|&i| &self.snapshot.recipes[i])
    }

    /// Whether `composite` runs `name`: it is `name`, or `name` is among its members, recursively
    /// (to a bounded depth: the catalog's composites nest a few levels, never in a cycle we follow).
    pub fn runs(&self, composite: &str, name: &str) -> bool {
        fn within(catalog: &Catalog, composite: &str, name: &str, depth: usize) -> bool {
            composite == name
                || (depth < 8
                    && catalog
                        .get(composite)
                        .is_some_and(|r| r.members.iter().any(|m| within(catalog, m, name, depth + 1))))
        }
        within(self, composite, name, 0)
    }

    /// The module to put on the recipe classpath for `recipe`; `None` for bundled core recipes and
    /// for recipes the catalog does not know.
    pub fn artifact_for(&self, recipe: &str) -> Option<Coordinates> {
        self.get(recipe)?.artifact.as_deref().and_then(Coordinates::parse)
    }

    /// Where `recipe` comes from as `group:artifact:version`, bundled core modules included (whose
    /// [`RecipeDescriptor::artifact`] is `None` because nothing needs to be added for them).
    pub fn coordinates(&self, recipe: &RecipeDescriptor) -> String {
        if let Some(artifact) = &recipe.artifact {
            return artifact.clone();
        }
        match crate::openrewrite::versions::MODULES.iter().find(|m| m.artifact == recipe.module) {
            Some(module) => module.coordinates().to_string(),
            None => recipe.module.clone(),
        }
    }

    /// Checks option names given to `recipe` (see [`options::check`]); an unknown recipe is
    /// reported as such.
    pub(crate) fn check_options(&self, recipe: &str, given: &[&str]) -> Result<(), OptionProblems> {
        match self.get(recipe) {
            Some(descriptor) => options::check(descriptor, given),
            None => Err(OptionProblems {
                recipe: recipe.to_string(),
                unknown_recipe: true,
                unknown: Vec::new(),
                missing: Vec::new(),
            }),
        }
    }

    /// Several phrasings of one need, each cleaned and ranked by BM25, fused by reciprocal rank
    /// fusion (k = 60). Hits scoring below `min_score` (a fused score) are dropped; at most `limit`.
    pub fn search(&self, queries: &[&str], limit: usize, min_score: f64) -> Vec<SearchHit> {
        // The index is built from our own snapshot in RAM; failing to build or query it is a bug.
        let fused = self.index().search(queries).expect("searching the in-memory catalog index");
        fused
            .into_iter()
            .filter(|(_, score)| *score >= min_score)
            .take(limit)
            .map(|(ord, score)| {
                let recipe = &self.snapshot.recipes[ord as usize];
                SearchHit {
                    name: recipe.name.clone(),
                    display_name: recipe.display_name.clone(),
                    score,
                    artifact: recipe.artifact.clone(),
                }
            })
            .collect()
    }

    /// Builds the search index now (it is otherwise built at the first search).
    pub fn warm_up(&self) {
        self.index();
    }

    /// How often this catalog's search answered a phrasing from its cache.
    #[cfg(test)]
    pub(crate) fn cache_stats(&self) -> CacheStats {
        self.index().cache_stats()
    }

    /// Up to `n` recipe names close to `name` (for "did you mean"): by similarity of the simple or
    /// full name, else by search.
    pub fn suggest(&self, name: &str, n: usize) -> Vec<&str> {
        let wanted = name.to_lowercase();
        let wanted_simple = crate::openrewrite::simple_name(&wanted);
        let mut scored: Vec<(f64, &str)> = self
            .snapshot
            .recipes
            .iter()
            .map(|r| {
                let full = strsim::jaro_winkler(&wanted, &r.name.to_lowercase());
                let simple = strsim::jaro_winkler(wanted_simple, &r.simple_name().to_lowercase());
                (full.max(simple), r.name.as_str())
            })
            .filter(|(score, _)| *score >= 0.9)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        let mut names: Vec<&str> = scored.into_iter().take(n).map(|(_, name)| name).collect();
        if names.is_empty() {
            names = self.search(&[name], n, 0.0).into_iter().filter_map(|h| self.name_ref(&h.name)).collect();
        }
        names
    }

    fn name_ref(&self, name: &str) -> Option<&str> {
        self.get(name).map(|r| r.name.as_str())
    }

    fn index(&self) -> &SearchIndex {
        self.index.get_or_init(|| {
            SearchIndex::build(&self.snapshot.recipes).expect("building the in-memory catalog index")
        })
    }
}
