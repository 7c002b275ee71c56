//! Wall time of `analyze` against T_noop (a validate run whose recipe changes nothing) on the same
//! fixtures, printed as a ratio, with the plugin backend (benches/embedded.rs measures the embedded
//! one on a real repository). Goal: ≤ 3× T_noop. Run with `scripts/bench`
//! (or `cargo bench --bench analyze`). Maven's cache is warmed first.

use std::path::Path;

use rewrite_assist::fixtures::NOOP_RECIPE;
use rewrite_assist::fixtures::scenarios::{DEMO, JAVA_11_TO_17, JAVAX_TO_JAKARTA, Scenario};

mod common;

fn run_json(args: &[&str], repo: &Path, out: &Path) -> serde_json::Value {
    common::run_json(args, repo, ("main", "migration"), out, &[])
}

fn t_noop(repo: &Path, work: &Path) -> f64 {
    let recipe = work.join("noop.yml");
    std::fs::write(&recipe, NOOP_RECIPE).expect("write recipe");
    let recipe = recipe.display().to_string();
    let stats = run_json(&["validate", "--backend", "plugin", "--recipe", &recipe], repo, &work.join("noop"));
    stats["timings"]["total_seconds"].as_f64().unwrap_or(f64::NAN)
}

fn bench(scenario: &Scenario, root: &Path) {
    let work = root.join(scenario.name);
    let fixture = scenario.build(&work.join("repo")).expect("fixture");
    t_noop(&fixture.path, &work); // warms the Maven cache for this project's dependencies
    let noop = t_noop(&fixture.path, &work);
    let summary = run_json(&["analyze", "--backend", "plugin"], &fixture.path, &work.join("analyze"));
    let wall = summary["wall_seconds"].as_f64().unwrap_or(f64::NAN);
    let runs: Vec<String> = summary["options"]
        .as_array()
        .map(|o| o.iter().map(|o| format!("option {} F1 {}", o["option"], o["f1"])).collect())
        .unwrap_or_default();
    println!(
        "analyze {:<18} {wall:.1} s vs T_noop {noop:.1} s: ratio {:.2} (goal ≤ 3.00); {}",
        scenario.name,
        wall / noop,
        runs.join(", ")
    );
}

fn main() {
    let dir = tempfile::tempdir().expect("temporary directory");
    for scenario in [&JAVAX_TO_JAKARTA, &JAVA_11_TO_17, &DEMO] {
        bench(scenario, dir.path());
    }
}
