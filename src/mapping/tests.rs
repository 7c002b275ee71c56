//! Every semantic mapping names a recipe the catalog has, with option names it knows and every
//! required option given; composition falls back to text and orders it last.

use std::collections::BTreeMap;

use super::*;
use crate::model::ChangeLine;
use crate::model::intent::kind;

fn atomic(kind: &str, params: &[(&str, &str)]) -> Intent {
    Intent {
        id: "1.1".into(),
        level: Level::Atomic,
        kind: kind.into(),
        title: kind.into(),
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), serde_json::Value::from(*v)))
            .collect::<BTreeMap<_, _>>(),
        labels: vec![],
        evidence: vec![],
        children: vec![],
    }
}

#[test]
fn every_semantic_mapping_passes_the_catalog_check() {
    let catalog = Catalog::embedded();
    let cases: Vec<Intent> = vec![
        atomic(kind::JAVA_PACKAGE_MOVE, &[("old_package", "javax.a"), ("new_package", "jakarta.a")]),
        atomic(kind::JAVA_TYPE_RENAME, &[("old_type", "a.B"), ("new_type", "a.C")]),
        atomic(
            kind::JAVA_ANNOTATION_CHANGE,
            &[("old_annotation", "org.junit.Before"), ("new_annotation", "org.junit.jupiter.api.BeforeEach")],
        ),
        atomic(
            kind::JAVA_METHOD_RENAME,
            &[("old_method", "a"), ("new_method", "b"), ("declaring_type", "x.Y")],
        ),
        atomic(
            kind::JAVA_STATIC_CALL_TARGET,
            &[
                ("method", "assertEquals"),
                ("old_type", "org.junit.Assert"),
                ("new_type", "org.junit.jupiter.api.Assertions"),
            ],
        ),
        atomic(
            kind::MAVEN_PARENT_CHANGE,
            &[
                ("old_group_id", "g"),
                ("old_artifact_id", "a"),
                ("old_version", "1"),
                ("new_group_id", "g2"),
                ("new_artifact_id", "a"),
                ("new_version", "2"),
            ],
        ),
        atomic(
            kind::MAVEN_PROPERTY_CHANGE,
            &[("key", "java.version"), ("old_value", "11"), ("new_value", "17")],
        ),
        atomic(kind::MAVEN_PROPERTY_ADDED, &[("key", "k"), ("value", "v")]),
        atomic(kind::MAVEN_PROPERTY_REMOVED, &[("key", "k")]),
        atomic(
            kind::MAVEN_DEPENDENCY_VERSION,
            &[
                ("group_id", "g"),
                ("artifact_id", "a"),
                ("old_version", "1"),
                ("new_version", "2"),
                ("managed", "false"),
            ],
        ),
        atomic(
            kind::MAVEN_DEPENDENCY_SWAP,
            &[
                ("old_group_id", "g"),
                ("old_artifact_id", "a"),
                ("new_group_id", "g2"),
                ("new_artifact_id", "a2"),
                ("old_version", "1"),
                ("new_version", "2"),
            ],
        ),
        atomic(
            kind::MAVEN_DEPENDENCY_SWAP,
            &[
                ("old_group_id", "g"),
                ("old_artifact_id", "a"),
                ("new_group_id", "g2"),
                ("new_artifact_id", "a2"),
                ("managed", "true"),
            ],
        ),
        atomic(
            kind::MAVEN_DEPENDENCY_ADDED,
            &[("group_id", "g"), ("artifact_id", "a"), ("version", "1"), ("scope", "test")],
        ),
        atomic(kind::MAVEN_DEPENDENCY_REMOVED, &[("group_id", "g"), ("artifact_id", "a")]),
        atomic(
            kind::MAVEN_PLUGIN_VERSION,
            &[("group_id", ""), ("artifact_id", "maven-surefire-plugin"), ("new_version", "3.2.5")],
        ),
        atomic(
            kind::GRADLE_DEPENDENCY_VERSION,
            &[("group_id", "g"), ("artifact_id", "a"), ("new_version", "2")],
        ),
        atomic(
            kind::GRADLE_DEPENDENCY_SWAP,
            &[
                ("old_group_id", "g"),
                ("old_artifact_id", "a"),
                ("new_group_id", "g2"),
                ("new_artifact_id", "a2"),
                ("new_version", "2"),
            ],
        ),
        atomic(
            kind::GRADLE_DEPENDENCY_ADDED,
            &[("group_id", "g"), ("artifact_id", "a"), ("version", "1"), ("configuration", "implementation")],
        ),
        atomic(kind::GRADLE_DEPENDENCY_REMOVED, &[("group_id", "g"), ("artifact_id", "a")]),
        atomic(kind::PROPERTIES_KEY_RENAME, &[("old_key", "a.b"), ("new_key", "a.c")]),
        atomic(kind::PROPERTIES_VALUE_CHANGE, &[("key", "a.b"), ("old_value", "1"), ("new_value", "2")]),
        atomic(kind::PROPERTIES_KEY_REMOVED, &[("key", "a.b")]),
        atomic(kind::YAML_KEY_RENAME, &[("old_key", "a.b"), ("new_key", "a.c"), ("file", "application.yml")]),
        atomic(
            kind::YAML_VALUE_CHANGE,
            &[("key", "a.b"), ("old_value", "1"), ("new_value", "2"), ("file", "application.yml")],
        ),
        atomic(
            kind::GRADLE_PLUGIN_VERSION,
            &[("plugin_id", "org.springframework.boot"), ("old_version", "3.1.5"), ("new_version", "3.2.0")],
        ),
        atomic(
            kind::GRADLE_JAVA_COMPATIBILITY,
            &[
                ("property", "sourceCompatibility"),
                ("old_value", "'11'"),
                ("new_value", "JavaVersion.VERSION_17"),
            ],
        ),
        atomic(
            kind::GITHUB_ACTIONS_ACTION_VERSION,
            &[("action", "actions/checkout"), ("old_ref", "v3"), ("new_ref", "v4")],
        ),
        atomic(
            kind::GITHUB_ACTIONS_SETUP_JAVA,
            &[
                ("old_version", "11"),
                ("new_version", "17"),
                ("old_distribution", "temurin"),
                ("new_distribution", "zulu"),
                ("file", ".github/workflows/ci.yml"),
            ],
        ),
        atomic(
            kind::GITHUB_ACTIONS_VALUE_CHANGE,
            &[
                ("key", "jobs.build.runs-on"),
                ("old_value", "ubuntu-20.04"),
                ("new_value", "ubuntu-22.04"),
                ("file", ".github/workflows/ci.yml"),
            ],
        ),
        atomic(
            kind::DOCKER_FROM_CHANGE,
            &[
                ("old_image", "eclipse-temurin"),
                ("old_tag", "11-jre"),
                ("new_image", "eclipse-temurin"),
                ("new_tag", "17-jre"),
            ],
        ),
    ];
    for intent in &cases {
        let steps = narrow::semantic_steps(intent)
            .unwrap_or_else(|| panic!("{} has no semantic recipe", intent.kind));
        assert!(!steps.is_empty(), "{}", intent.kind);
        for step in steps {
            assert_eq!(check_step(catalog, &step), Ok(()), "{} -> {}", intent.kind, step.name);
        }
    }
    // Kinds only text reproduces.
    for k in [kind::TEXT_EDIT, kind::WHITESPACE, kind::IMPORT_ORDER, kind::GRADLE_WRAPPER_VERSION] {
        assert!(narrow::semantic_steps(&atomic(k, &[])).is_none(), "{k}");
    }
    // Java's compatibility by the same reading of Java levels as intent extraction; Kotlin's
    // `jvmTarget` is not UpdateJavaCompatibility's to change.
    let compatibility = |property: &str, value: &str| {
        narrow::semantic_steps(&atomic(
            kind::GRADLE_JAVA_COMPATIBILITY,
            &[("property", property), ("old_value", "11"), ("new_value", value)],
        ))
    };
    let steps = compatibility("targetCompatibility", "JavaVersion.VERSION_1_8").unwrap();
    assert_eq!(steps[0].options["version"].as_text(), "8");
    assert_eq!(steps[0].options["compatibilityType"].as_text(), "target");
    assert!(compatibility("jvmTarget", "17").is_none());
    assert!(compatibility("sourceCompatibility", "JavaVersion.current()").is_none());
    // Unqualified names cannot be matched by type: text instead.
    assert!(
        narrow::semantic_steps(&atomic(
            kind::JAVA_ANNOTATION_CHANGE,
            &[("old_annotation", "Before"), ("new_annotation", "BeforeEach")]
        ))
        .is_none()
    );
}

