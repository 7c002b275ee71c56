//! What the crate graph cannot check of the layout ARCHITECTURE.md describes. The layers are crates
//! (core, runner, engine, github, the binary), and cargo refuses a dependency cycle between them, so
//! a layer cannot use one above it; inside a crate, no import cycle between its top-level modules (a
//! phase may use the shared ones, never a later phase that uses it back). Read from the sources:
//! every `crate::<module>` a module's non-test code names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The source folder of every crate of the workspace: the binary's `src/` and each `crates/*/src/`.
fn crate_sources() -> Vec<PathBuf> {
    let mut dirs = vec![root().join("src")];
    let mut members: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    members.sort();
    dirs.extend(members);
    dirs
}

/// One crate's top-level module -> the other top-level modules of that crate its non-test code
/// refers to. A crate whose root was a module before the split names itself by that module's name
/// (`use crate as github;`), so `crate::github::x` is `crate::x` there.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap_or_default();
    let alias = regex::Regex::new(r"use crate as ([a-z_]+);").unwrap();
    let own_name = alias.captures(&lib).map(|c| format!("crate::{}::", &c[1]));
    let modules: BTreeSet<String> = std::fs::read_dir(src)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir() || e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| e.file_name().to_string_lossy().trim_end_matches(".rs").to_string())
        .filter(|name| name != "lib" && name != "main" && name != "snapshots")
        .collect();
    let path_re = regex::Regex::new(r"crate::([a-z_]+)").unwrap();
    let group_re = regex::Regex::new(r"crate::\{([^}]*)\}").unwrap();
    let mut graph = BTreeMap::new();
    for module in &modules {
        let mut uses = BTreeSet::new();
        let root = src.join(module);
        let files: Vec<std::path::PathBuf> = if root.is_dir() {
            walkdir::WalkDir::new(&root)
                .into_iter()
                .filter_map(Result::ok)
                .map(|e| e.into_path())
                .filter(|p| p.extension().is_some_and(|x| x == "rs"))
                .collect()
        } else {
            vec![src.join(format!("{module}.rs"))]
        };
        for file in files {
            let relative = file.strip_prefix(src).unwrap().to_string_lossy().into_owned();
            if relative.contains("/tests/") || relative.ends_with("tests.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let text = match &own_name {
                Some(own) => text.replace(own.as_str(), "crate::"),
                None => text,
            };
            let code = without_test_module(&text);
            let named = path_re.captures_iter(code).map(|c| c[1].to_string()).chain(
                group_re.captures_iter(code).flat_map(|c| {
                    c[1].split(',')
                        .map(|p| p.trim().split("::").next().unwrap_or("").to_string())
                        .collect::<Vec<_>>()
                }),
            );
            uses.extend(named.filter(|m| m != module && modules.contains(m)));
        }
        graph.insert(module.clone(), uses);
    }
    graph
}

