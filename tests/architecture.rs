//! The layout ARCHITECTURE.md describes: one folder per phase, and no import cycle between them (a
//! phase may use the shared ones below it, never a later phase that uses it back). Read from the
//! sources: every `crate::<module>` a module's non-test code names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Top-level module -> the other top-level modules its non-test code refers to.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules: BTreeSet<String> = std::fs::read_dir(&src)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().trim_end_matches(".rs").to_string())
        .filter(|name| name != "lib" && name != "main")
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
            let relative = file.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
            if relative.contains("/tests/") || relative.ends_with("tests.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
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
fn no_import_cycle_between_top_level_modules() {
    let graph = imports();
    assert!(graph.len() > 10, "{graph:?}");
    // The check sees real edges (the pipeline drives the phases).
    assert!(graph["pipeline"].contains("validation") && graph["pipeline"].contains("mapping"), "{graph:?}");
    for module in graph.keys() {
        if let Some(cycle) = cycle_from(&graph, module) {
            panic!("import cycle: {} -> {module}", cycle.join(" -> "));
        }
    }
}

/// Git runs in one place: `src/setup/git.rs` puts `--end-of-options` before refs and URLs and
/// refuses values that look like options (#31), so no other module starts `git` on its own.
#[test]
fn git_runs_only_through_the_git_module() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let outside: Vec<String> = walkdir::WalkDir::new(&src)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .filter(|e| !e.path().ends_with("setup/git.rs"))
        .filter(|e| std::fs::read_to_string(e.path()).unwrap().contains("Command::new(\"git\")"))
        .map(|e| e.path().strip_prefix(&src).unwrap().display().to_string())
        .collect();
    assert!(outside.is_empty(), "git started outside src/setup/git.rs: {outside:?}");
    let git = std::fs::read_to_string(src.join("setup/git.rs")).unwrap();
    assert!(git.contains("Command::new(\"git\")"), "the check would see nothing");
}

/// Every `.rs` file under `src/` with its path relative to it, and its non-test code (what comes
/// before its inline test module); the `tests` folders and `tests.rs` files left out.
fn non_test_sources() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    walkdir::WalkDir::new(&src)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| (e.path().strip_prefix(&src).unwrap().display().to_string(), e.into_path()))
        .filter(|(relative, _)| !relative.contains("/tests/") && !relative.ends_with("tests.rs"))
        .map(|(relative, path)| {
            let text = std::fs::read_to_string(path).unwrap();
            (relative, without_test_module(&text).to_string())
        })
        .collect()
}

/// `text` up to its inline test module (`#[cfg(test)]` before a `mod … {`); a `#[cfg(test)]` on a
/// single item (`mod tests;`, a helper) does not end the shipped code.
fn without_test_module(text: &str) -> &str {
    let mut from = 0;
    while let Some(found) = text[from..].find("#[cfg(test)]") {
        let at = from + found;
        let next = text[at..].lines().nth(1).unwrap_or_default().trim();
        if next.contains("mod ") && next.ends_with('{') {
            return &text[..at];
        }
        from = at + 1;
    }
    text
}

/// `auto → embedded → plugin` and the confirmation are decided in `src/validation/choice.rs`
/// (#30): no other module branches on a backend choice's variant or starts the embedded runner
/// on its own. `analyze`, `validate` (`pipeline/one_recipe.rs`) and eval's transfer pairs call
/// `choice::start`.
#[test]
fn the_backend_choice_lives_in_one_module() {
    const OWNER: &str = "validation/choice.rs";
    let variant = regex::Regex::new(r"BackendChoice::(Auto|Embedded|Plugin)\b").unwrap();
    let sources = non_test_sources();
    let outside: Vec<String> = sources
        .iter()
        .filter(|(relative, _)| relative != OWNER)
        .filter(|(_, code)| variant.is_match(code) || code.contains("embedded::start("))
        .map(|(relative, _)| relative.clone())
        .collect();
    assert!(outside.is_empty(), "the backend is chosen or started outside src/{OWNER}: {outside:?}");
    let owner = &sources.iter().find(|(relative, _)| relative == OWNER).expect("the owner exists").1;
    assert!(variant.is_match(owner) && owner.contains("embedded::start("), "the check would see nothing");
    for caller in ["pipeline/session.rs", "pipeline/one_recipe.rs", "eval/transfer.rs"] {
        let code = &sources.iter().find(|(relative, _)| relative == caller).unwrap().1;
        assert!(code.contains("choice::start("), "{caller} does not start its backend through the choice");
    }
}

/// The release binary holds no test fixture (#30): `src/fixtures/` is compiled only for tests or
/// with the `fixtures` feature, which no default and no normal dependency turns on (the
/// dev-dependency on this crate does, for `cargo test`). The demo's example lives in `src/demo/`.
#[test]
fn test_fixtures_stay_out_of_the_release_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let lines: Vec<&str> = lib.lines().map(str::trim).collect();
    let at = lines.iter().position(|l| *l == "pub mod fixtures;" || *l == "mod fixtures;");
    let at = at.expect("src/lib.rs declares the fixtures module");
    let gate = at.checked_sub(1).map(|i| lines[i]).unwrap_or_default();
    assert!(
        gate.starts_with("#[cfg(")
            && !gate.contains("not(")
            && (gate.contains("feature = \"fixtures\"") || gate.contains("test")),
        "src/lib.rs compiles the fixtures into every build: `{gate}` before `{}`",
        lines[at]
    );
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let default = manifest.lines().find(|l| l.trim_start().starts_with("default =")).unwrap_or_default();
    assert!(!default.contains("fixtures"), "a default feature turns the fixtures on: {default}");
    let dev = manifest.split("[dev-dependencies]").nth(1).unwrap_or_default();
    let normal = manifest.split("[dev-dependencies]").next().unwrap_or_default();
    assert!(
        !normal.lines().any(|l| l.contains("features") && l.contains("\"fixtures\"")),
        "a normal dependency turns the fixtures on"
    );
    assert!(dev.contains("features = [\"fixtures\"]"), "cargo test would not build the fixtures");
    // What ships uses none of them: the demo, the CLI outside its feature-gated `fixture`
    // command, and every module's non-test code but the fixtures' own.
    let users: Vec<String> = non_test_sources()
        .into_iter()
        .filter(|(relative, _)| !relative.starts_with("fixtures/") && relative != "cli/fixture.rs")
        .filter(|(_, code)| code.contains("crate::fixtures") || code.contains("mod fixtures"))
        .filter(|(relative, _)| relative != "lib.rs")
        .map(|(relative, _)| relative)
        .collect();
    assert!(users.is_empty(), "shipped code uses the test fixtures: {users:?}");
    let cli = std::fs::read_to_string(root.join("src/cli/mod.rs")).unwrap();
    assert!(cli.contains("#[cfg(feature = \"fixtures\")]\nmod fixture;"), "the `fixture` command ships");
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
