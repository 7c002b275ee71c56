//! The embedded runner on real repositories: its parse time, the mean time of one more recipe on
//! the parsed trees, and the whole `analyze` (3 options, refinement included) against one no-op
//! plugin run (T_noop). Goal (issue #42): analyze with `--backend embedded` ≤ 1.0× T_noop, both warm
//! (T_noop after a warm-up run; the analyze with the runner's POM cache filled; the median of three
//! analyzes, back to back with T_noop), and ≤ 1.2× with an empty POM cache against T_noop with an
//! empty Maven repository. Also printed: the
//! same analyze with an empty POM cache (as on a new machine) and with `--backend auto`, and the
//! discovery phase on its own (its pool of 100+ recipes, part of each analyze) against T_noop
//! (goal ≤ 1.0, warm), and what measuring each whole run costs (the old library left and the compile
//! check, goal ≤ 10% of analyze), and warm analyze against one warm plugin run of option 1's recipe
//! (T_wide: the migration's own catalog recipes, the yardstick of the work analyze does; printed
//! only). And the first run on a new machine: the analyze with an empty POM cache
//! against T_noop with an empty Maven repository (goal ≤ 1.5), with the runner's request count.
//!
//! The repositories: `REWRITE_ASSIST_BENCH_REPO=PATH` with `REWRITE_ASSIST_BENCH_BASE` and
//! `REWRITE_ASSIST_BENCH_HEAD` (commits), else the `in28-springboot3-jakarta` and `quarkus-bot-jdk17`
//! cases of evals/suites/real-maven.yaml from the clone cache (`REWRITE_ASSIST_EVAL_CACHE`, see
//! evals/README.md). Without either it says so and measures nothing.

use std::path::{Path, PathBuf};

use rewrite_assist::fixtures::NOOP_RECIPE;

const CASES: [(&str, &str, &str); 2] = [
    (
        "github.com/in28minutes/spring-unit-testing-with-junit-and-mockito.git",
        "57d28414320354a60e7fd321b876f018ea9ad02b",
        "5dda0043e4c2f053be0f8ddb296d0c9fb61c80d8",
    ),
    (
        "github.com/quarkusio/quarkus-github-bot.git",
        "610c1b3cd8c776dddde8e84e72387d210d467e35",
        "27bca774b428be731c3b4c575f2da35296b2ba48",
    ),
];

/// Warm analyzes per repository; the ratio is their median's.
const WARM_RUNS: usize = 3;

mod common;

fn targets() -> Vec<(PathBuf, String, String)> {
    if let Ok(repo) = std::env::var("REWRITE_ASSIST_BENCH_REPO") {
        let base = std::env::var("REWRITE_ASSIST_BENCH_BASE").unwrap_or_default();
        let head = std::env::var("REWRITE_ASSIST_BENCH_HEAD").unwrap_or_default();
        return vec![(PathBuf::from(repo), base, head)];
    }
    let Ok(cache) = std::env::var("REWRITE_ASSIST_EVAL_CACHE") else { return Vec::new() };
    CASES
        .iter()
        .map(|(repo, base, head)| (Path::new(&cache).join(repo), base.to_string(), head.to_string()))
        .filter(|(repo, _, _)| repo.is_dir())
        .collect()
}

/// `[parse] N files in S s` and every `[step k] … in S s` line of the options' build logs.
fn runner_times(dir: &Path) -> (Option<f64>, Vec<f64>) {
    let mut parse = None;
    let mut steps = Vec::new();
    for n in 1..=3 {
        let Ok(log) = std::fs::read_to_string(dir.join(format!("option-{n}-build.log"))) else { continue };
        for line in log.lines() {
            let seconds = || {
                line.split(" in ")
                    .nth(1)
                    .and_then(|t| t.split_whitespace().next())
                    .and_then(|s| s.parse::<f64>().ok())
            };
            if line.starts_with("[parse]") && parse.is_none() {
                parse = seconds();
            } else if line.starts_with("[step") {
                steps.extend(seconds());
            }
        }
    }
    (parse, steps)
}

/// Seconds the runner spent parsing the PR's head files (its log's `head: … types in S s` lines).
fn head_parse_seconds(dir: &Path) -> Option<f64> {
    let log = std::fs::read_to_string(dir.join("embedded-runner.log")).ok()?;
    let times: Vec<f64> = log
        .lines()
        .filter(|l| l.contains("head: ") && l.contains(" Java files' types in "))
        .filter_map(|l| l.rsplit(" types in ").next()?.split_whitespace().next()?.parse().ok())
        .collect();
    (!times.is_empty()).then(|| times.iter().sum())
}

