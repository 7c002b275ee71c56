//! A batch: `eval run` over a suite as it ran before issue #42 (one case at a time, a new runner for
//! every case: `--workers 1` and `REWRITE_ASSIST_RUNNER_RESTART_AFTER=1`) and as it runs now (the
//! default workers, each keeping its runner from case to case). Printed: each one's wall time and
//! time per case, the ratio (goal ≥ 2), and whether the two gave the same results (each case's
//! status, recommended option and F1, and the transfer pairs' F1). The runner's own speed-ups of
//! #42 (shared resolutions, reused runs) count on both sides: this is the batch's shape alone; the
//! binary before #42 against today's is in docs/benchmarks.md.
//!
//! The suite: `REWRITE_ASSIST_BENCH_SUITE=FILE`, else evals/suites/real-maven.yaml; its repositories
//! come from the clone cache (`REWRITE_ASSIST_EVAL_CACHE`, see evals/README.md). Without the cache
//! it says so and measures nothing. It takes about 20 minutes on a 2-core machine.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Runs the suite into `out` with `args` and `env` added; its wall time and shard results.
fn eval_run(
    suite: &Path,
    cache: &Path,
    out: &Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> (f64, serde_json::Value) {
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_rewrite-assist"))
        .envs(env.iter().copied())
        .args(["eval", "run", "--json", "--backend", "embedded", "--suite"])
        .arg(suite)
        .arg("--cache")
        .arg(cache)
        .arg("--out")
        .arg(out)
        .args(args)
        .output()
        .expect("run rewrite-assist");
    let seconds = started.elapsed().as_secs_f64();
    let shard = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("no JSON from eval run ({e}): {}", String::from_utf8_lossy(&output.stderr))
    });
    (seconds, shard)
}

/// What must not change with the batch's shape: per case its status, option and F1; per pair its F1.
fn results(shard: &serde_json::Value) -> Vec<String> {
    let cases = shard["cases"].as_array().into_iter().flatten().map(|c| {
        format!("{} {} {} {}", c["name"], c["status"], c["recommended"]["option"], c["recommended"]["f1"])
    });
    let pairs = shard["transfers"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| format!("{} -> {} {} {}", t["from"], t["to"], t["status"], t["f1"]));
    cases.chain(pairs).collect()
}

fn main() {
    let Ok(cache) = std::env::var("REWRITE_ASSIST_EVAL_CACHE") else {
        println!("batch: no clone cache (REWRITE_ASSIST_EVAL_CACHE); nothing measured");
        return;
    };
    let suite = std::env::var("REWRITE_ASSIST_BENCH_SUITE")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("evals/suites/real-maven.yaml"));
    let dir = tempfile::tempdir().expect("temporary directory");
    let cache = PathBuf::from(cache);
    let one_by_one = [("REWRITE_ASSIST_RUNNER_RESTART_AFTER", "1")];
    let (before, before_shard) =
        eval_run(&suite, &cache, &dir.path().join("before"), &["--workers", "1"], &one_by_one);
    let (now, now_shard) = eval_run(&suite, &cache, &dir.path().join("now"), &[], &[]);
    let cases = now_shard["cases"].as_array().map_or(0, Vec::len).max(1) as f64;
    let name = suite.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    println!(
        "batch {name}: one case at a time, a runner per case {before:.0} s ({:.1} s per case); workers keeping their runners {now:.0} s ({:.1} s per case): {:.2}× faster (goal ≥ 2.00); same results: {}",
        before / cases,
        now / cases,
        before / now,
        if results(&before_shard) == results(&now_shard) { "yes" } else { "NO" }
    );
}
