//! The rollout says whether the migration is done in each repository, and opens pull requests only
//! where it is: three repositories on a local git server, one recipe (javax.persistence ->
//! jakarta.persistence, not its subpackages, with Jakarta's API added beside javax's; and
//! javax.inject's `@Inject` -> jakarta's without a dependency). `acme/done` uses only what the
//! recipe moves (complete); `acme/half` also uses a subpackage the recipe leaves, which javax's API
//! still provides (partial); `acme/broken` uses `@Inject`, whose new type nothing provides (breaks
//! compilation). Real git, the embedded runner on real OpenRewrite, the fake GitHub.

mod common;
#[path = "common/github.rs"]
mod github;
#[path = "common/world.rs"]
mod world;

use std::path::Path;

use github::FakeGitHub;
use rewrite_assist::fixtures::RepoBuilder;
use serde_json::Value;
use world::{apply_json, bare_copy};

const RECIPE: &str = r#"type: specs.openrewrite.org/v1beta/recipe
name: com.acme.Jakarta
recipeList:
  - org.openrewrite.java.ChangePackage:
      oldPackageName: javax.persistence
      newPackageName: jakarta.persistence
  - org.openrewrite.maven.AddDependency:
      groupId: jakarta.persistence
      artifactId: jakarta.persistence-api
      version: 3.1.0
      onlyIfUsing: javax.persistence.*
  - org.openrewrite.java.ChangeType:
      oldFullyQualifiedTypeName: javax.inject.Inject
      newFullyQualifiedTypeName: jakarta.inject.Inject
"#;

fn pom(name: &str, dependencies: &[(&str, &str, &str)]) -> String {
    let deps: String = dependencies
        .iter()
        .map(|(g, a, v)| {
            format!("    <dependency><groupId>{g}</groupId><artifactId>{a}</artifactId><version>{v}</version></dependency>\n")
        })
        .collect();
    format!(
        "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n  \
<groupId>com.acme</groupId>\n  <artifactId>{name}</artifactId>\n  <version>1.0</version>\n  <properties>\n    \
<maven.compiler.release>17</maven.compiler.release>\n  </properties>\n  <dependencies>\n{deps}  </dependencies>\n</project>\n"
    )
}

const JPA: (&str, &str, &str) = ("javax.persistence", "javax.persistence-api", "2.2");

const ENTITY: &str = "package com.acme;\n\nimport javax.persistence.Entity;\nimport javax.persistence.Id;\n\n@Entity\npublic class Order {\n    @Id\n    Long id;\n}\n";

const QUERIES: &str = "package com.acme;\n\nimport javax.persistence.criteria.CriteriaBuilder;\n\npublic class Queries {\n    CriteriaBuilder builder;\n}\n";

const SERVICE: &str = "package com.acme;\n\nimport javax.inject.Inject;\n\npublic class Service {\n    @Inject\n    Object dependency;\n}\n";

/// A repository: its name, POM and source files.
type Repository<'a> = (&'a str, String, Vec<(&'a str, &'a str)>);

/// The three repositories, as bare repositories under `server`.
fn repositories(dir: &Path, server: &Path) {
    let repos: [Repository; 3] = [
        ("done", pom("done", &[JPA]), vec![("src/main/java/com/acme/Order.java", ENTITY)]),
        (
            "half",
            pom("half", &[JPA]),
            vec![
                ("src/main/java/com/acme/Order.java", ENTITY),
                ("src/main/java/com/acme/Queries.java", QUERIES),
            ],
        ),
        (
            "broken",
            pom("broken", &[("javax.inject", "javax.inject", "1")]),
            vec![("src/main/java/com/acme/Service.java", SERVICE)],
        ),
    ];
    for (name, pom, files) in repos {
        let repo = RepoBuilder::init(&dir.join(name)).unwrap();
        repo.write("pom.xml", pom).unwrap();
        for (path, text) in files {
            repo.write(path, text).unwrap();
        }
        repo.commit("base").unwrap();
        bare_copy(repo.path(), &server.join(format!("acme/{name}.git")));
    }
}

fn apply(dir: &Path, fake: &FakeGitHub, out: &str, extra: &[&str]) -> Value {
    std::fs::write(dir.join("recipe.yml"), RECIPE).unwrap();
    apply_json(dir, "acme/done,acme/half,acme/broken", out, fake, extra)
}

fn result<'a>(report: &'a Value, repo: &str) -> &'a Value {
    report["results"].as_array().unwrap().iter().find(|r| r["repo"] == repo).unwrap()
}

