//! The Java half of the embedded backend gets the same care as the Rust half: its formatter check
//! (palantir-java-format), its compiler warnings as errors and its own JUnit tests, through
//! `mvn verify` with the pinned versions. The tests run in a copy, so the source tree gets no
//! build output.

use std::path::Path;
use std::process::Command;

use rewrite_assist::openrewrite::Versions;
use rewrite_assist::validation::embedded::runner::version_properties;

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).into_iter().filter_map(Result::ok) {
        let relative = entry.path().strip_prefix(from).unwrap();
        if relative.starts_with("target") {
            continue;
        }
        let target = to.join(relative);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn the_runner_is_formatted_compiles_without_warnings_and_passes_its_tests() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("runner"), dir.path());
    let output = Command::new(std::env::var("REWRITE_ASSIST_MVN").unwrap_or_else(|_| "mvn".into()))
        .current_dir(dir.path())
        .args(["-B", "-q", "verify"])
        .args(version_properties(&Versions::default()))
        .output()
        .expect("mvn runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "mvn verify failed:\n{stdout}\n{stderr}");
    // Every test class ran (surefire writes one report per class, named by the class's fully
    // qualified name: the runner's tests sit in its packages), with at least one test.
    let reports = dir.path().join("target/surefire-reports");
    let tests = dir.path().join("src/test/java");
    let classes = walkdir::WalkDir::new(&tests)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with("Test.java"))
        .map(|e| {
            let relative = e.path().strip_prefix(&tests).unwrap().with_extension("");
            relative.to_string_lossy().replace('/', ".")
        })
        .collect::<Vec<_>>();
    assert!(!classes.is_empty());
    for class in classes {
        let report = reports.join(format!("TEST-{class}.xml"));
        let text = std::fs::read_to_string(&report).unwrap_or_else(|e| panic!("{}: {e}", report.display()));
        assert!(!text.contains("tests=\"0\""), "{class} ran no test");
    }
}

/// Not a test: formats the runner's sources in place with the pinned formatter, for developers
/// (`cargo test --test runner -- --ignored`), since Maven needs the pinned versions to run at all.
#[test]
#[ignore = "formats runner/ in place; run it by hand"]
fn format_the_runner_in_place() {
    let output = Command::new(std::env::var("REWRITE_ASSIST_MVN").unwrap_or_else(|_| "mvn".into()))
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("runner"))
        .args(["-B", "-q", "spotless:apply"])
        .args(version_properties(&Versions::default()))
        .output()
        .expect("mvn runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stdout));
}
