//! A campaign's pull requests as Renovate and Dependabot open them: at most `--max-prs` open at
//! once (the rest queued and shown as such), labels, assignees, reviewers (a login and a team) and
//! drafts; a second run with a higher limit updates the open ones and opens one more. Five real
//! repositories on a local git server, the embedded runner, the fake GitHub.

mod common;
#[path = "common/github.rs"]
mod github;
#[path = "common/world.rs"]
mod world;

use std::path::{Path, PathBuf};

use github::FakeGitHub;
use rewrite_assist::fixtures::RepoBuilder;
use rewrite_assist::setup::git::git_output;
use serde_json::{Value, json};
use world::{APP_POM, RENAME_RECIPE, TOKEN, apply_json, bare_copy};

const REPOS: [&str; 5] = ["acme/r1", "acme/r2", "acme/r3", "acme/r4", "acme/r5"];

/// `apply --open-prs` on the five repositories, one at a time (the order decides which open).
fn apply(dir: &Path, out: &str, fake: &FakeGitHub, extra: &[&str]) -> Value {
    let mut flags = vec!["--open-prs", "--jobs", "1"];
    flags.extend_from_slice(extra);
    apply_json(dir, &REPOS.join(","), out, fake, &flags)
}

fn statuses(report: &Value) -> Vec<String> {
    report["results"].as_array().unwrap().iter().map(|r| r["status"].as_str().unwrap().to_string()).collect()
}

/// The five repositories on the local server `dir/server`, each naming the old service once, and
/// the recipe that renames it.
fn five_repositories(dir: &Path) {
    for repo in REPOS {
        let path = dir.join(repo.replace('/', "-"));
        let built = RepoBuilder::init(&path).unwrap();
        built.write("pom.xml", APP_POM).unwrap();
        built.write("README.md", "calls legacy-service\n").unwrap();
        built.commit("base").unwrap();
        bare_copy(built.path(), &dir.join("server").join(format!("{repo}.git")));
    }
    std::fs::write(dir.join("recipe.yml"), RENAME_RECIPE).unwrap();
}

/// The migration lands on `acme/<name>`'s default branch without the campaign (by hand, or by
/// merging its PR): the old service's name replaced, committed as `message` and pushed.
fn migrate_by_hand(dir: &Path, name: &str, message: &str) {
    let work = dir.join(format!("acme-{name}"));
    std::fs::write(work.join("README.md"), "calls orders-service\n").unwrap();
    let server = format!("../server/acme/{name}.git");
    for args in [&["commit", "--quiet", "-am", message][..], &["push", "--quiet", &server, "HEAD"]] {
        git_output(&work, args.iter().copied()).unwrap();
    }
}

#[test]
fn four_shards_of_a_dry_run_merge_into_one_table() {
    let dir = tempfile::tempdir().unwrap();
    five_repositories(dir.path());
    let fake = FakeGitHub::start();
    let mut shards = Vec::new();
    for index in 1..=4 {
        let shard = format!("{index}/4");
        let out = format!("shard-{index}");
        let report = apply_json(dir.path(), &REPOS.join(","), &out, &fake, &["--dry-run", "--shard", &shard]);
        let ran: Vec<&str> =
            report["results"].as_array().unwrap().iter().map(|r| r["repo"].as_str().unwrap()).collect();
        // Positions index-1, index+3, …: the first shard gets r1 and r5.
        assert_eq!(ran, if index == 1 { vec!["acme/r1", "acme/r5"] } else { vec![REPOS[index - 1]] });
        shards.push(dir.path().join(out));
    }
    // Each repository's result.json says what the rollout did there, without the metrics of a
    // validation against a PR (there is none).
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(shards[0].join("acme/r1/result.json")).unwrap())
            .unwrap();
    assert_eq!(
        (result["schema_version"].as_u64(), result["status"].as_str()),
        (Some(1), Some("would_change")),
        "{result:#}"
    );
    assert_eq!(result["recipe"], "com.acme.Rename");
    assert_eq!(result["recipe_steps"][0]["options"]["find"], "legacy-service", "{result:#}");
    assert_eq!((result["files"].as_u64(), result["lines"].as_u64()), (Some(1), Some(2)), "{result:#}");
    assert!(!result.to_string().contains("\"f1\""), "{result:#}");
    let merged = dir.path().join("merged");
    let output = common::bin()
        .args(["rollout", "merge", "--json", "--out"])
        .arg(&merged)
        .args(&shards)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(statuses(&report), ["would_change"; 5], "{report:#}");
    assert_eq!(report["results"][4]["repo"], "acme/r5");
    let table = std::fs::read_to_string(merged.join("rollout.md")).unwrap();
    assert!(table.contains("| acme/r3 | would change |") && table.contains("5 would change"), "{table}");
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(merged.join("rollout.json")).unwrap()).unwrap();
    assert_eq!(written["results"], report["results"]);
    assert_eq!(written["schema_version"], 1);

    // The campaign's dashboard: one issue, created once, then edited; a run over one shard changes
    // its rows only.
    let dashboard = |shard_dirs: &[PathBuf]| {
        let output = common::bin()
            .args(["rollout", "merge", "--dashboard", "acme/platform", "--out"])
            .arg(dir.path().join("merged-again"))
            .args(shard_dirs)
            .env("GITHUB_API_URL", &fake.url)
            .env("GITHUB_TOKEN", TOKEN)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
        fake.issues()
    };
    let issues = dashboard(&shards);
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].title, "Rollout of com.acme.Rename");
    assert!(issues[0].body.contains("| acme/r3 | would change |"), "{}", issues[0].body);
    assert!(issues[0].body.contains("5 repositories: 5 would change."), "{}", issues[0].body);
    let first_body = issues[0].body.clone();
    let issues = dashboard(&shards[..1]);
    assert_eq!(issues.len(), 1, "edited, not duplicated: {issues:?}");
    assert!(
        issues[0].body.contains("| acme/r3 | would change |"),
        "the other shards' rows stay: {}",
        issues[0].body
    );
    assert!(issues[0].body.contains("5 repositories"), "{}", issues[0].body);
    assert_eq!(first_body.lines().count(), issues[0].body.lines().count());

    // A shard that never wrote its report is an error, not a shorter table.
    let output = common::bin()
        .args(["rollout", "merge"])
        .arg(&shards[0])
        .arg(dir.path().join("shard-9"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("did that shard finish?"));
}

