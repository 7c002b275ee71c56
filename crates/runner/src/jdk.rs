//! Choosing the JDK that runs OpenRewrite. Its Java parser follows the JDK running the build, so the
//! JDK must be at least the project's language level.

use std::path::{Path, PathBuf};

use anyhow::Result;

/// An installed JDK that can run OpenRewrite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jdk {
    /// Its home directory (`JAVA_HOME`, or a directory under `/usr/lib/jvm`).
    pub home: PathBuf,
    /// Its major version (17, 21, …), from its `release` file.
    pub major: u32,
}

/// Installed JDKs: `JAVA_HOME` first, then `/usr/lib/jvm/*` by ascending version.
pub(crate) fn installed() -> Vec<Jdk> {
    let java_home = std::env::var_os("JAVA_HOME").map(PathBuf::from);
    let mut others: Vec<PathBuf> = std::fs::read_dir("/usr/lib/jvm")
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    others.sort();
    candidates(java_home, others)
}

fn candidates(java_home: Option<PathBuf>, others: Vec<PathBuf>) -> Vec<Jdk> {
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut first = Vec::new();
    let mut rest = Vec::new();
    for (is_home, home) in
        java_home.into_iter().map(|h| (true, h)).chain(others.into_iter().map(|h| (false, h)))
    {
        let Some(major) = major_of(&home) else { continue };
        let canonical = home.canonicalize().unwrap_or_else(|_| home.clone());
        if seen.contains(&canonical) {
            continue;
        }
        seen.push(canonical);
        let jdk = Jdk { home, major };
        if is_home { first.push(jdk) } else { rest.push(jdk) }
    }
    rest.sort_by_key(|j| j.major);
    first.extend(rest);
    first
}

/// The major version of the JDK at `home`, from its `release` file; `None` if it is not a JDK.
pub fn major_of(home: &Path) -> Option<u32> {
    if !home.join("bin/java").exists() {
        return None;
    }
    let release = std::fs::read_to_string(home.join("release")).ok()?;
    let version =
        release.lines().find_map(|l| l.strip_prefix("JAVA_VERSION="))?.trim_matches('"').to_string();
    parse_major(&version)
}

/// `17.0.15` → 17, `1.8.0_392` → 8, `21` → 21.
pub(crate) fn parse_major(version: &str) -> Option<u32> {
    let mut parts = version.split(['.', '_', '-', '+']);
    let first: u32 = parts.next()?.parse().ok()?;
    if first == 1 { parts.next()?.parse().ok() } else { Some(first) }
}

/// Picks the JDK for a project at `level` (None = unknown): `JAVA_HOME` when it is new enough,
/// else the oldest installed JDK that is. None fits → a clear error listing what was found.
pub(crate) fn choose(level: Option<u32>, installed: &[Jdk]) -> Result<Jdk> {
    let needed = level.unwrap_or(0);
    if let Some(jdk) = installed.iter().find(|j| j.major >= needed) {
        return Ok(jdk.clone());
    }
    let found: Vec<String> =
        installed.iter().map(|j| format!("{} ({})", j.major, j.home.display())).collect();
    Err(crate::error::bad_input(format!(
        "the project needs a JDK {needed} or newer to parse its sources, but found {} (JAVA_HOME and /usr/lib/jvm/*)",
        if found.is_empty() { "none".to_string() } else { found.join(", ") }
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_jdk(root: &Path, name: &str, version: &str) -> PathBuf {
        let home = root.join(name);
        std::fs::create_dir_all(home.join("bin")).unwrap();
        std::fs::write(home.join("bin/java"), "").unwrap();
        std::fs::write(home.join("release"), format!("IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"{version}\"\n"))
            .unwrap();
        home
    }

    #[test]
    fn versions_parse() {
        assert_eq!(parse_major("17.0.15"), Some(17));
        assert_eq!(parse_major("1.8.0_392"), Some(8));
        assert_eq!(parse_major("21"), Some(21));
        assert_eq!(parse_major("x"), None);
    }

    #[test]
    fn java_home_first_then_ascending_and_not_a_jdk_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let j25 = fake_jdk(dir.path(), "temurin-25", "25.0.3");
        let j11 = fake_jdk(dir.path(), "jdk-11", "11.0.2");
        let j17 = fake_jdk(dir.path(), "jdk-17", "17.0.15");
        std::fs::create_dir_all(dir.path().join("openjdk-17")).unwrap();
        let found = candidates(Some(j17.clone()), vec![j25, j11, j17.clone(), dir.path().join("openjdk-17")]);
        let majors: Vec<u32> = found.iter().map(|j| j.major).collect();
        assert_eq!(majors, vec![17, 11, 25]);

        assert_eq!(choose(Some(11), &found).unwrap().major, 17, "JAVA_HOME is new enough");
        assert_eq!(choose(Some(21), &found).unwrap().major, 25);
        assert_eq!(choose(None, &found).unwrap().home, j17);
        let err = choose(Some(26), &found).unwrap_err().to_string();
        assert!(err.contains("needs a JDK 26 or newer") && err.contains("25 ("), "{err}");
    }

    #[test]
    fn this_machine_has_a_jdk() {
        assert!(!installed().is_empty(), "tests need a JDK (scripts/setup installs one)");
    }
}
