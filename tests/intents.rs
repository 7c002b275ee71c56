//! `rewrite-assist intents`, end to end through the real binary on real git repositories.

mod common;
#[path = "common/schemas.rs"]
mod schemas;

use std::path::Path;

use common::{bin, json_stdout};
use rewrite_assist::fixtures::RepoBuilder;
use serde_json::Value;

const POM: &str = r#"<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>shop</artifactId>
  <version>1.0.0</version>
  <properties>
    <java.version>11</java.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>javax.validation</groupId>
      <artifactId>validation-api</artifactId>
      <version>2.0.1.Final</version>
    </dependency>
    <dependency>
      <groupId>junit</groupId>
      <artifactId>junit</artifactId>
      <version>4.13.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
"#;

const ORDER: &str = "package com.acme.shop;

import javax.validation.constraints.NotNull;

public class Order {
    @NotNull
    private String id;
}
";

const ORDER_TEST: &str = "package com.acme.shop;

import org.junit.Before;
import org.junit.Test;

public class OrderTest {
    @Before
    public void setUp() {}

    @Test
    public void works() {}
}
";

const CI: &str = "name: CI\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-java@v4\n        with:\n          distribution: temurin\n          java-version: '11'\n";

/// A repository whose `head` tag is a PR on top of `base`: javax -> jakarta, JUnit 4 -> 5,
/// Java 11 -> 17, a CRLF properties file, a binary file and a moved file.
fn migration_repo(dir: &Path) -> RepoBuilder {
    let repo = RepoBuilder::init(dir).unwrap();
    repo.write("pom.xml", POM).unwrap();
    repo.write("src/main/java/com/acme/shop/Order.java", ORDER).unwrap();
    repo.write("src/test/java/com/acme/shop/OrderTest.java", ORDER_TEST).unwrap();
    repo.write(".github/workflows/ci.yml", CI).unwrap();
    repo.write("Dockerfile", "FROM eclipse-temurin:11-jre\nCOPY target/shop.jar /shop.jar\n").unwrap();
    repo.write(
        "src/main/resources/application.properties",
        "server.port=8080\r\nspring.datasource.initialization-mode=always\r\n",
    )
    .unwrap();
    repo.write("docs/logo.png", [0x89u8, b'P', b'N', b'G', 0, 1, 2, 3]).unwrap();
    repo.write(
        "docs/guide.md",
        "# Guide\n\nA long enough guide so that git sees a rename.\nLine four.\nLine five.\n",
    )
    .unwrap();
    repo.commit("base").unwrap();
    repo.tag("base").unwrap();

    let pom = POM
        .replace("<java.version>11<", "<java.version>17<")
        .replace("<groupId>javax.validation</groupId>", "<groupId>jakarta.validation</groupId>")
        .replace("<artifactId>validation-api</artifactId>", "<artifactId>jakarta.validation-api</artifactId>")
        .replace("2.0.1.Final", "3.0.2")
        .replace("<groupId>junit</groupId>", "<groupId>org.junit.jupiter</groupId>")
        .replace("<artifactId>junit</artifactId>", "<artifactId>junit-jupiter</artifactId>")
        .replace("4.13.2", "5.10.1");
    repo.write("pom.xml", pom).unwrap();
    repo.write("src/main/java/com/acme/shop/Order.java", ORDER.replace("javax.", "jakarta.")).unwrap();
    let test = ORDER_TEST
        .replace("import org.junit.Before;", "import org.junit.jupiter.api.BeforeEach;")
        .replace("import org.junit.Test;", "import org.junit.jupiter.api.Test;")
        .replace("@Before\n", "@BeforeEach\n");
    repo.write("src/test/java/com/acme/shop/OrderTest.java", test).unwrap();
    repo.write(".github/workflows/ci.yml", CI.replace("'11'", "'17'")).unwrap();
    repo.write("Dockerfile", "FROM eclipse-temurin:17-jre\nCOPY target/shop.jar /shop.jar\n").unwrap();
    repo.write(
        "src/main/resources/application.properties",
        "server.port=8080\r\nspring.sql.init.mode=always\r\n",
    )
    .unwrap();
    repo.write("docs/logo.png", [0x89u8, b'P', b'N', b'G', 0, 9, 9, 9]).unwrap();
    repo.remove("docs/guide.md").unwrap();
    repo.write(
        "docs/manual.md",
        "# Guide\n\nA long enough guide so that git sees a rename.\nLine four.\nLine five.\n",
    )
    .unwrap();
    repo.commit("migrate").unwrap();
    repo.tag("head").unwrap();
    repo
}

fn intents_json(repo: &Path) -> Value {
    let output = bin()
        .args(["intents", "--format", "json", "--base", "base", "--head", "head", "--repo"])
        .arg(repo)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    schemas::assert_output("intent-tree", &String::from_utf8_lossy(&output.stdout));
    json_stdout(&output)
}

/// All atomic intents of a tree, depth first.
fn atomics(tree: &Value) -> Vec<Value> {
    fn walk(node: &Value, out: &mut Vec<Value>) {
        if node["level"] == "atomic" {
            out.push(node.clone());
        }
        for child in node["children"].as_array().into_iter().flatten() {
            walk(child, out);
        }
    }
    let mut out = Vec::new();
    for node in tree["intents"].as_array().unwrap() {
        walk(node, &mut out);
    }
    out
}

fn find<'a>(atomics: &'a [Value], kind: &str) -> Vec<&'a Value> {
    atomics.iter().filter(|a| a["kind"] == kind).collect()
}

