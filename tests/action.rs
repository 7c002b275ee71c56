//! The GitHub Action and PR bot end to end: the real `rewrite-assist action` binary (and the
//! library's client and migration PRs) against a local HTTP server standing in for the GitHub
//! API, real git repositories (pushes go to local bare repositories) and, where an analysis runs,
//! real OpenRewrite runs through Maven.

mod common;
#[path = "common/github.rs"]
mod github;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{bin, bin_std};
use github::FakeGitHub;
use rewrite_assist::fixtures::scenarios::{JAVA_11_TO_17, JAVAX_TO_JAKARTA, JUNIT4_TO_JUNIT5, Scenario};
use rewrite_assist::fixtures::{Fixture, RepoBuilder};
use rewrite_assist::github::action::ENV_VARS;
use rewrite_assist::github::{self as gh, Config, GitHub, RepoId, RetryPolicy};
use rewrite_assist::setup::git::git_output;
use serde_json::{Value, json};

const TOKEN: &str = "ghs_TestToken_do_not_print_0123456789";
const MARKER: &str = "<!-- rewrite-assist:results -->";

/// A repository `acme/shop` on a local "server" (a directory of bare repositories, as
/// GITHUB_SERVER_URL), with PR #7 as `refs/pull/7/head`, and a workspace cloned from it the way
/// actions/checkout would: without the PR's head commit, so the action has to fetch it.
struct World {
    dir: tempfile::TempDir,
    fake: FakeGitHub,
    fixture: Fixture,
    workspace: PathBuf,
    runs: std::cell::Cell<u32>,
}

impl World {
    fn javax() -> World {
        World::of(&JAVAX_TO_JAKARTA)
    }

    fn of(scenario: &Scenario) -> World {
        let dir = tempfile::tempdir().unwrap();
        let fixture = scenario.build(&dir.path().join("fixture")).unwrap();
        World::serving(dir, fixture)
    }

    /// The javax scenario moved into `service/` of a monorepo whose PR also edits the root README.
    fn monorepo() -> World {
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
        snapshot(&single.base);
        mono.write("README.md", "The shop and its friends.\n").unwrap();
        let base = mono.commit("base").unwrap();
        mono.branch("migration").unwrap();
        snapshot(&single.head);
        mono.write("README.md", "The shop, now on Jakarta EE, and its friends.\n").unwrap();
        let head = mono.commit("migrate the shop").unwrap();
        mono.checkout("main").unwrap();
        let fixture = Fixture { path: mono.path().to_path_buf(), base, head };
        World::serving(dir, fixture)
    }

    fn serving(dir: tempfile::TempDir, fixture: Fixture) -> World {
        let bare = dir.path().join("server/acme/shop.git");
        bare_copy(&fixture.path, &bare);
        git_output(&bare, ["update-ref", "refs/pull/7/head", &fixture.head]).unwrap();
        git_output(&bare, ["branch", "-D", "migration"]).unwrap();
        let workspace = dir.path().join("work");
        git_output(dir.path(), ["clone", "--quiet", bare.to_str().unwrap(), "work"]).unwrap();
        let fake = FakeGitHub::start();
        let world = World { dir, fake, fixture, workspace, runs: std::cell::Cell::new(0) };
        world.fake.pull_request(7, world.pull_request_json());
        world
    }

    fn server_url(&self) -> String {
        format!("file://{}", self.dir.path().join("server").display())
    }

    fn bare(&self) -> PathBuf {
        self.dir.path().join("server/acme/shop.git")
    }

    fn pull_request_json(&self) -> Value {
        json!({
            "number": 7,
            "title": "Migrate JPA entities to jakarta.persistence",
            "base": {"ref": "main", "sha": self.fixture.base, "repo": {"full_name": "acme/shop"}},
            "head": {"ref": "migration", "sha": self.fixture.head, "repo": {"full_name": "acme/shop"}}
        })
    }

    fn pull_request_event(&self) -> Value {
        json!({"action": "opened", "number": 7, "pull_request": self.pull_request_json(),
               "repository": {"full_name": "acme/shop"}})
    }

    /// Runs `rewrite-assist action` for one event, as the composite action's `docker run` would.
    fn run(&self, event_name: &str, event: &Value, extra: &[(&str, &str)]) -> Ran {
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
    fn command(
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

    fn comment_event(&self, body: &str, login: &str, association: &str) -> Value {
        json!({
            "action": "created",
            "issue": {"number": 7, "pull_request": {"url": "x"}},
            "comment": {"id": 555, "body": body, "user": {"login": login, "type": "User"},
                        "author_association": association},
            "repository": {"full_name": "acme/shop"}
        })
    }
}

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    summary: String,
    outputs: String,
    runner_temp: PathBuf,
}

impl Ran {
    fn assert_ok(&self) {
        assert_eq!(self.code, Some(0), "stdout:\n{}\nstderr:\n{}", self.stdout, self.stderr);
    }

    /// The token appears in no output and no file the run wrote.
    fn assert_no_token(&self) {
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

    fn output(&self, name: &str) -> String {
        self.outputs
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}=")))
            .unwrap_or_else(|| panic!("no output {name} in\n{}", self.outputs))
            .to_string()
    }
}

fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() { files.extend(walkdir(&path)) } else { files.push(path) }
    }
    files
}

fn bare_copy(source: &Path, bare: &Path) {
    std::fs::create_dir_all(bare.parent().unwrap()).unwrap();
    git_output(
        bare.parent().unwrap(),
        ["clone", "--quiet", "--bare", source.to_str().unwrap(), bare.to_str().unwrap()],
    )
    .unwrap();
}

