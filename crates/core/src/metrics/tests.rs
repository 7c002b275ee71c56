use super::*;
use crate::diff::parse;

fn file(path: &str, body: &str) -> String {
    let removed = body.lines().filter(|l| !l.starts_with('+')).count();
    let added = body.lines().filter(|l| !l.starts_with('-')).count();
    format!("diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,{removed} +1,{added} @@\n{body}")
}

fn metrics(expected: &str, actual: &str) -> Metrics {
    compare(&parse(expected).unwrap(), &parse(actual).unwrap())
}

#[test]
fn identical_diffs_are_a_perfect_match() {
    let d = file("A.java", "-import javax.a.B;\n+import jakarta.a.B;\n");
    let m = metrics(&d, &d);
    assert_eq!((m.true_positives, m.false_positives, m.false_negatives), (2, 0, 0));
    assert_eq!((m.precision, m.recall, m.f1), (1.0, 1.0, 1.0));
    assert!(m.perfect_match);
}

#[test]
fn multiplicity_three_against_two() {
    let expected =
        file("A.java", "+import java.util.List;\n+import java.util.List;\n+import java.util.List;\n");
    let actual = file("A.java", "+import java.util.List;\n+import java.util.List;\n");
    let m = metrics(&expected, &actual);
    assert_eq!((m.true_positives, m.false_positives, m.false_negatives), (2, 0, 1));
    assert_eq!(m.precision, 1.0);
    assert_eq!(m.recall, 0.6667);
    assert_eq!(m.f1, 0.8);
    assert_eq!(m.false_negative_lines.len(), 1);
    assert_eq!(m.false_negative_lines[0].line, 3, "the excess occurrence is the last one");

    let m = metrics(&actual, &expected);
    assert_eq!((m.true_positives, m.false_positives, m.false_negatives), (2, 1, 0));
    assert_eq!(m.precision, 0.6667);
}

#[test]
fn line_numbers_are_ignored_content_is_exact() {
    let expected = "diff --git a/A b/A\n--- a/A\n+++ b/A\n@@ -10 +10 @@\n-x\n+  y\n";
    let actual = "diff --git a/A b/A\n--- a/A\n+++ b/A\n@@ -3 +3 @@\n-x\n+y\n";
    let m = metrics(expected, actual);
    assert_eq!((m.true_positives, m.false_positives, m.false_negatives), (1, 1, 1));
    assert_eq!(m.false_positive_lines[0].content, "y");
    assert_eq!(m.false_negative_lines[0].content, "  y");
}

#[test]
fn same_content_in_another_file_does_not_match() {
    let m = metrics(&file("A", "+x\n"), &file("B", "+x\n"));
    assert_eq!((m.true_positives, m.false_positives, m.false_negatives), (0, 1, 1));
    assert_eq!(m.files["A"], FileCounts { tp: 0, fp: 0, fn_: 1 });
    assert_eq!(m.files["B"], FileCounts { tp: 0, fp: 1, fn_: 0 });
}

#[test]
fn added_and_removed_are_different_changes() {
    let m = metrics(&file("A", "+x\n"), &file("A", "-x\n"));
    assert_eq!((m.true_positives, m.false_positives, m.false_negatives), (0, 1, 1));
}

#[test]
fn empty_diffs_give_zeros() {
    let m = metrics("", "");
    assert_eq!((m.true_positives, m.false_positives, m.false_negatives), (0, 0, 0));
    assert_eq!((m.precision, m.recall, m.f1), (0.0, 0.0, 0.0));
    assert!(m.perfect_match, "no FP and no FN");
    let m = metrics(&file("A", "+x\n"), "");
    assert_eq!((m.precision, m.recall, m.f1, m.perfect_match), (0.0, 0.0, 0.0, false));
}

#[test]
fn example_of_the_validation_document() {
    // 20 expected, 25 produced, 18 matched: P 0.72, R 0.9, F1 0.8.
    let mut expected = String::new();
    let mut actual = String::new();
    for i in 0..18 {
        expected.push_str(&format!("+same {i}\n"));
        actual.push_str(&format!("+same {i}\n"));
    }
    expected.push_str("+missed 1\n+missed 2\n");
    for i in 0..7 {
        actual.push_str(&format!("+extra {i}\n"));
    }
    let m = metrics(&file("F", &expected), &file("F", &actual));
    assert_eq!((m.true_positives, m.false_positives, m.false_negatives), (18, 7, 2));
    assert_eq!((m.precision, m.recall, m.f1), (0.72, 0.9, 0.8));
    assert_eq!((m.total_expected_changes, m.total_resulting_changes), (20, 25));
}

#[test]
fn renamed_file_changes_are_keyed_by_old_and_new_path() {
    let pr = "diff --git a/A.java b/B.java\nsimilarity index 80%\nrename from A.java\nrename to B.java\n--- a/A.java\n+++ b/B.java\n@@ -1 +1 @@\n-class A {}\n+class B {}\n";
    let m = metrics(pr, pr);
    assert!(m.perfect_match);
    assert_eq!(m.files["A.java"].tp, 1);
    assert_eq!(m.files["B.java"].tp, 1);
}

