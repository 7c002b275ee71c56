//! Test preservation: how many test methods the project has before and after a recipe. A recipe
//! that deletes tests (a drop in the count) is flagged.

use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

/// JUnit 4/5 and TestNG method annotations (simple or fully qualified names).
static TEST_ANNOTATION: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"^\s*@(?:org\.junit\.(?:jupiter\.api\.|jupiter\.params\.)?|org\.testng\.annotations\.)?(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b",
    )
    .ok()
});

const SOURCE_EXTENSIONS: &[&str] = &["java", "kt", "groovy"];

/// Counts test methods in test source roots (`src/test/…`, `src/integrationTest/…` and the like,
/// in every module) under `root`.
pub(crate) fn count(root: &Path) -> usize {
    walkdir::WalkDir::new(root)
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            !(e.file_type().is_dir()
                && (name == ".git" || name == "target" || name == "build" || name == "node_modules"))
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter(|e| {
            let ext = e.path().extension().and_then(|x| x.to_str()).unwrap_or("");
            SOURCE_EXTENSIONS.contains(&ext)
                && is_test_source(e.path().strip_prefix(root).unwrap_or(e.path()))
        })
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .map(|text| count_in(&text))
        .sum()
}

/// `src/test/java/…`, `module/src/integrationTest/kotlin/…`: a source set under `src/` whose name
/// contains "test".
pub(crate) fn is_test_source(relative: &Path) -> bool {
    let parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().to_lowercase()).collect();
    parts.windows(2).any(|w| w[0] == "src" && w[1].contains("test"))
}

/// Test-method annotations in one source file, comments skipped.
pub(crate) fn count_in(source: &str) -> usize {
    let Some(re) = TEST_ANNOTATION.as_ref() else { return 0 };
    let mut in_block_comment = false;
    let mut count = 0;
    for line in source.lines() {
        let trimmed = line.trim_start();
        if in_block_comment {
            if trimmed.contains("*/") {
                in_block_comment = false;
            }
            continue;
        }
        if trimmed.starts_with("/*") && !trimmed.contains("*/") {
            in_block_comment = true;
            continue;
        }
        if re.is_match(line) {
            count += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_junit4_junit5_and_testng_annotations() {
        let source = r#"
import org.junit.Test;
class A {
    @Test
    public void one() {}
    @org.junit.jupiter.api.Test void two() {}
    @ParameterizedTest
    @ValueSource(ints = {1})
    void three(int i) {}
    @org.testng.annotations.Test(groups = "x")
    public void four() {}
    // @Test void commented() {}
    /*
    @Test void alsoCommented() {}
    */
    @TestConfiguration
    static class NotATest {}
}
"#;
        assert_eq!(count_in(source), 4);
    }

    #[test]
    fn only_test_source_roots_count() {
        assert!(is_test_source(Path::new("src/test/java/A.java")));
        assert!(is_test_source(Path::new("api/src/integrationTest/kotlin/A.kt")));
        assert!(!is_test_source(Path::new("src/main/java/TestUtils.java")));
        let dir = tempfile::tempdir().unwrap();
        for (path, n) in
            [("src/test/java/ATest.java", 2), ("src/main/java/Main.java", 3), ("target/test/X.java", 1)]
        {
            let file = dir.path().join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, "@Test void x() {}\n".repeat(n)).unwrap();
        }
        assert_eq!(count(dir.path()), 2);
        assert!(crate::model::TestCounts::new(3, 2).dropped);
        assert!(!crate::model::TestCounts::new(2, 2).dropped);
    }
}