fn show(repo: &Path, rev_path: &str) -> String {
    String::from_utf8_lossy(&git_output(repo, ["show", rev_path]).unwrap().stdout).into_owned()
}

fn count(calls: &[String], prefix: &str) -> usize {
    calls.iter().filter(|c| c.starts_with(prefix)).count()
}

/// pull_request → one results comment; then a writer's `/rewrite-assist run` updates that same
/// comment in place (and is acknowledged with 👀 then 🚀). Real analyses through Maven.
#[test]
fn the_results_comment_is_created_once_then_updated_in_place() {
    let world = World::javax();
    let ran = world.run("pull_request", &world.pull_request_event(), &[("INPUT_FAIL_UNDER", "0.8")]);
    ran.assert_ok();
    let calls = world.fake.calls();
    assert_eq!(
        calls,
        vec![
            "GET /repos/acme/shop/issues/7/comments?per_page=100&page=1",
            "POST /repos/acme/shop/issues/7/comments"
        ],
        "{calls:#?}"
    );
    for request in world.fake.requests() {
        assert_eq!(request.authorization.as_deref(), Some(format!("Bearer {TOKEN}").as_str()));
    }
    let comments = world.fake.comments();
    assert_eq!(comments.len(), 1);
    let body = &comments[0].body;
    assert!(body.starts_with(MARKER), "{body}");
    for expected in [
        "✅ recipe recommended",
        "| option | strategy | precision | recall | F1 | semantic | recipes | time |",
        "jakarta.persistence",
        "<details><summary>Intent tree:",
        "file://",
        "/acme/shop/actions/runs/42",
    ] {
        assert!(body.contains(expected), "{expected} missing in\n{body}");
    }
    // Job summary and step outputs.
    assert!(ran.summary.starts_with("# rewrite-assist: ✅ recipe recommended"), "{}", ran.summary);
    assert!(ran.summary.contains("acme/shop#7"));
    let option = ran.output("recommended-option");
    assert!(["1", "2", "3"].contains(&option.as_str()), "{}", ran.outputs);
    assert!(ran.output("f1").parse::<f64>().unwrap() >= 0.9);
    for name in ["precision", "recall"] {
        assert!(ran.output(name).parse::<f64>().is_ok(), "{name}");
    }
    let recipe = std::fs::read_to_string(PathBuf::from(ran.output("recipe-path"))).unwrap();
    // The migration by name: a jakarta composite discovery found, or the package change itself.
    assert!(recipe.contains("jakarta"), "{recipe}");
    let artifacts = PathBuf::from(ran.output("artifacts-dir"));
    assert!(artifacts.join("pr.diff").is_file() && artifacts.starts_with(&ran.runner_temp));
    assert_eq!(
        ran.output("comment-url"),
        format!("https://github.com/acme/shop/pull/7#issuecomment-{}", world.fake.comments()[0].id)
    );
    assert_eq!(
        (ran.output("pr-url"), ran.output("pr-number")),
        (String::new(), String::new()),
        "mode comment"
    );
    // The workspace fetched the PR head it lacked; its working tree is untouched.
    let status = git_output(&world.workspace, ["status", "--porcelain"]).unwrap();
    assert!(status.stdout.is_empty(), "{}", String::from_utf8_lossy(&status.stdout));

    // A writer asks for a new run.
    world.fake.clear_requests();
    world.fake.permission("alice", "write");
    let event = world.comment_event("Thanks!\n\n/rewrite-assist run", "alice", "MEMBER");
    let ran = world.run("issue_comment", &event, &[]);
    ran.assert_ok();
    let calls = world.fake.calls();
    assert_eq!(count(&calls, "GET /repos/acme/shop/collaborators/alice/permission"), 1, "{calls:#?}");
    assert_eq!(count(&calls, "GET /repos/acme/shop/pulls/7"), 1, "{calls:#?}");
    assert_eq!(count(&calls, "POST /repos/acme/shop/issues/7/comments"), 0, "no second comment: {calls:#?}");
    assert_eq!(
        count(&calls, &format!("PATCH /repos/acme/shop/issues/comments/{}", comments[0].id)),
        1,
        "{calls:#?}"
    );
    assert_eq!(world.fake.comments().len(), 1, "still exactly one comment");
    assert!(world.fake.comments()[0].body.starts_with(MARKER));
    assert_eq!(world.fake.reactions(), vec![(555, "eyes".to_string()), (555, "rocket".to_string())]);
}

/// `workflow_dispatch` with a `pr_url` analyzes that PR like a pull_request event; a PR that does
/// not exist is bad input, and the job summary says so.
#[test]
fn a_dispatch_analyzes_the_pr_it_names() {
    let world = World::javax();
    let dispatch = |url: &str| json!({"inputs": {"pr_url": url}, "repository": {"full_name": "acme/shop"}});
    let ran = world.run("workflow_dispatch", &dispatch("https://github.com/acme/shop/pull/7"), &[]);
    ran.assert_ok();
    assert_eq!(count(&world.fake.calls(), "GET /repos/acme/shop/pulls/7"), 1);
    assert!(ran.output("f1").parse::<f64>().unwrap() >= 0.9, "{}", ran.outputs);
    assert!(world.fake.comments()[0].body.starts_with(MARKER));

    let ran = world.run("workflow_dispatch", &dispatch("https://github.com/acme/shop/pull/99"), &[]);
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(ran.stderr.contains("pull/99 was not found"), "{}", ran.stderr);
    assert!(ran.summary.contains("pull/99 was not found"), "{}", ran.summary);
}

