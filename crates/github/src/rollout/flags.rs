//! What a reviewer must see before a rollout pushes anything: a recipe that writes CI or build
//! configuration (a workflow runs with the target repository's secrets on the next push, a wrapper
//! or build extension runs in every build), and one that changes most of a repository's files.
//! Such changes are flagged in the dry run and the PR body, and `--open-prs` opens no PR for them
//! unless the user allows them by name.

use serde::Serialize;

/// Files that configure CI or the build itself, by path prefix or exact path.
const BUILD_CONFIG: &[(&str, &str)] = &[
    (".github/workflows/", "a GitHub Actions workflow: it runs with the repository's secrets"),
    (".github/actions/", "a GitHub Action of the repository: workflows run it"),
    (".gitlab-ci.yml", "GitLab CI configuration"),
    ("Jenkinsfile", "a Jenkins pipeline"),
    (".circleci/", "CircleCI configuration"),
    (".mvn/extensions.xml", "Maven build extensions: they run in every build"),
    (".mvn/jvm.config", "the JVM options of every Maven build"),
    (".mvn/maven.config", "the options of every Maven build"),
    (".mvn/wrapper/", "the Maven wrapper: it downloads and runs Maven"),
    ("mvnw", "the Maven wrapper script"),
    ("gradle/wrapper/", "the Gradle wrapper: it downloads and runs Gradle"),
    ("gradlew", "the Gradle wrapper script"),
    ("settings.gradle", "the Gradle settings script: it runs in every build"),
    ("settings.gradle.kts", "the Gradle settings script: it runs in every build"),
    ("buildSrc/", "Gradle build logic: it runs in every build"),
];

/// The share of a repository's files a recipe may change before it is a mass change, by default.
pub const DEFAULT_MAX_CHANGED_SHARE: f64 = 0.5;

/// Fewer changed files than this are no mass change, whatever their share: a migration of a small
/// repository touches most of it.
const MIN_MASS_FILES: usize = 10;

/// The flags of one repository's changes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Flags {
    /// CI or build configuration the recipe writes: `path: what it is`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub build_config: Vec<String>,
    /// The share of the repository's files the recipe changes (added, deleted or modified).
    pub changed_share: f64,
    /// Files it deletes.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deleted_files: usize,
    /// More than the allowed share of the files (`--max-changed-share`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mass_change: bool,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Flags {
    /// The flags of `diff` on a repository of `tracked` files, of which at most `max_changed_share`
    /// may change without a flag.
    pub(crate) fn of(diff: &str, tracked: usize, max_changed_share: f64) -> Flags {
        let Ok(parsed) = crate::diff::parse_all(diff) else { return Flags::default() };
        let mut build_config = Vec::new();
        for file in &parsed.files {
            let path = file.path();
            let name = path.rsplit('/').next().unwrap_or(path);
            let hit = BUILD_CONFIG.iter().find(|(pattern, _)| {
                if pattern.ends_with('/') {
                    path.starts_with(pattern) || path.contains(&format!("/{pattern}"))
                } else {
                    name == *pattern
                }
            });
            if let Some((_, what)) = hit {
                build_config.push(format!("{path}: {what}"));
            }
        }
        let deleted_files = parsed.files.iter().filter(|f| f.is_deleted()).count();
        let share = if tracked == 0 { 0.0 } else { (parsed.files.len() as f64 / tracked as f64).min(1.0) };
        Flags {
            build_config,
            changed_share: crate::metrics::round4(share),
            deleted_files,
            mass_change: share > max_changed_share && parsed.files.len() >= MIN_MASS_FILES,
        }
    }

    /// Why `--open-prs` opens no PR for these changes (None: nothing stops it).
    pub(crate) fn refusal(&self, allow_build_config: bool, max_changed_share: f64) -> Option<String> {
        if !self.build_config.is_empty() && !allow_build_config {
            return Some(format!(
                "it writes CI or build configuration ({}); `--allow-build-config-changes` opens such pull requests",
                self.build_config.join("; ")
            ));
        }
        self.mass_change.then(|| {
            format!(
                "it changes {:.0}% of the repository's files, more than --max-changed-share {:.0}%",
                self.changed_share * 100.0,
                max_changed_share * 100.0
            )
        })
    }

    /// One line for the table, empty when nothing is flagged.
    pub(crate) fn line(&self) -> String {
        let mut parts = Vec::new();
        if !self.build_config.is_empty() {
            let paths: Vec<&str> =
                self.build_config.iter().map(|b| b.split(':').next().unwrap_or(b)).collect();
            parts.push(format!("writes build/CI configuration: {}", paths.join(", ")));
        }
        if self.mass_change {
            parts.push(format!("changes {:.0}% of the files", self.changed_share * 100.0));
        }
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(paths: &[&str]) -> String {
        paths
            .iter()
            .map(|p| format!("diff --git a/{p} b/{p}\n--- a/{p}\n+++ b/{p}\n@@ -1 +1 @@\n-a\n+b\n"))
            .collect()
    }

    #[test]
    fn build_and_ci_configuration_and_mass_changes_are_flagged() {
        let flags = Flags::of(
            &diff(&[".github/workflows/ci.yml", "pom.xml", "gradle/wrapper/gradle-wrapper.properties"]),
            10,
            0.5,
        );
        assert_eq!(flags.build_config.len(), 2, "{flags:?}");
        assert!(flags.build_config[0].starts_with(".github/workflows/ci.yml: a GitHub Actions workflow"));
        assert_eq!(flags.changed_share, 0.3);
        assert!(flags.refusal(false, 0.5).unwrap().contains("--allow-build-config-changes"));
        assert_eq!(flags.refusal(true, 0.5), None);
        let many: Vec<String> = (0..12).map(|n| format!("f{n}.txt")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let mass = Flags::of(&diff(&many), 16, 0.5);
        assert!(mass.build_config.is_empty());
        assert!(mass.refusal(false, 0.5).unwrap().contains("75% of the repository's files"));
        assert_eq!(Flags::of(&diff(&many), 16, 1.0).refusal(false, 1.0), None);
        assert_eq!(mass.line(), "changes 75% of the files");
        // A small repository's migration touches most of it: no mass change.
        assert!(!Flags::of(&diff(&["a.txt", "b.txt"]), 2, 0.5).mass_change);
        let nested = Flags::of(&diff(&["services/api/settings.gradle.kts", "src/main/java/A.java"]), 40, 0.5);
        assert_eq!(nested.build_config.len(), 1);
    }
}
