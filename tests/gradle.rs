//! Gradle projects validated for real without a Gradle distribution: the embedded runner builds
//! Gradle's model from a static read of the scripts, and OpenRewrite's Gradle recipes run on it.
//! Each fixture is a small Gradle build with a migration PR; the recipe's real diff is checked
//! line by line against the PR's. No test needs Gradle: the wrappers point at an address that
//! never answers, so "no Gradle can run here" is the same on every machine.

mod common;

use std::path::Path;

use common::{bin, json_stdout};
use rewrite_assist::fixtures::RepoBuilder;

/// A wrapper whose distribution can be neither found nor downloaded (TEST-NET, RFC 5737).
const WRAPPER: &str = "distributionUrl=http\\://192.0.2.1\\:9/gradle-8.5-bin.zip\n";

const APP: &str = "package com.acme;\n\nimport org.jspecify.annotations.Nullable;\n\npublic class App {\n    @Nullable String name;\n}\n";

/// A Gradle project's PR: `main` has a wrapper that cannot run and `base`, `migration` has `head`.
fn repo(dir: &Path, base: &[(&str, &str)], head: &[(&str, &str)]) -> RepoBuilder {
    let mut files = vec![
        ("gradlew", "#!/bin/sh\necho 'this wrapper must not run' >&2\nexit 1\n"),
        ("gradle/wrapper/gradle-wrapper.properties", WRAPPER),
    ];
    files.extend_from_slice(base);
    common::pr_repo(dir, &files, head)
}

/// `validate --backend embedded` of `recipe` on the PR: its stats and its diff.
fn validate(repo: &Path, recipe: &str, out: &Path) -> (serde_json::Value, String) {
    let file = out.with_extension("yml");
    std::fs::write(&file, recipe).unwrap();
    let output = common::validate_embedded(&[], repo, &file, out).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let stats = json_stdout(&output);
    let diff = std::fs::read_to_string(out.join("recipe.diff")).unwrap_or_default();
    (stats, diff)
}

/// `analyze --json --backend BACKEND` of the PR, into `out`: its summary.
fn analyze(repo: &Path, out: &Path, backend: &str, extra: &[&str]) -> serde_json::Value {
    let output = bin()
        .args(["analyze", "--json", "--backend", backend])
        .args(extra)
        .args(["--base", "main", "--head", "migration", "--repo"])
        .arg(repo)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    json_stdout(&output)
}

const CATALOG: &str = "[versions]\njspecify = \"0.3.0\"\n\n[libraries]\njspecify = { module = \"org.jspecify:jspecify\", version.ref = \"jspecify\" }\n";

/// A Kotlin DSL build that declares `libs.jspecify` from its catalog; the PR bumps the catalog's
/// jspecify to 1.0.0 and changes the `more` files too.
fn catalog_repo(dir: &Path, more: &[(&str, &str)]) -> RepoBuilder {
    let bumped = CATALOG.replace("0.3.0", "1.0.0");
    let mut head = vec![("gradle/libs.versions.toml", bumped.as_str())];
    head.extend_from_slice(more);
    repo(
        &dir.join("shop"),
        &[
            ("settings.gradle.kts", "rootProject.name = \"shop\"\n"),
            ("gradle/libs.versions.toml", CATALOG),
            (
                "build.gradle.kts",
                "plugins {\n    java\n}\n\nrepositories {\n    mavenCentral()\n}\n\ndependencies {\n    implementation(libs.jspecify)\n}\n",
            ),
            ("src/main/java/com/acme/App.java", APP),
        ],
        &head,
    )
}

/// The changed lines of a diff, `+`/`-` and content, file headers left out.
fn changed_lines(diff: &str) -> Vec<String> {
    diff.lines()
        .filter(|l| {
            (l.starts_with('+') || l.starts_with('-')) && !l.starts_with("+++") && !l.starts_with("---")
        })
        .map(str::to_string)
        .collect()
}

fn recipe(steps: &str) -> String {
    format!(
        "---\ntype: specs.openrewrite.org/v1beta/recipe\nname: com.acme.Migrate\ndisplayName: Migrate\nrecipeList:\n{steps}"
    )
}

fn assert_exact(stats: &serde_json::Value, diff: &str, expected: &[&str]) {
    assert_eq!(stats["error"], serde_json::Value::Null, "{stats:#}");
    assert_eq!(stats["metrics"]["f1"], 1.0, "{stats:#}\n{diff}");
    let mut found = changed_lines(diff);
    let mut expected: Vec<String> = expected.iter().map(|l| l.to_string()).collect();
    // Files come in the runner's order; lines within a file in order.
    found.sort();
    expected.sort();
    assert_eq!(found, expected, "{diff}");
}

