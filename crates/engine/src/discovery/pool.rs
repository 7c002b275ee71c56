//! The candidate pool: catalog recipes that might explain the PR's lines, found by searching the
//! catalog with several phrasings of every intent and with the lines no intent explains, widened
//! with the recipes of the same family, bounded and ranked.

use std::collections::{BTreeMap, HashMap};

use crate::catalog::Catalog;
use crate::mapping::wide;
use crate::model::intent::{Intent, IntentTree};

/// Catalog hits taken per search.
const PER_SEARCH: usize = 8;
/// Lines without an intent searched for, at most (each is one search).
const MAX_UNEXPLAINED_QUERIES: usize = 12;
/// A query longer than this is cut: code lines are searched by their identifiers, not their text.
const MAX_QUERY_CHARS: usize = 200;
/// Recipes of one `$` family (Refaster rules of one class) added next to a hit, at most.
const MAX_FAMILY: usize = 12;

/// One recipe of the pool and why it is there.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub(crate) struct Candidate {
    pub name: String,
    /// Higher first; the sum over searches of `1 / (60 + rank)`, families at half their hit's.
    pub score: f64,
    /// The first search that found it, or the hit it is a relative of.
    pub why: String,
}

/// The pool for `tree`: at most `limit` runnable recipes (no required options, no search-only
/// recipes, none for a language the PR does not touch), best first.
pub(crate) fn build(
    tree: &IntentTree,
    changed_files: &[String],
    catalog: &Catalog,
    limit: usize,
) -> Vec<Candidate> {
    fn add(found: &mut BTreeMap<String, Candidate>, name: &str, score: f64, why: String) {
        let entry =
            found.entry(name.to_string()).or_insert(Candidate { name: name.to_string(), score: 0.0, why });
        entry.score += score;
    }
    let mut found: BTreeMap<String, Candidate> = BTreeMap::new();
    for (queries, why) in searches(tree) {
        let refs: Vec<&str> = queries.iter().map(String::as_str).collect();
        for (rank, hit) in catalog.search(&refs, PER_SEARCH, 0.0).into_iter().enumerate() {
            add(&mut found, &hit.name, 1.0 / (60.0 + rank as f64 + 1.0), why.clone());
        }
    }
    // Relatives: a Refaster rule's siblings in its class, and the members of a matching composite
    // (the runner also splits composites that over-apply, with their options).
    let hits: Vec<Candidate> = found.values().cloned().collect();
    let index = Relatives::of(catalog);
    for hit in &hits {
        for relative in index.of_recipe(catalog, &hit.name) {
            add(&mut found, &relative, hit.score / 2.0, format!("relative of `{}`", hit.name));
        }
    }
    let mut pool: Vec<Candidate> =
        found.into_values().filter(|c| runnable(catalog, &c.name, changed_files)).collect();
    pool.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.name.cmp(&b.name)));
    // Umbrella upgrades cost seconds each on a real project (and their versions are many): only
    // the best ranked run. A count, not a clock, so the same PR always gets the same pool.
    let mut umbrellas = 0;
    pool.retain(|c| {
        if !is_umbrella(catalog, &c.name) {
            return true;
        }
        umbrellas += 1;
        umbrellas <= MAX_UMBRELLAS
    });
    pool.truncate(limit);
    pool
}

/// A composite with more recipes than this, counted recursively, is an umbrella upgrade
/// (`UpgradeSpringBoot_3_1` has about 2,900, `UpgradeToJava17` about 370; `JUnit4to5Migration` about 200).
const UMBRELLA_SIZE: usize = 300;
/// Umbrella upgrades in the pool, at most.
const MAX_UMBRELLAS: usize = 3;

/// Whether a recipe is an umbrella upgrade: seconds per run on a real project.
pub(crate) fn is_umbrella(catalog: &Catalog, name: &str) -> bool {
    size(catalog, name, 0) > UMBRELLA_SIZE
}

/// Recipes a recipe runs, counted recursively (depth-bounded against cycles), up to a little
/// more than [`UMBRELLA_SIZE`].
pub(crate) fn size(catalog: &Catalog, name: &str, depth: usize) -> usize {
    let Some(recipe) = catalog.get(name) else { return 1 };
    if depth > 8 {
        return 1;
    }
    let mut total = 1;
    for member in &recipe.members {
        total += size(catalog, member, depth + 1);
        if total > UMBRELLA_SIZE {
            break;
        }
    }
    total
}

/// The searches: each intent's phrasings (groups and atomics alike), then the lines no intent
/// explains, one search per line.
fn searches(tree: &IntentTree) -> Vec<(Vec<String>, String)> {
    fn walk(intents: &[Intent], out: &mut Vec<(Vec<String>, String)>) {
        for intent in intents {
            let queries: Vec<String> = wide::phrasings(intent).into_iter().map(|q| cut(&q)).collect();
            out.push((queries, format!("intent {} ({})", intent.id, intent.title)));
            walk(&intent.children, out);
        }
    }
    let mut out = Vec::new();
    walk(&tree.intents, &mut out);
    let mut seen: Vec<&str> = Vec::new();
    for line in &tree.unexplained {
        let content = line.content.trim();
        if content.len() < 4 || seen.contains(&content) || seen.len() >= MAX_UNEXPLAINED_QUERIES {
            continue;
        }
        seen.push(content);
        out.push((vec![cut(content)], format!("unexplained line `{}`", cut(content))));
    }
    out
}

