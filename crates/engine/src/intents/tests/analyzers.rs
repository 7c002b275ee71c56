//! Per-analyzer fixtures: each file kind's edits, and the awkward inputs (CRLF, renames, binary
//! files, malformed XML/YAML, contents that cannot be read).

use super::*;

// ---------------------------------------------------------------- Maven

const ROOT_POM: &str = r#"<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>parent</artifactId>
  <version>1.0.0</version>
  <packaging>pom</packaging>
  <modules>
    <module>api</module>
  </modules>
  <properties>
    <jackson.version>2.15.0</jackson.version>
  </properties>
  <dependencyManagement>
    <dependencies>
      <dependency>
        <groupId>com.google.guava</groupId>
        <artifactId>guava</artifactId>
        <version>31.1-jre</version>
      </dependency>
      <dependency>
        <groupId>com.fasterxml.jackson.core</groupId>
        <artifactId>jackson-databind</artifactId>
        <version>${jackson.version}</version>
      </dependency>
    </dependencies>
  </dependencyManagement>
  <build>
    <pluginManagement>
      <plugins>
        <plugin>
          <artifactId>maven-surefire-plugin</artifactId>
          <version>2.22.2</version>
        </plugin>
      </plugins>
    </pluginManagement>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.11.0</version>
        <configuration>
          <release>11</release>
        </configuration>
        <dependencies>
          <dependency>
            <groupId>org.ow2.asm</groupId>
            <artifactId>asm</artifactId>
            <version>9.5</version>
          </dependency>
        </dependencies>
      </plugin>
    </plugins>
  </build>
  <profiles>
    <profile>
      <id>integration</id>
      <properties>
        <skipITs>true</skipITs>
      </properties>
      <dependencies>
        <dependency>
          <groupId>org.testcontainers</groupId>
          <artifactId>postgresql</artifactId>
          <version>1.18.0</version>
          <scope>test</scope>
        </dependency>
      </dependencies>
    </profile>
  </profiles>
  <repositories>
    <repository>
      <id>corp</id>
      <url>https://repo.acme.com/maven</url>
    </repository>
  </repositories>
</project>
"#;

const MODULE_POM: &str = r#"<project>
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>com.acme</groupId>
    <artifactId>parent</artifactId>
    <version>1.0.0</version>
  </parent>
  <artifactId>api</artifactId>
  <properties>
    <skipITs>true</skipITs>
  </properties>
  <dependencies>
    <dependency>
      <groupId>com.google.guava</groupId>
      <artifactId>guava</artifactId>
    </dependency>
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-api</artifactId>
      <version>1.7.36</version>
    </dependency>
    <dependency>
      <groupId>commons-io</groupId>
      <artifactId>commons-io</artifactId>
      <version>2.11.0</version>
    </dependency>
  </dependencies>
</project>
"#;

