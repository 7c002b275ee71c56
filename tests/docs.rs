//! The docs stay true to the code: every relative link (and `#anchor`) in the repository's markdown
//! resolves; the action's inputs and outputs tables match `action.yml`; every command and flag the docs
//! name exists in the real binary's `--help`, and every flag of every command is documented in that
//! command's section; every error kind the code defines is on the troubleshooting page.

mod common;
#[path = "common/yaml.rs"]
mod yaml;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use yaml::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The markdown we publish: the top-level pages, `docs/` (at any depth) and `evals/README.md`.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    for dir in ["docs", "evals"] {
        files.extend(
            walkdir::WalkDir::new(root.join(dir))
                .into_iter()
                .filter_map(Result::ok)
                .map(|e| e.into_path())
                .filter(|p| p.extension().is_some_and(|x| x == "md")),
        );
    }
    files.retain(|p| !p.components().any(|c| c.as_os_str() == ".fixtures"));
    files.sort();
    files
}

fn parser(text: &str) -> Parser<'_> {
    Parser::new_ext(text, Options::ENABLE_TABLES)
}

// ---------------------------------------------------------------------------------------------
// Links and anchors

/// The anchor GitHub gives a heading: its text lower-cased, without punctuation (letters, digits,
/// `-`, `_` and spaces stay), spaces turned into `-`; a repeated anchor gets `-1`, `-2`, ….
fn slug(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The headings of a markdown text: (level, text as GitHub renders it: code spans without backticks).
fn headings(text: &str) -> Vec<(HeadingLevel, String)> {
    let mut found = Vec::new();
    let mut current: Option<(HeadingLevel, String)> = None;
    for event in parser(text) {
        match event {
            Event::Start(Tag::Heading { level, .. }) => current = Some((level, String::new())),
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, heading)) = current.as_mut() {
                    heading.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => found.extend(current.take()),
            _ => {}
        }
    }
    found
}

fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut all = BTreeSet::new();
    for (_, heading) in headings(text) {
        let base = slug(&heading);
        let count = seen.entry(base.clone()).or_insert(0);
        all.insert(if *count == 0 { base.clone() } else { format!("{base}-{count}") });
        *count += 1;
    }
    all
}

/// Every relative link of `files` that does not resolve: "file: link (why)".
fn broken_links(files: &[PathBuf]) -> Vec<String> {
    let mut broken = Vec::new();
    for file in files {
        let text = read(file);
        for event in parser(&text) {
            let (Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. })) =
                event
            else {
                continue;
            };
            let dest = dest_url.to_string();
            if dest.contains("://") || dest.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match dest.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (dest.as_str(), None),
            };
            let target = if path.is_empty() { file.clone() } else { file.parent().unwrap().join(path) };
            if !target.exists() {
                broken.push(format!("{}: {dest} (no such file)", file.display()));
                continue;
            }
            if let Some(anchor) = anchor {
                let is_markdown = target.extension().is_some_and(|x| x == "md");
                if is_markdown && !anchors(&read(&target)).contains(anchor) {
                    broken.push(format!(
                        "{}: {dest} (no such heading in {})",
                        file.display(),
                        target.display()
                    ));
                }
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let files = markdown_files(&root());
    for expected in ["README.md", "ARCHITECTURE.md", "docs/cli.md", "docs/troubleshooting.md"] {
        assert!(files.contains(&root().join(expected)), "{expected} is not checked: {files:?}");
    }
    let broken = broken_links(&files);
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The link check itself: a missing file and a missing anchor are both found, and GitHub's anchors
/// come out as GitHub makes them.
#[test]
fn the_link_check_finds_a_missing_file_and_a_missing_anchor() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.md");
    std::fs::write(
        dir.path().join("other.md"),
        "# Tokens: what the workflow's own `GITHUB_TOKEN` cannot do\n\n## Usage\n\n## Usage\n",
    )
    .unwrap();
    std::fs::write(
        &page,
        "[a](other.md#tokens-what-the-workflows-own-github_token-cannot-do) [b](other.md#usage-1) \
         [c](https://example.com/x.md) [d](missing.md) [e](other.md#nowhere) [f](#here)\n\n# Here\n",
    )
    .unwrap();
    let broken = broken_links(&[page]);
    assert_eq!(broken.len(), 2, "{broken:?}");
    assert!(broken[0].ends_with("missing.md (no such file)"), "{broken:?}");
    assert!(broken[1].contains("other.md#nowhere (no such heading"), "{broken:?}");
}

