//! The intent tree: what a PR meant to do, as written to `intent-tree.json` by the intent phase and
//! read by recipe mapping. In memory every node is typed ([`Node`]: a [`Strategic`] migration, a
//! [`Tactical`] concern or an atomic [`Change`]); in the JSON it is a `kind` string and `params`,
//! the shape `docs/intents.md` documents (tests check the kinds against it). Reading the JSON back
//! checks every node against its kind: a missing or misspelled param is an error, not an empty
//! value.
//!
//! The JSON is deterministic: fields in declaration order, params in key order, nodes sorted, ids
//! derived from positions ("1", "1.2", "1.2.3"), so the same PR always gives byte-identical JSON.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Change, ChangeLine, Strategic, Tactical};

/// The whole tree for one PR.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, schemars::JsonSchema)]
pub struct IntentTree {
    /// `claimed_lines / changed_lines`, rounded to 4 places; 1.0 when nothing changed.
    pub coverage: f64,
    /// Added and removed lines of the PR's text files (excluded paths skipped).
    pub changed_lines: usize,
    /// Changed lines that at least one atomic intent lists as evidence.
    pub claimed_lines: usize,
    /// Top-level nodes: strategic intents first, then tactical intents that no strategic one owns.
    pub intents: Vec<Intent>,
    /// Changed lines no atomic intent explains, in diff order.
    pub unexplained: Vec<ChangeLine>,
    /// Files whose diff section is binary: reported, never counted as lines.
    pub binary_files: Vec<String>,
    /// Changes no recipe can make (symbolic links, submodules, Git LFS pointers, lines that are
    /// not UTF-8), by file, with why. Their lines are in `unexplained`: no intent, so no recipe.
    /// Files too large to analyze (`too_large`) are here too, but their lines are nowhere in the
    /// tree: they were never read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreproducible: Vec<UnreproducibleFile>,
    /// How many claimed lines carry each label (`whitespace`, `import_order`, `text`), so a reader
    /// sees at a glance how much of the PR is formatting or non-semantic.
    pub labels: BTreeMap<String, usize>,
}

/// A file whose change no recipe can make, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct UnreproducibleFile {
    /// Path of the file in the repository.
    pub path: String,
    /// Why no recipe can make its change.
    pub reason: crate::diff::Unreproducible,
    /// How many of its changed lines are concerned (for `not_utf8`, the lines that are not UTF-8).
    pub lines: usize,
}

/// One node of the tree. In the JSON it is `id`, `level`, `kind`, `title`, `params`, `labels`
/// (when any), `evidence`, `children`; in memory what it says is typed ([`Node`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(try_from = "RawIntent", into = "RawIntent")]
pub struct Intent {
    /// Position in the tree: "2" is the second top-level node, "2.1.3" its first child's third child.
    pub id: String,
    /// What the node says: its level, kind and params, typed.
    pub node: Node,
    /// A reviewer's one-line summary, e.g. "Upgrade Java 11 -> 17".
    pub title: String,
    /// `whitespace`, `import_order`, `text` (non-semantic edits); empty for most intents.
    pub labels: Vec<String>,
    /// The changed lines this intent explains. Only atomic intents carry evidence; a group's
    /// evidence is the union of its children's.
    pub evidence: Vec<ChangeLine>,
    /// The nodes this one groups: tactical under strategic, atomic under tactical.
    pub children: Vec<Intent>,
}

/// What a node says.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A migration its children add up to.
    Strategic(Strategic),
    /// One concern, grouping atomic intents of a kind.
    Tactical(Tactical),
    /// One concrete edit, about `file` (the first of `files` when it spans several files).
    Atomic {
        /// The edit, with its kind and params.
        change: Change,
        /// The path the change applies to (the old path for a deletion).
        file: String,
        /// Every path, sorted, when the same change spans several files.
        files: Option<Vec<String>>,
    },
}

/// A node's place in the tree (`level` in the JSON).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// What the PR adds up to (`upgrade_java`, `migrate_library`, …).
    Strategic,
    /// One concern (`change_dependencies`, `move_packages`, …).
    Tactical,
    /// One concrete edit, with the changed lines as evidence.
    Atomic,
}

impl Intent {
    /// Every atomic intent below (and including) this node, depth first.
    pub fn atomics(&self) -> Vec<&Intent> {
        let mut out = Vec::new();
        self.collect_atomics(&mut out);
        out
    }

