//! Which build tool a project uses, and the Java language level it declares.

use std::collections::HashMap;
use std::path::Path;
use std::sync::LazyLock;

use anyhow::Result;
use regex::Regex;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum BuildTool {
    Maven,
    Gradle,
}

const GRADLE_FILES: &[&str] = &["settings.gradle", "settings.gradle.kts", "build.gradle", "build.gradle.kts"];

/// Maven when the root has a `pom.xml` (checked first: the NoFork goals run no project code),
/// Gradle when it has a settings or build script.
pub(crate) fn detect(root: &Path) -> Result<BuildTool> {
    if root.join("pom.xml").is_file() {
        return Ok(BuildTool::Maven);
    }
    if GRADLE_FILES.iter().any(|f| root.join(f).is_file()) {
        return Ok(BuildTool::Gradle);
    }
    Err(crate::error::bad_input(format!(
        "no build file at the repository root: looked for pom.xml (Maven) and {} (Gradle)",
        GRADLE_FILES.join(", ")
    )))
}

/// The highest Java language level declared anywhere in the build (all modules), if any.
pub(crate) fn language_level(root: &Path, tool: BuildTool) -> Option<u32> {
    let names: &[&str] = match tool {
        BuildTool::Maven => &["pom.xml"],
        BuildTool::Gradle => &["build.gradle", "build.gradle.kts"],
    };
    let mut files = Vec::new();
    collect_files(root, names, 0, &mut files);
    files
        .iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .filter_map(|text| match tool {
            BuildTool::Maven => maven_level(&text),
            BuildTool::Gradle => gradle_level(&text),
        })
        .max()
}

/// Build files up to a few directories deep, skipping output and hidden directories.
pub(crate) fn collect_files(dir: &Path, names: &[&str], depth: usize, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            let skip =
                name.starts_with('.') || matches!(name.as_str(), "target" | "build" | "node_modules" | "src");
            if !skip && depth < 4 {
                collect_files(&path, names, depth + 1, out);
            }
        } else if names.contains(&name.as_str()) {
            out.push(path);
        }
    }
}

/// Level from a POM: compiler release/source/target (properties or compiler-plugin configuration)
/// and the Spring Boot style `java.version`, with `${property}` references resolved.
pub(crate) fn maven_level(pom: &str) -> Option<u32> {
    let elements = leaf_elements(pom);
    let properties: HashMap<&str, &str> = elements
        .iter()
        .filter_map(|(path, text)| path.strip_prefix("project/properties/").map(|k| (k, text.as_str())))
        .collect();
    let resolve = |value: &str| -> Option<u32> {
        let value = value.trim();
        let value = match value.strip_prefix("${").and_then(|v| v.strip_suffix('}')) {
            Some(key) => properties.get(key).copied()?,
            None => value,
        };
        java_level(value)
    };
    let mut levels = Vec::new();
    for (path, text) in &elements {
        let relevant = matches!(
            path.strip_prefix("project/properties/"),
            Some(
                "maven.compiler.release" | "maven.compiler.source" | "maven.compiler.target" | "java.version"
            )
        ) || (path.contains("/plugin/configuration/")
            && (path.ends_with("/release") || path.ends_with("/source") || path.ends_with("/target")));
        if relevant && let Some(level) = resolve(text) {
            levels.push(level);
        }
    }
    levels.into_iter().max()
}

static GRADLE_LEVEL: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        r#"(?:source|target)Compatibility\s*=?\s*['"]?(?:JavaVersion\.VERSION_)?([0-9][0-9_.]*)"#,
        r#"JavaLanguageVersion\.of\(\s*['"]?([0-9]+)"#,
        r#"jvmTarget\s*(?:=|\.set\()\s*['"]?(?:JvmTarget\.JVM_)?([0-9][0-9_.]*)"#,
        r#"release\s*(?:=|\.set\()\s*([0-9]+)"#,
    ]
    .iter()
    .filter_map(|p| Regex::new(p).ok())
    .collect()
});

