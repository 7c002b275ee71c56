//! The embedded backend through the real binary: a real Java runner on OpenRewrite's libraries,
//! on a multi-module project whose build Maven cannot resolve (modules depend on each other's
//! SNAPSHOT, an import BOM that exists nowhere), with a `.mvn/jvm.config` whose agent must never
//! run and a Java file that does not parse.

mod common;

use std::path::Path;

use common::{bin, json_stdout};
use rewrite_assist::fixtures::RepoBuilder;

const ROOT_POM: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>reactor</artifactId>
  <version>1.0-SNAPSHOT</version>
  <packaging>pom</packaging>
  <modules>
    <module>core</module>
    <module>app</module>
  </modules>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>
  <dependencyManagement>
    <dependencies>
      <dependency>
        <groupId>invalid.rewriteassist.example</groupId>
        <artifactId>missing-bom</artifactId>
        <version>1.0</version>
        <type>pom</type>
        <scope>import</scope>
      </dependency>
    </dependencies>
  </dependencyManagement>
</project>
"#;

fn module_pom(name: &str, servlet: &str, sibling: bool) -> String {
    let sibling = if sibling {
        "    <dependency>\n      <groupId>com.acme</groupId>\n      <artifactId>core</artifactId>\n      <version>1.0-SNAPSHOT</version>\n    </dependency>\n"
    } else {
        ""
    };
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>com.acme</groupId>
    <artifactId>reactor</artifactId>
    <version>1.0-SNAPSHOT</version>
  </parent>
  <artifactId>{name}</artifactId>
  <dependencies>
{sibling}{servlet}  </dependencies>
</project>
"#
    )
}

const JAVAX_SERVLET: &str = "    <dependency>\n      <groupId>javax.servlet</groupId>\n      <artifactId>javax.servlet-api</artifactId>\n      <version>4.0.1</version>\n      <scope>provided</scope>\n    </dependency>\n";
const JAKARTA_SERVLET: &str = "    <dependency>\n      <groupId>jakarta.servlet</groupId>\n      <artifactId>jakarta.servlet-api</artifactId>\n      <version>6.0.0</version>\n      <scope>provided</scope>\n    </dependency>\n";

fn filter(package: &str) -> String {
    format!(
        "package com.acme.core;\n\nimport {package}.Filter;\nimport {package}.FilterChain;\nimport {package}.ServletRequest;\nimport {package}.ServletResponse;\n\npublic abstract class AuditFilter implements Filter {{\n    @Override\n    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws java.io.IOException, {package}.ServletException {{\n        chain.doFilter(request, response);\n    }}\n}}\n"
    )
}

fn app(package: &str) -> String {
    format!(
        "package com.acme.app;\n\nimport com.acme.core.AuditFilter;\nimport {package}.http.HttpServletRequest;\n\npublic abstract class AppFilter extends AuditFilter {{\n    protected String user(HttpServletRequest request) {{\n        return request.getRemoteUser();\n    }}\n}}\n"
    )
}

/// The base on `main`, the javax → jakarta servlet migration on `migration`.
fn reactor(dir: &Path) -> RepoBuilder {
    let repo = RepoBuilder::init(dir).unwrap();
    repo.write("pom.xml", ROOT_POM).unwrap();
    repo.write("core/pom.xml", module_pom("core", JAVAX_SERVLET, false)).unwrap();
    repo.write("app/pom.xml", module_pom("app", JAVAX_SERVLET, true)).unwrap();
    repo.write("core/src/main/java/com/acme/core/AuditFilter.java", filter("javax.servlet")).unwrap();
    repo.write("app/src/main/java/com/acme/app/AppFilter.java", app("javax.servlet")).unwrap();
    // Not Java at all, whatever its name says: kept as plain text.
    repo.write("app/src/main/java/com/acme/app/Broken.java", "class Broken { void f( { <<<>>> }\n").unwrap();
    // Would stop any JVM started with it (the agent does not exist): nothing may read it.
    repo.write(".mvn/jvm.config", "-javaagent:/nonexistent/rewrite-assist-agent.jar\n").unwrap();
    repo.commit("base").unwrap();
    repo.branch("migration").unwrap();
    repo.write("core/pom.xml", module_pom("core", JAKARTA_SERVLET, false)).unwrap();
    repo.write("app/pom.xml", module_pom("app", JAKARTA_SERVLET, true)).unwrap();
    repo.write("core/src/main/java/com/acme/core/AuditFilter.java", filter("jakarta.servlet")).unwrap();
    repo.write("app/src/main/java/com/acme/app/AppFilter.java", app("jakarta.servlet")).unwrap();
    repo.commit("javax.servlet -> jakarta.servlet").unwrap();
    repo.checkout("main").unwrap();
    repo
}

