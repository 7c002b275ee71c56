//! Which strategic intent each atomic intent belongs to: a Spring Boot upgrade, JUnit 4 -> 5,
//! javax -> jakarta, a Java upgrade or a dependency migration (docs/intents.md, "Strategic kinds",
//! in the order they are checked). The rules read the typed changes.

use std::collections::BTreeSet;

use crate::model::change::property_reference;
use crate::model::{Change, Strategic};

use super::atomic::Atomic;
use super::versions::{distinctive_words, docker_java_major, java_major, major};

/// Which strategic intent (if any) each atomic intent belongs to; `dropped` is what the PR's Java
/// files stopped importing.
pub(crate) fn owners(
    atomics: &[Atomic],
    dropped: &super::library_removals::DroppedImports,
) -> Vec<Option<Strategic>> {
    let boot = spring_boot_versions(atomics);
    let boot_crosses_jakarta =
        boot.as_ref().is_some_and(|(from, to)| major(from) < Some(3) && major(to) >= Some(3));
    let framework = framework_upgrade(atomics);
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
            if let Some((upgrade, strategic)) = &framework
                && (upgrade.version_of(a).is_some()
                    || upgrade.member(a)
                    || (upgrade.crosses_jakarta(strategic) && jakarta_member(a)))
            {
                return Some(strategic.clone());
            }
            if any_junit && (junit_member(a) || test_runner_plugin(a)) {
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
    dependency_migrations(atomics, &mut owners);
    super::library_moves::library_migrations(atomics, &mut owners);
    super::library_removals::library_removals(atomics, &mut owners, dropped);
    version_properties(atomics, &mut owners);
    owners
}

/// A framework's major upgrade, and the version it crosses to jakarta at.
pub(super) struct Framework {
    name: &'static str,
    /// Maven groups (and Gradle plugin ids) of the framework, by prefix.
    prefix: &'static str,
    /// Version properties (Maven, gradle.properties) that name the framework's version.
    properties: &'static [&'static str],
    /// The first major whose APIs are jakarta's.
    jakarta_major: u32,
}

const FRAMEWORKS: [Framework; 2] = [
    Framework {
        name: "Quarkus",
        prefix: "io.quarkus",
        properties: &[
            "quarkus.platform.version",
            "quarkus.version",
            "quarkus-plugin.version",
            "quarkusPlatformVersion",
            "quarkusPluginVersion",
        ],
        jakarta_major: 3,
    },
    Framework {
        name: "Micronaut",
        prefix: "io.micronaut",
        properties: &["micronaut.version", "micronautVersion", "micronaut.platform.version"],
        jakarta_major: 4,
    },
];

impl Framework {
    /// The version change of the framework an intent makes (parent, BOM, plugin or property).
    fn version_of(&self, atomic: &Atomic) -> Option<(String, String)> {
        let pair = |o: &str, n: &str| {
            (o != n && major(o).is_some() && major(n).is_some()).then(|| (o.to_string(), n.to_string()))
        };
        let ours = |group: &str| group.starts_with(self.prefix);
        match &atomic.change {
            Change::MavenParentChange { new_group_id, old_version, new_version, .. }
                if ours(new_group_id) =>
            {
                pair(old_version, new_version)
            }
            Change::MavenDependencyVersion { group_id, old_version, new_version, .. }
            | Change::GradleDependencyVersion { group_id, old_version, new_version, .. }
            | Change::MavenPluginVersion { group_id, old_version, new_version, .. }
                if ours(group_id) =>
            {
                pair(old_version, new_version)
            }
            Change::GradlePluginVersion { plugin_id, old_version, new_version } if ours(plugin_id) => {
                pair(old_version, new_version)
            }
            Change::MavenPropertyChange { key, old_value, new_value, .. }
            | Change::PropertiesValueChange { key, old_value, new_value }
                if self.properties.contains(&key.as_str()) =>
            {
                pair(old_value, new_value)
            }
            _ => None,
        }
    }

    /// The framework's own dependencies and plugins move with its upgrade.
    fn member(&self, atomic: &Atomic) -> bool {
        let ours = |group: &str| group.starts_with(self.prefix);
        if let Some(Dependency::Added(group) | Dependency::Removed(group) | Dependency::Version(group)) =
            dependency(&atomic.change)
        {
            return ours(group);
        }
        match &atomic.change {
            Change::MavenPluginVersion { group_id, .. } | Change::MavenPluginAdded { group_id, .. } => {
                ours(group_id)
            }
            Change::GradlePluginVersion { plugin_id, .. } => ours(plugin_id),
            _ => swap(&atomic.change).is_some_and(|s| ours(s.old_group) || ours(s.new_group)),
        }
    }

