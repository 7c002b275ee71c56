//! The world the action's integration tests run in: a repository `acme/shop` on a local "server"
//! (a directory of bare repositories, as GITHUB_SERVER_URL) with PR #7, a workspace cloned from it
//! the way actions/checkout would, the fake GitHub API, and the real `rewrite-assist action`
//! binary run as the composite action's `docker run` would run it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::bin_std;
use crate::github::FakeGitHub;
use rewrite_assist::fixtures::scenarios::{JAVAX_TO_JAKARTA, Scenario};
use rewrite_assist::fixtures::{Fixture, RepoBuilder};
use rewrite_assist::github::action::ENV_VARS;
use rewrite_assist::github::{Config, GitHub, RetryPolicy};
use rewrite_assist::setup::git::git_output;
use serde_json::{Value, json};

pub const TOKEN: &str = "ghs_TestToken_do_not_print_0123456789";
pub const MARKER: &str = "<!-- rewrite-assist:results -->";

/// A recipe that renames a service in plain text: the cheapest real recipe run of a rollout.
pub const RENAME_RECIPE: &str = "type: specs.openrewrite.org/v1beta/recipe\nname: com.acme.Rename\nrecipeList:\n  \
- org.openrewrite.text.FindAndReplace:\n      find: legacy-service\n      replace: orders-service\n";

/// The smallest POM a rollout's repository builds with.
pub const APP_POM: &str = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n  \
<groupId>com.acme</groupId>\n  <artifactId>app</artifactId>\n  <version>1.0</version>\n</project>\n";

/// `apply --backend embedded --json --recipe dir/recipe.yml --repos REPOS` on the local server
/// `dir/server`, with the token and the fake GitHub, the artifacts in `dir/out` and `extra` flags;
/// its report, once it exited 0.
pub fn apply_json(dir: &Path, repos: &str, out: &str, fake: &FakeGitHub, extra: &[&str]) -> Value {
    let output = crate::common::bin()
        .args(["apply", "--repos", repos, "--backend", "embedded", "--json", "--recipe"])
        .arg(dir.join("recipe.yml"))
        .arg("--server-url")
        .arg(dir.join("server"))
        .arg("--out")
        .arg(dir.join(out))
        .args(extra)
        .env("GITHUB_API_URL", &fake.url)
        .env("GITHUB_TOKEN", TOKEN)
        .timeout(Duration::from_secs(1800))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{stderr}", String::from_utf8_lossy(&output.stdout)));
    assert_eq!(output.status.code(), Some(0), "{report:#}\n{stderr}");
    report
}

/// A repository `acme/shop` on a local "server" (a directory of bare repositories, as
/// GITHUB_SERVER_URL), with PR #7 as `refs/pull/7/head`, and a workspace cloned from it the way
/// actions/checkout would: without the PR's head commit, so the action has to fetch it.
pub struct World {
    pub dir: tempfile::TempDir,
    pub fake: FakeGitHub,
    pub fixture: Fixture,
    pub workspace: PathBuf,
    pub runs: std::cell::Cell<u32>,
}

impl World {
    pub fn javax() -> World {
        World::of(&JAVAX_TO_JAKARTA)
    }

    pub fn of(scenario: &Scenario) -> World {
        let dir = tempfile::tempdir().unwrap();
        let fixture = scenario.build(&dir.path().join("fixture")).unwrap();
        World::serving(dir, fixture)
    }

    /// The javax scenario moved into `service/` of a monorepo whose PR also edits the root README.
    pub fn monorepo() -> World {
        World::monorepo_with(&[], &[])
    }

    /// [`World::monorepo`] whose PR also changes a line no recipe makes: the middle one of twenty
    /// equal lines in `service/data.txt` (a text replacement cannot find it alone).
    pub fn monorepo_with_a_line_no_recipe_makes() -> World {
        let base = "x\n".repeat(20);
        let head = format!("{}y\n{}", "x\n".repeat(9), "x\n".repeat(10));
        World::monorepo_with(&[("service/data.txt", &base)], &[("service/data.txt", &head)])
    }