#[test]
fn work_tree_migration_pr() {
    let dir = tempfile::tempdir().unwrap();
    let repo = migration_repo(&dir.path().join("shop"));
    let tree = intents_json(repo.path());

    assert_eq!(tree["coverage"], 1.0, "{tree:#}");
    assert_eq!(tree["unexplained"], serde_json::json!([]));
    assert_eq!(tree["binary_files"], serde_json::json!(["docs/logo.png"]));
    let strategic: Vec<&str> = tree["intents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["level"] == "strategic")
        .map(|i| i["kind"].as_str().unwrap())
        .collect();
    assert_eq!(strategic, vec!["upgrade_java", "migrate_javax_to_jakarta", "migrate_junit4_to_junit5"]);
    assert_eq!(tree["intents"][0]["title"], "Upgrade Java 11 -> 17");
    assert_eq!(tree["intents"][0]["id"], "1");
    assert_eq!(tree["intents"][0]["children"][0]["id"], "1.1");

    let all = atomics(&tree);
    let moves = find(&all, "java.package_move");
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0]["params"]["old_package"], "javax.validation.constraints");
    assert_eq!(moves[0]["params"]["new_package"], "jakarta.validation.constraints");
    assert_eq!(moves[0]["params"]["file"], "src/main/java/com/acme/shop/Order.java");

    let annotation = find(&all, "java.annotation_change");
    assert_eq!(annotation[0]["params"]["old_annotation"], "org.junit.Before");
    assert_eq!(annotation[0]["params"]["new_annotation"], "org.junit.jupiter.api.BeforeEach");
    assert_eq!(find(&all, "java.type_rename")[0]["params"]["new_type"], "org.junit.jupiter.api.Test");

    let swaps = find(&all, "maven.dependency_swap");
    let pairs: Vec<(&str, &str)> = swaps
        .iter()
        .map(|s| {
            (
                s["params"]["old_artifact_id"].as_str().unwrap(),
                s["params"]["new_artifact_id"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(pairs, vec![("validation-api", "jakarta.validation-api"), ("junit", "junit-jupiter")]);

    let property = find(&all, "maven.property_change");
    assert_eq!(property[0]["params"]["key"], "java.version");
    assert_eq!(property[0]["params"]["new_value"], "17");
    assert_eq!(find(&all, "github_actions.setup_java")[0]["params"]["new_version"], "17");
    assert_eq!(find(&all, "docker.from_change")[0]["params"]["new_tag"], "17-jre");

    let rename = find(&all, "properties.key_rename");
    assert_eq!(rename[0]["params"]["old_key"], "spring.datasource.initialization-mode");
    assert_eq!(rename[0]["params"]["new_key"], "spring.sql.init.mode");
    assert_eq!(rename[0]["evidence"].as_array().unwrap().len(), 2);
    // The evidence is the diff's lines, CR stripped like the metric does.
    assert_eq!(rename[0]["evidence"][0]["content"], "spring.datasource.initialization-mode=always");

    let moved = find(&all, "file.renamed");
    assert_eq!(moved[0]["params"]["new_file"], "docs/manual.md");
}

#[test]
fn bare_repository_gives_the_same_tree() {
    let dir = tempfile::tempdir().unwrap();
    let repo = migration_repo(&dir.path().join("shop"));
    let bare = repo.bare_clone().unwrap();
    assert_eq!(intents_json(&bare), intents_json(repo.path()));
}

#[test]
fn out_dir_gets_both_artifacts_and_stdout_the_chosen_format() {
    let dir = tempfile::tempdir().unwrap();
    let repo = migration_repo(&dir.path().join("shop"));
    let out = dir.path().join("run");
    let output = bin()
        .args(["intents", "--base", "base", "--head", "head", "--repo"])
        .arg(repo.path())
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.starts_with("# Intent tree\n"), "{stdout}");
    assert!(stdout.contains("**1 Upgrade Java 11 -> 17**"), "{stdout}");
    assert_eq!(std::fs::read_to_string(out.join("intent-tree.md")).unwrap(), stdout);
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("intent-tree.json")).unwrap()).unwrap();
    assert_eq!(json, intents_json(repo.path()));
}

#[test]
fn same_pr_gives_byte_identical_json() {
    let dir = tempfile::tempdir().unwrap();
    let repo = migration_repo(&dir.path().join("shop"));
    let run = || {
        bin()
            .args(["intents", "--format", "json", "--base", "base", "--head", "head", "--repo"])
            .arg(repo.path())
            .output()
            .unwrap()
            .stdout
    };
    assert_eq!(run(), run());
    // `--json`, as every other command spells it, prints the same bytes; with `--format` it is a
    // usage error.
    let json = bin()
        .args(["intents", "--json", "--base", "base", "--head", "head", "--repo"])
        .arg(repo.path())
        .output()
        .unwrap();
    assert_eq!(json.stdout, run());
    let both = bin()
        .args(["intents", "--json", "--format", "md", "--base", "base", "--head", "head", "--repo"])
        .arg(repo.path())
        .output()
        .unwrap();
    assert_eq!(both.status.code(), Some(2), "{}", String::from_utf8_lossy(&both.stderr));
}

#[test]
fn bad_repository_and_unknown_ref_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let output =
        bin().args(["intents", "--base", "a", "--head", "b", "--repo"]).arg(dir.path()).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("not a git repository"), "{stderr}");

    let repo = migration_repo(&dir.path().join("shop"));
    let output = bin()
        .args(["intents", "--base", "base", "--head", "no-such-ref", "--repo"])
        .arg(repo.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("unknown ref `no-such-ref`"), "{stderr}");
}
