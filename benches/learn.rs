//! Learned templates (#39): what learning costs inside `analyze`. The learned-templates test's
//! project (tests/fixtures/learned_templates: a Hamcrest → AssertJ PR in the author's own AssertJ
//! form, which no catalog recipe writes) is analyzed with `--backend embedded`, and the runner's
//! learning (pairing, anti-unification, compiling the templates, checking them on the base) is
//! printed as a share of the whole analyze (goal: ≤ 15%), with the whole `learn` phase (option 3's
//! validation with the learned recipe included) beside it.

use std::path::Path;

mod common;

const FILES: [&str; 4] = [
    "pom.xml",
    "src/main/java/com/acme/cart/Cart.java",
    "src/test/java/com/acme/cart/CartTest.java",
    "src/test/java/com/acme/cart/TotalTest.java",
];

fn fixture(side: &str, path: &str) -> String {
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/learned_templates").join(side).join(path);
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// The `learn` phase's seconds, outcome and detail, from `audit.jsonl`.
fn learn_phase(dir: &Path) -> Option<(f64, String, String)> {
    let audit = std::fs::read_to_string(dir.join("audit.jsonl")).ok()?;
    audit.lines().filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()).find_map(|e| {
        (e["phase"] == "learn").then(|| {
            (
                e["seconds"].as_f64().unwrap_or(f64::NAN),
                e["outcome"].as_str().unwrap_or("").to_string(),
                e["detail"].as_str().unwrap_or("").to_string(),
            )
        })
    })
}

fn main() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let repo = rewrite_assist::fixtures::RepoBuilder::init(&dir.path().join("repo")).expect("repository");
    for path in FILES {
        repo.write(path, fixture("before", path)).expect("write");
    }
    repo.commit("base").expect("commit");
    repo.branch("migration").expect("branch");
    for path in &FILES[2..] {
        repo.write(path, fixture("after", path)).expect("write");
    }
    repo.commit("Hamcrest to AssertJ").expect("commit");
    // The first analyze builds the runner and fills the caches; the second is measured.
    for (round, name) in ["warm-up", "measured"].into_iter().enumerate() {
        let out = dir.path().join(name);
        let args = ["analyze", "--backend", "embedded"];
        let summary = common::run_json(&args, repo.path(), ("main", "migration"), &out, &[]);
        if round == 0 {
            continue;
        }
        let wall = summary["wall_seconds"].as_f64().unwrap_or(f64::NAN);
        let Some((phase, outcome, detail)) = learn_phase(&out) else {
            println!("learn: no learn phase in the analyze ({wall:.1} s); nothing measured");
            return;
        };
        // The runner's own time: pairing, anti-unifying, compiling and checking the templates.
        let learned = std::fs::read_to_string(out.join("learned/learned.json")).unwrap_or_default();
        let learned: serde_json::Value = serde_json::from_str(&learned).unwrap_or_default();
        let seconds = learned["seconds"].as_f64().unwrap_or(f64::NAN);
        println!(
            "learn: learning and compiling templates {seconds:.1} s of analyze {wall:.1} s: {:.1}% (goal ≤ 15%: ratio {:.2}); the whole learn phase with option 3's validation {phase:.1} s ({outcome}); learned share {}; {detail}",
            100.0 * seconds / wall,
            seconds / wall / 0.15,
            summary["recommended"]["learned_share"]
        );
    }
}
