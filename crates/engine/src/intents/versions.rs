//! Reading Java levels and framework versions out of the values PRs change: `1.8`, `17`,
//! `JavaVersion.VERSION_17`, `eclipse-temurin:17-jre`, `3.9-eclipse-temurin-21`.

use std::collections::BTreeSet;

pub(crate) use crate::model::java_level::java_major;
use std::sync::LazyLock;

use regex::Regex;

static TAG_JAVA: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:jdk|jre|temurin|openjdk|corretto|java|zulu|graalvm)-?(\d+)").expect("valid regex")
});

/// Images that are a JDK or JRE, named by the leading number of their tag.
const JAVA_IMAGES: &[&str] = &[
    "eclipse-temurin",
    "openjdk",
    "amazoncorretto",
    "adoptopenjdk",
    "ibm-semeru-runtimes",
    "sapmachine",
    "zulu-openjdk",
    "ibmjava",
];

/// The Java major version of a container image, when the image is a known JDK/JRE or its tag names
/// one (`maven:3.9-eclipse-temurin-17`, `gradle:8.5-jdk17`, `distroless/java17`).
pub(crate) fn docker_java_major(image: &str, tag: &str) -> Option<u32> {
    let name = image.rsplit('/').next().unwrap_or(image);
    if JAVA_IMAGES.contains(&name) || name.starts_with("liberica-openjdk") {
        let digits: String = tag.chars().take_while(|c| c.is_ascii_digit()).collect();
        return digits.parse().ok().filter(|m| (5..=99).contains(m));
    }
    if let Some(rest) = name.strip_prefix("java") {
        return rest.parse().ok();
    }
    let captures = TAG_JAVA.captures(tag)?;
    captures[1].parse().ok().filter(|m| (5..=99).contains(m))
}

/// `3.1.5` -> `3.1`; other shapes unchanged.
pub(crate) fn major_minor(version: &str) -> String {
    let parts: Vec<&str> = version.split('.').collect();
    if parts.len() >= 2 && parts[..2].iter().all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit())) {
        format!("{}.{}", parts[0], parts[1])
    } else {
        version.to_string()
    }
}

/// The leading number of a version (`3.1.5` -> 3).
pub(crate) fn major(version: &str) -> Option<u32> {
    version.split('.').next()?.parse().ok()
}

/// Words of coordinates or package names that tell a library apart (`lang3`, `commons`), without
/// the ones every name has (`org`, `com`, `api`).
pub(crate) fn distinctive_words(names: &[&str]) -> BTreeSet<String> {
    const COMMON: &[&str] =
        &["org", "com", "io", "net", "api", "core", "java", "javax", "jakarta", "apache", "github", "impl"];
    names
        .iter()
        .flat_map(|n| n.split(['.', '-', ':', '_']))
        .map(str::to_ascii_lowercase)
        .filter(|w| w.len() > 2 && !COMMON.contains(&w.as_str()))
        .collect()
}

/// Whether a replaced artifact and its replacement are the same library under new coordinates
/// (`junit:junit` -> `org.junit.jupiter:junit-jupiter`) rather than two unrelated ones.
pub(crate) fn related_artifacts(
    old_group: &str,
    old_artifact: &str,
    new_group: &str,
    new_artifact: &str,
) -> bool {
    !distinctive_words(&[old_group, old_artifact]).is_disjoint(&distinctive_words(&[new_group, new_artifact]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docker_images() {
        assert_eq!(docker_java_major("eclipse-temurin", "17-jre"), Some(17));
        assert_eq!(docker_java_major("openjdk", "11.0.16-jdk-slim"), Some(11));
        assert_eq!(docker_java_major("maven", "3.9-eclipse-temurin-21"), Some(21));
        assert_eq!(docker_java_major("gradle", "8.5-jdk17"), Some(17));
        assert_eq!(docker_java_major("gcr.io/distroless/java17-debian12", ""), None);
        assert_eq!(docker_java_major("gcr.io/distroless/java17", "nonroot"), Some(17));
        assert_eq!(docker_java_major("nginx", "1.25"), None);
    }

    #[test]
    fn related_coordinates() {
        assert!(related_artifacts("junit", "junit", "org.junit.jupiter", "junit-jupiter"));
        assert!(related_artifacts("javax.inject", "javax.inject", "jakarta.inject", "jakarta.inject-api"));
        assert!(!related_artifacts("commons-io", "commons-io", "org.projectlombok", "lombok"));
    }

    #[test]
    fn versions() {
        assert_eq!(major_minor("3.1.5"), "3.1");
        assert_eq!(major_minor("2.7.18"), "2.7");
        assert_eq!(major("3.1.5"), Some(3));
    }
}
