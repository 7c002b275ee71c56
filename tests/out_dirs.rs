//! Every command that writes artifacts into `--out` refuses a directory that already has files:
//! nothing of an earlier run passes for this run's, and nothing of the user's is overwritten.

mod common;

use common::bin;

fn occupied(dir: &std::path::Path) -> std::path::PathBuf {
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("mine.txt"), "keep me").unwrap();
    out
}

fn assert_refused(output: std::process::Output, out: &std::path::Path) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("not empty"), "{stderr}");
    assert_eq!(std::fs::read_to_string(out.join("mine.txt")).unwrap(), "keep me");
    assert_eq!(std::fs::read_dir(out).unwrap().count(), 1, "something was written");
}

#[test]
fn intents_apply_and_eval_aggregate_refuse_an_out_directory_with_files() {
    let dir = tempfile::tempdir().unwrap();
    let repo = common::pr_repo(&dir.path().join("repo"), &[("a.txt", "1\n")], &[("a.txt", "2\n")]);

    let out = occupied(&dir.path().join("intents"));
    let output = bin()
        .args(["intents", "--base", "main", "--head", "migration", "--repo"])
        .arg(repo.path())
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_refused(output, &out);

    let recipe = dir.path().join("recipe.yml");
    std::fs::write(
        &recipe,
        "type: specs.openrewrite.org/v1beta/recipe\nname: test.R\nrecipeList:\n  - org.openrewrite.text.FindAndReplace:\n      find: a\n      replace: b\n",
    )
    .unwrap();
    let out = occupied(&dir.path().join("apply"));
    let output = bin()
        .args(["apply", "--repos", "acme/one", "--recipe"])
        .arg(&recipe)
        .arg("--out")
        .arg(&out)
        .env_remove("GITHUB_TOKEN")
        .output()
        .unwrap();
    assert_refused(output, &out);

    let out = occupied(&dir.path().join("aggregate"));
    let shards = dir.path().join("shards");
    std::fs::create_dir_all(&shards).unwrap();
    let output = bin().args(["eval", "aggregate"]).arg(&shards).arg("--out").arg(&out).output().unwrap();
    assert_refused(output, &out);
}
