//! Builds the tree: identical atomic intents of several files are merged, atomic intents are
//! grouped into tactical intents per concern, and tacticals into the strategic intents that their
//! members add up to (Java level in pom + CI + Docker -> "Upgrade Java 11 -> 17").

use std::collections::{BTreeMap, BTreeSet};

use crate::model::groups::{Strategic, Tactical};
use crate::model::intent::kind;
use crate::model::{Intent, Level};

use super::atomic::Atomic;
use super::text::sort_lines;
use super::versions::{distinctive_words, docker_java_major, java_major, major, major_minor};

/// A strategic node's title.
fn strategic_title(strategy: &Strategic) -> String {
    match strategy {
        Strategic::SpringBoot { from, to } => {
            format!("Upgrade Spring Boot {} -> {}", major_minor(from), major_minor(to))
        }
        Strategic::Java { from, to } => format!("Upgrade Java {from} -> {to}"),
        Strategic::Jakarta => "Migrate javax -> jakarta".to_string(),
        Strategic::JUnit => "Migrate JUnit 4 -> 5".to_string(),
        Strategic::Dependency { old, new } => format!("Migrate {old} -> {new}"),
    }
}

pub(crate) fn build(atomics: Vec<Atomic>) -> Vec<Intent> {
    let atomics = merge(atomics);
    let owners = owners(&atomics);
    // (owner, concern) -> atomics; both orders are display orders
    let mut groups: BTreeMap<(Option<Strategic>, Tactical), Vec<Atomic>> = BTreeMap::new();
    for (atomic, owner) in atomics.into_iter().zip(owners) {
        let java = matches!(owner, Some(Strategic::Java { .. })) || java_level(&atomic).is_some();
        groups.entry((owner, tactical_of(&atomic, java))).or_default().push(atomic);
    }
    let mut strategic: BTreeMap<Strategic, Vec<Intent>> = BTreeMap::new();
    let mut top: Vec<Intent> = Vec::new();
    for ((owner, tactical), mut members) in groups {
        members.sort_by_cached_key(sort_key);
        let label = tactical.label();
        let title =
            if members.len() > 1 { format!("{label} ({})", members.len()) } else { label.to_string() };
        let node = Intent {
            id: String::new(),
            level: Level::Tactical,
            kind: tactical.kind().to_string(),
            title,
            params: BTreeMap::new(),
            labels: Vec::new(),
            evidence: Vec::new(),
            children: members.into_iter().map(into_intent).collect(),
        };
        match owner {
            Some(strategy) => strategic.entry(strategy).or_default().push(node),
            None => top.push(node),
        }
    }
    let mut tree: Vec<Intent> = strategic
        .into_iter()
        .map(|(strategy, children)| Intent {
            id: String::new(),
            level: Level::Strategic,
            kind: strategy.kind().to_string(),
            title: strategic_title(&strategy),
            params: strategy.params(),
            labels: Vec::new(),
            evidence: Vec::new(),
            children,
        })
        .collect();
    tree.extend(top);
    number(&mut tree, "");
    tree
}

fn into_intent(atomic: Atomic) -> Intent {
    Intent {
        id: String::new(),
        level: Level::Atomic,
        kind: atomic.kind().to_string(),
        params: atomic.params(),
        title: atomic.title,
        labels: atomic.labels,
        evidence: atomic.evidence,
        children: Vec::new(),
    }
}

/// Ids from positions: "1", "1.2", "1.2.3".
fn number(nodes: &mut [Intent], prefix: &str) {
    for (i, node) in nodes.iter_mut().enumerate() {
        node.id = if prefix.is_empty() { (i + 1).to_string() } else { format!("{prefix}.{}", i + 1) };
        let id = node.id.clone();
        number(&mut node.children, &id);
    }
}

fn sort_key(atomic: &Atomic) -> (String, String, u32, &'static str, String) {
    let first = atomic.evidence.first();
    (
        atomic.get("file").to_string(),
        first.map(|c| c.path.clone()).unwrap_or_default(),
        first.map(|c| c.line).unwrap_or(0),
        atomic.kind(),
        serde_json::to_string(&atomic.params()).unwrap_or_default(),
    )
}