/// Two good steps and one that fails OpenRewrite's option validation (new coordinates equal to
/// the old ones): the bad one is left out and named, the others still count.
const RECIPE: &str = r#"---
type: specs.openrewrite.org/v1beta/recipe
name: com.example.JakartaServlet
displayName: Jakarta Servlet
recipeList:
  - org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId:
      oldGroupId: "javax.servlet"
      oldArtifactId: "javax.servlet-api"
      newGroupId: "javax.servlet"
      newArtifactId: "javax.servlet-api"
  - org.openrewrite.java.ChangePackage:
      oldPackageName: "javax.servlet"
      newPackageName: "jakarta.servlet"
      recursive: true
  - org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId:
      oldGroupId: "javax.servlet"
      oldArtifactId: "javax.servlet-api"
      newGroupId: "jakarta.servlet"
      newArtifactId: "jakarta.servlet-api"
      newVersion: "6.0.0"
"#;

/// `validate --json --backend BACKEND` of `recipe` on main..migration.
fn validate(repo: &Path, recipe: &Path, out: &Path, backend: &str) -> std::process::Output {
    validate_with(repo, recipe, out, backend, &[])
}

fn validate_with(
    repo: &Path,
    recipe: &Path,
    out: &Path,
    backend: &str,
    env: &[(&str, &str)],
) -> std::process::Output {
    common::validate_on_the_pr(backend, &[], repo, recipe, out).envs(env.iter().copied()).output().unwrap()
}

#[test]
fn validate_embedded_on_a_reactor_the_plugin_cannot_build() {
    let dir = tempfile::tempdir().unwrap();
    let repo = reactor(&dir.path().join("reactor"));
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(&recipe, RECIPE).unwrap();
    let out = dir.path().join("out");
    let pom_cache = dir.path().join("pom-cache");
    let output = validate_with(
        repo.path(),
        &recipe,
        &out,
        "embedded",
        &[("REWRITE_ASSIST_POM_CACHE", pom_cache.to_str().unwrap())],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}\n{}", String::from_utf8_lossy(&output.stdout));
    let stats = json_stdout(&output);
    assert_eq!(stats["backend"], "embedded", "{stats:#}");
    assert!(stats["error"].is_null(), "{stats:#}");
    // Both modules' imports and both POMs: everything the PR did.
    assert_eq!(stats["metrics"]["perfect_match"], true, "{stats:#}");
    let left_out = stats["left_out"].as_array().unwrap();
    assert_eq!(left_out.len(), 1, "{stats:#}");
    assert_eq!(left_out[0]["step"], 0);
    assert_eq!(left_out[0]["error"]["kind"], "invalid_option", "{stats:#}");
    let warnings =
        stats["warnings"].as_array().unwrap().iter().map(|w| w.as_str().unwrap()).collect::<Vec<_>>();
    assert!(warnings.iter().any(|w| w.contains("missing-bom")), "{warnings:#?}");
    assert!(warnings.iter().any(|w| w.contains("Broken.java") && w.contains("plain text")), "{warnings:#?}");
    // Exact attribution: every step's own files.
    let attribution = stats["attribution"].as_array().unwrap();
    assert!(
        attribution.iter().any(|a| a["recipe"] == "org.openrewrite.java.ChangePackage"
            && a["source_path"] == "app/src/main/java/com/acme/app/AppFilter.java"),
        "{stats:#}"
    );
    let log = std::fs::read_to_string(out.join("build.log")).unwrap();
    assert!(log.contains("[step 1]") && log.contains("[whole]"), "{log}");
    // The runner's own log goes with its session: `command` names the copy kept with the stats.
    let command = stats["command"].as_str().unwrap();
    let kept = out.join("embedded-runner.log");
    assert!(command.contains(&kept.display().to_string()), "{command}");
    assert!(std::fs::metadata(&kept).unwrap().len() > 0, "{command}");
    // What the runner downloaded (the servlet API's POMs; "not found" for the missing BOM) is kept
    // for the next runner, in the folder the environment names.
    let cached = walkdir::WalkDir::new(&pom_cache)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .count();
    assert!(cached > 0, "nothing in {}", pom_cache.display());
    // The repository itself is untouched.
    let status = std::process::Command::new("git")
        .arg("-C")
        .arg(repo.path())
        .args(["status", "--porcelain"])
        .output()
        .unwrap();
    assert!(status.stdout.is_empty());

    // The plugin cannot even start there: the sibling's SNAPSHOT and the BOM do not resolve.
    let output = validate(repo.path(), &recipe, &dir.path().join("plugin"), "plugin");
    assert_eq!(output.status.code(), Some(1));
    let stats = json_stdout(&output);
    assert!(!stats["error"].is_null(), "{stats:#}");
}

