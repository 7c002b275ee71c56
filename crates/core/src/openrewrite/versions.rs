//! The ONE place where OpenRewrite versions are pinned. The executor (validation), the catalog
//! generator and the Gradle init script all read them from here.
//!
//! Newer OpenRewrite releases go to an authenticated Moderne repository; Maven Central keeps older
//! ones. The pins are the newest consistent release train Maven Central serves (each verified with
//! `mvn dependency:get`): the newest rewrite-maven-plugin, its bundled rewrite core, and for each
//! recipe module of the rewrite-recipe-bom the newest release built against that same core.
//! Users with access to newer releases override them (see [`Versions::from_env`]).
//!
//! Checked for the catalog (Nov 2026): every module below resolves and loads alongside core
//! 8.89.0 (the catalog generator lists all of them in one JVM). Maven Central also serves
//! rewrite-spring 6.37.1, rewrite-migrate-java 3.42.1, rewrite-static-analysis 2.41.1 and
//! rewrite-jackson 1.29.0, but those are built against rewrite 8.90.x, which no Maven plugin on
//! Maven Central bundles, so the rule above keeps the older ones. After changing a pin, run
//! `rewrite-assist catalog refresh` and commit the snapshot: the catalog tests fail until the
//! snapshot matches the pins, and `catalog/generator/pom.xml` must declare exactly [`MODULES`].

use std::fmt;

/// `group:artifact:version`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Coordinates {
    /// Maven groupId, e.g. `org.openrewrite.recipe`.
    pub group: String,
    /// Maven artifactId, e.g. `rewrite-spring`.
    pub artifact: String,
    /// Version.
    pub version: String,
}

impl Coordinates {
    /// Coordinates of `group:artifact:version`.
    pub fn new(group: &str, artifact: &str, version: &str) -> Self {
        Coordinates { group: group.into(), artifact: artifact.into(), version: version.into() }
    }

    /// Parses `g:a:v`.
    pub fn parse(text: &str) -> Option<Self> {
        let mut parts = text.trim().split(':');
        let (g, a, v) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || g.is_empty() || a.is_empty() || v.is_empty() {
            return None;
        }
        Some(Coordinates::new(g, a, v))
    }

    /// `group:artifact`, the key a version override replaces.
    pub(crate) fn key(&self) -> String {
        format!("{}:{}", self.group, self.artifact)
    }
}

impl fmt::Display for Coordinates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.group, self.artifact, self.version)
    }
}

/// A recipe module: where recipes ship, and under which licence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecipeModule {
    /// Maven groupId.
    pub group: &'static str,
    /// Maven artifactId, e.g. `rewrite-spring`.
    pub artifact: &'static str,
    /// The pinned version.
    pub version: &'static str,
    /// The module's licence: `Apache-2.0` or `Moderne Source Available License`.
    pub licence: &'static str,
    /// Core modules are bundled with both build plugins and need no extra coordinates.
    pub bundled: bool,
}

impl RecipeModule {
    pub(crate) fn coordinates(&self) -> Coordinates {
        Coordinates::new(self.group, self.artifact, self.version)
    }
}

pub(crate) const APACHE_2: &str = "Apache-2.0";
pub(crate) const MODERNE_SOURCE_AVAILABLE: &str = "Moderne Source Available License";

/// rewrite-maven-plugin: the newest on Maven Central.
pub(crate) const MAVEN_PLUGIN_VERSION: &str = "6.46.1";
/// The rewrite core the Maven plugin bundles (its `rewrite.version`).
pub const REWRITE_CORE_VERSION: &str = "8.89.0";
/// rewrite-polyglot, which the Maven plugin uses to parse every file that is not a build file or a
/// source (`OmniParser`): the embedded runner parses those the same way. Its `rewrite-polyglot.version`.
pub const REWRITE_POLYGLOT_VERSION: &str = "2.11.1";
/// The Gradle plugin (`org.openrewrite.rewrite`, from the Gradle plugin portal) of the newest
/// rewrite-recipe-bom on Maven Central (3.36.0). The portal is not reachable from our machines, so
/// this one is taken from the BOM rather than verified by download.
pub(crate) const GRADLE_PLUGIN_VERSION: &str = "7.38.0";

