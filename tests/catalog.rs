//! `rewrite-assist catalog`, end to end through the real binary.

mod common;
#[path = "common/schemas.rs"]
mod schemas;

use common::{bin, json_stdout};
use rewrite_assist::catalog::{Catalog, ModuleText, Snapshot};

#[test]
fn search_json_fuses_phrasings_and_has_the_documented_fields() {
    let output = bin()
        .args(["catalog", "search", "--json", "--limit", "3", "javax to jakarta", "jakarta ee 9 namespace"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json = json_stdout(&output);
    schemas::assert_output("catalog-search", &String::from_utf8_lossy(&output.stdout));
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    let top = &results[0];
    assert_eq!(top["name"], "org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta");
    assert_eq!(top["displayName"], "Migrate to Jakarta EE 9");
    assert_eq!(top["licence"], "Moderne Source Available License");
    assert!(top["artifact"].as_str().unwrap().starts_with("org.openrewrite.recipe:rewrite-migrate-java:"));
    assert!(top["description"].as_str().unwrap().contains("jakarta"));
    // Found by both phrasings: more than a first place in one list (1/61) can give.
    assert!(top["score"].as_f64().unwrap() > 1.0 / 61.0, "{top}");
}

#[test]
fn search_text_is_a_short_table_and_min_score_filters() {
    let output = bin().args(["catalog", "search", "upgrade java 17", "--limit", "3"]).output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.contains("org.openrewrite.java.migrate.UpgradeToJava17"), "{text}");
    assert!(
        text.lines()
            .all(|l| l.ends_with(", Apache-2.0]") || l.ends_with(", Moderne Source Available License]")),
        "each result names its licence: {text}"
    );

    let output = bin().args(["catalog", "search", "upgrade java 17", "--min-score", "0.5"]).output().unwrap();
    assert!(output.status.success());
    assert_eq!(String::from_utf8(output.stdout).unwrap(), "no recipe matches\n");
}

#[test]
fn show_json_is_the_full_descriptor() {
    let output =
        bin().args(["catalog", "show", "org.openrewrite.java.ChangePackage", "--json"]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let recipe = json_stdout(&output);
    schemas::assert_output("catalog-recipe", &String::from_utf8_lossy(&output.stdout));
    assert_eq!(recipe["name"], "org.openrewrite.java.ChangePackage");
    assert_eq!(recipe["artifact"], serde_json::Value::Null, "core recipes are bundled");
    assert_eq!(recipe["bundled"], true);
    let coordinates = recipe["coordinates"].as_str().unwrap();
    assert!(coordinates.starts_with("org.openrewrite:rewrite-java:8."), "{coordinates}");
    assert_eq!(recipe["module"], "rewrite-java");
    assert_eq!(recipe["licence"], "Apache-2.0");
    let options: Vec<(&str, bool)> = recipe["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["name"].as_str().unwrap(), o["required"].as_bool().unwrap()))
        .collect();
    assert_eq!(options, [("oldPackageName", true), ("newPackageName", true), ("recursive", false)]);
    assert_eq!(recipe["options"][0]["type"], "String");
}

#[test]
fn show_text_lists_options_and_members() {
    let output = bin()
        .args(["catalog", "show", "org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("licence: Moderne Source Available License"), "{text}");
    assert!(text.contains("options: none"), "{text}");
    assert!(
        text.contains("    org.openrewrite.java.migrate.jakarta.JavaxPersistenceToJakartaPersistence\n"),
        "{text}"
    );
}

#[test]
fn unknown_recipe_is_bad_input_with_close_names() {
    let output = bin().args(["catalog", "show", "org.openrewrite.java.ChangePackages"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: unknown recipe `org.openrewrite.java.ChangePackages`; did you mean "));
    assert!(stderr.contains("org.openrewrite.java.ChangePackage"), "{stderr}");
}

#[test]
fn empty_queries_and_bad_limits_are_bad_input() {
    let output = bin().args(["catalog", "search", "  ", "at a.B.c(B.java:1)"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("query is empty"));
    let output = bin().args(["catalog", "search", "x", "--limit", "0"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn refresh_without_maven_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let output = bin()
        .args(["catalog", "refresh", "--mvn", "/nonexistent/mvn", "--out"])
        .arg(dir.path().join("recipes.json.gz"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("the catalog generator needs Maven and a JDK 17+"), "{stderr}");
}

/// Where the MSAL modules' text cannot be read (here: no Maven, and an empty cache), search still
/// works on the embedded catalog, with one warning line, and the results name their licence.
#[test]
fn without_maven_search_uses_the_embedded_catalog_and_warns_once() {
    let cache = tempfile::tempdir().unwrap();
    let output = bin()
        .args(["catalog", "search", "--json", "--limit", "5", "javax to jakarta"])
        .env("XDG_CACHE_HOME", cache.path())
        .env("REWRITE_ASSIST_MVN", "/nonexistent/mvn")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("WARN")).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(
        warnings[0].contains("lacks the descriptions of the Moderne Source Available modules"),
        "{stderr}"
    );
    let json = json_stdout(&output);
    let results = json["results"].as_array().unwrap();
    assert!(
        results.iter().any(|r| r["name"] == "org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta")
    );
    for r in results {
        let msal = r["licence"] == "Moderne Source Available License";
        assert!(msal || r["licence"] == "Apache-2.0", "{r}");
        assert_eq!(r["description"].as_str().unwrap().is_empty(), msal, "{r}");
    }
}

/// The real thing: Maven resolves the pinned modules, OpenRewrite lists their recipes (about 20 s
/// each with a warm local repository). `catalog refresh` writes what ships, equal to the committed
/// snapshot (so this also fails when versions.rs changed without a refresh), and the whole catalog
/// into the cache; a first search on an empty cache reads the jars itself and caches exactly the
/// same catalog, which later runs use without Maven.
#[test]
fn refresh_and_first_use_read_the_same_text_from_the_real_jars() {
    let dir = tempfile::tempdir().unwrap();
    let (refreshed, first_use) = (dir.path().join("refreshed"), dir.path().join("first-use"));
    let out = dir.path().join("nested/recipes.json.gz");
    let output = bin()
        .args(["catalog", "refresh", "--out"])
        .arg(&out)
        .env("XDG_CACHE_HOME", &refreshed)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let summary = String::from_utf8(output.stdout).unwrap();
    assert!(summary.contains("rewrite-spring"), "{summary}");
    assert!(summary.contains("Moderne Source Available License (names only)"), "{summary}");

    let fresh = Snapshot::decode(&std::fs::read(&out).unwrap()).unwrap();
    let embedded = Catalog::embedded().snapshot();
    assert_eq!(fresh.modules, embedded.modules);
    assert_eq!(fresh.excluded, embedded.excluded);
    let names = |s: &Snapshot| s.recipes.iter().map(|r| r.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&fresh), names(embedded));
    for (a, b) in fresh.recipes.iter().zip(&embedded.recipes) {
        let options = |r: &rewrite_assist::model::RecipeDescriptor| {
            let mut o: Vec<String> = r.options.iter().map(|o| o.name.clone()).collect();
            o.sort();
            o
        };
        assert_eq!(options(a), options(b), "{}", a.name);
        assert_eq!(
            (&a.artifact, &a.licence, &a.members, &a.description),
            (&b.artifact, &b.licence, &b.members, &b.description),
            "{}",
            a.name
        );
    }

    let output = bin()
        .args(["catalog", "search", "--json", "--limit", "1", "javax to jakarta"])
        .env("XDG_CACHE_HOME", &first_use)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("reading the recipe descriptions") && !stderr.contains("WARN"), "{stderr}");
    let cached = |root: &std::path::Path| {
        let dir = root.join("rewrite-assist/catalog");
        let files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(".json.gz"))
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        Snapshot::decode(&std::fs::read(&files[0]).unwrap()).unwrap()
    };
    let (by_refresh, by_first_use) = (cached(&refreshed), cached(&first_use));
    assert!(by_refresh.modules.iter().all(|m| m.text == ModuleText::Full));
    assert!(by_refresh == by_first_use, "first use read other text than catalog refresh");

    // Later runs read the cache: no Maven needed, and the MSAL text is there.
    let output = bin()
        .args(["catalog", "show", "org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta"])
        .env("XDG_CACHE_HOME", &first_use)
        .env("REWRITE_ASSIST_MVN", "/nonexistent/mvn")
        .output()
        .unwrap();
    assert!(
        output.status.success() && output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("  Migrate to Jakarta EE 9\n"), "{text}");
}
