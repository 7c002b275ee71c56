//! The yardstick for the whole pipeline's speed: T_noop, a validate run whose recipe changes
//! nothing, against a real recipe on the same fixture; with a warm Maven cache and a cold one
//! (an empty local repository, so the plugin, OpenRewrite and the project's dependencies are
//! downloaded). Run with `scripts/bench` (or `cargo bench --bench validate`); set
//! BENCH_SKIP_COLD=1 to skip the cold runs.

use std::path::Path;
use std::process::Command;

use rewrite_assist::fixtures::NOOP_RECIPE as NOOP;
use rewrite_assist::fixtures::scenarios::{JAKARTA_RECIPE as REAL, JAVAX_TO_JAKARTA};

/// Runs `rewrite-assist validate` and returns (total seconds, F1).
fn validate(repo: &Path, recipe: &str, work: &Path, maven_repo: Option<&Path>) -> (f64, f64) {
    let recipe_file = work.join("recipe.yml");
    std::fs::write(&recipe_file, recipe).expect("write recipe");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rewrite-assist"));
    cmd.args([
        "validate",
        "--backend",
        "plugin",
        "--json",
        "--base",
        "main",
        "--head",
        "migration",
        "--repo",
    ])
    .arg(repo)
    .arg("--recipe")
    .arg(&recipe_file)
    .arg("--out")
    .arg(work.join("out"));
    if let Some(local) = maven_repo {
        let opts = std::env::var("MAVEN_OPTS").unwrap_or_default();
        cmd.env("MAVEN_OPTS", format!("{opts} -Dmaven.repo.local={}", local.display()));
    }
    let output = cmd.output().expect("run rewrite-assist");
    let stats: serde_json::Value = serde_json::from_slice(&output.stdout).expect("stats JSON");
    assert!(stats["error"].is_null(), "{}", stats["error"]);
    (
        stats["timings"]["total_seconds"].as_f64().unwrap_or(f64::NAN),
        stats["metrics"]["f1"].as_f64().unwrap_or(f64::NAN),
    )
}

fn main() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let fixture = JAVAX_TO_JAKARTA.build(&dir.path().join("shop")).expect("fixture");

    validate(&fixture.path, NOOP, dir.path(), None); // fills the cache
    let (noop, _) = validate(&fixture.path, NOOP, dir.path(), None);
    let (real, f1) = validate(&fixture.path, REAL, dir.path(), None);
    println!(
        "validate warm: T_noop {noop:.1} s, real recipe {real:.1} s (F1 {f1}), ratio real/T_noop {:.2}",
        real / noop
    );

    if std::env::var_os("BENCH_SKIP_COLD").is_some() {
        return;
    }
    let cold = dir.path().join("m2-cold");
    let (cold_noop, _) = validate(&fixture.path, NOOP, dir.path(), Some(&cold));
    let (cold_real, _) = validate(&fixture.path, REAL, dir.path(), Some(&cold));
    println!(
        "validate cold cache: T_noop {cold_noop:.1} s (ratio to warm {:.2}); the real recipe right after: {cold_real:.1} s",
        cold_noop / noop
    );
}