fn cut(text: &str) -> String {
    text.chars().take(MAX_QUERY_CHARS).collect()
}

/// Who is related to whom in the catalog, indexed once per pool (each hit looks up its relatives).
struct Relatives<'a> {
    /// Names by their form without digits, in catalog order.
    by_unversioned: HashMap<String, Vec<&'a str>>,
    /// Names of nested recipe classes by their outer class (`…NoGuavaRefasterRecipes`).
    by_outer: HashMap<&'a str, Vec<&'a str>>,
}

impl<'a> Relatives<'a> {
    fn of(catalog: &'a Catalog) -> Relatives<'a> {
        let mut by_unversioned: HashMap<String, Vec<&'a str>> = HashMap::new();
        let mut by_outer: HashMap<&'a str, Vec<&'a str>> = HashMap::new();
        for recipe in catalog.recipes() {
            by_unversioned.entry(without_digits(&recipe.name)).or_default().push(&recipe.name);
            if let Some((outer, _)) = recipe.name.split_once('$') {
                by_outer.entry(outer).or_default().push(&recipe.name);
            }
        }
        Relatives { by_unversioned, by_outer }
    }

    /// The recipes of the same `$` family (nested recipe classes of one outer class), the other
    /// versions of a versioned recipe (`SpringBootProperties_2_0` for `SpringBootProperties_2_7`: a
    /// search ranks the version its words match, the PR may need another) and a composite's direct
    /// members.
    fn of_recipe(&self, catalog: &Catalog, name: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let unversioned = without_digits(name);
        if unversioned.len() < name.len() {
            let versions = self.by_unversioned.get(&unversioned).into_iter().flatten();
            out.extend(versions.filter(|n| **n != name).map(|n| n.to_string()));
        }
        if let Some((outer, _)) = name.split_once('$') {
            let family = self.by_outer.get(outer).into_iter().flatten();
            out.extend(family.filter(|n| **n != name).take(MAX_FAMILY).map(|n| n.to_string()));
        }
        if let Some(recipe) = catalog.get(name) {
            out.extend(recipe.members.iter().cloned());
        }
        out.sort();
        out.dedup();
        out
    }
}

fn without_digits(name: &str) -> String {
    name.chars().filter(|c| !c.is_ascii_digit()).collect()
}

/// Whether a recipe can run on its own and could change the PR's files.
fn runnable(catalog: &Catalog, name: &str, changed_files: &[String]) -> bool {
    let Some(recipe) = catalog.get(name) else { return false };
    !recipe.options.iter().any(|o| o.required)
        && wide::search_recipe_within(catalog, name, 0).is_none()
        && wide::foreign_language(name, changed_files).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::ChangeKind;
    use crate::model::ChangeLine;

    fn tree_with_unexplained(lines: &[&str]) -> IntentTree {
        IntentTree {
            unexplained: lines
                .iter()
                .map(|l| ChangeLine {
                    path: "src/A.java".into(),
                    kind: ChangeKind::Added,
                    line: 1,
                    content: l.to_string(),
                })
                .collect(),
            ..IntentTree::default()
        }
    }

    #[test]
    fn lines_no_intent_explains_find_the_refaster_rule_and_its_family() {
        let catalog = Catalog::enriched();
        let tree = tree_with_unexplained(&["        Objects.requireNonNull(connectorName);"]);
        let pool = build(&tree, &["src/A.java".into()], catalog, 200);
        let names: Vec<&str> = pool.iter().map(|c| c.name.as_str()).collect();
        assert!(
            names.iter().any(|n| n.contains("PreconditionsCheckNotNullToObjectsRequireNonNull")),
            "{names:?}"
        );
        assert!(pool.len() <= 200);
        assert!(pool.windows(2).all(|w| w[0].score >= w[1].score), "ranked");
    }

    #[test]
    fn only_the_best_ranked_umbrella_upgrades_join_the_pool() {
        let catalog = Catalog::enriched();
        assert!(size(catalog, "org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_1", 0) > UMBRELLA_SIZE);
        assert!(size(catalog, "org.openrewrite.java.testing.junit5.JUnit4to5Migration", 0) < UMBRELLA_SIZE);
        let tree =
            tree_with_unexplained(&["<version>3.1.1</version>", "upgrade spring boot 3.1", "spring boot 3"]);
        let pool = build(&tree, &["pom.xml".into()], catalog, 200);
        let umbrellas = pool.iter().filter(|c| is_umbrella(catalog, &c.name)).count();
        assert!((1..=MAX_UMBRELLAS).contains(&umbrellas), "{pool:?}");
    }

    #[test]
    fn the_pool_is_bounded_and_keeps_only_runnable_recipes() {
        let catalog = Catalog::enriched();
        let tree =
            tree_with_unexplained(&["import org.junit.jupiter.api.Test;", "@RunWith(SpringRunner.class)"]);
        let pool = build(&tree, &["src/test/java/ATest.java".into()], catalog, 5);
        assert_eq!(pool.len(), 5);
        for candidate in &pool {
            let recipe = catalog.get(&candidate.name).unwrap();
            assert!(!recipe.options.iter().any(|o| o.required), "{}", recipe.name);
            assert!(!candidate.name.contains(".search."), "{}", recipe.name);
        }
    }
}