// ---------------------------------------------------------------------------------------------
// The action's inputs and outputs

/// Each cell's code spans, in order.
fn code_spans(markdown_cell: &str) -> Vec<String> {
    let mut spans = Vec::new();
    for event in parser(markdown_cell) {
        if let Event::Code(t) = event {
            spans.push(t.to_string());
        }
    }
    spans
}

/// The rows of the first table after the heading `title` (header and separator left out), each cell
/// as markdown, so that a code span can be told from plain text.
fn raw_rows_after(text: &str, title: &str) -> Vec<Vec<String>> {
    let start = text
        .lines()
        .position(|l| l.trim_start_matches('#').trim() == title && l.starts_with('#'))
        .unwrap_or_else(|| panic!("no heading `{title}`"));
    text.lines()
        .skip(start + 1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            // Cells split at `|` that is not escaped (`\|` inside a cell).
            let mut cells = Vec::new();
            let mut current = String::new();
            let mut chars = l.trim().trim_matches('|').chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' if chars.peek() == Some(&'|') => current.push(chars.next().unwrap()),
                    '|' => cells.push(std::mem::take(&mut current).trim().to_string()),
                    _ => current.push(c),
                }
            }
            cells.push(current.trim().to_string());
            cells
        })
        .collect()
}

fn action_yml() -> Value {
    yaml::from_str(&read(&root().join("action.yml"))).unwrap()
}

#[test]
fn the_inputs_table_matches_action_yml() {
    let action = action_yml();
    let inputs = action["inputs"].as_mapping().unwrap();
    let docs = read(&root().join("docs/action.md"));
    let rows = raw_rows_after(&docs, "Inputs");
    let documented: Vec<String> = rows.iter().map(|r| code_spans(&r[0]).concat()).collect();
    let declared: Vec<String> = inputs.keys().filter_map(Value::as_str).map(str::to_string).collect();
    assert_eq!(documented, declared, "docs/action.md's inputs table and action.yml's inputs, in order");
    for row in &rows {
        let name = code_spans(&row[0]).concat();
        let default = inputs[name.as_str()]["default"].as_str().unwrap_or_default();
        let cell = &row[1];
        if default.is_empty() {
            assert!(cell.is_empty(), "{name}: action.yml has no default, the table says `{cell}`");
        } else {
            assert_eq!(cell, &format!("`{default}`"), "{name}: the default in docs/action.md");
        }
        assert!(!row[2].is_empty(), "{name}: no meaning");
    }
}

#[test]
fn the_outputs_table_matches_action_yml() {
    let action = action_yml();
    let docs = read(&root().join("docs/action.md"));
    let documented: Vec<String> =
        raw_rows_after(&docs, "Outputs").iter().map(|r| code_spans(&r[0]).concat()).collect();
    let declared: Vec<String> = action["outputs"]
        .as_mapping()
        .unwrap()
        .keys()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    assert_eq!(documented, declared);
}