/// A cycle through `start`, if there is one: the modules in order.
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    fn walk(
        graph: &BTreeMap<String, BTreeSet<String>>,
        start: &str,
        at: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in &graph[at] {
            if next == start {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(graph, start, next, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    walk(graph, start, start, &mut path, &mut BTreeSet::new()).then_some(path)
}

#[test]
fn no_import_cycle_between_the_top_level_modules_of_a_crate() {
    let graphs: BTreeMap<String, _> = crate_sources()
        .iter()
        .map(|src| (src.strip_prefix(root()).unwrap().display().to_string(), imports(src)))
        .collect();
    assert!(graphs.len() >= 6, "{:?}", graphs.keys());
    // The check sees real edges (the pipeline drives the phases).
    let engine = &graphs["crates/engine/src"];
    assert!(engine["pipeline"].contains("mapping") && engine["pipeline"].contains("intents"), "{engine:?}");
    for (src, graph) in &graphs {
        for module in graph.keys() {
            if let Some(cycle) = cycle_from(graph, module) {
                panic!("import cycle in {src}: {} -> {module}", cycle.join(" -> "));
            }
        }
    }
}

/// Git runs in one place: `crates/core/src/setup/git.rs` puts `--end-of-options` before refs and
/// URLs and refuses values that look like options (#31), so no other module starts `git` on its own.
#[test]
fn git_runs_only_through_the_git_module() {
    const OWNER: &str = "crates/core/src/setup/git.rs";
    let starts_git = |code: &str| code.contains("Command::new(\"git\")");
    let sources = all_sources();
    let outside: Vec<&String> = sources
        .iter()
        .filter(|(relative, text)| relative != OWNER && starts_git(text))
        .map(|(r, _)| r)
        .collect();
    assert!(outside.is_empty(), "git started outside {OWNER}: {outside:?}");
    let git = &sources.iter().find(|(relative, _)| relative == OWNER).expect("the git module exists").1;
    assert!(starts_git(git), "the check would see nothing");
}

/// Every `.rs` file of every crate's sources, with its path relative to the repository's root and
/// its whole text.
fn all_sources() -> Vec<(String, String)> {
    crate_sources()
        .iter()
        .flat_map(|src| walkdir::WalkDir::new(src).into_iter().filter_map(Result::ok))
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| {
            let relative = e.path().strip_prefix(root()).unwrap().display().to_string();
            (relative, std::fs::read_to_string(e.path()).unwrap())
        })
        .collect()
}

/// Every `.rs` file of every crate's sources with its path relative to the repository's root, and
/// its non-test code (what comes before its inline test module); the `tests` folders and
/// `tests.rs` files left out.
fn non_test_sources() -> Vec<(String, String)> {
    all_sources()
        .into_iter()
        .filter(|(relative, _)| !relative.contains("/tests/") && !relative.ends_with("tests.rs"))
        .map(|(relative, text)| {
            let code = without_test_module(&text).to_string();
            (relative, code)
        })
        .collect()
}

/// `text` up to its inline test module (`#[cfg(test)]`, or core's tests shared with the crates above,
/// `#[cfg(any(test, feature = "test-support"))]`, before a `mod … {`); such a gate on a single item
/// (`mod tests;`, a helper) does not end the shipped code.
fn without_test_module(text: &str) -> &str {
    let gate = regex::Regex::new(r#"#\[cfg\((test|any\(test, feature = "test-support"\))\)\]"#).unwrap();
    for found in gate.find_iter(text) {
        let next = text[found.start()..].lines().nth(1).unwrap_or_default().trim();
        if next.contains("mod ") && next.ends_with('{') {
            return &text[..found.start()];
        }
    }
    text
}

/// Recipe names are spelled once (#43): every `"org.openrewrite.<package>.<Recipe>"` literal of the
/// shipped code is a constant of `crates/core/src/openrewrite/recipe_names.rs`, each name there
/// once. Package prefixes (`"org.openrewrite.java.format."`) and coordinates are not recipe names;
/// tests and the fixtures crate (which no release build holds) may spell the names they assert on.
#[test]
fn recipe_names_are_spelled_in_one_module() {
    const OWNER: &str = "crates/core/src/openrewrite/recipe_names.rs";
    let name = regex::Regex::new(r#""org\.openrewrite\.([a-z][a-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*""#).unwrap();
    let sources = non_test_sources();
    let outside: Vec<String> = sources
        .iter()
        .filter(|(relative, _)| relative != OWNER && !relative.starts_with("crates/fixtures/"))
        .flat_map(|(relative, code)| {
            code.lines()
                .enumerate()
                .flat_map(|(at, line)| name.find_iter(line).map(move |m| (at, m.as_str())))
                .map(move |(at, found)| format!("{relative}:{} {found}", at + 1))
        })
        .collect();
    assert!(outside.is_empty(), "recipe names spelled outside {OWNER}: {outside:#?}");
    let owner = &sources.iter().find(|(relative, _)| relative == OWNER).expect("the owner exists").1;
    let names: Vec<&str> = name.find_iter(owner).map(|m| m.as_str()).collect();
    let distinct: BTreeSet<&str> = names.iter().copied().collect();
    assert!(names.len() > 30, "the check would see nothing: {names:?}");
    assert_eq!(names.len(), distinct.len(), "a recipe name is spelled twice in {OWNER}");
}

/// `auto → embedded → plugin` and the confirmation are decided in `crates/runner/src/choice.rs`
/// (#30): no other module branches on a backend choice's variant or starts the embedded runner
/// on its own. `analyze`, `validate` (`pipeline/one_recipe.rs`) and eval's transfer pairs call
/// `choice::start`.
#[test]
fn the_backend_choice_lives_in_one_module() {
    const OWNER: &str = "crates/runner/src/choice.rs";
    let variant = regex::Regex::new(r"BackendChoice::(Auto|Embedded|Plugin)\b").unwrap();
    let sources = non_test_sources();
    let outside: Vec<String> = sources
        .iter()
        .filter(|(relative, _)| relative != OWNER)
        .filter(|(_, code)| variant.is_match(code) || code.contains("embedded::start("))
        .map(|(relative, _)| relative.clone())
        .collect();
    assert!(outside.is_empty(), "the backend is chosen or started outside {OWNER}: {outside:?}");
    let owner = &sources.iter().find(|(relative, _)| relative == OWNER).expect("the owner exists").1;
    assert!(variant.is_match(owner) && owner.contains("embedded::start("), "the check would see nothing");
    for caller in [
        "crates/engine/src/pipeline/session.rs",
        "crates/engine/src/pipeline/one_recipe.rs",
        "src/eval/transfer.rs",
    ] {
        let code = &sources.iter().find(|(relative, _)| relative == caller).unwrap().1;
        assert!(code.contains("choice::start("), "{caller} does not start its backend through the choice");
    }
}

/// The release binary holds no test fixture (#30): the fixtures crate (`crates/fixtures/`) is a
/// dev-dependency of the crates whose tests use it, and an optional dependency of the binary behind
/// its `fixtures` feature, which no default and no normal dependency turns on (the dev-dependency on
/// the binary's own package does, for `cargo test`). The demo's example lives in core's `demo`.
#[test]
fn test_fixtures_stay_out_of_the_release_binary() {
    const FIXTURES: &str = "rewrite-assist-fixtures";
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let lines: Vec<&str> = lib.lines().map(str::trim).collect();
    let at = lines.iter().position(|l| l.contains("rewrite_assist_fixtures"));
    let at = at.expect("src/lib.rs brings in the fixtures crate");
    let gate = at.checked_sub(1).map(|i| lines[i]).unwrap_or_default();
    assert!(
        gate.starts_with("#[cfg(")
            && !gate.contains("not(")
            && (gate.contains("feature = \"fixtures\"") || gate.contains("test")),
        "src/lib.rs compiles the fixtures into every build: `{gate}` before `{}`",
        lines[at]
    );
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let default = manifest.lines().find(|l| l.trim_start().starts_with("default =")).unwrap_or_default();
    assert!(!default.contains("fixtures"), "a default feature turns the fixtures on: {default}");
    let dev = manifest.split("[dev-dependencies]").nth(1).unwrap_or_default();
    assert!(dev.contains("features = [\"fixtures\"]"), "cargo test would not build the fixtures");
    let normal = section(&manifest, "[dependencies]");
    let fixtures: Vec<&str> = normal.lines().filter(|l| l.starts_with(FIXTURES)).collect();
    assert!(
        fixtures.len() == 1 && fixtures[0].contains("optional = true"),
        "the binary depends on the fixtures outside its feature: {fixtures:?}"
    );
    assert!(
        !normal.lines().any(|l| l.contains("features") && l.contains("\"fixtures\"")),
        "a normal dependency turns the fixtures on"
    );
    // No library crate depends on the fixtures but for its tests.
    let mut members = 0;
    for entry in std::fs::read_dir(root().join("crates")).unwrap().filter_map(Result::ok) {
        let Ok(manifest) = std::fs::read_to_string(entry.path().join("Cargo.toml")) else { continue };
        members += 1;
        let normal = section(&manifest, "[dependencies]");
        assert!(!normal.contains(FIXTURES), "{} depends on the fixtures", entry.path().display());
    }
    assert!(members >= 5, "the check would see nothing: {members} crates");
    // What ships uses none of them: the demo, the CLI outside its feature-gated `fixture`
    // command, and every module's non-test code but the fixtures' own.
    let users: Vec<String> = non_test_sources()
        .into_iter()
        .filter(|(relative, _)| !relative.starts_with("crates/fixtures/") && relative != "src/cli/fixture.rs")
        .filter(|(_, code)| {
            code.contains("crate::fixtures")
                || code.contains("mod fixtures")
                || code.contains("rewrite_assist_fixtures")
        })
        .filter(|(relative, _)| relative != "src/lib.rs")
        .filter(|(relative, code)| {
            !(relative.ends_with("/lib.rs") && gated_to_tests(code, "rewrite_assist_fixtures"))
        })
        .map(|(relative, _)| relative)
        .collect();
    assert!(users.is_empty(), "shipped code uses the test fixtures: {users:?}");
    let cli = std::fs::read_to_string(root().join("src/cli/mod.rs")).unwrap();
    assert!(cli.contains("#[cfg(feature = \"fixtures\")]\nmod fixture;"), "the `fixture` command ships");
}

/// The lines of a manifest's `header` table, up to the next table.
fn section<'a>(manifest: &'a str, header: &str) -> &'a str {
    let Some(from) = manifest.find(&format!("\n{header}\n")) else { return "" };
    let body = &manifest[from + header.len() + 2..];
    &body[..body.find("\n[").unwrap_or(body.len())]
}

/// Whether every line of `code` naming `name` comes right after `#[cfg(test)]`.
fn gated_to_tests(code: &str, name: &str) -> bool {
    let lines: Vec<&str> = code.lines().map(str::trim).collect();
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains(name))
        .all(|(i, _)| i > 0 && lines[i - 1] == "#[cfg(test)]")
}

/// No function of the shipped code is over 100 lines (#30): from its `fn` line to its closing
/// brace, counted by braces outside strings, characters and comments. Test code (after a file's
/// `#[cfg(test)]`, and the `tests` folders) holds long tables and is not counted.
#[test]
fn no_function_is_over_100_lines() {
    const LIMIT: usize = 100;
    let start = regex::Regex::new(r"^\s*(pub(\([a-z]+\))?\s+)?(const\s+)?(async\s+)?fn\s+(\w+)").unwrap();
    let literal = regex::Regex::new(r#""(\\.|[^"\\])*"|'(\\.|[^'\\])'"#).unwrap();
    let mut long = Vec::new();
    let mut seen = 0;
    for (relative, code) in non_test_sources() {
        let lines: Vec<&str> = code.lines().collect();
        for (at, line) in lines.iter().enumerate() {
            let Some(name) = start.captures(line).map(|c| c[5].to_string()) else { continue };
            let (mut depth, mut opened) = (0i64, false);
            for (offset, text) in lines[at..].iter().enumerate() {
                let bare = literal.replace_all(text, "");
                let bare = bare.split("//").next().unwrap_or_default();
                if !opened && bare.contains(';') && !bare.contains('{') {
                    break; // a declaration without a body
                }
                depth += bare.matches('{').count() as i64 - bare.matches('}').count() as i64;
                opened |= bare.contains('{');
                if opened && depth <= 0 {
                    seen += 1;
                    if offset + 1 > LIMIT {
                        long.push(format!("{relative}:{} {name} ({} lines)", at + 1, offset + 1));
                    }
                    break;
                }
            }
        }
    }
    assert!(seen > 1000, "the check would see nothing: {seen} functions");
    assert!(long.is_empty(), "functions over {LIMIT} lines: {long:#?}");
}
