//! A private Maven repository through the real binary: a local HTTP repository that answers 401
//! without its user and password, a POM that depends on an artifact only it serves, and the user's
//! `~/.m2/settings.xml` with a `<server>` whose credentials are `${env.…}`. The variables are set
//! for the binary both times; only with `--pass-env` do they reach the embedded runner, whose
//! environment is an allow-list otherwise. (runner/src/test/…/PrivateRepositoryTest covers the
//! runner's side in detail: mirrors, profiles, wrong credentials.) A server's credentials go only to
//! the URLs the settings name for its id or `--credential-url` allows: a POM that declares a
//! repository under a server's id at a host of its own gets none, with either backend.

mod common;
#[path = "common/files.rs"]
mod files;

use std::path::Path;

use base64::Engine;
use common::json_stdout;
use files::FileServer;

const USER: &str = "deployer";
const PASSWORD: &str = "not-a-real-password-4711";

/// The smallest valid jar: an empty zip archive (its end-of-central-directory record).
fn empty_jar() -> Vec<u8> {
    let mut jar = b"PK\x05\x06".to_vec();
    jar.extend([0u8; 18]);
    jar
}

fn private_repository() -> FileServer {
    let server = FileServer::start();
    let base = "/com/acme/private/secret/1.0/secret-1.0";
    server
        .serve(
            &format!("{base}.pom"),
            "<project><modelVersion>4.0.0</modelVersion><groupId>com.acme.private</groupId>\
             <artifactId>secret</artifactId><version>1.0</version></project>\n",
        )
        .serve(&format!("{base}.jar"), empty_jar());
    let credentials = base64::engine::general_purpose::STANDARD.encode(format!("{USER}:{PASSWORD}"));
    server.require(&format!("Basic {credentials}"));
    server
}

/// A Maven project that declares the repository and depends on its artifact; the PR edits the README.
fn project(dir: &Path, repository: &FileServer) -> rewrite_assist::fixtures::RepoBuilder {
    let pom = format!(
        r#"<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId><artifactId>app</artifactId><version>1.0</version>
  <repositories><repository><id>private</id><url>{}</url></repository></repositories>
  <dependencies><dependency><groupId>com.acme.private</groupId><artifactId>secret</artifactId><version>1.0</version></dependency></dependencies>
</project>
"#,
        repository.url
    );
    common::pr_repo(
        &dir.join("repo"),
        &[("pom.xml", &pom), ("README.md", "old\n")],
        &[("README.md", "new\n")],
    )
}

/// `validate --json --backend embedded` with `home` as HOME (its settings.xml) and the
/// credentials in the environment; `extra` goes before the command (e.g. `--pass-env`).
fn validate(dir: &Path, repo: &Path, home: &Path, out: &str, extra: &[&str]) -> serde_json::Value {
    let recipe = "  - org.openrewrite.text.FindAndReplace:\n      find: old\n      replace: new\n";
    validate_recipe(dir, repo, home, (out, recipe), extra)
}

