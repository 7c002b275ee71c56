//! The GitHub Action and PR bot end to end: the real `rewrite-assist action` binary (and the
//! library's client and migration PRs) against a local HTTP server standing in for the GitHub
//! API, real git repositories (pushes go to local bare repositories) and, where an analysis runs,
//! real OpenRewrite runs through Maven.

mod common;
#[path = "common/github.rs"]
mod github;
#[path = "common/world.rs"]
mod world;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{bin, bin_std};
use github::FakeGitHub;
use rewrite_assist::fixtures::RepoBuilder;
use rewrite_assist::fixtures::scenarios::{JAVAX_TO_JAKARTA, JUNIT4_TO_JUNIT5};
use rewrite_assist::github::action::ENV_VARS;
use rewrite_assist::github::{self as gh, RepoId};
use rewrite_assist::setup::git::git_output;
use serde_json::json;
use world::{MARKER, TOKEN, World, bare_copy, client, count, show, walkdir};

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
        "✅ ready to roll out",
        "**Migration**: the intent tree names a migration: Migrate javax -> jakarta.",
        "| option | strategy | precision | recall | F1 | migration precision | semantic | recipes | time |",
        "jakarta.persistence",
        "<details><summary>Intent tree:",
        "file://",
        "/acme/shop/actions/runs/42",
    ] {
        assert!(body.contains(expected), "{expected} missing in\n{body}");
    }
    // Job summary and step outputs.
    assert!(ran.summary.starts_with("# rewrite-assist: ✅ ready to roll out"), "{}", ran.summary);
    assert!(ran.summary.contains("acme/shop#7"));
    assert_eq!(
        (ran.output("pr_kind"), ran.output("verdict")),
        ("migration".into(), "ready_to_roll_out".into())
    );
    assert!(ran.output("pr_kind_reason").starts_with("the intent tree names a migration"), "{}", ran.outputs);
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
    assert!(body.starts_with("<!-- rewrite-assist:results:service -->\n"), "the build's own marker: {body}");
    assert!(body.contains("✅ ready to roll out"), "{body}");
    assert!(artifacts.ends_with("run-42-pr-7-service"), "{}", artifacts.display());

    // Without it, the build is not found at the root: the root's comment says so, the service's
    // comment stays as it was.
    let ran = world.run("pull_request", &world.pull_request_event(), &[]);
    ran.assert_ok();
    let comments = world.fake.comments();
    assert_eq!(comments.len(), 2, "one comment per build");
    assert_eq!(&comments[0].body, body);
    assert!(
        comments[1].body.starts_with(MARKER) && comments[1].body.contains("could not analyze"),
        "{}",
        comments[1].body
    );
    // A directory outside the repository is bad input.
    let ran = world.run(
        "pull_request",
        &world.pull_request_event(),
        &[("INPUT_WORKING_DIRECTORY", "../elsewhere")],
    );
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
}