    fn collect_atomics<'a>(&'a self, out: &mut Vec<&'a Intent>) {
        if self.level() == Level::Atomic {
            out.push(self);
        }
        for child in &self.children {
            child.collect_atomics(out);
        }
    }

    /// The node's level, from what it says.
    pub fn level(&self) -> Level {
        match self.node {
            Node::Strategic(_) => Level::Strategic,
            Node::Tactical(_) => Level::Tactical,
            Node::Atomic { .. } => Level::Atomic,
        }
    }

    /// The `kind` in the JSON: an atomic kind of [`kind`], a tactical or a strategic kind.
    pub fn kind(&self) -> &'static str {
        match &self.node {
            Node::Strategic(strategic) => strategic.kind(),
            Node::Tactical(tactical) => tactical.kind(),
            Node::Atomic { change, .. } => change.kind(),
        }
    }

    /// What an atomic intent says; None for a group.
    pub fn change(&self) -> Option<&Change> {
        match &self.node {
            Node::Atomic { change, .. } => Some(change),
            _ => None,
        }
    }

    /// The file an atomic intent is about ("" for a group).
    pub fn file(&self) -> &str {
        match &self.node {
            Node::Atomic { file, .. } => file,
            _ => "",
        }
    }

    /// The files an atomic intent is about: `files` when it spans several, else its `file`.
    pub fn files(&self) -> Vec<String> {
        match &self.node {
            Node::Atomic { files: Some(files), .. } if !files.is_empty() => files.clone(),
            Node::Atomic { file, .. } if !file.is_empty() => vec![file.clone()],
            _ => Vec::new(),
        }
    }

    /// A param as the JSON has it ("" when missing or not a string), for tests that check what
    /// intent extraction found without naming every variant. The params are built on demand, so
    /// the text is leaked to give tests a plain `&str` (a few bytes per call, tests only).
    #[cfg(any(test, feature = "test-support"))]
    pub fn param(&self, key: &str) -> &'static str {
        let value = self.params().get(key).and_then(Value::as_str).unwrap_or_default().to_string();
        Box::leak(value.into_boxed_str())
    }

    /// The `params` in the JSON.
    pub fn params(&self) -> BTreeMap<String, Value> {
        match &self.node {
            Node::Strategic(strategic) => strategic.params(),
            Node::Tactical(_) => BTreeMap::new(),
            Node::Atomic { change, file, files } => change.params_about(file, files.as_deref()),
        }
    }
}

/// A node as the JSON has it: kind and params as strings.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
struct RawIntent {
    id: String,
    level: Level,
    kind: String,
    title: String,
    /// Snake_case keys; values are strings, except `files` (a list of strings).
    params: BTreeMap<String, Value>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    labels: Vec<String>,
    evidence: Vec<ChangeLine>,
    children: Vec<Intent>,
}

impl From<Intent> for RawIntent {
    fn from(intent: Intent) -> RawIntent {
        RawIntent {
            level: intent.level(),
            kind: intent.kind().to_string(),
            params: intent.params(),
            id: intent.id,
            title: intent.title,
            labels: intent.labels,
            evidence: intent.evidence,
            children: intent.children,
        }
    }
}

/// A node of `intent-tree.json` that does not read as its kind says.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("intent {id}: {reason}")]
pub(crate) struct UnreadableIntent {
    pub id: String,
    pub reason: String,
}

impl TryFrom<RawIntent> for Intent {
    type Error = UnreadableIntent;

    fn try_from(raw: RawIntent) -> Result<Intent, UnreadableIntent> {
        let why = |what: &str| UnreadableIntent { id: raw.id.clone(), reason: what.to_string() };
        let node = match raw.level {
            Level::Strategic => Node::Strategic(
                Strategic::read(&raw.kind, &raw.params)
                    .ok_or_else(|| why(&format!("not a strategic intent: {}", raw.kind)))?,
            ),
            Level::Tactical => Node::Tactical(
                Tactical::read(&raw.kind)
                    .ok_or_else(|| why(&format!("not a tactical intent: {}", raw.kind)))?,
            ),
            Level::Atomic => {
                let change = Change::read(&raw.kind, &raw.params).map_err(|e| why(&e.to_string()))?;
                let file = raw.params.get("file").and_then(Value::as_str).unwrap_or_default().to_string();
                let files = raw
                    .params
                    .get("files")
                    .and_then(Value::as_array)
                    .map(|list| list.iter().filter_map(Value::as_str).map(str::to_string).collect());
                Node::Atomic { change, file, files }
            }
        };
        Ok(Intent {
            id: raw.id,
            node,
            title: raw.title,
            labels: raw.labels,
            evidence: raw.evidence,
            children: raw.children,
        })
    }
}

