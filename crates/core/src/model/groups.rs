//! The tree's group kinds, typed: tactical intents (one per concern) and strategic intents (what
//! the concerns add up to). Intent extraction builds them and recipe mapping matches on them, so a
//! kind is spelled in one place; in `intent-tree.json` they are `kind` strings and `params`.

use std::collections::BTreeMap;

use serde_json::Value;

use super::intent::{Intent, Node};

/// A tactical intent's concern. Declaration order is display order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tactical {
    /// `change_parent`: the Maven parent POM changed.
    ChangeParent,
    /// `set_java_level`: the Java level in Maven or Gradle build files.
    SetJavaLevel,
    /// `change_build_properties`: Maven properties added, removed or changed.
    ChangeBuildProperties,
    /// `change_dependencies`: dependencies bumped, swapped, added or removed.
    ChangeDependencies,
    /// `update_build_plugins`: build plugins bumped, added or removed.
    UpdateBuildPlugins,
    /// `configure_build_plugins`: a Maven plugin's `<configuration>` changed.
    ConfigureBuildPlugins,
    /// `change_repositories`: Maven repositories added, removed or moved.
    ChangeRepositories,
    /// `update_gradle_wrapper`: the Gradle wrapper's version.
    UpdateGradleWrapper,
    /// `move_packages`: Java package moves.
    MovePackages,
    /// `change_types`: Java type renames.
    ChangeTypes,
    /// `change_annotations`: Java annotation changes.
    ChangeAnnotations,
    /// `change_static_calls`: static calls moved to another type.
    ChangeStaticCalls,
    /// `rename_methods`: Java method renames.
    RenameMethods,
    /// `rename_config_keys`: `.properties` and YAML keys renamed.
    RenameConfigKeys,
    /// `change_config_values`: `.properties` and YAML values changed.
    ChangeConfigValues,
    /// `update_config_keys`: `.properties` and YAML keys added or removed.
    UpdateConfigKeys,
    /// `bump_ci_java`: `setup-java` versions or distributions in GitHub Actions.
    BumpCiJava,
    /// `bump_ci_actions`: GitHub Actions `uses:` refs.
    BumpCiActions,
    /// `change_ci_values`: other GitHub Actions workflow values.
    ChangeCiValues,
    /// `update_docker_images`: Dockerfile `FROM` images and tags.
    UpdateDockerImages,
    /// `move_files`: renamed files.
    MoveFiles,
    /// `add_files`: new files.
    AddFiles,
    /// `delete_files`: deleted files.
    DeleteFiles,
    /// `edit_text`: line edits no analyzer understood (`text.edit`).
    EditText,
    /// `reorder_imports`: imports only reordered.
    ReorderImports,
    /// `format_whitespace`: whitespace-only changes.
    FormatWhitespace,
}

impl Tactical {
    /// Every tactical kind, in display order.
    pub(crate) const ALL: [Tactical; 26] = [
        Tactical::ChangeParent,
        Tactical::SetJavaLevel,
        Tactical::ChangeBuildProperties,
        Tactical::ChangeDependencies,
        Tactical::UpdateBuildPlugins,
        Tactical::ConfigureBuildPlugins,
        Tactical::ChangeRepositories,
        Tactical::UpdateGradleWrapper,
        Tactical::MovePackages,
        Tactical::ChangeTypes,
        Tactical::ChangeAnnotations,
        Tactical::ChangeStaticCalls,
        Tactical::RenameMethods,
        Tactical::RenameConfigKeys,
        Tactical::ChangeConfigValues,
        Tactical::UpdateConfigKeys,
        Tactical::BumpCiJava,
        Tactical::BumpCiActions,
        Tactical::ChangeCiValues,
        Tactical::UpdateDockerImages,
        Tactical::MoveFiles,
        Tactical::AddFiles,
        Tactical::DeleteFiles,
        Tactical::EditText,
        Tactical::ReorderImports,
        Tactical::FormatWhitespace,
    ];