#[test]
fn complete_partial_and_breaking_repositories_are_told_apart_and_only_complete_ones_get_a_pr() {
    let dir = tempfile::tempdir().unwrap();
    repositories(dir.path(), &dir.path().join("server"));
    let fake = FakeGitHub::start();

    let dry = apply(dir.path(), &fake, "dry", &["--dry-run"]);
    let done = result(&dry, "acme/done");
    assert_eq!(
        (done["status"].as_str(), done["completion"].as_str()),
        (Some("would_change"), Some("complete")),
        "{done:#}"
    );
    assert_eq!(done["residual"]["after"], 0, "{done:#}");
    assert!(done["residual"]["before"].as_u64().unwrap() > 0, "{done:#}");
    assert_eq!(done["unresolved"]["after"].as_u64(), done["unresolved"]["before"].as_u64(), "{done:#}");
    let half = result(&dry, "acme/half");
    assert_eq!(half["completion"], "partial", "{half:#}");
    assert!(half["residual"]["after"].as_u64().unwrap() > 0, "{half:#}");
    assert!(half["residual"]["samples"].to_string().contains("Queries.java"), "{half:#}");
    let broken = result(&dry, "acme/broken");
    assert_eq!(broken["completion"], "breaks_compilation", "{broken:#}");
    assert!(broken["unresolved"]["samples"].to_string().contains("Service.java"), "{broken:#}");
    let table = std::fs::read_to_string(dir.path().join("dry/rollout.md")).unwrap();
    assert!(table.contains("| acme/done | would change | complete |"), "{table}");
    assert!(table.contains("| acme/broken | would change | breaks compilation |"), "{table}");
    assert!(fake.pulls().is_empty());

    // Pull requests: only where the migration is complete.
    let prs = apply(dir.path(), &fake, "prs", &["--open-prs"]);
    assert_eq!(result(&prs, "acme/done")["status"], "opened", "{prs:#}");
    for repo in ["acme/half", "acme/broken"] {
        assert_eq!(result(&prs, repo)["status"], "not_opened", "{prs:#}");
    }
    assert_eq!(fake.pulls().iter().map(|p| p.repo.as_str()).collect::<Vec<_>>(), ["acme/done"]);

    // With --include-partial, the partial one as a draft that lists what is left.
    let partial = apply(dir.path(), &fake, "partial", &["--open-prs", "--include-partial"]);
    assert_eq!(result(&partial, "acme/half")["status"], "opened", "{partial:#}");
    assert_eq!(result(&partial, "acme/half")["draft"], true, "{partial:#}");
    assert_eq!(result(&partial, "acme/broken")["status"], "not_opened", "{partial:#}");
    let pull = fake.pulls().into_iter().find(|p| p.repo == "acme/half").expect("a PR in acme/half");
    assert!(pull.draft, "{pull:?}");
    assert!(pull.body.contains("**Partial**") && pull.body.contains("Queries.java"), "{}", pull.body);
}

/// `--needs-migration`: a repository that does not use the old library is `not needed`, though
/// the recipe's text step would change it; one that does still runs as before.
#[test]
fn a_repository_without_the_old_library_is_not_needed() {
    let dir = tempfile::tempdir().unwrap();
    let server = dir.path().join("server");
    let fresh = RepoBuilder::init(&dir.path().join("fresh")).unwrap();
    fresh.write("pom.xml", pom("fresh", &[])).unwrap();
    fresh.write("README.md", "calls legacy-service\n").unwrap();
    fresh.commit("base").unwrap();
    bare_copy(fresh.path(), &server.join("acme/fresh.git"));
    let done = RepoBuilder::init(&dir.path().join("done")).unwrap();
    done.write("pom.xml", pom("done", &[JPA])).unwrap();
    done.write("src/main/java/com/acme/Order.java", ENTITY).unwrap();
    done.commit("base").unwrap();
    bare_copy(done.path(), &server.join("acme/done.git"));
    let recipe = format!(
        "{RECIPE}  - org.openrewrite.text.FindAndReplace:\n      find: legacy-service\n      replace: orders-service\n"
    );
    std::fs::write(dir.path().join("recipe.yml"), recipe).unwrap();
    let fake = FakeGitHub::start();
    let report =
        apply_json(dir.path(), "acme/fresh,acme/done", "out", &fake, &["--dry-run", "--needs-migration"]);
    let fresh = result(&report, "acme/fresh");
    assert_eq!(fresh["status"], "not_needed", "{report:#}");
    assert!(fresh["reason"].as_str().unwrap().contains("does not use the old library"), "{report:#}");
    assert_eq!(result(&report, "acme/done")["status"], "would_change", "{report:#}");
}

/// `--needs-migration` with a token: GitHub's code search for the old library's package comes
/// first, and a repository it does not find is `not needed` without being cloned.
#[test]
fn code_search_leaves_out_a_repository_before_cloning_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = dir.path().join("server");
    for (name, files) in [
        ("fresh", vec![("pom.xml", pom("fresh", &[]))]),
        (
            "done",
            vec![("pom.xml", pom("done", &[JPA])), ("src/main/java/com/acme/Order.java", ENTITY.to_string())],
        ),
    ] {
        let repo = RepoBuilder::init(&dir.path().join(name)).unwrap();
        for (path, text) in files {
            repo.write(path, text).unwrap();
        }
        repo.commit("base").unwrap();
        bare_copy(repo.path(), &server.join(format!("acme/{name}.git")));
    }
    std::fs::write(dir.path().join("recipe.yml"), RECIPE).unwrap();
    let fake = FakeGitHub::start();
    fake.code_search(&["acme/done"]);
    let report =
        apply_json(dir.path(), "acme/fresh,acme/done", "out", &fake, &["--dry-run", "--needs-migration"]);
    let fresh = result(&report, "acme/fresh");
    assert_eq!(fresh["status"], "not_needed", "{report:#}");
    let reason = fresh["reason"].as_str().unwrap();
    assert!(
        reason.contains("code search finds none of `javax.persistence`") && reason.contains("not cloned"),
        "{reason}"
    );
    assert!(!dir.path().join("out/acme/fresh/recipe.diff").exists(), "the recipe did not run there");
    assert_eq!(result(&report, "acme/done")["status"], "would_change", "{report:#}");
    let searched: Vec<String> = fake.calls().into_iter().filter(|c| c.contains("/search/code")).collect();
    // One search per term of the old library over the owner, the recipe's package first.
    assert!(searched.first().is_some_and(|c| c.contains("%22javax.persistence%22")), "{searched:?}");
    assert!(searched.iter().all(|c| c.contains("user%3Aacme")), "{searched:?}");
}