impl IntentTree {
    /// Every atomic intent of the tree, in id order.
    pub fn atomics(&self) -> Vec<&Intent> {
        self.intents.iter().flat_map(Intent::atomics).collect()
    }
}

/// Labels of non-semantic edits (`Intent::labels`, and the tree's `labels` counts).
pub mod label {
    /// Only whitespace changed (or a blank line).
    pub const WHITESPACE: &str = "whitespace";
    /// An import removed and added back unchanged.
    pub const IMPORT_ORDER: &str = "import_order";
    /// A text edit no analyzer understands.
    pub const TEXT: &str = "text";
}

/// Atomic intent kinds: the contract with recipe mapping. `docs/intents.md` lists their params.
pub mod kind {
    /// The `kind` of [`Change::JavaPackageMove`](super::Change::JavaPackageMove).
    pub const JAVA_PACKAGE_MOVE: &str = "java.package_move";
    /// The `kind` of [`Change::JavaTypeRename`](super::Change::JavaTypeRename).
    pub const JAVA_TYPE_RENAME: &str = "java.type_rename";
    /// The `kind` of [`Change::JavaAnnotationChange`](super::Change::JavaAnnotationChange).
    pub const JAVA_ANNOTATION_CHANGE: &str = "java.annotation_change";
    /// The `kind` of [`Change::JavaMethodRename`](super::Change::JavaMethodRename).
    pub const JAVA_METHOD_RENAME: &str = "java.method_rename";
    /// The `kind` of [`Change::JavaStaticCallTarget`](super::Change::JavaStaticCallTarget).
    pub const JAVA_STATIC_CALL_TARGET: &str = "java.static_call_target";

    /// The `kind` of [`Change::MavenParentChange`](super::Change::MavenParentChange).
    pub const MAVEN_PARENT_CHANGE: &str = "maven.parent_change";
    /// The `kind` of [`Change::MavenPropertyChange`](super::Change::MavenPropertyChange).
    pub const MAVEN_PROPERTY_CHANGE: &str = "maven.property_change";
    /// The `kind` of [`Change::MavenPropertyAdded`](super::Change::MavenPropertyAdded).
    pub const MAVEN_PROPERTY_ADDED: &str = "maven.property_added";
    /// The `kind` of [`Change::MavenPropertyRemoved`](super::Change::MavenPropertyRemoved).
    pub const MAVEN_PROPERTY_REMOVED: &str = "maven.property_removed";
    /// The `kind` of [`Change::MavenDependencyVersion`](super::Change::MavenDependencyVersion).
    pub const MAVEN_DEPENDENCY_VERSION: &str = "maven.dependency_version";
    /// The `kind` of [`Change::MavenDependencySwap`](super::Change::MavenDependencySwap).
    pub const MAVEN_DEPENDENCY_SWAP: &str = "maven.dependency_swap";
    /// The `kind` of [`Change::MavenDependencyAdded`](super::Change::MavenDependencyAdded).
    pub const MAVEN_DEPENDENCY_ADDED: &str = "maven.dependency_added";
    /// The `kind` of [`Change::MavenDependencyRemoved`](super::Change::MavenDependencyRemoved).
    pub const MAVEN_DEPENDENCY_REMOVED: &str = "maven.dependency_removed";
    /// The `kind` of [`Change::MavenPluginVersion`](super::Change::MavenPluginVersion).
    pub const MAVEN_PLUGIN_VERSION: &str = "maven.plugin_version";
    pub(crate) const MAVEN_PLUGIN_CONFIG: &str = "maven.plugin_config";
    /// The `kind` of [`Change::MavenPluginAdded`](super::Change::MavenPluginAdded).
    pub const MAVEN_PLUGIN_ADDED: &str = "maven.plugin_added";
    pub(crate) const MAVEN_PLUGIN_REMOVED: &str = "maven.plugin_removed";
    pub(crate) const MAVEN_REPOSITORY_CHANGE: &str = "maven.repository_change";

