//! The plugin backend loads every name of a recipe list as a class, and loading a class runs its
//! static initialiser. A recipe that names a class that is not a recipe is refused before any
//! build starts, as the embedded runner refuses it before it loads it.

mod common;

use common::{json_stdout, pr_repo};

const POM: &str = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.acme</groupId>\n  <artifactId>app</artifactId>\n  <version>1.0</version>\n</project>\n";

#[test]
fn a_class_that_is_not_a_recipe_never_reaches_the_plugin() {
    let dir = tempfile::tempdir().unwrap();
    let repo = pr_repo(
        &dir.path().join("repo"),
        &[("pom.xml", POM), ("README.md", "old\n")],
        &[("README.md", "new\n")],
    );
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(
        &recipe,
        "type: specs.openrewrite.org/v1beta/recipe\nname: test.Mine\nrecipeList:\n  - org.openrewrite.text.FindAndReplace:\n      find: old\n      replace: new\n  - java.lang.Thread\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = common::validate_on_the_pr("plugin", &[], repo.path(), &recipe, &out).output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let stats = json_stdout(&output);
    assert_eq!(stats["error"]["kind"], "unknown_recipe", "{stats:#}");
    assert_eq!(stats["error"]["recipe"], "java.lang.Thread", "{stats:#}");
    // Refused before the build: no build ran, so none logged anything.
    assert!(!out.join("build.log").exists(), "a build ran");
    assert!(stats["build_tool"].is_null(), "{stats:#}");
}