const GROOVY_BUILD: &str = "plugins {\n    id 'java'\n}\n\ngroup = 'com.acme'\nsourceCompatibility = '11'\n\nrepositories {\n    mavenCentral()\n}\n\ndependencies {\n    implementation 'org.jspecify:jspecify:0.3.0'\n}\n";

/// Groovy DSL: a dependency version bump to the newest of a version line (the recipe reads the
/// versions from the GradleProject marker's repositories) and a Java compatibility change.
#[test]
fn groovy_dsl_dependency_bump_and_java_compatibility() {
    let dir = tempfile::tempdir().unwrap();
    // 0.2.0 -> 0.3.x: a finished version line, so its newest stays 0.3.0.
    let base = GROOVY_BUILD.replace("0.3.0", "0.2.0");
    let head = GROOVY_BUILD.replace("'11'", "'17'");
    let repo = repo(
        &dir.path().join("shop"),
        &[
            ("settings.gradle", "rootProject.name = 'shop'\n"),
            ("build.gradle", &base),
            ("src/main/java/com/acme/App.java", APP),
        ],
        &[("build.gradle", &head)],
    );
    let (stats, diff) = validate(
        repo.path(),
        &recipe(
            // A version selector: only the marker's repositories let the recipe find 0.3.0.
            "  - org.openrewrite.gradle.UpgradeDependencyVersion:\n      groupId: org.jspecify\n      artifactId: jspecify\n      newVersion: 0.3.x\n  - org.openrewrite.gradle.UpdateJavaCompatibility:\n      version: 17\n",
        ),
        &dir.path().join("out"),
    );
    assert_exact(
        &stats,
        &diff,
        &[
            "-sourceCompatibility = '11'",
            "+sourceCompatibility = '17'",
            "-    implementation 'org.jspecify:jspecify:0.2.0'",
            "+    implementation 'org.jspecify:jspecify:0.3.0'",
        ],
    );
    assert_eq!(stats["backend"], "embedded");
}

/// Kotlin DSL, multi-project: a dependency swap in a subproject, with the code moving to the new
/// library's type (which resolves only from the subproject's declared dependency).
#[test]
fn kotlin_dsl_multi_project_dependency_swap() {
    let dir = tempfile::tempdir().unwrap();
    let build = "plugins {\n    `java-library`\n}\n\nrepositories {\n    mavenCentral()\n}\n\ndependencies {\n    implementation(\"com.google.code.findbugs:jsr305:3.0.2\")\n}\n";
    let code = APP.replace("org.jspecify.annotations.Nullable", "javax.annotation.Nullable");
    let repo = repo(
        &dir.path().join("shop"),
        &[
            ("settings.gradle.kts", "rootProject.name = \"shop\"\ninclude(\":core\", \":cli\")\n"),
            ("build.gradle.kts", "plugins {\n    java\n}\n"),
            ("core/build.gradle.kts", build),
            ("core/src/main/java/com/acme/App.java", &code),
            ("cli/build.gradle.kts", "plugins {\n    application\n}\n"),
        ],
        &[
            (
                "core/build.gradle.kts",
                &build.replace("com.google.code.findbugs:jsr305:3.0.2", "org.jspecify:jspecify:1.0.0"),
            ),
            ("core/src/main/java/com/acme/App.java", APP),
        ],
    );
    let (stats, diff) = validate(
        repo.path(),
        &recipe(
            "  - org.openrewrite.gradle.ChangeDependency:\n      oldGroupId: com.google.code.findbugs\n      oldArtifactId: jsr305\n      newGroupId: org.jspecify\n      newArtifactId: jspecify\n      newVersion: 1.0.0\n  - org.openrewrite.java.ChangeType:\n      oldFullyQualifiedTypeName: javax.annotation.Nullable\n      newFullyQualifiedTypeName: org.jspecify.annotations.Nullable\n",
        ),
        &dir.path().join("out"),
    );
    assert_exact(
        &stats,
        &diff,
        &[
            "-    implementation(\"com.google.code.findbugs:jsr305:3.0.2\")",
            "+    implementation(\"org.jspecify:jspecify:1.0.0\")",
            "-import javax.annotation.Nullable;",
            "+import org.jspecify.annotations.Nullable;",
        ],
    );
}

/// A version catalog: the build declares `libs.jspecify`, so the catalog gives the classpath the
/// code's types come from; the PR bumps the catalog's version and moves the code to the newer
/// annotation.
#[test]
fn a_version_catalog_gives_the_build_its_dependencies() {
    let dir = tempfile::tempdir().unwrap();
    let repo =
        catalog_repo(dir.path(), &[("src/main/java/com/acme/App.java", &APP.replace("Nullable", "NonNull"))]);
    let (stats, diff) = validate(
        repo.path(),
        &recipe(
            "  - org.openrewrite.toml.ChangeValue:\n      keyPath: versions.jspecify\n      newValue: '\"1.0.0\"'\n  - org.openrewrite.java.ChangeType:\n      oldFullyQualifiedTypeName: org.jspecify.annotations.Nullable\n      newFullyQualifiedTypeName: org.jspecify.annotations.NonNull\n",
        ),
        &dir.path().join("out"),
    );
    assert_exact(
        &stats,
        &diff,
        &[
            "-jspecify = \"0.3.0\"",
            "+jspecify = \"1.0.0\"",
            "-import org.jspecify.annotations.Nullable;",
            "+import org.jspecify.annotations.NonNull;",
            "-    @Nullable String name;",
            "+    @NonNull String name;",
        ],
    );
}