/// Seconds the runner spent measuring whole runs: counting the old library left (`residual
/// measured in S s`, its first count of the parsed trees included) and re-attributing the changed
/// files (`compile check in S s`), from its log.
fn measure_seconds(dir: &Path) -> Option<(f64, f64)> {
    let log = std::fs::read_to_string(dir.join("embedded-runner.log")).ok()?;
    let sum = |marker: &str| -> f64 {
        log.lines()
            .filter_map(|l| l.split(marker).nth(1)?.split_whitespace().next()?.parse::<f64>().ok())
            .sum()
    };
    let (residual, compile) = (sum("residual measured in "), sum("compile check in "));
    (residual + compile > 0.0).then_some((residual, compile))
}

/// The runner's network totals after its last request (the log's last `network so far: …`).
fn network(dir: &Path) -> Option<String> {
    let log = std::fs::read_to_string(dir.join("embedded-runner.log")).ok()?;
    log.lines().rev().find_map(|l| l.split("network so far: ").nth(1)).map(str::to_string)
}

/// The discovery phase's seconds and detail, from `audit.jsonl`.
fn discovery(dir: &Path) -> Option<(f64, String)> {
    let audit = std::fs::read_to_string(dir.join("audit.jsonl")).ok()?;
    audit.lines().filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()).find_map(|e| {
        (e["phase"] == "discover").then(|| {
            (e["seconds"].as_f64().unwrap_or(f64::NAN), e["detail"].as_str().unwrap_or("").to_string())
        })
    })
}

fn main() {
    let targets = targets();
    if targets.is_empty() {
        println!(
            "embedded: no repository (set REWRITE_ASSIST_BENCH_REPO/BASE/HEAD or fill the eval clone cache); nothing measured"
        );
    }
    for (repo, base, head) in targets {
        bench(&repo, &base, &head);
    }
}

/// Beside T_noop, the yardstick of the work `analyze` does: one warm plugin run of option 1's recipe
/// (the catalog's recipes for the migration, e.g. the Spring Boot umbrella), which is one of the
/// runs analyze makes besides the other options, discovery's pool and the reusable recipe. A no-op
/// run pays Maven's start and a parse only; where a migration's recipes take longer than that to
/// run once (in28: the Spring Boot 3.1 umbrella), T_noop is below what any tool that runs them
/// can reach. Printed only; the goal stays T_noop's.
fn wide_yardstick(repo: &Path, commits: (&str, &str), dir: &Path, analyze_out: &Path, analyze: f64) {
    let recipe = analyze_out.join("option-1-recipe.yaml");
    if !recipe.is_file() {
        return;
    }
    let recipe = recipe.display().to_string();
    let plugin = ["validate", "--backend", "plugin", "--recipe", &recipe];
    let mut seconds = f64::NAN;
    for run in ["wide-warm-up", "wide"] {
        let stats = common::run_json(&plugin, repo, commits, &dir.join(run), &[]);
        seconds = stats["timings"]["total_seconds"].as_f64().unwrap_or(f64::NAN);
    }
    println!(
        "embedded embedded warm analyze / T_wide(plugin) {:.2} (analyze {analyze:.1} s; one plugin run of option 1's recipe {seconds:.1} s, warm)",
        analyze / seconds
    );
}

/// The median of `values` (NaN when there are none).
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