/// The same edit in several files (a version bump in every module) becomes one intent listing
/// the files.
fn merge(atomics: Vec<Atomic>) -> Vec<Atomic> {
    // (kind, params without the file, labels)
    type Key = (String, String, Vec<String>);
    let mut merged: BTreeMap<Key, (Atomic, BTreeSet<String>)> = BTreeMap::new();
    let mut order: Vec<Key> = Vec::new();
    for atomic in atomics {
        // Whole-file intents and moves are about one file each.
        let per_file = matches!(
            atomic.kind(),
            kind::FILE_ADDED
                | kind::FILE_DELETED
                | kind::FILE_RENAMED
                | kind::WHITESPACE
                | kind::IMPORT_ORDER
        );
        let file_key = if per_file { atomic.get("file").to_string() } else { String::new() };
        let key = (
            format!("{}\u{0}{file_key}", atomic.kind()),
            serde_json::to_string(&atomic.change).unwrap_or_default(),
            atomic.labels.clone(),
        );
        let mut files: BTreeSet<String> = BTreeSet::new();
        files.insert(atomic.file.clone());
        files.extend(atomic.files.iter().flatten().cloned());
        match merged.get_mut(&key) {
            Some((existing, all)) => {
                existing.evidence.extend(atomic.evidence);
                all.extend(files);
            }
            None => {
                order.push(key.clone());
                merged.insert(key, (atomic, files));
            }
        }
    }
    order
        .into_iter()
        .filter_map(|key| merged.remove(&key))
        .map(|(mut atomic, files)| {
            let files: Vec<String> = files.into_iter().filter(|f| !f.is_empty()).collect();
            if files.len() > 1 || atomic.files.is_some() {
                atomic.set_files(files);
            }
            sort_lines(&mut atomic.evidence);
            atomic
        })
        .collect()
}

fn tactical_of(atomic: &Atomic, java: bool) -> Tactical {
    match atomic.kind() {
        kind::JAVA_PACKAGE_MOVE => Tactical::MovePackages,
        kind::JAVA_TYPE_RENAME => Tactical::ChangeTypes,
        kind::JAVA_ANNOTATION_CHANGE => Tactical::ChangeAnnotations,
        kind::JAVA_METHOD_RENAME => Tactical::RenameMethods,
        kind::JAVA_STATIC_CALL_TARGET => Tactical::ChangeStaticCalls,
        kind::MAVEN_PARENT_CHANGE => Tactical::ChangeParent,
        kind::MAVEN_PROPERTY_CHANGE | kind::MAVEN_PROPERTY_ADDED | kind::MAVEN_PROPERTY_REMOVED if java => {
            Tactical::SetJavaLevel
        }
        kind::MAVEN_PROPERTY_CHANGE | kind::MAVEN_PROPERTY_ADDED | kind::MAVEN_PROPERTY_REMOVED => {
            Tactical::ChangeBuildProperties
        }
        kind::MAVEN_DEPENDENCY_VERSION
        | kind::MAVEN_DEPENDENCY_SWAP
        | kind::MAVEN_DEPENDENCY_ADDED
        | kind::MAVEN_DEPENDENCY_REMOVED
        | kind::GRADLE_DEPENDENCY_VERSION
        | kind::GRADLE_DEPENDENCY_SWAP
        | kind::GRADLE_DEPENDENCY_ADDED
        | kind::GRADLE_DEPENDENCY_REMOVED => Tactical::ChangeDependencies,
        kind::MAVEN_PLUGIN_VERSION
        | kind::MAVEN_PLUGIN_ADDED
        | kind::MAVEN_PLUGIN_REMOVED
        | kind::GRADLE_PLUGIN_VERSION => Tactical::UpdateBuildPlugins,
        kind::MAVEN_PLUGIN_CONFIG if java => Tactical::SetJavaLevel,
        kind::MAVEN_PLUGIN_CONFIG => Tactical::ConfigureBuildPlugins,
        kind::MAVEN_REPOSITORY_CHANGE => Tactical::ChangeRepositories,
        kind::GRADLE_JAVA_COMPATIBILITY | kind::GRADLE_TOOLCHAIN => Tactical::SetJavaLevel,
        kind::GRADLE_WRAPPER_VERSION => Tactical::UpdateGradleWrapper,
        kind::PROPERTIES_KEY_RENAME | kind::YAML_KEY_RENAME => Tactical::RenameConfigKeys,
        kind::PROPERTIES_VALUE_CHANGE | kind::YAML_VALUE_CHANGE => Tactical::ChangeConfigValues,
        kind::PROPERTIES_KEY_ADDED
        | kind::PROPERTIES_KEY_REMOVED
        | kind::YAML_KEY_ADDED
        | kind::YAML_KEY_REMOVED => Tactical::UpdateConfigKeys,
        kind::GITHUB_ACTIONS_SETUP_JAVA => Tactical::BumpCiJava,
        kind::GITHUB_ACTIONS_VALUE_CHANGE if java => Tactical::BumpCiJava,
        kind::GITHUB_ACTIONS_ACTION_VERSION => Tactical::BumpCiActions,
        kind::GITHUB_ACTIONS_VALUE_CHANGE => Tactical::ChangeCiValues,
        kind::DOCKER_FROM_CHANGE => Tactical::UpdateDockerImages,
        kind::FILE_RENAMED => Tactical::MoveFiles,
        kind::FILE_ADDED => Tactical::AddFiles,
        kind::FILE_DELETED => Tactical::DeleteFiles,
        kind::IMPORT_ORDER => Tactical::ReorderImports,
        kind::WHITESPACE => Tactical::FormatWhitespace,
        _ => Tactical::EditText,
    }
}

