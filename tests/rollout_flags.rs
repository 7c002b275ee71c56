//! A rollout never pushes, unasked, a change that runs code in the target repository or rewrites
//! most of it: three repositories on a local git server and one recipe (a rename of a string). In
//! `acme/ci` it also changes a GitHub Actions workflow, in `acme/mass` every file, in `acme/plain`
//! one source file. The dry run flags the first two; `--open-prs` opens a PR only for the third
//! until `--allow-build-config-changes` and `--max-changed-share 1` allow the others, and the
//! workflow's PR then leads with a warning. Real git, the embedded runner, the fake GitHub.

mod common;
#[path = "common/github.rs"]
mod github;
#[path = "common/world.rs"]
mod world;

use std::path::Path;

use github::FakeGitHub;
use rewrite_assist::fixtures::RepoBuilder;
use serde_json::Value;
use world::{APP_POM, RENAME_RECIPE, apply_json, bare_copy};

const SOURCE: &str =
    "package com.acme;\n\nclass Names {\n    static final String SERVICE = \"legacy-service\";\n}\n";

/// A repository of 16 files, 12 of which name the service.
fn mass_files() -> Vec<(&'static str, &'static str)> {
    const NAMED: [&str; 11] = [
        "README.md",
        "docs/a.md",
        "docs/b.md",
        "docs/c.md",
        "docs/d.md",
        "docs/e.md",
        "docs/f.md",
        "docs/g.md",
        "docs/h.md",
        "docs/i.md",
        "docs/j.md",
    ];
    let mut files = vec![("pom.xml", APP_POM), ("src/main/java/com/acme/Names.java", SOURCE)];
    files.extend(NAMED.iter().map(|path| (*path, "legacy-service\n")));
    files.extend(["notes/x.md", "notes/y.md", "notes/z.md"].iter().map(|path| (*path, "other\n")));
    files
}

fn repositories(dir: &Path, server: &Path) {
    let workflow = "name: CI\non: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo legacy-service\n";
    let repos: [(&str, Vec<(&str, &str)>); 3] = [
        (
            "ci",
            vec![
                ("pom.xml", APP_POM),
                ("src/main/java/com/acme/Names.java", SOURCE),
                (".github/workflows/ci.yml", workflow),
                ("README.md", "# App\n"),
                ("docs/a.md", "a\n"),
                ("docs/b.md", "b\n"),
            ],
        ),
        ("mass", mass_files()),
        (
            "plain",
            vec![
                ("pom.xml", APP_POM),
                ("src/main/java/com/acme/Names.java", SOURCE),
                ("README.md", "# App\n"),
            ],
        ),
    ];
    for (name, files) in repos {
        let repo = RepoBuilder::init(&dir.join(name)).unwrap();
        for (path, text) in files {
            repo.write(path, text).unwrap();
        }
        repo.commit("base").unwrap();
        bare_copy(repo.path(), &server.join(format!("acme/{name}.git")));
    }
}

fn apply(dir: &Path, fake: &FakeGitHub, out: &str, extra: &[&str]) -> Value {
    std::fs::write(dir.join("recipe.yml"), RENAME_RECIPE).unwrap();
    apply_json(dir, "acme/ci,acme/mass,acme/plain", out, fake, extra)
}

fn status<'a>(report: &'a Value, repo: &str) -> &'a Value {
    report["results"].as_array().unwrap().iter().find(|r| r["repo"] == repo).unwrap()
}

#[test]
fn build_configuration_and_mass_changes_are_flagged_and_need_asking() {
    let dir = tempfile::tempdir().unwrap();
    repositories(dir.path(), &dir.path().join("server"));
    let fake = FakeGitHub::start();

    let dry = apply(dir.path(), &fake, "dry", &[]);
    let ci = status(&dry, "acme/ci");
    assert!(
        ci["flags"]["build_config"][0]
            .as_str()
            .unwrap()
            .starts_with(".github/workflows/ci.yml: a GitHub Actions workflow"),
        "{ci:#}"
    );
    assert_eq!(status(&dry, "acme/mass")["flags"]["mass_change"], true, "{dry:#}");
    assert!(status(&dry, "acme/plain")["flags"].get("build_config").is_none(), "{dry:#}");
    let table = std::fs::read_to_string(dir.path().join("dry/rollout.md")).unwrap();
    assert!(table.contains("writes build/CI configuration: .github/workflows/ci.yml"), "{table}");
    assert!(table.contains("changes 75% of the files"), "{table}"); // 12 of 16

    let prs = apply(dir.path(), &fake, "prs", &["--open-prs"]);
    let ci = status(&prs, "acme/ci");
    assert_eq!(ci["status"], "not_opened", "{ci:#}");
    assert!(ci["reason"].as_str().unwrap().contains("--allow-build-config-changes"), "{ci:#}");
    let mass = status(&prs, "acme/mass");
    assert_eq!(mass["status"], "not_opened", "{mass:#}");
    assert!(mass["reason"].as_str().unwrap().contains("--max-changed-share"), "{mass:#}");
    assert_eq!(status(&prs, "acme/plain")["status"], "opened", "{prs:#}");
    assert_eq!(fake.pulls().len(), 1);
    assert_eq!(world::count(&git_branches(&dir.path().join("server/acme/ci.git")), "rewrite-assist/"), 0);

    let allowed = apply(
        dir.path(),
        &fake,
        "allowed",
        &["--open-prs", "--allow-build-config-changes", "--max-changed-share", "1"],
    );
    assert_eq!(status(&allowed, "acme/ci")["status"], "opened", "{allowed:#}");
    assert_eq!(status(&allowed, "acme/mass")["status"], "opened", "{allowed:#}");
    let pull = fake.pulls().into_iter().find(|p| p.repo == "acme/ci").unwrap();
    assert!(pull.body.starts_with("> [!WARNING]\n> **Review first**"), "{}", pull.body);
    assert!(pull.body.contains(".github/workflows/ci.yml"), "{}", pull.body);
}

fn git_branches(bare: &Path) -> Vec<String> {
    let out = rewrite_assist::setup::git::git_output(bare, ["branch", "--format=%(refname:short)"]).unwrap();
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}