fn bench(repo: &Path, base: &str, head: &str) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let recipe = dir.path().join("noop.yml");
    std::fs::write(&recipe, NOOP_RECIPE).expect("write recipe");
    let recipe = recipe.display().to_string();
    let noop = |name: &str, env: &[(&str, &Path)]| {
        let plugin = ["validate", "--backend", "plugin", "--recipe", &recipe];
        let stats = common::run_json(&plugin, repo, (base, head), &dir.path().join(name), env);
        stats["timings"]["total_seconds"].as_f64().unwrap_or(f64::NAN)
    };
    // A new machine: the plugin too starts from an empty Maven repository (it downloads itself,
    // the recipe modules and the project's dependencies), the yardstick for the cold analyze.
    let empty_maven = dir.path().join("empty-maven-repository");
    let cold_maven_opts = format!(
        "{} -Dmaven.repo.local={}",
        std::env::var("MAVEN_OPTS").unwrap_or_default(),
        empty_maven.display()
    );
    let cold_t_noop = noop("noop-cold", &[("MAVEN_OPTS", Path::new(&cold_maven_opts))]);
    noop("warm-up", &[]); // Maven's cache for this project
    let t_noop = noop("noop", &[]);
    let name = repo.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    println!(
        "embedded T_noop(plugin) {name}: warm {t_noop:.1} s, cold (empty Maven repository) {cold_t_noop:.1} s"
    );
    // First with an empty POM cache (every POM and version list from the network, as on a new
    // machine), then as a second run on the same machine, then `auto` (plus the plugin's confirmation).
    let empty_pom_cache = dir.path().join("empty-pom-cache");
    for (label, backend) in [("cold", "embedded"), ("embedded", "embedded"), ("auto", "auto")] {
        let out = dir.path().join(format!("analyze-{label}"));
        let env: &[(&str, &Path)] =
            if label == "cold" { &[("REWRITE_ASSIST_POM_CACHE", &empty_pom_cache)] } else { &[] };
        let runs = if label == "embedded" { WARM_RUNS } else { 1 };
        let mut walls = Vec::new();
        let mut summary = serde_json::Value::Null;
        for run in 0..runs {
            let out =
                if run + 1 == runs { out.clone() } else { dir.path().join(format!("analyze-{label}-{run}")) };
            summary = common::run_json(&["analyze", "--backend", backend], repo, (base, head), &out, env);
            walls.push(summary["wall_seconds"].as_f64().unwrap_or(f64::NAN));
        }
        if runs > 1 {
            let each: Vec<String> = walls.iter().map(|w| format!("{w:.1}")).collect();
            println!(
                "embedded {label:<8} {name}: warm analyze / T_noop {:.2} (median of {runs}: {} s; goal ≤ 1.00)",
                median(walls.clone()) / t_noop,
                each.join(", ")
            );
            wide_yardstick(repo, (base, head), dir.path(), &out, median(walls.clone()));
        }
        let wall = median(walls);
        let (parse, steps) = runner_times(&out);
        let mean = if steps.is_empty() { f64::NAN } else { steps.iter().sum::<f64>() / steps.len() as f64 };
        let goal = if label == "embedded" { " (goal ≤ 1.00)" } else { "" };
        println!(
            "embedded {label:<8} {name}: analyze {wall:.1} s vs T_noop(plugin) {t_noop:.1} s: ratio {:.2}{goal}; parse {:.1} s; {} step runs, mean {:.2} s per extra recipe; F1 {}",
            wall / t_noop,
            parse.unwrap_or(f64::NAN),
            steps.len(),
            mean,
            summary["recommended"]["f1"]
        );
        if label == "cold" {
            // The first run on a new machine against the plugin's first run there (goal ≤ 1.5),
            // and what the runner's network cost (requests, their summed time).
            println!(
                "embedded cold     {name}: analyze {wall:.1} s vs cold T_noop(plugin) {cold_t_noop:.1} s: ratio {:.2} (goal ≤ 1.20); network: {}",
                wall / cold_t_noop,
                network(&out).unwrap_or_default()
            );
        }
        if let Some(head) = head_parse_seconds(&out) {
            println!(
                "embedded {label:<8} head files parsed in {head:.1} s: {:.1}% of analyze (goal ≤ 15%: ratio {:.2})",
                100.0 * head / wall,
                head / wall / 0.15
            );
        }
        if let Some((residual, compile)) = measure_seconds(&out) {
            let share = (residual + compile) / wall;
            println!(
                "embedded {label:<8} old library counted in {residual:.1} s, compile check {compile:.1} s: {:.1}% of analyze (goal ≤ 10%: ratio {:.2})",
                100.0 * share,
                share / 0.10
            );
        }
        if let Some((seconds, detail)) = discovery(&out) {
            let goal = if label == "embedded" { " (goal ≤ 1.00)" } else { "" };
            println!(
                "embedded {label:<8} discovery {seconds:.1} s vs T_noop(plugin) {t_noop:.1} s: ratio {:.2}{goal}; {detail}",
                seconds / t_noop
            );
        }
    }
}