/// [`validate`] with the recipe list `steps` (YAML list items).
fn validate_recipe(
    dir: &Path,
    repo: &Path,
    home: &Path,
    (out, steps): (&str, &str),
    extra: &[&str],
) -> serde_json::Value {
    let recipe = dir.join(format!("{out}-recipe.yml"));
    std::fs::write(
        &recipe,
        format!("type: specs.openrewrite.org/v1beta/recipe\nname: test.Recipe\nrecipeList:\n{steps}"),
    )
    .unwrap();
    // The built runner stays the user's (no second build): only settings.xml and the local
    // repository the runner gets are the test's. Maven, which builds the runner when needed, finds
    // its repository through the passwd entry's home, not HOME.
    let cache = std::env::var("XDG_CACHE_HOME")
        .unwrap_or_else(|_| format!("{}/.cache", std::env::var("HOME").unwrap()));
    let output = common::validate_embedded(extra, repo, &recipe, &dir.join(out))
        .env("HOME", home)
        .env("XDG_CACHE_HOME", cache)
        .env("REWRITE_ASSIST_POM_CACHE", "off")
        .env("REPO_USER", USER)
        .env("REPO_PASSWORD", PASSWORD)
        .output()
        .unwrap();
    let stats = json_stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{}\n{stats:#}", String::from_utf8_lossy(&output.stderr));
    assert!(
        !output.stderr.windows(PASSWORD.len()).any(|w| w == PASSWORD.as_bytes()),
        "the password was logged"
    );
    stats
}

#[test]
fn pass_env_brings_the_settings_credentials_to_the_embedded_runner() {
    let dir = tempfile::tempdir().unwrap();
    let repository = private_repository();
    let repo = project(dir.path(), &repository);
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join(".m2")).unwrap();
    std::fs::write(
        home.join(".m2/settings.xml"),
        "<settings><servers><server><id>private</id><username>${env.REPO_USER}</username>\
         <password>${env.REPO_PASSWORD}</password></server></servers></settings>\n",
    )
    .unwrap();

    // Without --pass-env the runner does not see the variables: the repository refuses it, and
    // the first warning says which repository and what to set.
    let without = validate(dir.path(), repo.path(), &home, "without", &[]);
    let first = without["warnings"][0].as_str().unwrap_or_default();
    assert!(
        first.starts_with("repository `private` (http://127.0.0.1:")
            && first.contains("refused access (HTTP 401) to com.acme.private:secret:1.0")
            && first.contains("${env.REPO_USER}, ${env.REPO_PASSWORD}")
            && first.contains("`--pass-env`"),
        "{:#}",
        without["warnings"]
    );
    assert!(
        !repository.requests().iter().any(|r| r.ends_with("(authorized)")),
        "{:?}",
        repository.requests()
    );
    // The variables were not passed: nothing is sent, not the literal `${env.…}` as a password.
    assert!(
        repository.authorizations().iter().all(|(_, sent)| sent.is_none()),
        "{:?}",
        repository.authorizations()
    );

    // The POM declares the repository, the settings only its server: the user allows its URL.
    let allow = format!("private={}", repository.url);
    let with = validate(
        dir.path(),
        repo.path(),
        &home,
        "with",
        &["--pass-env", "REPO_USER,REPO_PASSWORD", "--credential-url", &allow],
    );
    assert!(!with["warnings"].to_string().contains("refused access"), "{:#}", with["warnings"]);
    assert!(
        repository.requests().iter().any(|r| r.contains("secret-1.0.jar (authorized)")),
        "{:?}",
        repository.requests()
    );
    assert!(home.join(".m2/repository/com/acme/private/secret/1.0/secret-1.0.jar").is_file());
    assert_eq!(with["metrics"]["perfect_match"], true, "{with:#}");
}

/// A repository that refuses what a recipe needs while it runs (the new version of a parent whose
/// old version the local repository has, so the parse needs no credentials) is named in the
/// warnings too: the recipe changed nothing, and the warning says which repository and what to set.
#[test]
fn a_refusal_while_the_recipe_runs_is_named_too() {
    let dir = tempfile::tempdir().unwrap();
    let parent = |version: &str| {
        format!(
            "<project><modelVersion>4.0.0</modelVersion><groupId>com.acme.private</groupId>\
             <artifactId>parent</artifactId><version>{version}</version><packaging>pom</packaging></project>\n"
        )
    };
    let repository = FileServer::start();
    repository.serve("/com/acme/private/parent/2.0/parent-2.0.pom", parent("2.0")).serve(
        "/com/acme/private/parent/maven-metadata.xml",
        "<metadata><groupId>com.acme.private</groupId><artifactId>parent</artifactId><versioning>\
             <versions><version>1.0</version><version>2.0</version></versions></versioning></metadata>\n",
    );
    let credentials = base64::engine::general_purpose::STANDARD.encode(format!("{USER}:{PASSWORD}"));
    repository.require(&format!("Basic {credentials}"));
    let home = dir.path().join("home");
    let local = home.join(".m2/repository/com/acme/private/parent/1.0");
    std::fs::create_dir_all(&local).unwrap();
    std::fs::write(local.join("parent-1.0.pom"), parent("1.0")).unwrap();
    std::fs::write(
        home.join(".m2/settings.xml"),
        "<settings><servers><server><id>private</id><username>${env.REPO_USER}</username>\
         <password>${env.REPO_PASSWORD}</password></server></servers></settings>\n",
    )
    .unwrap();
    let pom = |version: &str| {
        format!(
            r#"<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>com.acme.private</groupId><artifactId>parent</artifactId><version>{version}</version><relativePath/></parent>
  <artifactId>app</artifactId>
  <repositories><repository><id>private</id><url>{}</url></repository></repositories>
</project>
"#,
            repository.url
        )
    };
    let repo =
        common::pr_repo(&dir.path().join("repo"), &[("pom.xml", &pom("1.0"))], &[("pom.xml", &pom("2.0"))]);
    let steps = "  - org.openrewrite.maven.ChangeParentPom:\n      oldGroupId: com.acme.private\n      \
                 oldArtifactId: parent\n      newVersion: \"2.0\"\n";

    let without = validate_recipe(dir.path(), repo.path(), &home, ("without", steps), &[]);
    let warnings = without["warnings"].to_string();
    assert!(
        warnings.contains("repository `private` (http://127.0.0.1:")
            && warnings.contains("refused access (HTTP 401) to com.acme.private:parent")
            && warnings.contains("`--pass-env`"),
        "{:#}",
        without["warnings"]
    );
    assert_eq!(without["metrics"]["perfect_match"], false, "{without:#}");

    let with = validate_recipe(
        dir.path(),
        repo.path(),
        &home,
        ("with", steps),
        &[
            "--pass-env",
            "REPO_USER,REPO_PASSWORD",
            "--credential-url",
            &format!("private={}", repository.url),
        ],
    );
    assert!(!with["warnings"].to_string().contains("refused access"), "{:#}", with["warnings"]);
    assert_eq!(with["metrics"]["perfect_match"], true, "{with:#}");
}

