//! The migration gate and the verdict: ordinary pull requests (a bug fix, a refactoring of the
//! repository's own code, a configuration tweak) are `ordinary` in `analyze --json`, and the action
//! writes one line in the job summary for them, no comment and no PR; a migration is still
//! `ready_to_roll_out`, and `mode: pr` proposes its recipe. Real git repositories, real OpenRewrite
//! runs (the embedded runner, which also validates the reusable recipe), the fake GitHub.

mod common;
#[path = "common/github.rs"]
mod github;
#[path = "common/world.rs"]
mod world;

use common::json_stdout;
use rewrite_assist::fixtures::Scenario;
use rewrite_assist::fixtures::ordinary::{BUG_FIX, CONFIG_TWEAK, ORDINARY, REFACTORING};
use rewrite_assist::fixtures::scenarios::JAVAX_TO_JAKARTA;
use rewrite_assist::setup::git::git_output;
use world::{MARKER, World};

const EMBEDDED: (&str, &str) = ("INPUT_BACKEND", "embedded");

fn analyze(scenario: &Scenario) -> (serde_json::Value, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let fixture = scenario.build(&dir.path().join("repo")).unwrap();
    let out = dir.path().join("out");
    let output = common::analyze_embedded(&fixture.path, &out).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let metadata = std::fs::read_to_string(out.join("workflow-metadata.json")).unwrap();
    (json_stdout(&output), serde_json::from_str(&metadata).unwrap())
}

#[test]
fn ordinary_prs_are_ordinary_and_a_migration_is_ready_to_roll_out() {
    for (scenario, reason) in [
        (&BUG_FIX, "no semantic recipe reproduces it (no reusable recipe)"),
        (&REFACTORING, "beyond renames of the repository's own code and values of its own configuration"),
        (&CONFIG_TWEAK, "beyond renames of the repository's own code and values of its own configuration"),
    ] {
        let (summary, metadata) = analyze(scenario);
        assert_eq!(summary["pr_kind"], "ordinary", "{}: {summary:#}", scenario.name);
        let why = summary["pr_kind_reason"].as_str().unwrap();
        assert!(why.starts_with("the intent tree names no migration") && why.contains(reason), "{why}");
        assert_ne!(summary["verdict"], "ready_to_roll_out", "{}", scenario.name);
        assert_eq!(metadata["pr_kind"], "ordinary");
        assert_eq!(metadata["verdict"], summary["verdict"]);
    }
    // A recipe replays the refactoring perfectly: the verdict says it is for this PR only.
    let (summary, _) = analyze(&REFACTORING);
    assert_eq!(summary["recommended"]["f1"], 1.0, "{summary:#}");
    assert_eq!(summary["verdict"], "reproduces_this_pr_only");

    let (summary, metadata) = analyze(&JAVAX_TO_JAKARTA);
    assert_eq!(summary["pr_kind"], "migration", "{summary:#}");
    assert_eq!(summary["pr_kind_reason"], "the intent tree names a migration: Migrate javax -> jakarta");
    assert_eq!(summary["verdict"], "ready_to_roll_out", "{summary:#}");
    assert_eq!(summary["recommended"]["confidence"], "recommended", "the confidence stays");
    assert_eq!(metadata["reusable"], summary["reusable"]);
}

/// `mode: pr` on every ordinary fixture: one line in the job summary, nothing on the PR, nothing
/// pushed; the outputs say why.
#[test]
fn the_action_writes_one_line_about_an_ordinary_pr_and_nothing_on_it() {
    for scenario in ORDINARY {
        let world = World::of(scenario);
        let ran = world.run("pull_request", &world.pull_request_event(), &[("INPUT_MODE", "pr"), EMBEDDED]);
        ran.assert_ok();
        assert_eq!(world.fake.calls(), Vec::<String>::new(), "{}: no comment, no PR", scenario.name);
        assert_eq!(ran.summary.lines().count(), 1, "{}", ran.summary);
        assert!(
            ran.summary.starts_with(
                "rewrite-assist: acme/shop#7 is not a migration: the intent tree names no migration"
            ),
            "{}",
            ran.summary
        );
        assert_eq!(ran.output("pr_kind"), "ordinary");
        assert_ne!(ran.output("verdict"), "ready_to_roll_out");
        assert_eq!((ran.output("comment-url"), ran.output("pr-url")), (String::new(), String::new()));
        let branches = git_output(&world.bare(), ["branch", "--list", "--format=%(refname:short)"]).unwrap();
        assert_eq!(String::from_utf8_lossy(&branches.stdout), "main\nmigration\n", "nothing pushed");
    }
}

