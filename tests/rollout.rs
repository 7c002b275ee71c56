//! The rollout end to end: the action analyzes a migration PR (its artifacts hold the reusable
//! recipe and where it came from), then `rewrite-assist apply --recipe <those artifacts>` runs that
//! recipe on three other repositories — a dry run that writes the table and the artifacts and
//! pushes nothing, then `--open-prs`, then the same again, which updates the three PRs instead of
//! opening three more. Real git repositories on a local server, real OpenRewrite runs through Maven,
//! the fake GitHub.

mod common;
#[path = "common/github.rs"]
mod github;
#[path = "common/schemas.rs"]
mod schemas;
#[path = "common/world.rs"]
mod world;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::bin;
use github::FakeGitHub;
use rewrite_assist::fixtures::scenarios::{DEMO, JAVAX_TO_JAKARTA};
use rewrite_assist::setup::git::git_output;
use serde_json::Value;
use world::{TOKEN, World, bare_copy, count, show};

const REPOS: [&str; 3] = ["acme/a", "acme/b", "acme/c"];

/// The source PR's analysis by the action: its run directory.
fn analyzed(world: &World) -> PathBuf {
    let ran = world.run("pull_request", &world.pull_request_event(), &[("INPUT_BACKEND", "embedded")]);
    ran.assert_ok();
    assert_eq!(ran.output("verdict"), "ready_to_roll_out", "{}", ran.outputs);
    PathBuf::from(ran.output("artifacts-dir"))
}

/// Three repositories still on javax.persistence, served from `server`.
fn targets(dir: &Path, server: &Path) {
    for (repo, scenario) in REPOS.iter().zip([&JAVAX_TO_JAKARTA, &DEMO, &JAVAX_TO_JAKARTA]) {
        let fixture = scenario.build(&dir.join(repo.replace('/', "-"))).unwrap();
        let bare = server.join(format!("{repo}.git"));
        bare_copy(&fixture.path, &bare);
        // Only the default branch: these repositories have not migrated.
        git_output(&bare, ["branch", "-D", "migration"]).unwrap();
    }
}

fn apply(
    recipe: &Path,
    server: &Path,
    out: &Path,
    fake: &FakeGitHub,
    extra: &[&str],
) -> (Option<i32>, String) {
    apply_to(&REPOS, recipe, server, out, fake, extra)
}

/// [`apply`] to `repos` only.
fn apply_to(
    repos: &[&str],
    recipe: &Path,
    server: &Path,
    out: &Path,
    fake: &FakeGitHub,
    extra: &[&str],
) -> (Option<i32>, String) {
    let mut cmd = bin();
    cmd.args(["apply", "--repos", &repos.join(","), "--jobs", "2", "--recipe"])
        .arg(recipe)
        .arg("--server-url")
        .arg(server)
        .arg("--out")
        .arg(out)
        .args(extra)
        .env("GITHUB_API_URL", &fake.url)
        .timeout(Duration::from_secs(1800));
    if extra.contains(&"--open-prs") {
        cmd.env("GITHUB_TOKEN", TOKEN);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stdout.contains(TOKEN) && !stderr.contains(TOKEN));
    (out.status.code(), format!("{stdout}\n--- stderr\n{stderr}"))
}

fn branches(bare: &Path) -> String {
    let list = git_output(bare, ["branch", "--list", "--format=%(refname:short)"]).unwrap();
    String::from_utf8_lossy(&list.stdout).into_owned()
}

/// The recipe steps of a recipe file, as written.
fn steps(yaml: &str) -> Vec<String> {
    yaml.lines().filter(|l| l.starts_with("  - ") || l.starts_with("      ")).map(str::to_string).collect()
}

