//! `rewrite-assist eval run` and `eval aggregate` through the real binary: real fixture
//! repositories, a real OpenRewrite run through Maven for one case, broken cases beside it.

mod common;
#[path = "common/schemas.rs"]
mod schemas;

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

/// One real case (javax → jakarta, analyzed with real Maven) whose repository comes from the clone
/// cache, filled from a local repository under a URL nothing answers for (so the run is offline);
/// a broken case and a case whose repository is gone beside it: the broken one is an error, the
/// gone one skipped, the real one still runs; then the outputs are aggregated and gated.
#[test]
fn run_a_real_case_and_a_broken_one_then_aggregate_and_gate() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JAVAX_TO_JAKARTA.build(&dir.path().join("repos/jakarta")).unwrap();
    let cache = dir.path().join("clone-cache");
    let url = "https://forge.invalid/acme/jakarta.git";
    let output = bin()
        .args(["eval", "cache", "add", url])
        .arg(dir.path().join("repos/jakarta"))
        .env("REWRITE_ASSIST_EVAL_CACHE", &cache)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(cache.join("forge.invalid/acme/jakarta.git").is_dir());
    let suite = dir.path().join("suites/two.yaml");
    write(
        &suite,
        &format!(
            "suite_name: two
defaults:
  timeout: 600
cases:
  - name: broken
    repo: ../repos/does-not-exist
    base: main
    head: migration
  - name: gone
    repo: file:///nonexistent/acme/gone.git
    base: {base}
    head: {head}
  - name: javax-to-jakarta
    repo: {url}
    base: {base}
    head: {head}
",
            base = fixture.base,
            head = fixture.head
        ),
    );
    let out = dir.path().join("out/shard-1");
    let output = bin()
        .args(["eval", "run", "--json", "--suite"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .arg("--cache")
        .arg(&cache)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("eval: [1/3] broken: error"), "{stderr}");
    assert!(stderr.contains("eval: [2/3] gone: skipped"), "{stderr}");
    assert!(stderr.contains(&format!("rewrite-assist: artifacts: {}", out.display())), "{stderr}");
    let shard = json_stdout(&output);
    schemas::assert_output("eval-shard", &String::from_utf8_lossy(&output.stdout));
    assert!(schemas::assert_documents(&out) >= 5, "the shard, its cases and the analysis in them");
    assert_eq!(shard["planned"], serde_json::json!(["broken", "gone", "javax-to-jakarta"]));
    assert_eq!(shard["totals"]["passed"], 1);
    assert_eq!(shard["totals"]["skipped"], 1);
    assert_eq!(shard, read_json(&out.join("shard-results.json")));

    let broken = read_json(&out.join("broken/case-result.json"));
    assert_eq!(broken["status"], "error");
    assert!(broken["reason"].as_str().unwrap().contains("does-not-exist: no such directory"), "{broken:#}");
    assert_eq!(broken["source"]["repo"], "../repos/does-not-exist");
    let gone = read_json(&out.join("gone/case-result.json"));
    assert_eq!(gone["status"], "skipped");
    assert!(gone["reason"].as_str().unwrap().starts_with("cannot clone file:///nonexistent/acme/gone.git"));

    let real = read_json(&out.join("javax-to-jakarta/case-result.json"));
    assert_eq!(real["status"], "passed", "{real:#}");
    assert_eq!(real["suite_name"], "two");
    assert_eq!(real["source"]["repo"], url);
    assert_eq!(real["backend"], "maven-plugin");
    assert!(real["recommended"]["f1"].as_f64().unwrap() >= 0.9, "{real:#}");
    for key in ["precision", "recall", "perfect_match", "semantic_share", "confidence"] {
        assert!(!real["recommended"][key].is_null(), "recommended.{key} missing: {real:#}");
    }
    let options = real["options"].as_array().unwrap();
    assert!(options.len() >= 2, "{real:#}");
    assert!(options.iter().all(|o| o["f1"].is_f64() && o["precision"].is_f64() && o["recall"].is_f64()));
    assert!(
        options.iter().all(|o| o["semantic_share"].is_f64() && o["backend"] == "maven-plugin"),
        "{real:#}"
    );
    assert_eq!(real["commits"]["base"], fixture.base.as_str());
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
    assert!(summary.contains("| gone | skipped | – |"), "{summary}");
    assert!(summary.contains("| maven-plugin |"), "{summary}");
    assert_eq!(schemas::assert_documents(&aggregated), 2, "suite-results.json and history.json");
    let results = read_json(&aggregated.join("suite-results.json"));
    assert_eq!(results["totals"]["cases"], 3);
    assert_eq!(results["totals"]["errors"], 1);
    assert_eq!(results["totals"]["skipped"], 1);
    let row = results["cases"].as_array().unwrap().iter().find(|c| c["name"] == "javax-to-jakarta").unwrap();
    assert_eq!(row["backend"], "maven-plugin");
    assert_eq!(row["options"].as_array().unwrap().len(), options.len());
    let f1 = real["recommended"]["f1"].as_f64().unwrap();
    assert_eq!(results["totals"]["avg_f1"].as_f64().unwrap(), ((f1 / 2.0) * 1e4).round() / 1e4);

    // Against itself as the baseline: the gate passes.
    let baseline = aggregated.join("suite-results.json");
    let output = aggregate(&[&out], &dir.path().join("again"), &["--baseline", baseline.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stdout).contains("**Regression gate: passed**"));

    // A baseline in which the broken case passed with a perfect, fully semantic recipe: every
    // gate trips (F1, semantic share, a pass lost); the skipped case is not compared.
    let mut better = results.clone();
    for case in better["cases"].as_array_mut().unwrap() {
        if case["name"] == "broken" {
            case["status"] = "passed".into();
            case["f1"] = 1.0.into();
            case["semantic_share"] = 1.0.into();
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
    assert!(
        stderr.contains("the average semantic share of the 2 cases in both dropped by 0.5000"),
        "{stderr}"
    );
    assert!(stderr.contains("no longer passing: broken"), "{stderr}");
    let gated = read_json(&dir.path().join("gated/suite-results.json"));
    assert_eq!(gated["comparison"]["regressed"], true);
    assert_eq!(gated["comparison"]["skipped"], serde_json::json!(["gone"]));
    let summary = std::fs::read_to_string(dir.path().join("gated/summary.md")).unwrap();
    assert!(
        summary.contains("| broken | worse | passed, F1 1.0000 | error, F1 0.0000 | -1.0000 | -1.0000 |"),
        "{summary}"
    );
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

/// `scripts/suite-from-tsv` turns a list of real PRs into a suite `eval run` loads: GitHub URLs,
/// full commit ids, the kind as a comment; a bad line is one clear error and exit code 2.
#[test]
fn real_pr_lists_become_suites() {
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/suite-from-tsv");
    let tsv = dir.path().join("prs.tsv");
    let (base, head) = ("a".repeat(40), "b".repeat(40));
    write(
        &tsv,
        &format!(
            "# id\trepo\tbase\thead\tkind\tfiles/+/-\nshop-jdk17\tacme/shop\t{base}\t{head}\tjava-17 (pom+CI)\t3/+4/-4\n\nlib-junit5\tacme/lib.java\t{head}\t{base}\tjunit4->junit5\t2/+9/-9\n"
        ),
    );
    let output = std::process::Command::new(&script).args(["demo-suite"]).arg(&tsv).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let yaml = String::from_utf8(output.stdout).unwrap();
    assert!(yaml.contains("  # java-17 (pom+CI); 3/+4/-4\n  - name: shop-jdk17\n"), "{yaml}");
    let suite = rewrite_assist::eval::suite::parse(&yaml, dir.path()).unwrap();
    assert_eq!(suite.name, "demo-suite");
    let sources: Vec<_> = suite.cases.iter().map(|c| (c.name.as_str(), c.written_source())).collect();
    assert_eq!(sources[0].0, "shop-jdk17");
    assert_eq!(sources[0].1.repo.as_deref(), Some("https://github.com/acme/shop.git"));
    assert_eq!(sources[0].1.base.as_deref(), Some(base.as_str()));
    assert_eq!(sources[1].1.repo.as_deref(), Some("https://github.com/acme/lib.java.git"));
    assert!(suite.pairs.is_empty());

    // Transfer pairs from a second file; a name that is not a case is refused.
    let pairs = dir.path().join("pairs.tsv");
    write(&pairs, "# from\tto\twhy\nshop-jdk17\tlib-junit5\tsame build\n");
    let output =
        std::process::Command::new(&script).args(["demo-suite"]).arg(&tsv).arg(&pairs).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let suite =
        rewrite_assist::eval::suite::parse(&String::from_utf8(output.stdout).unwrap(), dir.path()).unwrap();
    assert_eq!(suite.pairs.len(), 1);
    assert_eq!((suite.pairs[0].from.as_str(), suite.pairs[0].to.as_str()), ("shop-jdk17", "lib-junit5"));
    write(&pairs, "shop-jdk17\tnobody\n");
    let output =
        std::process::Command::new(&script).args(["demo-suite"]).arg(&tsv).arg(&pairs).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("pairs.tsv:1: `nobody` is not a case"));

    // Several lists join with commas, in order; a case named twice across them is refused.
    let more = dir.path().join("more.tsv");
    write(&more, &format!("cli-jdk17\tacme/cli\t{base}\t{head}\tjava-17\t1/+1/-1\n"));
    let both = format!("{},{}", tsv.display(), more.display());
    let output = std::process::Command::new(&script).args(["demo-suite", &both]).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let suite =
        rewrite_assist::eval::suite::parse(&String::from_utf8(output.stdout).unwrap(), dir.path()).unwrap();
    let names: Vec<&str> = suite.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["shop-jdk17", "lib-junit5", "cli-jdk17"]);
    write(&more, &format!("lib-junit5\tacme/other\t{base}\t{head}\n"));
    let output = std::process::Command::new(&script).args(["demo-suite", &both]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("more.tsv:1: case `lib-junit5` appears twice"));

    write(&tsv, "x\tacme/shop\tmain\tmigration\n");
    let output = std::process::Command::new(&script).args(["demo-suite"]).arg(&tsv).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("prs.tsv:1: base `main` is not a full commit id"), "{stderr}");
}

