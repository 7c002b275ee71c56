//! Realistic migrations, end to end through `extract_from`, with snapshots of the markdown.

use super::*;
use crate::fixtures::scenarios::{COMMONS_LANG_SWAP, JUNIT4_TO_JUNIT5};
use crate::model::Change;

pub(in crate::intents) const POM_JAVAX: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>shop</artifactId>
  <version>1.0.0</version>
  <properties>
    <java.version>11</java.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>javax.persistence</groupId>
      <artifactId>javax.persistence-api</artifactId>
      <version>2.2</version>
    </dependency>
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-api</artifactId>
      <version>1.7.36</version>
    </dependency>
  </dependencies>
</project>
"#;

const CUSTOMER_JAVAX: &str = "package com.acme.shop;

import javax.persistence.Entity;
import javax.persistence.Id;
import javax.validation.constraints.NotNull;

@Entity
public class Customer {
    @Id
    private Long id;

    @NotNull
    private String name;
}
";

const ORDER_JAVAX: &str = "package com.acme.shop;

import java.util.List;
import javax.persistence.Entity;
import javax.persistence.OneToMany;

@Entity
public class Order {
    @OneToMany
    private List<Item> items;

    public javax.persistence.EntityManager manager() { return null; }
}
";

#[test]
fn javax_to_jakarta_imports_and_dependency_swap() {
    let pom_new = POM_JAVAX
        .replace("<groupId>javax.persistence</groupId>", "<groupId>jakarta.persistence</groupId>")
        .replace(
            "<artifactId>javax.persistence-api</artifactId>",
            "<artifactId>jakarta.persistence-api</artifactId>",
        )
        .replace("<version>2.2</version>", "<version>3.1.0</version>");
    let tree = extract(&[
        changed("pom.xml", POM_JAVAX, &pom_new),
        changed(
            "src/main/java/com/acme/shop/Customer.java",
            CUSTOMER_JAVAX,
            &CUSTOMER_JAVAX.replace("javax.", "jakarta."),
        ),
        changed(
            "src/main/java/com/acme/shop/Order.java",
            ORDER_JAVAX,
            &ORDER_JAVAX.replace("javax.", "jakarta."),
        ),
    ]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    assert_eq!(strategic_kinds(&tree), vec!["migrate_javax_to_jakarta"]);
    let moves = of_kind(&tree, "java.package_move");
    let pairs: Vec<(&str, &str)> =
        moves.iter().map(|m| (m.param("old_package"), m.param("new_package"))).collect();
    assert_eq!(
        pairs,
        vec![
            ("javax.persistence", "jakarta.persistence"),
            ("javax.validation.constraints", "jakarta.validation.constraints")
        ]
    );
    // One intent for the package across both files, with the fully qualified usage as evidence.
    assert_eq!(moves[0].params()["files"].as_array().unwrap().len(), 2);
    assert!(
        moves[0].evidence.iter().any(|l| l.content.contains("jakarta.persistence.EntityManager manager()"))
    );
    let swap = only(&tree, "maven.dependency_swap");
    expect(
        &swap,
        &[
            ("old_group_id", "javax.persistence"),
            ("old_artifact_id", "javax.persistence-api"),
            ("new_group_id", "jakarta.persistence"),
            ("new_artifact_id", "jakarta.persistence-api"),
            ("old_version", "2.2"),
            ("new_version", "3.1.0"),
            ("file", "pom.xml"),
        ],
    );
    insta::assert_snapshot!(render_markdown(&tree));
}

/// The JUnit 4 to 5 scenario of the fixtures: its POM and its test class.
const JUNIT_POM: &str = "pom.xml";
const CALCULATOR_TEST: &str = "src/test/java/com/acme/calc/CalculatorTest.java";

/// `path` of the JUnit 4 to 5 scenario's project, before the PR.
fn junit4(path: &str) -> &'static str {
    JUNIT4_TO_JUNIT5.before(path).unwrap()
}

/// `path` as the JUnit 4 to 5 scenario's PR leaves it.
fn junit5(path: &str) -> String {
    JUNIT4_TO_JUNIT5.edit(path, junit4(path)).unwrap()
}

