//! Classifying why a recipe run failed, from the build tool's output, so the orchestrator can react
//! (drop the offending recipe and retry) instead of giving up.

use std::sync::LazyLock;

use regex::Regex;

pub(crate) use crate::model::validation::{ErrorKind, RunError};

/// Lines kept in an excerpt.
const EXCERPT_LINES: usize = 40;

struct Rule {
    kind: ErrorKind,
    pattern: Regex,
}

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let rule = |kind, pattern: &str| Regex::new(pattern).ok().map(|pattern| Rule { kind, pattern });
    [
        rule(ErrorKind::UnknownRecipe, r"Recipe class (\S+) cannot be found"),
        rule(ErrorKind::UnknownRecipe, r"Could not resolve type id '([^']+)' as a subtype of `?org\.openrewrite\.Recipe"),
        rule(ErrorKind::UnknownRecipe, r"Recipe\(s\) not found: ([^\s,]+)"),
        rule(ErrorKind::UnknownRecipe, r"[Rr]ecipes? not found:? ?(\S+)?"),
        rule(ErrorKind::InvalidOption, r"Recipe validation error in (\S+) for property (\S+): (.+)"),
        rule(ErrorKind::InvalidOption, r"Cannot (?:deserialize|construct instance of) .*"),
        rule(ErrorKind::InvalidOption, r#"Unrecognized field "([^"]+)""#),
        rule(
            ErrorKind::YamlError,
            r"while (?:parsing|scanning) (?:a|an) |mapping values are not allowed|expected <block end>|ScannerException|ParserException|YAMLException|found character '.' that cannot start any token",
        ),
        rule(
            ErrorKind::DependencyResolution,
            r"Failed to resolve requested artifacts|Could not resolve dependencies|Could not find artifact|Could not transfer artifact|Plugin \S+ or one of its dependencies could not be resolved|Non-resolvable parent POM|Cannot access \S+ in offline mode|Could not resolve all (?:files|dependencies|artifacts) for configuration|Could not resolve plugin artifact|Plugin \[id: '[^']+'.*\] was not found",
        ),
        rule(ErrorKind::ParseFailure, r"There were problems parsing|Unable to parse|failed to parse"),
    ]
    .into_iter()
    .flatten()
    .collect()
});

/// Classifies a failed run from its log. Call only when the tool exited unsuccessfully.
pub(crate) fn classify(log: &str) -> RunError {
    let log = &strip_ansi(log);
    let lines: Vec<&str> = log.lines().map(strip_log_prefix).collect();
    for rule in RULES.iter() {
        for (index, line) in lines.iter().enumerate() {
            let Some(captures) = rule.pattern.captures(line) else { continue };
            let mut error = RunError::new(rule.kind, one_line(line));
            error.excerpt = excerpt(&lines, index);
            match rule.kind {
                ErrorKind::UnknownRecipe => error.recipe = captures.get(1).map(|m| m.as_str().to_string()),
                ErrorKind::InvalidOption => {
                    error.recipe = captures.get(1).map(|m| m.as_str().to_string());
                    error.property = captures.get(2).map(|m| m.as_str().to_string());
                }
                _ => {}
            }
            return error;
        }
    }
    let detail = lines
        .iter()
        .find(|l| l.contains("Failed to execute goal") || l.contains("What went wrong"))
        .map(|l| one_line(l))
        // Otherwise what Maven reported (a POM it cannot read fails before any goal runs).
        .or_else(|| first_reported_error(log))
        .unwrap_or_else(|| "the build tool failed".to_string());
    let mut error = RunError::new(ErrorKind::BuildToolFailure, detail);
    error.excerpt = error_lines(log);
    error
}

/// Removes ANSI colour codes (a user's MAVEN_OPTS may force colours on).
fn strip_ansi(text: &str) -> std::borrow::Cow<'_, str> {
    static ANSI: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new("\x1b\\[[0-9;]*[A-Za-z]").ok());
    match ANSI.as_ref() {
        Some(re) => re.replace_all(text, ""),
        None => std::borrow::Cow::Borrowed(text),
    }
}

/// Files the tool could not parse (it goes on without them): `There were problems parsing X`.
pub(crate) fn parse_problems(log: &str) -> Vec<String> {
    static PROBLEM: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"There were problems parsing (\S+)$").ok());
    let Some(re) = PROBLEM.as_ref() else { return Vec::new() };
    let mut files: Vec<String> = log
        .lines()
        .map(strip_log_prefix)
        .filter_map(|l| re.captures(l.trim_end()).and_then(|c| c.get(1)).map(|m| m.as_str().to_string()))
        .filter(|f| f != "some")
        .collect();
    files.dedup();
    files
}

