//! No credential reaches what rewrite-assist prints or writes. The user's settings.xml has a
//! mirror whose URL carries a password (`http://deployer:${env.MIRROR_PASSWORD}@…`, as people write
//! them) and a server whose password is that variable too; the variable is passed with
//! `--pass-env`. The PR's POM depends on an artifact the mirror does not have, so rewrite-maven's
//! and Maven's messages quote the mirror's URL. With both backends and through `analyze`, the
//! canary is in no byte of stdout, stderr or any file of the run's artifacts, and the masked URL
//! (`deployer:***@`) is there instead.

mod common;
#[path = "common/files.rs"]
mod files;

use std::path::{Path, PathBuf};

use files::FileServer;

const CANARY: &str = "canary-pw-5f3e9a1c";
const OTHER_CANARY: &str = "literal-canary-77b2";

struct Setup {
    dir: tempfile::TempDir,
    repo: PathBuf,
    home: PathBuf,
    recipe: PathBuf,
    _mirror: FileServer,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let mirror = FileServer::start();
    let host = mirror.url.trim_start_matches("http://").trim_end_matches('/').to_string();
    let pom = r#"<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId><artifactId>app</artifactId><version>1.0</version>
  <repositories><repository><id>private-repo</id><url>https://private.acme.example/maven</url></repository></repositories>
  <dependencies><dependency><groupId>com.acme.private</groupId><artifactId>missing</artifactId><version>1.0</version></dependency></dependencies>
</project>
"#;
    let repo = common::pr_repo(
        &dir.path().join("repo"),
        &[("pom.xml", pom), ("README.md", "old\n")],
        &[("README.md", "new\n")],
    );
    // The real local repository: the plugin and its dependencies are there already.
    let local = PathBuf::from(std::env::var("HOME").unwrap()).join(".m2/repository");
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join(".m2")).unwrap();
    std::fs::write(
        home.join(".m2/settings.xml"),
        format!(
            "<settings>\n  <localRepository>{}</localRepository>\n  <mirrors><mirror><id>acme-mirror</id>\
<url>http://deployer:${{env.MIRROR_PASSWORD}}@{host}/maven/</url><mirrorOf>private-repo</mirrorOf></mirror></mirrors>\n  \
<servers><server><id>acme-mirror</id><username>deployer</username><password>${{env.MIRROR_PASSWORD}}</password></server>\
<server><id>other</id><username>deployer</username><password>{OTHER_CANARY}</password></server></servers>\n</settings>\n",
            local.display()
        ),
    )
    .unwrap();
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(
        &recipe,
        "type: specs.openrewrite.org/v1beta/recipe\nname: test.Readme\nrecipeList:\n  - org.openrewrite.text.FindAndReplace:\n      find: old\n      replace: new\n",
    )
    .unwrap();
    Setup { repo: repo.path().to_path_buf(), home, recipe, dir, _mirror: mirror }
}

/// Runs the binary with the test's HOME and the canary in the environment; returns stdout and
/// stderr, having checked that neither holds a canary.
fn run(s: &Setup, args: &[&str]) -> String {
    let cache = std::env::var("XDG_CACHE_HOME")
        .unwrap_or_else(|_| format!("{}/.cache", std::env::var("HOME").unwrap()));
    let output = common::bin()
        .args(["--pass-env", "MIRROR_PASSWORD"])
        .args(args)
        .env("HOME", &s.home)
        .env("XDG_CACHE_HOME", cache)
        .env("REWRITE_ASSIST_POM_CACHE", "off")
        .env("MIRROR_PASSWORD", CANARY)
        .output()
        .unwrap();
    let text =
        format!("{}\n{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(!text.contains(CANARY) && !text.contains(OTHER_CANARY), "a canary was printed:\n{text}");
    text
}

/// Every file under `dir`, and whether any holds a canary (named) or the masked URL.
fn scan(dir: &Path) -> (Vec<String>, bool) {
    let mut leaks = Vec::new();
    let mut masked = false;
    for entry in
        walkdir::WalkDir::new(dir).into_iter().filter_map(Result::ok).filter(|e| e.file_type().is_file())
    {
        let bytes = std::fs::read(entry.path()).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        if text.contains(CANARY) || text.contains(OTHER_CANARY) {
            leaks.push(entry.path().display().to_string());
        }
        masked |= text.contains("deployer:***@");
    }
    (leaks, masked)
}

#[test]
fn no_credential_reaches_the_output_or_the_artifacts_of_either_backend() {
    let s = setup();
    for backend in ["embedded", "plugin"] {
        let out = s.dir.path().join(format!("validate-{backend}"));
        let printed = run(
            &s,
            &[
                "validate",
                "--json",
                "--backend",
                backend,
                "--base",
                "main",
                "--head",
                "migration",
                "--repo",
                s.repo.to_str().unwrap(),
                "--recipe",
                s.recipe.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
        );
        let (leaks, masked) = scan(&out);
        assert_eq!(leaks, Vec::<String>::new(), "{backend}: the canary is in these files");
        assert!(
            masked || printed.contains("deployer:***@"),
            "{backend}: the mirror's URL was not quoted at all, the test shows nothing:\n{printed}"
        );
    }
}

#[test]
fn no_credential_reaches_the_analysis_artifacts() {
    let s = setup();
    let out = s.dir.path().join("analyze");
    let printed = run(
        &s,
        &[
            "analyze",
            "--json",
            "--backend",
            "embedded",
            "--base",
            "main",
            "--head",
            "migration",
            "--repo",
            s.repo.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    let (leaks, masked) = scan(&out);
    assert_eq!(leaks, Vec::<String>::new(), "the canary is in these files");
    assert!(
        masked || printed.contains("deployer:***@"),
        "the mirror's URL was not quoted at all:\n{printed}"
    );
}
