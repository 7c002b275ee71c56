//! The rollout end to end: the action analyzes a migration PR (its artifacts hold the reusable
//! recipe and where it came from), then `rewrite-assist apply --recipe <those artifacts>` runs that
//! recipe on three other repositories — a dry run that writes the table and the artifacts and
//! pushes nothing, then `--open-prs`, then the same again, which updates the three PRs instead of
//! opening three more. Real git repositories on a local server, real OpenRewrite runs through Maven,
//! the fake GitHub.

mod common;
#[path = "common/github.rs"]
mod github;
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
    let mut cmd = bin();
    cmd.args(["apply", "--repos", &REPOS.join(","), "--jobs", "2", "--recipe"])
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
    let server = world.dir.path().join("targets");
    targets(world.dir.path(), &server);
    let fake = FakeGitHub::start();

    // The dry run: a table and the artifacts, nothing pushed, no API call.
    let out = world.dir.path().join("dry-run");
    let (code, output) = apply(&artifacts, &server, &out, &fake, &["--dry-run", "--json"]);
    assert_eq!(code, Some(0), "{output}");
    let report: Value = serde_json::from_str(output.split("\n--- stderr").next().unwrap()).unwrap();
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
