//! The Java level a build value names. Intent extraction (to tell a Java upgrade) and recipe
//! mapping (to write `UpdateJavaCompatibility`'s version) read the same values, so they read them
//! with the same rule.

use std::sync::LazyLock;

use regex::Regex;

static JAVA_LEVEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:JavaVersion\.VERSION_|VERSION_|JvmTarget\.JVM_|JVM_)?(1[._]\d+|\d+)(?:[._]\d+)*$")
        .expect("valid regex")
});
/// The Java major version a build value names: `1.8` -> 8, `17` -> 17, `JavaVersion.VERSION_11` -> 11.
pub fn java_major(value: &str) -> Option<u32> {
    let value = value.trim().trim_matches(|c| c == '"' || c == '\'');
    let captures = JAVA_LEVEL.captures(value)?;
    let first = &captures[1];
    let major = match first.strip_prefix("1.").or_else(|| first.strip_prefix("1_")) {
        Some(minor) => minor.parse().ok()?,
        None => first.parse().ok()?,
    };
    (5..=99).contains(&major).then_some(major)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_levels() {
        assert_eq!(java_major("1.8"), Some(8));
        assert_eq!(java_major("11"), Some(11));
        assert_eq!(java_major("'17'"), Some(17));
        assert_eq!(java_major("JavaVersion.VERSION_1_8"), Some(8));
        assert_eq!(java_major("JavaVersion.VERSION_21"), Some(21));
        assert_eq!(java_major("17.0.2"), Some(17));
        assert_eq!(java_major("${java.version}"), None);
        assert_eq!(java_major("UTF-8"), None);
        assert_eq!(java_major("\"1.8\""), Some(8));
        assert_eq!(java_major("JvmTarget.JVM_17"), Some(17));
        assert_eq!(java_major("JavaVersion.current()"), None);
        assert_eq!(java_major(""), None);
    }
}
