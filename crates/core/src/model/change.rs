//! What an atomic intent says, typed: the contract between intent extraction (which builds these)
//! and recipe mapping (which matches on them, exhaustively). In `intent-tree.json` a change is the
//! node's `kind` and its `params` (plus `file`/`files`, which every atomic intent has); the serde
//! attributes below keep that shape exactly, so the JSON is the same as when params were a map.
//! `docs/intents.md` documents each kind; a test checks the two against each other.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::intent::kind;

/// One concrete edit. Values are as written in the files (versions, keys, names).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", content = "params")]
// The variants are the JSON kinds (`java.annotation_change` is JavaAnnotationChange).
#[allow(clippy::enum_variant_names)]
pub enum Change {
    /// Every type of a Java package moved to another package, keeping its simple name.
    #[serde(rename = "java.package_move")]
    JavaPackageMove {
        /// The package before, e.g. `javax.servlet`.
        old_package: String,
        /// The package after, e.g. `jakarta.servlet`.
        new_package: String,
    },
    /// A Java type renamed or moved (its uses follow).
    #[serde(rename = "java.type_rename")]
    JavaTypeRename {
        /// Fully qualified name before.
        old_type: String,
        /// Fully qualified name after.
        new_type: String,
    },
    /// A type used as annotation whose simple name changed; names fully qualified via imports.
    #[serde(rename = "java.annotation_change")]
    JavaAnnotationChange {
        /// Fully qualified annotation type before, e.g. `org.junit.Before`.
        old_annotation: String,
        /// Fully qualified annotation type after, e.g. `org.junit.jupiter.api.BeforeEach`.
        new_annotation: String,
    },
    /// `declaring_type`: fully qualified when known, else empty.
    #[serde(rename = "java.method_rename")]
    JavaMethodRename {
        /// Simple name of the method before.
        old_method: String,
        /// Simple name of the method after.
        new_method: String,
        /// Fully qualified type that declares the method; empty when unknown.
        declaring_type: String,
    },
    /// `method`: `*` for a wildcard static import. `new_method`: the name the call has on the new
    /// type when it changes too (`Preconditions.checkNotNull` -> `Objects.requireNonNull`), else
    /// empty (and absent in the JSON).
    #[serde(rename = "java.static_call_target")]
    JavaStaticCallTarget {
        /// Simple name of the static method called, or `*` for a wildcard static import.
        method: String,
        /// Fully qualified type the call went to before.
        old_type: String,
        /// Fully qualified type the call goes to after.
        new_type: String,
        /// The method's name on the new type when it changed; empty (absent) when it did not.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        new_method: String,
    },

