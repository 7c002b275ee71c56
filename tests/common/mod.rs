//! Helpers shared by the integration tests: the real binary, and small git repositories built
//! on the fly.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The real `rewrite-assist` binary with a clean, colour-free environment. The tests written for
/// the plugin backend get it explicitly (`auto` is the default); tests of the embedded runner pass
/// `--backend`, which wins over the environment.
pub fn bin() -> Command {
    Command::from_std(bin_std())
}

/// [`bin`] as a `std` command, for tests that spawn it and watch it run.
pub fn bin_std() -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("rewrite-assist"));
    cmd.env("NO_COLOR", "1").env_remove("RUST_LOG").env("REWRITE_ASSIST_BACKEND", "plugin");
    cmd
}

/// What `validate` and `analyze` take to run the embedded runner on the PR `main..migration` of
/// the repository that follows.
const EMBEDDED_ON_THE_PR: [&str; 8] =
    ["--json", "--backend", "embedded", "--base", "main", "--head", "migration", "--repo"];

/// `validate --json --backend BACKEND` of `recipe` on the PR `main..migration` of `repo`;
/// `global` options (e.g. `--pass-env`) go before the command.
pub fn validate_on_the_pr(backend: &str, global: &[&str], repo: &Path, recipe: &Path, out: &Path) -> Command {
    Command::from_std(validate_on_the_pr_std(backend, global, repo, recipe, out))
}

/// [`validate_on_the_pr`] as a `std` command, for tests that spawn it and watch it run.
pub fn validate_on_the_pr_std(
    backend: &str,
    global: &[&str],
    repo: &Path,
    recipe: &Path,
    out: &Path,
) -> std::process::Command {
    let mut command = bin_std();
    command
        .args(global)
        .args(["validate", "--json", "--backend", backend, "--base", "main", "--head", "migration", "--repo"])
        .arg(repo)
        .arg("--recipe")
        .arg(recipe)
        .arg("--out")
        .arg(out);
    command
}

/// `validate --json` with the embedded runner, of `recipe` on the PR `main..migration` of `repo`;
/// `global` options (e.g. `--pass-env`) go before the command.
pub fn validate_embedded(global: &[&str], repo: &Path, recipe: &Path, out: &Path) -> Command {
    Command::from_std(validate_embedded_std(global, repo, recipe, out))
}

/// [`validate_embedded`] as a `std` command, for tests that spawn it and watch it run.
pub fn validate_embedded_std(
    global: &[&str],
    repo: &Path,
    recipe: &Path,
    out: &Path,
) -> std::process::Command {
    validate_on_the_pr_std("embedded", global, repo, recipe, out)
}

/// `analyze --json` with the embedded runner on the PR `main..migration` of `repo`.
pub fn analyze_embedded(repo: &Path, out: &Path) -> Command {
    Command::from_std(analyze_embedded_std(repo, out))
}

/// [`analyze_embedded`] as a `std` command, for tests that spawn it and watch it run.
pub fn analyze_embedded_std(repo: &Path, out: &Path) -> std::process::Command {
    let mut command = bin_std();
    command.arg("analyze").args(EMBEDDED_ON_THE_PR).arg(repo).arg("--out").arg(out);
    command
}

pub fn fixture(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(relative)
}

/// Parses stdout as exactly one JSON document.
pub fn json_stdout(output: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("stdout is not one JSON document ({e}):\n{}", String::from_utf8_lossy(&output.stdout))
    })
}

/// A repository whose `main` has the `base` files and whose `migration` branch changes or adds
/// the `head` files (a PR from `main` to `migration`).
pub fn pr_repo(
    dir: &Path,
    base: &[(&str, &str)],
    head: &[(&str, &str)],
) -> rewrite_assist::fixtures::RepoBuilder {
    let repo = rewrite_assist::fixtures::RepoBuilder::init(dir).unwrap();
    for (path, text) in base {
        repo.write(path, text).unwrap();
    }
    repo.commit("base").unwrap();
    repo.branch("migration").unwrap();
    for (path, text) in head {
        repo.write(path, text).unwrap();
    }
    repo.commit("migration").unwrap();
    repo
}

/// Serves `app` on a fresh loopback port from a thread of its own (a one-worker runtime), for the
/// tests' stand-in servers; returns the address once it listens.
/// `apply --backend <backend> --recipe <analyzed>` (a dry run) on the repository `next`, served as
/// `acme/<name>` from a directory of bare clones under `dir`: its recipe diff, and the log.
pub fn apply_on_served(
    dir: &Path,
    analyzed: &Path,
    next: &Path,
    name: &str,
    backend: &str,
) -> (String, String) {
    let server = dir.join("server");
    let bare = server.join(format!("acme/{name}.git"));
    if !bare.exists() {
        std::fs::create_dir_all(server.join("acme")).unwrap();
        let cloned = std::process::Command::new("git")
            .args(["clone", "--quiet", "--bare"])
            .arg(next)
            .arg(&bare)
            .output()
            .unwrap();
        assert!(cloned.status.success(), "{}", String::from_utf8_lossy(&cloned.stderr));
    }
    let out = dir.join(format!("applied-{backend}"));
    let applied = bin_std()
        .args(["apply", "--backend", backend, "--repos", &format!("acme/{name}"), "--recipe"])
        .arg(analyzed)
        .arg("--server-url")
        .arg(&server)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let log =
        format!("{}\n{}", String::from_utf8_lossy(&applied.stdout), String::from_utf8_lossy(&applied.stderr));
    assert_eq!(applied.status.code(), Some(0), "{log}");
    let diff = std::fs::read_to_string(out.join(format!("acme/{name}/recipe.diff")))
        .unwrap_or_else(|e| panic!("{e}: {log}"));
    (diff, log)
}

pub fn serve(app: axum::Router) -> std::net::SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("test server runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
            tx.send(listener.local_addr().expect("address")).expect("send address");
            axum::serve(listener, app).await.expect("serve");
        });
    });
    rx.recv().expect("the server started")
}