#[test]
fn rounding_matches_python() {
    assert_eq!(round4(0.03125), 0.0312);
    assert_eq!(round4(2.0 / 3.0), 0.6667);
    assert_eq!(round4(1.0 / 6.0), 0.1667);
    assert_eq!(round4(0.0), 0.0);
}

#[test]
fn text_report_mentions_counts_and_lines() {
    let m = metrics(&file("A", "+x\n+y\n"), &file("A", "+x\n+z\n"));
    let text = render_text(&m);
    assert!(text.contains("TP 1  FP 1  FN 1"), "{text}");
    assert!(text.contains("A:2 +z"), "{text}");
    assert!(text.contains("A:2 +y"), "{text}");
}

#[test]
fn blank_lines_of_layout_count_only_beyond_one_per_two_true_positives() {
    let line = |content: &str| ChangeLine {
        path: "A.java".into(),
        kind: ChangeKind::Added,
        line: 1,
        content: content.into(),
    };
    let fp = [line(""), line("   "), line("import a.B;")];
    let counted =
        |tp| counted_false_positives(tp, &fp).into_iter().map(|l| l.content.clone()).collect::<Vec<_>>();
    assert_eq!(counted(4), vec!["import a.B;"]);
    assert_eq!(counted(3), vec!["", "   ", "import a.B;"], "two blank lines need four true positives");
    assert!(counted_false_positives(0, &[]).is_empty());
}

#[test]
fn lines_no_recipe_can_make_are_outside_the_metric_both_ways() {
    // A Latin-1 line, as the diff's text holds it, on both sides (a recipe that rewrote the file
    // in UTF-8), and a submodule's pointer the PR moves.
    let latin1 = file("a.txt", "-caf\u{FFFD} old\n+caf\u{FFFD} new\n");
    let submodule = "diff --git a/lib b/lib\nindex 1..2 160000\n--- a/lib\n+++ b/lib\n@@ -1 +1 @@\n-Subproject commit aaa\n+Subproject commit bbb\n";
    let readme = file("README.md", "-old\n+new\n");
    let m = metrics(&format!("{latin1}{submodule}{readme}"), &format!("{latin1}{readme}"));
    assert_eq!((m.true_positives, m.false_positives, m.false_negatives), (2, 0, 0));
    assert!(m.perfect_match);
    assert_eq!(m.total_expected_changes, 2);
    let reasons: Vec<_> = m.unreproducible_lines.iter().map(|l| (l.line.path.as_str(), l.reason)).collect();
    assert_eq!(
        reasons,
        [
            ("a.txt", crate::diff::Unreproducible::NotUtf8),
            ("a.txt", crate::diff::Unreproducible::NotUtf8),
            ("lib", crate::diff::Unreproducible::Submodule),
            ("lib", crate::diff::Unreproducible::Submodule)
        ]
    );
    assert!(render_text(&m).contains("left out of the metric (no recipe can make them):"));
}

#[test]
fn a_file_too_large_to_analyze_is_outside_the_metric_both_ways() {
    let edit = file("A.java", "-import java.util.Vector;\n+import java.util.ArrayList;\n");
    let body: String = (0..crate::diff::bounds::MAX_FILE_LINES + 1).map(|i| format!("+{i}\n")).collect();
    let big = file("big.txt", &body);
    let expected = crate::diff::parse_pr(&format!("{edit}{big}")).unwrap();
    // A recipe that makes the real change and also touches the big file.
    let m = compare(&expected, &parse(&format!("{edit}{}", file("big.txt", "+0\n"))).unwrap());
    assert_eq!((m.true_positives, m.false_positives, m.false_negatives), (2, 0, 0));
    assert_eq!(m.f1, 1.0);
    let files: Vec<_> = m.unreproducible_files.iter().map(|f| (f.path.as_str(), f.lines, f.reason)).collect();
    assert_eq!(files, [("big.txt", 10_001, crate::diff::Unreproducible::TooLarge)]);
    assert!(m.unreproducible_lines.is_empty(), "listed by file, not line by line");
    assert!(
        render_text(&m).contains("files left out of the metric:\n  big.txt (10001 lines): a diff too large")
    );
}

#[test]
fn one_f1_and_one_migration_f1() {
    assert_eq!(f1(0.0, 0.0), 0.0);
    assert_eq!(round4(f1(0.8, 0.5)), 0.6154);
    let missed = |path: &str| ChangeLine {
        path: path.into(),
        kind: crate::diff::ChangeKind::Added,
        line: 1,
        content: "x".into(),
    };
    let metrics = Metrics {
        true_positives: 3,
        false_negatives: 2,
        precision: 0.75,
        false_negative_lines: vec![missed("README.md"), missed("src/A.java")],
        ..Metrics::default()
    };
    // No side work known: every missed line counts (3 / 5).
    let whole = migration_score(&metrics, Some(1.0), |_| false);
    assert_eq!((whole.recall, whole.f1), (0.6, 0.75));
    // The README is side work: 3 / 4.
    let migration = migration_score(&metrics, Some(1.0), |l| l.path == "README.md");
    assert_eq!((migration.recall, migration.f1), (0.75, 0.8571));
    // False positives not classified: the line precision.
    assert_eq!(migration_score(&metrics, None, |l| l.path == "README.md").f1, 0.75);
}
