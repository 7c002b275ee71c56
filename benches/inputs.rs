//! Hostile input sizes: the diff parser and the recipe-file checks, timed at growing sizes up to
//! their limits (64 MiB diffs; recipe files of 16 MiB, nesting 64, 10,000 steps), and past them
//! (refused). Each series prints its time per unit at every size and the ratio of the largest
//! size's to the smallest's (goal ≤ 2: linear; quadratic parsing would show the size ratio).
//! Run with `scripts/bench` (or `cargo bench --bench inputs`).

use std::fmt::Write;
use std::time::Instant;

/// A diff of `files` files of 100 changed lines each (about 6 KB per file).
fn diff(files: usize) -> String {
    let mut out = String::new();
    for f in 0..files {
        let path = format!("src/main/java/com/acme/m{}/Type{f}.java", f % 17);
        let _ = write!(
            out,
            "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,52 +1,52 @@\n package com.acme;\n"
        );
        for i in 0..50 {
            let _ = writeln!(out, "-import javax.persistence.Type{i};");
        }
        for i in 0..50 {
            let _ = writeln!(out, "+import jakarta.persistence.Type{i};");
        }
        out.push_str(" // end\n");
    }
    out
}

const HEAD: &str = "type: specs.openrewrite.org/v1beta/recipe\nname: com.example.Many\nrecipeList:\n";

fn steps(n: usize) -> String {
    let mut out = HEAD.to_string();
    for i in 0..n {
        let _ =
            write!(out, "  - org.openrewrite.text.FindAndReplace:\n      find: a{i}\n      replace: b{i}\n");
    }
    out
}

fn nested(depth: usize) -> String {
    format!("{HEAD}  - a.B:\n      x: {}1{}\n", "[".repeat(depth), "]".repeat(depth))
}

/// Best of three runs of `f`, in seconds.
fn best(f: &mut dyn FnMut()) -> f64 {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

/// Times `run` on the input `make` builds for each size (building it is not timed), prints one
/// line per size and the per-unit ratio.
fn series(
    name: &str,
    unit: &str,
    sizes: &[usize],
    make: &mut dyn FnMut(usize) -> String,
    run: &mut dyn FnMut(&str) -> String,
) {
    let mut per_unit = Vec::new();
    for &size in sizes {
        let input = make(size);
        let mut outcome = String::new();
        let seconds = best(&mut || outcome = run(&input));
        per_unit.push(seconds / size as f64);
        println!(
            "{name}: {size} {unit}: {:.1} ms ({:.3} µs per {unit}) {outcome}",
            seconds * 1e3,
            seconds / size as f64 * 1e6
        );
    }
    if let [first, .., last] = per_unit[..] {
        println!("{name}: time per {unit}, largest / smallest size: {:.2} (goal ≤ 2)", last / first);
    }
}

fn main() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let per_file = diff(1).len();
    // The diff is written to a file of its own per size; the timed part reads and parses it. The
    // smallest is 4 MiB, past the CPU caches (a 1 MiB diff parses ~1.5x faster per byte).
    let mut write_diff = |kib: usize| {
        let path = dir.path().join(format!("pr-{kib}.diff"));
        std::fs::write(&path, diff(kib * 1024 / per_file)).expect("write");
        path.display().to_string()
    };
    let mut read_diff = |path: &str| match rewrite_assist::diff::read_file(std::path::Path::new(path)) {
        Ok(d) => format!("({} files)", d.files.len()),
        Err(e) => format!("(refused: {e})"),
    };
    series("diff", "KiB", &[4 << 10, 16 << 10, 30 << 10, 60 << 10], &mut write_diff, &mut read_diff);
    series("diff over the limit", "KiB", &[80 << 10], &mut write_diff, &mut read_diff);
    let mut check = |text: &str| match rewrite_assist::openrewrite::check_recipe_file(text) {
        Ok(recipes) => format!("({recipes} recipe)"),
        Err(e) => format!("(refused: {e})"),
    };
    series("recipe steps", "step", &[1_000, 3_000, 9_000], &mut steps, &mut check);
    series(
        "recipe steps over the limit",
        "step",
        &[250_000],
        &mut |n| format!("{HEAD}{}", "  - a.B\n".repeat(n)),
        &mut check,
    );
    series("recipe nesting (refused)", "level", &[1_000, 10_000, 100_000, 200_000], &mut nested, &mut check);
}