/// Which strategic intent (if any) each atomic intent belongs to.
fn owners(atomics: &[Atomic]) -> Vec<Option<Strategic>> {
    let boot = spring_boot_versions(atomics);
    let boot_crosses_jakarta =
        boot.as_ref().is_some_and(|(from, to)| major(from) < Some(3) && major(to) >= Some(3));
    let java = java_upgrade(atomics);
    let any_jakarta = atomics.iter().any(jakarta_member);
    let any_junit = atomics.iter().any(junit_member);
    let mut owners: Vec<Option<Strategic>> = atomics
        .iter()
        .map(|a| {
            if let Some((from, to)) = &boot
                && (boot_version(a).is_some()
                    || spring_member(a)
                    || (boot_crosses_jakarta && jakarta_member(a)))
            {
                return Some(Strategic::SpringBoot { from: from.clone(), to: to.clone() });
            }
            if any_junit && junit_member(a) {
                return Some(Strategic::JUnit);
            }
            if any_jakarta && jakarta_member(a) {
                return Some(Strategic::Jakarta);
            }
            if let Some((from, to)) = java
                && java_level(a).is_some()
            {
                return Some(Strategic::Java { from, to });
            }
            None
        })
        .collect();
    // A dependency swapped for another, with the package moves that follow it.
    let mut swaps: Vec<(String, String, BTreeSet<String>)> = Vec::new();
    for (atomic, owner) in atomics.iter().zip(owners.iter_mut()) {
        if owner.is_some()
            || !matches!(atomic.kind(), kind::MAVEN_DEPENDENCY_SWAP | kind::GRADLE_DEPENDENCY_SWAP)
        {
            continue;
        }
        let old = format!("{}:{}", atomic.get("old_group_id"), atomic.get("old_artifact_id"));
        let new = format!("{}:{}", atomic.get("new_group_id"), atomic.get("new_artifact_id"));
        let words = distinctive_words(&[atomic.get("new_group_id"), atomic.get("new_artifact_id")]);
        swaps.push((old.clone(), new.clone(), words));
        *owner = Some(Strategic::Dependency { old, new });
    }
    for (atomic, owner) in atomics.iter().zip(owners.iter_mut()) {
        if owner.is_some() {
            continue;
        }
        let target = match atomic.kind() {
            kind::JAVA_PACKAGE_MOVE => atomic.get("new_package"),
            kind::JAVA_TYPE_RENAME => atomic.get("new_type"),
            _ => continue,
        };
        let words = distinctive_words(&[target]);
        if let Some((old, new, _)) = swaps.iter().find(|(_, _, w)| !w.is_disjoint(&words)) {
            *owner = Some(Strategic::Dependency { old: old.clone(), new: new.clone() });
        }
    }
    owners
}

