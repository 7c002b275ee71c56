//! `rewrite-assist eval run` and `eval aggregate` through the real binary: real fixture
//! repositories, a real OpenRewrite run through Maven for one case, broken cases beside it.

mod common;

use std::path::Path;

use common::{bin, json_stdout};
use rewrite_assist::fixtures::scenarios::JAVAX_TO_JAKARTA;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `eval aggregate DIRS --out OUT EXTRA…`
fn aggregate(dirs: &[&Path], out: &Path, extra: &[&str]) -> std::process::Output {
    bin().args(["eval", "aggregate"]).args(dirs).arg("--out").arg(out).args(extra).output().unwrap()
}

fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// One real case (javax → jakarta, analyzed with real Maven) and one broken case: the broken one
/// is recorded with its reason, the real one still runs; then the outputs are aggregated and
/// gated against baselines.
#[test]
fn run_a_real_case_and_a_broken_one_then_aggregate_and_gate() {
    let dir = tempfile::tempdir().unwrap();
    JAVAX_TO_JAKARTA.build(&dir.path().join("repos/jakarta")).unwrap();
    let suite = dir.path().join("suites/two.yaml");
    write(
        &suite,
        "suite_name: two
defaults:
  timeout: 600
cases:
  - name: broken
    repo: ../repos/does-not-exist
    base: main
    head: migration
  - name: javax-to-jakarta
    repo: ../repos/jakarta
    base: main
    head: migration
",
    );
    let out = dir.path().join("out/shard-1");
    let output =
        bin().args(["eval", "run", "--json", "--suite"]).arg(&suite).arg("--out").arg(&out).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("eval: [1/2] broken: error"), "{stderr}");
    let shard = json_stdout(&output);
    assert_eq!(shard["planned"], serde_json::json!(["broken", "javax-to-jakarta"]));
    assert_eq!(shard["totals"]["passed"], 1);
    assert_eq!(shard, read_json(&out.join("shard-results.json")));

    let broken = read_json(&out.join("broken/case-result.json"));
    assert_eq!(broken["status"], "error");
    assert!(broken["reason"].as_str().unwrap().contains("does-not-exist: no such directory"), "{broken:#}");
    assert_eq!(broken["source"]["repo"], "../repos/does-not-exist");

    let real = read_json(&out.join("javax-to-jakarta/case-result.json"));
    assert_eq!(real["status"], "passed", "{real:#}");
    assert_eq!(real["suite_name"], "two");
    assert!(real["recommended"]["f1"].as_f64().unwrap() >= 0.9, "{real:#}");
    for key in ["precision", "recall", "perfect_match", "semantic_share", "confidence"] {
        assert!(!real["recommended"][key].is_null(), "recommended.{key} missing: {real:#}");
    }
    let options = real["options"].as_array().unwrap();
    assert!(options.len() >= 2, "{real:#}");
    assert!(options.iter().all(|o| o["f1"].is_f64() && o["precision"].is_f64() && o["recall"].is_f64()));
    assert_eq!(real["commits"]["base"].as_str().unwrap().len(), 40);
    assert!(real["wall_seconds"].as_f64().unwrap() > 0.0);
    // The case's own analyze artifacts sit beside its result.
    assert!(out.join("javax-to-jakarta/result/recommended-recipe.yaml").is_file());
    assert!(out.join("javax-to-jakarta/workflow-metadata.json").is_file());

    // Aggregate the shard directory's parent, as after an artifact download.
    let aggregated = dir.path().join("aggregate");
    let output = aggregate(&[&dir.path().join("out")], &aggregated, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let summary = std::fs::read_to_string(aggregated.join("summary.md")).unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout), summary);
    assert!(summary.starts_with("# Eval: two\n"), "{summary}");
    assert!(summary.contains("| javax-to-jakarta | passed | "), "{summary}");
    assert!(summary.contains("| broken | error | – |"), "{summary}");
    let results = read_json(&aggregated.join("suite-results.json"));
    assert_eq!(results["totals"]["cases"], 2);
    assert_eq!(results["totals"]["errors"], 1);
    let f1 = real["recommended"]["f1"].as_f64().unwrap();
    assert_eq!(results["totals"]["avg_f1"].as_f64().unwrap(), ((f1 / 2.0) * 1e4).round() / 1e4);

    // Against itself as the baseline: the gate passes.
    let baseline = aggregated.join("suite-results.json");
    let output = aggregate(&[&out], &dir.path().join("again"), &["--baseline", baseline.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stdout).contains("**Regression gate: passed**"));

    // A baseline in which the broken case passed with a perfect score: both gates trip.
    let mut better = results.clone();
    for case in better["cases"].as_array_mut().unwrap() {
        if case["name"] == "broken" {
            case["status"] = "passed".into();
            case["f1"] = 1.0.into();
        }
    }
    let better_path = dir.path().join("better.json");
    write(&better_path, &serde_json::to_string_pretty(&better).unwrap());
    let output =
        aggregate(&[&out], &dir.path().join("gated"), &["--baseline", better_path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("the average F1 of the 2 cases in both dropped by 0.5000"), "{stderr}");
    assert!(stderr.contains("no longer passing: broken"), "{stderr}");
    let gated = read_json(&dir.path().join("gated/suite-results.json"));
    assert_eq!(gated["comparison"]["regressed"], true);
}

#[test]
fn a_shard_runs_its_slice_of_the_suite() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.yaml");
    let cases: String = (1..=5)
        .map(|n| format!("  - {{ name: case-{n}, repo: missing-{n}, base: main, head: pr }}\n"))
        .collect();
    write(&suite, &format!("suite_name: slices\ncases:\n{cases}"));
    let mut planned = Vec::new();
    for index in 1..=2 {
        let out = dir.path().join(format!("shard-{index}"));
        let output = bin()
            .args(["eval", "run", "--json", "--shard", &format!("{index}/2"), "--suite"])
            .arg(&suite)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
        planned.push(json_stdout(&output)["planned"].clone());
    }
    assert_eq!(planned[0], serde_json::json!(["case-1", "case-3", "case-5"]));
    assert_eq!(planned[1], serde_json::json!(["case-2", "case-4"]));

    // Both shards aggregate to the whole suite; one alone is incomplete and fails.
    let (one, two) = (dir.path().join("shard-1"), dir.path().join("shard-2"));
    let output = aggregate(&[&one, &two], &dir.path().join("all"), &["--json"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(json_stdout(&output)["totals"]["errors"], 5);
    let output = aggregate(&[&two], &dir.path().join("half"), &[]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "eval: failed: no output from shard 1/2\n");
}

#[test]
fn unusable_input_exits_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("bad.yaml");
    write(&suite, "suite_name: bad\ncases:\n  - { name: a, repo: r, base: main, head: pr, extra: 1 }\n");
    let output = bin().args(["eval", "run", "--suite"]).arg(&suite).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: suite ") && stderr.contains("unknown field `extra`"), "{stderr}");

    let output = bin().args(["eval", "run", "--shard", "3/2", "--suite"]).arg(&suite).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("is not a shard"));

    let output = aggregate(&[&dir.path().join("nothing-here")], &dir.path().join("agg"), &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("nothing-here: no such directory"));

    let output = aggregate(&[dir.path()], &dir.path().join("agg"), &["--max-f1-drop", "2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--max-f1-drop 2 is not between 0 and 1"));
}
