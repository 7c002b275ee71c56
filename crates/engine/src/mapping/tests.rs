//! Every semantic mapping names a recipe the catalog has, with option names it knows and every
//! required option given; composition falls back to text and orders it last.

use std::collections::BTreeMap;

use super::*;
use crate::diff::ChangeKind;
use crate::model::intent::Node;
use crate::model::intent::kind;
use crate::model::{Change, ChangeLine, Strategic, Tactical};
use crate::openrewrite::recipe_names::CHANGE_PACKAGE;

/// The atomic intent intent extraction writes for `change` in `file`.
fn of(change: Change, file: &str) -> Intent {
    node(Node::Atomic { change, file: file.into(), files: None }, "")
}

fn node(node: Node, title: &str) -> Intent {
    Intent { id: "1.1".into(), node, title: title.into(), labels: vec![], evidence: vec![], children: vec![] }
}

/// An atomic intent as `intent-tree.json` has it: read through the JSON contract, so every
/// param of the kind must be given.
fn atomic(kind: &str, params: &[(&str, &str)]) -> Intent {
    let params: BTreeMap<&str, &str> = params.iter().copied().collect();
    let json = serde_json::json!({
        "id": "1.1", "level": "atomic", "kind": kind, "title": kind, "params": params,
        "evidence": [], "children": []
    });
    serde_json::from_value(json).unwrap_or_else(|e| panic!("{kind}: {e}"))
}

