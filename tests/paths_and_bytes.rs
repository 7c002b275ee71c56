//! Paths and bytes that are not plain text paths and lines: a file name with a backslash, lines
//! that are not UTF-8, and changes no recipe can make (symbolic links, Git LFS pointers,
//! submodules), through the real binary on real git repositories.

mod common;

use common::{bin, json_stdout};

const POM: &str = "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version></project>\n";

/// OpenRewrite writes `\` in a diff's paths as `/`: the embedded runner's diff gets the real path
/// back, so the change matches the PR's.
#[test]
fn a_file_name_with_a_backslash_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let repo = common::pr_repo(
        &dir.path().join("repo"),
        &[("pom.xml", POM), ("dir\\notes.txt", "old\n")],
        &[("dir\\notes.txt", "new\n")],
    );
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(
        &recipe,
        "type: specs.openrewrite.org/v1beta/recipe\nname: test.Notes\nrecipeList:\n  - org.openrewrite.text.FindAndReplace:\n      find: old\n      replace: new\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = bin()
        .args([
            "validate",
            "--json",
            "--backend",
            "embedded",
            "--base",
            "main",
            "--head",
            "migration",
            "--repo",
        ])
        .arg(repo.path())
        .arg("--recipe")
        .arg(&recipe)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let stats = json_stdout(&output);
    assert_eq!(stats["metrics"]["perfect_match"], true, "{stats:#}");
    let diff = std::fs::read_to_string(out.join("recipe.diff")).unwrap();
    assert!(diff.starts_with("diff --git \"a/dir\\\\notes.txt\" \"b/dir\\\\notes.txt\"\n"), "{diff}");
}
