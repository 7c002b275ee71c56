//! Builds the tree: identical atomic intents of several files are merged, atomic intents are
//! grouped into tactical intents per concern, and tacticals into the strategic intents that their
//! members add up to (Java level in pom + CI + Docker -> "Upgrade Java 11 -> 17").

use std::collections::{BTreeMap, BTreeSet};

use crate::model::Change;
use crate::model::Intent;
use crate::model::groups::{Strategic, Tactical};
use crate::model::intent::Node;

use super::atomic::Atomic;
use super::strategy::{java_level, owners};
use super::text::sort_lines;
use super::versions::major_minor;

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
        Strategic::Library { from, to } => format!("Migrate {from} -> {to}"),
        Strategic::Framework { name, from, to } => {
            format!("Upgrade {name} {} -> {}", major_minor(from), major_minor(to))
        }
    }
}

pub(crate) fn build(atomics: Vec<Atomic>, dropped: &super::library_removals::DroppedImports) -> Vec<Intent> {
    let atomics = merge(atomics);
    let owners = owners(&atomics, dropped);
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
            node: Node::Tactical(tactical),
            title,
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
            title: strategic_title(&strategy),
            node: Node::Strategic(strategy),
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
        node: Node::Atomic { change: atomic.change, file: atomic.file, files: atomic.files },
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
        atomic.file.clone(),
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
            atomic.change,
            Change::FileAdded { .. }
                | Change::FileDeleted { .. }
                | Change::FileRenamed { .. }
                | Change::Whitespace {}
                | Change::ImportOrder {}
        );
        let file_key = if per_file { atomic.file.clone() } else { String::new() };
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
    match &atomic.change {
        Change::JavaPackageMove { .. } => Tactical::MovePackages,
        Change::JavaTypeRename { .. } => Tactical::ChangeTypes,
        Change::JavaAnnotationChange { .. } => Tactical::ChangeAnnotations,
        Change::JavaMethodRename { .. } => Tactical::RenameMethods,
        Change::JavaStaticCallTarget { .. } => Tactical::ChangeStaticCalls,
        Change::MavenParentChange { .. } => Tactical::ChangeParent,
        Change::MavenPropertyChange { .. }
        | Change::MavenPropertyAdded { .. }
        | Change::MavenPropertyRemoved { .. } => {
            if java {
                Tactical::SetJavaLevel
            } else {
                Tactical::ChangeBuildProperties
            }
        }
        Change::MavenDependencyVersion { .. }
        | Change::MavenDependencySwap { .. }
        | Change::MavenDependencyAdded { .. }
        | Change::MavenDependencyRemoved { .. }
        | Change::GradleDependencyVersion { .. }
        | Change::GradleDependencySwap { .. }
        | Change::GradleDependencyAdded { .. }
        | Change::GradleDependencyRemoved { .. }
        | Change::GradleCatalogValue { .. } => Tactical::ChangeDependencies,
        Change::MavenPluginVersion { .. }
        | Change::MavenPluginAdded { .. }
        | Change::MavenPluginRemoved { .. }
        | Change::GradlePluginVersion { .. } => Tactical::UpdateBuildPlugins,
        Change::MavenPluginConfig { .. } => {
            if java {
                Tactical::SetJavaLevel
            } else {
                Tactical::ConfigureBuildPlugins
            }
        }
        Change::MavenRepositoryChange { .. } => Tactical::ChangeRepositories,
        Change::GradleJavaCompatibility { .. } | Change::GradleToolchain { .. } => Tactical::SetJavaLevel,
        Change::GradleWrapperVersion { .. } => Tactical::UpdateGradleWrapper,
        Change::PropertiesKeyRename { .. } | Change::YamlKeyRename { .. } => Tactical::RenameConfigKeys,
        Change::PropertiesValueChange { .. } | Change::YamlValueChange { .. } => Tactical::ChangeConfigValues,
        Change::PropertiesKeyAdded { .. }
        | Change::PropertiesKeyRemoved { .. }
        | Change::YamlKeyAdded { .. }
        | Change::YamlKeyRemoved { .. } => Tactical::UpdateConfigKeys,
        Change::GithubActionsSetupJava { .. } => Tactical::BumpCiJava,
        Change::GithubActionsValueChange { .. } => {
            if java {
                Tactical::BumpCiJava
            } else {
                Tactical::ChangeCiValues
            }
        }
        Change::GithubActionsActionVersion { .. } => Tactical::BumpCiActions,
        Change::DockerFromChange { .. } => Tactical::UpdateDockerImages,
        Change::FileRenamed { .. } => Tactical::MoveFiles,
        Change::FileAdded { .. } => Tactical::AddFiles,
        Change::FileDeleted { .. } => Tactical::DeleteFiles,
        Change::ImportOrder {} => Tactical::ReorderImports,
        Change::Whitespace {} => Tactical::FormatWhitespace,
        Change::TextEdit { .. } => Tactical::EditText,
    }
}