    /// The POM's `<parent>` changed coordinates or version.
    #[serde(rename = "maven.parent_change")]
    MavenParentChange {
        /// Parent's groupId before.
        old_group_id: String,
        /// Parent's artifactId before.
        old_artifact_id: String,
        /// Parent's version before.
        old_version: String,
        /// Parent's groupId after.
        new_group_id: String,
        /// Parent's artifactId after.
        new_artifact_id: String,
        /// Parent's version after.
        new_version: String,
        /// The PR removed explicit versions of dependencies (ones the new parent manages); when it
        /// did not, the recipe must not either (`ChangeParentPom` does by default).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        drops_managed_versions: bool,
    },
    /// A Maven `<properties>` value changed.
    #[serde(rename = "maven.property_change")]
    MavenPropertyChange {
        /// Property name, e.g. `java.version`.
        key: String,
        /// Value before, as written.
        old_value: String,
        /// Value after, as written.
        new_value: String,
        /// Id of the `<profile>` the property is in; absent at the top level.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        profile: Option<String>,
    },
    /// A Maven property added.
    #[serde(rename = "maven.property_added")]
    MavenPropertyAdded {
        /// Property name.
        key: String,
        /// Its value, as written.
        value: String,
        /// Id of the `<profile>` the property is in; absent at the top level.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        profile: Option<String>,
    },
    /// A Maven property removed.
    #[serde(rename = "maven.property_removed")]
    MavenPropertyRemoved {
        /// Property name.
        key: String,
        /// Id of the `<profile>` the property was in; absent at the top level.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        profile: Option<String>,
    },
    /// Versions as written (`${prop}` stays); `managed`: in `dependencyManagement`.
    #[serde(rename = "maven.dependency_version")]
    MavenDependencyVersion {
        /// The dependency's groupId.
        group_id: String,
        /// The dependency's artifactId.
        artifact_id: String,
        /// Version before, as written.
        old_version: String,
        /// Version after, as written.
        new_version: String,
        /// `"true"` when the dependency is in `<dependencyManagement>`.
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        managed: bool,
    },
    /// One dependency replaced by another (a different groupId or artifactId) in the same section.
    #[serde(rename = "maven.dependency_swap")]
    MavenDependencySwap {
        /// Removed dependency's groupId.
        old_group_id: String,
        /// Removed dependency's artifactId.
        old_artifact_id: String,
        /// Added dependency's groupId.
        new_group_id: String,
        /// Added dependency's artifactId.
        new_artifact_id: String,
        /// Removed dependency's version as written; empty when it had none.
        old_version: String,
        /// Added dependency's version as written; empty when it has none.
        new_version: String,
        /// `"true"` when in `<dependencyManagement>`.
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        managed: bool,
    },
    /// A Maven dependency added.
    #[serde(rename = "maven.dependency_added")]
    MavenDependencyAdded {
        /// groupId.
        group_id: String,
        /// artifactId.
        artifact_id: String,
        /// Version as written; empty when managed elsewhere.
        version: String,
        /// `<scope>`, e.g. `test`; empty when not given.
        scope: String,
        /// `"true"` when in `<dependencyManagement>`.
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        managed: bool,
    },
    /// A Maven dependency removed.
    #[serde(rename = "maven.dependency_removed")]
    MavenDependencyRemoved {
        /// groupId.
        group_id: String,
        /// artifactId.
        artifact_id: String,
        /// `"true"` when it was in `<dependencyManagement>`.
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        managed: bool,
    },
    /// A Maven plugin's version changed.
    #[serde(rename = "maven.plugin_version")]
    MavenPluginVersion {
        /// groupId (`org.apache.maven.plugins` when the POM omits it).
        group_id: String,
        /// artifactId, e.g. `maven-surefire-plugin`.
        artifact_id: String,
        /// Version before, as written.
        old_version: String,
        /// Version after, as written.
        new_version: String,
    },
    /// `key`: the dotted path under `<configuration>`.
    #[serde(rename = "maven.plugin_config")]
    MavenPluginConfig {
        /// Plugin's groupId.
        group_id: String,
        /// Plugin's artifactId.
        artifact_id: String,
        /// Dotted path under `<configuration>`, e.g. `release`.
        key: String,
        /// Value before; empty when the key was added.
        old_value: String,
        /// Value after; empty when the key was removed.
        new_value: String,
    },
    /// A Maven plugin added.
    #[serde(rename = "maven.plugin_added")]
    MavenPluginAdded {
        /// Plugin's groupId.
        group_id: String,
        /// Plugin's artifactId.
        artifact_id: String,
        /// Version as written; empty when not given.
        version: String,
        /// Where it was added: `build/plugins`, `build/pluginManagement`, `profile:ID/build/plugins`.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        section: String,
    },
    /// A Maven plugin removed.
    #[serde(rename = "maven.plugin_removed")]
    MavenPluginRemoved {
        /// Plugin's groupId.
        group_id: String,
        /// Plugin's artifactId.
        artifact_id: String,
    },
    /// `change`: `url`, `added` or `removed`.
    #[serde(rename = "maven.repository_change")]
    MavenRepositoryChange {
        /// What changed: `url`, `added` or `removed`.
        change: String,
        /// `repositories` or `pluginRepositories`, prefixed `profile:ID/` inside a profile.
        section: String,
        /// The repository's `<id>`.
        id: String,
        /// URL before; empty when added.
        old_url: String,
        /// URL after; empty when removed.
        new_url: String,
        /// An added repository's `<name>`; empty when the POM does not say.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        name: String,
        /// An added repository's snapshots `<enabled>`: `"true"`/`"false"`, empty when not said.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        snapshots: String,
        /// An added repository's releases `<enabled>`: `"true"`/`"false"`, empty when not said.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        releases: String,
    },

