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

/// The schema of a file the tool writes, by its name; `None` for JSON it does not own (a file a
/// recipe changed, a build tool's report).
fn schema_of(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_str()?;
    Some(match name {
        "intent-tree.json" => "intent-tree",
        "stats.json" => "validation-stats",
        n if n.starts_with("option-") && n.ends_with("-stats.json") => "validation-stats",
        "discovery.json" => "discovery",
        "reusable-option.json" => "reusable-option",
        "pull-request.json" => "pull-request",
        "workflow-metadata.json" => "workflow-metadata",
        "audit.jsonl" => "audit-entry",
        "learn.json" => "learn",
        "case-result.json" => "eval-case",
        "shard-results.json" => "eval-shard",
        "suite-results.json" => "eval-suite",
        "history.json" => "eval-history",
        "rollout.json" => "rollout",
        "result.json" => "rollout-repository",
        _ => return None,
    })
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
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if !matches!(entry.file_name().to_str(), Some(".git" | "target" | "build" | "node_modules")) {
                    stack.push(path);
                }
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
