//! Recipe discovery through the real binary and the embedded runner on OpenRewrite's own recipes:
//! a PR one catalog composite explains ends with that composite alone; a composite that
//! over-applies is split and only its right sub-recipe is kept; a hand-made edit no recipe explains
//! stays one plain-text step, named as such.

mod common;

use std::path::Path;

use common::json_stdout;
use rewrite_assist::fixtures::RepoBuilder;

const POM: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>shop</artifactId>
  <version>1.0</version>
</project>
"#;

const PROPERTIES: &str = "src/main/resources/application.properties";

/// A Maven project's PR: `main` has the POM and `base`, `migration` has `head`.
fn repo(dir: &Path, base: &[(&str, &str)], head: &[(&str, &str)]) -> RepoBuilder {
    let mut files = vec![("pom.xml", POM)];
    files.extend_from_slice(base);
    common::pr_repo(dir, &files, head)
}

fn analyze(repo: &Path, out: &Path) -> serde_json::Value {
    let output = common::analyze_embedded(repo, out).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    json_stdout(&output)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The discovery phase's line in `audit.jsonl`.
fn discover_audit(out: &Path) -> serde_json::Value {
    read(&out.join("audit.jsonl"))
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|e| e["phase"] == "discover")
        .expect("a discover line in audit.jsonl")
}

#[test]
fn a_pr_one_catalog_composite_explains_ends_with_that_composite_and_no_text() {
    let dir = tempfile::tempdir().unwrap();
    let repo = repo(
        &dir.path().join("repo"),
        &[(PROPERTIES, "server.context-path=/api\nmanagement.port=8081\napp.greeting=hello\n")],
        &[(
            PROPERTIES,
            "server.servlet.context-path=/api\nmanagement.server.port=8081\napp.greeting=hello\n",
        )],
    );
    let out = dir.path().join("out");
    let summary = analyze(repo.path(), &out);
    assert_eq!(summary["recommended"]["f1"], 1.0, "{summary:#}");
    let recipe = read(&out.join("result/recommended-recipe.yaml"));
    let steps: Vec<&str> = recipe.lines().filter(|l| l.starts_with("  - ")).collect();
    assert_eq!(steps, vec!["  - org.openrewrite.java.spring.boot2.SpringBootProperties_2_0"], "{recipe}");
    assert!(!recipe.contains("org.openrewrite.text."), "{recipe}");

    let audit = discover_audit(&out);
    assert_eq!(audit["outcome"], "ok", "{audit}");
    assert!(audit["detail"].as_str().unwrap().contains("1 chosen (4 PR lines)"), "{audit}");
    assert!(audit["outputs"].as_array().unwrap().iter().any(|o| o == "discovery.json"), "{audit}");
    let analysis = read(&out.join("option-3-creation-analysis.md"));
    assert!(
        analysis.contains("`org.openrewrite.java.spring.boot2.SpringBootProperties_2_0` — Discovery ran it on its own: 4 true positives, 0 false positives"),
        "{analysis}"
    );
}

#[test]
fn an_over_applying_composite_is_split_and_a_hand_made_edit_stays_one_text_step() {
    let dir = tempfile::tempdir().unwrap();
    let repo = repo(
        &dir.path().join("repo"),
        &[
            (PROPERTIES, "server.context-path=/api\nmanagement.port=8081\n"),
            ("README.md", "# Shop\n\nRun it with mvn.\n"),
        ],
        &[
            (PROPERTIES, "server.servlet.context-path=/api\nmanagement.port=8081\n"),
            ("README.md", "# Shop\n\nRun it with ./mvnw.\n"),
        ],
    );
    let out = dir.path().join("out");
    let summary = analyze(repo.path(), &out);
    assert_eq!(summary["recommended"]["f1"], 1.0, "{summary:#}");

    // The composite renamed both keys (two false positives); its sub-recipe for the one key the PR
    // renames is chosen, with the composite's options.
    let discovery: serde_json::Value = serde_json::from_str(&read(&out.join("discovery.json"))).unwrap();
    let tried = discovery["tried"].as_array().unwrap();
    let composite = tried
        .iter()
        .find(|t| t["step"]["name"] == "org.openrewrite.java.spring.boot2.SpringBootProperties_2_0")
        .expect("the composite ran");
    assert_eq!(
        (composite["tp_lines"].as_array().unwrap().len(), composite["fp_lines"].as_array().unwrap().len()),
        (2, 2)
    );
    let chosen: Vec<&serde_json::Value> = discovery["chosen"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &tried[c["tried"].as_u64().unwrap() as usize])
        .collect();
    assert_eq!(chosen.len(), 1, "{discovery:#}");
    assert_eq!(chosen[0]["step"]["name"], "org.openrewrite.java.spring.ChangeSpringPropertyKey");
    assert_eq!(chosen[0]["step"]["options"]["oldPropertyKey"], "server.context-path");
    assert_eq!(chosen[0]["round"], 2);

    // Option 3: the sub-recipe, and one literal replacement for the README, said to be plain text.
    let recipe = read(&out.join("option-3-recipe.yaml"));
    assert!(recipe.contains("  - org.openrewrite.java.spring.ChangeSpringPropertyKey:"), "{recipe}");
    assert!(!recipe.contains("SpringBootProperties_2_0"), "{recipe}");
    assert_eq!(recipe.matches("  - org.openrewrite.text.").count(), 1, "{recipe}");
    assert!(recipe.contains("filePattern: \"README.md\""), "{recipe}");
    let analysis = read(&out.join("option-3-creation-analysis.md"));
    assert!(analysis.contains("2 recipes, 1 semantic, 1 plain-text."), "{analysis}");
    assert!(analysis.contains("*(plain text, non-semantic)*"), "{analysis}");
    assert!(analysis.contains("README.md"), "{analysis}");
    let md = read(&out.join("discovery.md"));
    assert!(
        md.contains("| `org.openrewrite.java.spring.boot2.SpringBootProperties_2_0` | 2 | 2 | 1 |"),
        "{md}"
    );
}

