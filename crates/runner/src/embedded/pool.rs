//! Runner processes kept alive between the sessions of one batch (`eval run`, `apply`, `learn`):
//! a session that ends gives its process back, and the next session (another case, another
//! repository) sends its parse to it instead of starting a JVM. What a runner keeps between
//! sessions is what does not depend on the repository: the JIT's work, the classpath's recipes
//! (read once per process), the POMs and version lists it resolved, JGit's measure of the file
//! system. The trees are the session's: its first request parses, and the runner drops the old
//! trees before it does.
//!
//! A runner that crashed or timed out is never given back (its session drops it: the process
//! group is killed), so a crash costs that case only. A leak is bounded: a runner serves at most
//! [`RESTART_AFTER_ENV`] sessions (default [`RESTART_AFTER`]), and one whose resident memory has
//! grown past twice its heap limit is retired too. Without [`keep_runners`] (`analyze` alone)
//! nothing is kept: each session starts its own runner and ends it.

use std::sync::Mutex;

use super::session::{Launch, Process};

/// After how many sessions a runner is retired and a new one started (a bound on leaks: classes of
/// learned jars, caches that only grow).
pub(crate) const RESTART_AFTER: usize = 20;
/// Overrides [`RESTART_AFTER`].
pub(crate) const RESTART_AFTER_ENV: &str = "REWRITE_ASSIST_RUNNER_RESTART_AFTER";

/// The idle runners, while a batch keeps them.
struct Pool {
    /// At most this many idle runners are kept (the batch's workers).
    capacity: usize,
    idle: Vec<Process>,
}

static POOL: Mutex<Option<Pool>> = Mutex::new(None);

/// While the returned guard lives, sessions give their runner back when they end and take an idle
/// one when they start; at most `workers` idle runners are kept. Dropping the guard ends them.
#[must_use = "runners are kept only while the guard lives"]
pub fn keep_runners(workers: usize) -> Kept {
    if let Ok(mut pool) = POOL.lock() {
        *pool = Some(Pool { capacity: workers.max(1), idle: Vec::new() });
    }
    Kept { workers: workers.max(1) }
}

/// Keeps runners alive until dropped ([`keep_runners`]).
pub struct Kept {
    workers: usize,
}

impl Kept {
    /// How many runners may work at once.
    pub fn workers(&self) -> usize {
        self.workers
    }
}

impl Drop for Kept {
    fn drop(&mut self) {
        let idle = POOL.lock().ok().and_then(|mut pool| pool.take()).map(|p| p.idle).unwrap_or_default();
        drop(idle); // each process's group is killed as it drops
    }
}

/// The workers a batch uses when not told: one per CPU, at most one per 6 GiB of memory (each
/// runner's heap is half of its share: 3 GiB, what a mid-size Spring project's trees need).
pub fn default_workers() -> usize {
    let cpus = std::thread::available_parallelism().map(usize::from).unwrap_or(1);
    let gib = super::session::total_memory_mib().map_or(6, |mib| (mib / 1024) as usize);
    cpus.min(gib / 6).max(1)
}

/// How many runners work at once while a batch keeps them (1 otherwise): the heap limit's default
/// is shared among them.
pub(crate) fn workers() -> usize {
    POOL.lock().ok().and_then(|pool| pool.as_ref().map(|p| p.capacity)).unwrap_or(1)
}

/// An idle runner started the way `launch` says, still running, when a batch keeps runners.
pub(crate) fn take(launch: &Launch) -> Option<Process> {
    let mut pool = POOL.lock().ok()?;
    let pool = pool.as_mut()?;
    let index = pool.idle.iter().position(|p| p.launch() == launch)?;
    let mut process = pool.idle.swap_remove(index);
    process.is_running().then_some(process)
}

/// Gives a healthy runner back (kept when a batch keeps runners, it has served fewer than the
/// limit's sessions and its memory is within bounds; else it ends).
pub(crate) fn give_back(mut process: Process) {
    if !process.is_running() || process.sessions() >= restart_after() || process.grown_past_its_heap() {
        return;
    }
    let Ok(mut pool) = POOL.lock() else { return };
    let Some(pool) = pool.as_mut() else { return };
    pool.idle.push(process);
    while pool.idle.len() > pool.capacity {
        pool.idle.remove(0);
    }
}

fn restart_after() -> usize {
    std::env::var(RESTART_AFTER_ENV)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(RESTART_AFTER)
}
