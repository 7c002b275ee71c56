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
    let output = common::validate_embedded(&[], repo.path(), &recipe, &out).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let stats = json_stdout(&output);
    assert_eq!(stats["metrics"]["perfect_match"], true, "{stats:#}");
    let diff = std::fs::read_to_string(out.join("recipe.diff")).unwrap();
    assert!(diff.starts_with("diff --git \"a/dir\\\\notes.txt\" \"b/dir\\\\notes.txt\"\n"), "{diff}");
}

fn git(dir: &std::path::Path, args: &[&str]) {
    let out = std::process::Command::new("git").current_dir(dir).args(args).output().unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A PR that changes, beside a README line, a symbolic link's target, a submodule's commit, a Git
/// LFS pointer and a line that is not UTF-8 (Latin-1).
fn unreproducible_pr(dir: &std::path::Path) -> std::path::PathBuf {
    let repo = dir.join("repo");
    let side = |old: bool| {
        let word = if old { "old" } else { "new" };
        std::fs::write(repo.join("README.md"), format!("{word}\n")).unwrap();
        let _ = std::fs::remove_file(repo.join("link"));
        std::os::unix::fs::symlink(format!("{word}/target"), repo.join("link")).unwrap();
        let (oid, size) = if old { ("a".repeat(64), 10) } else { ("b".repeat(64), 12) };
        std::fs::write(
            repo.join("model.bin"),
            format!("version https://git-lfs.github.com/spec/v1\noid sha256:{oid}\nsize {size}\n"),
        )
        .unwrap();
        std::fs::write(repo.join("latin1.txt"), [b"caf\xe9 ".as_slice(), word.as_bytes(), b"\n"].concat())
            .unwrap();
        git(&repo, &["add", "-A"]);
        let commit = if old { "1".repeat(40) } else { "2".repeat(40) };
        git(&repo, &["update-index", "--add", "--cacheinfo", &format!("160000,{commit},vendor/lib")]);
        git(&repo, &["commit", "--quiet", "-m", word]);
    };
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "--quiet", "--initial-branch=main"]);
    git(&repo, &["config", "user.email", "t@example.com"]);
    git(&repo, &["config", "user.name", "t"]);
    std::fs::write(repo.join("pom.xml"), POM).unwrap();
    side(true);
    git(&repo, &["checkout", "--quiet", "-b", "migration"]);
    side(false);
    git(&repo, &["checkout", "--quiet", "main"]);
    repo
}

/// Links, submodules, LFS pointers and bytes that are not UTF-8 get no intent: the intent tree
/// lists them with why, and their lines stay unexplained.
#[test]
fn changes_no_recipe_can_make_are_listed_with_why_not_turned_into_text_edits() {
    let dir = tempfile::tempdir().unwrap();
    let repo = unreproducible_pr(dir.path());
    let output = bin()
        .args(["intents", "--json", "--base", "main", "--head", "migration", "--repo"])
        .arg(&repo)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let tree = json_stdout(&output);
    assert_eq!(
        tree["unreproducible"],
        serde_json::json!([
            {"path": "latin1.txt", "reason": "not_utf8", "lines": 2},
            {"path": "link", "reason": "symlink", "lines": 2},
            {"path": "model.bin", "reason": "lfs_pointer", "lines": 4},
            {"path": "vendor/lib", "reason": "submodule", "lines": 2},
        ]),
        "{tree:#}"
    );
    // Only the README's edit is an intent; the other ten lines are unexplained.
    let text = tree["intents"].to_string();
    assert!(text.contains("README.md"), "{tree:#}");
    for path in ["latin1.txt", "\"link\"", "model.bin", "vendor/lib"] {
        assert!(!text.contains(path), "{path} got an intent: {tree:#}");
    }
    assert_eq!(tree["unexplained"].as_array().unwrap().len(), 10, "{tree:#}");
}

