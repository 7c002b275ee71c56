//! What the benchmarks share: running the binary on a PR and reading its `--json` output.

use std::path::Path;
use std::process::Command;

/// `rewrite-assist ARGS --json --base BASE --head HEAD --repo REPO --out OUT` with `env` added,
/// and its JSON on stdout (a benchmark without a result has nothing to measure: it panics).
pub fn run_json(
    args: &[&str],
    repo: &Path,
    (base, head): (&str, &str),
    out: &Path,
    env: &[(&str, &Path)],
) -> serde_json::Value {
    let output = Command::new(env!("CARGO_BIN_EXE_rewrite-assist"))
        .envs(env.iter().copied())
        .args(args)
        .args(["--json", "--base", base, "--head", head, "--repo"])
        .arg(repo)
        .arg("--out")
        .arg(out)
        .output()
        .expect("run rewrite-assist");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("no JSON from {args:?} ({e}): {}", String::from_utf8_lossy(&output.stderr))
    })
}
