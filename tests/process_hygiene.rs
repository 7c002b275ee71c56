//! Process hygiene through the real binary and real signals: the embedded runner ends with its
//! parent even in the middle of a request, an interrupt is reported as `interrupted`, and every
//! `--json` failure path still prints its object; an interrupted rollout still reports every repository;
//! a signal before any child ran still removes the process's temporary directory.
//!
//! To catch the runner in the middle of a request, the repository's POM names a parent that a
//! local "repository" serves a byte at a time: the runner's parse waits on it for as long as the
//! server keeps dripping, which is longer than any of these tests.

mod common;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

/// A Maven repository that answers every request with the start of a POM and then one byte at a
/// time, for as long as the client reads.
struct DripServer {
    url: String,
    connections: Arc<AtomicUsize>,
}

impl DripServer {
    fn start() -> DripServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        let connections = Arc::new(AtomicUsize::new(0));
        let counter = connections.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                counter.fetch_add(1, Ordering::SeqCst);
                std::thread::spawn(move || {
                    let mut request = [0u8; 4096];
                    let _ = stream.read(&mut request);
                    let head = "HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: 1000000\r\n\r\n<project>";
                    if stream.write_all(head.as_bytes()).is_err() {
                        return;
                    }
                    // Ends when the client is gone (the write fails).
                    while stream.write_all(b" ").and_then(|()| stream.flush()).is_ok() {
                        std::thread::sleep(Duration::from_millis(200));
                    }
                });
            }
        });
        DripServer { url, connections }
    }

    fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

/// A Maven project whose parent comes from `repository`, and a README change to reproduce.
fn slow_repo(dir: &Path, repository: &DripServer) -> (PathBuf, PathBuf) {
    let pom = format!(
        r#"<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>slow.example</groupId><artifactId>parent</artifactId><version>1.0</version><relativePath/></parent>
  <artifactId>app</artifactId>
  <repositories><repository><id>slow</id><url>{}</url></repository></repositories>
</project>
"#,
        repository.url
    );
    let repo = common::pr_repo(
        &dir.join("repo"),
        &[("pom.xml", &pom), ("README.md", "old\n")],
        &[("README.md", "new\n")],
    );
    let recipe = dir.join("recipe.yml");
    std::fs::write(
        &recipe,
        "type: specs.openrewrite.org/v1beta/recipe\nname: test.Readme\nrecipeList:\n  - org.openrewrite.text.FindAndReplace:\n      find: old\n      replace: new\n",
    )
    .unwrap();
    (repo.path().to_path_buf(), recipe)
}

