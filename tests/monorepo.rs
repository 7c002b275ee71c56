//! Monorepos: two builds of one repository (`service-a/`, `service-b/`), each analyzed with its
//! `working-directory` as a matrix leg would: one results comment per build, and the recipe of each
//! in `rewrite.yml` at its own build's root — on a branch of its own with the workflow's token, or
//! both in commits on the PR's branch with a token of the action's own. Real analyses (the
//! embedded runner), the fake GitHub. And `analyze --working-directory` from the command line: a
//! text recipe's file paths, and a working directory that leads out of the repository.

mod common;
#[path = "common/github.rs"]
mod github;
#[path = "common/world.rs"]
mod world;

use rewrite_assist::fixtures::RepoBuilder;
use rewrite_assist::setup::git::git_output;
use world::{World, show};

const POM: &str = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.acme</groupId>\n  <artifactId>api</artifactId>\n  <version>1.0.0</version>\n</project>\n";

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
    let repo = common::pr_repo(
        &dir.path().join("repo"),
        &[
            ("services/api/pom.xml", POM),
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

/// A working directory that the base commit makes a symbolic link out of the repository is refused
/// before anything reads from there, and it is the same bad input (exit code 2) whichever backend
/// meets it: the embedded runner's session or the plugin's build.
#[test]
fn a_working_directory_leading_out_of_the_repository_is_bad_input_for_either_backend() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let repo = RepoBuilder::init(&dir.path().join("repo")).unwrap();
    repo.write("README.md", "a monorepo\n").unwrap();
    std::fs::create_dir_all(repo.path().join("services")).unwrap();
    std::os::unix::fs::symlink(&outside, repo.path().join("services/api")).unwrap();
    repo.commit("base").unwrap();
    repo.branch("migration").unwrap();
    // The PR makes it a directory with a build in it.
    std::fs::remove_file(repo.path().join("services/api")).unwrap();
    repo.write("services/api/pom.xml", POM).unwrap();
    repo.write("services/api/notes.txt", "release train: green\n").unwrap();
    repo.commit("a build of its own").unwrap();
    for backend in ["embedded", "plugin"] {
        let output = common::bin()
            .args(["analyze", "--base", "main", "--head", "migration", "--backend", backend])
            .args(["--working-directory", "services/api", "--repo"])
            .arg(repo.path())
            .arg("--out")
            .arg(dir.path().join(format!("out-{backend}")))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{backend}: {stderr}");
        assert!(stderr.contains("leads outside the repository"), "{backend}: {stderr}");
    }
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0, "nothing was written there");
}