/// The PR's lines the recommended recipe does not make are notices on the PR's head file, by its
/// path from the repository's root (the build is in `service/`). Real analysis, embedded runner.
#[test]
fn the_lines_the_recipe_leaves_are_notices_on_the_prs_files() {
    let world = World::monorepo_with_a_line_no_recipe_makes();
    let inputs =
        [("INPUT_WORKING_DIRECTORY", "service"), ("INPUT_BACKEND", "embedded"), ("INPUT_MODE", "none")];
    let ran = world.run("pull_request", &world.pull_request_event(), &inputs);
    ran.assert_ok();
    let option = ran.output("recommended-option");
    let notices: Vec<&str> = ran.stdout.lines().filter(|l| l.starts_with("::notice ")).collect();
    assert_eq!(
        notices,
        [format!(
            "::notice file=service/data.txt,line=10,title=Not made by the recipe (option {option})::The recommended \
recipe (option {option}) does not make 2 changed lines of this PR here:%0A-x%0A+y"
        )],
        "{}",
        ran.stdout
    );
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

/// A writer's `/rewrite-assist apply` with a token of the action's own: the reusable recipe, renamed
/// after the PR, lands in `rewrite.yml` in a commit on top of the PR's branch — the PR already makes
/// the migration, so no copy of it. Again: nothing to add. `apply 2` adds option 2's recipe beside
/// it; `apply 4` is the reusable one again. Real analyses (the embedded runner).
#[test]
fn apply_commits_the_reusable_recipe_onto_the_prs_branch() {
    let world = World::javax();
    world.fake.permission("alice", "admin");
    let embedded = [("INPUT_BACKEND", "embedded")];
    let apply = |which: &str| world.comment_event(&format!("/rewrite-assist apply{which}"), "alice", "OWNER");
    let ran = world.run("issue_comment", &apply(""), &embedded);
    ran.assert_ok();
    assert!(world.fake.pulls().is_empty(), "no pull request: {:#?}", world.fake.calls());
    let bare = world.bare();
    let head = &world.fixture.head;
    let tip = |rev: &str| {
        String::from_utf8_lossy(&git_output(&bare, ["rev-parse", rev]).unwrap().stdout).trim().to_string()
    };
    assert_eq!(tip("migration~1"), *head, "on top of the PR's branch");
    let changed = git_output(&bare, ["diff", "--name-only", head, "migration"]).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&changed.stdout),
        "rewrite.yml\n",
        "only the recipe, no copy of the change"
    );
    let rewrite_yml = show(&bare, "migration:rewrite.yml");
    assert!(rewrite_yml.contains("name: \"rewriteassist.Pr7Reusable\""), "{rewrite_yml}");
    assert!(rewrite_yml.contains("displayName: \"Migration of acme/shop#7 (reusable)\""), "{rewrite_yml}");
    // The reusable recipe of the run, step for step.
    let artifacts = PathBuf::from(ran.output("artifacts-dir"));
    let reusable = std::fs::read_to_string(artifacts.join("result/reusable-recipe.yaml")).unwrap();
    let steps =
        |yaml: &str| yaml.lines().filter(|l| l.starts_with("  - ")).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(steps(&rewrite_yml), steps(&reusable), "{rewrite_yml}\n---\n{reusable}");
    let reply = world.fake.comments().last().unwrap().body.clone();
    assert!(
        reply.starts_with("Added the recipe `rewriteassist.Pr7Reusable` to `rewrite.yml` in a commit on this pull request's branch"),
        "{reply}"
    );
    assert!(reply.contains(&format!("/acme/shop/commit/{}", tip("migration"))), "{reply}");
    assert_eq!(world.fake.reactions(), vec![(555, "eyes".into()), (555, "rocket".into())]);
    assert_eq!((ran.output("pr-url"), ran.output("pr-number")), (String::new(), String::new()));

    let before = tip("migration");
    world.run("issue_comment", &apply(""), &embedded).assert_ok();
    assert_eq!(tip("migration"), before, "the recipe is already there");
    assert!(
        world
            .fake
            .comments()
            .last()
            .unwrap()
            .body
            .contains("already has the recipe `rewriteassist.Pr7Reusable`")
    );

    world.run("issue_comment", &apply(" 2"), &embedded).assert_ok();
    let rewrite_yml = show(&bare, "migration:rewrite.yml");
    assert!(
        rewrite_yml.contains("rewriteassist.Pr7Reusable")
            && rewrite_yml.contains("rewriteassist.Pr7Option2Narrow"),
        "{rewrite_yml}"
    );
    assert_eq!(tip("migration~1"), before);

    // `apply 4` names the reusable recipe by the number of its files (it used to be refused).
    let two = tip("migration");
    world.run("issue_comment", &apply(" 4"), &embedded).assert_ok();
    assert_eq!(tip("migration"), two);
    let reply = world.fake.comments().last().unwrap().body.clone();
    assert!(reply.contains("already has the recipe `rewriteassist.Pr7Reusable`"), "{reply}");
}

