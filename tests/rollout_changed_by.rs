//! Which recipe changed which files, as the rollout reports it ("changed by") and as OpenRewrite's
//! data tables kept in the repository's artifacts say, with either backend: a recipe that edits
//! one file and deletes another, on a repository of a local git server. Real git, the embedded
//! runner and the plugin's Maven build.

mod common;
#[path = "common/github.rs"]
mod github;
#[path = "common/world.rs"]
mod world;

use std::time::Duration;

use common::bin;
use rewrite_assist::fixtures::RepoBuilder;
use serde_json::Value;
use world::bare_copy;

const RECIPE: &str = "type: specs.openrewrite.org/v1beta/recipe\nname: com.acme.Tidy\nrecipeList:\n  \
- org.openrewrite.text.FindAndReplace:\n      find: legacy-service\n      replace: orders-service\n  \
- org.openrewrite.DeleteSourceFiles:\n      filePattern: docs/old.txt\n";

const POM: &str = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n  \
<groupId>com.acme</groupId>\n  <artifactId>app</artifactId>\n  <version>1.0</version>\n</project>\n";

#[test]
fn a_deleted_file_is_named_in_changed_by_with_either_backend() {
    let dir = tempfile::tempdir().unwrap();
    let repo = RepoBuilder::init(&dir.path().join("tidy")).unwrap();
    repo.write("pom.xml", POM).unwrap();
    repo.write("README.md", "calls legacy-service\n").unwrap();
    repo.write("docs/old.txt", "obsolete\n").unwrap();
    repo.commit("base").unwrap();
    let server = dir.path().join("server");
    bare_copy(repo.path(), &server.join("acme/tidy.git"));
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(&recipe, RECIPE).unwrap();
    for backend in ["embedded", "plugin"] {
        let output = bin()
            .args(["apply", "--dry-run", "--repos", "acme/tidy", "--json", "--backend", backend, "--recipe"])
            .arg(&recipe)
            .arg("--server-url")
            .arg(&server)
            .arg("--out")
            .arg(dir.path().join(backend))
            .env_remove("GITHUB_TOKEN")
            .timeout(Duration::from_secs(1800))
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{backend}: {e}: {}", String::from_utf8_lossy(&output.stderr)));
        assert_eq!(output.status.code(), Some(0), "{backend}: {report:#}");
        let result = &report["results"][0];
        assert_eq!(result["status"], "would_change", "{backend}: {report:#}");
        let deleted = result["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["recipe"] == "org.openrewrite.DeleteSourceFiles")
            .unwrap_or_else(|| panic!("{backend}: {report:#}"));
        assert_eq!(deleted["files"], serde_json::json!(["docs/old.txt"]), "{backend}: {report:#}");
        let table = std::fs::read_to_string(dir.path().join(backend).join("rollout.md")).unwrap();
        assert!(table.contains("`DeleteSourceFiles` 1 file"), "{backend}: {table}");
        // OpenRewrite's own account of the run, kept in the repository's artifacts.
        let csv = dir
            .path()
            .join(backend)
            .join("acme/tidy/datatables/org.openrewrite.table.SourcesFileResults.csv");
        let rows =
            std::fs::read_to_string(&csv).unwrap_or_else(|e| panic!("{backend}: {}: {e}", csv.display()));
        assert!(
            rows.lines().any(|l| l.starts_with("README.md,README.md,") && l.contains("FindAndReplace")),
            "{backend}: {rows}"
        );
    }
}