    /// The `kind` of [`Change::GradleDependencyVersion`](super::Change::GradleDependencyVersion).
    pub const GRADLE_DEPENDENCY_VERSION: &str = "gradle.dependency_version";
    /// The `kind` of [`Change::GradleDependencySwap`](super::Change::GradleDependencySwap).
    pub const GRADLE_DEPENDENCY_SWAP: &str = "gradle.dependency_swap";
    /// The `kind` of [`Change::GradleDependencyAdded`](super::Change::GradleDependencyAdded).
    pub const GRADLE_DEPENDENCY_ADDED: &str = "gradle.dependency_added";
    /// The `kind` of [`Change::GradleDependencyRemoved`](super::Change::GradleDependencyRemoved).
    pub const GRADLE_DEPENDENCY_REMOVED: &str = "gradle.dependency_removed";
    /// The `kind` of [`Change::GradlePluginVersion`](super::Change::GradlePluginVersion).
    pub const GRADLE_PLUGIN_VERSION: &str = "gradle.plugin_version";
    /// The `kind` of [`Change::GradleJavaCompatibility`](super::Change::GradleJavaCompatibility).
    pub const GRADLE_JAVA_COMPATIBILITY: &str = "gradle.java_compatibility";
    pub(crate) const GRADLE_TOOLCHAIN: &str = "gradle.toolchain";
    pub(crate) const GRADLE_WRAPPER_VERSION: &str = "gradle.wrapper_version";
    /// The `kind` of [`Change::GradleCatalogValue`](super::Change::GradleCatalogValue).
    pub const GRADLE_CATALOG_VALUE: &str = "gradle.catalog_value";

    /// The `kind` of [`Change::PropertiesKeyRename`](super::Change::PropertiesKeyRename).
    pub const PROPERTIES_KEY_RENAME: &str = "properties.key_rename";
    /// The `kind` of [`Change::PropertiesValueChange`](super::Change::PropertiesValueChange).
    pub const PROPERTIES_VALUE_CHANGE: &str = "properties.value_change";
    /// The `kind` of [`Change::PropertiesKeyAdded`](super::Change::PropertiesKeyAdded).
    pub const PROPERTIES_KEY_ADDED: &str = "properties.key_added";
    /// The `kind` of [`Change::PropertiesKeyRemoved`](super::Change::PropertiesKeyRemoved).
    pub const PROPERTIES_KEY_REMOVED: &str = "properties.key_removed";

    /// The `kind` of [`Change::YamlKeyRename`](super::Change::YamlKeyRename).
    pub const YAML_KEY_RENAME: &str = "yaml.key_rename";
    /// The `kind` of [`Change::YamlValueChange`](super::Change::YamlValueChange).
    pub const YAML_VALUE_CHANGE: &str = "yaml.value_change";
    pub(crate) const YAML_KEY_ADDED: &str = "yaml.key_added";
    pub(crate) const YAML_KEY_REMOVED: &str = "yaml.key_removed";

    /// The `kind` of [`Change::GithubActionsSetupJava`](super::Change::GithubActionsSetupJava).
    pub const GITHUB_ACTIONS_SETUP_JAVA: &str = "github_actions.setup_java";
    /// The `kind` of [`Change::GithubActionsActionVersion`](super::Change::GithubActionsActionVersion).
    pub const GITHUB_ACTIONS_ACTION_VERSION: &str = "github_actions.action_version";
    /// The `kind` of [`Change::GithubActionsValueChange`](super::Change::GithubActionsValueChange).
    pub const GITHUB_ACTIONS_VALUE_CHANGE: &str = "github_actions.value_change";

    /// The `kind` of [`Change::DockerFromChange`](super::Change::DockerFromChange).
    pub const DOCKER_FROM_CHANGE: &str = "docker.from_change";

    /// The `kind` of [`Change::TextEdit`](super::Change::TextEdit).
    pub const TEXT_EDIT: &str = "text.edit";
    pub(crate) const FILE_ADDED: &str = "file.added";
    pub(crate) const FILE_DELETED: &str = "file.deleted";
    pub(crate) const FILE_RENAMED: &str = "file.renamed";
    pub(crate) const WHITESPACE: &str = "whitespace";
    pub(crate) const IMPORT_ORDER: &str = "import_order";

