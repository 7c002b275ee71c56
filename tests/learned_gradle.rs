//! Gradle lines the catalog cannot change as the PR did (#39, item 4): a Kotlin `jvmTarget` set as
//! `kotlinOptions.jvmTarget = '1.8'` (OpenRewrite's `UpgradeKotlinJvmTargetVersion` changes only
//! `jvmTarget = …` inside `kotlinOptions { }`) and one dependency's version removed where a platform
//! manages it (the catalog's `RemoveRedundantDependencyVersions` would also drop the Lombok that
//! `annotationProcessor` declares alongside `compileOnly`). The PR's intents give the options of
//! the runner's Gradle recipes; the steps are learned, travel in the learned jar, and `apply` runs
//! them on the next repository.

mod common;

use std::path::Path;
use std::process::Command;

use common::json_stdout;

const SETTINGS: &str = "rootProject.name = 'shop'\n";

fn build(jupiter: &str, jvm_target: &str) -> String {
    format!(
        "plugins {{\n    id 'java'\n}}\n\nrepositories {{\n    mavenCentral()\n}}\n\n\
         dependencies {{\n    testImplementation platform('org.junit:junit-bom:5.10.2')\n    \
         testImplementation '{jupiter}'\n    compileOnly 'org.projectlombok:lombok:1.18.30'\n    \
         annotationProcessor 'org.projectlombok:lombok:1.18.30'\n}}\n\n\
         compileKotlin {{\n    kotlinOptions.jvmTarget = '{jvm_target}'\n}}\n"
    )
}

#[test]
fn gradle_lines_the_catalog_cannot_make_become_learned_steps_that_apply_runs() {
    let dir = tempfile::tempdir().unwrap();
    let base = build("org.junit.jupiter:junit-jupiter:5.10.2", "1.8");
    let head = build("org.junit.jupiter:junit-jupiter", "17");
    let repo = common::pr_repo(
        &dir.path().join("repo"),
        &[("settings.gradle", SETTINGS), ("build.gradle", &base)],
        &[("build.gradle", &head)],
    );
    let out = dir.path().join("out");
    let output = common::analyze_embedded(repo.path(), &out).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let summary = json_stdout(&output);

    let learned: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("learned/learned.json")).unwrap()).unwrap();
    let steps: Vec<&str> =
        learned["gradle_steps"].as_array().unwrap().iter().map(|s| s["recipe"].as_str().unwrap()).collect();
    assert!(steps.contains(&"rewriteassist.learned.gradle.ChangeGradlePropertyValue"), "{learned:#}");
    let jar = out.join(format!("learned/{}", learned["jar"].as_str().unwrap()));
    let listing = Command::new("jar").arg("tf").arg(&jar).output().unwrap();
    let listing = String::from_utf8_lossy(&listing.stdout);
    assert!(listing.contains("rewriteassist/learned/gradle/ChangeGradlePropertyValue.class"), "{listing}");
    assert!(listing.contains("rewriteassist/learned/gradle/ChangeGradlePropertyValue.java"), "{listing}");
    let readme = std::fs::read_to_string(out.join("learned/README.md")).unwrap();
    assert!(readme.contains("## Gradle steps"), "{readme}");

    // The recommended option runs them as learned steps: the PR's lines, all semantic.
    let recommended = &summary["recommended"];
    assert_eq!(recommended["f1"].as_f64(), Some(1.0), "{summary:#}");
    assert!(recommended["learned_share"].as_f64().unwrap() > 0.0, "{recommended:#}");
    assert_eq!(recommended["semantic_share"].as_f64(), Some(1.0), "{recommended:#}");
    // The text steps the learned steps replace are gone from it.
    let recommended_yaml = std::fs::read_to_string(out.join("result/recommended-recipe.yaml")).unwrap();
    assert!(!recommended_yaml.contains("org.openrewrite.text.FindAndReplace"), "{recommended_yaml}");
    let reusable = std::fs::read_to_string(out.join("result/reusable-recipe.yaml")).unwrap();
    assert!(reusable.contains("rewriteassist.learned.gradle.ChangeGradlePropertyValue"), "{reusable}");

    apply_runs_them(dir.path(), &out);
}

/// `apply --recipe <analyze output>` on a repository the PR never saw: its own `jvmTarget` (another
/// old value) becomes the PR's, its Lombok lines stay.
fn apply_runs_them(dir: &Path, analyzed: &Path) {
    let next = dir.join("next");
    let repo = rewrite_assist::fixtures::RepoBuilder::init(&next).unwrap();
    repo.write("settings.gradle", "rootProject.name = 'till'\n").unwrap();
    repo.write("build.gradle", build("org.junit.jupiter:junit-jupiter:5.10.2", "11")).unwrap();
    repo.commit("till").unwrap();
    let (diff, log) = common::apply_on_served(dir, analyzed, &next, "till", "embedded");
    assert!(diff.contains("+    kotlinOptions.jvmTarget = '17'"), "{diff}\n{log}");
    assert!(!diff.contains("-    annotationProcessor"), "{diff}");
}
