//! Gradle build scripts (Groovy and Kotlin DSL) and the wrapper's `gradle-wrapper.properties`:
//! dependency coordinates in string and map notation, plugin versions, source/target
//! compatibility, toolchain language version, the wrapper's distribution version.
//!
//! Build scripts are programs, so they are read line by line with patterns for the declarations
//! that recipes can change; anything else is left to the text fallback.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::Regex;

use crate::model::Change;

use super::Side;
use super::atomic::Atomic;
use super::change::{FileChange, lines};
use super::properties;
use super::versions::related_artifacts;

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("valid regex")
}

/// `implementation 'g:a:v'`, `implementation("g:a:v")`, `api(platform("g:a:v"))`.
static STRING_DEPENDENCY: LazyLock<Regex> = LazyLock::new(|| {
    regex(r#"^\s*([A-Za-z_]\w*)\s*\(?\s*(?:(?:platform|enforcedPlatform)\s*\(\s*)?["']([^"'\s]+)["']"#)
});
/// `implementation group: 'g', name: 'a', version: 'v'` and `implementation(group = "g", ...)`.
static MAP_DEPENDENCY: LazyLock<Regex> =
    LazyLock::new(|| regex(r#"^\s*([A-Za-z_]\w*)\s*\(?\s*group\s*[:=]"#));
static MAP_FIELD: LazyLock<Regex> =
    LazyLock::new(|| regex(r#"\b(group|name|version|classifier)\s*[:=]\s*["']([^"']*)["']"#));
/// `id 'x' version 'v'`, `id("x") version "v"`, `kotlin("jvm") version "v"`.
static PLUGIN: LazyLock<Regex> = LazyLock::new(|| {
    regex(r#"^\s*(id|kotlin)\s*\(?\s*["']([^"']+)["']\s*\)?\s*version\s*\(?\s*["']([^"']+)["']"#)
});
static COMPATIBILITY: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"^\s*(?:java\.|kotlinOptions\.|compilerOptions\.)?(sourceCompatibility|targetCompatibility|jvmTarget)\s*(?:=|\.set\()\s*(.+?)\)?\s*$"#,
    )
});
static TOOLCHAIN: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"(?:languageVersion\s*(?:=|\.set\()\s*JavaLanguageVersion\.of\(|jvmToolchain\()\s*["']?(\d+)["']?\s*\)"#,
    )
});
static WRAPPER_VERSION: LazyLock<Regex> = LazyLock::new(|| regex(r"gradle-([^/]+?)-(bin|all)\.zip"));

/// Configurations that never declare dependencies but look like they do.
const NOT_CONFIGURATIONS: &[&str] = &[
    "id",
    "include",
    "apply",
    "plugin",
    "url",
    "uri",
    "from",
    "file",
    "project",
    "maven",
    "version",
    "group",
    "name",
    "println",
    "mainClass",
];

/// A declaration in a build script.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    Dependency { configuration: String, group: String, artifact: String, version: String, classifier: String },
    Plugin { id: String, version: String },
    Compatibility { property: String, value: String },
    Toolchain { version: String },
}

impl Item {
    /// What identifies the declaration on both sides; the value is what may change.
    fn key(&self) -> String {
        match self {
            Item::Dependency { configuration, group, artifact, classifier, .. } => {
                format!("dependency {configuration} {group}:{artifact}:{classifier}")
            }
            Item::Plugin { id, .. } => format!("plugin {id}"),
            Item::Compatibility { property, .. } => format!("compatibility {property}"),
            Item::Toolchain { .. } => "toolchain".to_string(),
        }
    }

    fn value(&self) -> &str {
        match self {
            Item::Dependency { version, .. } | Item::Plugin { version, .. } | Item::Toolchain { version } => {
                version
            }
            Item::Compatibility { value, .. } => value,
        }
    }
}

fn parse(text: &str) -> Vec<(Item, usize)> {
    let mut out = Vec::new();
    for (index, raw) in lines(text).iter().enumerate() {
        let line = strip_comment(raw);
        if let Some(item) = parse_line(line) {
            out.push((item, index + 1));
        }
    }
    out
}

fn strip_comment(line: &str) -> &str {
    // `//` inside a string (a URL) is not a comment.
    let mut quote: Option<char> = None;
    let bytes: Vec<char> = line.chars().collect();
    let mut offset = 0;
    for (i, &c) in bytes.iter().enumerate() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '/' && bytes.get(i + 1) == Some(&'/') => return &line[..offset],
            None => {}
        }
        offset += c.len_utf8();
    }
    line
}