    /// The javax scenario in `service/` with `base` and `head` files written over each commit.
    fn monorepo_with(base: &[(&str, &str)], head: &[(&str, &str)]) -> World {
        let dir = tempfile::tempdir().unwrap();
        let single = JAVAX_TO_JAKARTA.build(&dir.path().join("single")).unwrap();
        let mono = RepoBuilder::init(&dir.path().join("fixture")).unwrap();
        let snapshot = |commit: &str| {
            let tar = dir.path().join("snapshot.tar");
            git_output(&single.path, ["archive", "--prefix=service/", "-o", tar.to_str().unwrap(), commit])
                .unwrap();
            let target = mono.path().to_str().unwrap();
            let status =
                std::process::Command::new("tar").args(["-xf", tar.to_str().unwrap(), "-C", target]).status();
            assert!(status.unwrap().success());
        };
        let write = |files: &[(&str, &str)]| {
            for (path, text) in files {
                mono.write(path, text).unwrap();
            }
        };
        snapshot(&single.base);
        mono.write("README.md", "The shop and its friends.\n").unwrap();
        write(base);
        let base = mono.commit("base").unwrap();
        mono.branch("migration").unwrap();
        snapshot(&single.head);
        mono.write("README.md", "The shop, now on Jakarta EE, and its friends.\n").unwrap();
        write(head);
        let head = mono.commit("migrate the shop").unwrap();
        mono.checkout("main").unwrap();
        let fixture = Fixture { path: mono.path().to_path_buf(), base, head };
        World::serving(dir, fixture)
    }

    /// Two builds of one monorepo, `service-a/` and `service-b/`, each a copy of the javax scenario,
    /// and one PR migrating both.
    pub fn two_builds() -> World {
        let dir = tempfile::tempdir().unwrap();
        let single = JAVAX_TO_JAKARTA.build(&dir.path().join("single")).unwrap();
        let mono = RepoBuilder::init(&dir.path().join("fixture")).unwrap();
        let snapshot = |commit: &str| {
            for build in ["service-a", "service-b"] {
                let tar = dir.path().join("snapshot.tar");
                let prefix = format!("--prefix={build}/");
                git_output(&single.path, ["archive", &prefix, "-o", tar.to_str().unwrap(), commit]).unwrap();
                let target = mono.path().to_str().unwrap();
                let status = std::process::Command::new("tar")
                    .args(["-xf", tar.to_str().unwrap(), "-C", target])
                    .status();
                assert!(status.unwrap().success());
            }
        };
        snapshot(&single.base);
        let base = mono.commit("base").unwrap();
        mono.branch("migration").unwrap();
        snapshot(&single.head);
        let head = mono.commit("migrate both services").unwrap();
        mono.checkout("main").unwrap();
        World::serving(dir, Fixture { path: mono.path().to_path_buf(), base, head })
    }

    pub fn serving(dir: tempfile::TempDir, fixture: Fixture) -> World {
        let bare = dir.path().join("server/acme/shop.git");
        bare_copy(&fixture.path, &bare);
        git_output(&bare, ["update-ref", "refs/pull/7/head", &fixture.head]).unwrap();
        git_output(&bare, ["branch", "-D", "migration"]).unwrap();
        let workspace = dir.path().join("work");
        git_output(dir.path(), ["clone", "--quiet", bare.to_str().unwrap(), "work"]).unwrap();
        // The PR's branch lives on the server (a recipe may be committed onto it), but the
        // workspace was cloned without it, so the action has to fetch the PR's head.
        git_output(&bare, ["branch", "migration", &fixture.head]).unwrap();
        let fake = FakeGitHub::start();
        let world = World { dir, fake, fixture, workspace, runs: std::cell::Cell::new(0) };
        world.fake.pull_request(7, world.pull_request_json());
        world
    }

    pub fn server_url(&self) -> String {
        format!("file://{}", self.dir.path().join("server").display())
    }

    pub fn bare(&self) -> PathBuf {
        self.dir.path().join("server/acme/shop.git")
    }

    pub fn pull_request_json(&self) -> Value {
        json!({
            "number": 7,
            "title": "Migrate JPA entities to jakarta.persistence",
            "base": {"ref": "main", "sha": self.fixture.base, "repo": {"full_name": "acme/shop"}},
            "head": {"ref": "migration", "sha": self.fixture.head, "repo": {"full_name": "acme/shop"}}
        })
    }

    pub fn pull_request_event(&self) -> Value {
        json!({"action": "opened", "number": 7, "pull_request": self.pull_request_json(),
               "repository": {"full_name": "acme/shop"}})
    }

    /// Runs `rewrite-assist action` for one event, as the composite action's `docker run` would.
    pub fn run(&self, event_name: &str, event: &Value, extra: &[(&str, &str)]) -> Ran {
        let (cmd, run_dir) = self.command(event_name, event, extra);
        let summary = run_dir.join("step_summary.md");
        let output = run_dir.join("output.txt");
        let runner_temp = run_dir.join("tmp");
        let out = assert_cmd::Command::from_std(cmd).timeout(Duration::from_secs(900)).output().unwrap();
        let ran = Ran {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            summary: std::fs::read_to_string(&summary).unwrap_or_default(),
            outputs: std::fs::read_to_string(&output).unwrap_or_default(),
            runner_temp,
        };
        ran.assert_no_token();
        ran
    }