#[test]
fn every_semantic_mapping_passes_the_catalog_check() {
    let catalog = Catalog::enriched();
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
            new_method: s(""),
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
        assert!(intent.change().is_some(), "{}", intent.kind());
        let Some(steps) = narrow::semantic_steps(&intent) else { continue };
        assert!(!steps.is_empty(), "{}", intent.kind());
        for step in steps {
            assert_eq!(check_step(catalog, &step), Ok(()), "{} -> {}", intent.kind(), step.name);
        }
        semantic_kinds.insert(intent.kind());
    }
    // The kinds that have a semantic recipe: a change here is a change of the mapping.
    let expected = [
        kind::DOCKER_FROM_CHANGE,
        kind::GITHUB_ACTIONS_ACTION_VERSION,
        kind::GITHUB_ACTIONS_SETUP_JAVA,
        kind::GITHUB_ACTIONS_VALUE_CHANGE,
        kind::GRADLE_CATALOG_VALUE,
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
        kind::MAVEN_PLUGIN_ADDED,
        kind::MAVEN_PLUGIN_VERSION,
        kind::MAVEN_PROPERTY_ADDED,
        kind::MAVEN_PROPERTY_CHANGE,
        kind::MAVEN_PROPERTY_REMOVED,
        kind::PROPERTIES_KEY_ADDED,
        kind::PROPERTIES_KEY_REMOVED,
        kind::PROPERTIES_KEY_RENAME,
        kind::PROPERTIES_VALUE_CHANGE,
        kind::YAML_KEY_RENAME,
        kind::YAML_VALUE_CHANGE,
    ];
    assert_eq!(semantic_kinds, expected.into_iter().collect());
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
        assert!(intent.change().is_some(), "{}", intent.kind());
        assert!(narrow::semantic_steps(&intent).is_none(), "{}", intent.kind());
    }
    // Java's compatibility by the same reading of Java levels as intent extraction; Kotlin's
    // `jvmTarget` is not UpdateJavaCompatibility's to change but a recipe of its own.
    let compatibility = |property: &str, value: &str| {
        narrow::semantic_steps(&atomic(
            kind::GRADLE_JAVA_COMPATIBILITY,
            &[("property", property), ("old_value", "11"), ("new_value", value)],
        ))
    };
    let steps = compatibility("targetCompatibility", "JavaVersion.VERSION_1_8").unwrap();
    assert_eq!(steps[0].options["version"].as_text(), "8");
    assert_eq!(steps[0].options["compatibilityType"].as_text(), "target");
    assert_eq!(
        compatibility("jvmTarget", "17").unwrap()[0].name,
        "org.openrewrite.java.migrate.UpgradeKotlinJvmTargetVersion"
    );
    assert!(compatibility("sourceCompatibility", "JavaVersion.current()").is_none());
    // Another type's static method in place: the target first, then the name on the new type.
    let steps = narrow::semantic_steps(&of(
        Change::JavaStaticCallTarget {
            method: s("checkNotNull"),
            old_type: s("com.google.common.base.Preconditions"),
            new_type: s("java.util.Objects"),
            new_method: s("requireNonNull"),
        },
        "A.java",
    ))
    .unwrap();
    let names: Vec<&str> = steps.iter().map(|step| step.name.as_str()).collect();
    assert_eq!(
        names,
        ["org.openrewrite.java.ChangeMethodTargetToStatic", "org.openrewrite.java.ChangeMethodName"]
    );
    assert_eq!(
        steps[0].options["methodPattern"].as_text(),
        "com.google.common.base.Preconditions checkNotNull(..)"
    );
    assert_eq!(steps[1].options["methodPattern"].as_text(), "java.util.Objects checkNotNull(..)");
    assert_eq!(steps[1].options["newMethodName"].as_text(), "requireNonNull");
    // A key added to Spring Boot's configuration: the Spring recipe, which finds such files by
    // name in any repository; to another properties file: at the end, in the PR's files only.
    let added = |file: &str, files: Option<Vec<String>>| {
        let change = Change::PropertiesKeyAdded { key: s("app.mode"), value: s("fast") };
        node(Node::Atomic { change, file: file.into(), files }, "")
    };
    let spring = added("src/main/resources/application.properties", None);
    let steps = narrow::semantic_steps(&spring).unwrap();
    assert_eq!(steps[0].name, "org.openrewrite.java.spring.AddSpringProperty");
    assert!(!steps[0].options.contains_key("pathExpressions"));
    assert!(narrow::scope(&spring).is_empty());
    let profile =
        narrow::semantic_steps(&added("src/main/resources/application-dev.properties", None)).unwrap();
    assert_eq!(profile[0].options["pathExpressions"].as_text(), "**/application-dev.properties");
    let other =
        added("a/messages.properties", Some(vec![s("a/messages.properties"), s("b/messages.properties")]));
    let steps = narrow::semantic_steps(&other).unwrap();
    assert_eq!(steps[0].name, "org.openrewrite.properties.AddProperty");
    assert_eq!(steps[0].options["orderedInsertion"].as_text(), "false");
    assert_eq!(narrow::scope(&other), ["a/messages.properties", "b/messages.properties"]);
    // A plugin repository added to the project: AddRepository with what the POM says.
    let repository = |section: &str| {
        narrow::semantic_steps(&of(
            Change::MavenRepositoryChange {
                change: s("added"),
                section: s(section),
                id: s("milestones"),
                old_url: s(""),
                new_url: s("https://repo.spring.io/milestone"),
                name: s("Spring Milestones"),
                snapshots: s("false"),
                releases: s(""),
            },
            "pom.xml",
        ))
    };
    let steps = repository("pluginRepositories").unwrap();
    assert_eq!(
        steps[0].signature(),
        "org.openrewrite.maven.AddRepository id=milestones repoName=Spring Milestones snapshotsEnabled=false type=PluginRepository url=https://repo.spring.io/milestone"
    );
    assert!(repository("profile:ci/repositories").is_none(), "the recipe adds at the top level only");
    // A new parent: ChangeParentPom keeps the dependencies' explicit versions unless the PR
    // dropped some.
    let parent = |drops_managed_versions| {
        narrow::semantic_steps(&of(
            Change::MavenParentChange {
                old_group_id: s("org.springframework.boot"),
                old_artifact_id: s("spring-boot-starter-parent"),
                old_version: s("1.5.10.RELEASE"),
                new_group_id: s("org.springframework.boot"),
                new_artifact_id: s("spring-boot-starter-parent"),
                new_version: s("2.0.0.RELEASE"),
                drops_managed_versions,
            },
            "pom.xml",
        ))
        .unwrap()
        .remove(0)
    };
    assert_eq!(
        parent(false).options["except"],
        crate::openrewrite::recipe_yaml::OptionValue::List(vec![s("*:*")])
    );
    assert!(!parent(true).options.contains_key("except"));
    // A dependency added without a version is managed: AddDependency writes none for it then.
    let managed = narrow::semantic_steps(&of(
        Change::MavenDependencyAdded {
            group_id: s("org.springframework.boot"),
            artifact_id: s("spring-boot-properties-migrator"),
            version: s(""),
            scope: s("runtime"),
            managed: false,
        },
        "pom.xml",
    ))
    .unwrap();
    assert_eq!(managed[0].options["version"].as_text(), "latest.release");
    assert_eq!(managed[0].options["scope"].as_text(), "runtime");
    // A plugin added to the build with its coordinates only: AddPlugin, in that POM.
    let plugin = |section: &str, extra: &str| {
        let mut intent = of(
            Change::MavenPluginAdded {
                group_id: s("org.apache.maven.plugins"),
                artifact_id: s("maven-surefire-plugin"),
                version: s("2.22.2"),
                section: s(section),
            },
            "core/pom.xml",
        );
        let lines = ["<plugin>", "<groupId>org.apache.maven.plugins</groupId>", extra, "</plugin>"];
        intent.evidence = lines
            .iter()
            .map(|l| ChangeLine {
                path: s("core/pom.xml"),
                kind: ChangeKind::Added,
                line: 1,
                content: l.to_string(),
            })
            .collect();
        narrow::semantic_steps(&intent)
    };
    let steps = plugin("build/plugins", "<version>2.22.2</version>").unwrap();
    assert_eq!(
        steps[0].signature(),
        "org.openrewrite.maven.AddPlugin artifactId=maven-surefire-plugin filePattern=core/pom.xml groupId=org.apache.maven.plugins version=2.22.2"
    );
    assert!(plugin("build/plugins", "<configuration>").is_none(), "its configuration would be lost");
    assert!(plugin("build/pluginManagement", "<version>2.22.2</version>").is_none());
    // A value of one CI step: ChangePropertyValue walks the sequence; the old value picks the step.
    let ci = |old_value: &str| {
        narrow::semantic_steps(&of(
            Change::GithubActionsValueChange {
                key: s("jobs.build.steps[actions/setup-java].name"),
                old_value: s(old_value),
                new_value: s("Set up JDK 17"),
            },
            ".github/workflows/build.yml",
        ))
    };
    let steps = ci("Set up JDK 11").unwrap();
    assert_eq!(steps[0].options["propertyKey"].as_text(), "jobs.build.steps.name");
    assert_eq!(steps[0].options["oldValue"].as_text(), "Set up JDK 11");
    assert!(ci("").is_none(), "without the old value every step's name would change");
    // The same value in three workflows, each with a job of its own name: any job, every workflow.
    let change = Change::GithubActionsValueChange {
        key: s("jobs.build.steps[actions/setup-java].name"),
        old_value: s("Set up JDK 1.8"),
        new_value: s("Set up JDK 17"),
    };
    let files = ["build.yml", "examples.yml", "release.yml"].map(|f| format!(".github/workflows/{f}"));
    let everywhere =
        node(Node::Atomic { change, file: files[0].clone(), files: Some(files.to_vec()) }, "Set up JDK 17");
    let steps = narrow::semantic_steps(&everywhere).unwrap();
    assert_eq!(steps[0].options["propertyKey"].as_text(), "jobs.*.steps.name");
    assert_eq!(steps[0].options["filePattern"].as_text(), ".github/workflows/*.yml");
    // setup-java's Java version bumped in three workflows: one recipe for all three (on faaast,
    // only the first workflow's was made and the other two were missed).
    let change = Change::GithubActionsSetupJava {
        old_version: s("11"),
        new_version: s("17"),
        old_distribution: s("adopt"),
        new_distribution: s("adopt"),
    };
    let everywhere = node(
        Node::Atomic { change, file: files[0].clone(), files: Some(files.to_vec()) },
        "Set up Java 11 -> 17",
    );
    let steps = narrow::semantic_steps(&everywhere).unwrap();
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(steps[0].options["propertyKey"].as_text(), "jobs.*.steps.with.java-version");
    assert_eq!(steps[0].options["filePattern"].as_text(), ".github/workflows/*.yml");
    // Kotlin's bytecode level has a recipe of its own.
    let kotlin = narrow::semantic_steps(&of(
        Change::GradleJavaCompatibility {
            property: s("kotlinOptions.jvmTarget"),
            old_value: s("'1.8'"),
            new_value: s("'17'"),
        },
        "build.gradle",
    ))
    .unwrap();
    assert_eq!(
        kotlin[0].signature(),
        "org.openrewrite.java.migrate.UpgradeKotlinJvmTargetVersion version=17"
    );
    // A version removed from a Gradle dependency (left to the platform or plugin that manages it)
    // stays text: RemoveRedundantDependencyVersions also removes a second declaration of one
    // coordinate whatever its patterns (on qr-code-generator-backend: Lombok's annotation processor).
    let managed = narrow::semantic_steps(&atomic(
        kind::GRADLE_DEPENDENCY_VERSION,
        &[
            ("group_id", "org.springframework.boot"),
            ("artifact_id", "spring-boot-starter-web"),
            ("old_version", "2.6.7"),
            ("new_version", ""),
            ("configuration", "implementation"),
            ("file", "build.gradle"),
        ],
    ));
    assert!(managed.is_none(), "{managed:?}");
    // Unqualified names cannot be matched by type: text instead.
    let unqualified = of(
        Change::JavaAnnotationChange { old_annotation: s("Before"), new_annotation: s("BeforeEach") },
        "T.java",
    );
    assert!(unqualified.change().is_some());
    assert!(narrow::semantic_steps(&unqualified).is_none());
}