#[test]
fn multi_module_poms_profiles_plugins_and_repositories() {
    let root_new = ROOT_POM
        .replace("<jackson.version>2.15.0<", "<jackson.version>2.16.1<")
        .replace("<version>31.1-jre</version>", "<version>32.1.3-jre</version>")
        .replace("<version>2.22.2</version>", "<version>3.2.2</version>")
        .replace("<release>11</release>", "<release>17</release>")
        .replace("<version>9.5</version>", "<version>9.6</version>")
        .replace("<version>1.18.0</version>", "<version>1.19.3</version>")
        .replace("https://repo.acme.com/maven", "https://maven.acme.com/releases")
        .replace("<version>1.0.0</version>\n  <packaging>", "<version>1.1.0</version>\n  <packaging>");
    let module_new = MODULE_POM
        .replace("<version>1.0.0</version>", "<version>1.1.0</version>")
        .replace("<version>1.7.36</version>", "<version>2.0.9</version>")
        .replace(
            "    <dependency>\n      <groupId>commons-io</groupId>\n      <artifactId>commons-io</artifactId>\n      <version>2.11.0</version>\n    </dependency>\n",
            "",
        )
        .replace(
            "  </dependencies>",
            "    <dependency>\n      <groupId>org.projectlombok</groupId>\n      <artifactId>lombok</artifactId>\n      <version>1.18.30</version>\n      <scope>provided</scope>\n    </dependency>\n  </dependencies>",
        );
    let tree =
        extract(&[changed("pom.xml", ROOT_POM, &root_new), changed("api/pom.xml", MODULE_POM, &module_new)]);

    expect(
        &only(&tree, "maven.property_change"),
        &[("key", "jackson.version"), ("old_value", "2.15.0"), ("new_value", "2.16.1"), ("file", "pom.xml")],
    );
    let versions = of_kind(&tree, "maven.dependency_version");
    let found: Vec<(&str, &str, &str, &str)> = versions
        .iter()
        .map(|v| (v.param("artifact_id"), v.param("new_version"), v.param("managed"), v.param("file")))
        .collect();
    assert_eq!(
        found,
        vec![
            ("slf4j-api", "2.0.9", "false", "api/pom.xml"),
            ("guava", "32.1.3-jre", "true", "pom.xml"),
            ("asm", "9.6", "false", "pom.xml"),
            ("postgresql", "1.19.3", "false", "pom.xml"),
        ]
    );
    expect(
        &only(&tree, "maven.plugin_version"),
        &[
            ("group_id", "org.apache.maven.plugins"),
            ("artifact_id", "maven-surefire-plugin"),
            ("new_version", "3.2.2"),
        ],
    );
    expect(
        &only(&tree, "maven.plugin_config"),
        &[
            ("artifact_id", "maven-compiler-plugin"),
            ("key", "release"),
            ("old_value", "11"),
            ("new_value", "17"),
        ],
    );
    expect(
        &only(&tree, "maven.parent_change"),
        &[
            ("old_group_id", "com.acme"),
            ("old_version", "1.0.0"),
            ("new_version", "1.1.0"),
            ("file", "api/pom.xml"),
        ],
    );
    expect(
        &only(&tree, "maven.repository_change"),
        &[("change", "url"), ("id", "corp"), ("new_url", "https://maven.acme.com/releases")],
    );
    expect(
        &only(&tree, "maven.dependency_removed"),
        &[("group_id", "commons-io"), ("artifact_id", "commons-io")],
    );
    expect(
        &only(&tree, "maven.dependency_added"),
        &[("group_id", "org.projectlombok"), ("version", "1.18.30"), ("scope", "provided")],
    );
    // The compiler release is a Java upgrade; the root's own version is left as a text edit.
    assert_eq!(strategic_kinds(&tree), vec!["upgrade_java"]);
    expect(
        &only(&tree, "text.edit"),
        &[("from", "  <version>1.0.0</version>"), ("to", "  <version>1.1.0</version>")],
    );
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
}