/// The committed real-PR suites load, and every case names a GitHub repository at two full
/// commit ids (so a run measures the same diff everywhere).
#[test]
fn the_committed_real_suites_pin_github_commits() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (name, min_cases, min_pairs) in
        [("real-maven", 10, 4), ("real-maven-transfer", 28, 34), ("real-gradle", 2, 0), ("ordinary", 12, 0)]
    {
        let suite =
            rewrite_assist::eval::suite::load(&root.join(format!("evals/suites/{name}.yaml"))).unwrap();
        assert_eq!(suite.name, name);
        assert!(suite.pairs.len() >= min_pairs, "{name}: {} pairs", suite.pairs.len());
        assert!(suite.cases.len() >= min_cases, "{name}: {} cases", suite.cases.len());
        for case in &suite.cases {
            let source = case.written_source();
            let repo = source.repo.as_deref().unwrap_or_default();
            assert!(
                repo.starts_with("https://github.com/") && repo.ends_with(".git"),
                "{}: {repo}",
                case.name
            );
            for commit in [&source.base, &source.head] {
                let commit = commit.as_deref().unwrap_or_default();
                assert!(commit.len() == 40 && commit.chars().all(|c| c.is_ascii_hexdigit()), "{}", case.name);
            }
        }
    }
}

/// The transfer score: the reusable recipe learned from one fixture PR (javax -> jakarta) runs on
/// the base of another repository whose PR makes the same migration and more (the demo: Java 17
/// too), and is scored against that PR; a pair whose case was skipped is said to be so. A rollout
/// target (a repository at a commit, no PR) is scored by what the recipe leaves of the old library
/// and the compile check alone. The aggregate carries the pairs and their averages into
/// `summary.md`.
#[test]
fn transfer_pairs_run_one_cases_reusable_recipe_on_anothers_pr() {
    let dir = tempfile::tempdir().unwrap();
    JAVAX_TO_JAKARTA.build(&dir.path().join("repos/jakarta")).unwrap();
    rewrite_assist::fixtures::scenarios::DEMO.build(&dir.path().join("repos/demo")).unwrap();
    JAVAX_TO_JAKARTA.build(&dir.path().join("repos/orders")).unwrap();
    let suite = dir.path().join("suites/pairs.yaml");
    write(
        &suite,
        "suite_name: pairs
cases:
  - { name: javax-to-jakarta, repo: ../repos/jakarta, base: main, head: migration }
  - { name: demo, repo: ../repos/demo, base: main, head: migration }
  - { name: gone, repo: file:///nonexistent/acme/gone.git, base: main, head: migration }
pairs:
  - { from: javax-to-jakarta, to: demo }
  - { from: demo, to: gone }
  - { from: javax-to-jakarta, to: orders }
targets:
  - { name: orders, repo: ../repos/orders, base: main }
",
    );
    let out = dir.path().join("out");
    let output = bin()
        .args(["eval", "run", "--json", "--backend", "embedded", "--suite"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("eval: transfer: 3 pairs"), "{stderr}");
    let shard = json_stdout(&output);
    let transfers = shard["transfers"].as_array().unwrap();
    assert_eq!(transfers.len(), 3, "{shard:#}");
    let ran = &transfers[0];
    assert_eq!((ran["from"].as_str(), ran["to"].as_str()), (Some("javax-to-jakarta"), Some("demo")));
    assert_eq!(ran["status"], "ran", "{ran:#}");
    assert!(ran["recipes"].as_u64().unwrap() >= 1, "{ran:#}");
    // The jakarta half of the demo's PR is reproduced, nothing else is touched; the Java 17 half
    // is not the recipe's to do.
    assert_eq!(ran["false_positives"], 0, "{ran:#}");
    assert_eq!(ran["precision"], 1.0, "{ran:#}");
    let recall = ran["recall"].as_f64().unwrap();
    assert!(recall > 0.3 && recall < 1.0, "{ran:#}");
    assert!(out.join("transfers/javax-to-jakarta--demo/stats.json").is_file());
    // What the first case's migration moves away from, measured on the second repository.
    assert!(ran["residual"]["before"].as_u64().unwrap() > 0, "{ran:#}");
    assert_eq!(ran["residual"]["after"], 0, "{ran:#}");
    assert_eq!(ran["unresolved_added"], 0, "{ran:#}");
    let skipped = &transfers[1];
    assert_eq!(skipped["status"], "skipped", "{skipped:#}");
    assert_eq!(skipped["reason"], "case `gone` skipped");
    let rollout = &transfers[2];
    assert_eq!(
        (rollout["status"].as_str(), rollout["rollout"].as_bool()),
        (Some("ran"), Some(true)),
        "{rollout:#}"
    );
    assert!(rollout["residual"]["before"].as_u64().unwrap() > 0, "{rollout:#}");
    assert_eq!(rollout["residual"]["after"], 0, "{rollout:#}");
    assert_eq!(rollout["unresolved_added"], 0, "{rollout:#}");

    let aggregated = dir.path().join("aggregate");
    let output = aggregate(&[&out], &aggregated, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let results = read_json(&aggregated.join("suite-results.json"));
    assert_eq!(results["transfer_totals"]["pairs"], 3);
    assert_eq!(results["transfer_totals"]["ran"], 2);
    // The rollout has no PR: it counts for what it leaves, not for precision and recall.
    assert_eq!(results["transfer_totals"]["avg_precision"], 1.0);
    assert_eq!(results["transfer_totals"]["avg_recall"], ran["recall"]);
    assert_eq!(results["transfer_totals"]["avg_residual_reduction"], 1.0);
    assert_eq!(results["transfer_totals"]["complete"], 2);
    let summary = std::fs::read_to_string(aggregated.join("summary.md")).unwrap();
    assert!(summary.contains("## Transfer"), "{summary}");
    assert!(summary.contains("| javax-to-jakarta | demo | ran | "), "{summary}");
    assert!(summary.contains("| demo | gone | skipped | "), "{summary}");
    assert!(summary.contains("| javax-to-jakarta | orders | rollout | "), "{summary}");
    assert!(summary.contains("average residual reduction **1.0000**"), "{summary}");
}

/// A batch keeps its runner from one case to the next, and a runner that dies costs its case
/// only. One worker, three cases: the second's base has the file the runner is told to crash on
/// (fault injection, `rewriteassist.runner.crashWhenParsing`); it gets the first case's runner
/// (its log says so), which dies on its parse; that case reports the crash, and the third case
/// runs on a new runner and passes like the first.
#[test]
fn a_runner_that_crashes_costs_its_case_only() {
    let dir = tempfile::tempdir().unwrap();
    JAVAX_TO_JAKARTA.build(&dir.path().join("repos/first")).unwrap();
    rewrite_assist::fixtures::scenarios::JUNIT4_TO_JUNIT5.build(&dir.path().join("repos/crashes")).unwrap();
    JAVAX_TO_JAKARTA.build(&dir.path().join("repos/third")).unwrap();
    let suite = dir.path().join("suites/crash.yaml");
    write(
        &suite,
        "suite_name: crash
cases:
  - { name: first, repo: ../repos/first, base: main, head: migration }
  - { name: crashes, repo: ../repos/crashes, base: main, head: migration }
  - { name: third, repo: ../repos/third, base: main, head: migration }
",
    );
    let out = dir.path().join("out");
    let output = bin()
        .args(["eval", "run", "--json", "--backend", "embedded", "--workers", "1", "--suite"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .env(
            "REWRITE_ASSIST_RUNNER_JAVA_OPTIONS",
            "-Drewriteassist.runner.crashWhenParsing=src/main/java/com/acme/calc/Calculator.java",
        )
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let shard = json_stdout(&output);
    let cases = shard["cases"].as_array().unwrap();
    let names: Vec<&str> = cases.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names, ["first", "crashes", "third"], "{shard:#}");
    assert_eq!(cases[0]["status"], "passed", "{shard:#}");
    assert_eq!(cases[2]["status"], "passed", "{shard:#}");
    assert_ne!(cases[1]["status"], "passed", "{shard:#}");
    let crashed = read_json(&out.join("crashes/case-result.json"));
    let reason = crashed["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("the runner stopped unexpectedly: exit status: 134"), "{crashed:#}");
    let log = std::fs::read_to_string(out.join("crashes/embedded-runner.log")).unwrap();
    assert!(log.contains("rewrite-assist: runner process") && log.contains("reused (session 2"), "{log}");
    assert!(log.contains("halting on purpose"), "{log}");
    // The first case's log is its own: nothing of the second's.
    let first = std::fs::read_to_string(out.join("first/embedded-runner.log")).unwrap();
    assert!(!first.contains("halting on purpose") && !first.contains("reused"), "{first}");
}