fn parse_line(line: &str) -> Option<Item> {
    if let Some(c) = PLUGIN.captures(line) {
        let id = if &c[1] == "kotlin" { format!("org.jetbrains.kotlin.{}", &c[2]) } else { c[2].to_string() };
        return Some(Item::Plugin { id, version: c[3].to_string() });
    }
    if let Some(c) = TOOLCHAIN.captures(line) {
        return Some(Item::Toolchain { version: c[1].to_string() });
    }
    if let Some(c) = COMPATIBILITY.captures(line) {
        let value = c[2].trim().trim_matches(|ch| ch == '"' || ch == '\'').to_string();
        return Some(Item::Compatibility { property: c[1].to_string(), value });
    }
    if let Some(c) = MAP_DEPENDENCY.captures(line) {
        let configuration = c[1].to_string();
        let mut fields: BTreeMap<String, String> = BTreeMap::new();
        for f in MAP_FIELD.captures_iter(line) {
            fields.insert(f[1].to_string(), f[2].to_string());
        }
        let field = |k: &str| fields.get(k).cloned().unwrap_or_default();
        if !field("name").is_empty() && !NOT_CONFIGURATIONS.contains(&configuration.as_str()) {
            return Some(Item::Dependency {
                configuration,
                group: field("group"),
                artifact: field("name"),
                version: field("version"),
                classifier: field("classifier"),
            });
        }
    }
    if let Some(c) = STRING_DEPENDENCY.captures(line) {
        let configuration = c[1].to_string();
        let coordinates = &c[2];
        let parts: Vec<&str> = coordinates.split('@').next().unwrap_or("").split(':').collect();
        let plausible = parts.len() >= 2
            && !parts[0].is_empty()
            && !parts[1].is_empty()
            && !coordinates.contains('/')
            && !NOT_CONFIGURATIONS.contains(&configuration.as_str());
        if plausible {
            return Some(Item::Dependency {
                configuration,
                group: parts[0].to_string(),
                artifact: parts[1].to_string(),
                version: parts.get(2).map(|s| s.to_string()).unwrap_or_default(),
                classifier: parts.get(3).map(|s| s.to_string()).unwrap_or_default(),
            });
        }
    }
    None
}

/// Items keyed by their key and how many times the key was seen before (`subprojects` blocks may
/// repeat a declaration).
fn keyed(items: Vec<(Item, usize)>) -> BTreeMap<(String, usize), (Item, usize)> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for (item, line) in items {
        let n = seen.entry(item.key()).or_default();
        out.insert((item.key(), *n), (item, line));
        *n += 1;
    }
    out
}

pub(crate) fn analyze(file: &FileChange<'_>) -> Option<Vec<Atomic>> {
    let old = keyed(parse(file.old_text.as_deref()?));
    let new = keyed(parse(file.new_text.as_deref()?));
    let mut out = Vec::new();
    let mut removed = Vec::new();
    for (key, (before, old_line)) in &old {
        match new.get(key) {
            Some((after, new_line)) if after.value() != before.value() => {
                let evidence: Vec<_> =
                    file.removed_at(*old_line).into_iter().chain(file.added_at(*new_line)).cloned().collect();
                out.push(changed(file, before, after).evidence(evidence));
            }
            Some(_) => {}
            None => removed.push((before, *old_line)),
        }
    }
    let mut added: Vec<(&Item, usize)> =
        new.iter().filter(|(k, _)| !old.contains_key(*k)).map(|(_, (item, line))| (item, *line)).collect();
    for (before, old_line) in removed {
        let related = |(after, _): &(&Item, usize)| match (before, after) {
            (
                Item::Dependency { configuration: c1, group: g1, artifact: a1, .. },
                Item::Dependency { configuration: c2, group: g2, artifact: a2, .. },
            ) => c1 == c2 && related_artifacts(g1, a1, g2, a2),
            _ => false,
        };
        let same_place = |candidate: &(&Item, usize)| {
            let new_line = candidate.1;
            related(candidate)
                && (file.old_to_new(old_line) == Some(new_line)
                    || (file.block_between(Side::Base, old_line, old_line).is_some()
                        && file.block_between(Side::Base, old_line, old_line)
                            == file.block_between(Side::Head, new_line, new_line)))
        };
        let evidence_old = file.removed_at(old_line).cloned();
        match added.iter().position(same_place).or_else(|| added.iter().position(related)) {
            Some(j) => {
                let (after, new_line) = added.remove(j);
                let evidence: Vec<_> =
                    evidence_old.into_iter().chain(file.added_at(new_line).cloned()).collect();
                out.push(swap(file, before, after).evidence(evidence));
            }
            None => {
                if let Item::Dependency { configuration, group, artifact, .. } = before {
                    out.push(
                        Atomic::new(
                            Change::GradleDependencyRemoved {
                                group_id: group.to_string(),
                                artifact_id: artifact.to_string(),
                                configuration: configuration.to_string(),
                            },
                            file.path,
                            format!("Remove dependency {group}:{artifact} ({configuration})"),
                        )
                        .evidence(evidence_old),
                    );
                }
            }
        }
    }
    for (after, new_line) in added {
        if let Item::Dependency { configuration, group, artifact, version, .. } = after {
            out.push(
                Atomic::new(
                    Change::GradleDependencyAdded {
                        group_id: group.to_string(),
                        artifact_id: artifact.to_string(),
                        version: version.to_string(),
                        configuration: configuration.to_string(),
                    },
                    file.path,
                    format!("Add dependency {group}:{artifact}:{version} ({configuration})"),
                )
                .evidence(file.added_at(new_line).cloned()),
            );
        }
    }
    out.retain(|a| !a.evidence.is_empty());
    Some(out)
}