    /// A Gradle dependency's version changed (string or map notation).
    #[serde(rename = "gradle.dependency_version")]
    GradleDependencyVersion {
        /// The dependency's group.
        group_id: String,
        /// The dependency's name (artifact).
        artifact_id: String,
        /// Version before, as written.
        old_version: String,
        /// Version after, as written.
        new_version: String,
        /// Gradle configuration, e.g. `implementation`.
        configuration: String,
    },
    /// One Gradle dependency replaced by another in the same configuration.
    #[serde(rename = "gradle.dependency_swap")]
    GradleDependencySwap {
        /// Removed dependency's group.
        old_group_id: String,
        /// Removed dependency's name.
        old_artifact_id: String,
        /// Added dependency's group.
        new_group_id: String,
        /// Added dependency's name.
        new_artifact_id: String,
        /// Removed dependency's version; empty when it had none.
        old_version: String,
        /// Added dependency's version; empty when it has none.
        new_version: String,
        /// Gradle configuration, e.g. `testImplementation`.
        configuration: String,
    },
    /// A Gradle dependency added.
    #[serde(rename = "gradle.dependency_added")]
    GradleDependencyAdded {
        /// group.
        group_id: String,
        /// name (artifact).
        artifact_id: String,
        /// Version as written; empty when none.
        version: String,
        /// Gradle configuration, e.g. `implementation`.
        configuration: String,
    },
    /// A Gradle dependency removed.
    #[serde(rename = "gradle.dependency_removed")]
    GradleDependencyRemoved {
        /// group.
        group_id: String,
        /// name (artifact).
        artifact_id: String,
        /// Gradle configuration it was declared in.
        configuration: String,
    },
    /// A Gradle plugin's version changed in `plugins { }`.
    #[serde(rename = "gradle.plugin_version")]
    GradlePluginVersion {
        /// Plugin id; `kotlin("jvm")` is `org.jetbrains.kotlin.jvm`.
        plugin_id: String,
        /// Version before.
        old_version: String,
        /// Version after.
        new_version: String,
    },
    /// `property`: `sourceCompatibility`, `targetCompatibility` or `jvmTarget`.
    #[serde(rename = "gradle.java_compatibility")]
    GradleJavaCompatibility {
        /// `sourceCompatibility`, `targetCompatibility` or `jvmTarget`.
        property: String,
        /// Value before, as written (e.g. `JavaVersion.VERSION_11`).
        old_value: String,
        /// Value after, as written.
        new_value: String,
    },
    /// The Java toolchain's version changed (`JavaLanguageVersion.of(N)`, `jvmToolchain(N)`).
    #[serde(rename = "gradle.toolchain")]
    GradleToolchain {
        /// Java major version before.
        old_version: String,
        /// Java major version after.
        new_version: String,
    },
    /// The Gradle wrapper's version changed (`gradle-wrapper.properties`).
    #[serde(rename = "gradle.wrapper_version")]
    GradleWrapperVersion {
        /// Gradle version before, e.g. `8.4`.
        old_version: String,
        /// Gradle version after.
        new_version: String,
        /// Distribution type: `bin` or `all`.
        distribution: String,
        /// The new `distributionUrl`, unescaped.
        distribution_url: String,
    },
    /// A string value of the version catalog (`gradle/libs.versions.toml`): `key` is its TOML path
    /// (`versions.jspecify`, `libraries.guava`, `plugins.boot`).
    #[serde(rename = "gradle.catalog_value")]
    GradleCatalogValue {
        /// TOML path of the value, e.g. `versions.guava`.
        key: String,
        /// Value before.
        old_value: String,
        /// Value after.
        new_value: String,
    },

