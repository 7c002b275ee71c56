//! Option 1, wide: broad catalog recipes for the strategic and tactical intents, found by searching
//! the catalog with several phrasings of each intent (reciprocal rank fusion).

use crate::catalog::Catalog;
use crate::model::RecipeDescriptor;
use crate::model::intent::{Intent, Level};
use crate::model::{Change, Strategic, Tactical};

/// Hits considered per intent before the fit checks.
const CANDIDATES: usize = 8;
/// Fused RRF score below which a hit is noise (one list at rank 1 scores 1/61 ≈ 0.0164).
const MIN_SCORE: f64 = 0.02;

/// What a group intent asks for, typed: a strategic migration or a tactical concern.
enum Group {
    Strategic(Strategic),
    Tactical(Tactical),
    /// Not a group (an atomic intent): wide recipes are for groups.
    Other,
}

fn group(intent: &Intent) -> Group {
    if let Some(strategic) = Strategic::of(intent) {
        Group::Strategic(strategic)
    } else if let Some(tactical) = Tactical::of(intent) {
        Group::Tactical(tactical)
    } else {
        Group::Other
    }
}

/// Several phrasings of what an intent asks for, most specific first.
pub(crate) fn phrasings(intent: &Intent) -> Vec<String> {
    let mut out: Vec<String> = match group(intent) {
        Group::Strategic(Strategic::Java { to, .. }) => vec![
            format!("upgrade to java {to}"),
            format!("migrate to java {to}"),
            format!("java {to} migration"),
        ],
        Group::Strategic(Strategic::SpringBoot { to, .. }) => {
            let minor = to.split('.').take(2).collect::<Vec<_>>().join(".");
            vec![
                format!("upgrade spring boot {minor}"),
                format!("migrate to spring boot {minor}"),
                format!("spring boot {} upgrade", to.split('.').next().unwrap_or("")),
            ]
        }
        Group::Strategic(Strategic::Jakarta) => vec![
            "javax to jakarta".into(),
            "migrate javax to jakarta ee".into(),
            "jakarta namespace migration".into(),
        ],
        Group::Strategic(Strategic::JUnit) => {
            vec![
                "junit 4 to 5".into(),
                "migrate junit 4 to junit 5 jupiter".into(),
                "junit5 migration".into(),
            ]
        }
        Group::Tactical(Tactical::RenameConfigKeys) if renames_spring_keys(intent) => vec![
            "migrate spring boot properties".into(),
            "spring boot properties migration".into(),
            "change spring property key".into(),
        ],
        Group::Strategic(Strategic::Library { from, to }) => {
            let mut phrasings =
                vec![format!("{} to {to}", from.replace(" and ", " ")), format!("migrate to {to}")];
            phrasings.extend(from.split(" and ").map(|one| format!("migrate {one} to {to}")));
            phrasings
        }
        Group::Strategic(Strategic::Framework { name, to, .. }) => {
            let major = to.split('.').next().unwrap_or("");
            vec![format!("upgrade {name} {major}"), format!("migrate to {name} {major}")]
        }
        // The title and the kind are the phrasings.
        Group::Strategic(Strategic::Dependency { .. }) | Group::Tactical(_) | Group::Other => Vec::new(),
    };
    out.push(intent.title.replace("->", "to"));
    out.push(intent.kind().replace(['_', '.'], " "));
    out.dedup();
    out
}

/// Words a fitting recipe must mention (in its name or display name), e.g. the target version.
fn required_terms(intent: &Intent) -> Vec<String> {
    match group(intent) {
        Group::Strategic(Strategic::Java { to, .. }) => vec![to.to_string()],
        Group::Strategic(Strategic::SpringBoot { to, .. }) => {
            vec![to.split('.').take(2).collect::<Vec<_>>().join("_"), "spring".into()]
        }
        Group::Strategic(Strategic::Jakarta) => vec!["jakarta".into()],
        Group::Strategic(Strategic::JUnit) => vec!["junit".into()],
        Group::Tactical(Tactical::RenameConfigKeys) if renames_spring_keys(intent) => {
            vec!["spring".into(), "propert".into()]
        }
        // The target's word (the source's when the target is the JDK, which no recipe names).
        Group::Strategic(Strategic::Library { from, to }) => {
            let keyword = |name: &str| {
                crate::intents::libraries::LIBRARIES.iter().find(|l| l.name == name).map(|l| l.keyword)
            };
            let target = keyword(to.as_str()).filter(|k| !k.is_empty());
            let source = from.split(" and ").filter_map(keyword).find(|k| !k.is_empty());
            target.or(source).map(|k| vec![k.to_string()]).unwrap_or_default()
        }
        Group::Strategic(Strategic::Framework { name, .. }) => vec![name.to_lowercase()],
        Group::Strategic(Strategic::Dependency { .. }) | Group::Tactical(_) | Group::Other => Vec::new(),
    }
}