/// The table of inputs and the CLI's flags names only inputs that exist and flags `analyze` has.
#[test]
fn the_inputs_and_flags_table_names_real_inputs_and_flags() {
    let action = action_yml();
    let inputs = action["inputs"].as_mapping().unwrap();
    let analyze = help_of(&["analyze"]).flags;
    let docs = read(&root().join("docs/action.md"));
    let rows = raw_rows_after(&docs, "Inputs and the CLI's flags");
    assert!(rows.iter().any(|r| code_spans(&r[0]).contains(&"timeout".to_string())), "timeout is explained");
    for row in rows {
        for span in row.iter().flat_map(|cell| code_spans(cell)) {
            if let Some(flag) = span.strip_prefix("analyze ") {
                assert!(analyze.contains(flag), "analyze has no {flag}");
            } else if span.starts_with("--") {
                assert!(analyze.contains(&span), "analyze has no {span}");
            } else {
                assert!(inputs.contains_key(span.as_str()), "action.yml has no input {span}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and flags

struct Help {
    subcommands: Vec<String>,
    flags: BTreeSet<String>,
}

fn help_of(path: &[&str]) -> Help {
    let output = common::bin().args(path).arg("--help").output().unwrap();
    assert!(output.status.success(), "{path:?} --help failed");
    let text = String::from_utf8(output.stdout).unwrap();
    let flag = regex::Regex::new(r"^\s+(?:-[a-zA-Z], )?(--[a-z][a-z0-9-]*)").unwrap();
    let mut subcommands = Vec::new();
    let mut flags = BTreeSet::new();
    let mut section = "";
    for line in text.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            section = line;
            continue;
        }
        match section {
            // `  name  description`; a wrapped description is indented further.
            "Commands:" if line.starts_with("  ") && !line.starts_with("   ") => {
                let name = line.split_whitespace().next().unwrap_or_default();
                if name != "help" {
                    subcommands.push(name.to_string());
                }
            }
            "Options:" => {
                if let Some(c) = flag.captures(line) {
                    flags.insert(c[1].to_string());
                }
            }
            _ => {}
        }
    }
    Help { subcommands, flags }
}

/// Every command path (`analyze`, `eval`, `eval run`, …) with its flags.
fn command_tree() -> BTreeMap<String, Help> {
    let mut tree = BTreeMap::new();
    let mut queue = vec![Vec::<String>::new()];
    while let Some(path) = queue.pop() {
        let args: Vec<&str> = path.iter().map(String::as_str).collect();
        let help = help_of(&args);
        for sub in &help.subcommands {
            let mut child = path.clone();
            child.push(sub.clone());
            queue.push(child);
        }
        tree.insert(path.join(" "), help);
    }
    tree
}

const GLOBAL_FLAGS: &[&str] = &["--help", "--verbose", "--version", "--pass-env", "--credential-url"];

/// Other programs' flags that a command's section names: Maven's `--settings`, where `validate` says
/// how it runs Maven.
const OTHER_PROGRAMS_FLAGS: &[&str] = &["--settings"];

/// A `rewrite-assist …` command line in the docs: the command path it names and its `--flags`.
fn parse_command_line(line: &str, tree: &BTreeMap<String, Help>) -> Result<(String, Vec<String>), String> {
    let rest = line.trim().strip_prefix("rewrite-assist ").ok_or("not a command line")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut path = String::new();
    for word in &words {
        let candidate = if path.is_empty() { word.to_string() } else { format!("{path} {word}") };
        if tree.contains_key(&candidate) {
            path = candidate;
        } else {
            break;
        }
    }
    if path.is_empty() && !words.first().is_some_and(|w| w.starts_with('-')) {
        return Err(format!("`{line}` names no command of the binary"));
    }
    let flag = regex::Regex::new(r"(?:^|[\s\[(|])(--[a-z][a-z0-9-]*)").unwrap();
    Ok((path, flag.captures_iter(rest).map(|c| c[1].to_string()).collect()))
}

/// Every `rewrite-assist …` line of the docs: inline code and the lines of code blocks.
fn command_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut in_block = false;
    for event in parser(text) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_) | CodeBlockKind::Indented)) => {
                in_block = true
            }
            Event::End(TagEnd::CodeBlock) => in_block = false,
            Event::Text(t) if in_block => lines.extend(t.lines().map(str::to_string)),
            Event::Code(t) => lines.push(t.to_string()),
            _ => {}
        }
    }
    lines.retain(|l| l.trim().starts_with("rewrite-assist "));
    lines
}

/// Each documented command's section: the text from its heading (`` `rewrite-assist PATH` ``) to
/// the next heading of the same or a higher level.
fn command_sections(files: &[PathBuf], tree: &BTreeMap<String, Help>) -> BTreeMap<String, Vec<String>> {
    let mut sections: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in files {
        let text = read(file);
        let lines: Vec<&str> = text.lines().collect();
        let mut in_block = false;
        let mut starts = Vec::new();
        for (index, line) in lines.iter().enumerate() {
            if line.starts_with("```") {
                in_block = !in_block;
            }
            if !in_block && line.starts_with('#') {
                let level = line.chars().take_while(|c| *c == '#').count();
                starts.push((index, level, line.trim_start_matches('#').trim().to_string()));
            }
        }
        for (n, (index, level, title)) in starts.iter().enumerate() {
            let Some(path) = title.strip_prefix("`rewrite-assist ").and_then(|t| t.strip_suffix('`')) else {
                continue;
            };
            if !tree.contains_key(path) {
                continue;
            }
            let end = starts[n + 1..].iter().find(|(_, l, _)| l <= level).map_or(lines.len(), |(i, _, _)| *i);
            sections.entry(path.to_string()).or_default().push(lines[*index..end].join("\n"));
        }
    }
    sections
}