/// The same declaration with another value.
fn changed(file: &FileChange<'_>, before: &Item, after: &Item) -> Atomic {
    match (before, after) {
        (
            Item::Dependency { configuration, group, artifact, version: old, .. },
            Item::Dependency { version: new, .. },
        ) => Atomic::new(
            Change::GradleDependencyVersion {
                group_id: group.to_string(),
                artifact_id: artifact.to_string(),
                old_version: old.to_string(),
                new_version: new.to_string(),
                configuration: configuration.to_string(),
            },
            file.path,
            format!("Upgrade {group}:{artifact} {old} -> {new} ({configuration})"),
        ),
        (Item::Plugin { id, version: old }, Item::Plugin { version: new, .. }) => Atomic::new(
            Change::GradlePluginVersion {
                plugin_id: id.to_string(),
                old_version: old.to_string(),
                new_version: new.to_string(),
            },
            file.path,
            format!("Upgrade plugin {id} {old} -> {new}"),
        ),
        (Item::Compatibility { property, value: old }, Item::Compatibility { value: new, .. }) => {
            Atomic::new(
                Change::GradleJavaCompatibility {
                    property: property.to_string(),
                    old_value: old.to_string(),
                    new_value: new.to_string(),
                },
                file.path,
                format!("Set {property} {old} -> {new} in {}", file.path),
            )
        }
        _ => Atomic::new(
            Change::GradleToolchain {
                old_version: before.value().to_string(),
                new_version: after.value().to_string(),
            },
            file.path,
            format!("Set Java toolchain {} -> {} in {}", before.value(), after.value(), file.path),
        ),
    }
}

fn swap(file: &FileChange<'_>, before: &Item, after: &Item) -> Atomic {
    let parts = |item: &Item| match item {
        Item::Dependency { configuration, group, artifact, version, .. } => {
            (configuration.clone(), group.clone(), artifact.clone(), version.clone())
        }
        _ => Default::default(),
    };
    let (configuration, og, oa, ov) = parts(before);
    let (_, ng, na, nv) = parts(after);
    Atomic::new(
        Change::GradleDependencySwap {
            old_group_id: og.to_string(),
            old_artifact_id: oa.to_string(),
            new_group_id: ng.to_string(),
            new_artifact_id: na.to_string(),
            old_version: ov.to_string(),
            new_version: nv.to_string(),
            configuration: configuration.to_string(),
        },
        file.path,
        format!("Replace {og}:{oa} with {ng}:{na}"),
    )
}

/// The key a `.properties` change is about (the old one for a rename).
fn property_key(change: &Change) -> Option<&str> {
    match change {
        Change::PropertiesValueChange { key, .. }
        | Change::PropertiesKeyAdded { key, .. }
        | Change::PropertiesKeyRemoved { key } => Some(key),
        Change::PropertiesKeyRename { old_key, .. } => Some(old_key),
        _ => None,
    }
}