    /// A `.properties` key renamed, its value kept.
    #[serde(rename = "properties.key_rename")]
    PropertiesKeyRename {
        /// Key before.
        old_key: String,
        /// Key after.
        new_key: String,
    },
    /// A `.properties` value changed.
    #[serde(rename = "properties.value_change")]
    PropertiesValueChange {
        /// The property's key.
        key: String,
        /// Value before.
        old_value: String,
        /// Value after.
        new_value: String,
    },
    /// A `.properties` key added.
    #[serde(rename = "properties.key_added")]
    PropertiesKeyAdded {
        /// The new key.
        key: String,
        /// Its value.
        value: String,
    },
    /// A `.properties` key removed.
    #[serde(rename = "properties.key_removed")]
    PropertiesKeyRemoved {
        /// The removed key.
        key: String,
    },

    /// A YAML key renamed (moved), its value kept.
    #[serde(rename = "yaml.key_rename")]
    YamlKeyRename {
        /// Dotted path before (`list[0]` for sequence items).
        old_key: String,
        /// Dotted path after.
        new_key: String,
    },
    /// A YAML scalar value changed.
    #[serde(rename = "yaml.value_change")]
    YamlValueChange {
        /// Dotted path of the key.
        key: String,
        /// Value before.
        old_value: String,
        /// Value after.
        new_value: String,
        /// `"true"` when the new value is quoted.
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        quoted: bool,
    },
    /// A YAML key added.
    #[serde(rename = "yaml.key_added")]
    YamlKeyAdded {
        /// Dotted path of the new key.
        key: String,
        /// Its value.
        value: String,
        /// `"true"` when the value is quoted.
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        quoted: bool,
    },
    /// A YAML key removed.
    #[serde(rename = "yaml.key_removed")]
    YamlKeyRemoved {
        /// Dotted path of the removed key.
        key: String,
    },

    /// A GitHub Actions `setup-java` step's Java version or distribution changed.
    #[serde(rename = "github_actions.setup_java")]
    GithubActionsSetupJava {
        /// `java-version` before.
        old_version: String,
        /// `java-version` after (repeats the old one when unchanged).
        new_version: String,
        /// `distribution` before.
        old_distribution: String,
        /// `distribution` after (repeats the old one when unchanged).
        new_distribution: String,
    },
    /// A workflow's `uses:` action changed its ref.
    #[serde(rename = "github_actions.action_version")]
    GithubActionsActionVersion {
        /// The action, e.g. `actions/checkout`.
        action: String,
        /// Ref before, e.g. `v3`.
        old_ref: String,
        /// Ref after, e.g. `v4`.
        new_ref: String,
    },
    /// Any other workflow value changed, added or removed.
    #[serde(rename = "github_actions.value_change")]
    GithubActionsValueChange {
        /// Dotted path, steps named by id, action or name: `jobs.build.steps[actions/setup-java].with.cache`.
        key: String,
        /// Value before; empty when added.
        old_value: String,
        /// Value after; empty when removed.
        new_value: String,
    },

    /// A digest stays with the tag: `1.2@sha256:…`.
    #[serde(rename = "docker.from_change")]
    DockerFromChange {
        /// Image before, e.g. `eclipse-temurin`.
        old_image: String,
        /// Tag before (with its digest, if any).
        old_tag: String,
        /// Image after.
        new_image: String,
        /// Tag after (with its digest, if any).
        new_tag: String,
    },

    /// One line replaced by another; only added (removed) lines have an empty `from` (`to`).
    #[serde(rename = "text.edit")]
    TextEdit {
        /// The removed line(s), joined by `\n`; empty when lines were only added.
        from: String,
        /// The added line(s), joined by `\n`; empty when lines were only removed.
        to: String,
    },
    /// A new file; its every line is evidence.
    #[serde(rename = "file.added")]
    FileAdded {
        /// Number of lines in the new file, as a string.
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        lines: usize,
    },
    /// A deleted file; its every line is evidence.
    #[serde(rename = "file.deleted")]
    FileDeleted {
        /// Number of lines the file had, as a string.
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        lines: usize,
    },
    /// A file moved; content changes are other intents.
    #[serde(rename = "file.renamed")]
    FileRenamed {
        /// Path before.
        old_file: String,
        /// Path after.
        new_file: String,
    },
    /// Lines that differ only in whitespace, or blank lines (one per file).
    #[serde(rename = "whitespace")]
    Whitespace {},
    /// Imports removed and added back unchanged, i.e. reordered (one per file).
    #[serde(rename = "import_order")]
    ImportOrder {},
}