#[test]
fn the_commands_and_flags_the_docs_name_exist() {
    let tree = command_tree();
    assert!(tree.contains_key("analyze") && tree.contains_key("eval run"), "{:?}", tree.keys());
    let mut wrong = Vec::new();
    let mut checked = 0;
    for file in markdown_files(&root()) {
        for line in command_lines(&read(&file)) {
            match parse_command_line(&line, &tree) {
                Ok((path, flags)) => {
                    checked += 1;
                    let known = &tree[&path].flags;
                    for flag in flags {
                        if !known.contains(&flag) && !GLOBAL_FLAGS.contains(&flag.as_str()) {
                            wrong.push(format!("{}: `rewrite-assist {path}` has no {flag}", file.display()));
                        }
                    }
                }
                Err(e) => wrong.push(format!("{}: {e}", file.display())),
            }
        }
    }
    assert!(checked > 20, "only {checked} command lines found");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_flag_of_every_command_is_documented_in_its_section() {
    let tree = command_tree();
    let sections = command_sections(&markdown_files(&root()), &tree);
    let flag = regex::Regex::new(r"--[a-z][a-z0-9-]*").unwrap();
    let mut missing = Vec::new();
    for (path, help) in tree.iter().filter(|(path, help)| !path.is_empty() && help.subcommands.is_empty()) {
        let Some(texts) = sections.get(path) else {
            missing
                .push(format!("`rewrite-assist {path}` has no section (a heading `rewrite-assist {path}`)"));
            continue;
        };
        assert_eq!(texts.len(), 1, "`rewrite-assist {path}` is documented in {} sections", texts.len());
        let named: BTreeSet<&str> = flag.find_iter(&texts[0]).map(|m| m.as_str()).collect();
        for documented in &named {
            if !help.flags.contains(*documented)
                && !GLOBAL_FLAGS.contains(documented)
                && !OTHER_PROGRAMS_FLAGS.contains(documented)
            {
                // Another command's flag named in passing is fine, one that exists nowhere is not.
                if !tree.values().any(|h| h.flags.contains(*documented)) {
                    missing.push(format!(
                        "`rewrite-assist {path}`'s section names {documented}, which no command has"
                    ));
                }
            }
        }
        for flag in help.flags.iter().filter(|f| !GLOBAL_FLAGS.contains(&f.as_str())) {
            if !named.contains(flag.as_str()) {
                missing.push(format!("`rewrite-assist {path} {flag}` is not in its section"));
            }
        }
    }
    let cli = read(&root().join("docs/cli.md"));
    for global in GLOBAL_FLAGS {
        assert!(cli.contains(global), "docs/cli.md does not name {global}");
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// The command-line parser of this file: paths, flags, and a command that does not exist.
#[test]
fn command_lines_are_read_with_their_path_and_flags() {
    let tree = command_tree();
    let (path, flags) =
        parse_command_line("rewrite-assist eval cache list --cache DIR [--json]", &tree).unwrap();
    assert_eq!((path.as_str(), flags), ("eval cache list", vec!["--cache".to_string(), "--json".into()]));
    let (path, flags) =
        parse_command_line("rewrite-assist intents [--json | --format md|json]", &tree).unwrap();
    assert_eq!((path.as_str(), flags.len()), ("intents", 2));
    assert!(parse_command_line("rewrite-assist analyse --repo .", &tree).is_err());
}

// ---------------------------------------------------------------------------------------------
// Error kinds

/// The `kind` strings of the validation errors and of the embedded runner's protocol, read from the
/// sources (what the binary prints).
fn error_kinds() -> BTreeSet<String> {
    let validation = read(&root().join("crates/core/src/model/validation.rs"));
    let as_str = validation.split("fn as_str").nth(1).expect("ErrorKind::as_str");
    let body = &as_str[..as_str.find("\n    }\n").unwrap()];
    let arm = regex::Regex::new(r#"ErrorKind::\w+ => "([a-z_]+)""#).unwrap();
    let mut kinds: BTreeSet<String> = arm.captures_iter(body).map(|c| c[1].to_string()).collect();
    assert!(kinds.len() >= 12, "{kinds:?}");

    let protocol = read(&root().join("crates/runner/src/embedded/protocol.rs"));
    let failure = protocol.split("enum FailureKind {").nth(1).expect("enum FailureKind");
    let variants = &failure[..failure.find('}').unwrap()];
    let variant = regex::Regex::new(r"(?m)^\s+([A-Z][A-Za-z]+),").unwrap();
    for name in variant.captures_iter(variants).map(|c| c[1].to_string()).filter(|n| n != "Other") {
        let mut snake = String::new();
        for (i, c) in name.chars().enumerate() {
            if c.is_uppercase() && i > 0 {
                snake.push('_');
            }
            snake.push(c.to_ascii_lowercase());
        }
        kinds.insert(snake);
    }
    kinds
}

#[test]
fn every_error_kind_is_on_the_troubleshooting_page() {
    let kinds = error_kinds();
    for expected in ["unknown_recipe", "no_build_tool", "no_parse", "internal"] {
        assert!(kinds.contains(expected), "{expected} not read from the sources: {kinds:?}");
    }
    let page = read(&root().join("docs/troubleshooting.md"));
    let missing: Vec<&String> = kinds.iter().filter(|k| !page.contains(&format!("`{k}`"))).collect();
    assert!(missing.is_empty(), "docs/troubleshooting.md does not explain {missing:?}");
}

// ---------------------------------------------------------------------------------------------
// The dependency table

/// The runtime dependencies of every package of the repository (`[dependencies]` of the root
/// manifest and of `crates/*/Cargo.toml`), without the workspace's own packages.
fn runtime_dependencies() -> BTreeSet<String> {
    let mut manifests = vec![root().join("Cargo.toml")];
    if let Ok(crates) = std::fs::read_dir(root().join("crates")) {
        manifests.extend(crates.flatten().map(|e| e.path().join("Cargo.toml")).filter(|p| p.is_file()));
    }
    let mut names = BTreeSet::new();
    let mut members = BTreeSet::new();
    for manifest in manifests {
        let mut section = String::new();
        for line in read(&manifest).lines().map(str::trim) {
            if line.starts_with('[') {
                section = line.to_string();
                continue;
            }
            if section == "[package]" && line.starts_with("name =") {
                members.insert(line.trim_start_matches("name =").trim().trim_matches('"').to_string());
            }
            let in_dependencies = section == "[dependencies]";
            let Some((key, value)) = line.split_once('=') else { continue };
            if !in_dependencies || line.starts_with('#') || value.contains("path =") {
                continue;
            }
            // `name = …`, `name = { … }` or `name.workspace = true`.
            let name = key.trim().split('.').next().unwrap_or_default().trim_matches('"');
            names.insert(name.to_string());
        }
    }
    &names - &members
}

#[test]
fn the_dependency_table_names_every_runtime_dependency_and_no_other() {
    let architecture = read(&root().join("ARCHITECTURE.md"));
    let rows = raw_rows_after(&architecture, "Dependencies");
    let documented: BTreeSet<String> = rows.iter().flat_map(|r| code_spans(&r[0])).collect();
    let declared = runtime_dependencies();
    assert!(
        declared.contains("anyhow") && declared.contains("clap"),
        "the manifests were read: {declared:?}"
    );
    let missing: Vec<_> = declared.difference(&documented).collect();
    let stale: Vec<_> = documented.difference(&declared).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "ARCHITECTURE.md's dependency table: not in it {missing:?}; in it but not a dependency {stale:?}"
    );
    for row in &rows {
        assert!(row.len() >= 2 && row[1].len() > 10, "{row:?}: say why the dependency is there");
    }
}
