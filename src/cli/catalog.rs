use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Subcommand;
use serde::Serialize;

use crate::catalog::cache::Cache;
use crate::catalog::{Catalog, ModuleText, Snapshot, generate, snapshot, text};
use crate::error::{bad_input, exit};
use crate::model::RecipeDescriptor;
use crate::openrewrite::Versions;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    pub command: CatalogCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum CatalogCommand {
    /// Regenerate the snapshot from the pinned recipe jars (needs Maven and a JDK 17+): the one to
    /// embed, with the text of the Apache-2.0 modules only (rebuild the binary afterwards), and the
    /// whole catalog in the user's cache, where search and analyses read it.
    Refresh {
        /// Where to write the gzip-compressed JSON snapshot to embed.
        #[arg(long, value_name = "PATH", default_value = snapshot::DEFAULT_PATH, value_parser = super::paths::absolute)]
        out: PathBuf,
        /// The Maven executable.
        #[arg(long, value_name = "MVN", default_value = "mvn", env = "REWRITE_ASSIST_MVN")]
        mvn: String,
    },
    /// Search recipes: each QUERY is one phrasing of the same need; results are fused by
    /// reciprocal rank fusion (k = 60). Each result names its module and licence.
    Search {
        #[arg(required = true, value_name = "QUERY")]
        queries: Vec<String>,
        /// At most this many results.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..))]
        limit: u16,
        /// Drop results whose fused score is lower (rank 1 in one phrasing scores 1/61 ≈ 0.0164).
        #[arg(long, default_value_t = 0.0, value_name = "X")]
        min_score: f64,
        /// Print `{"results": [...]}` on stdout instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Show one recipe: description, options, members, artifact and licence.
    Show {
        /// Fully qualified recipe name, e.g. org.openrewrite.java.ChangePackage.
        name: String,
        /// Print the descriptor as JSON.
        #[arg(long)]
        json: bool,
    },
}

impl Args {
    /// Whether the command prints JSON (`--json`).
    pub(crate) fn json(&self) -> bool {
        match &self.command {
            CatalogCommand::Refresh { .. } => false,
            CatalogCommand::Search { json, .. } | CatalogCommand::Show { json, .. } => *json,
        }
    }
}

pub(crate) fn run(args: Args) -> Result<u8> {
    match args.command {
        CatalogCommand::Refresh { out, mvn } => refresh(&out, &mvn),
        CatalogCommand::Search { queries, limit, min_score, json } => {
            search(&queries, limit, min_score, json)
        }
        CatalogCommand::Show { name, json } => show(&name, json),
    }
}

/// Writes what the binary may carry to `out` and the whole catalog to the user's cache, where
/// [`Catalog::enriched`] finds it.
fn refresh(out: &std::path::Path, mvn: &str) -> Result<u8> {
    let versions = Versions::from_env()?;
    let full = generate::generate(mvn, &versions)?;
    let shipped = text::strip(&full);
    let bytes = shipped.encode()?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(out, &bytes).with_context(|| format!("writing {}", out.display()))?;
    let cached = Cache::of(&versions).and_then(|cache| cache.write(&full).map(|()| cache));
    print!("{}", refresh_summary(&shipped, out, bytes.len()));
    match cached {
        Ok(cache) => println!("every module's text kept in {}", cache.path().display()),
        Err(e) => tracing::warn!("the full catalog was not cached: {e:#}"),
    }
    Ok(exit::OK)
}

fn refresh_summary(shipped: &Snapshot, out: &std::path::Path, bytes: usize) -> String {
    let mut text = format!(
        "{} recipes (rewrite {}) written to {} ({} KiB)\n",
        shipped.recipes.len(),
        shipped.rewrite_version,
        out.display(),
        bytes.div_ceil(1024)
    );
    let origin = |m: &snapshot::ModuleSummary| {
        m.artifact.clone().unwrap_or_else(|| format!("{} {} (bundled)", m.module, m.version))
    };
    let width = shipped.modules.iter().map(|m| origin(m).len()).max().unwrap_or(0);
    for m in &shipped.modules {
        let names_only = if m.text == ModuleText::NamesOnly { " (names only)" } else { "" };
        let _ = writeln!(text, "  {:>5}  {:<width$}  {}{names_only}", m.recipes, origin(m), m.licence);
    }
    for e in &shipped.excluded {
        let _ = writeln!(text, "  left out {} recipes of {} (not a pinned module)", e.recipes, e.jar);
    }
    text
}

/// What `catalog search --json` prints: the recipes found, best first.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct SearchResults<'a> {
    pub results: Vec<JsonHit<'a>>,
}

/// One recipe found, with its score (reciprocal rank fusion of the queries' BM25 ranks).
#[derive(Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JsonHit<'a> {
    name: &'a str,
    display_name: &'a str,
    score: f64,
    artifact: Option<&'a str>,
    /// `g:a:v` for every recipe, core ones included.
    coordinates: String,
    bundled: bool,
    module: &'a str,
    licence: &'a str,
    description: &'a str,
}