/// `name` of a Maven version written `${name}` (a property reference), None for a literal.
pub fn property_reference(version: &str) -> Option<&str> {
    version.strip_prefix("${")?.strip_suffix('}')
}

impl Change {
    /// The `kind` in the JSON, e.g. `java.package_move` (the serde name; a test checks the two
    /// agree for every variant).
    pub fn kind(&self) -> &'static str {
        match self {
            Change::JavaPackageMove { .. } => kind::JAVA_PACKAGE_MOVE,
            Change::JavaTypeRename { .. } => kind::JAVA_TYPE_RENAME,
            Change::JavaAnnotationChange { .. } => kind::JAVA_ANNOTATION_CHANGE,
            Change::JavaMethodRename { .. } => kind::JAVA_METHOD_RENAME,
            Change::JavaStaticCallTarget { .. } => kind::JAVA_STATIC_CALL_TARGET,
            Change::MavenParentChange { .. } => kind::MAVEN_PARENT_CHANGE,
            Change::MavenPropertyChange { .. } => kind::MAVEN_PROPERTY_CHANGE,
            Change::MavenPropertyAdded { .. } => kind::MAVEN_PROPERTY_ADDED,
            Change::MavenPropertyRemoved { .. } => kind::MAVEN_PROPERTY_REMOVED,
            Change::MavenDependencyVersion { .. } => kind::MAVEN_DEPENDENCY_VERSION,
            Change::MavenDependencySwap { .. } => kind::MAVEN_DEPENDENCY_SWAP,
            Change::MavenDependencyAdded { .. } => kind::MAVEN_DEPENDENCY_ADDED,
            Change::MavenDependencyRemoved { .. } => kind::MAVEN_DEPENDENCY_REMOVED,
            Change::MavenPluginVersion { .. } => kind::MAVEN_PLUGIN_VERSION,
            Change::MavenPluginConfig { .. } => kind::MAVEN_PLUGIN_CONFIG,
            Change::MavenPluginAdded { .. } => kind::MAVEN_PLUGIN_ADDED,
            Change::MavenPluginRemoved { .. } => kind::MAVEN_PLUGIN_REMOVED,
            Change::MavenRepositoryChange { .. } => kind::MAVEN_REPOSITORY_CHANGE,
            Change::GradleDependencyVersion { .. } => kind::GRADLE_DEPENDENCY_VERSION,
            Change::GradleDependencySwap { .. } => kind::GRADLE_DEPENDENCY_SWAP,
            Change::GradleDependencyAdded { .. } => kind::GRADLE_DEPENDENCY_ADDED,
            Change::GradleDependencyRemoved { .. } => kind::GRADLE_DEPENDENCY_REMOVED,
            Change::GradlePluginVersion { .. } => kind::GRADLE_PLUGIN_VERSION,
            Change::GradleJavaCompatibility { .. } => kind::GRADLE_JAVA_COMPATIBILITY,
            Change::GradleToolchain { .. } => kind::GRADLE_TOOLCHAIN,
            Change::GradleWrapperVersion { .. } => kind::GRADLE_WRAPPER_VERSION,
            Change::GradleCatalogValue { .. } => kind::GRADLE_CATALOG_VALUE,
            Change::PropertiesKeyRename { .. } => kind::PROPERTIES_KEY_RENAME,
            Change::PropertiesValueChange { .. } => kind::PROPERTIES_VALUE_CHANGE,
            Change::PropertiesKeyAdded { .. } => kind::PROPERTIES_KEY_ADDED,
            Change::PropertiesKeyRemoved { .. } => kind::PROPERTIES_KEY_REMOVED,
            Change::YamlKeyRename { .. } => kind::YAML_KEY_RENAME,
            Change::YamlValueChange { .. } => kind::YAML_VALUE_CHANGE,
            Change::YamlKeyAdded { .. } => kind::YAML_KEY_ADDED,
            Change::YamlKeyRemoved { .. } => kind::YAML_KEY_REMOVED,
            Change::GithubActionsSetupJava { .. } => kind::GITHUB_ACTIONS_SETUP_JAVA,
            Change::GithubActionsActionVersion { .. } => kind::GITHUB_ACTIONS_ACTION_VERSION,
            Change::GithubActionsValueChange { .. } => kind::GITHUB_ACTIONS_VALUE_CHANGE,
            Change::DockerFromChange { .. } => kind::DOCKER_FROM_CHANGE,
            Change::TextEdit { .. } => kind::TEXT_EDIT,
            Change::FileAdded { .. } => kind::FILE_ADDED,
            Change::FileDeleted { .. } => kind::FILE_DELETED,
            Change::FileRenamed { .. } => kind::FILE_RENAMED,
            Change::Whitespace { .. } => kind::WHITESPACE,
            Change::ImportOrder { .. } => kind::IMPORT_ORDER,
        }
    }

    /// The `params` in the JSON, without `file`/`files`.
    pub(crate) fn params(&self) -> BTreeMap<String, Value> {
        match serde_json::to_value(self).ok().and_then(|mut v| v.get_mut("params").map(Value::take)) {
            Some(Value::Object(map)) => map.into_iter().collect(),
            _ => BTreeMap::new(),
        }
    }

    /// The `params` of an atomic node: the change's, `file`, and `files` when it spans files.
    pub fn params_about(&self, file: &str, files: Option<&[String]>) -> BTreeMap<String, Value> {
        let mut params = self.params();
        params.insert("file".to_string(), Value::String(file.to_string()));
        if let Some(files) = files {
            params.insert("files".to_string(), files.iter().cloned().map(Value::String).collect());
        }
        params
    }

    /// The change a node's `kind` and `params` describe (extra params such as `file` are
    /// ignored), or why they do not describe one.
    pub(crate) fn read(kind: &str, params: &BTreeMap<String, Value>) -> Result<Change, UnreadableChange> {
        let value = serde_json::json!({ "kind": kind, "params": params });
        serde_json::from_value(value)
            .map_err(|e| UnreadableChange { kind: kind.to_string(), reason: e.to_string() })
    }
}