#[test]
fn check_step_reports_unknown_recipes_and_options() {
    let catalog = Catalog::embedded();
    assert!(
        check_step(catalog, &RecipeStep::new("org.example.Nope"))
            .unwrap_err()
            .contains("not in the recipe catalog")
    );
    let typo = RecipeStep::new("org.openrewrite.java.ChangePackage")
        .with("oldPackageName", "a")
        .with("newPackageName", "b")
        .with("recursiv", "true");
    assert!(check_step(catalog, &typo).unwrap_err().contains("recursiv"));
    let missing = RecipeStep::new("org.openrewrite.java.ChangePackage").with("oldPackageName", "a");
    assert!(check_step(catalog, &missing).unwrap_err().contains("newPackageName"));
}

#[test]
fn narrow_composition_orders_text_last_and_explains_every_step() {
    let pr = crate::diff::parse_all(
        "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,2 @@\n-Java 11\n+Java 17\n end\n\
         diff --git a/src/A.java b/src/A.java\n--- a/src/A.java\n+++ b/src/A.java\n@@ -1 +1 @@\n-import javax.a.B;\n+import jakarta.a.B;\n",
    )
    .unwrap();
    let line = |path: &str, kind, content: &str, n| ChangeLine {
        path: path.into(),
        kind,
        line: n,
        content: content.into(),
    };
    let mut text = atomic(kind::TEXT_EDIT, &[("from", "Java 11"), ("to", "Java 17"), ("file", "README.md")]);
    text.id = "1".into();
    text.evidence = vec![
        line("README.md", crate::diff::ChangeKind::Removed, "Java 11", 1),
        line("README.md", crate::diff::ChangeKind::Added, "Java 17", 1),
    ];
    let mut java =
        atomic(kind::JAVA_PACKAGE_MOVE, &[("old_package", "javax.a"), ("new_package", "jakarta.a")]);
    java.id = "2".into();
    let tree = IntentTree { intents: vec![text, java], ..IntentTree::default() };
    let base = |path: &str| (path == "README.md").then(|| "Java 11\nend\n".to_string());
    let option = compose_narrow(&tree, &pr, Catalog::embedded(), &base);
    let names: Vec<&str> = option.steps.iter().map(|s| s.step.name.as_str()).collect();
    assert_eq!(names, vec!["org.openrewrite.java.ChangePackage", crate::openrewrite::text::FIND_AND_REPLACE]);
    assert_eq!(option.steps[1].intents, vec!["1"]);
    let analysis = creation_analysis(&option);
    insta::assert_snapshot!(analysis);
}

