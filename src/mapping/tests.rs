//! Every semantic mapping names a recipe the catalog has, with option names it knows and every
//! required option given; composition falls back to text and orders it last.

use std::collections::BTreeMap;

use super::*;
use crate::model::intent::kind;
use crate::model::{Change, ChangeLine};

/// The atomic intent intent extraction writes for `change` in `file`.
fn of(change: Change, file: &str) -> Intent {
    let mut params = change.params();
    params.insert("file".into(), serde_json::Value::from(file));
    Intent { kind: change.kind().into(), params, ..atomic("", &[]) }
}

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
    let s = |v: &str| v.to_string();
    // One change of every kind, plus variants that take other paths.
    let mut changes = crate::model::change::tests::one_of_each();
    changes.extend([
        Change::JavaAnnotationChange {
            old_annotation: s("org.junit.Before"),
            new_annotation: s("org.junit.jupiter.api.BeforeEach"),
        },
        Change::JavaMethodRename { old_method: s("a"), new_method: s("b"), declaring_type: s("x.Y") },
        Change::JavaStaticCallTarget {
            method: s("assertEquals"),
            old_type: s("org.junit.Assert"),
            new_type: s("org.junit.jupiter.api.Assertions"),
        },
        Change::MavenDependencySwap {
            old_group_id: s("g"),
            old_artifact_id: s("a"),
            new_group_id: s("g2"),
            new_artifact_id: s("a2"),
            old_version: s(""),
            new_version: s(""),
            managed: true,
        },
        Change::GradleJavaCompatibility {
            property: s("sourceCompatibility"),
            old_value: s("'11'"),
            new_value: s("JavaVersion.VERSION_17"),
        },
    ]);
    let mut semantic_kinds = std::collections::BTreeSet::new();
    for change in changes {
        let intent = of(change, "application.yml");
        assert!(intent.change().is_some(), "{}", intent.kind);
        let Some(steps) = narrow::semantic_steps(&intent) else { continue };
        assert!(!steps.is_empty(), "{}", intent.kind);
        for step in steps {
            assert_eq!(check_step(catalog, &step), Ok(()), "{} -> {}", intent.kind, step.name);
        }
        semantic_kinds.insert(intent.kind);
    }
    // The kinds that have a semantic recipe: a change here is a change of the mapping.
    let expected = [
        kind::DOCKER_FROM_CHANGE,
        kind::GITHUB_ACTIONS_ACTION_VERSION,
        kind::GITHUB_ACTIONS_SETUP_JAVA,
        kind::GITHUB_ACTIONS_VALUE_CHANGE,
        kind::GRADLE_DEPENDENCY_ADDED,
        kind::GRADLE_DEPENDENCY_REMOVED,
        kind::GRADLE_DEPENDENCY_SWAP,
        kind::GRADLE_DEPENDENCY_VERSION,
        kind::GRADLE_JAVA_COMPATIBILITY,
        kind::GRADLE_PLUGIN_VERSION,
        kind::JAVA_ANNOTATION_CHANGE,
        kind::JAVA_METHOD_RENAME,
        kind::JAVA_PACKAGE_MOVE,
        kind::JAVA_STATIC_CALL_TARGET,
        kind::JAVA_TYPE_RENAME,
        kind::MAVEN_DEPENDENCY_ADDED,
        kind::MAVEN_DEPENDENCY_REMOVED,
        kind::MAVEN_DEPENDENCY_SWAP,
        kind::MAVEN_DEPENDENCY_VERSION,
        kind::MAVEN_PARENT_CHANGE,
        kind::MAVEN_PLUGIN_VERSION,
        kind::MAVEN_PROPERTY_ADDED,
        kind::MAVEN_PROPERTY_CHANGE,
        kind::MAVEN_PROPERTY_REMOVED,
        kind::PROPERTIES_KEY_REMOVED,
        kind::PROPERTIES_KEY_RENAME,
        kind::PROPERTIES_VALUE_CHANGE,
        kind::YAML_KEY_RENAME,
        kind::YAML_VALUE_CHANGE,
    ];
    assert_eq!(semantic_kinds, expected.into_iter().map(String::from).collect());
    // Kinds only text reproduces.
    let text_only = [
        Change::TextEdit { from: s("a"), to: s("b") },
        Change::Whitespace {},
        Change::ImportOrder {},
        Change::GradleWrapperVersion {
            old_version: s("8.4"),
            new_version: s("8.5"),
            distribution: s("bin"),
            distribution_url: s("https://services.gradle.org/distributions/gradle-8.5-bin.zip"),
        },
    ];
    for change in text_only {
        let intent = of(change, "x");
        assert!(intent.change().is_some(), "{}", intent.kind);
        assert!(narrow::semantic_steps(&intent).is_none(), "{}", intent.kind);
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
    let unqualified = of(
        Change::JavaAnnotationChange { old_annotation: s("Before"), new_annotation: s("BeforeEach") },
        "T.java",
    );
    assert!(unqualified.change().is_some());
    assert!(narrow::semantic_steps(&unqualified).is_none());
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
