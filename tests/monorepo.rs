//! Monorepos: two builds of one repository (`service-a/`, `service-b/`), each analyzed with its
//! `working-directory` as a matrix leg would: one results comment per build, and the recipe of each
//! in `rewrite.yml` at its own build's root — on a branch of its own with the workflow's token, or
//! both in commits on the PR's branch with a token of the action's own. Real analyses (the
//! embedded runner), the fake GitHub.

mod common;
#[path = "common/github.rs"]
mod github;
#[path = "common/world.rs"]
mod world;

use rewrite_assist::setup::git::git_output;
use world::{World, show};

#[test]
fn two_working_directories_give_two_comments_and_two_branches() {
    let world = World::two_builds();
    for build in ["service-a", "service-b"] {
        let ran = world.run(
            "pull_request",
            &world.pull_request_event(),
            &[
                ("INPUT_WORKING_DIRECTORY", build),
                ("INPUT_MODE", "pr"),
                ("INPUT_DEFAULT_TOKEN", "true"),
                ("INPUT_BACKEND", "embedded"),
            ],
        );
        ran.assert_ok();
        assert_eq!(ran.output("verdict"), "ready_to_roll_out", "{}", ran.outputs);
        assert!(ran.output("artifacts-dir").ends_with(&format!("run-42-pr-7-{build}")), "{}", ran.outputs);
    }
    let comments = world.fake.comments();
    let markers: Vec<&str> = comments.iter().map(|c| c.body.lines().next().unwrap()).collect();
    assert_eq!(
        markers,
        ["<!-- rewrite-assist:results:service-a -->", "<!-- rewrite-assist:results:service-b -->"],
        "one comment per build"
    );
    let pulls = world.fake.pulls();
    let heads: Vec<&str> = pulls.iter().map(|p| p.head.as_str()).collect();
    assert_eq!(heads, ["rewrite-assist/pr-7-recipe-service-a", "rewrite-assist/pr-7-recipe-service-b"]);
    let bare = world.bare();
    for (pull, build) in pulls.iter().zip(["service-a", "service-b"]) {
        let changed = git_output(&bare, ["diff", "--name-only", &world.fixture.base, &pull.head]).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&changed.stdout),
            format!("{build}/rewrite.yml\n"),
            "at its build's root"
        );
        assert!(
            show(&bare, &format!("{}:{build}/rewrite.yml", pull.head)).contains("rewriteassist.Pr7Reusable")
        );
        assert!(pull.body.contains(&format!("to `{build}/rewrite.yml`")), "{}", pull.body);
    }

    // Again, each build once more: the same two comments and PRs, updated.
    world
        .run(
            "pull_request",
            &world.pull_request_event(),
            &[
                ("INPUT_WORKING_DIRECTORY", "service-b"),
                ("INPUT_MODE", "pr"),
                ("INPUT_DEFAULT_TOKEN", "true"),
                ("INPUT_BACKEND", "embedded"),
            ],
        )
        .assert_ok();
    assert_eq!((world.fake.comments().len(), world.fake.pulls().len()), (2, 2));

    // With a token of the action's own, both recipes go onto the PR's branch, each at its root.
    for build in ["service-a", "service-b"] {
        let ran = world.run(
            "pull_request",
            &world.pull_request_event(),
            &[("INPUT_WORKING_DIRECTORY", build), ("INPUT_MODE", "pr"), ("INPUT_BACKEND", "embedded")],
        );
        ran.assert_ok();
    }
    let changed = git_output(&bare, ["diff", "--name-only", &world.fixture.head, "migration"]).unwrap();
    assert_eq!(String::from_utf8_lossy(&changed.stdout), "service-a/rewrite.yml\nservice-b/rewrite.yml\n");
    assert_eq!(world.fake.pulls().len(), 2, "no new pull request");
}

/// A build in `services/api/`, analyzed from the command line with `--working-directory`: the PR
/// edits a text file there that only a plain-text recipe reproduces. The recipe names the file from
/// the repository's root, as the PR does; the runner sees it from the build's directory.
#[test]
fn a_text_recipe_reproduces_a_change_inside_the_working_directory() {
    let dir = tempfile::tempdir().unwrap();
    let pom = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.acme</groupId>\n  <artifactId>api</artifactId>\n  <version>1.0.0</version>\n</project>\n";
    let repo = common::pr_repo(
        &dir.path().join("repo"),
        &[
            ("services/api/pom.xml", pom),
            ("services/api/notes.txt", "release train: blue\nowner: payments\n"),
            ("README.md", "a monorepo\n"),
        ],
        &[
            ("services/api/notes.txt", "release train: green\nowner: payments\n"),
            ("README.md", "the monorepo\n"),
        ],
    );
    let out = dir.path().join("out");
    let output = common::analyze_embedded(repo.path(), &out)
        .args(["--working-directory", "services/api"])
        .output()
        .unwrap();
    let summary = common::json_stdout(&output);
    assert!(output.status.success(), "{}\n{summary:#}", String::from_utf8_lossy(&output.stderr));
    let best =
        summary["options"].as_array().unwrap().iter().filter_map(|o| o["f1"].as_f64()).fold(0.0, f64::max);
    assert!(best > 0.0, "no option reproduced the edit: {summary:#}");
    let recipe = std::fs::read_to_string(out.join("option-2-recipe.yaml")).unwrap();
    assert!(recipe.contains("services/api/notes.txt"), "written from the repository's root: {recipe}");
}