/// The old key of a configuration key rename ("" for any other intent).
fn old_key(intent: &Intent) -> &str {
    match intent.change() {
        Some(Change::PropertiesKeyRename { old_key, .. } | Change::YamlKeyRename { old_key, .. }) => old_key,
        _ => "",
    }
}

/// Whether the configuration keys an intent renames are Spring Boot's.
fn renames_spring_keys(intent: &Intent) -> bool {
    const SPRING_PREFIXES: &[&str] = &["spring.", "server.", "management.", "logging."];
    intent.atomics().iter().any(|a| SPRING_PREFIXES.iter().any(|p| old_key(a).starts_with(p)))
}

/// Distinctive words of the intent's title, one of which a fitting recipe must mention when the
/// kind has no required terms of its own.
fn title_terms(intent: &Intent) -> Vec<String> {
    // Verbs and the names of change categories say nothing about which recipe fits.
    const GENERIC: &[&str] = &[
        "from",
        "with",
        "into",
        "upgrade",
        "migrate",
        "change",
        "changes",
        "update",
        "bump",
        "move",
        "rename",
        "files",
        "types",
        "keys",
        "packages",
        "dependencies",
        "values",
        "images",
        "annotations",
        "properties",
        "imports",
        "methods",
        "plugins",
        "build",
        "text",
        "edits",
        "static",
        "call",
        "calls",
        "target",
        "targets",
        "whitespace",
        "only",
    ];
    intent
        .title
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| w.len() >= 4 && !GENERIC.contains(&w.as_str()))
        .collect()
}

/// What a recipe must say it does (in its name or display name) to fit a tactical intent: a recipe
/// of the right area that does something else (normalizes, secures, reports) is not a bump.
fn action_words(kind: &str) -> &'static [&'static str] {
    match kind.split('_').next().unwrap_or("") {
        "bump" | "update" | "upgrade" => &["upgrade", "update", "version", "bump"],
        "rename" => &["rename", "change"],
        "change" => &["change", "rename", "replace", "update", "upgrade", "migrate"],
        "move" => &["move", "rename"],
        "add" => &["add", "create"],
        "delete" | "remove" => &["delete", "remove"],
        _ => &[],
    }
}

/// The files an intent's evidence touches.
fn intent_files(intent: &Intent) -> Vec<String> {
    let mut files: Vec<String> =
        intent.atomics().iter().flat_map(|a| a.evidence.iter().map(|e| e.path.clone())).collect();
    files.sort();
    files.dedup();
    files
}

/// A search recipe (package `search`, or a `Find…` recipe other than `FindAndReplace`) at or below
/// `name`: search recipes only add `~~>` markers, which are never what a migration PR did.
pub(crate) fn search_recipe_within(catalog: &Catalog, name: &str, depth: usize) -> Option<String> {
    let simple = name.rsplit('.').next().unwrap_or(name);
    let finder = simple
        .strip_prefix("Find")
        .is_some_and(|rest| rest.starts_with(char::is_uppercase) && !rest.starts_with("AndReplace"));
    if name.contains(".search.") || finder {
        return Some(name.to_string());
    }
    // Composites nest a few levels at most; the bound guards against cycles.
    if depth >= 6 {
        return None;
    }
    let recipe = catalog.get(name)?;
    recipe.members.iter().find_map(|m| search_recipe_within(catalog, m, depth + 1))
}

/// The kind of file a language-specific recipe works on, when the intent touches no such file
/// (a Terraform whitespace recipe for a README edit). Java recipes are not checked: Java
/// migrations also change build files.
pub(crate) fn foreign_language(recipe: &str, files: &[String]) -> Option<&'static str> {
    const LANGUAGES: &[(&str, &str, &[&str])] = &[
        ("hcl", "HCL", &[".tf", ".hcl", ".tfvars"]),
        ("yaml", "YAML", &[".yml", ".yaml"]),
        ("json", "JSON", &[".json"]),
        ("xml", "XML", &[".xml"]),
        ("toml", "TOML", &[".toml"]),
        ("properties", "properties", &[".properties"]),
        ("protobuf", "protobuf", &[".proto"]),
        ("kotlin", "Kotlin", &[".kt", ".kts"]),
        ("groovy", "Groovy", &[".groovy", ".gradle"]),
        ("python", "Python", &[".py"]),
        ("javascript", "JavaScript", &[".js", ".ts", ".jsx", ".tsx"]),
        ("maven", "Maven", &["pom.xml"]),
        ("gradle", "Gradle", &[".gradle", ".gradle.kts", "gradle-wrapper.properties"]),
        ("docker", "Docker", &["Dockerfile", "Containerfile"]),
        ("github", "GitHub Actions", &[".github/workflows/"]),
    ];
    let area = recipe.strip_prefix("org.openrewrite.")?.split('.').next()?;
    let (_, kind, markers) = LANGUAGES.iter().find(|(a, _, _)| *a == area)?;
    let touched = files.iter().any(|f| markers.iter().any(|m| f.contains(m)));
    (!files.is_empty() && !touched).then_some(*kind)
}