fn search(queries: &[String], limit: u16, min_score: f64, json: bool) -> Result<u8> {
    if queries.iter().all(|q| crate::catalog::query::clean(q).is_empty()) {
        return Err(bad_input("the search query is empty (after removing log and stack-trace noise)"));
    }
    let catalog = Catalog::enriched();
    let queries: Vec<&str> = queries.iter().map(String::as_str).collect();
    let hits = catalog.search(&queries, limit.into(), min_score);
    let found: Vec<(&RecipeDescriptor, f64)> =
        hits.iter().filter_map(|h| Some((catalog.get(&h.name)?, h.score))).collect();
    if json {
        let results: Vec<JsonHit> = found
            .iter()
            .map(|(r, score)| JsonHit {
                name: &r.name,
                display_name: &r.display_name,
                score: *score,
                artifact: r.artifact.as_deref(),
                coordinates: catalog.coordinates(r),
                bundled: r.is_bundled(),
                module: &r.module,
                licence: &r.licence,
                description: &r.description,
            })
            .collect();
        super::print_json(&SearchResults { results })?;
    } else if found.is_empty() {
        println!("no recipe matches");
    } else {
        let width = found.iter().map(|(r, _)| r.name.len()).max().unwrap_or(0);
        let mut text = String::new();
        for (r, score) in &found {
            let _ = writeln!(
                text,
                "{score:.4}  {:<width$}  {}  [{}, {}]",
                r.name, r.display_name, r.module, r.licence
            );
        }
        print!("{text}");
    }
    Ok(exit::OK)
}

/// What `catalog show --json` prints: the recipe as the catalog holds it, and where it comes from.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Shown<'a> {
    #[serde(flatten)]
    pub recipe: &'a RecipeDescriptor,
    /// `g:a:v` of the jar that has it.
    pub coordinates: String,
    /// In the build plugins' own jars (no extra artifact needed).
    pub bundled: bool,
}

fn show(name: &str, json: bool) -> Result<u8> {
    // Reading the MSAL modules' text takes a Maven run on a new machine: only when it is needed.
    let embedded = Catalog::embedded();
    let catalog = match embedded.get(name) {
        Some(recipe) if embedded.has_text_of(recipe) => embedded,
        _ => Catalog::enriched(),
    };
    let Some(recipe) = catalog.get(name) else {
        let close = catalog.suggest(name, 3);
        let hint = if close.is_empty() {
            "try `rewrite-assist catalog search`".to_string()
        } else {
            format!("did you mean {}?", close.join(", "))
        };
        return Err(bad_input(format!("unknown recipe `{name}`; {hint}")));
    };
    if json {
        let shown = Shown { recipe, coordinates: catalog.coordinates(recipe), bundled: recipe.is_bundled() };
        super::print_json(&shown)?;
    } else {
        print!("{}", render(recipe, &catalog.coordinates(recipe), catalog.has_text_of(recipe)));
    }
    Ok(exit::OK)
}

/// `has_text`: whether the catalog could read the recipe's text (see [`Catalog::enriched`]).
fn render(r: &RecipeDescriptor, coordinates: &str, has_text: bool) -> String {
    let mut text = format!("{}\n", r.name);
    if !r.display_name.is_empty() {
        let _ = writeln!(text, "  {}", r.display_name);
    }
    if !has_text {
        text.push_str("  (no description: it could not be read from the module's jar)\n");
    } else if !r.description.is_empty() {
        let _ = writeln!(text, "  {}", r.description.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    let origin = match &r.artifact {
        Some(a) => a.clone(),
        None => format!("{coordinates} (bundled with the build plugins)"),
    };
    let _ = writeln!(text, "  artifact: {origin}\n  licence: {}", r.licence);
    if !r.tags.is_empty() {
        let _ = writeln!(text, "  tags: {}", r.tags.join(", "));
    }
    if r.options.is_empty() {
        text.push_str("  options: none\n");
    } else {
        text.push_str("  options:\n");
        for o in &r.options {
            let required = if o.required { "required" } else { "optional" };
            let _ = write!(text, "    {} ({}, {required})", o.name, o.option_type);
            if let Some(d) = &o.description {
                let _ = write!(text, ": {}", d.split_whitespace().collect::<Vec<_>>().join(" "));
            }
            if let Some(e) = &o.example {
                let _ = write!(text, " Example: {e}");
            }
            if !o.valid.is_empty() {
                let _ = write!(text, " Valid: {}", o.valid.join(", "));
            }
            text.push('\n');
        }
    }
    if !r.members.is_empty() {
        let _ = writeln!(text, "  members ({}):", r.members.len());
        for m in &r.members {
            let _ = writeln!(text, "    {m}");
        }
    }
    text
}