/// A kind and params that are not a [`Change`]: an unknown kind, or a param missing or not text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}: {reason}")]
pub(crate) struct UnreadableChange {
    pub kind: String,
    pub reason: String,
}

/// Booleans and counts written as strings (`"true"`, `"12"`), as every param is a string.
mod as_text {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::{Deserialize, Deserializer, Serializer, de};

    pub(crate) fn serialize<T: Display, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(value)
    }

    pub(crate) fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        String::deserialize(deserializer)?.parse().map_err(de::Error::custom)
    }
}

// With `test-support`, for the tests of the crates above (`one_of_each`).
#[cfg(any(test, feature = "test-support"))]
pub mod tests {
    //! Examples of every change kind, for tests here and in the crates above.

    #[cfg(test)]
    use std::collections::BTreeSet;

    use super::*;

    /// One change of every kind (for tests elsewhere too). Adding a variant without adding it
    /// here fails the exhaustive match below.
    pub fn one_of_each() -> Vec<Change> {
        let s = |v: &str| v.to_string();
        let examples = vec![
            Change::JavaPackageMove { old_package: s("javax.a"), new_package: s("jakarta.a") },
            Change::JavaTypeRename { old_type: s("a.B"), new_type: s("a.C") },
            Change::JavaAnnotationChange { old_annotation: s("a.B"), new_annotation: s("a.C") },
            Change::JavaMethodRename { old_method: s("m"), new_method: s("n"), declaring_type: s("") },
            Change::JavaStaticCallTarget {
                method: s("*"),
                old_type: s("a.B"),
                new_type: s("a.C"),
                new_method: s(""),
            },
            Change::MavenParentChange {
                old_group_id: s("g"),
                old_artifact_id: s("a"),
                old_version: s("1"),
                new_group_id: s("g"),
                new_artifact_id: s("a"),
                new_version: s("2"),
                drops_managed_versions: false,
            },
            Change::MavenPropertyChange { key: s("k"), old_value: s("1"), new_value: s("2"), profile: None },
            Change::MavenPropertyAdded { key: s("k"), value: s("1"), profile: Some(s("ci")) },
            Change::MavenPropertyRemoved { key: s("k"), profile: None },
            Change::MavenDependencyVersion {
                group_id: s("g"),
                artifact_id: s("a"),
                old_version: s("1"),
                new_version: s("2"),
                managed: true,
            },
            Change::MavenDependencySwap {
                old_group_id: s("g"),
                old_artifact_id: s("a"),
                new_group_id: s("h"),
                new_artifact_id: s("b"),
                old_version: s("1"),
                new_version: s(""),
                managed: false,
            },
            Change::MavenDependencyAdded {
                group_id: s("g"),
                artifact_id: s("a"),
                version: s("1"),
                scope: s("test"),
                managed: false,
            },
            Change::MavenDependencyRemoved { group_id: s("g"), artifact_id: s("a"), managed: false },
            Change::MavenPluginVersion {
                group_id: s("g"),
                artifact_id: s("a"),
                old_version: s("1"),
                new_version: s("2"),
            },
            Change::MavenPluginConfig {
                group_id: s("g"),
                artifact_id: s("a"),
                key: s("release"),
                old_value: s("11"),
                new_value: s("17"),
            },
            Change::MavenPluginAdded {
                group_id: s("g"),
                artifact_id: s("a"),
                version: s("1"),
                section: s("build/plugins"),
            },
            Change::MavenPluginRemoved { group_id: s("g"), artifact_id: s("a") },
            Change::MavenRepositoryChange {
                change: s("url"),
                section: s("repositories"),
                id: s("r"),
                old_url: s("http://a"),
                new_url: s("https://a"),
                name: s(""),
                snapshots: s(""),
                releases: s(""),
            },
            Change::GradleDependencyVersion {
                group_id: s("g"),
                artifact_id: s("a"),
                old_version: s("1"),
                new_version: s("2"),
                configuration: s("implementation"),
            },
            Change::GradleDependencySwap {
                old_group_id: s("g"),
                old_artifact_id: s("a"),
                new_group_id: s("h"),
                new_artifact_id: s("b"),
                old_version: s("1"),
                new_version: s("2"),
                configuration: s("api"),
            },
            Change::GradleDependencyAdded {
                group_id: s("g"),
                artifact_id: s("a"),
                version: s("1"),
                configuration: s("api"),
            },
            Change::GradleDependencyRemoved {
                group_id: s("g"),
                artifact_id: s("a"),
                configuration: s("api"),
            },
            Change::GradlePluginVersion { plugin_id: s("p"), old_version: s("1"), new_version: s("2") },
            Change::GradleJavaCompatibility {
                property: s("jvmTarget"),
                old_value: s("11"),
                new_value: s("17"),
            },
            Change::GradleToolchain { old_version: s("11"), new_version: s("17") },
            Change::GradleWrapperVersion {
                old_version: s("8.4"),
                new_version: s("8.5"),
                distribution: s("bin"),
                distribution_url: s("u"),
            },
            Change::GradleCatalogValue { key: s("versions.a"), old_value: s("1"), new_value: s("2") },
            Change::PropertiesKeyRename { old_key: s("a"), new_key: s("b") },
            Change::PropertiesValueChange { key: s("a"), old_value: s("1"), new_value: s("2") },
            Change::PropertiesKeyAdded { key: s("a"), value: s("1") },
            Change::PropertiesKeyRemoved { key: s("a") },
            Change::YamlKeyRename { old_key: s("a"), new_key: s("b") },
            Change::YamlValueChange { key: s("a"), old_value: s("1"), new_value: s("2"), quoted: true },
            Change::YamlKeyAdded { key: s("a"), value: s("1"), quoted: false },
            Change::YamlKeyRemoved { key: s("a") },
            Change::GithubActionsSetupJava {
                old_version: s("11"),
                new_version: s("17"),
                old_distribution: s("temurin"),
                new_distribution: s("temurin"),
            },
            Change::GithubActionsActionVersion {
                action: s("actions/checkout"),
                old_ref: s("v3"),
                new_ref: s("v4"),
            },
            Change::GithubActionsValueChange { key: s("k"), old_value: s(""), new_value: s("v") },
            Change::DockerFromChange {
                old_image: s("i"),
                old_tag: s("1"),
                new_image: s("i"),
                new_tag: s("2"),
            },
            Change::TextEdit { from: s("a"), to: s("") },
            Change::FileAdded { lines: 3 },
            Change::FileDeleted { lines: 0 },
            Change::FileRenamed { old_file: s("a"), new_file: s("b") },
            Change::Whitespace {},
            Change::ImportOrder {},
        ];
        for change in &examples {
            // Exhaustive on purpose, see above.
            match change {
                Change::JavaPackageMove { .. }
                | Change::JavaTypeRename { .. }
                | Change::JavaAnnotationChange { .. }
                | Change::JavaMethodRename { .. }
                | Change::JavaStaticCallTarget { .. }
                | Change::MavenParentChange { .. }
                | Change::MavenPropertyChange { .. }
                | Change::MavenPropertyAdded { .. }
                | Change::MavenPropertyRemoved { .. }
                | Change::MavenDependencyVersion { .. }
                | Change::MavenDependencySwap { .. }
                | Change::MavenDependencyAdded { .. }
                | Change::MavenDependencyRemoved { .. }
                | Change::MavenPluginVersion { .. }
                | Change::MavenPluginConfig { .. }
                | Change::MavenPluginAdded { .. }
                | Change::MavenPluginRemoved { .. }
                | Change::MavenRepositoryChange { .. }
                | Change::GradleDependencyVersion { .. }
                | Change::GradleDependencySwap { .. }
                | Change::GradleDependencyAdded { .. }
                | Change::GradleDependencyRemoved { .. }
                | Change::GradlePluginVersion { .. }
                | Change::GradleJavaCompatibility { .. }
                | Change::GradleToolchain { .. }
                | Change::GradleWrapperVersion { .. }
                | Change::GradleCatalogValue { .. }
                | Change::PropertiesKeyRename { .. }
                | Change::PropertiesValueChange { .. }
                | Change::PropertiesKeyAdded { .. }
                | Change::PropertiesKeyRemoved { .. }
                | Change::YamlKeyRename { .. }
                | Change::YamlValueChange { .. }
                | Change::YamlKeyAdded { .. }
                | Change::YamlKeyRemoved { .. }
                | Change::GithubActionsSetupJava { .. }
                | Change::GithubActionsActionVersion { .. }
                | Change::GithubActionsValueChange { .. }
                | Change::DockerFromChange { .. }
                | Change::TextEdit { .. }
                | Change::FileAdded { .. }
                | Change::FileDeleted { .. }
                | Change::FileRenamed { .. }
                | Change::Whitespace {}
                | Change::ImportOrder {} => {}
            }
        }
        examples
    }