/// …and no option gets a text recipe for them: the creation analysis says why instead.
#[test]
fn changes_no_recipe_can_make_get_no_recipe() {
    let dir = tempfile::tempdir().unwrap();
    let repo = unreproducible_pr(dir.path());
    let out = dir.path().join("out");
    let output = common::analyze_embedded(&repo, &out).output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}\n{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    let recipes: String = ["option-1-recipe.yaml", "option-2-recipe.yaml", "option-3-recipe.yaml"]
        .iter()
        .filter_map(|f| std::fs::read_to_string(out.join(f)).ok())
        .collect();
    assert!(recipes.contains("README.md"), "{recipes}");
    for path in ["latin1.txt", "link", "model.bin", "vendor/lib", "\u{FFFD}", "\\uFFFD"] {
        assert!(!recipes.contains(path), "a recipe for {path}:\n{recipes}");
    }
    let analysis = std::fs::read_to_string(out.join("option-2-creation-analysis.md")).unwrap();
    for why in [
        "`link` is a symbolic link",
        "`vendor/lib` is a submodule",
        "`model.bin` is a Git LFS pointer",
        "`latin1.txt` line 1: lines that are not UTF-8",
    ] {
        assert!(analysis.contains(why), "{why}:\n{analysis}");
    }
    let tree = std::fs::read_to_string(out.join("intent-tree.md")).unwrap();
    assert!(tree.contains("## Changes no recipe can make (4)"), "{tree}");
}

/// The metric leaves those lines out, both ways, and lists them with why: a recipe that makes the
/// README's edit, all a recipe can make of this PR, is a perfect match.
#[test]
fn changes_no_recipe_can_make_are_outside_the_metric_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    let repo = unreproducible_pr(dir.path());
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(
        &recipe,
        "type: specs.openrewrite.org/v1beta/recipe\nname: test.Readme\nrecipeList:\n  - org.openrewrite.text.FindAndReplace:\n      find: old\n      replace: new\n      filePattern: README.md\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = common::validate_embedded(&[], &repo, &recipe, &out).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let metrics = &json_stdout(&output)["metrics"];
    assert_eq!(metrics["perfect_match"], true, "{metrics:#}");
    assert_eq!(
        (metrics["true_positives"].as_u64(), metrics["total_expected_changes"].as_u64()),
        (Some(2), Some(2))
    );
    let mut left_out: Vec<(String, String)> = metrics["unreproducible_lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["path"].as_str().unwrap().to_string(), l["reason"].as_str().unwrap().to_string()))
        .collect();
    left_out.dedup();
    assert_eq!(
        left_out,
        [
            ("latin1.txt", "not_utf8"),
            ("link", "symlink"),
            ("model.bin", "lfs_pointer"),
            ("vendor/lib", "submodule")
        ]
        .map(|(p, r)| (p.to_string(), r.to_string())),
        "{metrics:#}"
    );
    assert_eq!(metrics["unreproducible_lines"].as_array().unwrap().len(), 10, "{metrics:#}");
}

/// A base commit with a file whose name is not UTF-8 (Latin-1 `café.txt`) and one whose name is
/// UTF-8 but not ASCII, run with the C locale: the embedded runner keeps the Latin-1 file as plain
/// text under its decoded name and names it in a warning, and the parse and the recipe go on (the
/// Latin-1 name used to fail the whole parse, and without a UTF-8 locale any non-ASCII name did).
#[test]
fn a_file_name_that_is_not_utf8_costs_only_itself() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "--quiet", "--initial-branch=main"]);
    git(&repo, &["config", "user.email", "t@example.com"]);
    git(&repo, &["config", "user.name", "t"]);
    std::fs::write(repo.join("pom.xml"), POM).unwrap();
    std::fs::write(repo.join(std::ffi::OsStr::from_bytes(b"caf\xe9.txt")), "old\n").unwrap();
    std::fs::write(repo.join("na\u{ef}ve.txt"), "old\n").unwrap();
    std::fs::write(repo.join("README.md"), "old\n").unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "--quiet", "-m", "base"]);
    git(&repo, &["checkout", "--quiet", "-b", "migration"]);
    std::fs::write(repo.join("README.md"), "new\n").unwrap();
    git(&repo, &["commit", "--quiet", "-am", "readme"]);
    git(&repo, &["checkout", "--quiet", "main"]);
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(
        &recipe,
        "type: specs.openrewrite.org/v1beta/recipe\nname: test.Readme\nrecipeList:\n  - org.openrewrite.text.FindAndReplace:\n      find: old\n      replace: new\n      filePattern: README.md\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = common::validate_embedded(&[], &repo, &recipe, &out)
        .env_remove("LANG")
        .env_remove("LC_CTYPE")
        .env("LC_ALL", "C")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let stats = json_stdout(&output);
    assert_eq!(stats["metrics"]["perfect_match"], true, "{stats:#}");
    let warnings = stats["warnings"].to_string();
    assert!(warnings.contains("caf\\\\xE9.txt: kept as plain text"), "{stats:#}");
    assert!(!warnings.contains("na\u{ef}ve.txt"), "{stats:#}");
}