/// `validate --json --backend embedded` of `recipe` on `repo`, started, not waited for.
fn start_validate(repo: &Path, recipe: &Path, out: &Path) -> Child {
    common::validate_embedded_std(&[], repo, recipe, out)
        .env("REWRITE_ASSIST_POM_CACHE", "off")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Polls `done` every 100 ms until it holds; false when `limit` passed first.
fn wait_for(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while !done() {
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    true
}

/// A process as `/proc/<pid>/stat` tells it: its parent, its state and its start time (which
/// tells it apart from a later process with the same pid).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Stat {
    parent: i32,
    state: char,
    started: u64,
}

fn stat(pid: i32) -> Option<(String, Stat)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid …`: the name may hold spaces and parentheses, the rest cannot.
    let (head, rest) = text.rsplit_once(')')?;
    let name = head.split_once('(')?.1.to_string();
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let stat = Stat {
        state: fields.first()?.chars().next()?,
        parent: fields.get(1)?.parse().ok()?,
        started: fields.get(19)?.parse().ok()?,
    };
    Some((name, stat))
}

/// The `java` processes whose parent is `parent`.
fn java_children(parent: i32) -> Vec<(i32, Stat)> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| stat(pid).map(|(name, stat)| (pid, name, stat)))
        .filter(|(_, name, stat)| name == "java" && stat.parent == parent)
        .map(|(pid, _, stat)| (pid, stat))
        .collect()
}

/// Whether the process `pid` that started at `started` still runs (a zombie has ended).
fn running(pid: i32, started: u64) -> bool {
    stat(pid).is_some_and(|(_, s)| s.started == started && s.state != 'Z')
}

/// Waits for `child` to exit within `limit`; kills it and fails otherwise.
fn exit_within(mut child: Child, limit: Duration) -> std::process::Output {
    let exited = wait_for(limit, || child.try_wait().map(|s| s.is_some()).unwrap_or(true));
    if !exited {
        let _ = child.kill();
    }
    let output = child.wait_with_output().unwrap();
    assert!(exited, "still running {limit:?} after the signal: {}", String::from_utf8_lossy(&output.stderr));
    output
}

/// How long a first runner build (Maven, once per version set) and the start of the parse may take.
const RUNNER_STARTS: Duration = Duration::from_secs(600);

#[test]
fn the_runner_ends_with_its_parent_even_in_the_middle_of_a_request() {
    let dir = tempfile::tempdir().unwrap();
    let server = DripServer::start();
    let (repo, recipe) = slow_repo(dir.path(), &server);
    let mut child = start_validate(&repo, &recipe, &dir.path().join("out"));
    let parent = child.id() as i32;
    assert!(
        wait_for(RUNNER_STARTS, || server.connections() > 0 || child.try_wait().ok().flatten().is_some()),
        "the runner never asked for the parent POM"
    );
    let runners = java_children(parent);
    assert_eq!(runners.len(), 1, "one runner, in the middle of its parse: {runners:?}");
    let (runner, runner_stat) = runners[0];

    kill(Pid::from_raw(parent), Signal::SIGKILL).unwrap();
    child.wait().unwrap();
    let gone = wait_for(Duration::from_secs(30), || !running(runner, runner_stat.started));
    if !gone {
        // Not left behind by a failing test either.
        let _ = kill(Pid::from_raw(runner), Signal::SIGKILL);
    }
    assert!(gone, "the runner {runner} outlived its parent by 30 s");
}

#[test]
fn ctrl_c_during_an_embedded_run_is_reported_as_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let server = DripServer::start();
    let (repo, recipe) = slow_repo(dir.path(), &server);
    let out = dir.path().join("out");
    let child = start_validate(&repo, &recipe, &out);
    assert!(
        wait_for(RUNNER_STARTS, || server.connections() > 0),
        "the runner never asked for the parent POM"
    );

    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let output = exit_within(child, Duration::from_secs(60));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(130), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let stats = common::json_stdout(&output);
    assert_eq!(stats["error"]["kind"], "interrupted", "{stats:#}");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    assert_eq!(written["error"]["kind"], "interrupted", "{written:#}");
}

/// An interrupt that finds `analyze` in a long computation (here the intents of a PR that
/// changes 50,000 lines in five files, each within the bounds of what is read line by line) ends
/// the process a second later from the signal handler's thread: `--json` still prints its one
/// object.
#[test]
fn sigterm_in_a_long_phase_still_prints_the_json_object() {
    let dir = tempfile::tempdir().unwrap();
    let lines = |word: &str| (0..4_999).map(|i| format!("line {i} {word}\n")).collect::<String>();
    let pom = "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version></project>\n";
    let names: Vec<String> = (1..=5).map(|n| format!("data-{n}.txt")).collect();
    let (old, new) = (lines("old"), lines("new"));
    let base: Vec<(&str, &str)> =
        std::iter::once(("pom.xml", pom)).chain(names.iter().map(|n| (n.as_str(), old.as_str()))).collect();
    let head: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), new.as_str())).collect();
    let repo = common::pr_repo(&dir.path().join("repo"), &base, &head);
    let out = dir.path().join("out");
    let child = common::analyze_embedded_std(repo.path(), &out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The setup phase's line in the audit log: the intents phase has begun.
    let audit = out.join("audit.jsonl");
    assert!(
        wait_for(Duration::from_secs(120), || std::fs::read_to_string(&audit)
            .is_ok_and(|text| text.contains("\"setup\""))),
        "the setup phase never ended"
    );
    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).unwrap();
    let output = exit_within(child, Duration::from_secs(60));
    assert_eq!(output.status.code(), Some(130), "{}", String::from_utf8_lossy(&output.stderr));
    let summary = common::json_stdout(&output);
    assert_eq!(summary["status"], "failed", "{summary:#}");
    assert_eq!(summary["reason"], "interrupted", "{summary:#}");
}

/// `validate --json` prints its stats, with the reason as `error`, when the runner cannot even be
/// built (a Maven that fails, as on a full disk) or its cache cannot be made, and on bad input.
#[test]
fn validate_json_prints_its_object_when_nothing_could_run() {
    let dir = tempfile::tempdir().unwrap();
    let repo = common::pr_repo(
        &dir.path().join("repo"),
        &[("pom.xml", "<project/>\n"), ("README.md", "old\n")],
        &[("README.md", "new\n")],
    );
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(
        &recipe,
        "type: specs.openrewrite.org/v1beta/recipe\nname: test.Readme\nrecipeList:\n  - org.openrewrite.text.FindAndReplace:\n      find: old\n      replace: new\n",
    )
    .unwrap();
    let failing_mvn = dir.path().join("mvn");
    std::fs::write(&failing_mvn, "#!/bin/sh\necho '[ERROR] No space left on device'\nexit 1\n").unwrap();
    std::fs::set_permissions(&failing_mvn, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let cache = dir.path().join("runner-cache");
    let not_a_directory = dir.path().join("recipe.yml/cache");
    struct Case<'a> {
        what: &'a str,
        env: Vec<(&'a str, &'a Path)>,
        base: &'a str,
        kind: &'a str,
        code: i32,
        says: &'a str,
    }
    let cases = [
        Case {
            what: "a Maven that fails",
            env: vec![("REWRITE_ASSIST_MVN", &failing_mvn), ("REWRITE_ASSIST_RUNNER_CACHE", &cache)],
            base: "main",
            kind: "runner_failure",
            code: 1,
            says: "No space left on device",
        },
        Case {
            what: "a cache that cannot be made",
            env: vec![("REWRITE_ASSIST_RUNNER_CACHE", &not_a_directory)],
            base: "main",
            kind: "runner_failure",
            code: 1,
            says: "the embedded runner cannot start",
        },
        Case {
            what: "an unknown ref",
            env: vec![],
            base: "no-such-ref",
            kind: "bad_input",
            code: 2,
            says: "unknown ref",
        },
    ];
    for (n, Case { what, env, base, kind, code, says }) in cases.into_iter().enumerate() {
        let mut command = common::bin();
        command
            .args(["validate", "--json", "--backend", "embedded", "--head", "migration", "--base", base])
            .arg("--repo")
            .arg(repo.path())
            .arg("--recipe")
            .arg(&recipe)
            .arg("--out")
            .arg(dir.path().join(format!("out-{n}")));
        for (name, value) in env {
            command.env(name, value);
        }
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(code), "{what}: {}", String::from_utf8_lossy(&output.stderr));
        let stats = common::json_stdout(&output);
        assert_eq!(stats["error"]["kind"], kind, "{what}: {stats:#}");
        let detail = stats["error"]["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(says), "{what}: {detail}");
    }
}

/// When the runner cannot start, nothing runs: `analyze` says why (the runner's build failed) and
/// spends no execution, instead of blaming a budget that was never touched.
#[test]
fn a_runner_that_cannot_start_is_the_reason_not_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let repo = common::pr_repo(
        &dir.path().join("repo"),
        &[("pom.xml", "<project/>\n"), ("README.md", "old\n")],
        &[("README.md", "new\n")],
    );
    let failing_mvn = dir.path().join("mvn");
    std::fs::write(&failing_mvn, "#!/bin/sh\necho '[ERROR] No space left on device'\nexit 1\n").unwrap();
    std::fs::set_permissions(&failing_mvn, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = dir.path().join("out");
    let output = common::analyze_embedded(repo.path(), &out)
        .env("REWRITE_ASSIST_MVN", &failing_mvn)
        .env("REWRITE_ASSIST_RUNNER_CACHE", dir.path().join("runner-cache"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let summary = common::json_stdout(&output);
    let reason = summary["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("the embedded runner cannot start") && reason.contains("No space left"),
        "{reason}"
    );
    assert!(!reason.contains("budget") && !reason.contains("no execution left"), "{reason}");
    let metadata: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("workflow-metadata.json")).unwrap()).unwrap();
    assert_eq!(metadata["budgets"]["executions_used"], 0, "{metadata:#}");
}

/// A rollout interrupted while its first repository runs (`--jobs 1`: the others wait their
/// turn) still writes its report, and the report lists every repository it was asked for: the
/// one that ran, and the ones that never started as `not_started`.
#[test]
fn an_interrupted_rollout_reports_the_repositories_it_did_not_start() {
    let dir = tempfile::tempdir().unwrap();
    let drip = DripServer::start();
    let (slow, recipe) = slow_repo(dir.path(), &drip);
    let server = dir.path().join("server");
    let plain = common::pr_repo(&dir.path().join("plain"), &[("README.md", "old\n")], &[]);
    for (name, source) in [("slow", slow.as_path()), ("b", plain.path()), ("c", plain.path())] {
        let bare = server.join(format!("acme/{name}.git"));
        std::fs::create_dir_all(bare.parent().unwrap()).unwrap();
        rewrite_assist::setup::git::git_output(
            dir.path(),
            ["clone", "--quiet", "--bare", source.to_str().unwrap(), bare.to_str().unwrap()],
        )
        .unwrap();
    }
    let out = dir.path().join("out");
    let child = common::bin_std()
        .args(["apply", "--repos", "acme/slow,acme/b,acme/c", "--jobs", "1", "--backend", "embedded"])
        .arg("--recipe")
        .arg(&recipe)
        .arg("--server-url")
        .arg(&server)
        .arg("--out")
        .arg(&out)
        .env("REWRITE_ASSIST_POM_CACHE", "off")
        .env_remove("GITHUB_TOKEN")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(wait_for(RUNNER_STARTS, || drip.connections() > 0), "the runner never asked for the parent POM");

    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).unwrap();
    let output = exit_within(child, Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("rollout.json")).unwrap()).unwrap();
    let results: Vec<(&str, &str)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["repo"].as_str().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        results,
        [("acme/slow", "failed"), ("acme/b", "not_started"), ("acme/c", "not_started")],
        "{report:#}"
    );
    let table = std::fs::read_to_string(out.join("rollout.md")).unwrap();
    assert!(table.contains("| acme/c | not started |") && table.contains("2 not started"), "{table}");
}

/// A signal that finds the process before any child ran (here blocked opening a FIFO given as a
/// diff, which nothing writes to) still removes the process's temporary directory on the way out.
#[test]
fn sigterm_before_any_child_ran_removes_the_temporary_directory() {
    let dir = tempfile::tempdir().unwrap();
    let temp = dir.path().join("tmp");
    std::fs::create_dir_all(&temp).unwrap();
    let fifo = dir.path().join("pr.diff");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let child = common::bin_std()
        .arg("metrics")
        .arg("--expected")
        .arg(&fifo)
        .arg("--actual")
        .arg(&fifo)
        .env("TMPDIR", &temp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let entries = || std::fs::read_dir(&temp).unwrap().count();
    assert!(wait_for(Duration::from_secs(60), || entries() > 0), "the process made no temporary directory");
    // Long enough to be blocked in the open.
    std::thread::sleep(Duration::from_millis(500));
    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).unwrap();
    let output = exit_within(child, Duration::from_secs(30));
    assert_eq!(
        output.status.code(),
        Some(130),
        "{:?} {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let left: Vec<_> = std::fs::read_dir(&temp).unwrap().flatten().map(|e| e.path()).collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}