    #[test]
    fn every_kind_is_a_variant_and_reads_back_from_its_params() {
        let examples = one_of_each();
        let kinds: BTreeSet<&str> = examples.iter().map(Change::kind).collect();
        assert_eq!(kinds.len(), examples.len(), "two variants share a kind");
        assert_eq!(kinds, kind::ALL.into_iter().collect());
        for change in examples {
            let mut params = change.params();
            assert!(params.values().all(Value::is_string), "{params:?}");
            params.insert("file".into(), Value::from("pom.xml"));
            assert_eq!(Change::read(change.kind(), &params), Ok(change));
        }
    }

    #[test]
    fn the_json_keeps_its_shape_and_a_missing_param_is_an_error() {
        let change = Change::MavenPropertyAdded { key: "k".into(), value: "1".into(), profile: None };
        assert_eq!(serde_json::to_string(&change.params()).unwrap(), r#"{"key":"k","value":"1"}"#);
        let managed =
            Change::MavenDependencyRemoved { group_id: "g".into(), artifact_id: "a".into(), managed: true };
        assert_eq!(change.kind(), "maven.property_added");
        assert_eq!(managed.params()["managed"], "true");
        assert_eq!(Change::Whitespace {}.params(), BTreeMap::new());
        let missing = BTreeMap::from([("key".to_string(), Value::from("k"))]);
        let error = Change::read("maven.property_added", &missing).unwrap_err();
        assert!(error.reason.contains("value"), "{error}");
        assert!(Change::read("maven.no_such_kind", &missing).is_err());
    }
}