/// `analyze --backend auto` on the same reactor: the embedded runner finds a recipe that
/// reproduces the PR, and the plugin's confirmation is reported as impossible, with the reason.
#[test]
fn analyze_auto_recommends_and_says_why_the_plugin_could_not_confirm() {
    let dir = tempfile::tempdir().unwrap();
    let repo = reactor(&dir.path().join("reactor"));
    let out = dir.path().join("out");
    let output = bin()
        .args(["analyze", "--json", "--backend", "auto", "--base", "main", "--head", "migration", "--repo"])
        .arg(repo.path())
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let summary = json_stdout(&output);
    assert_eq!(summary["backend"], "auto");
    let f1 = summary["recommended"]["f1"].as_f64().unwrap();
    assert!(f1 >= 0.8, "{summary:#}");
    let option = summary["recommended"]["option"].as_u64().unwrap();
    let chosen = summary["options"].as_array().unwrap().iter().find(|o| o["option"] == option).unwrap();
    assert_eq!(chosen["backend"], "embedded", "{summary:#}");
    let confirmation = &summary["confirmation"];
    assert_eq!(confirmation["confirmed"], false, "{summary:#}");
    assert!(!confirmation["error"].is_null(), "{summary:#}");
    assert!(out.join("embedded-runner.log").is_file());
    assert!(out.join(format!("option-{option}-confirm-build.log")).is_file());
}

/// A heap too small for the trees: the runner stops with the JVM's out-of-memory exit and the run
/// reports `out_of_memory` (not a hang, not a crash of ours).
#[test]
fn an_exhausted_heap_is_a_classified_error() {
    let dir = tempfile::tempdir().unwrap();
    let repo = reactor(&dir.path().join("reactor"));
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(&recipe, RECIPE).unwrap();
    let out = dir.path().join("out");
    let output =
        validate_with(repo.path(), &recipe, &out, "embedded", &[("REWRITE_ASSIST_RUNNER_XMX", "12m")]);
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let stats = json_stdout(&output);
    assert_eq!(stats["error"]["kind"], "out_of_memory", "{stats:#}");
}

/// A step kept to some modules by a `ModuleHasDependency` precondition, in a wrapper recipe as
/// the reusable recipe writes an umbrella upgrade: it changes the module that depends on `core`
/// and leaves `core` itself alone. The file names no recipe: the one no other recipe runs is it.
const GUARDED: &str = r#"---
type: specs.openrewrite.org/v1beta/recipe
name: com.example.Guarded
displayName: Jakarta Servlet where core is used
recipeList:
  - com.example.Guarded.Scoped1
---
type: specs.openrewrite.org/v1beta/recipe
name: com.example.Guarded.Scoped1
displayName: ChangePackage where ModuleHasDependency
preconditions:
  - org.openrewrite.java.dependencies.search.ModuleHasDependency:
      groupIdPattern: "com.acme"
      artifactIdPattern: "core"
recipeList:
  - org.openrewrite.java.ChangePackage:
      oldPackageName: "javax.servlet"
      newPackageName: "jakarta.servlet"
      recursive: true
"#;

#[test]
fn a_guarded_step_changes_only_the_modules_with_its_dependency() {
    let dir = tempfile::tempdir().unwrap();
    let repo = reactor(&dir.path().join("reactor"));
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(&recipe, GUARDED).unwrap();
    let out = dir.path().join("out");
    let output = validate(repo.path(), &recipe, &out, "embedded");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}\n{}", String::from_utf8_lossy(&output.stdout));
    let stats = json_stdout(&output);
    assert!(stats["error"].is_null(), "{stats:#}");
    assert_eq!(stats["recipe_name"], "com.example.Guarded", "{stats:#}");
    let diff = std::fs::read_to_string(out.join("recipe.diff")).unwrap();
    assert!(diff.contains("+import jakarta.servlet.http.HttpServletRequest;"), "{diff}");
    assert!(!diff.contains("AuditFilter.java"), "core has no dependency on core:\n{diff}");
}