/// Level from a Gradle build script (Groovy or Kotlin DSL).
pub(crate) fn gradle_level(script: &str) -> Option<u32> {
    GRADLE_LEVEL
        .iter()
        .flat_map(|re| re.captures_iter(script))
        .filter_map(|c| c.get(1))
        .filter_map(|m| java_level(&m.as_str().replace('_', ".")))
        .max()
}

/// `1.8` → 8, `11` → 11, `17` → 17; anything else → None.
pub(crate) fn java_level(value: &str) -> Option<u32> {
    let value = value.trim();
    let level = match value.strip_prefix("1.") {
        Some(rest) => rest.split('.').next()?.parse().ok()?,
        None => value.split('.').next()?.parse().ok()?,
    };
    (5..=40).contains(&level).then_some(level)
}

pub use super::xml::leaf_elements;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_maven_gradle_or_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let err = detect(dir.path()).unwrap_err().to_string();
        assert!(err.contains("pom.xml") && err.contains("settings.gradle.kts"), "{err}");
        std::fs::write(dir.path().join("settings.gradle.kts"), "").unwrap();
        assert_eq!(detect(dir.path()).unwrap(), BuildTool::Gradle);
        std::fs::write(dir.path().join("pom.xml"), "<project/>").unwrap();
        assert_eq!(detect(dir.path()).unwrap(), BuildTool::Maven);
    }

    #[test]
    fn maven_levels() {
        let pom = "<project><properties><java.version>17</java.version></properties></project>";
        assert_eq!(maven_level(pom), Some(17));
        let pom =
            "<project><properties><maven.compiler.source>1.8</maven.compiler.source></properties></project>";
        assert_eq!(maven_level(pom), Some(8));
        let pom = "<project><properties><jdk>21</jdk></properties><build><plugins><plugin>\
                   <artifactId>maven-compiler-plugin</artifactId><configuration><release>${jdk}</release>\
                   </configuration></plugin></plugins></build></project>";
        assert_eq!(maven_level(pom), Some(21));
        assert_eq!(maven_level("<project><version>1.0</version></project>"), None);
        assert_eq!(
            maven_level("<project><properties><java.version>17</java.version><x>"),
            Some(17),
            "truncated XML"
        );
    }

    #[test]
    fn gradle_levels() {
        assert_eq!(gradle_level("sourceCompatibility = '11'"), Some(11));
        assert_eq!(gradle_level("java { sourceCompatibility = JavaVersion.VERSION_1_8 }"), Some(8));
        assert_eq!(gradle_level("toolchain { languageVersion = JavaLanguageVersion.of(21) }"), Some(21));
        assert_eq!(gradle_level("languageVersion.set(JavaLanguageVersion.of(17))"), Some(17));
        assert_eq!(gradle_level("kotlinOptions { jvmTarget = \"17\" }"), Some(17));
        assert_eq!(gradle_level("options.release.set(11)"), Some(11));
        assert_eq!(gradle_level("dependencies {}"), None);
    }

    #[test]
    fn level_of_a_multi_module_tree_is_the_highest() {
        let dir = tempfile::tempdir().unwrap();
        let pom = |v: &str| {
            format!(
                "<project><properties><maven.compiler.release>{v}</maven.compiler.release></properties></project>"
            )
        };
        std::fs::write(dir.path().join("pom.xml"), pom("11")).unwrap();
        std::fs::create_dir_all(dir.path().join("api")).unwrap();
        std::fs::write(dir.path().join("api/pom.xml"), pom("17")).unwrap();
        std::fs::create_dir_all(dir.path().join("target/x")).unwrap();
        std::fs::write(dir.path().join("target/x/pom.xml"), pom("25")).unwrap();
        assert_eq!(language_level(dir.path(), BuildTool::Maven), Some(17));
    }
}
