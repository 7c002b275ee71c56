//! `learn` end to end: two PRs of one migration in two repositories, each doing a part of it. Each
//! PR alone gives a reusable recipe for its own part; learning from both gives the recipe that does
//! both parts, which neither PR gives, and it does best on both PRs.

mod common;
#[path = "common/schemas.rs"]
mod schemas;

use common::{bin, json_stdout, pr_repo};

const POM: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>shop</artifactId>
  <version>1.0</version>
</project>
"#;

const PROPERTIES: &str = "src/main/resources/application.properties";

#[test]
fn learning_from_two_prs_gives_a_recipe_neither_gives_alone() {
    let dir = tempfile::tempdir().unwrap();
    let a = pr_repo(
        &dir.path().join("cart"),
        &[("pom.xml", POM), (PROPERTIES, "acme.cache.host=localhost\nserver.port=8080\n")],
        &[(PROPERTIES, "acme.store.cache.host=localhost\nserver.port=8080\n")],
    );
    let b = pr_repo(
        &dir.path().join("billing"),
        &[("pom.xml", POM), (PROPERTIES, "acme.cache.port=6379\nserver.port=9090\n")],
        &[(PROPERTIES, "acme.store.cache.port=6379\nserver.port=9090\n")],
    );
    let out = dir.path().join("out");
    let output = bin()
        .args(["learn", "--json", "--backend", "embedded", "--max-rounds", "1", "--pr"])
        .arg(format!("{}@main..migration", a.path().display()))
        .arg("--pr")
        .arg(format!("{}@main..migration", b.path().display()))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    // A line per PR as it is analyzed, and where the results are, outside a terminal too.
    assert!(stderr.contains("learn: [1/2] ") && stderr.contains("learn: [2/2] "), "{stderr}");
    assert!(stderr.contains(&format!("rewrite-assist: artifacts: {}", out.display())), "{stderr}");
    let learned = json_stdout(&output);
    schemas::assert_output("learn", &String::from_utf8_lossy(&output.stdout));
    schemas::assert_documents(&out);
    assert_eq!(learned["chosen"], "union", "{learned:#}");
    let candidates = learned["candidates"].as_array().unwrap();
    let mean = |name: &str| {
        candidates.iter().find(|c| c["name"] == name).unwrap()["mean_migration_f1"].as_f64().unwrap()
    };
    assert_eq!(mean("union"), 1.0, "{learned:#}");
    assert!(mean("pr-1") < 1.0 && mean("pr-2") < 1.0, "{learned:#}");
    // The learned recipe renames both keys; each PR's own recipe renames one.
    let recipe = std::fs::read_to_string(out.join("result/reusable-recipe.yaml")).unwrap();
    assert!(recipe.contains("acme.cache.host") && recipe.contains("acme.cache.port"), "{recipe}");
    for own in ["pr-1", "pr-2"] {
        let mine = std::fs::read_to_string(out.join(own).join("result/reusable-recipe.yaml")).unwrap();
        assert!(!(mine.contains("acme.cache.host") && mine.contains("acme.cache.port")), "{mine}");
    }
    assert!(std::fs::read_to_string(out.join("learn.md")).unwrap().contains("**(chosen)**"));
}
