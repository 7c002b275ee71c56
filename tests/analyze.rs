//! `rewrite-assist analyze` end to end: real git repositories with realistic migration PRs, real
//! OpenRewrite runs through Maven, the artifacts ARCHITECTURE.md names (docs/cli.md lists them).

mod common;
#[path = "common/schemas.rs"]
mod schemas;

use std::path::{Path, PathBuf};

use common::{bin, json_stdout};
use rewrite_assist::fixtures::Scenario;
use rewrite_assist::fixtures::scenarios::{
    COMMONS_LANG_SWAP, JAVA_11_TO_17, JAVAX_TO_JAKARTA, JUNIT4_TO_JUNIT5, SPRING_PROPERTY_RENAME,
};

struct Analyzed {
    _dir: tempfile::TempDir,
    out: PathBuf,
    code: Option<i32>,
    summary: serde_json::Value,
    stderr: String,
}

fn analyze(scenario: &Scenario, extra: &[&str]) -> Analyzed {
    let dir = tempfile::tempdir().unwrap();
    let fixture = scenario.build(&dir.path().join("repo")).unwrap();
    let out = dir.path().join("out");
    let output = bin()
        .args(["analyze", "--json", "--base", "main", "--head", "migration", "--repo"])
        .arg(&fixture.path)
        .arg("--out")
        .arg(&out)
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let summary = if output.stdout.is_empty() { serde_json::Value::Null } else { json_stdout(&output) };
    // Every document written, and the one printed, matches its committed schema.
    schemas::assert_documents(&out);
    if !output.stdout.is_empty() {
        schemas::assert_output("run-summary", &String::from_utf8_lossy(&output.stdout));
    }
    Analyzed { _dir: dir, out, code: output.status.code(), summary, stderr }
}

/// The recommended option reproduces the PR with F1 ≥ 0.9.
fn assert_recommended(run: &Analyzed) {
    assert_eq!(run.code, Some(0), "{}\n{:#}", run.stderr, run.summary);
    let r = &run.summary["recommended"];
    assert!(r["f1"].as_f64().unwrap() >= 0.9, "recommended F1 below 0.9: {:#}", run.summary);
    assert_eq!(r["confidence"], "recommended");
    for key in
        ["option", "precision", "recall", "perfect_match", "semantic_share", "migration_semantic_share"]
    {
        assert!(!r[key].is_null(), "recommended.{key} missing");
    }
}