/// File `path` of a fixtures scenario, changed as its PR changes it.
fn scenario_change(scenario: &crate::fixtures::Scenario, path: &str) -> FileSpec {
    let before = scenario.before(path).unwrap();
    changed(path, before, &scenario.edit(path, before).unwrap())
}

#[test]
fn junit4_to_junit5_imports_annotations_and_pom() {
    let tree = extract(&[
        scenario_change(&JUNIT4_TO_JUNIT5, JUNIT_POM),
        scenario_change(&JUNIT4_TO_JUNIT5, CALCULATOR_TEST),
    ]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    assert_eq!(strategic_kinds(&tree), vec!["migrate_junit4_to_junit5"]);
    expect(
        &only(&tree, "java.annotation_change"),
        &[("old_annotation", "org.junit.Before"), ("new_annotation", "org.junit.jupiter.api.BeforeEach")],
    );
    expect(
        &only(&tree, "java.type_rename"),
        &[("old_type", "org.junit.Test"), ("new_type", "org.junit.jupiter.api.Test")],
    );
    expect(
        &only(&tree, "java.static_call_target"),
        &[
            ("method", "assertEquals"),
            ("old_type", "org.junit.Assert"),
            ("new_type", "org.junit.jupiter.api.Assertions"),
        ],
    );
    expect(
        &only(&tree, "maven.dependency_swap"),
        &[
            ("old_group_id", "junit"),
            ("new_group_id", "org.junit.jupiter"),
            ("new_artifact_id", "junit-jupiter"),
        ],
    );
    // What the migration moves away from: JUnit 4's package (not JUnit 5's below it), its moved
    // types, its dependency.
    let old = crate::intents::old_library::of(&tree);
    assert_eq!(old.packages, ["org.junit"]);
    assert_eq!(old.new_packages, ["org.junit.jupiter", "org.junit.jupiter.api", "org.junit.platform"]);
    assert_eq!(old.types, ["org.junit.Assert", "org.junit.Before", "org.junit.Test"]);
    assert_eq!(old.dependencies, ["junit:junit"]);
    insta::assert_snapshot!(render_markdown(&tree));
}

const CI_11: &str = "name: CI
on: [push, pull_request]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3
      - name: Set up JDK
        uses: actions/setup-java@v3
        with:
          java-version: '11'
          distribution: 'temurin'
          cache: maven
      - run: mvn -B verify
";

#[test]
fn java_11_to_17_in_pom_ci_and_docker() {
    let ci_17 = CI_11.replace("'11'", "'17'").replace("checkout@v3", "checkout@v4");
    let tree = extract(&[
        changed("pom.xml", POM_JAVAX, &POM_JAVAX.replace("<java.version>11<", "<java.version>17<")),
        changed(".github/workflows/ci.yml", CI_11, &ci_17),
        changed(
            "Dockerfile",
            "FROM eclipse-temurin:11-jre\nCOPY target/app.jar /app.jar\nENTRYPOINT [\"java\", \"-jar\", \"/app.jar\"]\n",
            "FROM eclipse-temurin:17-jre\nCOPY target/app.jar /app.jar\nENTRYPOINT [\"java\", \"-jar\", \"/app.jar\"]\n",
        ),
    ]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    assert_eq!(strategic_kinds(&tree), vec!["upgrade_java"]);
    assert_eq!(tree.intents[0].title, "Upgrade Java 11 -> 17");
    assert_eq!(tree.intents[0].params()["from"], "11");
    expect(
        &only(&tree, "maven.property_change"),
        &[("key", "java.version"), ("old_value", "11"), ("new_value", "17")],
    );
    expect(
        &only(&tree, "github_actions.setup_java"),
        &[
            ("old_version", "11"),
            ("new_version", "17"),
            ("old_distribution", "temurin"),
            ("new_distribution", "temurin"),
        ],
    );
    expect(
        &only(&tree, "github_actions.action_version"),
        &[("action", "actions/checkout"), ("old_ref", "v3"), ("new_ref", "v4")],
    );
    expect(
        &only(&tree, "docker.from_change"),
        &[
            ("old_image", "eclipse-temurin"),
            ("old_tag", "11-jre"),
            ("new_image", "eclipse-temurin"),
            ("new_tag", "17-jre"),
        ],
    );
    insta::assert_snapshot!(render_markdown(&tree));
    // The JSON contract, byte for byte.
    insta::assert_snapshot!("java_11_to_17_json", serde_json::to_string_pretty(&tree).unwrap());
    // intent-tree.json reads back into the same typed tree (every kind, params and files).
    let json = serde_json::to_string_pretty(&tree).unwrap();
    assert_eq!(serde_json::from_str::<crate::model::IntentTree>(&json).unwrap(), tree);
    let broken = json.replacen("\"new_version\"", "\"new_versoin\"", 1);
    let error = serde_json::from_str::<crate::model::IntentTree>(&broken).unwrap_err().to_string();
    assert!(error.contains("new_version"), "{error}");
}

#[test]
fn dependency_swap_with_its_package_move() {
    // The fixtures' commons-lang scenario: its POM and its Names class.
    let tree = extract(&[
        scenario_change(&COMMONS_LANG_SWAP, "pom.xml"),
        scenario_change(&COMMONS_LANG_SWAP, "src/main/java/com/acme/text/Names.java"),
    ]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    assert_eq!(strategic_kinds(&tree), vec!["migrate_dependency"]);
    assert_eq!(
        tree.intents[0].title,
        "Migrate commons-lang:commons-lang -> org.apache.commons:commons-lang3"
    );
    expect(
        &only(&tree, "maven.dependency_swap"),
        &[
            ("old_artifact_id", "commons-lang"),
            ("new_artifact_id", "commons-lang3"),
            ("new_version", "3.14.0"),
        ],
    );
    // A single type moved: a precise type change rather than a package move.
    expect(
        &only(&tree, "java.type_rename"),
        &[
            ("old_type", "org.apache.commons.lang.StringUtils"),
            ("new_type", "org.apache.commons.lang3.StringUtils"),
        ],
    );
    assert_eq!(tree.intents[0].children.len(), 2, "the swap and the type change are one migration");
    // The library is gone as a whole: its package is the old library, not only the moved type.
    let old = crate::intents::old_library::of(&tree);
    assert_eq!(old.packages, ["org.apache.commons.lang"]);
    assert_eq!(old.new_packages, ["org.apache.commons.lang3"]);
    assert_eq!(old.dependencies, ["commons-lang:commons-lang"]);
}

#[test]
fn spring_config_key_renames_in_properties_and_yaml() {
    let properties_old = "spring.datasource.url=jdbc:h2:mem:shop\nspring.datasource.initialization-mode=always\nserver.port=8080\n";
    let properties_new =
        "spring.datasource.url=jdbc:h2:mem:shop\nspring.sql.init.mode=always\nserver.port=8081\n";
    let yaml_old = "spring:\n  datasource:\n    url: jdbc:h2:mem:shop\n    initialization-mode: always\nserver:\n  port: 8080\n";
    let yaml_new = "spring:\n  datasource:\n    url: jdbc:h2:mem:shop\n  sql:\n    init:\n      mode: always\nserver:\n  port: \"8081\"\n";
    let tree = extract(&[
        changed("src/main/resources/application.properties", properties_old, properties_new),
        changed("src/main/resources/application.yml", yaml_old, yaml_new),
    ]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    expect(
        &only(&tree, "properties.key_rename"),
        &[("old_key", "spring.datasource.initialization-mode"), ("new_key", "spring.sql.init.mode")],
    );
    expect(
        &only(&tree, "properties.value_change"),
        &[("key", "server.port"), ("old_value", "8080"), ("new_value", "8081")],
    );
    let rename = of_kind(&tree, "yaml.key_rename");
    assert_eq!(rename.len(), 1);
    assert_eq!(rename[0].param("new_key"), "spring.sql.init.mode");
    // The new parent keys `sql:` and `init:` are part of the rename.
    assert_eq!(rename[0].evidence.len(), 4);
    expect(
        &only(&tree, "yaml.value_change"),
        &[("key", "server.port"), ("old_value", "8080"), ("new_value", "8081"), ("quoted", "true")],
    );
    // No strategic intent: the renamed keys are what the PR moves away from, not the port.
    assert_eq!(crate::intents::old_library::of(&tree).config_keys, ["spring.datasource.initialization-mode"]);
    insta::assert_snapshot!(render_markdown(&tree));
}

#[test]
fn spring_boot_upgrade_owns_parent_jakarta_and_config() {
    let parent = |v: &str| {
        format!(
            "<project>\n  <modelVersion>4.0.0</modelVersion>\n  <parent>\n    <groupId>org.springframework.boot</groupId>\n    <artifactId>spring-boot-starter-parent</artifactId>\n    <version>{v}</version>\n  </parent>\n  <artifactId>shop</artifactId>\n</project>\n"
        )
    };
    let tree = extract(&[
        changed("pom.xml", &parent("2.7.18"), &parent("3.1.5")),
        changed(
            "src/main/java/com/acme/shop/Customer.java",
            CUSTOMER_JAVAX,
            &CUSTOMER_JAVAX.replace("javax.", "jakarta."),
        ),
        changed(
            "src/main/resources/application.properties",
            "spring.datasource.initialization-mode=always\n",
            "spring.sql.init.mode=always\n",
        ),
    ]);
    assert_eq!(strategic_kinds(&tree), vec!["upgrade_spring_boot"]);
    assert_eq!(tree.intents[0].title, "Upgrade Spring Boot 2.7 -> 3.1");
    assert_eq!(tree.intents.len(), 1, "{}", render_markdown(&tree));
    expect(
        &only(&tree, "maven.parent_change"),
        &[
            ("old_version", "2.7.18"),
            ("new_version", "3.1.5"),
            ("new_artifact_id", "spring-boot-starter-parent"),
        ],
    );
    assert!(!only(&tree, "maven.parent_change").contains_key("drops_managed_versions"));
}

#[test]
fn a_new_parent_that_took_over_a_dependencys_version_says_so() {
    let pom = |parent: &str, lombok: &str| {
        format!(
            "<project>\n  <parent>\n    <groupId>org.springframework.boot</groupId>\n    <artifactId>spring-boot-starter-parent</artifactId>\n    <version>{parent}</version>\n  </parent>\n  <artifactId>shop</artifactId>\n  <dependencies>\n    <dependency>\n      <groupId>org.projectlombok</groupId>\n      <artifactId>lombok</artifactId>\n{lombok}    </dependency>\n  </dependencies>\n</project>\n"
        )
    };
    let version = "      <version>1.16.20</version>\n";
    let tree = extract(&[changed("pom.xml", &pom("1.5.10.RELEASE", version), &pom("2.0.0.RELEASE", ""))]);
    expect(&only(&tree, "maven.parent_change"), &[("drops_managed_versions", "true")]);
}

#[test]
fn same_pr_gives_byte_identical_json() {
    let files = || {
        vec![
            changed(JUNIT_POM, junit4(JUNIT_POM), &junit4(JUNIT_POM).replace("4.13.2", "4.13.1")),
            scenario_change(&JUNIT4_TO_JUNIT5, CALCULATOR_TEST),
            changed("README.md", "# Calc\nOld text\n", "# Calc\nNew text\n"),
        ]
    };
    let first = serde_json::to_string_pretty(&extract(&files())).unwrap();
    for _ in 0..3 {
        assert_eq!(serde_json::to_string_pretty(&extract(&files())).unwrap(), first);
    }
}

/// A POM of `app` with one dependency.
fn one_dependency_pom(group: &str, artifact: &str, version: &str) -> String {
    format!(
        "<project>\n  <artifactId>app</artifactId>\n  <dependencies>\n    <dependency>\n      <groupId>{group}</groupId>\n      <artifactId>{artifact}</artifactId>\n      <version>{version}</version>\n    </dependency>\n  </dependencies>\n</project>\n"
    )
}

#[test]
fn a_library_replaced_under_the_code_is_a_swap_even_when_the_pom_cannot_tell() {
    let pom = one_dependency_pom;
    let java = |import: &str| {
        format!("package app;\n\nimport {import};\n\npublic class Reader {{\n    private Logger log;\n}}\n")
    };
    let old_pom = pom("org.apache.logging.log4j", "log4j-api", "2.1");
    let new_pom = pom("org.slf4j", "slf4j-api", "1.7.9");
    let tree = extract(&[
        changed("pom.xml", &old_pom, &new_pom),
        changed(
            "src/main/java/app/Reader.java",
            &java("org.apache.logging.log4j.Logger"),
            &java("org.slf4j.Logger"),
        ),
    ]);
    expect(
        &only(&tree, "maven.dependency_swap"),
        &[
            ("old_artifact_id", "log4j-api"),
            ("new_group_id", "org.slf4j"),
            ("old_version", "2.1"),
            ("new_version", "1.7.9"),
        ],
    );
    assert!(of_kind(&tree, "maven.dependency_added").is_empty(), "{}", render_markdown(&tree));
    assert!(of_kind(&tree, "maven.dependency_removed").is_empty());
    assert_eq!(of_kind(&tree, "maven.dependency_swap")[0].evidence.len(), 6);
    // Without the code's move the POM alone says removed and added.
    let tree = extract(&[changed("pom.xml", &old_pom, &new_pom)]);
    assert!(of_kind(&tree, "maven.dependency_swap").is_empty(), "{}", render_markdown(&tree));
}

/// The code that now calls the new library moves with its migration: `LogManager.getLogger` ->
/// `LoggerFactory.getLogger` belongs to log4j -> slf4j like the `Logger` import does, so the
/// reusable recipe keeps it.
#[test]
fn static_calls_into_the_new_library_belong_to_its_migration() {
    let pom = one_dependency_pom;
    let old_java = "package app;\n\nimport org.apache.logging.log4j.LogManager;\nimport org.apache.logging.log4j.Logger;\n\npublic class Reader {\n    private static final Logger LOG = LogManager.getLogger(Reader.class);\n}\n";
    let new_java = "package app;\n\nimport org.slf4j.Logger;\nimport org.slf4j.LoggerFactory;\n\npublic class Reader {\n    private static final Logger LOG = LoggerFactory.getLogger(Reader.class);\n}\n";
    let tree = extract(&[
        changed(
            "pom.xml",
            &pom("org.apache.logging.log4j", "log4j-api", "2.1"),
            &pom("org.slf4j", "slf4j-api", "1.7.9"),
        ),
        changed("src/main/java/app/Reader.java", old_java, new_java),
    ]);
    assert_eq!(strategic_kinds(&tree), vec!["migrate_dependency"], "{}", render_markdown(&tree));
    assert_eq!(tree.intents.len(), 1, "one migration and nothing beside it: {}", render_markdown(&tree));
    assert_eq!(of_kind(&tree, "java.static_call_target").len(), 1, "{}", render_markdown(&tree));
}

/// A version property of a dependency that moves with a migration moves with it.
#[test]
fn the_version_property_of_a_swapped_dependency_belongs_to_the_migration() {
    let pom = |group: &str, artifact: &str, version: &str| {
        format!(
            "<project>\n  <artifactId>app</artifactId>\n  <properties>\n    <servlet.version>{version}</servlet.version>\n    <jacoco.version>0.8.8</jacoco.version>\n  </properties>\n  <dependencies>\n    <dependency>\n      <groupId>{group}</groupId>\n      <artifactId>{artifact}</artifactId>\n      <version>${{servlet.version}}</version>\n    </dependency>\n  </dependencies>\n</project>\n"
        )
    };
    let java = |package: &str| {
        format!(
            "package app;\n\nimport {package}.http.HttpServlet;\n\npublic class Api extends HttpServlet {{\n}}\n"
        )
    };
    let new_pom = pom("jakarta.servlet", "jakarta.servlet-api", "6.0.0").replace("0.8.8", "0.8.14");
    let tree = extract(&[
        changed("pom.xml", &pom("javax.servlet", "javax.servlet-api", "4.0.1"), &new_pom),
        changed("src/main/java/app/Api.java", &java("javax.servlet"), &java("jakarta.servlet")),
    ]);
    assert_eq!(strategic_kinds(&tree), vec!["migrate_javax_to_jakarta"], "{}", render_markdown(&tree));
    let owner_of = |key: &str| {
        tree.intents.iter().find(|i| {
            i.atomics()
                .iter()
                .any(|a| matches!(a.change(), Some(Change::MavenPropertyChange { key: k, .. }) if k == key))
        })
    };
    assert_eq!(owner_of("servlet.version").map(|i| i.kind()), Some("migrate_javax_to_jakarta"));
    // An unrelated version bump next to it stays outside the migration.
    assert_ne!(owner_of("jacoco.version").map(|i| i.kind()), Some("migrate_javax_to_jakarta"));
}

/// Surefire added (or bumped) in a move to JUnit 5 is part of it: the platform needs 2.22.
#[test]
fn surefire_added_with_junit5_belongs_to_the_migration() {
    let pom_new = junit5(JUNIT_POM).replace(
            "  </dependencies>\n",
            "  </dependencies>\n  <build>\n    <plugins>\n      <plugin>\n        <artifactId>maven-surefire-plugin</artifactId>\n        <version>2.22.2</version>\n      </plugin>\n    </plugins>\n  </build>\n",
        );
    assert!(pom_new.contains("maven-surefire-plugin"), "{pom_new}");
    let tree = extract(&[
        changed(JUNIT_POM, junit4(JUNIT_POM), &pom_new),
        scenario_change(&JUNIT4_TO_JUNIT5, CALCULATOR_TEST),
    ]);
    assert_eq!(of_kind(&tree, "maven.plugin_added").len(), 1, "{}", render_markdown(&tree));
    assert_eq!(tree.intents.len(), 1, "all of it is the JUnit 5 migration: {}", render_markdown(&tree));
    assert_eq!(strategic_kinds(&tree), vec!["migrate_junit4_to_junit5"]);
}

const HAMCREST_POM: &str = "<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.acme</groupId>\n  <artifactId>calc</artifactId>\n  <version>1.0.0</version>\n  <properties>\n    <junit.version>4.13.2</junit.version>\n  </properties>\n  <dependencies>\n    <dependency>\n      <groupId>junit</groupId>\n      <artifactId>junit</artifactId>\n      <version>${junit.version}</version>\n      <scope>test</scope>\n    </dependency>\n    <dependency>\n      <groupId>org.hamcrest</groupId>\n      <artifactId>hamcrest</artifactId>\n      <version>2.2</version>\n      <scope>test</scope>\n    </dependency>\n  </dependencies>\n</project>\n";

fn hamcrest_test(name: &str, value: &str) -> String {
    format!(
        "package com.acme.calc;\n\nimport static org.hamcrest.MatcherAssert.assertThat;\nimport static org.hamcrest.Matchers.is;\nimport static org.junit.Assert.assertEquals;\n\nimport org.junit.Test;\n\npublic class {name}Test {{\n    @Test\n    public void works() {{\n        assertThat({value}, is(4));\n        assertEquals(4, {value});\n    }}\n}}\n"
    )
}

fn assertj_test(name: &str, value: &str) -> String {
    format!(
        "package com.acme.calc;\n\nimport static org.assertj.core.api.Assertions.assertThat;\n\nimport org.junit.Test;\n\npublic class {name}Test {{\n    @Test\n    public void works() {{\n        assertThat({value}).isEqualTo(4);\n        assertThat({value}).isEqualTo(4);\n    }}\n}}\n"
    )
}

/// Hamcrest and JUnit assertions moved to AssertJ, Hamcrest kept in the POM (other tests may
/// still use it), AssertJ added: a library migration, whatever the POM alone says.
#[test]
fn assertions_moved_to_assertj_are_a_library_migration() {
    let pom_new = HAMCREST_POM.replace(
        "  </dependencies>",
        "    <dependency>\n      <groupId>org.assertj</groupId>\n      <artifactId>assertj-core</artifactId>\n      <version>3.25.3</version>\n      <scope>test</scope>\n    </dependency>\n  </dependencies>",
    );
    let tree = extract(&[
        changed("pom.xml", HAMCREST_POM, &pom_new),
        changed(
            "src/test/java/com/acme/calc/AddTest.java",
            &hamcrest_test("Add", "2 + 2"),
            &assertj_test("Add", "2 + 2"),
        ),
        changed(
            "src/test/java/com/acme/calc/MulTest.java",
            &hamcrest_test("Mul", "2 * 2"),
            &assertj_test("Mul", "2 * 2"),
        ),
    ]);
    assert_eq!(strategic_kinds(&tree), vec!["migrate_library"], "{}", render_markdown(&tree));
    assert_eq!(tree.intents[0].title, "Migrate Hamcrest -> AssertJ");
    let classified = crate::decision::pr_kind::classify(Some(&tree), None);
    assert_eq!(classified.kind, crate::model::PrKind::Migration, "{}", classified.reason);
    let old = crate::intents::old_library::of(&tree);
    assert!(old.types.contains(&"org.hamcrest.MatcherAssert".to_string()), "{old:?}");
}

/// Only the imports and types moved from `org.apache.http` to `org.apache.hc.client5` (the Kotlin
/// DSL build takes its dependencies from elsewhere, and the PR leaves it alone): a library
/// migration by the code alone.
#[test]
fn httpclient_4_to_5_by_the_code_alone_is_a_library_migration() {
    let old = "package com.acme.net;\n\nimport org.apache.http.client.methods.HttpGet;\nimport org.apache.http.impl.client.CloseableHttpClient;\nimport org.apache.http.impl.client.HttpClients;\n\nclass Fetch {\n    CloseableHttpClient client = HttpClients.createDefault();\n    HttpGet get(String url) { return new HttpGet(url); }\n}\n";
    let new = "package com.acme.net;\n\nimport org.apache.hc.client5.http.classic.methods.HttpGet;\nimport org.apache.hc.client5.http.impl.classic.CloseableHttpClient;\nimport org.apache.hc.client5.http.impl.classic.HttpClients;\n\nclass Fetch {\n    CloseableHttpClient client = HttpClients.createDefault();\n    HttpGet get(String url) { return new HttpGet(url); }\n}\n";
    let tree = extract(&[changed("src/main/java/com/acme/net/Fetch.java", old, new)]);
    assert_eq!(strategic_kinds(&tree), vec!["migrate_library"], "{}", render_markdown(&tree));
    assert_eq!(tree.intents[0].title, "Migrate Apache HttpClient 4 -> Apache HttpClient 5");
    let classified = crate::decision::pr_kind::classify(Some(&tree), None);
    assert_eq!(classified.kind, crate::model::PrKind::Migration, "{}", classified.reason);
}

/// Guava removed and its calls moved to the JDK: a library migration (nothing was added).
#[test]
fn guava_removed_for_the_jdk_is_a_library_migration() {
    let pom = one_dependency_pom("com.google.guava", "guava", "32.1.3-jre");
    let pom_new = pom.replace(
        "    <dependency>\n      <groupId>com.google.guava</groupId>\n      <artifactId>guava</artifactId>\n      <version>32.1.3-jre</version>\n    </dependency>\n",
        "",
    );
    assert_ne!(pom, pom_new);
    let old = "package com.acme;\n\nimport com.google.common.base.Preconditions;\nimport com.google.common.base.Strings;\n\nclass Names {\n    String clean(String s) {\n        Preconditions.checkNotNull(s);\n        return Strings.nullToEmpty(s);\n    }\n}\n";
    let new = "package com.acme;\n\nimport java.util.Objects;\n\nclass Names {\n    String clean(String s) {\n        Objects.requireNonNull(s);\n        return Objects.toString(s, \"\");\n    }\n}\n";
    let tree = extract(&[
        changed("pom.xml", &pom, &pom_new),
        changed("src/main/java/com/acme/Names.java", old, new),
    ]);
    assert_eq!(strategic_kinds(&tree), vec!["migrate_library"], "{}", render_markdown(&tree));
    assert_eq!(tree.intents[0].title, "Migrate Guava -> the JDK");
    let classified = crate::decision::pr_kind::classify(Some(&tree), None);
    assert_eq!(classified.kind, crate::model::PrKind::Migration, "{}", classified.reason);
}

/// One Guava call moved to the JDK across the codebase, Guava left in the build: the migration's
/// first step, a library migration. The same move in one file is a feature's detail.
#[test]
fn one_call_moved_to_the_jdk_in_many_files_is_a_library_migration() {
    let file = |name: &str, call: &str, import: &str| {
        format!(
            "package com.acme;\n\nimport {import};\n\nclass {name} {{\n    {name}(String s) {{\n        {call}(s);\n    }}\n}}\n"
        )
    };
    let moved = |names: &[&str]| {
        let changes: Vec<_> = names
            .iter()
            .map(|name| {
                changed(
                    &format!("src/main/java/com/acme/{name}.java"),
                    &file(name, "Preconditions.checkNotNull", "com.google.common.base.Preconditions"),
                    &file(name, "Objects.requireNonNull", "java.util.Objects"),
                )
            })
            .collect();
        extract(&changes)
    };
    let tree = moved(&["Get", "Put", "Delete"]);
    assert_eq!(strategic_kinds(&tree), vec!["migrate_library"], "{}", render_markdown(&tree));
    assert_eq!(tree.intents[0].title, "Migrate Guava -> the JDK");
    let one = moved(&["Get"]);
    assert!(strategic_kinds(&one).is_empty(), "{}", render_markdown(&one));
}

/// Guava dropped from the build and its uses rewritten in the PR's own way (no name moves to a
/// name): the Java files that imported Guava import the JDK and a helper of the repository's
/// instead. Dropping the dependency and one unused import is a clean-up, not a migration.
#[test]
fn a_library_removed_with_the_code_that_used_it_is_a_library_migration() {
    let pom = |guava: bool| {
        let dependency = if guava {
            "    <dependency>\n      <groupId>com.google.guava</groupId>\n      <artifactId>guava</artifactId>\n      <version>32.1.3-jre</version>\n    </dependency>\n"
        } else {
            ""
        };
        format!(
            "<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.acme</groupId>\n  <artifactId>svc</artifactId>\n  <version>1.0.0</version>\n  <dependencies>\n{dependency}    <dependency>\n      <groupId>org.slf4j</groupId>\n      <artifactId>slf4j-api</artifactId>\n      <version>2.0.9</version>\n    </dependency>\n  </dependencies>\n</project>\n"
        )
    };
    let class = |name: &str, imports: &str, body: &str| {
        format!(
            "package com.acme;\n\n{imports}\nclass {name} {{\n    Object value(String s) {{\n        return {body};\n    }}\n}}\n"
        )
    };
    let lists = || {
        changed(
            "src/main/java/com/acme/Lists.java",
            &class("Lists", "import com.google.common.collect.ImmutableList;\n", "ImmutableList.of(s)"),
            &class(
                "Lists",
                "import java.util.Arrays;\nimport java.util.Collections;\n",
                "Collections.unmodifiableList(Arrays.asList(s))",
            ),
        )
    };
    let tags = changed(
        "src/main/java/com/acme/Tags.java",
        &class("Tags", "import com.google.common.base.Joiner;\n", "Joiner.on(\",\").join(s, s)"),
        &class("Tags", "import com.acme.util.Strings;\n", "Strings.join(\",\", s, s)"),
    );
    let tree = extract(&[changed("pom.xml", &pom(true), &pom(false)), lists(), tags]);
    assert_eq!(strategic_kinds(&tree), vec!["migrate_library"], "{}", render_markdown(&tree));
    assert_eq!(tree.intents[0].title, "Migrate Guava -> the JDK");
    assert_eq!(crate::decision::pr_kind::classify(Some(&tree), None).kind, crate::model::PrKind::Migration);

    let one = extract(&[changed("pom.xml", &pom(true), &pom(false)), lists()]);
    assert!(strategic_kinds(&one).is_empty(), "{}", render_markdown(&one));
}

/// Quarkus 2 -> 3: the platform version property crosses a major, and the javax -> jakarta moves
/// that Quarkus 3 requires belong to it.
#[test]
fn quarkus_2_to_3_is_a_named_framework_upgrade() {
    let pom = |v: &str| {
        format!(
            "<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.acme</groupId>\n  <artifactId>svc</artifactId>\n  <version>1.0.0</version>\n  <properties>\n    <quarkus.platform.version>{v}</quarkus.platform.version>\n  </properties>\n</project>\n"
        )
    };
    let resource = |pkg: &str| {
        format!(
            "package com.acme;\n\nimport {pkg}.ws.rs.GET;\nimport {pkg}.ws.rs.Path;\n\n@Path(\"/hi\")\nclass Hello {{\n    @GET\n    String hi() {{ return \"hi\"; }}\n}}\n"
        )
    };
    let tree = extract(&[
        changed("pom.xml", &pom("2.16.7.Final"), &pom("3.2.0.Final")),
        changed("src/main/java/com/acme/Hello.java", &resource("javax"), &resource("jakarta")),
    ]);
    assert_eq!(strategic_kinds(&tree), vec!["upgrade_framework"], "{}", render_markdown(&tree));
    assert_eq!(tree.intents[0].title, "Upgrade Quarkus 2.16 -> 3.2");
    assert_eq!(crate::decision::pr_kind::classify(Some(&tree), None).kind, crate::model::PrKind::Migration);
}