/// `gradle/wrapper/gradle-wrapper.properties`: the distribution version (with its checksum line);
/// other keys are ordinary properties.
pub(crate) fn analyze_wrapper(file: &FileChange<'_>) -> Option<Vec<Atomic>> {
    let found = properties::analyze(file)?;
    let wrapper_keys = ["distributionUrl", "distributionSha256Sum"];
    let (wrapper, mut out): (Vec<Atomic>, Vec<Atomic>) =
        found.into_iter().partition(|a| wrapper_keys.iter().any(|k| property_key(&a.change) == Some(*k)));
    let url = |text: Option<&str>| -> String {
        properties::parse(text.unwrap_or(""))
            .into_iter()
            .rfind(|e| e.key == "distributionUrl")
            .map(|e| e.value.replace("\\:", ":").replace("\\=", "="))
            .unwrap_or_default()
    };
    let (old_url, new_url) = (url(file.old_text.as_deref()), url(file.new_text.as_deref()));
    let version = |u: &str| WRAPPER_VERSION.captures(u).map(|c| (c[1].to_string(), c[2].to_string()));
    match (version(&old_url), version(&new_url)) {
        (Some((old_version, _)), Some((new_version, distribution))) if old_version != new_version => {
            out.push(
                Atomic::new(
                    Change::GradleWrapperVersion {
                        old_version: old_version.to_string(),
                        new_version: new_version.to_string(),
                        distribution: distribution.to_string(),
                        distribution_url: new_url.to_string(),
                    },
                    file.path,
                    format!("Upgrade Gradle wrapper {old_version} -> {new_version}"),
                )
                .evidence(wrapper.into_iter().flat_map(|a| a.evidence)),
            );
        }
        _ => out.extend(wrapper),
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(line: &str) -> Option<Item> {
        parse_line(strip_comment(line))
    }

    #[test]
    fn dependency_notations() {
        let expected = |configuration: &str, version: &str| Item::Dependency {
            configuration: configuration.into(),
            group: "org.slf4j".into(),
            artifact: "slf4j-api".into(),
            version: version.into(),
            classifier: String::new(),
        };
        assert_eq!(
            item("  implementation 'org.slf4j:slf4j-api:2.0.9'"),
            Some(expected("implementation", "2.0.9"))
        );
        assert_eq!(
            item("implementation(\"org.slf4j:slf4j-api:2.0.9\") // why"),
            Some(expected("implementation", "2.0.9"))
        );
        assert_eq!(
            item("api group: 'org.slf4j', name: 'slf4j-api', version: '1.7.36'"),
            Some(expected("api", "1.7.36"))
        );
        assert_eq!(
            item("api(group = \"org.slf4j\", name = \"slf4j-api\", version = \"1.7.36\")"),
            Some(expected("api", "1.7.36"))
        );
        assert_eq!(
            item("implementation(platform(\"org.slf4j:slf4j-api:2\"))"),
            Some(expected("implementation", "2"))
        );
        assert_eq!(item("include ':app'"), None);
        assert_eq!(item("url 'https://repo.example.com/maven2'"), None);
    }

    #[test]
    fn plugins_compatibility_and_toolchains() {
        assert_eq!(
            item("id 'org.springframework.boot' version '3.1.5'"),
            Some(Item::Plugin { id: "org.springframework.boot".into(), version: "3.1.5".into() })
        );
        assert_eq!(
            item("    kotlin(\"jvm\") version \"1.9.20\""),
            Some(Item::Plugin { id: "org.jetbrains.kotlin.jvm".into(), version: "1.9.20".into() })
        );
        assert_eq!(
            item("sourceCompatibility = JavaVersion.VERSION_17"),
            Some(Item::Compatibility {
                property: "sourceCompatibility".into(),
                value: "JavaVersion.VERSION_17".into()
            })
        );
        assert_eq!(
            item("java.targetCompatibility = '11'"),
            Some(Item::Compatibility { property: "targetCompatibility".into(), value: "11".into() })
        );
        assert_eq!(
            item("        languageVersion = JavaLanguageVersion.of(21)"),
            Some(Item::Toolchain { version: "21".into() })
        );
        assert_eq!(
            item("languageVersion.set(JavaLanguageVersion.of(17))"),
            Some(Item::Toolchain { version: "17".into() })
        );
        assert_eq!(item("kotlin { jvmToolchain(17) }"), Some(Item::Toolchain { version: "17".into() }));
    }
}