    /// The `kind` in the JSON.
    pub(crate) fn kind(self) -> &'static str {
        self.names().0
    }

    /// What the node's title starts with.
    pub fn label(self) -> &'static str {
        self.names().1
    }

    fn names(self) -> (&'static str, &'static str) {
        match self {
            Tactical::ChangeParent => ("change_parent", "Change the parent POM"),
            Tactical::SetJavaLevel => ("set_java_level", "Set the Java level in build files"),
            Tactical::ChangeBuildProperties => ("change_build_properties", "Change build properties"),
            Tactical::ChangeDependencies => ("change_dependencies", "Change dependencies"),
            Tactical::UpdateBuildPlugins => ("update_build_plugins", "Update build plugins"),
            Tactical::ConfigureBuildPlugins => {
                ("configure_build_plugins", "Change build plugin configuration")
            }
            Tactical::ChangeRepositories => ("change_repositories", "Change repositories"),
            Tactical::UpdateGradleWrapper => ("update_gradle_wrapper", "Update the Gradle wrapper"),
            Tactical::MovePackages => ("move_packages", "Move packages"),
            Tactical::ChangeTypes => ("change_types", "Change types"),
            Tactical::ChangeAnnotations => ("change_annotations", "Change annotations"),
            Tactical::ChangeStaticCalls => ("change_static_calls", "Change static call targets"),
            Tactical::RenameMethods => ("rename_methods", "Rename methods"),
            Tactical::RenameConfigKeys => ("rename_config_keys", "Rename configuration keys"),
            Tactical::ChangeConfigValues => ("change_config_values", "Change configuration values"),
            Tactical::UpdateConfigKeys => ("update_config_keys", "Add or remove configuration keys"),
            Tactical::BumpCiJava => ("bump_ci_java", "Bump setup-java in CI"),
            Tactical::BumpCiActions => ("bump_ci_actions", "Bump GitHub Actions"),
            Tactical::ChangeCiValues => ("change_ci_values", "Change CI workflow values"),
            Tactical::UpdateDockerImages => ("update_docker_images", "Update Docker base images"),
            Tactical::MoveFiles => ("move_files", "Move files"),
            Tactical::AddFiles => ("add_files", "Add files"),
            Tactical::DeleteFiles => ("delete_files", "Delete files"),
            Tactical::EditText => ("edit_text", "Edit text"),
            Tactical::ReorderImports => ("reorder_imports", "Reorder imports"),
            Tactical::FormatWhitespace => ("format_whitespace", "Whitespace-only changes"),
        }
    }

    /// The tactical kind of a tactical node, None for any other node.
    pub fn of(intent: &Intent) -> Option<Tactical> {
        match intent.node {
            Node::Tactical(tactical) => Some(tactical),
            _ => None,
        }
    }

    /// The tactical kind the JSON names.
    pub(crate) fn read(kind: &str) -> Option<Tactical> {
        Tactical::ALL.into_iter().find(|t| t.kind() == kind)
    }
}

/// A strategic intent: the migration its members add up to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strategic {
    /// `upgrade_spring_boot`: Spring Boot versions as written (`2.7.18`, `3.2.0`).
    SpringBoot {
        /// Spring Boot version before.
        from: String,
        /// Spring Boot version after.
        to: String,
    },
    /// `upgrade_java`: Java major versions.
    Java {
        /// Java major version before, e.g. 11.
        from: u32,
        /// Java major version after, e.g. 17.
        to: u32,
    },
    /// `migrate_javax_to_jakarta`.
    Jakarta,
    /// `migrate_junit4_to_junit5`.
    JUnit,
    /// `migrate_dependency`: `group:artifact` before and after.
    Dependency {
        /// `group:artifact` of the dependency removed.
        old: String,
        /// `group:artifact` of the dependency that took its place.
        new: String,
    },
    /// `migrate_library`: code moved from one library's namespace to another's (Hamcrest ->
    /// AssertJ, Apache HttpClient 4 -> 5, Guava -> the JDK), the libraries as
    /// `intents::libraries` names them; `from` may name several ("Hamcrest and JUnit 4 assertions").
    Library {
        /// The library (or libraries, joined by ` and `) code moved away from.
        from: String,
        /// The library code moved to, e.g. `AssertJ` or `the JDK`.
        to: String,
    },
    /// `upgrade_framework`: a framework's major version (Quarkus 2 -> 3, Micronaut 3 -> 4), its
    /// versions as written.
    Framework {
        /// The framework: `Quarkus` or `Micronaut`.
        name: String,
        /// Its version before, as written.
        from: String,
        /// Its version after, as written.
        to: String,
    },
}

impl Strategic {
    /// Every strategic kind as the JSON spells it.
    pub(crate) const KINDS: [&'static str; 7] = [
        "upgrade_spring_boot",
        "upgrade_java",
        "migrate_javax_to_jakarta",
        "migrate_junit4_to_junit5",
        "migrate_dependency",
        "migrate_library",
        "upgrade_framework",
    ];