fn read(out: &Path, name: &str) -> String {
    std::fs::read_to_string(out.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn javax_to_jakarta_with_every_artifact() {
    let run = analyze(&JAVAX_TO_JAKARTA, &[]);
    assert_recommended(&run);
    let s = &run.summary;
    assert_eq!(s["status"], "success", "{s:#}");
    assert_eq!(s["artifacts_dir"].as_str().unwrap(), run.out.canonicalize().unwrap().display().to_string());
    assert!(s["wall_seconds"].as_f64().unwrap() > 0.0);
    let options = s["options"].as_array().unwrap();
    assert!(options.len() >= 2, "{s:#}");
    for o in options {
        for key in [
            "option",
            "precision",
            "recall",
            "f1",
            "perfect_match",
            "semantic_share",
            "recipes",
            "wall_seconds",
        ] {
            assert!(!o[key].is_null(), "options[].{key} missing: {o:#}");
        }
    }

    // The layout of ARCHITECTURE.md (docs/cli.md lists the files).
    let out = &run.out;
    for name in [
        "pr.diff",
        "intent-tree.md",
        "intent-tree.json",
        "audit.jsonl",
        "workflow-metadata.json",
        "result/recommended-recipe.yaml",
        "result/recommended-recipe.diff",
        "result/pr.diff",
    ] {
        assert!(out.join(name).is_file(), "{name} missing");
    }
    for n in 1..=2 {
        for what in
            ["recipe.yaml", "recipe.diff", "stats.json", "creation-analysis.md", "validation-analysis.md"]
        {
            assert!(out.join(format!("option-{n}-{what}")).is_file(), "option-{n}-{what} missing");
        }
    }
    assert_eq!(read(out, "pr.diff"), read(out, "result/pr.diff"));
    let recommended = s["recommended"]["option"].as_u64().unwrap();
    assert_eq!(
        read(out, "result/recommended-recipe.diff"),
        read(out, &format!("option-{recommended}-recipe.diff")),
        "the recommended diff is the recommended option's"
    );
    let recipe = read(out, "result/recommended-recipe.yaml");
    assert!(recipe.contains("type: specs.openrewrite.org/v1beta/recipe"), "{recipe}");
    assert!(recipe.contains("newPackageName: \"jakarta.persistence\""), "{recipe}");

    // One audit line per phase, in order, each a JSON object.
    let phases: Vec<String> = read(out, "audit.jsonl")
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["phase"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(&phases[..5], ["setup", "intents", "compose_wide", "compose_narrow", "validate_candidates"]);
    assert_eq!(phases.last().map(String::as_str), Some("publish"));

    let metadata: serde_json::Value = serde_json::from_str(&read(out, "workflow-metadata.json")).unwrap();
    assert_eq!(metadata["status"], "success");
    assert_eq!(metadata["recommended"], s["recommended"]);
    assert_eq!(metadata["authors_way"], s["authors_way"], "the metadata holds the summary as it is");
    assert!(metadata["budgets"]["executions_used"].as_u64().unwrap() >= 2);

    let intents: serde_json::Value = serde_json::from_str(&read(out, "intent-tree.json")).unwrap();
    assert!(intents["coverage"].as_f64().unwrap() > 0.9);
    let narrow = read(out, "option-2-creation-analysis.md");
    assert!(narrow.contains("ChangePackage"), "{narrow}");
    let validation = read(out, "option-2-validation-analysis.md");
    assert!(validation.contains("## Metrics") && validation.contains("## Tests"), "{validation}");
}

#[test]
fn junit4_to_junit5() {
    assert_recommended(&analyze(&JUNIT4_TO_JUNIT5, &[]));
}

#[test]
fn java_version_bump_in_pom_workflow_and_dockerfile() {
    assert_recommended(&analyze(&JAVA_11_TO_17, &[]));
}

#[test]
fn dependency_swap() {
    assert_recommended(&analyze(&COMMONS_LANG_SWAP, &[]));
}

#[test]
fn spring_property_key_rename() {
    assert_recommended(&analyze(&SPRING_PROPERTY_RENAME, &[]));
}

#[test]
fn a_failing_option_does_not_fail_the_run() {
    // Every recipe module pinned to a version Maven Central does not have: option 1 (broad recipes
    // from those modules) cannot resolve them; option 2 uses recipes bundled with the plugin.
    let missing: Vec<String> = rewrite_assist::openrewrite::versions::MODULES
        .iter()
        .filter(|m| !m.bundled)
        .map(|m| format!("{}:{}:0.0.0-missing", m.group, m.artifact))
        .collect();
    let run = analyze(&JAVA_11_TO_17, &["--recipe-artifacts", &missing.join(",")]);
    assert_recommended(&run);
    let option1 = &run.summary["options"].as_array().unwrap()[0];
    assert_eq!(option1["option"], 1);
    let failed = option1["error"]["kind"] == "dependency_resolution"
        || !option1["dropped"].as_array().unwrap().is_empty();
    assert!(failed, "option 1 should have hit the missing artifacts: {option1:#}");
    assert_ne!(run.summary["recommended"]["option"], 1);
    assert!(run.out.join("workflow-metadata.json").is_file());
}

#[test]
fn bad_input_still_writes_the_metadata_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JAVAX_TO_JAKARTA.build(&dir.path().join("repo")).unwrap();
    let out = dir.path().join("out");
    let analyze = |head: &str, out: &Path| {
        let output = bin()
            .args(["analyze", "--base", "main", "--head", head, "--repo"])
            .arg(&fixture.path)
            .arg("--out")
            .arg(out)
            .output()
            .unwrap();
        (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let (code, stderr) = analyze("no-such-ref", &out);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("unknown ref `no-such-ref`") && stderr.lines().count() == 1, "{stderr}");
    let metadata: serde_json::Value = serde_json::from_str(&read(&out, "workflow-metadata.json")).unwrap();
    assert_eq!(metadata["status"], "failed");
    assert!(metadata["reason"].as_str().unwrap().contains("no-such-ref"));
    // Same PR twice: an empty diff is bad input too.
    let (code, stderr) = analyze("main", &dir.path().join("out-2"));
    assert_eq!(code, Some(2));
    assert!(stderr.contains("is empty"), "{stderr}");
    // An output directory holding an earlier run's files is refused: they could pass for this run's.
    let (code, stderr) = analyze("migration", &out);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("is not empty"), "{stderr}");
}

#[test]
fn refinement_restricts_an_over_applying_recipe_to_the_files_it_got_right() {
    let run = analyze(&rewrite_assist::fixtures::scenarios::TAGS_AS_SET, &[]);
    assert_recommended(&run);
    let options = run.summary["options"].as_array().unwrap();
    let f1 = |n: u64| options.iter().find(|o| o["option"] == n).map(|o| o["f1"].as_f64().unwrap());
    assert!(f1(2).unwrap() < 1.0, "ChangeType alone also rewrites Catalog.java: {:#}", run.summary);
    assert_eq!(f1(3), Some(1.0), "{:#}", run.summary);
    assert_eq!(run.summary["recommended"]["option"], 3);
    assert_eq!(run.summary["recommended"]["semantic_share"], 1.0, "still semantic recipes, only scoped");
    let recipe = read(&run.out, "result/recommended-recipe.yaml");
    assert!(
        recipe.contains("org.openrewrite.FindSourceFiles") && recipe.contains("Article.java"),
        "{recipe}"
    );
    assert!(run.out.join("refinement/round-1/option-3-recipe.yaml").is_file());
    let analysis = read(&run.out, "option-3-creation-analysis.md");
    assert!(analysis.contains("restricted"), "{analysis}");
}

#[test]
fn ctrl_c_stops_the_run_writes_the_metadata_and_exits_130() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;

    let dir = tempfile::tempdir().unwrap();
    let fixture = JAVAX_TO_JAKARTA.build(&dir.path().join("repo")).unwrap();
    let out = dir.path().join("out");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_rewrite-assist"))
        .args(["analyze", "--base", "main", "--head", "migration", "--repo"])
        .arg(&fixture.path)
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupt once a recipe run has started.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let started = || {
        ["option-1-build.log", "option-2-build.log"]
            .iter()
            .any(|f| std::fs::metadata(out.join(f)).map(|m| m.len() > 0).unwrap_or(false))
    };
    while !started() {
        assert!(std::time::Instant::now() < deadline, "no recipe run started");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", String::from_utf8_lossy(&output.stderr));
    let metadata: serde_json::Value = serde_json::from_str(&read(&out, "workflow-metadata.json")).unwrap();
    assert_eq!(metadata["status"], "failed");
    assert!(metadata["reason"].as_str().unwrap().contains("interrupted"), "{metadata:#}");
    assert!(
        !out.join("result/recommended-recipe.yaml").exists(),
        "nothing is recommended from a cut-short run"
    );
}