/// Old and new Java major version of an intent that sets the Java level (build, CI or image).
fn java_level(atomic: &Atomic) -> Option<(u32, u32)> {
    let both = |old: &str, new: &str| Some((java_major(old)?, java_major(new)?));
    match atomic.kind() {
        kind::MAVEN_PROPERTY_CHANGE => {
            let key = atomic.get("key");
            let java_key = matches!(key, "java.version" | "jdk.version" | "java.release" | "release")
                || (key.starts_with("maven.compiler.")
                    && ["source", "target", "release", "testSource", "testTarget", "testRelease"]
                        .iter()
                        .any(|s| key.ends_with(s)));
            if java_key { both(atomic.get("old_value"), atomic.get("new_value")) } else { None }
        }
        kind::MAVEN_PLUGIN_CONFIG if atomic.get("artifact_id") == "maven-compiler-plugin" => {
            if matches!(
                atomic.get("key"),
                "release" | "source" | "target" | "testSource" | "testTarget" | "testRelease"
            ) {
                both(atomic.get("old_value"), atomic.get("new_value"))
            } else {
                None
            }
        }
        kind::GRADLE_JAVA_COMPATIBILITY => both(atomic.get("old_value"), atomic.get("new_value")),
        kind::GRADLE_TOOLCHAIN | kind::GITHUB_ACTIONS_SETUP_JAVA => {
            both(atomic.get("old_version"), atomic.get("new_version"))
        }
        kind::GITHUB_ACTIONS_VALUE_CHANGE if atomic.get("key").to_ascii_lowercase().contains("java") => {
            both(atomic.get("old_value"), atomic.get("new_value"))
        }
        kind::DOCKER_FROM_CHANGE => {
            let old = docker_java_major(atomic.get("old_image"), atomic.get("old_tag"))?;
            let new = docker_java_major(atomic.get("new_image"), atomic.get("new_tag"))?;
            (old != new).then_some((old, new))
        }
        _ => None,
    }
}

/// The Java upgrade the PR makes: from the lowest old level to the highest new one.
fn java_upgrade(atomics: &[Atomic]) -> Option<(u32, u32)> {
    let span = |levels: Vec<(u32, u32)>| {
        let from = levels.iter().map(|l| l.0).min()?;
        let to = levels.iter().map(|l| l.1).max()?;
        (to > from).then_some((from, to))
    };
    // The build's language level names the upgrade; CI matrices and images often run newer JDKs
    // too (a matrix 11,17 -> 17,21 for a build moving to 17).
    let build = |a: &&Atomic| a.kind().starts_with("maven.") || a.kind().starts_with("gradle.");
    span(atomics.iter().filter(build).filter_map(java_level).collect())
        .or_else(|| span(atomics.iter().filter_map(java_level).collect()))
}

/// The Spring Boot version change an intent makes (parent, BOM, plugin or version property).
fn boot_version(atomic: &Atomic) -> Option<(String, String)> {
    let pair =
        |o: &str, n: &str| (o != n && !o.is_empty() && !n.is_empty()).then(|| (o.to_string(), n.to_string()));
    match atomic.kind() {
        kind::MAVEN_PARENT_CHANGE if atomic.get("new_group_id") == "org.springframework.boot" => {
            pair(atomic.get("old_version"), atomic.get("new_version"))
        }
        kind::MAVEN_DEPENDENCY_VERSION | kind::GRADLE_DEPENDENCY_VERSION
            if atomic.get("group_id") == "org.springframework.boot" =>
        {
            pair(atomic.get("old_version"), atomic.get("new_version"))
        }
        kind::GRADLE_PLUGIN_VERSION if atomic.get("plugin_id") == "org.springframework.boot" => {
            pair(atomic.get("old_version"), atomic.get("new_version"))
        }
        kind::MAVEN_PROPERTY_CHANGE | kind::PROPERTIES_VALUE_CHANGE
            if matches!(
                atomic.get("key"),
                "spring-boot.version" | "springBootVersion" | "spring.boot.version"
            ) =>
        {
            pair(atomic.get("old_value"), atomic.get("new_value"))
        }
        _ => None,
    }
    .filter(|(o, n)| major(o).is_some() && major(n).is_some())
}

fn spring_boot_versions(atomics: &[Atomic]) -> Option<(String, String)> {
    // The parent (or the first version change found) names the upgrade.
    let mut found: Vec<(String, String)> = atomics.iter().filter_map(boot_version).collect();
    found.sort();
    let parent = atomics.iter().find(|a| a.kind() == kind::MAVEN_PARENT_CHANGE).and_then(boot_version);
    parent.or_else(|| found.into_iter().next())
}