    /// The command [`Self::run`] runs, and its run directory.
    pub fn command(
        &self,
        event_name: &str,
        event: &Value,
        extra: &[(&str, &str)],
    ) -> (std::process::Command, PathBuf) {
        self.runs.set(self.runs.get() + 1);
        let run_dir = self.dir.path().join(format!("run-{}", self.runs.get()));
        std::fs::create_dir_all(&run_dir).unwrap();
        let event_path = run_dir.join("event.json");
        std::fs::write(&event_path, event.to_string()).unwrap();
        let summary = run_dir.join("step_summary.md");
        let output = run_dir.join("output.txt");
        let runner_temp = run_dir.join("tmp");
        let mut cmd = bin_std();
        for name in ENV_VARS {
            cmd.env_remove(name);
        }
        cmd.arg("action")
            .env("GITHUB_EVENT_NAME", event_name)
            .env("GITHUB_EVENT_PATH", &event_path)
            .env("GITHUB_REPOSITORY", "acme/shop")
            .env("GITHUB_API_URL", &self.fake.url)
            .env("GITHUB_TOKEN", TOKEN)
            .env("GITHUB_WORKSPACE", &self.workspace)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("GITHUB_OUTPUT", &output)
            .env("GITHUB_SERVER_URL", self.server_url())
            .env("GITHUB_RUN_ID", "42")
            .env("RUNNER_TEMP", &runner_temp)
            .env("INPUT_MODE", "comment");
        for (k, v) in extra {
            cmd.env(k, v);
        }
        (cmd, run_dir)
    }

    pub fn comment_event(&self, body: &str, login: &str, association: &str) -> Value {
        json!({
            "action": "created",
            "issue": {"number": 7, "pull_request": {"url": "x"}},
            "comment": {"id": 555, "body": body, "user": {"login": login, "type": "User"},
                        "author_association": association},
            "repository": {"full_name": "acme/shop"}
        })
    }
}

pub struct Ran {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub summary: String,
    pub outputs: String,
    pub runner_temp: PathBuf,
}

impl Ran {
    pub fn assert_ok(&self) {
        assert_eq!(self.code, Some(0), "stdout:\n{}\nstderr:\n{}", self.stdout, self.stderr);
    }

    /// The token appears in no output and no file the run wrote.
    pub fn assert_no_token(&self) {
        assert!(
            !self.stdout.contains(TOKEN) && !self.stderr.contains(TOKEN),
            "the token leaked into the log"
        );
        assert!(!self.summary.contains(TOKEN) && !self.outputs.contains(TOKEN));
        if self.runner_temp.exists() {
            for entry in walkdir(&self.runner_temp) {
                let text = String::from_utf8_lossy(&std::fs::read(&entry).unwrap()).into_owned();
                assert!(!text.contains(TOKEN), "the token leaked into {}", entry.display());
            }
        }
    }

    pub fn output(&self, name: &str) -> String {
        self.outputs
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}=")))
            .unwrap_or_else(|| panic!("no output {name} in\n{}", self.outputs))
            .to_string()
    }
}

pub fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() { files.extend(walkdir(&path)) } else { files.push(path) }
    }
    files
}

pub fn bare_copy(source: &Path, bare: &Path) {
    std::fs::create_dir_all(bare.parent().unwrap()).unwrap();
    git_output(
        bare.parent().unwrap(),
        ["clone", "--quiet", "--bare", source.to_str().unwrap(), bare.to_str().unwrap()],
    )
    .unwrap();
}

pub fn show(repo: &Path, rev_path: &str) -> String {
    String::from_utf8_lossy(&git_output(repo, ["show", rev_path]).unwrap().stdout).into_owned()
}

pub fn count(calls: &[String], prefix: &str) -> usize {
    calls.iter().filter(|c| c.starts_with(prefix)).count()
}

pub fn client(fake: &FakeGitHub) -> GitHub {
    GitHub::new(Config {
        api_url: fake.url.clone(),
        token: Some(TOKEN.to_string().into()),
        retry: RetryPolicy {
            base_delay: Duration::from_millis(10),
            unhinted_rate_limit_wait: Duration::from_millis(50),
            ..RetryPolicy::default()
        },
        timeout: Duration::from_secs(10),
    })
    .unwrap()
}
