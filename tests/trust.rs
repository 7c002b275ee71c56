//! Safer defaults for untrusted code (docs/security.md, "Whose build runs"): `auto` and `apply`
//! run a repository's own build (`./gradlew`, Maven build extensions) only where it is trusted,
//! and say so when they did not. The Gradle wrapper here records that it ran; its
//! `distributionUrl` names a local host that accepts connections, so before this rule the wrapper
//! counted as runnable and ran.

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{bin, json_stdout};

const RECIPE: &str = "type: specs.openrewrite.org/v1beta/recipe\nname: test.Readme\nrecipeList:\n  - org.openrewrite.text.FindAndReplace:\n      find: old\n      replace: new\n";

/// A host that accepts connections and counts them (the wrapper's download host).
fn listening_host() -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let connections = Arc::new(AtomicUsize::new(0));
    let counter = connections.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            counter.fetch_add(1, Ordering::SeqCst);
            drop(stream);
        }
    });
    (address, connections)
}

/// A Gradle project whose wrapper writes `marker` when it runs, and a README change.
fn gradle_repo(dir: &Path, host: &str, marker: &Path) -> PathBuf {
    let wrapper = format!("#!/bin/sh\ntouch '{}'\nexit 1\n", marker.display());
    let properties = format!("distributionUrl=http\\://{host}/gradle-8.10-bin.zip\n");
    let repo = common::pr_repo(
        &dir.join("repo"),
        &[
            ("settings.gradle", "rootProject.name = 'shop'\n"),
            ("build.gradle", "plugins { id 'java' }\n"),
            ("gradlew", &wrapper),
            ("gradle/wrapper/gradle-wrapper.properties", &properties),
            ("README.md", "old\n"),
        ],
        &[("README.md", "new\n")],
    );
    let gradlew = repo.path().join("gradlew");
    std::fs::set_permissions(&gradlew, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    // The executable bit, committed: the clone's wrapper must be runnable for the test to mean anything.
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git").current_dir(repo.path()).args(args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    for branch in ["main", "migration"] {
        git(&["checkout", "--quiet", branch]);
        git(&["update-index", "--chmod=+x", "gradlew"]);
        git(&["commit", "--quiet", "--allow-empty", "-m", "executable wrapper"]);
    }
    git(&["checkout", "--quiet", "main"]);
    repo.path().to_path_buf()
}

/// `validate --backend auto --json` with `extra` arguments: the exit code and the stats.
fn validate_auto(dir: &Path, repo: &Path, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let recipe = dir.join("recipe.yml");
    std::fs::write(&recipe, RECIPE).unwrap();
    let out = dir.join(format!("out-{}", extra.len()));
    let output = bin()
        .args(["validate", "--json", "--backend", "auto", "--base", "main", "--head", "migration", "--repo"])
        .arg(repo)
        .arg("--recipe")
        .arg(&recipe)
        .arg("--out")
        .arg(&out)
        .args(extra)
        .env("GRADLE_USER_HOME", dir.join("gradle-home"))
        .output()
        .unwrap();
    (output.status.code(), json_stdout(&output))
}

#[test]
fn auto_does_not_run_an_untrusted_gradle_build_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let (host, connections) = listening_host();
    let marker = dir.path().join("wrapper-ran");
    let repo = gradle_repo(dir.path(), &host, &marker);

    let (code, stats) = validate_auto(dir.path(), &repo, &[]);
    assert_eq!(code, Some(0), "{stats:#}");
    assert_eq!(stats["metrics"]["perfect_match"], true, "the embedded run stands: {stats:#}");
    let error = &stats["confirmation"]["error"];
    assert_eq!(error["kind"], "untrusted_build", "{stats:#}");
    let detail = error["detail"].as_str().unwrap();
    assert!(detail.contains("`./gradlew`") && detail.contains("--trust-build-config"), "{detail}");
    assert!(!marker.exists(), "the repository's wrapper ran");
    assert_eq!(connections.load(Ordering::SeqCst), 0, "the wrapper's host was contacted");

    // Trusted, the confirmation runs the repository's build (here a wrapper that fails).
    let (code, stats) = validate_auto(dir.path(), &repo, &["--trust-build-config"]);
    assert_eq!(code, Some(0), "{stats:#}");
    assert_ne!(stats["confirmation"]["error"]["kind"], "untrusted_build", "{stats:#}");
    assert!(marker.exists(), "trusted, the wrapper runs: {stats:#}");
}

