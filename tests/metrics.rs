//! `rewrite-assist metrics`, end to end through the real binary.

mod common;
#[path = "common/schemas.rs"]
mod schemas;

use common::{bin, fixture, json_stdout};

#[test]
fn json_report_has_the_documented_fields_and_counts() {
    let output = bin()
        .args(["metrics", "--json", "--expected"])
        .arg(fixture("metrics/pr.diff"))
        .arg("--actual")
        .arg(fixture("metrics/recipe.diff"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let m = json_stdout(&output);
    schemas::assert_output("metrics", &String::from_utf8_lossy(&output.stdout));
    // pom: 3 removed lines match, 2 of 3 added match; Customer.java: 4 match; Order.java: 2 extra.
    assert_eq!(m["true_positives"], 9);
    assert_eq!(m["false_positives"], 3);
    assert_eq!(m["false_negatives"], 1);
    assert_eq!(m["total_expected_changes"], 10);
    assert_eq!(m["total_resulting_changes"], 12);
    assert_eq!(m["precision"], 0.75);
    assert_eq!(m["recall"], 0.9);
    assert_eq!(m["f1"], 0.8182);
    assert_eq!(m["perfect_match"], false);
    assert_eq!(m["files"]["pom.xml"], serde_json::json!({"tp": 5, "fp": 1, "fn": 1}));
    assert_eq!(m["files"]["src/main/java/com/acme/Order.java"]["fp"], 2);
    assert!(m["files"].get("docs/logo.png").is_none(), "binary sections are dropped");
    assert_eq!(m["false_negative_lines"][0]["content"], "      <version>3.1.0</version>");
    assert_eq!(m["false_negative_lines"][0]["kind"], "added");
    assert_eq!(m["false_positive_lines"].as_array().unwrap().len(), 3);
}

#[test]
fn text_report_is_short_and_readable() {
    let output = bin()
        .args(["metrics", "--expected"])
        .arg(fixture("metrics/pr.diff"))
        .arg("--actual")
        .arg(fixture("metrics/recipe.diff"))
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("precision 0.7500  recall 0.9000  F1 0.8182"), "{text}");
    assert!(text.contains("pom.xml:14 +      <version>3.1.0</version>"), "{text}");
}

#[test]
fn identical_diffs_are_a_perfect_match() {
    let pr = fixture("metrics/pr.diff");
    let output =
        bin().args(["metrics", "--json", "--expected"]).arg(&pr).arg("--actual").arg(&pr).output().unwrap();
    let m = json_stdout(&output);
    assert_eq!(m["f1"], 1.0);
    assert_eq!(m["perfect_match"], true);
}

#[test]
fn empty_diffs_are_valid_and_all_zero() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.diff");
    std::fs::write(&empty, "").unwrap();
    let output = bin()
        .args(["metrics", "--json", "--expected"])
        .arg(&empty)
        .arg("--actual")
        .arg(&empty)
        .output()
        .unwrap();
    assert!(output.status.success());
    let m = json_stdout(&output);
    assert_eq!(m["true_positives"], 0);
    assert_eq!(m["precision"], 0.0);
    assert_eq!(m["f1"], 0.0);
}

#[test]
fn missing_file_is_a_one_line_error_with_exit_2() {
    let output = bin()
        .args(["metrics", "--expected", "/nonexistent/pr.diff", "--actual"])
        .arg(fixture("metrics/recipe.diff"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot read /nonexistent/pr.diff"), "{stderr}");
    assert!(output.stdout.is_empty());
}

#[test]
fn a_file_that_is_not_a_diff_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let prose = dir.path().join("notes.txt");
    std::fs::write(&prose, "Just some notes.\nNothing to see here.\n").unwrap();
    let binary = dir.path().join("image.png");
    std::fs::write(&binary, [0x89u8, b'P', b'N', b'G', 0, 1, 2, 0xff, 0xfe]).unwrap();
    for bad in [&prose, &binary] {
        let output = bin()
            .args(["metrics", "--expected"])
            .arg(bad)
            .arg("--actual")
            .arg(fixture("metrics/pr.diff"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("not a unified diff"), "{stderr}");
    }
}

#[test]
fn a_directory_is_unreadable_input() {
    let dir = tempfile::tempdir().unwrap();
    let output = bin()
        .args(["metrics", "--expected"])
        .arg(dir.path())
        .arg("--actual")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn missing_flags_are_a_usage_error_with_exit_2() {
    let output = bin().args(["metrics", "--expected", "x.diff"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn help_and_version_exit_0() {
    bin().arg("--help").assert().success();
    bin().arg("--version").assert().success();
    bin().args(["metrics", "--help"]).assert().success();
}

/// Counts the reference analyzer (the Python script the metric is specified by, built on `unidiff`)
/// printed for these diffs: CRLF lines, a missing final newline, a binary file, a rename with an
/// edit, a deleted and a new file, 3 identical lines against 2, a duplicated section and
/// OpenRewrite's recipe names after `@@`.
#[test]
fn counts_agree_with_the_reference_analyzer() {
    let cases = [
        ("pr.diff", "recipe.diff", (9, 2, 8), (0.8182, 0.5294, 0.6429)),
        ("pr.diff", "recipe-dup.diff", (9, 2, 8), (0.8182, 0.5294, 0.6429)),
        ("pr.diff", "recipe-rewrite.diff", (9, 2, 8), (0.8182, 0.5294, 0.6429)),
        ("recipe.diff", "pr.diff", (9, 8, 2), (0.5294, 0.8182, 0.6429)),
    ];
    for (expected, actual, (tp, fp, fn_), (p, r, f1)) in cases {
        let output = bin()
            .args(["metrics", "--json", "--expected"])
            .arg(fixture(&format!("metrics/reference/{expected}")))
            .arg("--actual")
            .arg(fixture(&format!("metrics/reference/{actual}")))
            .output()
            .unwrap();
        let m = json_stdout(&output);
        let counts = (
            m["true_positives"].as_u64().unwrap(),
            m["false_positives"].as_u64().unwrap(),
            m["false_negatives"].as_u64().unwrap(),
        );
        assert_eq!(counts, (tp, fp, fn_), "{expected} vs {actual}");
        assert_eq!(
            (m["precision"].as_f64().unwrap(), m["recall"].as_f64().unwrap(), m["f1"].as_f64().unwrap()),
            (p, r, f1)
        );
        assert_eq!(m["perfect_match"], false);
    }
}
