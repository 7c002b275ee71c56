//! Every command takes relative paths, from any working directory: the paths are made absolute
//! once, as the flags are parsed, so the processes that run elsewhere (the embedded runner, git in a
//! clone, Maven in a checkout) find the same files. The default `--out` is relative too.

mod common;

use std::path::{Path, PathBuf};

use common::{bin, json_stdout};
use rewrite_assist::fixtures::scenarios::{JAKARTA_RECIPE, JAVAX_TO_JAKARTA};
use rewrite_assist::setup::git::git_output;

/// `dir/shop` (the PR `main..migration`), `dir/work/recipe.yml`, and `dir/work` to run from.
struct Layout {
    _dir: tempfile::TempDir,
    work: PathBuf,
}

fn layout() -> Layout {
    let dir = tempfile::tempdir().unwrap();
    JAVAX_TO_JAKARTA.build(&dir.path().join("shop")).unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("recipe.yml"), JAKARTA_RECIPE).unwrap();
    Layout { _dir: dir, work }
}

/// The one directory under `work/rewrite-assist-output` (the default `--out`).
fn default_out(work: &Path) -> PathBuf {
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(work.join("rewrite-assist-output")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs.pop().unwrap()
}

#[test]
fn validate_with_a_relative_out_and_with_the_default_out_reproduces_the_pr() {
    let l = layout();
    let embedded = ["--backend", "embedded", "--base", "main", "--head", "migration", "--json"];
    let run = |out: &[&str]| {
        let output = bin()
            .current_dir(&l.work)
            .args(["validate", "--repo", "../shop", "--recipe", "recipe.yml"])
            .args(embedded)
            .args(out)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
        json_stdout(&output)
    };
    let stats = run(&["--out", "relout"]);
    assert_eq!(stats["metrics"]["f1"], 1.0, "{stats:#}");
    assert!(l.work.join("relout/stats.json").is_file());
    assert!(l.work.join("relout/recipe.diff").is_file());

    let stats = run(&[]);
    assert_eq!(stats["metrics"]["f1"], 1.0, "{stats:#}");
    assert!(default_out(&l.work).join("stats.json").is_file());
}

#[test]
fn analyze_intents_and_metrics_take_relative_paths() {
    let l = layout();
    let output = bin()
        .current_dir(&l.work)
        .args(["analyze", "--repo", "../shop", "--base", "main", "--head", "migration"])
        .args(["--backend", "embedded", "--json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let summary = json_stdout(&output);
    let run_dir = default_out(&l.work);
    assert_eq!(
        summary["artifacts_dir"],
        run_dir.canonicalize().unwrap().display().to_string(),
        "{summary:#}"
    );
    assert!(summary["recommended"]["f1"].as_f64().unwrap() >= 0.99, "{summary:#}");

    let output = bin()
        .current_dir(&l.work)
        .args(["intents", "--repo", "../shop", "--base", "main", "--head", "migration", "--out", "intents"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(l.work.join("intents/intent-tree.json").is_file());

    let diff = git_output(&l.work.join("../shop"), ["diff", "main", "migration"]).unwrap().stdout;
    std::fs::write(l.work.join("pr.diff"), &diff).unwrap();
    let output = bin()
        .current_dir(&l.work)
        .args(["metrics", "--expected", "pr.diff", "--actual", "pr.diff", "--json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(json_stdout(&output)["f1"], 1.0);
}

#[test]
fn apply_takes_a_relative_recipe_server_and_out() {
    let l = layout();
    let server = l.work.join("server");
    let bare = server.join("acme/shop.git");
    std::fs::create_dir_all(bare.parent().unwrap()).unwrap();
    let cloned = std::process::Command::new("git")
        .args(["clone", "--quiet", "--bare", "--branch", "main"])
        .arg(l.work.join("../shop"))
        .arg(&bare)
        .status()
        .unwrap();
    assert!(cloned.success());
    let output = bin()
        .current_dir(&l.work)
        .args(["apply", "--repos", "acme/shop", "--recipe", "recipe.yml", "--server-url", "server"])
        .args(["--out", "rollout", "--json"])
        .env_remove("GITHUB_SERVER_URL")
        .env_remove("GITHUB_TOKEN")
        .output()
        .unwrap();
    let report = json_stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{report:#}\n{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(report["results"][0]["status"], "would_change", "{report:#}");
    assert!(l.work.join("rollout/rollout.json").is_file());
    assert!(l.work.join("rollout/acme/shop/recipe.diff").is_file());
}