#[test]
fn a_dry_run_then_pull_requests_then_updates() {
    let world = World::javax();
    let artifacts = analyzed(&world);
    // The action's artifacts are documents too, its PR's `result/pull-request.json` among them.
    assert!(artifacts.join("result/pull-request.json").is_file());
    assert!(schemas::assert_documents(&artifacts) >= 10, "the analysis's documents");
    let server = world.dir.path().join("targets");
    targets(world.dir.path(), &server);
    let fake = FakeGitHub::start();

    // The dry run: a table and the artifacts, nothing pushed, no API call.
    let out = world.dir.path().join("dry-run");
    let (code, output) = apply(&artifacts, &server, &out, &fake, &["--dry-run", "--json"]);
    assert_eq!(code, Some(0), "{output}");
    let printed = output.split("\n--- stderr").next().unwrap();
    schemas::assert_output("rollout", printed);
    assert_eq!(
        schemas::assert_documents(&out),
        7,
        "rollout.json, each repository's result.json and stats.json"
    );
    let report: Value = serde_json::from_str(printed).unwrap();
    assert_eq!(report["mode"], "dry-run");
    for (result, repo) in report["results"].as_array().unwrap().iter().zip(REPOS) {
        assert_eq!(
            (result["repo"].as_str(), result["status"].as_str()),
            (Some(repo), Some("would_change")),
            "{result:#}"
        );
        assert!(
            result["files"].as_u64().unwrap() >= 2 && result["lines"].as_u64().unwrap() >= 4,
            "{result:#}"
        );
        assert!(!result["steps"].as_array().unwrap().is_empty(), "which recipe changed what: {result:#}");
        let dir = PathBuf::from(result["artifacts"].as_str().unwrap());
        assert!(dir.join("recipe.diff").is_file() && dir.join("build.log").is_file(), "{}", dir.display());
    }
    let table = std::fs::read_to_string(out.join("rollout.md")).unwrap();
    for repo in REPOS {
        assert!(table.contains(&format!("| {repo} | would change |")), "{table}");
    }
    assert!(table.contains("3 repositories: 3 would change. Dry run: nothing was pushed"), "{table}");
    assert!(out.join("rollout.json").is_file());
    assert_eq!(fake.calls(), Vec::<String>::new());
    for repo in REPOS {
        assert_eq!(branches(&server.join(format!("{repo}.git"))), "main\n", "{repo}: nothing pushed");
    }

    // The pull requests: the reusable recipe, named after its PR, with its changes.
    let (code, output) = apply(&artifacts, &server, &world.dir.path().join("open"), &fake, &["--open-prs"]);
    assert_eq!(code, Some(0), "{output}");
    let pulls = fake.pulls();
    assert_eq!(pulls.len(), 3, "{:#?}", fake.calls());
    let reusable = std::fs::read_to_string(artifacts.join("result/reusable-recipe.yaml")).unwrap();
    for repo in REPOS {
        let pull = pulls.iter().find(|p| p.repo == repo).unwrap_or_else(|| panic!("no PR in {repo}"));
        assert_eq!(
            (pull.head.as_str(), pull.base.as_str()),
            ("rewrite-assist/rewriteassist.pr7reusable", "main")
        );
        for expected in [
            "Opened by `rewrite-assist apply --open-prs`: the OpenRewrite recipe `rewriteassist.Pr7Reusable` run on `main`",
            "rewrite-assist generalized it from [acme/shop#7](",
            "there it reproduced the pull request with F1 ",
            "with semantic recipes, in its own validated run",
            "### What each step does",
            "### What it changes here",
            "By recipe: `",
            "rewrite-maven-plugin:",
            ":run \\\n  -Drewrite.activeRecipes=rewriteassist.Pr7Reusable",
            "./gradlew --init-script rewrite.gradle rewriteRun",
            "### Keep the code migrated",
            "-Drewrite.failOnDryRunResults=true",
        ] {
            assert!(pull.body.contains(expected), "{repo}: {expected} missing in\n{}", pull.body);
        }
        let bare = server.join(format!("{repo}.git"));
        let committed = show(&bare, &format!("{}:rewrite.yml", pull.head));
        assert!(committed.contains("name: \"rewriteassist.Pr7Reusable\""), "{committed}");
        assert_eq!(steps(&committed), steps(&reusable), "the reusable recipe is the one committed");
        let customer = show(&bare, &format!("{}:src/main/java/com/acme/shop/Customer.java", pull.head));
        assert!(customer.contains("import jakarta.persistence.Entity;"), "{customer}");
    }

    // Again: the same three PRs, updated.
    let (code, output) = apply(&artifacts, &server, &world.dir.path().join("again"), &fake, &["--open-prs"]);
    assert_eq!(code, Some(0), "{output}");
    assert_eq!(fake.pulls().len(), 3, "not duplicated");
    assert_eq!(count(&fake.calls(), "POST /repos/"), 3, "{:#?}", fake.calls());
    for repo in REPOS {
        assert!(output.contains(&format!("| {repo} | updated |")), "{output}");
        assert_eq!(count(&fake.calls(), &format!("PATCH /repos/{repo}/pulls/")), 1, "{:#?}", fake.calls());
    }
}