#[test]
fn another_types_static_method_in_place_is_reproduced_by_two_dependent_semantic_steps() {
    // `Checks.check(x)` -> `Guard.require(x)`: the call moves to another type and takes its name
    // there. The rename only finds its calls once the first step moved them, so only the whole
    // run shows its part. The PR leaves `Other.java` alone, so option 2 over-applies there and
    // refinement must scope both steps to `App.java`, not drop the rename as "changed nothing".
    let checks = "package com.acme.legacy;\n\npublic class Checks {\n    public static void check(Object o) {\n    }\n}\n";
    let guard = "package com.acme.guard;\n\npublic class Guard {\n    public static void require(Object o) {\n    }\n}\n";
    let app = |import: &str, call: &str| {
        format!(
            "package com.acme.app;\n\nimport {import};\n\nclass App {{\n    void run(Object o) {{\n        {call}(o);\n    }}\n}}\n"
        )
    };
    let (old_app, new_app) =
        (app("com.acme.legacy.Checks", "Checks.check"), app("com.acme.guard.Guard", "Guard.require"));
    let dir = tempfile::tempdir().unwrap();
    let repo = repo(
        &dir.path().join("repo"),
        &[
            ("src/main/java/com/acme/legacy/Checks.java", checks),
            ("src/main/java/com/acme/guard/Guard.java", guard),
            ("src/main/java/com/acme/app/App.java", &old_app),
            ("src/main/java/com/acme/app/Other.java", &old_app.replace("class App", "class Other")),
        ],
        &[("src/main/java/com/acme/app/App.java", &new_app)],
    );
    let out = dir.path().join("out");
    let summary = analyze(repo.path(), &out);
    assert_eq!(summary["recommended"]["f1"], 1.0, "{summary:#}");
    assert_eq!(summary["recommended"]["semantic_share"], 1.0, "{summary:#}");
    let recipe = read(&out.join("result/recommended-recipe.yaml"));
    assert!(!recipe.contains("org.openrewrite.text."), "{recipe}");
    let moved = recipe.find("org.openrewrite.java.ChangeMethodTargetToStatic").expect(&recipe);
    let renamed = recipe.find("org.openrewrite.java.ChangeMethodName").expect(&recipe);
    assert!(moved < renamed, "{recipe}");
    assert!(recipe.contains("methodPattern: \"com.acme.guard.Guard check(..)\""), "{recipe}");
}

#[test]
fn a_key_added_to_spring_configuration_is_one_spring_recipe_with_the_newline_it_needs() {
    // The file ends without a newline, so the PR's diff also shows the last line "changed" (a
    // newline added). The recipe that appends the key writes that newline itself; a text
    // replacement of the whole block after it would add the key a second time.
    let dir = tempfile::tempdir().unwrap();
    let repo = repo(
        &dir.path().join("repo"),
        &[(PROPERTIES, "app.greeting=hello\nspring.h2.console.enabled=true")],
        &[(
            PROPERTIES,
            "app.greeting=hello\nspring.h2.console.enabled=true\nspring.jpa.defer-datasource-initialization=true",
        )],
    );
    let out = dir.path().join("out");
    let summary = analyze(repo.path(), &out);
    assert_eq!(summary["recommended"]["f1"], 1.0, "{summary:#}");
    assert_eq!(summary["recommended"]["semantic_share"], 1.0, "{summary:#}");
    let recipe = read(&out.join("result/recommended-recipe.yaml"));
    assert!(recipe.contains("org.openrewrite.java.spring.AddSpringProperty"), "{recipe}");
    assert!(!recipe.contains("org.openrewrite.text."), "{recipe}");
    // Reusable as it is: the Spring recipe finds application.properties in any repository.
    let reusable = read(&out.join("result/reusable-recipe.yaml"));
    assert!(reusable.contains("property: \"spring.jpa.defer-datasource-initialization\""), "{reusable}");
    assert!(!reusable.contains("filePattern"), "{reusable}");
}
