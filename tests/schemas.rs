//! The committed JSON Schemas (`docs/schemas/`) hold what the commands print and write: the
//! documents of each command are checked where its own tests run it (analyze, validate, eval,
//! learn, rollout, metrics, intents); these are the ones no other test runs, and the check that
//! the check itself can fail.

mod common;
#[path = "common/schemas.rs"]
mod schemas;

use common::bin;

#[test]
fn a_command_that_fails_prints_the_failed_document() {
    let dir = tempfile::tempdir().unwrap();
    let output = bin()
        .args(["apply", "--json", "--dry-run", "--repos", "acme/a", "--recipe"])
        .arg(dir.path().join("no-such-recipe.yml"))
        .arg("--out")
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", String::from_utf8_lossy(&output.stderr));
    let printed = String::from_utf8_lossy(&output.stdout);
    let value: serde_json::Value = serde_json::from_str(&printed).unwrap();
    assert_eq!(schemas::errors("failed", &value), Vec::<String>::new(), "{printed}");
    assert!(!schemas::errors("rollout", &value).is_empty(), "a failure is not a rollout report: {printed}");
}

#[test]
fn the_clone_cache_listing_is_a_document() {
    let dir = tempfile::tempdir().unwrap();
    let output = bin().args(["eval", "cache", "list", "--json", "--cache"]).arg(dir.path()).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    schemas::assert_output("eval-cache", &String::from_utf8_lossy(&output.stdout));
}

#[test]
fn a_document_without_its_version_or_with_a_wrong_type_fails_its_schema() {
    let good = serde_json::json!({ "schema_version": 1, "entries": [] });
    assert_eq!(schemas::errors("eval-cache", &good), Vec::<String>::new());
    let unversioned = serde_json::json!({ "entries": [] });
    assert!(!schemas::errors("eval-cache", &unversioned).is_empty(), "schema_version is required");
    let wrong = serde_json::json!({ "schema_version": 1, "entries": "none" });
    assert!(!schemas::errors("eval-cache", &wrong).is_empty(), "entries is a list");
}

#[test]
fn files_are_checked_against_the_schema_of_the_document_they_are_written_as() {
    let of = |file: &str| schemas::schema_of(std::path::Path::new("out").join(file).as_path());
    assert_eq!(of("stats.json"), Some("validation-stats"));
    assert_eq!(of("option-12-stats.json"), Some("validation-stats"));
    assert_eq!(of("option--stats.json"), None);
    assert_eq!(of("audit.jsonl"), Some("audit-entry"));
    assert_eq!(of("case-result.json"), Some("eval-case"));
    assert_eq!(of("reusable-option.json"), Some("reusable-option"));
    assert_eq!(of("result.json"), Some("rollout-repository"));
    assert_eq!(of("pom.json"), None, "JSON the tool does not own");
}