    /// Whether the upgrade crosses the framework's move to jakarta (its javax -> jakarta is part
    /// of it).
    fn crosses_jakarta(&self, strategic: &Strategic) -> bool {
        let Strategic::Framework { from, to, .. } = strategic else { return false };
        major(from) < Some(self.jakarta_major) && major(to) >= Some(self.jakarta_major)
    }
}

/// The major upgrade of a framework the PR makes (the first version change that crosses a major).
fn framework_upgrade(atomics: &[Atomic]) -> Option<(&'static Framework, Strategic)> {
    FRAMEWORKS.iter().find_map(|framework| {
        let (from, to) = atomics
            .iter()
            .filter_map(|a| framework.version_of(a))
            .find(|(from, to)| major(from) < major(to))?;
        Some((framework, Strategic::Framework { name: framework.name.to_string(), from, to }))
    })
}

/// A version property of a dependency that moves with a migration moves with it: the servlet API
/// swapped for Jakarta's with `${servlet.version}` as its version, and that property changed from
/// 4.0.1 to 6.0.0, is one migration (the new version is the swap's target).
fn version_properties(atomics: &[Atomic], owners: &mut [Option<Strategic>]) {
    let owned_by: Vec<(String, Strategic)> = atomics
        .iter()
        .zip(owners.iter())
        .filter_map(|(atomic, owner)| Some((version_of(&atomic.change)?, owner.clone()?)))
        .filter_map(|(version, owner)| Some((property_reference(version)?.to_string(), owner)))
        .collect();
    for (atomic, owner) in atomics.iter().zip(owners.iter_mut()) {
        if owner.is_some() {
            continue;
        }
        if let Change::MavenPropertyChange { key, .. } = &atomic.change
            && let Some((_, strategic)) = owned_by.iter().find(|(property, _)| property == key)
        {
            *owner = Some(strategic.clone());
        }
    }
}

/// The version a dependency change writes (as written: a literal or a `${property}`).
fn version_of(change: &Change) -> Option<&str> {
    match change {
        Change::MavenDependencySwap { new_version, .. }
        | Change::MavenDependencyAdded { version: new_version, .. }
        | Change::MavenDependencyVersion { new_version, .. } => Some(new_version),
        _ => None,
    }
}

/// A dependency swapped for another that no other strategy owns, with the package moves and type
/// renames whose new names share a word with the new coordinates.
fn dependency_migrations(atomics: &[Atomic], owners: &mut [Option<Strategic>]) {
    let mut swaps: Vec<(String, String, BTreeSet<String>)> = Vec::new();
    for (atomic, owner) in atomics.iter().zip(owners.iter_mut()) {
        let Some(swap) = swap(&atomic.change).filter(|_| owner.is_none()) else { continue };
        let old = format!("{}:{}", swap.old_group, swap.old_artifact);
        let new = format!("{}:{}", swap.new_group, swap.new_artifact);
        let words = distinctive_words(&[swap.new_group, swap.new_artifact]);
        swaps.push((old.clone(), new.clone(), words));
        *owner = Some(Strategic::Dependency { old, new });
    }
    for (atomic, owner) in atomics.iter().zip(owners.iter_mut()) {
        if owner.is_some() {
            continue;
        }
        // Code that now calls the new library (`LogManager.getLogger` -> `LoggerFactory.getLogger`)
        // moved with it, as its imports did.
        let target = match &atomic.change {
            Change::JavaPackageMove { new_package, .. } => new_package,
            Change::JavaTypeRename { new_type, .. } | Change::JavaStaticCallTarget { new_type, .. } => {
                new_type
            }
            _ => continue,
        };
        let words = distinctive_words(&[target.as_str()]);
        if let Some((old, new, _)) = swaps.iter().find(|(_, _, w)| !w.is_disjoint(&words)) {
            *owner = Some(Strategic::Dependency { old: old.clone(), new: new.clone() });
        }
    }
}

/// The coordinates of a Maven or Gradle dependency swap.
struct Swap<'a> {
    old_group: &'a str,
    old_artifact: &'a str,
    new_group: &'a str,
    new_artifact: &'a str,
}

