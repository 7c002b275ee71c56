//! Recipes the catalog does not have, learned from the PR (#39). A Hamcrest → AssertJ PR whose
//! author writes AssertJ their own way (`Assertions.assertThat(x).isEqualTo(y)`, the class
//! imported, where the catalog's recipe writes a static import): the catalog's lines are not the
//! author's, so the synthesized option writes them as plain text. The same edit made four times,
//! with other expressions and other types, becomes one Refaster template with two typed
//! parameters; option 3 runs it as a *learned* step and its lines count as semantic. The jar then
//! runs in rewrite-maven-plugin on another project, by its coordinates alone.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::json_stdout;

const POM: &str = "pom.xml";
const CART: &str = "src/main/java/com/acme/cart/Cart.java";
const CART_TEST: &str = "src/test/java/com/acme/cart/CartTest.java";
const TOTAL_TEST: &str = "src/test/java/com/acme/cart/TotalTest.java";

fn text(side: &str, path: &str) -> String {
    let file = common::fixture(&format!("learned_templates/{side}/{path}"));
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

#[test]
fn a_repeated_edit_becomes_a_learned_recipe_that_runs_in_the_maven_plugin() {
    let dir = tempfile::tempdir().unwrap();
    let base: Vec<(&str, String)> =
        [POM, CART, CART_TEST, TOTAL_TEST].into_iter().map(|p| (p, text("before", p))).collect();
    let head: Vec<(&str, String)> =
        [CART_TEST, TOTAL_TEST].into_iter().map(|p| (p, text("after", p))).collect();
    let base_refs: Vec<(&str, &str)> = base.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let head_refs: Vec<(&str, &str)> = head.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let repo = common::pr_repo(&dir.path().join("repo"), &base_refs, &head_refs);
    let out = dir.path().join("out");
    let output = common::analyze_embedded(repo.path(), &out).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let summary = json_stdout(&output);

    // One template, two typed parameters, learned from the four edits.
    let learned: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("learned/learned.json")).unwrap()).unwrap();
    let templates = learned["templates"].as_array().unwrap();
    assert_eq!(templates.len(), 1, "{learned:#}");
    assert_eq!(templates[0]["parameters"].as_array().unwrap().len(), 2, "{learned:#}");
    assert_eq!(templates[0]["occurrences"].as_array().unwrap().len(), 4, "{learned:#}");
    let source =
        std::fs::read_to_string(out.join("learned/src/rewriteassist/learned/LearnedTemplates.java")).unwrap();
    assert!(source.contains("@BeforeTemplate") && source.contains("@AfterTemplate"), "{source}");
    let jar = out.join(format!("learned/{}", learned["jar"].as_str().unwrap()));
    let pom = out.join(format!("learned/{}", learned["pom"].as_str().unwrap()));
    assert!(jar.is_file() && pom.is_file(), "{learned:#}");
    assert!(
        std::fs::read_to_string(out.join("learned/README.md")).unwrap().contains("recipeArtifactCoordinates")
    );

    // Option 3 runs it as a learned step, and the lines it writes count as learned.
    let option_3 = summary["options"].as_array().unwrap().iter().find(|o| o["option"] == 3).unwrap();
    assert!(option_3["learned_share"].as_f64().unwrap() > 0.0, "{option_3:#}");
    let recommended = &summary["recommended"];
    assert_eq!(recommended["option"], 3, "{summary:#}");
    let (semantic, catalog, learned_share) = (
        recommended["semantic_share"].as_f64().unwrap(),
        recommended["catalog_share"].as_f64().unwrap(),
        recommended["learned_share"].as_f64().unwrap(),
    );
    assert!(learned_share > 0.0, "{recommended:#}");
    assert!((semantic - catalog - learned_share).abs() < 1e-3, "{recommended:#}");
    let yaml = std::fs::read_to_string(out.join("option-3-recipe.yaml")).unwrap();
    assert!(yaml.contains("rewriteassist.learned.LearnedTemplatesRecipes"), "{yaml}");
    // The reusable recipe carries it too: a learned step is semantic, not pinned to this repository.
    let reusable = std::fs::read_to_string(out.join("result/reusable-recipe.yaml")).unwrap();
    assert!(reusable.contains("rewriteassist.learned.LearnedTemplatesRecipes"), "{reusable}");

    let next = next_project(&dir.path().join("next"));
    apply_runs_it(dir.path(), &out, &next);
    let coordinates = learned["coordinates"].as_str().unwrap();
    assert!(coordinates.starts_with("rewriteassist.learned:learned-recipes:1.0.0-"), "{learned:#}");
    plugin_runs_the_jar(&next, (&jar, &pom, coordinates), learned["recipe"].as_str().unwrap());
}