/// A reader's `/rewrite-assist run` gets 👀, a polite reply and 😕 — and nothing runs: no
/// permission lookup (the association already rules it out), no analysis, no results comment.
/// A collaborator with read access is refused after the lookup; a failed lookup is "could not
/// verify". All with trace logging on, and the token in no log line.
#[test]
fn readers_are_refused_politely_and_nothing_runs() {
    let world = World::javax();
    world.fake.permission("carol", "read");
    let trace = [("RUST_LOG", "trace")];

    let ran =
        world.run("issue_comment", &world.comment_event("/rewrite-assist run", "bob", "CONTRIBUTOR"), &trace);
    ran.assert_ok();
    assert_eq!(
        world.fake.calls(),
        vec![
            "POST /repos/acme/shop/issues/comments/555/reactions",
            "POST /repos/acme/shop/issues/7/comments",
            "POST /repos/acme/shop/issues/comments/555/reactions",
        ]
    );
    let reply = &world.fake.comments()[0].body;
    assert!(reply.contains("@bob") && reply.contains("needs write access"), "{reply}");
    assert!(!reply.starts_with(MARKER));
    assert_eq!(world.fake.reactions(), vec![(555, "eyes".into()), (555, "confused".into())]);
    assert!(!ran.runner_temp.join("rewrite-assist").exists(), "an analysis started");
    assert!(ran.outputs.is_empty() && ran.summary.is_empty());

    world.fake.clear_requests();
    let ran = world.run(
        "issue_comment",
        &world.comment_event("/rewrite-assist apply 2", "carol", "COLLABORATOR"),
        &[],
    );
    ran.assert_ok();
    let calls = world.fake.calls();
    assert_eq!(calls[1], "GET /repos/acme/shop/collaborators/carol/permission");
    assert_eq!(calls.len(), 4, "{calls:#?}");
    assert!(world.fake.comments()[1].body.contains("needs write access"));
    assert!(world.fake.pulls().is_empty());

    // dave is a member, but the lookup answers 404: we cannot tell, so nothing runs either.
    world.fake.clear_requests();
    let ran = world.run("issue_comment", &world.comment_event("/rewrite-assist", "dave", "MEMBER"), &trace);
    ran.assert_ok();
    assert!(world.fake.comments()[2].body.contains("could not verify"), "{}", world.fake.comments()[2].body);
    assert_eq!(world.fake.calls().len(), 4);
    assert!(!ran.runner_temp.join("rewrite-assist").exists());
}

/// `help` and unknown commands are answered for anyone; bots, quotes and code are ignored; a 502
/// on the reply is retried.
#[test]
fn help_unknown_commands_and_ignored_comments() {
    let world = World::javax();
    world.fake.fail_next("POST", "/repos/acme/shop/issues/7/comments", 502, &[]);
    let ran = world.run("issue_comment", &world.comment_event("/rewrite-assist help", "erin", "NONE"), &[]);
    ran.assert_ok();
    let posts: Vec<_> = world
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/repos/acme/shop/issues/7/comments")
        .map(|r| r.status)
        .collect();
    assert_eq!(posts, vec![502, 201], "the 502 was retried");
    assert!(world.fake.comments()[0].body.contains("| `/rewrite-assist help` | show this help |"));
    assert_eq!(world.fake.reactions(), vec![(555, "eyes".into()), (555, "rocket".into())]);

    let ran =
        world.run("issue_comment", &world.comment_event("/rewrite-assist frobnicate", "erin", "NONE"), &[]);
    ran.assert_ok();
    let reply = &world.fake.comments()[1].body;
    assert!(reply.starts_with("I did not understand `/rewrite-assist frobnicate`."), "{reply}");
    assert_eq!(world.fake.reactions()[3], (555, "confused".into()));

    // A reply that cannot be posted: the user got no answer, so no 🚀, and the job fails.
    world.fake.fail_next("POST", "/repos/acme/shop/issues/7/comments", 422, &[]);
    let ran = world.run("issue_comment", &world.comment_event("/rewrite-assist help", "erin", "NONE"), &[]);
    assert_eq!(ran.code, Some(1), "{}", ran.stdout);
    assert!(ran.stdout.contains("could not reply"), "{}", ran.stdout);
    assert_eq!(world.fake.reactions()[5], (555, "confused".into()));

    // An event file that cannot be read is bad input, said in the job summary too.
    let ran = world.run("issue_comment", &json!({}), &[("GITHUB_EVENT_PATH", "/nonexistent/event.json")]);
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(ran.stderr.contains("cannot read the event /nonexistent/event.json"), "{}", ran.stderr);
    assert!(ran.summary.contains("cannot read the event"), "{}", ran.summary);

    world.fake.clear_requests();
    for body in
        ["> /rewrite-assist run", "```\n/rewrite-assist run\n```", "<!-- /rewrite-assist run -->", "lgtm"]
    {
        world.run("issue_comment", &world.comment_event(body, "erin", "OWNER"), &[]).assert_ok();
    }
    let mut from_bot = world.comment_event("/rewrite-assist run", "github-actions[bot]", "NONE");
    from_bot["comment"]["user"]["type"] = json!("Bot");
    world.run("issue_comment", &from_bot, &[]).assert_ok();
    let mut edited = world.comment_event("/rewrite-assist run", "erin", "OWNER");
    edited["action"] = json!("edited");
    world.run("issue_comment", &edited, &[]).assert_ok();
    let mut closed = world.pull_request_event();
    closed["action"] = json!("closed");
    world.run("pull_request", &closed, &[]).assert_ok();
    assert_eq!(world.fake.calls(), Vec::<String>::new(), "none of these is for the bot");
}