#[test]
fn a_swapped_dependency_whose_version_is_a_property_keeps_the_property() {
    let swap = |new_version: &str| {
        let change = Change::MavenDependencySwap {
            old_group_id: "javax.servlet".into(),
            old_artifact_id: "javax.servlet-api".into(),
            new_group_id: "jakarta.servlet".into(),
            new_artifact_id: "jakarta.servlet-api".into(),
            old_version: "${libs.servletapi}".into(),
            new_version: new_version.into(),
            managed: false,
        };
        narrow::semantic_steps(&of(change, "pom.xml")).expect("a recipe")[0].signature()
    };
    let name = "org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId";
    let ids = "newArtifactId=jakarta.servlet-api newGroupId=jakarta.servlet oldArtifactId=javax.servlet-api oldGroupId=javax.servlet";
    assert_eq!(swap("${libs.servletapi}"), format!("{name} {ids}"));
    let pinned = swap("6.0.0");
    assert!(pinned.contains("newVersion=6.0.0"), "{pinned}");
}

#[test]
fn an_action_pinned_to_a_commit_and_moved_to_a_tag_is_a_version_bump_not_the_reverse() {
    let sha = "2b82ce82d56a2a04d2637cd93a637ae1b359c0a7";
    let bump = |old_ref: &str, new_ref: &str| {
        let change = Change::GithubActionsActionVersion {
            action: "docker/setup-qemu-action".into(),
            old_ref: old_ref.into(),
            new_ref: new_ref.into(),
        };
        narrow::semantic_steps(&of(change, ".github/workflows/ci.yml"))
    };
    let steps = bump(sha, "v4").expect("a recipe");
    assert_eq!(
        steps.iter().map(|s| s.signature()).collect::<Vec<_>>(),
        ["org.openrewrite.github.ChangeActionVersion action=docker/setup-qemu-action version=v4"]
    );
    assert_eq!(bump("v3", sha), None);
}

