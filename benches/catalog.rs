//! The recipe catalog at start-up and under search. Goals: loading the catalog analyses use
//! (decoding the embedded snapshot, reading the full one from the user's cache and checking it
//! against the embedded one) and building the search index under 500 ms; one multi-query search
//! (three phrasings, cold cache) under 20 ms. Run with `scripts/bench` (or `cargo bench --bench
//! catalog`).

use std::time::Instant;

use rewrite_assist::catalog::{Catalog, Snapshot, snapshot};

const RUNS: usize = 5;
const QUERIES: [&str; 3] =
    ["upgrade spring boot 3", "Migrate javax.persistence to jakarta.persistence", "bump java to 17"];

fn ms(seconds: f64) -> String {
    format!("{:.1} ms", seconds * 1000.0)
}

fn main() {
    let mut decode = f64::MAX;
    let mut startup = f64::MAX;
    let mut search = f64::MAX;
    let mut cached = f64::MAX;
    let mut recipes = 0;
    let mut hits = 0;
    // The first load on a machine reads the MSAL modules' text from their jars (a Maven run, once):
    // not what start-up costs afterwards.
    Catalog::load();
    for _ in 0..RUNS {
        let start = Instant::now();
        // `Catalog::load` finds the embedded snapshot decoded already (once per process): decode
        // it here so that each run pays for it, as every process does.
        Snapshot::decode(snapshot::EMBEDDED).expect("embedded snapshot");
        decode = decode.min(start.elapsed().as_secs_f64());
        let catalog = Catalog::load();
        catalog.warm_up();
        startup = startup.min(start.elapsed().as_secs_f64());
        recipes = catalog.len();

        let start = Instant::now();
        hits = catalog.search(&QUERIES, 10, 0.0).len();
        search = search.min(start.elapsed().as_secs_f64());

        let start = Instant::now();
        catalog.search(&QUERIES, 10, 0.0);
        cached = cached.min(start.elapsed().as_secs_f64());
    }
    let (startup_goal, search_goal) = (0.500, 0.020);
    println!(
        "catalog start-up ({recipes} recipes): best of {RUNS} {} (decode {}; goal {}, ratio {:.2})",
        ms(startup),
        ms(decode),
        ms(startup_goal),
        startup / startup_goal
    );
    println!(
        "catalog search ({} phrasings, cold cache, {hits} hits): best of {RUNS} {} (goal {}, ratio {:.2}); cached {}",
        QUERIES.len(),
        ms(search),
        ms(search_goal),
        search / search_goal,
        ms(cached)
    );
}
