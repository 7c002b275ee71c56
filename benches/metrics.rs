//! Metrics on two generated diffs of 50,000 changed lines each. Goal: under 200 ms.
//! Run with `scripts/bench` (or `cargo bench --bench metrics`).

use std::fmt::Write;
use std::time::Instant;

const FILES: usize = 500;
const CHANGES_PER_FILE: usize = 100;

/// A diff of FILES files, each with CHANGES_PER_FILE changed lines (half removed, half added).
/// `variant` changes every 7th added line so the two diffs overlap but are not identical.
fn generate(variant: usize) -> String {
    let mut out = String::new();
    for f in 0..FILES {
        let path = format!("src/main/java/com/acme/module{}/Type{f}.java", f % 17);
        let pairs = CHANGES_PER_FILE / 2;
        let _ = write!(
            out,
            "diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n--- a/{path}\n+++ b/{path}\n"
        );
        let _ = writeln!(out, "@@ -1,{} +1,{} @@ com.example.Recipe", pairs + 2, pairs + 2);
        out.push_str(" package com.acme;\n");
        for i in 0..pairs {
            let _ = writeln!(out, "-import javax.persistence.Type{i};");
        }
        for i in 0..pairs {
            if variant > 0 && i % 7 == 0 {
                let _ = writeln!(out, "+import jakarta.persistence.Other{i};");
            } else {
                let _ = writeln!(out, "+import jakarta.persistence.Type{i};");
            }
        }
        out.push_str(" // end\n");
    }
    out
}

fn main() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let expected = dir.path().join("pr.diff");
    let actual = dir.path().join("recipe.diff");
    std::fs::write(&expected, generate(0)).expect("write");
    std::fs::write(&actual, generate(1)).expect("write");

    let runs = 5;
    let mut best = f64::MAX;
    let mut metrics = None;
    for _ in 0..runs {
        let start = Instant::now();
        let e = rewrite_assist::diff::read_file(&expected).expect("parse expected");
        let a = rewrite_assist::diff::read_file(&actual).expect("parse actual");
        let m = rewrite_assist::metrics::compare(&e, &a);
        best = best.min(start.elapsed().as_secs_f64());
        metrics = Some(m);
    }
    let m = metrics.expect("ran at least once");
    let goal = 0.200;
    println!(
        "metrics: {} vs {} changed lines: best of {runs} {:.1} ms (goal {:.0} ms, ratio {:.2}) tp={} fp={} fn={}",
        m.total_expected_changes,
        m.total_resulting_changes,
        best * 1000.0,
        goal * 1000.0,
        best / goal,
        m.true_positives,
        m.false_positives,
        m.false_negatives
    );
}