#[test]
fn a_repositories_section_added_as_a_whole_is_the_added_repositorys() {
    let old = "<project>\n  <modelVersion>4.0.0</modelVersion>\n  <artifactId>a</artifactId>\n</project>\n";
    let new = "<project>\n  <modelVersion>4.0.0</modelVersion>\n  <artifactId>a</artifactId>\n  <pluginRepositories>\n    <pluginRepository>\n      <id>spring-milestones</id>\n      <name>Spring Milestones</name>\n      <url>https://repo.spring.io/milestone</url>\n      <snapshots>\n        <enabled>false</enabled>\n      </snapshots>\n    </pluginRepository>\n  </pluginRepositories>\n</project>\n";
    let tree = extract(&[changed("pom.xml", old, new)]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    let added = only(&tree, "maven.repository_change");
    expect(
        &added,
        &[
            ("change", "added"),
            ("section", "pluginRepositories"),
            ("id", "spring-milestones"),
            ("new_url", "https://repo.spring.io/milestone"),
            ("name", "Spring Milestones"),
            ("snapshots", "false"),
        ],
    );
    assert!(!added.contains_key("releases"), "{added:?}");
    assert_eq!(of_kind(&tree, "maven.repository_change")[0].evidence.len(), 10, "the section's tags too");
}

#[test]
fn a_drop_in_replacement_in_place_is_a_swap_even_with_an_unrelated_name() {
    let pom = |group: &str, artifact: &str, version: &str| {
        format!(
            "<project>\n  <dependencies>\n    <dependency>\n      <groupId>junit</groupId>\n      <artifactId>junit</artifactId>\n      <version>4.13.2</version>\n    </dependency>\n    <dependency>\n      <groupId>{group}</groupId>\n      <artifactId>{artifact}</artifactId>\n      <version>{version}</version>\n    </dependency>\n  </dependencies>\n</project>\n"
        )
    };
    let tree = extract(&[changed(
        "pom.xml",
        &pom("log4j", "log4j", "1.2.17"),
        &pom("ch.qos.reload4j", "reload4j", "1.2.25"),
    )]);
    expect(
        &only(&tree, "maven.dependency_swap"),
        &[("old_group_id", "log4j"), ("new_group_id", "ch.qos.reload4j"), ("new_version", "1.2.25")],
    );
    // Another major version in the same place is a different library: removed and added.
    let tree =
        extract(&[changed("pom.xml", &pom("log4j", "log4j", "1.2.17"), &pom("org.acme", "logs", "4.0"))]);
    assert!(of_kind(&tree, "maven.dependency_swap").is_empty(), "{}", render_markdown(&tree));
    assert_eq!(of_kind(&tree, "maven.dependency_added").len(), 1);
}

#[test]
fn the_same_bump_in_several_modules_is_one_intent() {
    let module = |name: &str, v: &str| {
        format!(
            "<project>\n  <artifactId>{name}</artifactId>\n  <dependencies>\n    <dependency>\n      <groupId>org.slf4j</groupId>\n      <artifactId>slf4j-api</artifactId>\n      <version>{v}</version>\n    </dependency>\n  </dependencies>\n</project>\n"
        )
    };
    let tree = extract(&[
        changed("a/pom.xml", &module("a", "1.7.36"), &module("a", "2.0.9")),
        changed("b/pom.xml", &module("b", "1.7.36"), &module("b", "2.0.9")),
    ]);
    let bump = of_kind(&tree, "maven.dependency_version");
    assert_eq!(bump.len(), 1);
    assert_eq!(bump[0].params()["files"], serde_json::json!(["a/pom.xml", "b/pom.xml"]));
    assert_eq!(bump[0].evidence.len(), 4);
}

#[test]
fn malformed_pom_falls_back_to_text() {
    let old = "<project>\n  <version>1</version>\n</project>\n";
    let new = "<project>\n  <version>2</versio>\n</project>\n";
    let tree = extract(&[changed("pom.xml", old, new)]);
    expect(&only(&tree, "text.edit"), &[("from", "  <version>1</version>"), ("to", "  <version>2</versio>")]);
    assert_eq!(tree.coverage, 1.0);
}

#[test]
fn crlf_pom_is_analysed_like_any_other() {
    let old = MODULE_POM.replace('\n', "\r\n");
    let new = old.replace("<version>1.7.36</version>", "<version>2.0.9</version>");
    let tree = extract(&[changed("api/pom.xml", &old, &new)]);
    expect(
        &only(&tree, "maven.dependency_version"),
        &[("artifact_id", "slf4j-api"), ("new_version", "2.0.9")],
    );
    assert_eq!(tree.coverage, 1.0);
    assert_eq!(tree.changed_lines, 2);
}

// ---------------------------------------------------------------- Gradle

const BUILD_GRADLE: &str = "plugins {
    id 'java'
    id 'org.springframework.boot' version '2.7.18'
}

java {
    sourceCompatibility = '11'
}

dependencies {
    implementation 'org.apache.commons:commons-lang3:3.12.0'
    implementation group: 'com.google.guava', name: 'guava', version: '31.1-jre'
    testImplementation 'junit:junit:4.13.2'
}
";

