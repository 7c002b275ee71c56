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
    #[serde(rename = "java.package_move")]
    JavaPackageMove { old_package: String, new_package: String },
    #[serde(rename = "java.type_rename")]
    JavaTypeRename { old_type: String, new_type: String },
    /// A type used as annotation whose simple name changed; names fully qualified via imports.
    #[serde(rename = "java.annotation_change")]
    JavaAnnotationChange { old_annotation: String, new_annotation: String },
    /// `declaring_type`: fully qualified when known, else empty.
    #[serde(rename = "java.method_rename")]
    JavaMethodRename { old_method: String, new_method: String, declaring_type: String },
    /// `method`: `*` for a wildcard static import. `new_method`: the name the call has on the new
    /// type when it changes too (`Preconditions.checkNotNull` -> `Objects.requireNonNull`), else
    /// empty (and absent in the JSON).
    #[serde(rename = "java.static_call_target")]
    JavaStaticCallTarget {
        method: String,
        old_type: String,
        new_type: String,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        new_method: String,
    },

    #[serde(rename = "maven.parent_change")]
    MavenParentChange {
        old_group_id: String,
        old_artifact_id: String,
        old_version: String,
        new_group_id: String,
        new_artifact_id: String,
        new_version: String,
        /// The PR removed explicit versions of dependencies (ones the new parent manages); when it
        /// did not, the recipe must not either (`ChangeParentPom` does by default).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        drops_managed_versions: bool,
    },
    #[serde(rename = "maven.property_change")]
    MavenPropertyChange {
        key: String,
        old_value: String,
        new_value: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        profile: Option<String>,
    },
    #[serde(rename = "maven.property_added")]
    MavenPropertyAdded {
        key: String,
        value: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        profile: Option<String>,
    },
    #[serde(rename = "maven.property_removed")]
    MavenPropertyRemoved {
        key: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        profile: Option<String>,
    },
    /// Versions as written (`${prop}` stays); `managed`: in `dependencyManagement`.
    #[serde(rename = "maven.dependency_version")]
    MavenDependencyVersion {
        group_id: String,
        artifact_id: String,
        old_version: String,
        new_version: String,
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        managed: bool,
    },
    #[serde(rename = "maven.dependency_swap")]
    MavenDependencySwap {
        old_group_id: String,
        old_artifact_id: String,
        new_group_id: String,
        new_artifact_id: String,
        old_version: String,
        new_version: String,
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        managed: bool,
    },
    #[serde(rename = "maven.dependency_added")]
    MavenDependencyAdded {
        group_id: String,
        artifact_id: String,
        version: String,
        scope: String,
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        managed: bool,
    },
    #[serde(rename = "maven.dependency_removed")]
    MavenDependencyRemoved {
        group_id: String,
        artifact_id: String,
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        managed: bool,
    },
    #[serde(rename = "maven.plugin_version")]
    MavenPluginVersion { group_id: String, artifact_id: String, old_version: String, new_version: String },
    /// `key`: the dotted path under `<configuration>`.
    #[serde(rename = "maven.plugin_config")]
    MavenPluginConfig {
        group_id: String,
        artifact_id: String,
        key: String,
        old_value: String,
        new_value: String,
    },
    #[serde(rename = "maven.plugin_added")]
    MavenPluginAdded {
        group_id: String,
        artifact_id: String,
        version: String,
        /// Where it was added: `build/plugins`, `build/pluginManagement`, `profile:ID/build/plugins`.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        section: String,
    },
    #[serde(rename = "maven.plugin_removed")]
    MavenPluginRemoved { group_id: String, artifact_id: String },
    /// `change`: `url`, `added` or `removed`.
    #[serde(rename = "maven.repository_change")]
    MavenRepositoryChange {
        change: String,
        section: String,
        id: String,
        old_url: String,
        new_url: String,
        /// An added repository's `<name>`, and whether its snapshots and releases are enabled
        /// (`"true"`/`"false"`; empty when the POM does not say).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        name: String,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        snapshots: String,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        releases: String,
    },

    #[serde(rename = "gradle.dependency_version")]
    GradleDependencyVersion {
        group_id: String,
        artifact_id: String,
        old_version: String,
        new_version: String,
        configuration: String,
    },
    #[serde(rename = "gradle.dependency_swap")]
    GradleDependencySwap {
        old_group_id: String,
        old_artifact_id: String,
        new_group_id: String,
        new_artifact_id: String,
        old_version: String,
        new_version: String,
        configuration: String,
    },
    #[serde(rename = "gradle.dependency_added")]
    GradleDependencyAdded { group_id: String, artifact_id: String, version: String, configuration: String },
    #[serde(rename = "gradle.dependency_removed")]
    GradleDependencyRemoved { group_id: String, artifact_id: String, configuration: String },
    #[serde(rename = "gradle.plugin_version")]
    GradlePluginVersion { plugin_id: String, old_version: String, new_version: String },
    /// `property`: `sourceCompatibility`, `targetCompatibility` or `jvmTarget`.
    #[serde(rename = "gradle.java_compatibility")]
    GradleJavaCompatibility { property: String, old_value: String, new_value: String },
    #[serde(rename = "gradle.toolchain")]
    GradleToolchain { old_version: String, new_version: String },
    #[serde(rename = "gradle.wrapper_version")]
    GradleWrapperVersion {
        old_version: String,
        new_version: String,
        distribution: String,
        distribution_url: String,
    },
    /// A string value of the version catalog (`gradle/libs.versions.toml`): `key` is its TOML path
    /// (`versions.jspecify`, `libraries.guava`, `plugins.boot`).
    #[serde(rename = "gradle.catalog_value")]
    GradleCatalogValue { key: String, old_value: String, new_value: String },

    #[serde(rename = "properties.key_rename")]
    PropertiesKeyRename { old_key: String, new_key: String },
    #[serde(rename = "properties.value_change")]
    PropertiesValueChange { key: String, old_value: String, new_value: String },
    #[serde(rename = "properties.key_added")]
    PropertiesKeyAdded { key: String, value: String },
    #[serde(rename = "properties.key_removed")]
    PropertiesKeyRemoved { key: String },

    #[serde(rename = "yaml.key_rename")]
    YamlKeyRename { old_key: String, new_key: String },
    #[serde(rename = "yaml.value_change")]
    YamlValueChange {
        key: String,
        old_value: String,
        new_value: String,
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        quoted: bool,
    },
    #[serde(rename = "yaml.key_added")]
    YamlKeyAdded {
        key: String,
        value: String,
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        quoted: bool,
    },
    #[serde(rename = "yaml.key_removed")]
    YamlKeyRemoved { key: String },

    #[serde(rename = "github_actions.setup_java")]
    GithubActionsSetupJava {
        old_version: String,
        new_version: String,
        old_distribution: String,
        new_distribution: String,
    },
    #[serde(rename = "github_actions.action_version")]
    GithubActionsActionVersion { action: String, old_ref: String, new_ref: String },
    #[serde(rename = "github_actions.value_change")]
    GithubActionsValueChange { key: String, old_value: String, new_value: String },

    /// A digest stays with the tag: `1.2@sha256:…`.
    #[serde(rename = "docker.from_change")]
    DockerFromChange { old_image: String, old_tag: String, new_image: String, new_tag: String },

    /// One line replaced by another; only added (removed) lines have an empty `from` (`to`).
    #[serde(rename = "text.edit")]
    TextEdit { from: String, to: String },
    #[serde(rename = "file.added")]
    FileAdded {
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        lines: usize,
    },
    #[serde(rename = "file.deleted")]
    FileDeleted {
        #[serde(with = "as_text")]
        #[schemars(with = "String")]
        lines: usize,
    },
    #[serde(rename = "file.renamed")]
    FileRenamed { old_file: String, new_file: String },
    #[serde(rename = "whitespace")]
    Whitespace {},
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