/// The whole pipeline on a version catalog bump: no Gradle recipe changes `libs.versions.toml`,
/// so the catalog's value is mapped to a TOML recipe, which reproduces the PR's line exactly.
#[test]
fn analyze_maps_a_version_catalog_bump_to_a_toml_recipe() {
    let dir = tempfile::tempdir().unwrap();
    let repo = catalog_repo(dir.path(), &[]);
    let out = dir.path().join("analysis");
    let summary = analyze(repo.path(), &out, "embedded", &[]);
    let recommended = &summary["recommended"];
    assert_eq!(recommended["f1"], 1.0, "{summary:#}");
    assert_eq!(recommended["semantic_share"], 1.0, "{summary:#}");
    let yaml = std::fs::read_to_string(out.join("result/recommended-recipe.yaml")).unwrap();
    assert!(yaml.contains("org.openrewrite.toml.ChangeValue"), "{yaml}");
    assert!(yaml.contains("keyPath: \"versions.jspecify\""), "{yaml}");
}

/// A plugin version bump: the plugin's marker artifact is on Maven Central.
#[test]
fn a_plugin_version_bump() {
    let dir = tempfile::tempdir().unwrap();
    let build = "plugins {\n    id 'java'\n    id 'io.spring.dependency-management' version '1.0.15.RELEASE'\n}\n\nrepositories {\n    mavenCentral()\n}\n";
    let repo = repo(
        &dir.path().join("shop"),
        &[("settings.gradle", "rootProject.name = 'shop'\n"), ("build.gradle", build)],
        &[("build.gradle", &build.replace("1.0.15.RELEASE", "1.1.4"))],
    );
    let (stats, diff) = validate(
        repo.path(),
        &recipe(
            "  - org.openrewrite.gradle.plugins.UpgradePluginVersion:\n      pluginIdPattern: io.spring.dependency-management\n      newVersion: 1.1.4\n",
        ),
        &dir.path().join("out"),
    );
    assert_exact(
        &stats,
        &diff,
        &[
            "-    id 'io.spring.dependency-management' version '1.0.15.RELEASE'",
            "+    id 'io.spring.dependency-management' version '1.1.4'",
        ],
    );
}

/// The whole pipeline on a Gradle PR (a Java 11 -> 17 upgrade and a dependency bump), where no
/// Gradle can run: semantic Gradle recipes reproduce it, and the report says why the plugin did
/// not confirm it. The repository is trusted (`--trust-build-config`), so the confirmation is
/// tried; an untrusted one's is skipped before that (tests/trust.rs).
#[test]
fn analyze_validates_a_gradle_pr_with_the_embedded_runner_and_says_why_gradle_did_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let head = GROOVY_BUILD.replace("'11'", "'17'").replace("0.3.0", "1.0.0");
    let repo = repo(
        &dir.path().join("shop"),
        &[
            ("settings.gradle", "rootProject.name = 'shop'\n"),
            ("build.gradle", GROOVY_BUILD),
            ("src/main/java/com/acme/App.java", APP),
        ],
        &[("build.gradle", &head)],
    );
    let out = dir.path().join("analysis");
    let summary = analyze(repo.path(), &out, "auto", &["--trust-build-config"]);
    let recommended = &summary["recommended"];
    assert!(recommended["f1"].as_f64().unwrap() >= 0.99, "{summary:#}");
    assert_eq!(recommended["semantic_share"], 1.0, "{summary:#}");
    let yaml = std::fs::read_to_string(out.join("result/recommended-recipe.yaml")).unwrap();
    assert!(yaml.contains("org.openrewrite.gradle.UpgradeDependencyVersion"), "{yaml}");
    // The plugin could not confirm it, and the run says why (the summary, the audit log).
    let confirmation = &summary["confirmation"];
    assert_eq!(confirmation["error"]["kind"], "no_build_tool", "{summary:#}");
    let detail = confirmation["error"]["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("no Gradle can run here"), "{detail}");
    assert!(detail.contains("192.0.2.1 cannot be reached"), "{detail}");
    let audit = std::fs::read_to_string(out.join("audit.jsonl")).unwrap();
    assert!(audit.contains("impossible (no_build_tool: no Gradle can run here"), "{audit}");
}
