#![allow(dead_code)]
//! Validation of the JSON documents a command wrote against the committed schemas
//! (`docs/schemas/`), so that a document that drifts from its schema fails a test.

use std::path::{Path, PathBuf};

/// The committed schema named `name`.
fn schema(name: &str) -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schemas").join(format!("{name}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// The schema of a file the tool writes, by its name, as `src/schemas.rs` lists the files each
/// document is written as; `None` for JSON it does not own (a file a recipe changed, a build
/// tool's report).
pub fn schema_of(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_str()?;
    let document =
        rewrite_assist::schemas::documents().iter().find(|d| d.written_as.iter().any(|w| names(w, name)))?;
    Some(document.name)
}

/// Whether `file` is a file written as `written_as` (`stats.json`, `<case>/case-result.json`,
/// `option-N-stats.json`, `audit.jsonl (each line)`); command outputs (`analyze --json`) name none.
fn names(written_as: &str, file: &str) -> bool {
    let Some(pattern) = written_as.split(' ').next().and_then(|w| w.rsplit('/').next()) else { return false };
    if !(pattern.ends_with(".json") || pattern.ends_with(".jsonl")) {
        return false;
    }
    match pattern.split_once("-N-") {
        Some((prefix, suffix)) => file
            .strip_prefix(&format!("{prefix}-"))
            .and_then(|rest| rest.strip_suffix(&format!("-{suffix}")))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())),
        None => pattern == file,
    }
}

/// The errors of `instance` against the schema `name`, one line each.
pub fn errors(name: &str, instance: &serde_json::Value) -> Vec<String> {
    let validator = jsonschema::validator_for(&schema(name)).unwrap_or_else(|e| panic!("schema {name}: {e}"));
    validator.iter_errors(instance).map(|e| format!("{}: {e}", e.instance_path())).collect()
}

/// Panics unless `text` (a command's `--json` output) is a document `name`, or the failure
/// document.
pub fn assert_output(name: &str, text: &str) {
    let value: serde_json::Value =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    let own = errors(name, &value);
    assert!(
        own.is_empty() || errors("failed", &value).is_empty(),
        "--json output is not a valid {name}: {own:#?}"
    );
}

/// Validates every document the tool wrote under `dir` and returns how many it checked; panics
/// on the first directory with an invalid one, listing its errors.
pub fn assert_documents(dir: &Path) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in files(dir) {
        let Some(name) = schema_of(&path) else { continue };
        let text = std::fs::read_to_string(&path).unwrap();
        let values: Vec<serde_json::Value> = if path.extension().is_some_and(|e| e == "jsonl") {
            text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
        } else {
            vec![serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()))]
        };
        for value in values {
            checked += 1;
            failures.extend(
                errors(name, &value).into_iter().map(|e| format!("{} ({name}): {e}", path.display())),
            );
        }
    }
    assert!(failures.is_empty(), "documents that do not match their schema:\n{}", failures.join("\n"));
    checked
}

/// Every file under `dir`, clones and build output left out.
fn files(dir: &Path) -> Vec<PathBuf> {
    let skipped = |e: &walkdir::DirEntry| {
        e.file_type().is_dir()
            && matches!(e.file_name().to_str(), Some(".git" | "target" | "build" | "node_modules"))
    };
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_entry(|e| !skipped(e))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect();
    out.sort();
    out
}
