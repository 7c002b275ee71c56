//! Which repositories a rollout runs on: an organisation's, listed page by page by the fake GitHub
//! and filtered by topic and language with archived repositories and forks left out; a user's when
//! no organisation has the name; a file of names or Moderne's repos.csv. The local git server holds
//! none of them, so each one fails at its clone: the report names exactly the repositories chosen,
//! without running any recipe.

mod common;
#[path = "common/github.rs"]
mod github;

use std::path::Path;

use common::bin;
use github::FakeGitHub;
use serde_json::{Value, json};

const RECIPE: &str = "type: specs.openrewrite.org/v1beta/recipe\nname: com.acme.Tidy\nrecipeList:\n  \
- org.openrewrite.text.FindAndReplace:\n      find: legacy-service\n      replace: orders-service\n";

fn repo(name: &str, language: &str, topics: &[&str]) -> Value {
    json!({"full_name": name, "archived": false, "fork": false, "language": language, "topics": topics})
}

/// `apply` with `args` on an empty server; its exit code, stderr and the repositories its report names.
fn apply(dir: &Path, fake: &FakeGitHub, args: &[&str]) -> (Option<i32>, String, Vec<String>) {
    let recipe = dir.join("recipe.yml");
    std::fs::write(&recipe, RECIPE).unwrap();
    let server = dir.join("server");
    std::fs::create_dir_all(&server).unwrap();
    let out = dir.join(format!("out-{}", args.join("-").replace(['/', ' ', ','], "_")));
    let output = bin()
        .args(["apply", "--dry-run", "--json", "--recipe"])
        .arg(&recipe)
        .arg("--server-url")
        .arg(&server)
        .arg("--out")
        .arg(&out)
        .args(args)
        .env("GITHUB_API_URL", &fake.url)
        .env_remove("GITHUB_TOKEN")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    let repos = report["results"]
        .as_array()
        .map(|r| r.iter().map(|o| o["repo"].as_str().unwrap().to_string()).collect())
        .unwrap_or_default();
    (output.status.code(), stderr, repos)
}

#[test]
fn an_organisations_repositories_filtered_by_topic_and_language() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeGitHub::start();
    // More than one page of 100; the ones the filters keep are spread over both pages.
    let mut repos: Vec<Value> = (0..103).map(|i| repo(&format!("acme/tool-{i:03}"), "Go", &[])).collect();
    repos[7] = repo("acme/orders", "Java", &["backend", "spring"]);
    repos[101] = repo("acme/billing", "java", &["Spring", "backend"]);
    repos.push(repo("acme/web", "Java", &["frontend", "spring"]));
    repos.push(json!({"full_name": "acme/legacy", "archived": true, "fork": false, "language": "Java", "topics": ["spring", "backend"]}));
    repos.push(json!({"full_name": "acme/forked", "archived": false, "fork": true, "language": "Java", "topics": ["spring", "backend"]}));
    fake.organisation("acme", repos);

    let (code, stderr, chosen) =
        apply(dir.path(), &fake, &["--org", "acme", "--topic", "spring,backend", "--language", "Java"]);
    assert_eq!(chosen, ["acme/billing", "acme/orders"], "{stderr}");
    assert!(stderr.contains("2 repositories to run on"), "{stderr}");
    // A progress line per repository as it is done, and where the artifacts are.
    assert!(
        stderr.contains("rewrite-assist: [1/2] acme/") && stderr.contains("rewrite-assist: [2/2] acme/"),
        "{stderr}"
    );
    assert!(stderr.contains("rewrite-assist: artifacts: "), "{stderr}");
    assert_eq!(code, Some(1), "each one fails at its clone: {stderr}");
    assert!(
        fake.calls().iter().any(|c| c.contains("/orgs/acme/repos") && c.contains("page=2")),
        "{:?}",
        fake.calls()
    );

    // Archived repositories and forks only when asked.
    let (_, stderr, chosen) = apply(
        dir.path(),
        &fake,
        &["--org", "acme", "--topic", "backend", "--include-archived", "--include-forks"],
    );
    assert_eq!(chosen, ["acme/billing", "acme/forked", "acme/legacy", "acme/orders"], "{stderr}");
}

#[test]
fn a_users_repositories_and_an_owner_that_does_not_exist() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeGitHub::start();
    fake.user("octo", vec![repo("octo/dotfiles", "Shell", &[]), repo("octo/api", "Java", &[])]);
    let (_, stderr, chosen) = apply(dir.path(), &fake, &["--org", "octo", "--language", "java"]);
    assert_eq!(chosen, ["octo/api"], "{stderr}");

    let (code, stderr, chosen) = apply(dir.path(), &fake, &["--org", "nobody"]);
    assert_eq!((code, chosen.len()), (Some(2), 0), "{stderr}");
    assert!(stderr.contains("--org `nobody`: no such organisation or user"), "{stderr}");
    let (code, stderr, _) = apply(dir.path(), &fake, &["--org", "octo", "--topic", "none-has-it"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("has no repository that passes the filters"), "{stderr}");
}

#[test]
fn a_file_of_names_or_modernes_repos_csv() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeGitHub::start();
    let list = dir.path().join("repos.txt");
    std::fs::write(&list, "# services\nacme/orders\nacme/billing # invoices\nacme/orders\n").unwrap();
    let (_, stderr, chosen) = apply(dir.path(), &fake, &["--repos-file", list.to_str().unwrap()]);
    assert_eq!(chosen, ["acme/orders", "acme/billing"], "{stderr}");

    let csv = dir.path().join("repos.csv");
    std::fs::write(
        &csv,
        "cloneUrl,branch\nhttps://github.com/acme/search.git,main\ngit@github.com:acme/cart.git,main\n",
    )
    .unwrap();
    let (_, stderr, chosen) = apply(dir.path(), &fake, &["--repos-file", csv.to_str().unwrap()]);
    assert_eq!(chosen, ["acme/search", "acme/cart"], "{stderr}");

    // A bad entry is refused before anything runs; exactly one source of repositories is asked for.
    std::fs::write(&list, "acme/orders\nnot-a-repository\n").unwrap();
    let (code, stderr, _) = apply(dir.path(), &fake, &["--repos-file", list.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("entry 2"), "{stderr}");
    let (code, stderr, _) = apply(dir.path(), &fake, &["--repos", "acme/a", "--org", "acme"]);
    assert_eq!(code, Some(2), "{stderr}");
    let (code, stderr, _) = apply(dir.path(), &fake, &["--topic", "spring", "--repos", "acme/a"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(fake.calls().is_empty(), "no call for a file: {:?}", fake.calls());
}