/// The user's settings hold a `<server>` with the common id `releases` (named for no URL); the
/// PR's POM declares a repository `releases` at a host of its own and depends on an artifact
/// there. Neither the embedded runner nor Maven sends that host the credentials, and the warnings
/// say so; allowed by `--credential-url`, the runner sends them once the host asks.
#[test]
fn a_pom_that_reuses_a_servers_id_at_its_own_host_gets_no_credentials() {
    let dir = tempfile::tempdir().unwrap();
    let attacker = private_repository();
    let pom = format!(
        r#"<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId><artifactId>app</artifactId><version>1.0</version>
  <repositories><repository><id>releases</id><url>{}</url></repository></repositories>
  <dependencies><dependency><groupId>com.acme.private</groupId><artifactId>secret</artifactId><version>1.0</version></dependency></dependencies>
</project>
"#,
        attacker.url
    );
    let repo = common::pr_repo(
        &dir.path().join("repo"),
        &[("pom.xml", &pom), ("README.md", "old\n")],
        &[("README.md", "new\n")],
    );
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join(".m2")).unwrap();
    // The real local repository, so that Maven has its plugins.
    let local = std::path::PathBuf::from(std::env::var("HOME").unwrap()).join(".m2/repository");
    std::fs::write(
        home.join(".m2/settings.xml"),
        format!(
            "<settings><localRepository>{}</localRepository><servers><server><id>releases</id>\
<username>${{env.REPO_USER}}</username><password>${{env.REPO_PASSWORD}}</password></server></servers></settings>\n",
            local.display()
        ),
    )
    .unwrap();
    let credentials =
        || attacker.authorizations().into_iter().filter(|(_, a)| a.is_some()).collect::<Vec<_>>();
    let pass = ["--pass-env", "REPO_USER,REPO_PASSWORD"];

    let embedded = validate(dir.path(), repo.path(), &home, "embedded", &pass);
    assert!(!attacker.authorizations().is_empty(), "the POM's repository was never asked");
    assert_eq!(credentials(), vec![], "credentials sent to a repository the settings do not name");
    let warnings = embedded["warnings"].to_string();
    assert!(
        warnings.contains(
            "the credentials of the <server> `releases` of the Maven settings were not sent to 127.0.0.1:"
        ) && warnings.contains("`--credential-url releases=URL`"),
        "{warnings}"
    );

    let recipe = dir.path().join("plugin-recipe.yml");
    std::fs::write(&recipe, "type: specs.openrewrite.org/v1beta/recipe\nname: test.Recipe\nrecipeList:\n  - org.openrewrite.text.FindAndReplace:\n      find: old\n      replace: new\n").unwrap();
    let output =
        common::validate_on_the_pr("plugin", &pass, repo.path(), &recipe, &dir.path().join("plugin"))
            .env("HOME", &home)
            .env("REPO_USER", USER)
            .env("REPO_PASSWORD", PASSWORD)
            .output()
            .unwrap();
    let plugin = json_stdout(&output);
    assert_eq!(credentials(), vec![], "Maven sent the credentials: {plugin:#}");
    assert!(
        plugin["warnings"].to_string().contains("declares the repository `releases` at http://127.0.0.1:"),
        "{plugin:#}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );

    // Allowed by name: the runner sends them, and only after the host asked.
    let allow = format!("releases={}", attacker.url);
    let allowed =
        validate(dir.path(), repo.path(), &home, "allowed", &[pass[0], pass[1], "--credential-url", &allow]);
    assert!(!credentials().is_empty(), "{allowed:#}");
    let first = attacker.authorizations().into_iter().position(|(_, a)| a.is_some()).unwrap();
    assert!(first > 0, "credentials before the host asked");
    assert_eq!(allowed["metrics"]["perfect_match"], true, "{allowed:#}");
}