fn swap(change: &Change) -> Option<Swap<'_>> {
    match change {
        Change::MavenDependencySwap {
            old_group_id, old_artifact_id, new_group_id, new_artifact_id, ..
        }
        | Change::GradleDependencySwap {
            old_group_id, old_artifact_id, new_group_id, new_artifact_id, ..
        } => Some(Swap {
            old_group: old_group_id,
            old_artifact: old_artifact_id,
            new_group: new_group_id,
            new_artifact: new_artifact_id,
        }),
        _ => None,
    }
}

/// How a change touches one dependency of Maven or Gradle: its group, and whether it was added,
/// removed or its version changed.
pub(super) enum Dependency<'a> {
    Added(&'a str),
    Removed(&'a str),
    Version(&'a str),
}

pub(super) fn dependency(change: &Change) -> Option<Dependency<'_>> {
    match change {
        Change::MavenDependencyAdded { group_id, .. } | Change::GradleDependencyAdded { group_id, .. } => {
            Some(Dependency::Added(group_id))
        }
        Change::MavenDependencyRemoved { group_id, .. }
        | Change::GradleDependencyRemoved { group_id, .. } => Some(Dependency::Removed(group_id)),
        Change::MavenDependencyVersion { group_id, .. }
        | Change::GradleDependencyVersion { group_id, .. } => Some(Dependency::Version(group_id)),
        _ => None,
    }
}

/// Old and new Java major version of an intent that sets the Java level (build, CI or image).
pub(crate) fn java_level(atomic: &Atomic) -> Option<(u32, u32)> {
    let both = |old: &str, new: &str| Some((java_major(old)?, java_major(new)?));
    const COMPILER_SETTINGS: [&str; 6] =
        ["release", "source", "target", "testSource", "testTarget", "testRelease"];
    match &atomic.change {
        Change::MavenPropertyChange { key, old_value, new_value, .. } => {
            let java_key =
                matches!(key.as_str(), "java.version" | "jdk.version" | "java.release" | "release")
                    || (key.starts_with("maven.compiler.")
                        && COMPILER_SETTINGS.iter().any(|s| key.ends_with(s)));
            if java_key { both(old_value, new_value) } else { None }
        }
        Change::MavenPluginConfig { artifact_id, key, old_value, new_value, .. }
            if artifact_id == "maven-compiler-plugin" && COMPILER_SETTINGS.contains(&key.as_str()) =>
        {
            both(old_value, new_value)
        }
        Change::GradleJavaCompatibility { old_value, new_value, .. } => both(old_value, new_value),
        Change::GradleToolchain { old_version, new_version }
        | Change::GithubActionsSetupJava { old_version, new_version, .. } => both(old_version, new_version),
        Change::GithubActionsValueChange { key, old_value, new_value }
            if key.to_ascii_lowercase().contains("java") =>
        {
            both(old_value, new_value)
        }
        Change::DockerFromChange { old_image, old_tag, new_image, new_tag } => {
            let old = docker_java_major(old_image, old_tag)?;
            let new = docker_java_major(new_image, new_tag)?;
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
    const BOOT: &str = "org.springframework.boot";
    match &atomic.change {
        Change::MavenParentChange { new_group_id, old_version, new_version, .. } if new_group_id == BOOT => {
            pair(old_version, new_version)
        }
        Change::MavenDependencyVersion { group_id, old_version, new_version, .. }
        | Change::GradleDependencyVersion { group_id, old_version, new_version, .. }
            if group_id == BOOT =>
        {
            pair(old_version, new_version)
        }
        Change::GradlePluginVersion { plugin_id, old_version, new_version } if plugin_id == BOOT => {
            pair(old_version, new_version)
        }
        Change::MavenPropertyChange { key, old_value, new_value, .. }
        | Change::PropertiesValueChange { key, old_value, new_value }
            if matches!(
                key.as_str(),
                "spring-boot.version" | "springBootVersion" | "spring.boot.version"
            ) =>
        {
            pair(old_value, new_value)
        }
        _ => None,
    }
    .filter(|(o, n)| major(o).is_some() && major(n).is_some())
}

fn spring_boot_versions(atomics: &[Atomic]) -> Option<(String, String)> {
    // The parent (or the first version change found) names the upgrade.
    let mut found: Vec<(String, String)> = atomics.iter().filter_map(boot_version).collect();
    found.sort();
    let parent =
        atomics.iter().find(|a| matches!(a.change, Change::MavenParentChange { .. })).and_then(boot_version);
    parent.or_else(|| found.into_iter().next())
}

/// Spring dependencies and Spring configuration files move with a Spring Boot upgrade.
fn spring_member(atomic: &Atomic) -> bool {
    let spring = |group: &str| group.starts_with("org.springframework");
    let config_file = {
        let name = atomic.file.rsplit('/').next().unwrap_or(&atomic.file);
        name.starts_with("application") || name.starts_with("bootstrap")
    };
    if let Some(Dependency::Added(group) | Dependency::Removed(group) | Dependency::Version(group)) =
        dependency(&atomic.change)
    {
        return spring(group);
    }
    if let Some(swap) = swap(&atomic.change) {
        return spring(swap.old_group) || spring(swap.new_group);
    }
    match &atomic.change {
        Change::MavenPluginVersion { group_id, .. } => spring(group_id),
        Change::GradlePluginVersion { plugin_id, .. } => {
            spring(plugin_id) || plugin_id == "io.spring.dependency-management"
        }
        Change::PropertiesKeyRename { .. }
        | Change::PropertiesValueChange { .. }
        | Change::PropertiesKeyAdded { .. }
        | Change::PropertiesKeyRemoved { .. }
        | Change::YamlKeyRename { .. }
        | Change::YamlValueChange { .. }
        | Change::YamlKeyAdded { .. }
        | Change::YamlKeyRemoved { .. } => config_file,
        _ => false,
    }
}

/// The old and new name of a Java change that renames something (package, type, annotation, the
/// target of static calls).
pub(super) fn java_rename(change: &Change) -> Option<(&str, &str)> {
    match change {
        Change::JavaPackageMove { old_package, new_package } => Some((old_package, new_package)),
        Change::JavaTypeRename { old_type, new_type }
        | Change::JavaStaticCallTarget { old_type, new_type, .. } => Some((old_type, new_type)),
        Change::JavaAnnotationChange { old_annotation, new_annotation } => {
            Some((old_annotation, new_annotation))
        }
        _ => None,
    }
}

fn jakarta_member(atomic: &Atomic) -> bool {
    let moved = |old: &str, new: &str| old.starts_with("javax.") && new.starts_with("jakarta.");
    if let Some((old, new)) = java_rename(&atomic.change) {
        return moved(old, new);
    }
    if let Some(swap) = swap(&atomic.change) {
        return moved(swap.old_group, swap.new_group)
            || (swap.old_artifact.contains("javax") && swap.new_artifact.contains("jakarta"));
    }
    match (&atomic.change, dependency(&atomic.change)) {
        (_, Some(Dependency::Added(group))) => group.starts_with("jakarta."),
        (_, Some(Dependency::Removed(group))) => group.starts_with("javax."),
        (
            Change::PropertiesKeyRename { old_key, new_key } | Change::YamlKeyRename { old_key, new_key },
            _,
        ) => moved(old_key, new_key),
        _ => false,
    }
}

/// Surefire or Failsafe added or bumped: the JUnit Platform runs on 2.22 and later, so a PR moving
/// to JUnit 5 does this for that reason (and only then is it part of that migration).
fn test_runner_plugin(atomic: &Atomic) -> bool {
    matches!(
        &atomic.change,
        Change::MavenPluginAdded { artifact_id, .. } | Change::MavenPluginVersion { artifact_id, .. }
            if matches!(artifact_id.as_str(), "maven-surefire-plugin" | "maven-failsafe-plugin")
    )
}

fn junit_member(atomic: &Atomic) -> bool {
    let junit4 = |s: &str| {
        (s.starts_with("org.junit.") && !s.starts_with("org.junit.jupiter")) || s.contains(".junit4.")
    };
    let junit5 = |s: &str| s.starts_with("org.junit.jupiter") || s.contains(".junit.jupiter.");
    let moved = |old: &str, new: &str| junit4(old) && junit5(new);
    let jupiter_group = |g: &str| g == "org.junit.jupiter" || g == "org.junit.vintage" || g == "org.junit";
    if let Change::JavaPackageMove { old_package, new_package } = &atomic.change {
        // A package is its prefix: `org.junit` itself moves to `org.junit.jupiter.api`.
        return moved(&format!("{old_package}."), new_package);
    }
    if let Some((old, new)) = java_rename(&atomic.change) {
        return moved(old, new);
    }
    if let Some(swap) = swap(&atomic.change) {
        return swap.old_group == "junit" && jupiter_group(swap.new_group);
    }
    match dependency(&atomic.change) {
        Some(Dependency::Added(group)) => jupiter_group(group),
        Some(Dependency::Removed(group)) => group == "junit",
        _ => false,
    }
}