#[test]
fn groovy_build_script() {
    let new = BUILD_GRADLE
        .replace("version '2.7.18'", "version '3.1.5'")
        .replace("sourceCompatibility = '11'", "sourceCompatibility = '17'")
        .replace("commons-lang3:3.12.0", "commons-lang3:3.14.0")
        .replace("version: '31.1-jre'", "version: '32.1.3-jre'")
        .replace(
            "testImplementation 'junit:junit:4.13.2'",
            "testImplementation 'org.junit.jupiter:junit-jupiter:5.10.1'",
        );
    let tree = extract(&[changed("build.gradle", BUILD_GRADLE, &new)]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    expect(
        &only(&tree, "gradle.plugin_version"),
        &[("plugin_id", "org.springframework.boot"), ("old_version", "2.7.18"), ("new_version", "3.1.5")],
    );
    expect(
        &only(&tree, "gradle.java_compatibility"),
        &[("property", "sourceCompatibility"), ("old_value", "11"), ("new_value", "17")],
    );
    let versions = of_kind(&tree, "gradle.dependency_version");
    let found: Vec<(&str, &str, &str)> = versions
        .iter()
        .map(|v| (v.param("artifact_id"), v.param("new_version"), v.param("configuration")))
        .collect();
    assert_eq!(
        found,
        vec![("commons-lang3", "3.14.0", "implementation"), ("guava", "32.1.3-jre", "implementation")]
    );
    expect(
        &only(&tree, "gradle.dependency_swap"),
        &[
            ("old_group_id", "junit"),
            ("new_group_id", "org.junit.jupiter"),
            ("new_artifact_id", "junit-jupiter"),
        ],
    );
    let mut kinds = strategic_kinds(&tree);
    kinds.sort();
    assert_eq!(kinds, vec!["migrate_junit4_to_junit5", "upgrade_java", "upgrade_spring_boot"]);
}

#[test]
fn kotlin_build_script_and_wrapper() {
    let old = "plugins {\n    kotlin(\"jvm\") version \"1.9.10\"\n}\n\njava {\n    toolchain {\n        languageVersion.set(JavaLanguageVersion.of(17))\n    }\n}\n\ndependencies {\n    implementation(\"javax.inject:javax.inject:1\")\n    runtimeOnly(group = \"org.postgresql\", name = \"postgresql\", version = \"42.6.0\")\n}\n";
    let new = old
        .replace("1.9.10", "1.9.22")
        .replace("of(17)", "of(21)")
        .replace(
            "implementation(\"javax.inject:javax.inject:1\")",
            "implementation(\"jakarta.inject:jakarta.inject-api:2.0.1\")",
        )
        .replace("42.6.0", "42.7.1");
    let wrapper_old = "distributionBase=GRADLE_USER_HOME\ndistributionUrl=https\\://services.gradle.org/distributions/gradle-8.4-bin.zip\ndistributionSha256Sum=aaaa\n";
    let wrapper_new = wrapper_old.replace("8.4", "8.5").replace("aaaa", "bbbb");
    let tree = extract(&[
        changed("build.gradle.kts", old, &new),
        changed("gradle/wrapper/gradle-wrapper.properties", wrapper_old, &wrapper_new),
    ]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    expect(
        &only(&tree, "gradle.plugin_version"),
        &[("plugin_id", "org.jetbrains.kotlin.jvm"), ("new_version", "1.9.22")],
    );
    expect(&only(&tree, "gradle.toolchain"), &[("old_version", "17"), ("new_version", "21")]);
    expect(
        &only(&tree, "gradle.dependency_swap"),
        &[
            ("old_group_id", "javax.inject"),
            ("new_artifact_id", "jakarta.inject-api"),
            ("new_version", "2.0.1"),
        ],
    );
    expect(
        &only(&tree, "gradle.dependency_version"),
        &[("artifact_id", "postgresql"), ("old_version", "42.6.0"), ("configuration", "runtimeOnly")],
    );
    let wrapper = only(&tree, "gradle.wrapper_version");
    expect(
        &wrapper,
        &[
            ("old_version", "8.4"),
            ("new_version", "8.5"),
            ("distribution", "bin"),
            ("distribution_url", "https://services.gradle.org/distributions/gradle-8.5-bin.zip"),
        ],
    );
    assert_eq!(of_kind(&tree, "gradle.wrapper_version")[0].evidence.len(), 4, "url and checksum lines");
}

// ---------------------------------------------------------------- Java

#[test]
fn method_renames_static_calls_and_wildcard_package_moves() {
    let old = "package com.acme;\n\nimport org.junit.Assert;\nimport com.legacy.util.*;\n\nclass Service {\n    void run(Client client) {\n        client.fetchAll();\n        Assert.assertTrue(client.ok());\n    }\n}\n";
    let new = "package com.acme;\n\nimport org.junit.jupiter.api.Assertions;\nimport com.modern.util.*;\n\nclass Service {\n    void run(Client client) {\n        client.findAll();\n        Assertions.assertTrue(client.ok());\n    }\n}\n";
    let tree = extract(&[changed("src/main/java/com/acme/Service.java", old, new)]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    expect(
        &only(&tree, "java.method_rename"),
        &[("old_method", "fetchAll"), ("new_method", "findAll"), ("declaring_type", "")],
    );
    let call = only(&tree, "java.static_call_target");
    expect(
        &call,
        &[
            ("method", "assertTrue"),
            ("old_type", "org.junit.Assert"),
            ("new_type", "org.junit.jupiter.api.Assertions"),
        ],
    );
    assert_eq!(of_kind(&tree, "java.static_call_target")[0].evidence.len(), 4, "call and import lines");
    expect(
        &only(&tree, "java.package_move"),
        &[("old_package", "com.legacy.util"), ("new_package", "com.modern.util")],
    );
}

/// `Client.java` changed from `old` to `new` is one `checkNotNull` -> `Objects.requireNonNull`
/// change, with its calls and imports as evidence, and no method rename beside it.
fn one_check_not_null_to_require_non_null(old: &str, new: &str) {
    let tree = extract(&[changed("src/main/java/com/acme/Client.java", old, new)]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    expect(
        &only(&tree, "java.static_call_target"),
        &[
            ("method", "checkNotNull"),
            ("old_type", "com.google.common.base.Preconditions"),
            ("new_type", "java.util.Objects"),
            ("new_method", "requireNonNull"),
        ],
    );
    assert_eq!(of_kind(&tree, "java.static_call_target")[0].evidence.len(), 6, "calls and imports");
    assert!(of_kind(&tree, "java.method_rename").is_empty(), "{}", render_markdown(&tree));
}

#[test]
fn another_types_static_method_in_place_is_one_static_call_change() {
    let old = "package com.acme;\n\nimport com.google.common.base.Preconditions;\n\nclass Client {\n    Client(String name, Object config) {\n        Preconditions.checkNotNull(name);\n        Preconditions.checkNotNull(config, \"config\");\n    }\n}\n";
    let new = "package com.acme;\n\nimport java.util.Objects;\n\nclass Client {\n    Client(String name, Object config) {\n        Objects.requireNonNull(name);\n        Objects.requireNonNull(config, \"config\");\n    }\n}\n";
    one_check_not_null_to_require_non_null(old, new);
}

/// The same change written with static imports: `import static ...Preconditions.checkNotNull;`
/// and bare `checkNotNull(` calls become `import static java.util.Objects.requireNonNull;` and
/// `requireNonNull(`. The calls resolve through the static imports, so it is the same one change.
#[test]
fn a_statically_imported_method_replaced_by_another_types_is_one_static_call_change() {
    let old = "package com.acme;\n\nimport static com.google.common.base.Preconditions.checkNotNull;\n\nclass Client {\n    Client(String name, Object config) {\n        checkNotNull(name);\n        this.config = checkNotNull(config, \"config\");\n    }\n}\n";
    let new = old
        .replace("com.google.common.base.Preconditions.checkNotNull;", "java.util.Objects.requireNonNull;")
        .replace("checkNotNull(", "requireNonNull(");
    one_check_not_null_to_require_non_null(old, &new);
}

#[test]
fn a_method_renamed_at_its_declaration_names_its_declaring_type() {
    let stock_old = "package com.acme.inv;\n\npublic class Stock {\n    public int quantityOf(String sku) {\n        return 1;\n    }\n}\n";
    let stock_new = "package com.acme.inv;\n\npublic class Stock {\n    public int available(String sku) {\n        return 1;\n    }\n}\n";
    let report_old = "package com.acme.inv;\n\nclass Report {\n    String line(Stock stock, String sku) {\n        return sku + stock.quantityOf(sku);\n    }\n}\n";
    let report_new = "package com.acme.inv;\n\nclass Report {\n    String line(Stock stock, String sku) {\n        return sku + stock.available(sku);\n    }\n}\n";
    let tree = extract(&[
        changed("src/main/java/com/acme/inv/Stock.java", stock_old, stock_new),
        changed("src/main/java/com/acme/inv/Report.java", report_old, report_new),
    ]);
    let renames = of_kind(&tree, "java.method_rename");
    assert_eq!(renames.len(), 1, "declaration and call are one rename: {}", render_markdown(&tree));
    expect(
        &only(&tree, "java.method_rename"),
        &[
            ("old_method", "quantityOf"),
            ("new_method", "available"),
            ("declaring_type", "com.acme.inv.Stock"),
        ],
    );
    assert_eq!(renames[0].evidence.len(), 4);
}

#[test]
fn renamed_class_file_is_a_type_rename() {
    let old = "package com.acme;\n\npublic class OldName {\n    public OldName() {}\n}\n";
    let new = "package com.acme;\n\npublic class NewName {\n    public NewName() {}\n}\n";
    let user_old = "package com.other;\n\nimport com.acme.OldName;\n\nclass User {\n    OldName name = new OldName();\n}\n";
    let user_new = "package com.other;\n\nimport com.acme.NewName;\n\nclass User {\n    NewName name = new NewName();\n}\n";
    let tree = extract(&[
        renamed("src/main/java/com/acme/OldName.java", "src/main/java/com/acme/NewName.java", old, new),
        changed("src/main/java/com/other/User.java", user_old, user_new),
    ]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    let rename = only(&tree, "java.type_rename");
    expect(&rename, &[("old_type", "com.acme.OldName"), ("new_type", "com.acme.NewName")]);
    assert_eq!(of_kind(&tree, "java.type_rename")[0].evidence.len(), 8);
    expect(
        &only(&tree, "file.renamed"),
        &[
            ("old_file", "src/main/java/com/acme/OldName.java"),
            ("new_file", "src/main/java/com/acme/NewName.java"),
        ],
    );
}

#[test]
fn import_order_and_whitespace_only_changes_are_labelled() {
    let old = "package a;\n\nimport java.util.List;\nimport java.util.Map;\n\nclass A {\n    int x = 1;\n}\n";
    let new =
        "package a;\n\nimport java.util.Map;\nimport java.util.List;\n\nclass A {\n  int x  = 1;\n\n}\n";
    let tree = extract(&[changed("src/A.java", old, new)]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    assert_eq!(of_kind(&tree, "import_order").len(), 1);
    assert_eq!(of_kind(&tree, "whitespace").len(), 1);
    assert_eq!(tree.labels.get("import_order"), Some(&2));
    assert_eq!(tree.labels.get("whitespace"), Some(&3));
}

#[test]
fn unexplained_java_lines_stay_unexplained() {
    let old = "class A {\n    int f() { return 1; }\n}\n";
    let new = "class A {\n    int f() { return 2; }\n    int g() { return 3; }\n}\n";
    let tree = extract(&[changed("src/A.java", old, new)]);
    // The replaced line is a text edit; the new method is not something a recipe can infer.
    expect(
        &only(&tree, "text.edit"),
        &[("from", "    int f() { return 1; }"), ("to", "    int f() { return 2; }")],
    );
    assert_eq!(tree.unexplained.len(), 1);
    assert_eq!(tree.unexplained[0].content, "    int g() { return 3; }");
    assert_eq!(tree.coverage, 0.6667);
}

#[test]
fn java_imports_are_found_without_full_contents() {
    // Contents that cannot be read are rebuilt from the hunks.
    let pr = Pr::new(&[changed(
        "src/A.java",
        "package a;\n\nimport javax.inject.Inject;\n\nclass A {}\n",
        "package a;\n\nimport jakarta.inject.Inject;\n\nclass A {}\n",
    )]);
    let tree = extract_from(&pr.diff, &|_, _| None);
    expect(
        &only(&tree, "java.package_move"),
        &[("old_package", "javax.inject"), ("new_package", "jakarta.inject")],
    );
}

// ---------------------------------------------------------------- YAML and properties

#[test]
fn quoted_yaml_values_and_multi_document_files() {
    let old = "app:\n  name: 'shop'\n  version: \"1.0\"\n---\nspring:\n  config:\n    activate:\n      on-profile: prod\nserver:\n  port: 80\n";
    let new = "app:\n  name: 'shop'\n  version: \"1.1\"\n---\nspring:\n  config:\n    activate:\n      on-profile: prod\nserver:\n  port: 443\n";
    let tree = extract(&[changed("config/application.yaml", old, new)]);
    let changes = of_kind(&tree, "yaml.value_change");
    let found: Vec<(&str, &str, &str)> =
        changes.iter().map(|c| (c.param("key"), c.param("new_value"), c.param("quoted"))).collect();
    assert_eq!(found, vec![("app.version", "1.1", "true"), ("server.port", "443", "false")]);
    assert_eq!(tree.coverage, 1.0);
}

#[test]
fn yaml_added_and_removed_keys_and_malformed_yaml() {
    let tree = extract(&[
        changed("a.yml", "a:\n  b: 1\n  c: 2\n", "a:\n  b: 1\n  d:\n    e: 3\n"),
        changed("broken.yml", "a: [1, 2]\n", "a: [1, 2\n"),
    ]);
    expect(&only(&tree, "yaml.key_removed"), &[("key", "a.c")]);
    let added = of_kind(&tree, "yaml.key_added");
    assert_eq!(added[0].param("key"), "a.d.e");
    assert_eq!(added[0].evidence.len(), 2, "the new parent key line too");
    expect(&only(&tree, "text.edit"), &[("from", "a: [1, 2]"), ("to", "a: [1, 2")]);
    assert_eq!(tree.coverage, 1.0);
}

#[test]
fn properties_added_and_removed_keys() {
    let tree = extract(&[changed(
        "src/main/resources/application.properties",
        "# settings\nlogging.level.root=INFO\nfeature.x=on\n",
        "# settings\nlogging.level.root=INFO\nfeature.y=off\nmanagement.endpoints.web.exposure.include=*\n",
    )]);
    expect(&only(&tree, "properties.key_removed"), &[("key", "feature.x")]);
    let added = of_kind(&tree, "properties.key_added");
    assert_eq!(added.len(), 2);
    assert_eq!(tree.coverage, 1.0);
}

// ---------------------------------------------------------------- CI, Docker, text

#[test]
fn workflow_matrix_and_other_values() {
    let old = "on: push\njobs:\n  test:\n    strategy:\n      matrix:\n        java: [11]\n    runs-on: ubuntu-20.04\n    steps:\n      - uses: actions/setup-java@v3\n        with:\n          distribution: adopt\n          java-version: ${{ matrix.java }}\n";
    let new = "on: push\njobs:\n  test:\n    strategy:\n      matrix:\n        java: [17]\n    runs-on: ubuntu-22.04\n    steps:\n      - uses: actions/setup-java@v4\n        with:\n          distribution: temurin\n          java-version: ${{ matrix.java }}\n";
    let tree = extract(&[changed(".github/workflows/build.yaml", old, new)]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    expect(
        &only(&tree, "github_actions.setup_java"),
        &[
            ("old_distribution", "adopt"),
            ("new_distribution", "temurin"),
            ("old_version", "${{ matrix.java }}"),
        ],
    );
    expect(
        &only(&tree, "github_actions.action_version"),
        &[("action", "actions/setup-java"), ("new_ref", "v4")],
    );
    let values = of_kind(&tree, "github_actions.value_change");
    let keys: Vec<&str> = values.iter().map(|v| v.param("key")).collect();
    assert_eq!(keys, vec!["jobs.test.strategy.matrix.java[0]", "jobs.test.runs-on"]);
    assert_eq!(strategic_kinds(&tree), vec!["upgrade_java"]);
}

#[test]
fn dockerfile_stages() {
    let old = "FROM maven:3.8-openjdk-11 AS build\nRUN mvn package\nFROM openjdk:11-jre-slim\nCOPY --from=build /app.jar /app.jar\n";
    let new = "FROM maven:3.9-eclipse-temurin-17 AS build\nRUN mvn package\nFROM eclipse-temurin:17-jre\nCOPY --from=build /app.jar /app.jar\n";
    let tree = extract(&[changed("docker/Dockerfile", old, new)]);
    let froms = of_kind(&tree, "docker.from_change");
    let found: Vec<(&str, &str, &str, &str)> = froms
        .iter()
        .map(|f| (f.param("old_image"), f.param("old_tag"), f.param("new_image"), f.param("new_tag")))
        .collect();
    assert_eq!(
        found,
        vec![
            ("maven", "3.8-openjdk-11", "maven", "3.9-eclipse-temurin-17"),
            ("openjdk", "11-jre-slim", "eclipse-temurin", "17-jre")
        ]
    );
    assert_eq!(tree.intents[0].title, "Upgrade Java 11 -> 17");
}

#[test]
fn the_build_level_names_the_java_upgrade_not_the_ci_matrix() {
    let pom = |level: &str| {
        format!(
            "<project>\n  <properties>\n    <maven.compiler.release>{level}</maven.compiler.release>\n  </properties>\n</project>\n"
        )
    };
    let ci = |list: &str| {
        format!("on: push\njobs:\n  test:\n    strategy:\n      matrix:\n        java: [{list}]\n")
    };
    let tree = extract(&[
        changed("pom.xml", &pom("11"), &pom("17")),
        changed(".github/workflows/ci.yml", &ci("'11', '17'"), &ci("'17', '21'")),
    ]);
    assert_eq!(tree.intents[0].title, "Upgrade Java 11 -> 17", "{}", render_markdown(&tree));
    assert_eq!(tree.intents[0].param("to"), "17");
}

#[test]
fn plain_text_edits_and_whole_files() {
    let tree = extract(&[
        changed("README.md", "# Shop\nRuns on Java 11.\n", "# Shop\nRuns on Java 17.\n\nSee docs.\n"),
        added("docs/migration.md", "# Migration\nDone.\n"),
        deleted("old.txt", "bye\n"),
    ]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    let edits = of_kind(&tree, "text.edit");
    let found: Vec<(&str, &str)> = edits.iter().map(|e| (e.param("from"), e.param("to"))).collect();
    assert_eq!(found, vec![("Runs on Java 11.", "Runs on Java 17."), ("", "See docs.")]);
    expect(&only(&tree, "file.added"), &[("file", "docs/migration.md"), ("lines", "2")]);
    expect(&only(&tree, "file.deleted"), &[("file", "old.txt")]);
    assert_eq!(tree.labels.get("whitespace"), Some(&1), "the added blank line");
}

#[test]
fn renamed_binary_and_excluded_files() {
    let tree = extract(&[
        renamed("docs/a.md", "docs/b.md", "same\n", "same\n"),
        binary("docs/logo.png"),
        changed("target/classes/x.txt", "a\n", "b\n"),
        changed("gradlew", "a\n", "b\n"),
    ]);
    assert_eq!(tree.changed_lines, 0);
    assert_eq!(tree.coverage, 1.0);
    assert_eq!(tree.binary_files, vec!["docs/logo.png"]);
    expect(&only(&tree, "file.renamed"), &[("old_file", "docs/a.md"), ("new_file", "docs/b.md")]);
    insta::assert_snapshot!(render_markdown(&tree));
}

#[test]
fn input_that_is_not_a_diff_gives_an_empty_tree() {
    let tree = extract_from("this is not a diff\n", &|_, _| None);
    assert!(tree.intents.is_empty());
    assert_eq!(tree.coverage, 1.0);
    let tree = extract_from("", &|_, _| None);
    assert_eq!(tree.changed_lines, 0);
}

#[test]
fn garbage_contents_never_panic() {
    let nasty = [
        "",
        "\0\0\0",
        "<<<>>>",
        "a: : :\n\t- [",
        "import ;\nimport static ;\n@\n",
        "FROM\nFROM :\n",
        "\u{feff}x=1\\",
    ];
    for old in nasty {
        for new in nasty {
            for path in [
                "pom.xml",
                "build.gradle",
                "A.java",
                "a.yml",
                ".github/workflows/x.yml",
                "a.properties",
                "Dockerfile",
                "gradle/wrapper/gradle-wrapper.properties",
            ] {
                if old != new {
                    let _ = extract(&[changed(path, old, new)]);
                }
            }
        }
    }
}

#[test]
fn atomics_helper_lists_kinds_and_params() {
    let tree = extract(&[changed("a.txt", "x\n", "y\n")]);
    assert_eq!(
        atomics(&tree),
        vec![("text.edit".to_string(), vec![("from".into(), "x".into()), ("to".into(), "y".into())])]
    );
}

#[test]
fn annotations_with_arguments_and_static_method_renames() {
    let old = "package a;\n\nimport org.junit.runner.RunWith;\nimport org.springframework.test.context.junit4.SpringRunner;\nimport com.acme.Strings;\n\n@RunWith(SpringRunner.class)\nclass ATest {\n    String s = Strings.isEmptyString(\"x\");\n}\n";
    let new = "package a;\n\nimport org.junit.jupiter.api.extension.ExtendWith;\nimport org.springframework.test.context.junit.jupiter.SpringExtension;\nimport com.acme.Strings;\n\n@ExtendWith(SpringExtension.class)\nclass ATest {\n    String s = Strings.isEmpty(\"x\");\n}\n";
    let tree = extract(&[changed("src/test/java/a/ATest.java", old, new)]);
    assert_eq!(tree.coverage, 1.0, "{}", render_markdown(&tree));
    expect(
        &only(&tree, "java.annotation_change"),
        &[
            ("old_annotation", "org.junit.runner.RunWith"),
            ("new_annotation", "org.junit.jupiter.api.extension.ExtendWith"),
        ],
    );
    expect(
        &only(&tree, "java.type_rename"),
        &[
            ("old_type", "org.springframework.test.context.junit4.SpringRunner"),
            ("new_type", "org.springframework.test.context.junit.jupiter.SpringExtension"),
        ],
    );
    expect(
        &only(&tree, "java.method_rename"),
        &[("old_method", "isEmptyString"), ("new_method", "isEmpty"), ("declaring_type", "com.acme.Strings")],
    );
    assert_eq!(strategic_kinds(&tree), vec!["migrate_junit4_to_junit5"]);
}

#[test]
fn random_syntax_soup_never_panics() {
    // A fixed pseudo-random generator: the same inputs every run.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet: Vec<char> = "ab:{}[]<>/=\"'@.;*-# \t\n\nimportpackagestaticFROM\\é$()&".chars().collect();
    let paths = [
        "pom.xml",
        "b.gradle.kts",
        "A.java",
        "c.yaml",
        ".github/workflows/w.yml",
        "d.properties",
        "Dockerfile",
    ];
    for round in 0..400 {
        let mut soup = || {
            (0..(next() % 120))
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect::<String>()
        };
        let (old, new) = (soup(), soup());
        let _ = extract(&[changed(paths[round % paths.len()], &old, &new)]);
    }
}
