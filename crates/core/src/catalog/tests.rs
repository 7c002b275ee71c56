//! Tests against the real recipes of the pinned modules: the embedded snapshot where names, options
//! and members are enough (as validation uses it), the enriched catalog where search and text are
//! tested (as analyses use it, read from the jars on the first test run of a machine).

use super::*;
use crate::openrewrite::versions::{APACHE_2, MODERNE_SOURCE_AVAILABLE, MODULES, REWRITE_CORE_VERSION};

fn catalog() -> &'static Catalog {
    Catalog::embedded()
}

fn enriched() -> &'static Catalog {
    Catalog::enriched()
}

/// §5 of the shared OpenRewrite reference, one row per recipe:
/// `recipe (prefix org.openrewrite. omitted) | module | required options | optional options`.
/// A trailing `…` (as in the reference) means the recipe may have more optional options.
const REFERENCE: &[&str] = &[
    "java.ChangePackage | rewrite-java | oldPackageName newPackageName | recursive",
    "java.ChangeType | rewrite-java | oldFullyQualifiedTypeName newFullyQualifiedTypeName | ignoreDefinition",
    "java.ChangeMethodName | rewrite-java | methodPattern newMethodName | matchOverrides ignoreDefinition",
    "java.ChangeMethodTargetToStatic | rewrite-java | methodPattern fullyQualifiedTargetTypeName \
     | returnType matchOverrides matchUnknownTypes",
    "java.ReplaceStringLiteralValue | rewrite-java | oldLiteralValue newLiteralValue |",
    "maven.UpgradeDependencyVersion | rewrite-maven | groupId artifactId newVersion \
     | versionPattern overrideManagedVersion retainVersions",
    "maven.ChangeParentPom | rewrite-maven | oldGroupId oldArtifactId newVersion \
     | newGroupId newArtifactId versionPattern allowVersionDowngrades …",
    "maven.UpgradeParentVersion | rewrite-maven | groupId artifactId newVersion | versionPattern onlyExternal",
    "maven.ChangePropertyValue | rewrite-maven | key newValue | addIfMissing trustParent",
    "maven.ChangeDependencyGroupIdAndArtifactId | rewrite-maven | oldGroupId oldArtifactId \
     | newGroupId newArtifactId newVersion versionPattern overrideManagedVersion changeManagedDependency",
    "maven.ChangeManagedDependencyGroupIdAndArtifactId | rewrite-maven | oldGroupId oldArtifactId \
     | newGroupId newArtifactId newVersion versionPattern",
    "maven.AddDependency | rewrite-maven | groupId artifactId version | scope onlyIfUsing type classifier optional …",
    "maven.RemoveDependency | rewrite-maven | groupId artifactId | scope",
    "maven.UpgradePluginVersion | rewrite-maven | groupId artifactId newVersion \
     | versionPattern trustParent addVersionIfMissing",
    "gradle.UpgradeDependencyVersion | rewrite-gradle | groupId artifactId | newVersion versionPattern",
    "gradle.ChangeDependency | rewrite-gradle | oldGroupId oldArtifactId | newGroupId newArtifactId newVersion …",
    "gradle.AddDependency | rewrite-gradle | groupId artifactId | version configuration …",
    "gradle.RemoveDependency | rewrite-gradle | groupId artifactId | configuration …",
    "gradle.UpdateGradleWrapper | rewrite-gradle | | version distribution addIfMissing wrapperUri distributionChecksum",
    "properties.ChangePropertyKey | rewrite-properties | oldPropertyKey newPropertyKey | relaxedBinding regex",
    "properties.ChangePropertyValue | rewrite-properties | propertyKey newValue | oldValue regex relaxedBinding",
    "properties.AddProperty | rewrite-properties | property value | …",
    "properties.DeleteProperty | rewrite-properties | propertyKey | …",
    "yaml.ChangePropertyKey | rewrite-yaml | oldPropertyKey newPropertyKey | relaxedBinding except filePattern",
    "yaml.ChangePropertyValue | rewrite-yaml | propertyKey newValue | oldValue regex relaxedBinding filePattern",
    "yaml.ChangeValue | rewrite-yaml | keyPath value | filePattern …",
    "yaml.ChangeKey | rewrite-yaml | oldKeyPath newKey | …",
    "yaml.DeleteKey | rewrite-yaml | keyPath | …",
    "yaml.MergeYaml | rewrite-yaml | key yaml | …",
    "xml.ChangeTagValue | rewrite-xml | elementName newValue | oldValue regex",
    "docker.ChangeFrom | rewrite-docker | oldImageName | oldTag newImageName newTag …",
    "text.FindAndReplace | rewrite-core | find | replace regex caseSensitive multiline dotAll filePattern plaintextOnly",
    "java.migrate.UpgradeJavaVersion | rewrite-migrate-java | version |",
    "github.SetupJavaUpgradeJavaVersion | rewrite-github-actions | | minimumJavaMajorVersion",
    "java.migrate.jakarta.JavaxMigrationToJakarta | rewrite-migrate-java | |",
    "java.migrate.UpgradeToJava17 | rewrite-migrate-java | |",
    "java.migrate.UpgradeToJava21 | rewrite-migrate-java | |",
    "java.testing.junit5.JUnit4to5Migration | rewrite-testing-frameworks | |",
    "java.spring.boot3.UpgradeSpringBoot_3_0 | rewrite-spring | |",
    "java.spring.boot3.UpgradeSpringBoot_3_1 | rewrite-spring | |",
    "java.spring.boot3.UpgradeSpringBoot_3_2 | rewrite-spring | |",
    "java.spring.boot3.UpgradeSpringBoot_3_3 | rewrite-spring | |",
    "java.spring.boot3.UpgradeSpringBoot_3_4 | rewrite-spring | |",
    "java.spring.boot3.UpgradeSpringBoot_3_5 | rewrite-spring | |",
];