/// Spring dependencies and Spring configuration files move with a Spring Boot upgrade.
fn spring_member(atomic: &Atomic) -> bool {
    let group = |k: &str| atomic.get(k).starts_with("org.springframework");
    let config_file = {
        let file = atomic.get("file");
        let name = file.rsplit('/').next().unwrap_or(file);
        name.starts_with("application") || name.starts_with("bootstrap")
    };
    match atomic.kind() {
        kind::MAVEN_DEPENDENCY_VERSION
        | kind::MAVEN_DEPENDENCY_ADDED
        | kind::MAVEN_DEPENDENCY_REMOVED
        | kind::GRADLE_DEPENDENCY_VERSION
        | kind::GRADLE_DEPENDENCY_ADDED
        | kind::GRADLE_DEPENDENCY_REMOVED
        | kind::MAVEN_PLUGIN_VERSION => group("group_id"),
        kind::MAVEN_DEPENDENCY_SWAP | kind::GRADLE_DEPENDENCY_SWAP => {
            group("old_group_id") || group("new_group_id")
        }
        kind::GRADLE_PLUGIN_VERSION => {
            atomic.get("plugin_id").starts_with("org.springframework")
                || atomic.get("plugin_id") == "io.spring.dependency-management"
        }
        k if k.starts_with("properties.") || k.starts_with("yaml.") => config_file,
        _ => false,
    }
}

fn jakarta_member(atomic: &Atomic) -> bool {
    let moved = |old: &str, new: &str| old.starts_with("javax.") && new.starts_with("jakarta.");
    match atomic.kind() {
        kind::JAVA_PACKAGE_MOVE => moved(atomic.get("old_package"), atomic.get("new_package")),
        kind::JAVA_TYPE_RENAME | kind::JAVA_STATIC_CALL_TARGET => {
            moved(atomic.get("old_type"), atomic.get("new_type"))
        }
        kind::JAVA_ANNOTATION_CHANGE => moved(atomic.get("old_annotation"), atomic.get("new_annotation")),
        kind::MAVEN_DEPENDENCY_SWAP | kind::GRADLE_DEPENDENCY_SWAP => {
            moved(atomic.get("old_group_id"), atomic.get("new_group_id"))
                || (atomic.get("old_artifact_id").contains("javax")
                    && atomic.get("new_artifact_id").contains("jakarta"))
        }
        kind::MAVEN_DEPENDENCY_ADDED | kind::GRADLE_DEPENDENCY_ADDED => {
            atomic.get("group_id").starts_with("jakarta.")
        }
        kind::MAVEN_DEPENDENCY_REMOVED | kind::GRADLE_DEPENDENCY_REMOVED => {
            atomic.get("group_id").starts_with("javax.")
        }
        kind::PROPERTIES_KEY_RENAME | kind::YAML_KEY_RENAME => {
            moved(atomic.get("old_key"), atomic.get("new_key"))
        }
        _ => false,
    }
}

fn junit_member(atomic: &Atomic) -> bool {
    let junit4 = |s: &str| {
        (s.starts_with("org.junit.") && !s.starts_with("org.junit.jupiter")) || s.contains(".junit4.")
    };
    let junit5 = |s: &str| s.starts_with("org.junit.jupiter") || s.contains(".junit.jupiter.");
    let moved = |old: &str, new: &str| junit4(old) && junit5(new);
    let jupiter_group = |g: &str| g == "org.junit.jupiter" || g == "org.junit.vintage" || g == "org.junit";
    match atomic.kind() {
        kind::JAVA_PACKAGE_MOVE => {
            moved(&format!("{}.", atomic.get("old_package")), atomic.get("new_package"))
        }
        kind::JAVA_TYPE_RENAME => moved(atomic.get("old_type"), atomic.get("new_type")),
        kind::JAVA_STATIC_CALL_TARGET => moved(atomic.get("old_type"), atomic.get("new_type")),
        kind::JAVA_ANNOTATION_CHANGE => moved(atomic.get("old_annotation"), atomic.get("new_annotation")),
        kind::MAVEN_DEPENDENCY_SWAP | kind::GRADLE_DEPENDENCY_SWAP => {
            atomic.get("old_group_id") == "junit" && jupiter_group(atomic.get("new_group_id"))
        }
        kind::MAVEN_DEPENDENCY_ADDED | kind::GRADLE_DEPENDENCY_ADDED => jupiter_group(atomic.get("group_id")),
        kind::MAVEN_DEPENDENCY_REMOVED | kind::GRADLE_DEPENDENCY_REMOVED => atomic.get("group_id") == "junit",
        _ => false,
    }
}
