//! A PR that changes one Java import and adds one 11 MB text file, through the real binary with the
//! embedded runner: the data file is too large to read line by line, so it is left out of the
//! intents, the recipes and the metric (and listed as such), the run stays within `--max-wall`,
//! the artifacts stay small, and the Java change is still measured. Before the bounds, the run
//! spent minutes in refinement on the file's 180,000 lines and wrote over 100 MB.

mod common;

use std::path::Path;
use std::time::Duration;

const MAX_WALL: u64 = 90;
/// What the run directory may hold at most, stated in docs/cli.md's limits.
const MAX_ARTIFACTS: u64 = 50 << 20;

const POM: &str = "<project><modelVersion>4.0.0</modelVersion><groupId>com.acme</groupId><artifactId>app</artifactId><version>1</version></project>\n";

fn app(ty: &str) -> String {
    format!("package com.acme;\n\nimport java.util.{ty};\n\nclass App {{\n    {ty}<String> names;\n}}\n")
}

/// About 11 MB of generated text lines.
fn big_text() -> String {
    let mut text = String::with_capacity(11 << 20);
    let mut i = 0u64;
    while text.len() < 11 << 20 {
        text.push_str(&format!(
            "line {i} of generated text, lorem ipsum dolor sit amet {}\n",
            i * 7919 % 100_003
        ));
        i += 1;
    }
    text
}

fn size_of(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let meta = entry.metadata().unwrap();
            if meta.is_dir() { size_of(&entry.path()) } else { meta.len() }
        })
        .sum()
}

/// Runs `command`, ended (SIGTERM, as Ctrl-C) when it is still running `limit` after its start.
fn output_within(mut command: std::process::Command, limit: Duration, out: &Path) -> std::process::Output {
    use std::process::Stdio;
    let child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(limit) {
        Ok(output) => output.unwrap(),
        Err(_) => {
            let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
            let _ = rx.recv_timeout(Duration::from_secs(30));
            let audit = std::fs::read_to_string(out.join("audit.jsonl")).unwrap_or_default();
            panic!(
                "analyze still ran {limit:?} after its start (--max-wall {MAX_WALL}); phases so far:\n{audit}"
            );
        }
    }
}

#[test]
fn an_11_mb_file_is_left_out_and_the_run_keeps_its_wall_and_disk_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let big = big_text();
    let repo = common::pr_repo(
        &dir.path().join("repo"),
        &[("pom.xml", POM), ("src/main/java/com/acme/App.java", &app("Vector"))],
        &[("src/main/java/com/acme/App.java", &app("ArrayList")), ("data/big.txt", &big)],
    );
    let out = dir.path().join("out");
    let mut command = common::analyze_embedded_std(repo.path(), &out);
    command.args(["--max-wall", &MAX_WALL.to_string()]);
    let output = output_within(command, Duration::from_secs(MAX_WALL + 30), &out);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let summary = common::json_stdout(&output);

    // Within the wall, and the artifacts far from the file's size, let alone 1 GB.
    assert!(summary["wall_seconds"].as_f64().unwrap() < MAX_WALL as f64, "{summary:#}");
    let written = size_of(&out);
    assert!(written < MAX_ARTIFACTS, "{written} bytes of artifacts");
    assert!(written < big.len() as u64 / 4, "{written} bytes of artifacts: the file is in them");

    // The Java change is measured as usual.
    let recommended = &summary["recommended"];
    assert_eq!(recommended["f1"], 1.0, "{summary:#}");
    assert_eq!(summary["status"], "success", "{summary:#}");

    // The file is named as left out, with its size, wherever the analysis reports.
    let lines = big.lines().count();
    let left_out = serde_json::json!([{"path": "data/big.txt", "reason": "too_large", "lines": lines}]);
    let tree: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("intent-tree.json")).unwrap()).unwrap();
    assert_eq!(tree["unreproducible"], left_out, "{tree:#}");
    let stats_name = format!("option-{}-stats.json", recommended["option"]);
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join(stats_name)).unwrap()).unwrap();
    assert_eq!(stats["metrics"]["unreproducible_files"], left_out, "{stats:#}");
    assert_eq!(stats["metrics"]["total_expected_changes"], 4, "only the Java file's lines are counted");
    let md = std::fs::read_to_string(out.join("intent-tree.md")).unwrap();
    assert!(md.contains("## Files left out: too large to analyze (1)\n\n- `data/big.txt` ("), "{md}");
    let pr_diff = std::fs::read_to_string(out.join("pr.diff")).unwrap();
    assert!(pr_diff.starts_with("# rewrite-assist left 1 file out of this diff"), "{pr_diff:.500}");
    assert!(!pr_diff.contains("lorem ipsum"), "the file's lines are not in pr.diff");
    assert!(
        stderr.contains("left out of the analysis, too large to read line by line: data/big.txt"),
        "{stderr}"
    );
}