/// What OpenRewrite warned about during a run that still succeeded: a step that threw on some file
/// (a `CreateTextFile` outside the repository, a visitor's exception) is skipped there with only
/// `The recipe produced N warning(s)`; the Gradle plugin adds a `Warning: <message>` line for each.
pub(crate) fn recipe_warnings(log: &str) -> Vec<String> {
    static PRODUCED: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"The recipe produced (\d+) warning\(s\)").ok());
    let Some(re) = PRODUCED.as_ref() else { return Vec::new() };
    let log = strip_ansi(log);
    let mut warnings = Vec::new();
    for line in log.lines().map(strip_log_prefix) {
        if let Some(count) = re.captures(line).and_then(|c| c.get(1)) {
            let count: usize = count.as_str().parse().unwrap_or(0);
            warnings.push(format!(
                "OpenRewrite: the recipe produced {count} warning{} (a step failed on some file and was skipped there; \
                 `--backend embedded` names the step)",
                crate::model::plural(count)
            ));
        } else if let Some(message) = line.strip_prefix("Warning: ") {
            warnings.push(format!("OpenRewrite: {}", one_line(message)));
        }
    }
    warnings.truncate(20);
    warnings
}

/// `[ERROR] text` → `text`.
fn strip_log_prefix(line: &str) -> &str {
    for prefix in ["[ERROR] ", "[WARNING] ", "[WARN] ", "[INFO] ", "ERROR: ", "> "] {
        if let Some(rest) = line.strip_prefix(prefix) {
            return rest;
        }
    }
    line
}

fn one_line(line: &str) -> String {
    let text = line.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = text.trim_end_matches("-> [Help 1]").trim();
    if text.chars().count() > 300 {
        format!("{}…", text.chars().take(300).collect::<String>())
    } else {
        text.to_string()
    }
}

/// A few lines before the match and the ones after it.
fn excerpt(lines: &[&str], at: usize) -> String {
    let start = at.saturating_sub(3);
    let end = (at + EXCERPT_LINES - 3).min(lines.len());
    lines[start..end].join("\n")
}

/// The `[ERROR]` lines, or Gradle's `What went wrong` block, or the log's tail.
/// The first `[FATAL]` line, else the first non-empty `[ERROR]` line, without its prefixes.
fn first_reported_error(log: &str) -> Option<String> {
    let reported = |prefix: &str| {
        log.lines()
            .filter_map(|l| l.strip_prefix(prefix))
            .map(|rest| rest.trim_start_matches("[ERROR]").trim_start_matches("[FATAL]").trim())
            .find(|rest| !rest.is_empty())
            .map(one_line)
    };
    reported("[FATAL]").or_else(|| reported("[ERROR]"))
}