/// The next repository: a Hamcrest assertion the PR never saw, and one the template does not fit.
fn next_project(next: &Path) -> PathBuf {
    let repo = rewrite_assist::fixtures::RepoBuilder::init(next).unwrap();
    repo.write(
        POM,
        text("before", POM).replace("<artifactId>cart</artifactId>", "<artifactId>shop</artifactId>"),
    )
    .unwrap();
    repo.write(
        "src/test/java/com/acme/shop/PriceTest.java",
        "package com.acme.shop;\n\nimport static org.hamcrest.MatcherAssert.assertThat;\nimport static org.hamcrest.Matchers.is;\nimport static org.hamcrest.Matchers.not;\n\nimport org.junit.Test;\n\npublic class PriceTest {\n    @Test\n    public void rounds() {\n        long cents = Math.round(2.5 * 100);\n        assertThat(cents, is(250L));\n        assertThat(\"eur\", not(\"usd\"));\n    }\n}\n",
    )
    .unwrap();
    repo.commit("shop").unwrap();
    next.to_path_buf()
}

/// `apply --recipe <analyze output>` (a dry run, embedded runner) loads the learned jar: the
/// reusable recipe rewrites the next repository's assertion.
fn apply_runs_it(dir: &Path, analyzed: &Path, next: &Path) {
    // The embedded runner loads the jar from the analyze's directory; the plugin, once `apply` has
    // installed it into the local repository, by its coordinates.
    for backend in ["embedded", "plugin"] {
        if backend == "plugin" {
            // Not left there by an earlier test run: `apply` must install it.
            let installed =
                PathBuf::from(std::env::var_os("HOME").unwrap()).join(".m2/repository/rewriteassist/learned");
            let _ = std::fs::remove_dir_all(installed);
        }
        let (diff, log) = common::apply_on_served(dir, analyzed, next, "shop", backend);
        assert!(
            diff.contains("+        Assertions.assertThat(cents).isEqualTo(250L);"),
            "{backend}: {diff}\n{log}"
        );
        assert!(!diff.contains("-        assertThat(\"eur\", not(\"usd\"));"), "{backend}: {diff}");
    }
}

/// The jar, installed in the local repository, runs in `rewrite-maven-plugin:dryRunNoFork` (`dryRun` without the build it forks) on another
/// project by its coordinates: the unseen assertion there is rewritten, the other code is not.
fn plugin_runs_the_jar(next: &Path, (jar, pom, coordinates): (&Path, &Path, &str), recipe: &str) {
    let install = Command::new("mvn")
        .args(["-B", "-q", "install:install-file"])
        .arg(format!("-Dfile={}", jar.display()))
        .arg(format!("-DpomFile={}", pom.display()))
        .output()
        .unwrap();
    assert!(install.status.success(), "{}", String::from_utf8_lossy(&install.stdout));
    let version = rewrite_assist::openrewrite::versions::Versions::default().maven_plugin;
    let dry_run = Command::new("mvn")
        .current_dir(next)
        .args(["-B", "--no-transfer-progress"])
        .arg(format!("org.openrewrite.maven:rewrite-maven-plugin:{version}:dryRunNoFork"))
        .arg(format!("-Drewrite.recipeArtifactCoordinates={coordinates}"))
        .arg(format!("-Drewrite.activeRecipes={recipe}"))
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&dry_run.stdout);
    assert!(dry_run.status.success(), "{log}");
    let patch = std::fs::read_to_string(next.join("target/rewrite/rewrite.patch"))
        .unwrap_or_else(|e| panic!("no patch ({e}):\n{log}"));
    assert!(patch.contains("-        assertThat(cents, is(250L));"), "{patch}");
    assert!(patch.contains("+        Assertions.assertThat(cents).isEqualTo(250L);"), "{patch}");
    assert!(!patch.contains("-        assertThat(\"eur\", not(\"usd\"));"), "{patch}");
}