#[test]
fn at_most_max_prs_open_with_labels_reviewers_assignees_and_drafts() {
    let dir = tempfile::tempdir().unwrap();
    five_repositories(dir.path());
    let fake = FakeGitHub::start();

    let first = apply(
        dir.path(),
        "first",
        &fake,
        &[
            "--max-prs",
            "2",
            "--labels",
            "migration,java",
            "--reviewers",
            "alice,acme/platform",
            "--assignees",
            "bob",
            "--draft",
            "--dashboard",
            "acme/platform",
        ],
    );
    assert_eq!(statuses(&first), ["opened", "opened", "queued", "queued", "queued"], "{first:#}");
    let queued = first["results"][2]["reason"].as_str().unwrap();
    assert!(queued.contains("as many pull requests open as it may (`--max-prs 2`)"), "{queued}");
    let pulls = fake.pulls();
    assert_eq!(pulls.iter().map(|p| p.repo.as_str()).collect::<Vec<_>>(), ["acme/r1", "acme/r2"]);
    for pull in &pulls {
        assert!(pull.draft, "{pull:?}");
        assert_eq!(pull.labels, ["migration", "java"], "{pull:?}");
        assert_eq!(pull.assignees, ["bob"], "{pull:?}");
        assert_eq!(pull.reviewers, ["alice", "team:platform"], "{pull:?}");
    }
    let table = std::fs::read_to_string(dir.path().join("first/rollout.md")).unwrap();
    assert!(table.contains("| acme/r3 | queued |") && table.contains("3 queued"), "{table}");
    // The dashboard shows the queued ones as such.
    let dashboard = &fake.issues()[0].body;
    assert!(
        dashboard.contains("| acme/r1 | opened as a draft |") && dashboard.contains("| acme/r4 | queued |"),
        "{dashboard}"
    );
    assert!(dashboard.contains("5 repositories: 2 opened as a draft, 3 queued."), "{dashboard}");

    // A higher limit: the two open ones are updated (reviewers are not asked again), one more opens.
    let second = apply(
        dir.path(),
        "second",
        &fake,
        &["--max-prs", "3", "--labels", "migration", "--reviewers", "alice"],
    );
    assert_eq!(statuses(&second), ["updated", "updated", "opened", "queued", "queued"], "{second:#}");
    let pulls = fake.pulls();
    assert_eq!(pulls.len(), 3, "{pulls:?}");
    assert_eq!(pulls[0].reviewers, ["alice", "team:platform"], "asked once: {:?}", pulls[0]);
    assert_eq!(pulls[0].labels, ["migration", "java", "migration"], "labels are added on every run");
    assert!(!pulls[2].draft && pulls[2].reviewers == ["alice"], "{:?}", pulls[2]);

    // acme/r1 migrated on its own: its PR is stale, closed with a comment, and its place goes to r4.
    migrate_by_hand(dir.path(), "r1", "migrated by hand");
    // The open PRs' CI: r2's checks fail, r3's pass.
    fake.check_runs("acme/r2", vec![json!({"status": "completed", "conclusion": "failure"})]);
    fake.check_runs("acme/r3", vec![json!({"status": "completed", "conclusion": "success"})]);
    let third = apply(dir.path(), "third", &fake, &["--max-prs", "3", "--dashboard", "acme/platform"]);
    assert_eq!(statuses(&third), ["closed", "updated", "updated", "opened", "queued"], "{third:#}");
    assert_eq!(
        (third["results"][1]["ci"].as_str(), third["results"][2]["ci"].as_str()),
        (Some("failing"), Some("passing"))
    );
    let pulls = fake.pulls();
    assert!(pulls[0].closed && !pulls[1].closed, "{pulls:?}");
    assert_eq!(pulls.last().unwrap().repo, "acme/r4");
    let said = fake.comments();
    assert!(
        said.iter()
            .any(|c| c.issue == pulls[0].number
                && c.body.contains("changes nothing in this repository any more")),
        "{said:?}"
    );
    let dashboard = &fake.issues()[0].body;
    assert!(dashboard.contains("| acme/r2 | **updated, CI failing** |"), "{dashboard}");
    assert!(dashboard.contains("| acme/r3 | updated, CI passing |"), "{dashboard}");

    // r2's PR is merged: its migration is on main, the campaign says so, and r5 takes its place.
    fake.merge("acme/r2", pulls[1].number);
    migrate_by_hand(dir.path(), "r2", "Merge the migration");
    let fourth = apply(dir.path(), "fourth", &fake, &["--max-prs", "3", "--dashboard", "acme/platform"]);
    assert_eq!(statuses(&fourth), ["no_changes", "merged", "updated", "updated", "opened"], "{fourth:#}");
    let dashboard = &fake.issues()[0].body;
    assert!(dashboard.contains("| acme/r2 | merged |"), "{dashboard}");
    assert_eq!(fake.issues().len(), 1, "one dashboard, edited");
}
