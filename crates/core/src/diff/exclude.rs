//! Paths whose changes never count: build output, Gradle wrapper files and the temporary files our
//! own runs create. A recipe run regenerates them and a PR rarely means them.

/// Files excluded wherever they appear at the repository root.
const EXCLUDED_FILES: &[&str] = &[
    "gradlew",
    "gradlew.bat",
    "gradle/wrapper/gradle-wrapper.jar",
    // Temporary init scripts and recipe files: the reference analyzer's and ours. Ours are
    // written outside the clone, but a user may run the same files by hand inside one.
    "rewrite.gradle",
    TEMPORARY_INIT_SCRIPT,
    TEMPORARY_RECIPE,
];

/// File name of the Gradle init script a validation run generates.
pub const TEMPORARY_INIT_SCRIPT: &str = "rewrite-assist.init.gradle";
/// File name of the recipe YAML a validation run hands to OpenRewrite.
pub const TEMPORARY_RECIPE: &str = "rewrite-assist.recipe.yml";

/// Build-output directories, at the root or inside a module (`module-a/target/…`).
const EXCLUDED_DIRS: &[&str] = &["target", "build", ".gradle"];

/// True when changes to `path` (relative, `/`-separated, no `a/`/`b/` prefix) are ignored.
///
/// A directory named `build` or `target` only counts as build output before the first `src`
/// component: `src/main/java/com/acme/build/Tool.java` is source code, `app/build/x.class` is not.
pub fn is_excluded(path: &str) -> bool {
    if EXCLUDED_FILES.contains(&path) {
        return true;
    }
    let mut components = path.split('/').peekable();
    while let Some(component) = components.next() {
        if components.peek().is_none() || component == "src" {
            return false;
        }
        if EXCLUDED_DIRS.contains(&component) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::is_excluded;

    #[test]
    fn wrapper_and_temporary_files_are_excluded() {
        for path in ["gradlew", "gradlew.bat", "gradle/wrapper/gradle-wrapper.jar", "rewrite.gradle"] {
            assert!(is_excluded(path), "{path}");
        }
        assert!(!is_excluded("gradle/wrapper/gradle-wrapper.properties"));
        assert!(!is_excluded("docs/gradlew"));
    }

    #[test]
    fn build_directories_are_excluded_at_root_and_in_modules() {
        assert!(is_excluded("target/classes/App.class"));
        assert!(is_excluded("build/reports/rewrite/rewrite.patch"));
        assert!(is_excluded(".gradle/8.5/fileHashes/fileHashes.lock"));
        assert!(is_excluded("service/target/generated/Foo.java"));
    }

    #[test]
    fn source_packages_named_like_build_dirs_are_kept() {
        assert!(!is_excluded("src/main/java/com/acme/build/Tool.java"));
        assert!(!is_excluded("app/src/main/java/target/Aim.java"));
        // A file (not a directory) named like one is kept too.
        assert!(!is_excluded("build"));
        assert!(!is_excluded("docs/target"));
    }
}