#[test]
fn auto_does_not_load_an_untrusted_maven_builds_extensions() {
    let dir = tempfile::tempdir().unwrap();
    let pom = r#"<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId><artifactId>app</artifactId><version>1</version>
  <build><extensions><extension><groupId>com.acme.evil</groupId><artifactId>evil-extension</artifactId><version>1</version></extension></extensions></build>
</project>
"#;
    let repo = common::pr_repo(
        &dir.path().join("repo"),
        &[("pom.xml", pom), ("README.md", "old\n")],
        &[("README.md", "new\n")],
    );
    let (code, stats) = validate_auto(dir.path(), repo.path(), &[]);
    assert_eq!(code, Some(0), "{stats:#}");
    let error = &stats["confirmation"]["error"];
    assert_eq!(error["kind"], "untrusted_build", "{stats:#}");
    assert!(error["detail"].as_str().unwrap().contains("evil-extension"), "{stats:#}");
}

#[test]
fn apply_leaves_out_a_repository_whose_build_is_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let (host, connections) = listening_host();
    let marker = dir.path().join("wrapper-ran");
    let repo = gradle_repo(dir.path(), &host, &marker);
    let server = dir.path().join("server");
    std::fs::create_dir_all(server.join("acme")).unwrap();
    let out = std::process::Command::new("git")
        .args(["clone", "--quiet", "--bare"])
        .arg(&repo)
        .arg(server.join("acme/shop.git"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(&recipe, RECIPE).unwrap();
    let output = bin()
        .args(["apply", "--json", "--repos", "acme/shop", "--recipe"])
        .arg(&recipe)
        .arg("--server-url")
        .arg(&server)
        .arg("--out")
        .arg(dir.path().join("out"))
        .env("GITHUB_API_URL", "http://127.0.0.1:9")
        .env("GITHUB_TOKEN", "not-a-real-token")
        .env("GRADLE_USER_HOME", dir.path().join("gradle-home"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let results = json_stdout(&output);
    assert_eq!(results["results"][0]["status"], "failed", "{results:#}");
    let error = results["results"][0]["error"].as_str().unwrap();
    assert!(error.contains("untrusted_build") && error.contains("`./gradlew`"), "{error}");
    assert!(!marker.exists(), "the repository's wrapper ran");
    assert_eq!(connections.load(Ordering::SeqCst), 0, "the wrapper's host was contacted");
}

/// The embedded runner runs none of a repository's code, so `apply --backend embedded --dry-run`
/// reports a Gradle repository whose build script and wrapper would write a marker, and a Maven one
/// with a build extension, both as `would change`, and no marker appears.
#[test]
fn an_embedded_dry_run_reports_maven_and_gradle_repositories_and_runs_none_of_their_code() {
    let dir = tempfile::tempdir().unwrap();
    let (host, connections) = listening_host();
    let marker = dir.path().join("wrapper-ran");
    let script_marker = dir.path().join("build-script-ran");
    let gradle = gradle_repo(dir.path(), &host, &marker);
    std::fs::write(
        gradle.join("build.gradle"),
        format!("plugins {{ id 'java' }}\nnew File('{}').text = 'ran'\n", script_marker.display()),
    )
    .unwrap();
    let git = |repo: &Path, args: &[&str]| {
        let out = std::process::Command::new("git").current_dir(repo).args(args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    git(&gradle, &["commit", "--quiet", "-am", "a build script that writes a marker"]);
    let maven = common::pr_repo(
        &dir.path().join("maven"),
        &[
            (
                "pom.xml",
                "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion><groupId>com.acme</groupId><artifactId>api</artifactId><version>1</version></project>\n",
            ),
            (
                ".mvn/extensions.xml",
                "<extensions><extension><groupId>com.evil</groupId><artifactId>evil-extension</artifactId><version>1</version></extension></extensions>\n",
            ),
            ("README.md", "old\n"),
        ],
        &[("README.md", "new\n")],
    );
    let server = dir.path().join("server");
    std::fs::create_dir_all(server.join("acme")).unwrap();
    for (repo, name) in [(gradle.as_path(), "shop"), (maven.path(), "api")] {
        git(repo, &["checkout", "--quiet", "main"]);
        let bare = server.join(format!("acme/{name}.git"));
        git(repo, &["clone", "--quiet", "--bare", ".", bare.to_str().unwrap()]);
    }
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(&recipe, RECIPE).unwrap();
    let output = bin()
        .args([
            "apply",
            "--json",
            "--dry-run",
            "--backend",
            "embedded",
            "--repos",
            "acme/shop,acme/api",
            "--recipe",
        ])
        .arg(&recipe)
        .arg("--server-url")
        .arg(&server)
        .arg("--out")
        .arg(dir.path().join("out"))
        .env("GRADLE_USER_HOME", dir.path().join("gradle-home"))
        .output()
        .unwrap();
    let results = json_stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{results:#}\n{}", String::from_utf8_lossy(&output.stderr));
    for i in 0..2 {
        assert_eq!(results["results"][i]["status"], "would_change", "{results:#}");
    }
    assert!(!marker.exists() && !script_marker.exists(), "the repository's code ran");
    assert_eq!(connections.load(Ordering::SeqCst), 0, "the wrapper's host was contacted");
}