fn sorted(mut names: Vec<&str>) -> Vec<&str> {
    names.sort_unstable();
    names
}

#[test]
fn the_reference_recipes_are_there_with_exactly_those_options() {
    let mut failures = Vec::new();
    for row in REFERENCE {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let [short, module, required, optional] = cells[..] else { panic!("bad row {row}") };
        let open = optional.ends_with('…');
        let required = sorted(required.split_whitespace().collect());
        let optional = sorted(optional.trim_end_matches('…').split_whitespace().collect());
        let name = format!("org.openrewrite.{short}");
        let Some(recipe) = catalog().get(&name) else {
            failures.push(format!("{name}: missing"));
            continue;
        };
        if recipe.module != module {
            failures.push(format!("{name}: in {} instead of {module}", recipe.module));
        }
        let names = |req: bool| {
            sorted(recipe.options.iter().filter(|o| o.required == req).map(|o| o.name.as_str()).collect())
        };
        let (actual_required, actual_optional) = (names(true), names(false));
        if actual_required != required {
            failures.push(format!("{name}: required {actual_required:?}, reference says {required:?}"));
        }
        let all_there = optional.iter().all(|o| actual_optional.contains(o));
        if !all_there || (!open && actual_optional != optional) {
            failures.push(format!("{name}: optional {actual_optional:?}, reference says {optional:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// §5 names these without options ("Maven and Gradle"): they must be there, in that module.
#[test]
fn the_reference_java_dependencies_recipes_are_there() {
    for short in ["AddDependency", "ChangeDependency", "RemoveDependency", "UpgradeDependencyVersion"] {
        let name = format!("org.openrewrite.java.dependencies.{short}");
        let recipe = catalog().get(&name).unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(recipe.module, "rewrite-java-dependencies");
        assert!(recipe.options.iter().any(|o| o.name.ends_with("roupId") && o.required), "{name}");
    }
}

#[test]
fn every_pinned_module_contributes_and_artifacts_match_the_pins() {
    let snapshot = catalog().snapshot();
    assert_eq!(snapshot.rewrite_version, REWRITE_CORE_VERSION);
    for m in MODULES {
        let summary = snapshot.modules.iter().find(|s| s.module == m.artifact);
        let summary =
            summary.unwrap_or_else(|| panic!("{} not in the snapshot: run `catalog refresh`", m.artifact));
        assert!(summary.recipes > 0, "{} has no recipe", m.artifact);
        assert_eq!(summary.version, m.version, "{}: snapshot is stale, run `catalog refresh`", m.artifact);
        assert_eq!(summary.licence, m.licence);
    }
    for r in catalog().recipes() {
        let m = MODULES.iter().find(|m| m.artifact == r.module).expect("a pinned module");
        assert_eq!(r.artifact, (!m.bundled).then(|| m.coordinates().to_string()), "{}", r.name);
        assert_eq!(r.licence, m.licence, "{}", r.name);
    }
    assert_eq!(catalog().len(), snapshot.modules.iter().map(|m| m.recipes).sum::<usize>());
}

#[test]
fn composite_recipes_list_their_members() {
    let jakarta = catalog().get("org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta").unwrap();
    assert!(
        jakarta.members.iter().any(|m| m.ends_with("JavaxPersistenceToJakartaPersistence")),
        "{:?}",
        jakarta.members
    );
    assert!(catalog().get("org.openrewrite.java.ChangePackage").unwrap().members.is_empty());
}

#[test]
fn artifact_for_gives_module_coordinates_and_none_for_core() {
    let spring = catalog().artifact_for("org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_0").unwrap();
    let pinned = MODULES.iter().find(|m| m.artifact == "rewrite-spring").unwrap();
    assert_eq!(spring, pinned.coordinates());
    assert_eq!(catalog().artifact_for("org.openrewrite.java.ChangePackage"), None);
    assert_eq!(catalog().artifact_for("org.example.NoSuchRecipe"), None);
}

#[test]
fn check_options_uses_the_real_option_names() {
    let c = catalog();
    assert_eq!(
        c.check_options("org.openrewrite.java.ChangePackage", &["oldPackageName", "newPackageName"]),
        Ok(())
    );
    assert_eq!(
        c.check_options("org.openrewrite.java.ChangePackage", &["oldpackagename", "NEWPACKAGENAME"]),
        Ok(())
    );
    let problems = c
        .check_options(
            "org.openrewrite.maven.UpgradeDependencyVersion",
            &["groupId", "artifactId", "version"],
        )
        .unwrap_err();
    assert_eq!(problems.missing, ["newVersion"]);
    assert_eq!(problems.unknown[0].name, "version");
    assert!(c.check_options("org.example.Nope", &[]).unwrap_err().unknown_recipe);
}

/// (phrasings, recipe expected in the top 3; a trailing `*` accepts any name with that prefix)
const SEARCHES: &[(&[&str], &str)] = &[
    (&["javax to jakarta"], "org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta"),
    (&["javax jakarta migration"], "org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta"),
    (&["JUnit 4 to 5"], "org.openrewrite.java.testing.junit5.JUnit4to5Migration"),
    (&["upgrade spring boot 3"], "org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_*"),
    (&["spring boot 3.0"], "org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_0"),
    (&["upgrade java 17"], "org.openrewrite.java.migrate.UpgradeToJava17"),
    (&["change package"], "org.openrewrite.java.ChangePackage"),
    (&["rename property key"], "org.openrewrite.properties.ChangePropertyKey"),
    (&["setup-java"], "org.openrewrite.github.SetupJavaUpgradeJavaVersion"),
    (&["upgrade maven dependency version"], "org.openrewrite.maven.UpgradeDependencyVersion"),
    (&["find and replace text"], "org.openrewrite.text.FindAndReplace"),
    (&["change dockerfile FROM image"], "org.openrewrite.docker.ChangeFrom"),
    (&["upgrade gradle wrapper"], "org.openrewrite.gradle.UpdateGradleWrapper"),
    (&["migrate log4j to slf4j"], "org.openrewrite.java.logging.slf4j.Log4jToSlf4j"),
    (&["reorder imports"], "org.openrewrite.java.OrderImports"),
    (
        &["Migrate javax.persistence to jakarta.persistence", "jakarta persistence", "javax persistence"],
        "org.openrewrite.java.migrate.jakarta.JavaxPersistenceToJakartaPersistence",
    ),
];

#[test]
fn common_migrations_are_in_the_top_3() {
    let mut failures = Vec::new();
    for &(queries, expected) in SEARCHES {
        let hits = enriched().search(queries, 3, 0.0);
        let found = hits.iter().any(|h| match expected.strip_suffix('*') {
            Some(prefix) => h.name.starts_with(prefix),
            None => h.name == expected,
        });
        if !found {
            let names: Vec<&str> = hits.iter().map(|h| h.name.as_str()).collect();
            failures.push(format!("{queries:?}: expected {expected}, got {names:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A catalog of its own, so the cache counts are not shared with other tests.
fn fresh_catalog() -> Catalog {
    Catalog::new(enriched().snapshot().clone())
}

#[test]
fn repeated_queries_hit_the_cache_by_normalized_form() {
    let c = fresh_catalog();
    let first = c.search(&["Spring Boot 3"], 5, 0.0);
    assert_eq!(c.cache_stats(), CacheStats { hits: 0, misses: 1 });
    // Same words in another order and case: one cache hit; a duplicate phrasing counts once.
    let again = c.search(&["boot spring 3", "SPRING boot 3"], 5, 0.0);
    assert_eq!(c.cache_stats(), CacheStats { hits: 1, misses: 1 });
    assert_eq!(first, again);
    // Log noise cleans away to the same query.
    c.search(&["[INFO] 2024-05-01 12:00:00 spring boot 3", "junit 5"], 5, 0.0);
    assert_eq!(c.cache_stats(), CacheStats { hits: 2, misses: 2 });
}

#[test]
fn scores_are_fused_and_min_score_applies_to_them() {
    let c = enriched();
    let one = c.search(&["upgrade java 17"], 3, 0.0);
    assert!((one[0].score - 1.0 / 61.0).abs() < 1e-12, "{one:?}");
    let queries = ["upgrade java 17", "migrate to java 17", "java 17"];
    let all = c.search(&queries, 300, 0.0);
    assert!(all.windows(2).all(|w| w[0].score >= w[1].score));
    // Above what a single list can give: only recipes found by at least two phrasings remain.
    let strict = c.search(&queries, 300, 1.0 / 61.0 + 1e-9);
    assert!(!strict.is_empty() && strict.len() < all.len());
    assert!(strict.iter().all(|h| h.score > 1.0 / 61.0));
    assert_eq!(strict[0].name, "org.openrewrite.java.migrate.UpgradeToJava17");
    assert!(c.search(&["   ", "at org.acme.Foo.bar(Foo.java:1)"], 5, 0.0).is_empty());
}

#[test]
fn hits_carry_display_name_and_artifact() {
    let hit = &enriched().search(&["javax to jakarta"], 1, 0.0)[0];
    assert_eq!(hit.name, "org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta");
    assert_eq!(hit.display_name, "Migrate to Jakarta EE 9");
    assert!(hit.artifact.as_deref().unwrap().starts_with("org.openrewrite.recipe:rewrite-migrate-java:"));
}

#[test]
fn close_names_are_suggested() {
    let c = enriched();
    assert!(
        c.suggest("org.openrewrite.java.ChangePackages", 3).contains(&"org.openrewrite.java.ChangePackage")
    );
    assert!(c.suggest("ChangePackage", 3).contains(&"org.openrewrite.java.ChangePackage"));
}

#[test]
fn ranking_depends_only_on_the_normalized_query() {
    // Each order on a catalog of its own: the cache cannot make them agree.
    let a = fresh_catalog().search(&["change package"], 10, 0.0);
    let b = fresh_catalog().search(&["Package, change"], 10, 0.0);
    assert_eq!(a, b);
    assert_eq!(a[0].name, "org.openrewrite.java.ChangePackage");
}

/// The acceptance of issue #41 (7): decoded as plain JSON, so that no field serde would skip can
/// hide text, the embedded snapshot holds no text of an MSAL module, and the Apache-2.0 ones keep
/// theirs.
#[test]
fn the_embedded_snapshot_holds_no_text_of_msal_modules() {
    let mut json = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(snapshot::EMBEDDED), &mut json).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let fields = |v: &serde_json::Value| -> Vec<String> {
        let mut names: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        names.sort();
        names
    };
    let (mut msal, mut apache_described) = (0, 0);
    for module in json["modules"].as_array().unwrap() {
        let text = if module["licence"] == MODERNE_SOURCE_AVAILABLE { "namesOnly" } else { "full" };
        assert_eq!(module["text"], text, "{module}");
    }
    for recipe in json["recipes"].as_array().unwrap() {
        if recipe["licence"] == APACHE_2 {
            apache_described += usize::from(!recipe["description"].as_str().unwrap().is_empty());
            continue;
        }
        assert_eq!(recipe["licence"], MODERNE_SOURCE_AVAILABLE, "{}", recipe["name"]);
        msal += 1;
        let expected = [
            "artifact",
            "description",
            "displayName",
            "licence",
            "members",
            "module",
            "name",
            "options",
            "tags",
        ];
        assert_eq!(fields(recipe), expected, "{}", recipe["name"]);
        assert_eq!(
            (&recipe["displayName"], &recipe["description"]),
            (&"".into(), &"".into()),
            "{}",
            recipe["name"]
        );
        assert_eq!(recipe["tags"], serde_json::json!([]), "{}", recipe["name"]);
        for option in recipe["options"].as_array().unwrap() {
            assert!(
                fields(option).iter().all(|f| [
                    "name",
                    "type",
                    "required",
                    "description",
                    "example",
                    "valid"
                ]
                .contains(&f.as_str())),
                "{option}"
            );
            assert!(
                option["description"].is_null() && option["example"].is_null(),
                "{}: {option}",
                recipe["name"]
            );
        }
    }
    assert!(msal > 1500, "{msal} MSAL recipes");
    let apache = catalog().recipes().iter().filter(|r| r.licence == APACHE_2).count();
    assert!(
        apache_described * 10 > apache * 9,
        "{apache_described} of {apache} Apache-2.0 recipes described"
    );
    let change_package = catalog().get("org.openrewrite.java.ChangePackage").unwrap();
    assert_eq!(change_package.display_name, "Rename package name");
    assert!(change_package.options[0].description.is_some());
}

/// Where the jars can be read (the tests' machines reach Maven Central), the enriched catalog is
/// the embedded one with every module's text: same recipes, options and members.
#[test]
fn the_enriched_catalog_has_the_text_of_every_module() {
    let snapshot = enriched().snapshot();
    assert!(text::names_only(snapshot).is_empty(), "{:?}", text::names_only(snapshot));
    assert_eq!(text::strip(snapshot), *catalog().snapshot());
    let jakarta = enriched().get("org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta").unwrap();
    assert_eq!(jakarta.display_name, "Migrate to Jakarta EE 9");
    assert!(jakarta.description.contains("jakarta"), "{}", jakarta.description);
    assert!(enriched().has_text_of(jakarta) && !catalog().has_text_of(jakarta));
}