/// A writer asks anyway: `run` is answered that there is no migration, and why; `apply` is refused
/// the same way; with `comment: always` the results comment is written for an ordinary PR too.
#[test]
fn commands_on_an_ordinary_pr_are_answered_with_the_reason() {
    let world = World::of(&REFACTORING);
    world.fake.permission("alice", "write");
    let run = world.comment_event("/rewrite-assist run", "alice", "MEMBER");
    world.run("issue_comment", &run, &[EMBEDDED]).assert_ok();
    let comments = world.fake.comments();
    assert_eq!(comments.len(), 1, "a reply, no results comment: {comments:#?}");
    assert!(
        comments[0]
            .body
            .starts_with("No migration found in this pull request: the intent tree names no migration"),
        "{}",
        comments[0].body
    );
    assert_eq!(world.fake.reactions(), vec![(555, "eyes".to_string()), (555, "rocket".to_string())]);

    let apply = world.comment_event("/rewrite-assist apply", "alice", "MEMBER");
    world.run("issue_comment", &apply, &[EMBEDDED]).assert_ok();
    assert!(
        world.fake.comments()[1].body.starts_with("No migration found"),
        "{}",
        world.fake.comments()[1].body
    );
    assert_eq!(world.fake.reactions()[3], (555, "confused".to_string()));
    assert!(world.fake.pulls().is_empty());

    let ran =
        world.run("pull_request", &world.pull_request_event(), &[("INPUT_COMMENT", "always"), EMBEDDED]);
    ran.assert_ok();
    let body = &world.fake.comments()[2].body;
    assert!(
        body.starts_with(MARKER) && body.contains("## rewrite-assist: 📝 reproduces this PR only"),
        "{body}"
    );
    assert!(body.contains("**Not a migration**: the intent tree names no migration"), "{body}");
    assert_eq!(ran.summary.lines().count(), 1, "the job summary stays one line");

    let ran = world.run("pull_request", &world.pull_request_event(), &[("INPUT_COMMENT", "sometimes")]);
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(
        ran.stderr.contains("input `comment` must be migrations, always or never, not `sometimes`"),
        "{}",
        ran.stderr
    );
}

/// A migration is still ready to roll out: the results comment, and with `mode: pr` (the workflow's
/// own token) a pull request that adds only the reusable recipe, not a copy of the PR's change.
#[test]
fn a_migration_is_ready_to_roll_out_and_mode_pr_proposes_its_recipe() {
    let world = World::javax();
    let ran = world.run(
        "pull_request",
        &world.pull_request_event(),
        &[("INPUT_MODE", "pr"), ("INPUT_DEFAULT_TOKEN", "true"), EMBEDDED],
    );
    ran.assert_ok();
    assert_eq!(
        (ran.output("pr_kind"), ran.output("verdict")),
        ("migration".into(), "ready_to_roll_out".into())
    );
    let comments = world.fake.comments();
    assert_eq!(comments.len(), 1);
    assert!(comments[0].body.contains("## rewrite-assist: ✅ ready to roll out"), "{}", comments[0].body);
    let pulls = world.fake.pulls();
    assert_eq!(pulls.len(), 1, "{:#?}", world.fake.calls());
    assert_eq!(pulls[0].head, "rewrite-assist/pr-7-recipe");
    assert_eq!(ran.output("pr-url"), "https://github.com/acme/shop/pull/100");
    let changed =
        git_output(&world.bare(), ["diff", "--name-only", &world.fixture.base, &pulls[0].head]).unwrap();
    assert_eq!(String::from_utf8_lossy(&changed.stdout), "rewrite.yml\n");
    // `comment: never` keeps the PR thread quiet even for a migration.
    world.fake.clear_requests();
    let ran = world.run("pull_request", &world.pull_request_event(), &[("INPUT_COMMENT", "never"), EMBEDDED]);
    ran.assert_ok();
    assert_eq!(world.fake.calls(), Vec::<String>::new());
    assert!(ran.summary.starts_with("# rewrite-assist: ✅ ready to roll out"), "{}", ran.summary);
}