const fn core(artifact: &'static str) -> RecipeModule {
    RecipeModule {
        group: "org.openrewrite",
        artifact,
        version: REWRITE_CORE_VERSION,
        licence: APACHE_2,
        bundled: true,
    }
}

const fn recipe(artifact: &'static str, version: &'static str, licence: &'static str) -> RecipeModule {
    RecipeModule { group: "org.openrewrite.recipe", artifact, version, licence, bundled: false }
}

/// Every module whose recipes the catalog lists and validation may run.
pub const MODULES: &[RecipeModule] = &[
    core("rewrite-core"),
    core("rewrite-java"),
    core("rewrite-maven"),
    core("rewrite-gradle"),
    core("rewrite-xml"),
    core("rewrite-yaml"),
    core("rewrite-properties"),
    core("rewrite-json"),
    core("rewrite-hcl"),
    core("rewrite-toml"),
    core("rewrite-docker"),
    core("rewrite-groovy"),
    core("rewrite-kotlin"),
    recipe("rewrite-java-dependencies", "1.60.2", APACHE_2),
    recipe("rewrite-jackson", "1.28.4", APACHE_2),
    recipe("rewrite-openapi", "0.33.1", APACHE_2),
    recipe("rewrite-migrate-java", "3.42.0", MODERNE_SOURCE_AVAILABLE),
    recipe("rewrite-spring", "6.37.0", MODERNE_SOURCE_AVAILABLE),
    recipe("rewrite-testing-frameworks", "3.44.0", MODERNE_SOURCE_AVAILABLE),
    recipe("rewrite-static-analysis", "2.41.0", MODERNE_SOURCE_AVAILABLE),
    recipe("rewrite-github-actions", "3.29.0", MODERNE_SOURCE_AVAILABLE),
    recipe("rewrite-hibernate", "2.25.0", MODERNE_SOURCE_AVAILABLE),
    recipe("rewrite-logging-frameworks", "3.32.0", MODERNE_SOURCE_AVAILABLE),
    recipe("rewrite-apache", "2.30.0", MODERNE_SOURCE_AVAILABLE),
    recipe("rewrite-micrometer", "0.30.1", MODERNE_SOURCE_AVAILABLE),
    recipe("rewrite-jenkins", "0.37.1", MODERNE_SOURCE_AVAILABLE),
    recipe("rewrite-joda", "0.10.1", MODERNE_SOURCE_AVAILABLE),
    recipe("rewrite-rewrite", "0.29.0", MODERNE_SOURCE_AVAILABLE),
];

/// The versions one run uses: the pins, with the user's overrides applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Versions {
    /// Version of `rewrite-maven-plugin` (`REWRITE_ASSIST_MAVEN_PLUGIN_VERSION` overrides the pin).
    pub maven_plugin: String,
    /// Version of the rewrite Gradle plugin (`REWRITE_ASSIST_GRADLE_PLUGIN_VERSION` overrides the pin).
    pub gradle_plugin: String,
    /// Replacements for recipe-module coordinates, matched by `group:artifact`.
    pub overrides: Vec<Coordinates>,
}

impl Default for Versions {
    fn default() -> Self {
        Versions {
            maven_plugin: MAVEN_PLUGIN_VERSION.into(),
            gradle_plugin: GRADLE_PLUGIN_VERSION.into(),
            overrides: Vec::new(),
        }
    }
}