/// git in `dir` as a person, not the bot.
fn as_reviewer(dir: &Path, args: &[&str]) {
    let status = std::process::Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "Reviewer")
        .env("GIT_AUTHOR_EMAIL", "reviewer@acme.example")
        .env("GIT_COMMITTER_NAME", "Reviewer")
        .env("GIT_COMMITTER_EMAIL", "reviewer@acme.example")
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

/// What a rerun may push: never over a reviewer's commit on the bot's branch (it is left alone and
/// the PR says so once, until its box is ticked), never to the default branch.
#[test]
fn a_rerun_leaves_a_branch_others_pushed_to_and_never_pushes_the_default_branch() {
    let world = World::javax();
    let artifacts = analyzed(&world);
    let server = world.dir.path().join("targets");
    targets(world.dir.path(), &server);
    let fake = FakeGitHub::start();
    let one = ["acme/a"];
    let run = |name: &str, extra: &[&str]| {
        let out = world.dir.path().join(name);
        let (code, output) = apply_to(&one, &artifacts, &server, &out, &fake, extra);
        let report: Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("rollout.json")).unwrap()).unwrap();
        (code, output, report["results"][0].clone())
    };
    let (code, output, _) = run("first", &["--open-prs"]);
    assert_eq!(code, Some(0), "{output}");
    let branch = "rewrite-assist/rewriteassist.pr7reusable";
    let bare = server.join("acme/a.git");

    // A reviewer pushes a commit of their own onto the bot's branch.
    let theirs = world.dir.path().join("reviewer");
    git_output(
        world.dir.path(),
        ["clone", "--quiet", "--branch", branch, bare.to_str().unwrap(), theirs.to_str().unwrap()],
    )
    .unwrap();
    std::fs::write(theirs.join("NOTES.md"), "reviewed\n").unwrap();
    as_reviewer(&theirs, &["add", "NOTES.md"]);
    as_reviewer(&theirs, &["commit", "-qm", "review notes"]);
    git_output(&theirs, ["push", "--quiet", "origin", branch]).unwrap();
    let reviewed = show(&bare, branch);

    // Twice: the branch stays the reviewer's, the report and the PR say so, the comment is one.
    for name in ["second", "third"] {
        let (code, output, result) = run(name, &["--open-prs"]);
        assert_eq!(code, Some(0), "{output}");
        assert_eq!(result["status"], "left_alone", "{result:#}");
        let reason = result["reason"].as_str().unwrap();
        assert!(
            reason.contains("others have pushed to the branch") && reason.contains("by Reviewer"),
            "{reason}"
        );
        assert_eq!(result["edited"], true, "{result:#}");
        assert!(output.contains("| acme/a | **edited by a human** |"), "{output}");
        assert_eq!(show(&bare, branch), reviewed, "the reviewer's commit stays");
    }
    let notices: Vec<_> =
        fake.comments().into_iter().filter(|c| c.body.contains("rewrite-assist:left-alone")).collect();
    assert_eq!(notices.len(), 1, "one comment, edited on reruns: {notices:#?}");
    assert!(notices[0].body.contains("tick the box"), "{}", notices[0].body);

    // The box, ticked, hands the branch back.
    let pull = fake.pulls().into_iter().find(|p| p.repo == "acme/a").unwrap();
    fake.edit_pull_body(
        "acme/a",
        pull.number,
        &pull
            .body
            .replace("- [ ] <!-- rewrite-assist:recreate -->", "- [x] <!-- rewrite-assist:recreate -->"),
    );
    let (code, output, result) = run("taken-back", &["--open-prs"]);
    assert_eq!(code, Some(0), "{output}");
    assert_eq!(result["status"], "updated", "{result:#}");
    assert!(git_output(&bare, ["cat-file", "-e", &format!("{branch}:NOTES.md")]).is_err());
    assert!(show(&bare, &format!("{branch}:rewrite.yml")).contains("rewriteassist.Pr7Reusable"));

    // The default branch is never pushed to.
    let main_before = show(&bare, "main");
    let (code, output, result) = run("main", &["--open-prs", "--branch", "main"]);
    assert_eq!(code, Some(0), "{output}");
    assert_eq!(result["status"], "left_alone", "{result:#}");
    assert!(result["reason"].as_str().unwrap().contains("default branch"), "{result:#}");
    assert_eq!(show(&bare, "main"), main_before);
}