/// With the workflow's own token (its pushes start no checks on the PR) the recipe comes in a pull
/// request of its own that adds only `rewrite.yml`, from the PR's base. A 403 on creating it
/// (organisations forbid it by default) says what to change; a PR branch that refuses a commit from
/// a token of one's own gets that pull request too, updated. Real analyses (the embedded runner).
#[test]
fn the_default_token_proposes_the_recipe_in_a_pull_request_of_its_own() {
    let world = World::javax();
    world.fake.permission("alice", "admin");
    let apply = world.comment_event("/rewrite-assist apply", "alice", "OWNER");
    let default_token = [("INPUT_DEFAULT_TOKEN", "true"), ("INPUT_BACKEND", "embedded")];
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
    let pulls = world.fake.pulls();
    assert_eq!(pulls.len(), 1);
    let branch = "rewrite-assist/pr-7-recipe";
    assert_eq!((pulls[0].head.as_str(), pulls[0].base.as_str()), (branch, "main"));
    for expected in [
        "Adds the OpenRewrite recipe `rewriteassist.Pr7Reusable` to `rewrite.yml`",
        "[acme/shop#7](",
        "### What each step does",
        "-Drewrite.failOnDryRunResults=true",
    ] {
        assert!(pulls[0].body.contains(expected), "{expected} missing in\n{}", pulls[0].body);
    }
    // One row per step of the run's reusable recipe, each named in the table.
    let artifacts = PathBuf::from(ran.output("artifacts-dir"));
    let reusable = std::fs::read_to_string(artifacts.join("result/reusable-recipe.yaml")).unwrap();
    for step in reusable.lines().filter_map(|l| l.strip_prefix("  - ")) {
        let simple = step.trim_end_matches(':').rsplit('.').next().unwrap();
        assert!(pulls[0].body.contains(&format!("| `{simple}` |")), "{simple} missing in\n{}", pulls[0].body);
    }
    let bare = world.bare();
    let changed = git_output(&bare, ["diff", "--name-only", &world.fixture.base, branch]).unwrap();
    assert_eq!(String::from_utf8_lossy(&changed.stdout), "rewrite.yml\n", "only the recipe");
    let reply = world.fake.comments().last().unwrap().body.clone();
    assert!(reply.starts_with("Opened https://github.com/acme/shop/pull/100 to add the recipe"), "{reply}");
    assert!(reply.contains("the workflow's own token would start no checks"), "{reply}");
    assert_eq!(
        (ran.output("pr-url"), ran.output("pr-number")),
        ("https://github.com/acme/shop/pull/100".into(), "100".into())
    );

    // A protected PR branch: the server refuses the commit, the recipe's pull request is updated.
    let hook = bare.join("hooks/pre-receive");
    std::fs::write(
        &hook,
        "#!/bin/sh\nwhile read old new ref; do [ \"$ref\" = refs/heads/migration ] && { echo 'protected branch' >&2; exit 1; }; done\nexit 0\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let ran = world.run("issue_comment", &apply, &[("INPUT_BACKEND", "embedded")]);
    ran.assert_ok();
    let reply = world.fake.comments().last().unwrap().body.clone();
    assert!(reply.starts_with("Updated https://github.com/acme/shop/pull/100"), "{reply}");
    assert!(reply.contains("its branch refused the commit") && reply.contains("protected branch"), "{reply}");
    assert_eq!(world.fake.pulls().len(), 1, "updated, not duplicated");
    let tip = git_output(&bare, ["rev-parse", "migration"]).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&tip.stdout).trim(),
        world.fixture.head,
        "the PR's branch is untouched"
    );
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