#[test]
fn wide_search_finds_broad_recipes_that_fit() {
    let catalog = Catalog::embedded();
    let mut java = atomic("upgrade_java", &[("from", "11"), ("to", "17")]);
    java.level = Level::Strategic;
    java.title = "Upgrade Java 11 -> 17".into();
    let found = wide::find_recipe(catalog, &java).unwrap();
    assert!(
        found.name.starts_with("org.openrewrite.java.migrate.Upgrade") && found.name.contains("17"),
        "{}",
        found.name
    );

    let mut jakarta = atomic("migrate_javax_to_jakarta", &[]);
    jakarta.level = Level::Strategic;
    jakarta.title = "Migrate javax -> jakarta".into();
    assert_eq!(
        wide::find_recipe(catalog, &jakarta).unwrap().name,
        "org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta"
    );

    // Spring Boot keys renamed: the Spring Boot properties migrations fit; other keys find nothing broad.
    let mut rename = atomic("rename_config_keys", &[]);
    rename.level = Level::Tactical;
    rename.title = "Rename configuration keys (2)".into();
    rename.children = vec![atomic(
        kind::PROPERTIES_KEY_RENAME,
        &[("old_key", "spring.datasource.initialization-mode"), ("new_key", "spring.sql.init.mode")],
    )];
    let found = wide::find_recipe(catalog, &rename).unwrap();
    assert!(found.name.contains("SpringBootProperties_"), "{}", found.name);
    rename.children = vec![atomic(
        kind::PROPERTIES_KEY_RENAME,
        &[("old_key", "acme.timeout"), ("new_key", "acme.timeout-ms")],
    )];
    let why = wide::find_recipe(catalog, &rename).unwrap_err();
    assert!(why.contains("needs options"), "{why}");
}

#[test]
fn wide_search_rejects_search_recipes_and_other_languages() {
    let catalog = Catalog::embedded();
    let evidence = |path: &str| ChangeLine {
        path: path.into(),
        kind: crate::diff::ChangeKind::Added,
        line: 1,
        content: "x".into(),
    };
    // The best match for GitHub Actions bumps is a composite that includes a `Find…` recipe.
    let mut actions = atomic("github_actions", &[]);
    actions.level = Level::Tactical;
    actions.title = "Bump GitHub Actions (2)".into();
    let mut bump = atomic(kind::GITHUB_ACTIONS_ACTION_VERSION, &[]);
    bump.evidence = vec![evidence(".github/workflows/ci.yml")];
    actions.children = vec![bump];
    actions.kind = "bump_ci_actions".into();
    match wide::find_recipe(catalog, &actions) {
        Ok(found) => assert!(found.name.contains("Upgrade"), "{}", found.name),
        Err(why) => assert!(why.contains("marks code"), "{why}"),
    }

    // Docker recipes that do something else than updating images (normalizing names) do not fit.
    let mut docker = atomic("update_docker_images", &[]);
    docker.level = Level::Tactical;
    docker.title = "Update Docker base images (2)".into();
    let mut from = atomic(kind::DOCKER_FROM_CHANGE, &[]);
    from.evidence = vec![evidence("Dockerfile")];
    docker.children = vec![from];
    if let Ok(found) = wide::find_recipe(catalog, &docker) {
        assert!(!found.name.contains("Normalize"), "{}", found.name);
    }

    // A whitespace recipe for Terraform does not fit an edit of README.md.
    let mut ws = atomic("formatting", &[]);
    ws.level = Level::Tactical;
    ws.title = "Remove trailing whitespace".into();
    let mut edit = atomic(kind::TEXT_EDIT, &[]);
    edit.evidence = vec![evidence("README.md")];
    ws.children = vec![edit];
    if let Ok(found) = wide::find_recipe(catalog, &ws) {
        assert!(!found.name.starts_with("org.openrewrite.hcl."), "{}", found.name);
    }
}