fn error_lines(log: &str) -> String {
    let errors: Vec<&str> = log.lines().filter(|l| l.starts_with("[ERROR]")).take(EXCERPT_LINES).collect();
    if !errors.is_empty() {
        return errors.join("\n");
    }
    let all: Vec<&str> = log.lines().collect();
    if let Some(at) = all.iter().position(|l| l.contains("What went wrong")) {
        return all[at..(at + EXCERPT_LINES).min(all.len())].join("\n");
    }
    all[all.len().saturating_sub(EXCERPT_LINES)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lines as rewrite-maven-plugin 6.46.1 and Maven 3.8 print them (recorded on our machines).
    const UNKNOWN: &str = "[INFO] Validating active recipes...\n[ERROR] Recipe validation error in com.example.R for property org.openrewrite.java.ChangePackageX: Recipe class org.openrewrite.java.ChangePackageX cannot be found\njava.lang.IllegalArgumentException: Could not resolve type id 'org.openrewrite.java.ChangePackageX' as a subtype of `org.openrewrite.Recipe`: no such class found\n[ERROR] Failed to execute goal org.openrewrite.maven:rewrite-maven-plugin:6.46.1:runNoFork (default-cli) on project shop: Recipe validation errors detected as part of one or more activeRecipe(s). Please check error logs. -> [Help 1]\n";
    const MISSING_OPTION: &str = "[ERROR] Recipe validation error in com.example.R for property newPackageName: is required\n[ERROR] Failed to execute goal org.openrewrite.maven:rewrite-maven-plugin:6.46.1:runNoFork (default-cli) on project shop: Recipe validation errors detected as part of one or more activeRecipe(s). Please check error logs. -> [Help 1]\n";
    const YAML: &str = "[ERROR] Failed to execute goal org.openrewrite.maven:rewrite-maven-plugin:6.46.1:runNoFork (default-cli) on project shop: Execution default-cli of goal org.openrewrite.maven:rewrite-maven-plugin:6.46.1:runNoFork failed: while parsing a block collection\n[ERROR]  in 'reader', line 5, column 3:\n[ERROR] expected <block end>, but found '<block mapping start>'\n";
    const DEPENDENCY: &str = "[WARNING] The POM for org.openrewrite.recipe:rewrite-nonexistent:jar:9.9.9 is missing, no dependency information available\n[ERROR] Failed to execute goal org.openrewrite.maven:rewrite-maven-plugin:6.46.1:runNoFork (default-cli) on project shop: Failed to resolve requested artifacts transitive dependencies. Could not find artifact org.openrewrite.recipe:rewrite-nonexistent:jar:9.9.9 in central (https://repo.maven.apache.org/maven2) -> [Help 1]\n";
    const NOT_FOUND: &str = "[ERROR] Failed to execute goal org.openrewrite.maven:rewrite-maven-plugin:6.46.1:runNoFork (default-cli) on project shop: Execution default-cli of goal org.openrewrite.maven:rewrite-maven-plugin:6.46.1:runNoFork failed: Recipe(s) not found: com.example.Nope\n[ERROR] Did you mean: com.example.Jakarta\n";
    const COLOURED: &str =
        "\x1b[1;31m[ERROR]\x1b[m Recipe validation error in com.example.R for property x: is required\n";
    const GRADLE: &str = "FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':rewriteRun'.\n> Something odd\n";

    #[test]
    fn unknown_recipe_names_the_recipe() {
        let e = classify(UNKNOWN);
        assert_eq!(e.kind, ErrorKind::UnknownRecipe);
        assert_eq!(e.recipe.as_deref(), Some("org.openrewrite.java.ChangePackageX"));
        assert!(e.excerpt.contains("cannot be found"));
        let e = classify(NOT_FOUND);
        assert_eq!(e.kind, ErrorKind::UnknownRecipe);
        assert_eq!(e.recipe.as_deref(), Some("com.example.Nope"));
    }

    #[test]
    fn invalid_option_names_the_property() {
        let e = classify(MISSING_OPTION);
        assert_eq!(e.kind, ErrorKind::InvalidOption);
        assert_eq!(e.property.as_deref(), Some("newPackageName"));
        assert_eq!(
            e.detail,
            "Recipe validation error in com.example.R for property newPackageName: is required"
        );
    }

    #[test]
    fn yaml_dependency_and_other_failures() {
        assert_eq!(classify(YAML).kind, ErrorKind::YamlError);
        let e = classify(DEPENDENCY);
        assert_eq!(e.kind, ErrorKind::DependencyResolution);
        assert!(!e.detail.ends_with("[Help 1]"));
        let e = classify(GRADLE);
        assert_eq!(e.kind, ErrorKind::BuildToolFailure);
        assert!(e.excerpt.contains("Execution failed for task ':rewriteRun'"));
        assert_eq!(classify("").kind, ErrorKind::BuildToolFailure);
        // A POM Maven cannot read fails before any goal: its own report is the detail.
        let e = classify(
            "[INFO] Scanning for projects...\n[ERROR] [ERROR] Some problems were encountered while processing the POMs:\n[FATAL] Non-readable POM /tmp/x/pom.xml: end tag name </broken> must match @1:2\n",
        );
        assert_eq!(e.kind, ErrorKind::BuildToolFailure);
        assert!(e.detail.starts_with("Non-readable POM /tmp/x/pom.xml"), "{}", e.detail);
        assert_eq!(classify(COLOURED).property.as_deref(), Some("x"));
    }

    #[test]
    fn recipe_warnings_from_either_plugin() {
        let maven = "[INFO] Running recipe(s)...\n[WARNING] The recipe produced 3 warning(s). Please report this to the recipe author.\n[WARNING] Changes have been made to pom.xml by:\n";
        let warnings = recipe_warnings(maven);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].starts_with("OpenRewrite: the recipe produced 3 warnings"), "{warnings:?}");
        let gradle = "The recipe produced 1 warning(s). Please report this to the recipe author.\nWarning: Recipe org.openrewrite.text.CreateTextFile generated a source file with an invalid path: ../x\n";
        let warnings = recipe_warnings(gradle);
        assert_eq!(
            warnings[1],
            "OpenRewrite: Recipe org.openrewrite.text.CreateTextFile generated a source file with an invalid path: ../x"
        );
        assert!(recipe_warnings("[INFO] BUILD SUCCESS\n").is_empty());
    }

    #[test]
    fn parse_problems_are_listed_per_file() {
        let log = "[WARNING] There were problems parsing some source files, run with --errors to see full stack traces\n[WARNING] There were problems parsing src/main/java/com/acme/Broken.java\n";
        assert_eq!(parse_problems(log), vec!["src/main/java/com/acme/Broken.java"]);
    }
}