/// The token does not stay in the action's own environment, where any process of the same user
/// could read it (`/proc/<pid>/environ`): the process replaces itself with a copy started without
/// it. A rate limit keeps the process alive long enough to look.
#[test]
fn the_token_does_not_stay_readable_in_the_process_environment() {
    let world = World::javax();
    world.fake.fail_next("POST", "/repos/acme/shop/issues/7/comments", 429, &[("retry-after", "2")]);
    let event = world.comment_event("/rewrite-assist help", "erin", "NONE");
    let (mut cmd, _) = world.command("issue_comment", &event, &[]);
    let mut child =
        cmd.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().unwrap();
    let environ = PathBuf::from(format!("/proc/{}/environ", child.id()));
    let mut looked = 0;
    while child.try_wait().unwrap().is_none() {
        let text = String::from_utf8_lossy(&std::fs::read(&environ).unwrap_or_default()).into_owned();
        // The first instant, before the exec, the environment is the one we gave it.
        if text.contains("REWRITE_ASSIST_SECRETS_FD=") {
            assert!(!text.contains(TOKEN), "the token is readable in {}", environ.display());
            looked += 1;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(child.wait().unwrap().code(), Some(0));
    assert!(looked > 10, "the running process was looked at {looked} times");
    assert!(world.fake.comments()[0].body.contains("/rewrite-assist help"), "the token still worked");
}

/// A monorepo whose build is in `service/`: with `working-directory: service` the PR's README edit
/// at the root is left out, and the build in the subfolder validates the recipe. Real analysis.
#[test]
fn working_directory_analyzes_the_build_in_a_subfolder() {
    let world = World::monorepo();
    let ran =
        world.run("pull_request", &world.pull_request_event(), &[("INPUT_WORKING_DIRECTORY", "./service/")]);
    ran.assert_ok();
    assert!(ran.output("f1").parse::<f64>().unwrap() >= 0.99, "{}", ran.outputs);
    let artifacts = PathBuf::from(ran.output("artifacts-dir"));
    let pr = std::fs::read_to_string(artifacts.join("pr.diff")).unwrap();
    assert!(pr.contains("service/src/main/java/com/acme/shop/Customer.java"), "{pr}");
    assert!(!pr.contains("README.md"), "outside the working directory: {pr}");
    let body = &world.fake.comments()[0].body;
    assert!(body.contains("✅ recipe recommended"), "{body}");

    // Without it, the build is not found at the root.
    let ran = world.run("pull_request", &world.pull_request_event(), &[]);
    ran.assert_ok();
    assert!(world.fake.comments()[0].body.contains("could not analyze"), "{}", world.fake.comments()[0].body);
    // A directory outside the repository is bad input.
    let ran = world.run(
        "pull_request",
        &world.pull_request_event(),
        &[("INPUT_WORKING_DIRECTORY", "../elsewhere")],
    );
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
}

/// A PR the pipeline cannot analyze (no build file) gets the failure in its results comment; the
/// job passes unless `fail-under` asks for a recipe.
#[test]
fn an_unanalyzable_pr_is_explained_and_fail_under_trips() {
    let world = World::javax();
    let docs = RepoBuilder::init(&world.dir.path().join("docs")).unwrap();
    docs.write("README.md", "hello\n").unwrap();
    let base = docs.commit("base").unwrap();
    docs.write("README.md", "hello world\n").unwrap();
    let head = docs.commit("docs").unwrap();
    let mut event = world.pull_request_event();
    event["pull_request"]["base"]["sha"] = json!(base);
    event["pull_request"]["head"]["sha"] = json!(head);
    let mut world = world;
    world.workspace = docs.path().to_path_buf();

    let ran = world.run("pull_request", &event, &[]);
    ran.assert_ok();
    let body = &world.fake.comments()[0].body;
    assert!(body.starts_with(MARKER) && body.contains("could not analyze this pull request"), "{body}");
    assert!(body.contains("no build file"), "{body}");
    assert!(ran.summary.contains("could not analyze acme/shop#7"), "{}", ran.summary);
    assert_eq!(ran.output("recommended-option"), "");
    let artifacts = PathBuf::from(ran.output("artifacts-dir"));
    assert!(artifacts.join("workflow-metadata.json").is_file(), "what failed is in the artifacts");

    let ran = world.run("pull_request", &event, &[("INPUT_FAIL_UNDER", "0.5")]);
    assert_eq!(ran.code, Some(1), "{}", ran.stderr);
    assert!(ran.stdout.contains("::error::") && ran.stdout.contains("fail-under"), "{}", ran.stdout);
    assert_eq!(world.fake.comments().len(), 1, "updated, not duplicated");

    let ran = world.run("pull_request", &event, &[("INPUT_MODE", "none")]);
    ran.assert_ok();
    assert_eq!(count(&world.fake.calls(), "PATCH"), 1, "mode none posts nothing");

    // A job summary that cannot be written fails the run, but the comment still goes out.
    let not_a_file = world.dir.path().join("summary-is-a-directory");
    std::fs::create_dir_all(&not_a_file).unwrap();
    let ran = world.run("pull_request", &event, &[("GITHUB_STEP_SUMMARY", not_a_file.to_str().unwrap())]);
    assert_eq!(ran.code, Some(1), "{}", ran.stderr);
    assert!(ran.stdout.contains("could not write the job summary"), "{}", ran.stdout);
    assert_eq!(count(&world.fake.calls(), "PATCH"), 2, "the comment was still updated");
}

/// A writer's `/rewrite-assist apply`: analysis, then a migration PR from a branch pushed to the
/// server with rewrite.yml and the recipe's changes; the reply links it. Real analysis.
#[test]
fn apply_opens_a_migration_pr_from_a_slash_command() {
    let world = World::javax();
    world.fake.permission("alice", "admin");
    let ran =
        world.run("issue_comment", &world.comment_event("/rewrite-assist apply", "alice", "OWNER"), &[]);
    ran.assert_ok();
    let pulls = world.fake.pulls();
    assert_eq!(pulls.len(), 1, "{:#?}", world.fake.calls());
    let pr = &pulls[0];
    let option = ran.output("recommended-option");
    let branch = format!("rewrite-assist/pr-7-option-{option}");
    assert_eq!((pr.head.as_str(), pr.base.as_str()), (branch.as_str(), "main"));
    assert!(pr.title.starts_with("Apply the recipe of #7"), "{}", pr.title);
    assert!(pr.body.contains("mvn -U org.openrewrite.maven:rewrite-maven-plugin:"), "{}", pr.body);
    assert!(pr.body.contains("./gradlew rewriteRun"));
    // The branch on the server: rewrite.yml with the recipe, and the migration applied.
    let bare = world.bare();
    let rewrite_yml = show(&bare, &format!("{branch}:rewrite.yml"));
    assert!(rewrite_yml.contains(&format!("name: \"rewriteassist.Pr7Option{option}")), "{rewrite_yml}");
    let customer = show(&bare, &format!("{branch}:src/main/java/com/acme/shop/Customer.java"));
    assert!(
        customer.contains("import jakarta.persistence.Entity;") && !customer.contains("javax.persistence")
    );
    let parent = show(&bare, &format!("{branch}~1:pom.xml"));
    assert_eq!(
        parent,
        show(&bare, &format!("{}:pom.xml", world.fixture.base)),
        "branched from the PR's base"
    );
    // The thread: results comment, a reply with the PR link, 👀 then 🚀.
    let comments = world.fake.comments();
    assert!(comments.iter().any(|c| c.body.starts_with(MARKER)));
    assert!(
        comments.iter().any(|c| c.body.starts_with("Opened https://github.com/acme/shop/pull/100")),
        "{comments:#?}"
    );
    assert_eq!(world.fake.reactions(), vec![(555, "eyes".into()), (555, "rocket".into())]);
    assert_eq!(ran.output("pr-url"), "https://github.com/acme/shop/pull/100");
    assert_eq!(ran.output("pr-number"), "100");
    assert!(ran.output("comment-url").starts_with("https://github.com/acme/shop/pull/7#issuecomment-"));
}

/// With the workflow's own token a migration PR leaves workflow files out (that token may not push
/// them) and lists them in its body; with a token of one's own they are in. A 403 on creating the
/// PR (organisations forbid it by default) tells the user what to change. Real analyses.
#[test]
fn the_default_token_leaves_workflow_files_out_and_a_refused_pr_is_explained() {
    let world = World::of(&JAVA_11_TO_17);
    world.fake.permission("alice", "admin");
    let apply = world.comment_event("/rewrite-assist apply", "alice", "OWNER");
    let default_token = [("INPUT_DEFAULT_TOKEN", "true")];
    world.fake.fail_next_saying(
        "POST",
        "/repos/acme/shop/pulls",
        403,
        &[],
        "GitHub Actions is not permitted to create or approve pull requests.",
    );
    let ran = world.run("issue_comment", &apply, &default_token);
    ran.assert_ok();
    let reply = world.fake.comments().last().unwrap().body.clone();
    assert!(reply.contains("Allow GitHub Actions to create and approve pull requests"), "{reply}");
    assert!(reply.contains("`token` input"), "{reply}");
    assert_eq!(world.fake.reactions().last().unwrap(), &(555, "confused".to_string()));
    assert_eq!(ran.output("pr-url"), "");

    let ran = world.run("issue_comment", &apply, &default_token);
    ran.assert_ok();
    let pr = world.fake.pulls()[0].clone();
    assert!(pr.body.contains("### Left out: workflow files"), "{}", pr.body);
    assert!(pr.body.contains("`.github/workflows/ci.yml`"), "{}", pr.body);
    let branch = format!("rewrite-assist/pr-7-option-{}", ran.output("recommended-option"));
    let bare = world.bare();
    let base = &world.fixture.base;
    let ci = ".github/workflows/ci.yml";
    assert_eq!(show(&bare, &format!("{branch}:{ci}")), show(&bare, &format!("{base}:{ci}")));
    assert_ne!(show(&bare, &format!("{branch}:pom.xml")), show(&bare, &format!("{base}:pom.xml")));
    assert_eq!(ran.output("pr-number"), pr.number.to_string());

    let ran = world.run("issue_comment", &apply, &[("INPUT_DEFAULT_TOKEN", "false")]);
    ran.assert_ok();
    assert_ne!(
        show(&bare, &format!("{branch}:{ci}")),
        show(&bare, &format!("{base}:{ci}")),
        "a token of one's own"
    );
    assert!(!world.fake.pulls()[0].body.contains("Left out"), "{}", world.fake.pulls()[0].body);

    // A token of one's own that may not push workflow files: the server refuses the push as GitHub
    // does (a pre-receive hook says GitHub's words), and the reply says what to change.
    git_output(&bare, ["branch", "-D", &branch]).unwrap();
    let hook = bare.join("hooks/pre-receive");
    std::fs::write(
        &hook,
        "#!/bin/sh\necho 'refusing to allow a GitHub App to create or update workflow `.github/workflows/ci.yml` without `workflows` permission' >&2\nexit 1\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let ran = world.run("issue_comment", &apply, &[("INPUT_DEFAULT_TOKEN", "false")]);
    ran.assert_ok();
    let reply = world.fake.comments().last().unwrap().body.clone();
    assert!(reply.contains("Workflows: write") && reply.contains("`workflow` scope"), "{reply}");
    assert_eq!(world.fake.reactions().last().unwrap(), &(555, "confused".to_string()));
}

/// The container's `~/.m2/settings.xml` (where action.yml mounts `maven-settings`, by default the
/// runner's own) is what the builds use: here a mirror nobody answers, so the build log names it.
#[test]
fn the_maven_settings_in_home_are_used_by_the_builds() {
    let world = World::javax();
    let home = world.dir.path().join("home");
    std::fs::create_dir_all(home.join(".m2")).unwrap();
    std::fs::write(
        home.join(".m2/settings.xml"),
        format!(
            "<settings><localRepository>{}</localRepository><mirrors><mirror><id>custom-mirror</id>\
<url>http://127.0.0.1:9/maven2</url><mirrorOf>*</mirrorOf></mirror></mirrors></settings>\n",
            home.join("repository").display()
        ),
    )
    .unwrap();
    let ran = world.run(
        "pull_request",
        &world.pull_request_event(),
        &[("HOME", home.to_str().unwrap()), ("INPUT_BACKEND", "plugin"), ("INPUT_MODE", "none")],
    );
    ran.assert_ok();
    let artifacts = PathBuf::from(ran.output("artifacts-dir"));
    let logs: Vec<String> = walkdir(&artifacts)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with("build.log"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(!logs.is_empty(), "no build ran");
    assert!(
        logs.iter().any(|log| log.contains("custom-mirror") && log.contains("127.0.0.1:9")),
        "the mirror of the settings is not in the build logs:\n{}",
        logs.join("\n---\n")
    );
}

fn client(fake: &FakeGitHub) -> GitHub {
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

/// The client retries server errors and rate limits, but not client errors, whose body it reports.
#[test]
fn the_client_retries_5xx_and_rate_limits_and_reports_bodies() {
    let fake = FakeGitHub::start();
    let client = client(&fake);
    let repo = RepoId::parse("acme/shop").unwrap();
    fake.fail_next("GET", "/repos/acme/shop/issues/7/comments", 502, &[])
        .fail_next("POST", "/repos/acme/shop/issues/7/comments", 503, &[])
        .fail_next("POST", "/repos/acme/shop/issues/7/comments", 429, &[("retry-after", "1")]);
    let started = std::time::Instant::now();
    let done = gh::comment::upsert_results(&client, &repo, 7, &format!("{MARKER}\nfirst")).unwrap();
    assert!(matches!(done, gh::comment::Upserted::Created { .. }));
    assert!(started.elapsed() >= Duration::from_secs(1), "Retry-After was honoured");
    let statuses: Vec<u16> = fake.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses, vec![502, 200, 503, 429, 201]);

    // Rate limit exhausted with a reset time: waits until then.
    let reset =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs().to_string();
    fake.fail_next(
        "GET",
        "/repos/acme/shop/issues/7/comments",
        403,
        &[("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", &reset)],
    );
    let done = gh::comment::upsert_results(&client, &repo, 7, &format!("{MARKER}\nsecond")).unwrap();
    assert!(matches!(done, gh::comment::Upserted::Updated { .. }));
    assert_eq!(fake.comments().len(), 1);
    assert_eq!(fake.comments()[0].body, format!("{MARKER}\nsecond"));

    // A secondary rate limit that only its message names (a bare 403) is waited out too.
    fake.clear_requests();
    fake.fail_next_saying(
        "GET",
        "/repos/acme/shop/issues/7/comments",
        403,
        &[],
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
    );
    gh::comment::upsert_results(&client, &repo, 7, &format!("{MARKER}\nthird")).unwrap();
    let statuses: Vec<u16> = fake.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses, vec![403, 200, 200]);

    // A 404 is final: one request, and the error says what the server said.
    fake.clear_requests();
    let error = gh::pulls::get(&client, &repo, 99).unwrap_err();
    assert_eq!(fake.requests().len(), 1);
    let text = format!("{error:#}");
    assert!(
        text.contains("GET /repos/acme/shop/pulls/99 answered 404") && text.contains("Not Found"),
        "{text}"
    );
    assert!(!text.contains(TOKEN));

    // A server that echoes the request's headers in its error: the token is not repeated.
    fake.fail_next_saying("GET", "/repos/acme/shop/pulls/97", 401, &[], "Bad credentials: {authorization}");
    let error = gh::pulls::get(&client, &repo, 97).unwrap_err();
    let text = format!("{error:#}");
    assert!(text.contains("answered 401") && text.contains("Bad credentials: Bearer"), "{text}");
    assert!(!text.contains(TOKEN), "{text}");

    // Server errors that never stop: the attempts run out.
    for _ in 0..4 {
        fake.fail_next("GET", "/repos/acme/shop/pulls/98", 500, &[]);
    }
    fake.clear_requests();
    let error = gh::pulls::get(&client, &repo, 98).unwrap_err();
    assert_eq!(fake.requests().len(), 4);
    assert!(format!("{error:#}").contains("answered 500"));
}

/// A marker planted by someone without write access is not taken for the results comment.
#[test]
fn a_planted_marker_comment_is_not_taken_over() {
    let fake = FakeGitHub::start();
    let gh = client(&fake);
    let repo = RepoId::parse("acme/shop").unwrap();
    let planted =
        fake.add_comment_by(7, &format!("{MARKER}\nfake results"), "mallory", "User", "CONTRIBUTOR");
    let done = gh::comment::upsert_results(&gh, &repo, 7, &format!("{MARKER}\nreal")).unwrap();
    assert!(matches!(done, gh::comment::Upserted::Created { id, .. } if id != planted));
    assert_eq!(
        fake.comments().iter().find(|c| c.id == planted).unwrap().body,
        format!("{MARKER}\nfake results")
    );
    // The next run finds the bot's own comment, not the planted one.
    let again = gh::comment::upsert_results(&gh, &repo, 7, &format!("{MARKER}\nreal again")).unwrap();
    assert!(matches!(again, gh::comment::Upserted::Updated { id, .. } if id != planted));
    // A maintainer's comment (a personal token) is trusted.
    let other = FakeGitHub::start();
    let mine = other.add_comment_by(7, &format!("{MARKER}\nold"), "maintainer", "User", "MEMBER");
    let done = gh::comment::upsert_results(&client(&other), &repo, 7, &format!("{MARKER}\nnew")).unwrap();
    assert!(matches!(done, gh::comment::Upserted::Updated { id, .. } if id == mine));
    assert_eq!(done.url(), format!("https://github.com/acme/shop/pull/7#issuecomment-{mine}"));
}

/// A migration PR: the recipe merged into an existing rewrite.yml, the option's diff applied, the
/// branch pushed; a second apply updates the same PR instead of opening another.
#[test]
fn apply_builds_the_branch_and_updates_rather_than_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let repo = RepoBuilder::init(&dir.path().join("repo")).unwrap();
    let existing = "---\ntype: specs.openrewrite.org/v1beta/recipe\nname: com.acme.Existing\nrecipeList:\n  - org.openrewrite.java.OrderImports\n";
    repo.write("rewrite.yml", existing).unwrap();
    repo.write("src/A.java", "import javax.persistence.Entity;\n\n@Entity\nclass A {}\n").unwrap();
    let base = repo.commit("base").unwrap();
    repo.write("src/A.java", "import jakarta.persistence.Entity;\n\n@Entity\nclass A {}\n").unwrap();
    let head = repo.commit("migrate").unwrap();
    let bare = dir.path().join("server/acme/shop.git");
    bare_copy(repo.path(), &bare);

    let run_dir = dir.path().join("run");
    std::fs::create_dir_all(&run_dir).unwrap();
    let diff = String::from_utf8_lossy(&git_output(repo.path(), ["diff", &base, &head]).unwrap().stdout)
        .into_owned();
    std::fs::write(run_dir.join("option-2-recipe.diff"), &diff).unwrap();
    std::fs::write(
        run_dir.join("option-2-recipe.yaml"),
        "type: specs.openrewrite.org/v1beta/recipe\nname: rewriteassist.Option2Narrow\nrecipeList:\n  - org.openrewrite.java.ChangePackage:\n      oldPackageName: \"javax.persistence\"\n      newPackageName: \"jakarta.persistence\"\n",
    )
    .unwrap();
    let stats = rewrite_assist::validation::empty_stats("rewriteassist.Option2Narrow", &Default::default());
    std::fs::write(run_dir.join("option-2-stats.json"), serde_json::to_string(&stats).unwrap()).unwrap();
    let summary: rewrite_assist::model::RunSummary = serde_json::from_value(json!({
        "status": "success", "reason": null,
        "recommended": {"option": 2, "precision": 1.0, "recall": 1.0, "f1": 1.0, "perfect_match": true,
                        "semantic_share": 1.0, "confidence": "recommended"},
        "options": [{"option": 2, "strategy": "narrow", "recipe_name": "rewriteassist.Option2Narrow", "recipes": 1,
                     "precision": 1.0, "recall": 1.0, "f1": 1.0, "perfect_match": true, "semantic_share": 1.0,
                     "wall_seconds": 30.0, "attempts": 1, "dropped": [], "tests_dropped": false, "error": null}],
        "intents": {"coverage": 1.0, "strategic": ["Migrate javax -> jakarta"], "tactical": 1, "atomic": 1},
        "artifacts_dir": run_dir, "wall_seconds": 31.0
    }))
    .unwrap();

    let fake = FakeGitHub::start();
    let client = client(&fake);
    let remote = gh::remote::Remote::new(
        &format!("file://{}", dir.path().join("server").display()),
        Some(TOKEN.to_string().into()),
    );
    let pr = gh::event::PullRequest {
        repo: RepoId::parse("acme/shop").unwrap(),
        number: 7,
        title: "Jakarta".into(),
        base_ref: "main".into(),
        base_sha: base.clone(),
        head_ref: "migration".into(),
        head_sha: head.clone(),
        head_repo: Some("acme/shop".into()),
    };
    let versions = rewrite_assist::openrewrite::Versions::default();
    let migration = gh::apply::Migration {
        pr: &pr,
        source: repo.path(),
        base_commit: &base,
        summary: &summary,
        option: None,
        versions: &versions,
        workflow_files: gh::apply::WorkflowFiles::Include,
    };
    let opened = gh::apply::open_for_pr(&client, &remote, &migration).unwrap();
    assert!(opened.created);
    assert_eq!(opened.url, "https://github.com/acme/shop/pull/100");
    let branch = "rewrite-assist/pr-7-option-2";
    let merged = show(&bare, &format!("{branch}:rewrite.yml"));
    assert!(merged.starts_with(existing), "the existing recipe is kept:\n{merged}");
    assert!(merged.contains("name: \"rewriteassist.Pr7Option2Narrow\""), "{merged}");
    assert!(show(&bare, &format!("{branch}:src/A.java")).starts_with("import jakarta.persistence.Entity;"));
    let creates: Vec<_> = fake.requests().into_iter().filter(|r| r.method == "POST").collect();
    assert_eq!(creates.len(), 1);
    assert_eq!(creates[0].body["head"], branch);
    assert_eq!(creates[0].body["base"], "main");

    // Again (e.g. after a new push to the PR): same branch, same PR, updated.
    let again = gh::apply::open_for_pr(&client, &remote, &migration).unwrap();
    assert_eq!((again.number, again.created), (opened.number, false));
    assert_eq!(fake.pulls().len(), 1);
    assert_eq!(count(&fake.calls(), "PATCH /repos/acme/shop/pulls/100"), 1);
    let merged = show(&bare, &format!("{branch}:rewrite.yml"));
    assert_eq!(merged.matches("rewriteassist.Pr7Option2Narrow").count(), 1, "replaced, not appended twice");

    // An option that was not produced is the user's to fix, and nothing is pushed.
    let error =
        gh::apply::open_for_pr(&client, &remote, &gh::apply::Migration { option: Some(3), ..migration })
            .unwrap_err();
    assert!(gh::user_message(&error).unwrap().contains("Option 3 was not produced"));
}

/// `rewrite-assist apply --recipe --repos`: one PR where the recipe changes something, nothing
/// where it does not, and a failing repository does not stop the others. Real OpenRewrite runs.
#[test]
fn rollout_opens_one_pr_per_repository_that_changes() {
    let dir = tempfile::tempdir().unwrap();
    let server = dir.path().join("server");
    let a = JAVAX_TO_JAKARTA.build(&dir.path().join("a")).unwrap();
    let b = JUNIT4_TO_JUNIT5.build(&dir.path().join("b")).unwrap();
    bare_copy(&a.path, &server.join("acme/a.git"));
    bare_copy(&b.path, &server.join("acme/b.git"));
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(
        &recipe,
        "type: specs.openrewrite.org/v1beta/recipe\nname: com.acme.Jakarta\nrecipeList:\n  - org.openrewrite.java.ChangePackage:\n      oldPackageName: javax.persistence\n      newPackageName: jakarta.persistence\n      recursive: true\n",
    )
    .unwrap();
    let fake = FakeGitHub::start();
    let out = bin()
        .args(["apply", "--repos", "acme/a,acme/b,acme/missing", "--recipe"])
        .arg(&recipe)
        .arg("--server-url")
        .arg(&server)
        .arg("--out")
        .arg(dir.path().join("out"))
        .env("GITHUB_API_URL", &fake.url)
        .env("GITHUB_TOKEN", TOKEN)
        .timeout(Duration::from_secs(900))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "one repository failed:\n{stdout}\n{stderr}");
    assert!(!stdout.contains(TOKEN) && !stderr.contains(TOKEN));
    let line = |repo: &str| {
        stdout.lines().find(|l| l.starts_with(repo)).unwrap_or_else(|| panic!("{repo}: {stdout}")).to_string()
    };
    assert!(
        line("acme/a ").contains("opened") && line("acme/a ").contains("https://github.com/acme/a/pull/100"),
        "{stdout}"
    );
    assert!(line("acme/b ").contains("no changes"), "{stdout}");
    assert!(line("acme/missing").contains("FAILED"), "{stdout}");
    let pulls = fake.pulls();
    assert_eq!(pulls.len(), 1, "{:#?}", fake.calls());
    assert_eq!((pulls[0].head.as_str(), pulls[0].base.as_str()), ("rewrite-assist/com.acme.jakarta", "main"));
    assert!(fake.calls().iter().all(|c| c.contains("/repos/acme/a/")), "{:#?}", fake.calls());
    let customer = show(
        &server.join("acme/a.git"),
        "rewrite-assist/com.acme.jakarta:src/main/java/com/acme/shop/Customer.java",
    );
    assert!(customer.contains("import jakarta.persistence.Entity;"));
    assert!(dir.path().join("out/acme-a/stats.json").is_file());
}

/// The event file is read through the bounded reader: one larger than GitHub's 25 MB cap, or one
/// without end, is refused at the limit (`/dev/zero` used to be read until memory ran out).
#[test]
fn an_event_file_without_end_is_refused_at_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let sparse = dir.path().join("event.json");
    // A hole: 26 MiB that take no disk space.
    std::fs::File::create(&sparse).unwrap().set_len(26 << 20).unwrap();
    for path in [sparse.as_path(), Path::new("/dev/zero")] {
        let mut cmd = bin_std();
        for name in ENV_VARS {
            cmd.env_remove(name);
        }
        let out = assert_cmd::Command::from_std(cmd)
            .arg("action")
            .env("GITHUB_EVENT_NAME", "pull_request")
            .env("GITHUB_EVENT_PATH", path)
            .env("GITHUB_REPOSITORY", "acme/shop")
            .env("GITHUB_API_URL", "http://127.0.0.1:9")
            .env("GITHUB_TOKEN", TOKEN)
            .env("RUNNER_TEMP", dir.path())
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {stderr}", path.display());
        assert_eq!(
            stderr.trim(),
            format!(
                "error: the event {} is larger than 25 MiB, the limit for event payloads",
                path.display()
            )
        );
    }
}
