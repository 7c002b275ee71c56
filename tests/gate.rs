//! The migration gate and the verdict through `analyze --json`: ordinary pull requests (a bug fix, a
//! refactoring of the repository's own code, a configuration tweak) are `ordinary`, while a
//! migration is still `ready_to_roll_out`. Real git repositories, real OpenRewrite runs (the
//! embedded runner, which also validates the reusable recipe).

mod common;

use common::{bin, json_stdout};
use rewrite_assist::fixtures::Scenario;
use rewrite_assist::fixtures::ordinary::{BUG_FIX, CONFIG_TWEAK, REFACTORING};
use rewrite_assist::fixtures::scenarios::JAVAX_TO_JAKARTA;

fn analyze(scenario: &Scenario) -> (serde_json::Value, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let fixture = scenario.build(&dir.path().join("repo")).unwrap();
    let out = dir.path().join("out");
    let output = bin()
        .args([
            "analyze",
            "--json",
            "--backend",
            "embedded",
            "--base",
            "main",
            "--head",
            "migration",
            "--repo",
        ])
        .arg(&fixture.path)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let metadata = std::fs::read_to_string(out.join("workflow-metadata.json")).unwrap();
    (json_stdout(&output), serde_json::from_str(&metadata).unwrap())
}

#[test]
fn ordinary_prs_are_ordinary_and_a_migration_is_ready_to_roll_out() {
    for (scenario, reason) in [
        (&BUG_FIX, "no semantic recipe reproduces it (no reusable recipe)"),
        (&REFACTORING, "beyond renames of the repository's own code and values of its own configuration"),
        (&CONFIG_TWEAK, "beyond renames of the repository's own code and values of its own configuration"),
    ] {
        let (summary, metadata) = analyze(scenario);
        assert_eq!(summary["pr_kind"], "ordinary", "{}: {summary:#}", scenario.name);
        let why = summary["pr_kind_reason"].as_str().unwrap();
        assert!(why.starts_with("the intent tree names no migration") && why.contains(reason), "{why}");
        assert_ne!(summary["verdict"], "ready_to_roll_out", "{}", scenario.name);
        assert_eq!(metadata["pr_kind"], "ordinary");
        assert_eq!(metadata["verdict"], summary["verdict"]);
    }
    // A recipe replays the refactoring perfectly: the verdict says it is for this PR only.
    let (summary, _) = analyze(&REFACTORING);
    assert_eq!(summary["recommended"]["f1"], 1.0, "{summary:#}");
    assert_eq!(summary["verdict"], "reproduces_this_pr_only");

    let (summary, metadata) = analyze(&JAVAX_TO_JAKARTA);
    assert_eq!(summary["pr_kind"], "migration", "{summary:#}");
    assert_eq!(summary["pr_kind_reason"], "the intent tree names a migration: Migrate javax -> jakarta");
    assert_eq!(summary["verdict"], "ready_to_roll_out", "{summary:#}");
    assert_eq!(summary["recommended"]["confidence"], "recommended", "the confidence stays");
    assert_eq!(metadata["reusable"], summary["reusable"]);
}