#[test]
fn check_step_reports_unknown_recipes_and_options() {
    let catalog = Catalog::enriched();
    assert!(
        check_step(catalog, &RecipeStep::new("org.example.Nope"))
            .unwrap_err()
            .to_string()
            .contains("not in the recipe catalog")
    );
    let typo = RecipeStep::new(CHANGE_PACKAGE)
        .with("oldPackageName", "a")
        .with("newPackageName", "b")
        .with("recursiv", "true");
    assert!(check_step(catalog, &typo).unwrap_err().to_string().contains("recursiv"));
    let missing = RecipeStep::new(CHANGE_PACKAGE).with("oldPackageName", "a");
    assert!(check_step(catalog, &missing).unwrap_err().to_string().contains("newPackageName"));
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
    let option = compose_narrow(&tree, &pr, Catalog::enriched(), &base);
    let names: Vec<&str> = option.steps.iter().map(|s| s.step.name.as_str()).collect();
    assert_eq!(
        names,
        vec!["org.openrewrite.java.ChangePackage", crate::openrewrite::recipe_names::FIND_AND_REPLACE]
    );
    assert_eq!(option.steps[1].intents, vec!["1"]);
    let analysis = creation_analysis(&option);
    insta::assert_snapshot!(analysis);
}

#[test]
fn wide_search_finds_broad_recipes_that_fit() {
    let catalog = Catalog::enriched();
    let java = node(Node::Strategic(Strategic::Java { from: 11, to: 17 }), "Upgrade Java 11 -> 17");
    let found = wide::find_recipe(catalog, &java).unwrap();
    assert!(
        found.name.starts_with("org.openrewrite.java.migrate.Upgrade") && found.name.contains("17"),
        "{}",
        found.name
    );

    let jakarta = node(Node::Strategic(Strategic::Jakarta), "Migrate javax -> jakarta");
    assert_eq!(
        wide::find_recipe(catalog, &jakarta).unwrap().name,
        "org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta"
    );

    // Spring Boot keys renamed: the Spring Boot properties migrations fit; other keys find nothing broad.
    let mut rename = node(Node::Tactical(Tactical::RenameConfigKeys), "Rename configuration keys (2)");
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
    assert!(why.to_string().contains("needs options"), "{why}");
}

