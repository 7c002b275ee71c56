//! Intent extraction on a synthetic 1,000-file migration PR (Java sources, POMs, Gradle scripts,
//! Spring config, workflows, Dockerfiles, docs) in a real git repository. Goal: under 1 s.
//! Run with `scripts/bench` (or `cargo bench --bench intents`).

use std::time::Instant;

use rewrite_assist::fixtures::RepoBuilder;
use rewrite_assist::setup::Repo;

const FILES: usize = 1_000;

/// Base and head content of file `i`; the mix follows what migration PRs touch.
fn file(i: usize) -> (String, String, String) {
    match i % 20 {
        0 => (format!("module{i}/pom.xml"), pom(i, "2.7.18", "11"), pom(i, "3.1.5", "17")),
        1 => (format!("module{i}/build.gradle"), gradle(i, "2.7.18", "11"), gradle(i, "3.1.5", "17")),
        2 => {
            let old = format!(
                "spring.datasource.url=jdbc:h2:mem:db{i}\nspring.datasource.initialization-mode=always\nserver.port=80{i:02}\n"
            );
            let new = old.replace("spring.datasource.initialization-mode", "spring.sql.init.mode");
            (format!("module{i}/src/main/resources/application.properties"), old, new)
        }
        3 => {
            let old = format!(
                "spring:\n  datasource:\n    url: jdbc:h2:mem:db{i}\n    initialization-mode: always\nserver:\n  port: '80{i:02}'\n"
            );
            let new =
                old.replace("    initialization-mode: always\n", "  sql:\n    init:\n      mode: always\n");
            (format!("module{i}/src/main/resources/application.yml"), old, new)
        }
        4 => {
            let old = format!(
                "name: ci{i}\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v3\n      - uses: actions/setup-java@v3\n        with:\n          distribution: temurin\n          java-version: '11'\n      - run: mvn -B verify\n"
            );
            let new = old.replace("'11'", "'17'").replace("@v3", "@v4");
            (format!(".github/workflows/ci{i}.yml"), old, new)
        }
        5 => {
            let old = format!(
                "FROM maven:3.9-eclipse-temurin-11 AS build\nRUN mvn -pl module{i} package\nFROM eclipse-temurin:11-jre\nCOPY --from=build /app.jar /app.jar\n"
            );
            (
                format!("docker/module{i}/Dockerfile"),
                old.clone(),
                old.replace("-11", "-17").replace(":11-", ":17-"),
            )
        }
        6 => {
            let old =
                format!("# Module {i}\n\nBuilt with Java 11 and Spring Boot 2.7.\n\nRun `mvn verify`.\n");
            (
                format!("docs/module{i}.md"),
                old.clone(),
                old.replace("Java 11", "Java 17").replace("2.7", "3.1"),
            )
        }
        _ => (
            format!("module{}/src/main/java/com/acme/m{i}/Type{i}.java", i % 50),
            java(i, false),
            java(i, true),
        ),
    }
}

fn java(i: usize, new: bool) -> String {
    let (persistence, junit, before, assert) = if new {
        ("jakarta.persistence", "org.junit.jupiter.api", "BeforeEach", "Assertions")
    } else {
        ("javax.persistence", "org.junit", "Before", "Assert")
    };
    let mut out = format!(
        "package com.acme.m{i};\n\nimport java.util.List;\nimport {persistence}.Entity;\nimport {persistence}.Id;\nimport {persistence}.OneToMany;\nimport {junit}.{before};\nimport {junit}.{assert};\n\n@Entity\npublic class Type{i} {{\n    @Id\n    private Long id;\n\n    @OneToMany\n    private List<Type{i}> children;\n\n    @{before}\n    void setUp() {{\n        {assert}.assertNotNull(children);\n    }}\n"
    );
    for m in 0..20 {
        out.push_str(&format!(
            "\n    public int method{m}(int x) {{\n        return x * {m} + {i};\n    }}\n"
        ));
    }
    out.push_str("}\n");
    out
}

fn pom(i: usize, boot: &str, java: &str) -> String {
    format!(
        "<project>\n  <modelVersion>4.0.0</modelVersion>\n  <parent>\n    <groupId>org.springframework.boot</groupId>\n    <artifactId>spring-boot-starter-parent</artifactId>\n    <version>{boot}</version>\n  </parent>\n  <artifactId>module{i}</artifactId>\n  <properties>\n    <java.version>{java}</java.version>\n  </properties>\n  <dependencies>\n    <dependency>\n      <groupId>{g}</groupId>\n      <artifactId>{g}-api</artifactId>\n      <version>{v}</version>\n    </dependency>\n  </dependencies>\n</project>\n",
        g = if java == "11" { "javax.persistence" } else { "jakarta.persistence" },
        v = if java == "11" { "2.2" } else { "3.1.0" }
    )
}

fn gradle(i: usize, boot: &str, java: &str) -> String {
    format!(
        "plugins {{\n    id 'java'\n    id 'org.springframework.boot' version '{boot}'\n}}\n\njava {{\n    sourceCompatibility = '{java}'\n}}\n\ndependencies {{\n    implementation 'com.acme:lib{i}:1.{java}.0'\n}}\n"
    )
}

fn main() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let builder = RepoBuilder::init(&dir.path().join("repo")).expect("git init");
    let files: Vec<_> = (0..FILES).map(file).collect();
    for (path, old, _) in &files {
        builder.write(path, old).expect("write base");
    }
    builder.commit("base").expect("commit base");
    builder.tag("base").expect("tag");
    for (path, _, new) in &files {
        builder.write(path, new).expect("write head");
    }
    builder.commit("head").expect("commit head");
    builder.tag("head").expect("tag");
    let repo = Repo::open(builder.path()).expect("open");

    let runs = 5;
    let mut best = f64::MAX;
    let mut tree = None;
    for _ in 0..runs {
        let start = Instant::now();
        let t = rewrite_assist::intents::extract(&repo, "base", "head", None).expect("extract");
        best = best.min(start.elapsed().as_secs_f64());
        tree = Some(t);
    }
    let tree = tree.expect("ran at least once");
    let start = Instant::now();
    let base = repo.resolve("base").expect("base");
    let head = repo.resolve("head").expect("head");
    let diff = repo.diff(&base, &head).expect("diff");
    let git_diff = start.elapsed().as_secs_f64();
    let goal = 1.0;
    println!("intents: git diff alone {:.1} ms ({} bytes)", git_diff * 1000.0, diff.len());
    println!(
        "intents: {FILES}-file PR, {} changed lines, {} atomic intents, coverage {:.4}: best of {runs} {:.1} ms (goal {:.0} ms, ratio {:.2})",
        tree.changed_lines,
        tree.atomics().len(),
        tree.coverage,
        best * 1000.0,
        goal * 1000.0,
        best / goal
    );
}