    /// Every atomic kind (a test checks it against the constants above and docs/intents.md).
    #[cfg(test)]
    pub(crate) const ALL: [&str; 45] = [
        JAVA_PACKAGE_MOVE,
        JAVA_TYPE_RENAME,
        JAVA_ANNOTATION_CHANGE,
        JAVA_METHOD_RENAME,
        JAVA_STATIC_CALL_TARGET,
        MAVEN_PARENT_CHANGE,
        MAVEN_PROPERTY_CHANGE,
        MAVEN_PROPERTY_ADDED,
        MAVEN_PROPERTY_REMOVED,
        MAVEN_DEPENDENCY_VERSION,
        MAVEN_DEPENDENCY_SWAP,
        MAVEN_DEPENDENCY_ADDED,
        MAVEN_DEPENDENCY_REMOVED,
        MAVEN_PLUGIN_VERSION,
        MAVEN_PLUGIN_CONFIG,
        MAVEN_PLUGIN_ADDED,
        MAVEN_PLUGIN_REMOVED,
        MAVEN_REPOSITORY_CHANGE,
        GRADLE_DEPENDENCY_VERSION,
        GRADLE_DEPENDENCY_SWAP,
        GRADLE_DEPENDENCY_ADDED,
        GRADLE_DEPENDENCY_REMOVED,
        GRADLE_PLUGIN_VERSION,
        GRADLE_JAVA_COMPATIBILITY,
        GRADLE_TOOLCHAIN,
        GRADLE_WRAPPER_VERSION,
        GRADLE_CATALOG_VALUE,
        PROPERTIES_KEY_RENAME,
        PROPERTIES_VALUE_CHANGE,
        PROPERTIES_KEY_ADDED,
        PROPERTIES_KEY_REMOVED,
        YAML_KEY_RENAME,
        YAML_VALUE_CHANGE,
        YAML_KEY_ADDED,
        YAML_KEY_REMOVED,
        GITHUB_ACTIONS_SETUP_JAVA,
        GITHUB_ACTIONS_ACTION_VERSION,
        GITHUB_ACTIONS_VALUE_CHANGE,
        DOCKER_FROM_CHANGE,
        TEXT_EDIT,
        FILE_ADDED,
        FILE_DELETED,
        FILE_RENAMED,
        WHITESPACE,
        IMPORT_ORDER,
    ];
}

#[cfg(test)]
mod docs_tests {
    use std::collections::BTreeSet;

    use super::kind;
    use crate::model::{Strategic, Tactical};

    const DOCS: &str = include_str!("../../../../docs/intents.md");

    /// The section of the docs from `heading` to the next `## `.
    fn section(heading: &str) -> &'static str {
        let start = DOCS.find(heading).unwrap_or_else(|| panic!("docs/intents.md has no {heading}"));
        let rest = &DOCS[start + heading.len()..];
        &rest[..rest.find("\n## ").unwrap_or(rest.len())]
    }

    /// The backticked kinds of a table's first column (`a` / `b` rows name two).
    fn first_column_kinds(text: &str) -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("| `"))
            .flat_map(|l| {
                l.split('|').nth(1).unwrap_or("").split('/').map(|k| k.trim().trim_matches('`').to_string())
            })
            .collect()
    }

    #[test]
    fn every_atomic_kind_is_a_constant_in_all_and_documented_once() {
        let source = include_str!("intent.rs");
        let block = &source[source.find(" mod kind {").unwrap()..];
        let constants: BTreeSet<&str> = block[..block.find("const ALL").unwrap()]
            .lines()
            .filter_map(|l| l.trim().split_once("const ").map(|(_, rest)| rest))
            .filter_map(|l| l.split('"').nth(1))
            .collect();
        let all: BTreeSet<&str> = kind::ALL.into_iter().collect();
        assert_eq!(all.len(), kind::ALL.len(), "kind::ALL lists a kind twice");
        assert_eq!(constants, all, "kind::ALL and the constants differ");
        let documented = first_column_kinds(section("## Atomic kinds and params"));
        let set: BTreeSet<&str> = documented.iter().map(String::as_str).collect();
        assert_eq!(set.len(), documented.len(), "docs/intents.md documents a kind twice");
        assert_eq!(set, all, "docs/intents.md and kind::ALL differ");
    }

    #[test]
    fn the_group_kinds_are_documented_in_order() {
        let tactical: Vec<String> =
            section("## Tactical kinds").split('`').skip(1).step_by(2).map(str::to_string).collect();
        let expected: Vec<String> = Tactical::ALL.iter().map(|t| t.kind().to_string()).collect();
        assert_eq!(tactical, expected);
        // The strategic table is in the order membership is checked (the tree's rule), so as a set.
        let strategic: BTreeSet<String> =
            first_column_kinds(section("## Strategic kinds")).into_iter().collect();
        assert_eq!(strategic, Strategic::KINDS.map(String::from).into_iter().collect());
    }
}