    /// The `kind` in the JSON.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Strategic::SpringBoot { .. } => Self::KINDS[0],
            Strategic::Java { .. } => Self::KINDS[1],
            Strategic::Jakarta => Self::KINDS[2],
            Strategic::JUnit => Self::KINDS[3],
            Strategic::Dependency { .. } => Self::KINDS[4],
            Strategic::Library { .. } => Self::KINDS[5],
            Strategic::Framework { .. } => Self::KINDS[6],
        }
    }

    /// The `params` in the JSON: `from` and `to` where the kind has versions or coordinates.
    pub(crate) fn params(&self) -> BTreeMap<String, Value> {
        let (from, to) = match self {
            Strategic::SpringBoot { from, to } => (from.clone(), to.clone()),
            Strategic::Java { from, to } => (from.to_string(), to.to_string()),
            Strategic::Dependency { old, new } | Strategic::Library { from: old, to: new } => {
                (old.clone(), new.clone())
            }
            Strategic::Framework { name, from, to } => {
                return BTreeMap::from([
                    ("framework".to_string(), Value::String(name.clone())),
                    ("from".to_string(), Value::String(from.clone())),
                    ("to".to_string(), Value::String(to.clone())),
                ]);
            }
            Strategic::Jakarta | Strategic::JUnit => return BTreeMap::new(),
        };
        BTreeMap::from([("from".to_string(), Value::String(from)), ("to".to_string(), Value::String(to))])
    }

    /// The framework whose dependency marks a module as one this upgrade is about, as
    /// `(groupIdPattern, artifactIdPattern)` globs: what keeps the framework's umbrella upgrade
    /// to its modules. None when any module may need the migration (a Java upgrade; javax ->
    /// jakarta spans many libraries) and for a swap of one dependency, which no umbrella upgrade
    /// is (`UpgradeSpringFramework_6_0` also moves MySQL's driver, and much else).
    pub fn framework(&self) -> Option<(String, String)> {
        match self {
            Strategic::SpringBoot { .. } => Some(("org.springframework.boot".into(), "*".into())),
            Strategic::JUnit => Some(("junit".into(), "junit".into())),
            Strategic::Framework { name, .. } => match name.as_str() {
                "Quarkus" => Some(("io.quarkus*".into(), "*".into())),
                "Micronaut" => Some(("io.micronaut*".into(), "*".into())),
                _ => None,
            },
            Strategic::Java { .. }
            | Strategic::Jakarta
            | Strategic::Dependency { .. }
            | Strategic::Library { .. } => None,
        }
    }

    /// The strategic kind of a strategic node, None for any other node.
    pub fn of(intent: &Intent) -> Option<Strategic> {
        match &intent.node {
            Node::Strategic(strategic) => Some(strategic.clone()),
            _ => None,
        }
    }

    /// The strategic intent the JSON's kind and params name; None when they do not read (e.g. a
    /// Java version that is not a number).
    pub(crate) fn read(kind: &str, params: &BTreeMap<String, Value>) -> Option<Strategic> {
        let param = |key: &str| params.get(key).and_then(Value::as_str).unwrap_or_default().to_string();
        Some(match kind {
            "upgrade_spring_boot" => Strategic::SpringBoot { from: param("from"), to: param("to") },
            "upgrade_java" => {
                Strategic::Java { from: param("from").parse().ok()?, to: param("to").parse().ok()? }
            }
            "migrate_javax_to_jakarta" => Strategic::Jakarta,
            "migrate_junit4_to_junit5" => Strategic::JUnit,
            "migrate_dependency" => Strategic::Dependency { old: param("from"), new: param("to") },
            "migrate_library" => Strategic::Library { from: param("from"), to: param("to") },
            "upgrade_framework" => {
                Strategic::Framework { name: param("framework"), from: param("from"), to: param("to") }
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_from_its_json() {
        for tactical in Tactical::ALL {
            assert_eq!(Tactical::read(tactical.kind()), Some(tactical));
        }
        let strategics = [
            Strategic::SpringBoot { from: "2.7.18".into(), to: "3.2.0".into() },
            Strategic::Java { from: 11, to: 17 },
            Strategic::Jakarta,
            Strategic::JUnit,
            Strategic::Dependency { old: "log4j:log4j".into(), new: "ch.qos.reload4j:reload4j".into() },
            Strategic::Library { from: "Hamcrest".into(), to: "AssertJ".into() },
            Strategic::Framework {
                name: "Quarkus".into(),
                from: "2.16.7.Final".into(),
                to: "3.2.0.Final".into(),
            },
        ];
        for strategic in strategics {
            assert_eq!(Strategic::read(strategic.kind(), &strategic.params()).as_ref(), Some(&strategic));
        }
        assert_eq!(Tactical::read("upgrade_java"), None);
        let bad = BTreeMap::from([
            ("from".to_string(), Value::from("eleven")),
            ("to".to_string(), Value::from("17")),
        ]);
        assert_eq!(Strategic::read("upgrade_java", &bad), None);
    }

    #[test]
    fn a_framework_upgrade_names_its_framework_and_a_language_upgrade_or_a_swap_does_not() {
        let boot = Strategic::SpringBoot { from: "2.7.18".into(), to: "3.2.0".into() };
        assert_eq!(boot.framework(), Some(("org.springframework.boot".into(), "*".into())));
        assert_eq!(Strategic::JUnit.framework(), Some(("junit".into(), "junit".into())));
        let swap = Strategic::Dependency {
            old: "mysql:mysql-connector-java".into(),
            new: "com.mysql:mysql-connector-j".into(),
        };
        assert_eq!(swap.framework(), None);
        assert_eq!(Strategic::Java { from: 11, to: 17 }.framework(), None);
        assert_eq!(Strategic::Jakarta.framework(), None);
    }
}