/// Why no broad recipe fits an intent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum NoBroadRecipe {
    /// No catalog hit for any phrasing.
    #[error("no catalog recipe matched {0:?}")]
    NoMatch(Vec<String>),
    /// The title names nothing specific enough to check a hit against.
    #[error("`{0}` names nothing specific enough to search the catalog for")]
    TooVague(String),
    /// Hits, each rejected for the reason given (the first four).
    #[error("no broad recipe fits: {}", .0.join("; "))]
    NoneFits(Vec<String>),
}

/// A broad recipe that fits the intent, if the catalog has one.
pub(crate) fn find_recipe<'a>(
    catalog: &'a Catalog,
    intent: &Intent,
) -> Result<&'a RecipeDescriptor, NoBroadRecipe> {
    let phrasings = phrasings(intent);
    let queries: Vec<&str> = phrasings.iter().map(String::as_str).collect();
    let hits = catalog.search(&queries, CANDIDATES, MIN_SCORE);
    let fit = Fit::of(intent);
    let mut rejected = Vec::new();
    for hit in &hits {
        let Some(recipe) = catalog.get(&hit.name) else { continue };
        match fit.rejection(catalog, intent, recipe) {
            Some(Rejection::TooVague) => return Err(NoBroadRecipe::TooVague(intent.title.clone())),
            Some(Rejection::Because(why)) => rejected.push(why),
            None => return Ok(recipe),
        }
    }
    Err(if hits.is_empty() {
        NoBroadRecipe::NoMatch(phrasings)
    } else {
        NoBroadRecipe::NoneFits(rejected.into_iter().take(4).collect())
    })
}

/// Whether `name` is a broad recipe that fits `intent`, by the checks [`find_recipe`] makes of
/// its hits (the reusable recipe asks this of the recipes discovery ran).
pub(crate) fn fits(catalog: &Catalog, intent: &Intent, name: &str) -> bool {
    catalog.get(name).is_some_and(|recipe| Fit::of(intent).rejection(catalog, intent, recipe).is_none())
}

/// What a recipe must say of itself to fit an intent.
struct Fit {
    terms: Vec<String>,
    loose: Vec<String>,
    files: Vec<String>,
    verbs: &'static [&'static str],
}

enum Rejection {
    /// The intent names nothing a recipe could be checked against.
    TooVague,
    Because(String),
}

impl Fit {
    fn of(intent: &Intent) -> Fit {
        let terms = required_terms(intent);
        let verbs = if terms.is_empty() { action_words(intent.kind()) } else { &[] };
        Fit { terms, loose: title_terms(intent), files: intent_files(intent), verbs }
    }

    fn rejection(&self, catalog: &Catalog, intent: &Intent, recipe: &RecipeDescriptor) -> Option<Rejection> {
        let haystack = format!("{} {}", recipe.name, recipe.display_name).to_lowercase().replace('.', "_");
        let why = if recipe.options.iter().any(|o| o.required) {
            format!("`{}` needs options", recipe.name)
        } else if let Some(finder) = search_recipe_within(catalog, &recipe.name, 0) {
            format!("`{}` marks code instead of changing it (`{finder}`)", recipe.name)
        } else if let Some(kind) = foreign_language(&recipe.name, &self.files) {
            format!("`{}` works on {kind} files, which the intent does not touch", recipe.name)
        } else if !self.terms.iter().all(|t| haystack.contains(&t.to_lowercase())) {
            format!("`{}` does not mention {}", recipe.name, self.terms.join(" + "))
        } else if self.terms.is_empty() && self.loose.is_empty() {
            return Some(Rejection::TooVague);
        } else if self.terms.is_empty() && !self.loose.iter().any(|t| haystack.contains(t.as_str())) {
            format!("`{}` mentions none of {}", recipe.name, self.loose.join(", "))
        } else if !self.verbs.is_empty() && !self.verbs.iter().any(|v| haystack.contains(v)) {
            format!("`{}` does not {}", recipe.name, self.verbs.join(" / "))
        } else if recipe.members.is_empty() && intent.level() == Level::Strategic {
            format!("`{}` is not a composite migration", recipe.name)
        } else {
            return None;
        };
        Some(Rejection::Because(why))
    }
}