#[test]
fn wide_search_rejects_search_recipes_and_other_languages() {
    let catalog = Catalog::enriched();
    let evidence = |path: &str| ChangeLine {
        path: path.into(),
        kind: crate::diff::ChangeKind::Added,
        line: 1,
        content: "x".into(),
    };
    // The best match for GitHub Actions bumps is a composite that includes a `Find…` recipe.
    let mut actions = node(Node::Tactical(Tactical::BumpCiActions), "Bump GitHub Actions (2)");
    let mut bump = of(
        Change::GithubActionsActionVersion {
            action: "actions/checkout".into(),
            old_ref: "v3".into(),
            new_ref: "v4".into(),
        },
        ".github/workflows/ci.yml",
    );
    bump.evidence = vec![evidence(".github/workflows/ci.yml")];
    actions.children = vec![bump];
    match wide::find_recipe(catalog, &actions) {
        Ok(found) => assert!(found.name.contains("Upgrade"), "{}", found.name),
        Err(why) => assert!(why.to_string().contains("marks code"), "{why}"),
    }

    // Docker recipes that do something else than updating images (normalizing names) do not fit.
    let mut docker = node(Node::Tactical(Tactical::UpdateDockerImages), "Update Docker base images (2)");
    let mut from = of(
        Change::DockerFromChange {
            old_image: "eclipse-temurin".into(),
            old_tag: "11".into(),
            new_image: "eclipse-temurin".into(),
            new_tag: "17".into(),
        },
        "Dockerfile",
    );
    from.evidence = vec![evidence("Dockerfile")];
    docker.children = vec![from];
    if let Ok(found) = wide::find_recipe(catalog, &docker) {
        assert!(!found.name.contains("Normalize"), "{}", found.name);
    }

    // A whitespace recipe for Terraform does not fit an edit of README.md.
    let mut ws = node(Node::Tactical(Tactical::FormatWhitespace), "Remove trailing whitespace");
    let mut edit = of(Change::TextEdit { from: "a ".into(), to: "a".into() }, "README.md");
    edit.evidence = vec![evidence("README.md")];
    ws.children = vec![edit];
    if let Ok(found) = wide::find_recipe(catalog, &ws) {
        assert!(!found.name.starts_with("org.openrewrite.hcl."), "{}", found.name);
    }
}