/// Environment variables that override the pins (flags of the same meaning win over them).
pub(crate) const ENV_MAVEN_PLUGIN: &str = "REWRITE_ASSIST_MAVEN_PLUGIN_VERSION";
pub(crate) const ENV_GRADLE_PLUGIN: &str = "REWRITE_ASSIST_GRADLE_PLUGIN_VERSION";
/// Comma-separated `g:a:v` list replacing the pinned version of those recipe modules.
pub(crate) const ENV_RECIPE_ARTIFACTS: &str = "REWRITE_ASSIST_RECIPE_ARTIFACTS";

impl Versions {
    /// The pins, overridden by `REWRITE_ASSIST_*` environment variables where set.
    pub fn from_env() -> anyhow::Result<Self> {
        let mut versions = Versions::default();
        if let Some(v) = non_empty_env(ENV_MAVEN_PLUGIN) {
            versions.maven_plugin = v;
        }
        if let Some(v) = non_empty_env(ENV_GRADLE_PLUGIN) {
            versions.gradle_plugin = v;
        }
        if let Some(list) = non_empty_env(ENV_RECIPE_ARTIFACTS) {
            versions.overrides = parse_coordinates_list(&list)?;
        }
        Ok(versions)
    }

    /// Coordinates to put on the recipe classpath for `module`, honouring overrides.
    pub(crate) fn coordinates_of(&self, module: &RecipeModule) -> Coordinates {
        self.apply(module.coordinates())
    }

    /// `pinned`, or the user's override of the same `group:artifact`.
    pub fn apply(&self, pinned: Coordinates) -> Coordinates {
        self.overrides.iter().find(|o| o.key() == pinned.key()).cloned().unwrap_or(pinned)
    }

    /// Extra artifacts the user asked for that are not one of our modules.
    pub fn extra_artifacts(&self) -> Vec<Coordinates> {
        self.overrides
            .iter()
            .filter(|o| !MODULES.iter().any(|m| m.coordinates().key() == o.key()))
            .cloned()
            .collect()
    }
}

/// Parses `g:a:v,g:a:v`; a malformed entry is bad input.
pub fn parse_coordinates_list(list: &str) -> anyhow::Result<Vec<Coordinates>> {
    list.split([',', '\n', ' '])
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            Coordinates::parse(s).ok_or_else(|| {
                crate::error::bad_input(format!("`{s}` is not a group:artifact:version coordinate"))
            })
        })
        .collect()
}

fn non_empty_env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// The module of an artifact name, e.g. `rewrite-spring`.
#[cfg(test)]
pub(crate) fn module_by_artifact(artifact: &str) -> Option<&'static RecipeModule> {
    MODULES.iter().find(|m| m.artifact == artifact)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_parse_and_print() {
        let c = Coordinates::parse("org.openrewrite.recipe:rewrite-spring:6.37.0").unwrap();
        assert_eq!(c.to_string(), "org.openrewrite.recipe:rewrite-spring:6.37.0");
        assert_eq!(c.key(), "org.openrewrite.recipe:rewrite-spring");
        assert!(Coordinates::parse("a:b").is_none());
        assert!(Coordinates::parse("a:b:c:d").is_none());
        assert!(Coordinates::parse("a::c").is_none());
    }

    #[test]
    fn overrides_replace_pinned_modules_and_add_extras() {
        let versions = Versions {
            overrides: parse_coordinates_list(
                "org.openrewrite.recipe:rewrite-spring:9.0.0, com.acme:my-recipes:1.0",
            )
            .unwrap(),
            ..Versions::default()
        };
        let spring = module_by_artifact("rewrite-spring").unwrap();
        assert_eq!(versions.coordinates_of(spring).version, "9.0.0");
        assert_eq!(versions.extra_artifacts(), vec![Coordinates::new("com.acme", "my-recipes", "1.0")]);
        assert!(parse_coordinates_list("not-a-coordinate").is_err());
    }

    #[test]
    fn every_module_is_pinned_with_a_licence() {
        for m in MODULES {
            assert!(!m.version.is_empty() && !m.licence.is_empty(), "{}", m.artifact);
            assert_eq!(m.bundled, m.group == "org.openrewrite");
        }
    }
}