/// The recipe's own pull request through the library: the reusable recipe merged into the build's
/// existing `rewrite.yml` (its recipes kept), on a branch from the PR's base that changes nothing
/// else; a second proposal updates the same PR instead of opening another.
#[test]
fn a_recipe_pr_merges_into_rewrite_yml_and_is_updated_rather_than_duplicated() {
    let dir = tempfile::tempdir().unwrap();
    let repo = RepoBuilder::init(&dir.path().join("repo")).unwrap();
    let existing = "---\ntype: specs.openrewrite.org/v1beta/recipe\nname: com.acme.Existing\nrecipeList:\n  - org.openrewrite.java.OrderImports\n";
    repo.write("api/rewrite.yml", existing).unwrap();
    repo.write("api/src/A.java", "import javax.persistence.Entity;\n\n@Entity\nclass A {}\n").unwrap();
    let base = repo.commit("base").unwrap();
    repo.write("api/src/A.java", "import jakarta.persistence.Entity;\n\n@Entity\nclass A {}\n").unwrap();
    let head = repo.commit("migrate").unwrap();
    let bare = dir.path().join("server/acme/shop.git");
    bare_copy(repo.path(), &bare);

    let run_dir = dir.path().join("run");
    std::fs::create_dir_all(run_dir.join("result")).unwrap();
    std::fs::write(
        run_dir.join("result/reusable-recipe.yaml"),
        "type: specs.openrewrite.org/v1beta/recipe\nname: rewriteassist.Option4Reusable\nrecipeList:\n  - org.openrewrite.java.ChangePackage:\n      oldPackageName: \"javax.persistence\"\n      newPackageName: \"jakarta.persistence\"\n",
    )
    .unwrap();
    let run = json!({"option": 4, "strategy": "reusable", "recipe_name": "rewriteassist.Option4Reusable", "recipes": 1,
                     "precision": 1.0, "recall": 1.0, "f1": 1.0, "perfect_match": true, "semantic_share": 1.0,
                     "wall_seconds": 30.0, "attempts": 1, "dropped": [], "tests_dropped": false, "error": null});
    let summary: rewrite_assist::model::RunSummary = serde_json::from_value(json!({
        "status": "success", "reason": null, "pr_kind": "migration",
        "pr_kind_reason": "the intent tree names a migration: Migrate javax -> jakarta", "verdict": "ready_to_roll_out",
        "recommended": {"option": 2, "precision": 1.0, "recall": 1.0, "f1": 1.0, "perfect_match": true,
                        "semantic_share": 1.0, "confidence": "recommended"},
        "options": [],
        "reusable": {"recipe_name": "rewriteassist.Option4Reusable", "recipes": 1, "generalized": [], "result": run},
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
    let project_dir = rewrite_assist::setup::ProjectDir::parse("api").unwrap();
    let proposal = gh::propose::Proposal {
        pr: &pr,
        summary: &summary,
        source: repo.path(),
        base_commit: &base,
        choice: None,
        versions: &versions,
        project_dir: project_dir.as_ref(),
        token: gh::propose::PushToken::WorkflowDefault,
        server_url: "https://github.com",
    };
    let proposed = gh::propose::propose(&client, &remote, &proposal).unwrap();
    let opened = proposed.pull_request().unwrap().clone();
    assert!(opened.created);
    assert_eq!(opened.url, "https://github.com/acme/shop/pull/100");
    let branch = "rewrite-assist/pr-7-recipe-api";
    let merged = show(&bare, &format!("{branch}:api/rewrite.yml"));
    assert!(merged.starts_with(existing), "the existing recipe is kept:\n{merged}");
    assert!(merged.contains("name: \"rewriteassist.Pr7Reusable\""), "{merged}");
    assert!(
        show(&bare, &format!("{branch}:api/src/A.java")).starts_with("import javax.persistence.Entity;"),
        "no copy of the PR's change"
    );
    let creates: Vec<_> = fake.requests().into_iter().filter(|r| r.method == "POST").collect();
    assert_eq!(creates.len(), 1);
    assert_eq!(
        (creates[0].body["head"].as_str(), creates[0].body["base"].as_str()),
        (Some(branch), Some("main"))
    );

    // Again (e.g. after a new push to the PR): same branch, same PR, updated.
    let again = gh::propose::propose(&client, &remote, &proposal).unwrap();
    let again = again.pull_request().unwrap();
    assert_eq!((again.number, again.created), (opened.number, false));
    assert_eq!(fake.pulls().len(), 1);
    assert_eq!(count(&fake.calls(), "PATCH /repos/acme/shop/pulls/100"), 1);
    let merged = show(&bare, &format!("{branch}:api/rewrite.yml"));
    assert_eq!(merged.matches("rewriteassist.Pr7Reusable").count(), 1, "replaced, not appended twice");

    // An option that was not produced is the user's to fix, and nothing is pushed.
    let choice = Some(gh::choice::RecipeChoice::Three);
    let error =
        gh::propose::propose(&client, &remote, &gh::propose::Proposal { choice, ..proposal }).unwrap_err();
    assert!(gh::user_message(&error).unwrap().contains("Option 3 was not produced"));
}

/// `rewrite-assist apply --recipe --repos --open-prs`: one PR where the recipe changes something
/// (its changes and the recipe in `rewrite.yml`), nothing where it does not, and a failing
/// repository does not stop the others. Real OpenRewrite runs.
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
        .args(["apply", "--open-prs", "--repos", "acme/a,acme/b,acme/missing", "--recipe"])
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
        let row = format!("| {repo} |");
        stdout.lines().find(|l| l.starts_with(&row)).unwrap_or_else(|| panic!("{repo}: {stdout}")).to_string()
    };
    assert!(
        line("acme/a").contains("| opened |")
            && line("acme/a").contains("https://github.com/acme/a/pull/100"),
        "{stdout}"
    );
    assert!(line("acme/b").contains("| no changes |"), "{stdout}");
    assert!(line("acme/missing").contains("| **failed** |"), "{stdout}");
    let pulls = fake.pulls();
    assert_eq!(pulls.len(), 1, "{:#?}", fake.calls());
    assert_eq!((pulls[0].head.as_str(), pulls[0].base.as_str()), ("rewrite-assist/com.acme.jakarta", "main"));
    // Elsewhere only reads: the campaign's open PRs are counted (`--max-prs`), and a repository
    // without changes is checked for a stale PR to close and for a merged one; nothing is written
    // there.
    assert!(
        fake.calls().iter().filter(|c| !c.contains("/repos/acme/a/")).all(|c| c.starts_with("GET ")
            && (c.contains("/pulls?state=open&head=") || c.contains("/pulls?state=closed&head="))),
        "{:#?}",
        fake.calls()
    );
    let customer = show(
        &server.join("acme/a.git"),
        "rewrite-assist/com.acme.jakarta:src/main/java/com/acme/shop/Customer.java",
    );
    assert!(customer.contains("import jakarta.persistence.Entity;"));
    let recipe = show(&server.join("acme/a.git"), "rewrite-assist/com.acme.jakarta:rewrite.yml");
    assert!(recipe.contains("name: \"com.acme.Jakarta\""), "the recipe travels with its changes: {recipe}");
    for file in ["acme/a/stats.json", "rollout.md", "rollout.json"] {
        assert!(dir.path().join("out").join(file).is_file(), "{file}");
    }
}

/// The event file is read through the bounded reader: one larger than GitHub's 25 MB cap is refused
/// at the limit, and one that is not a regular file before it is read: `/dev/zero` used to be read
/// until memory ran out, and a FIFO blocked the run for ever.
#[test]
fn an_event_file_without_end_is_refused_at_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let sparse = dir.path().join("event.json");
    // A hole: 26 MiB that take no disk space.
    std::fs::File::create(&sparse).unwrap().set_len(26 << 20).unwrap();
    let fifo = dir.path().join("event-fifo.json");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    for path in [sparse.as_path(), Path::new("/dev/zero"), fifo.as_path()] {
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
        let why = if path == sparse {
            "is larger than 25 MiB, the limit for event payloads"
        } else {
            "is not a regular file"
        };
        assert_eq!(stderr.trim(), format!("error: the event {} {why}", path.display()));
    }
}
