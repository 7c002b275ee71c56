//! The real paths of the runner's diffs. OpenRewrite writes a diff's paths with every `\` turned
//! into `/` (`InMemoryDiffEntry`, made for Windows), so on Linux and macOS a file named `x\y.txt`
//! came back as `x/y.txt` and matched nothing of the PR. The runner's file list keeps the real
//! paths, one per diff section and in the same order: the sections' headers get them back, quoted
//! as git quotes such a path.

/// `diff` with the header paths of each section whose real path (`files`, in section order) holds
/// a `\` put back.
pub(crate) fn restore_backslashes(diff: &str, files: &[String]) -> String {
    if !files.iter().any(|f| f.contains('\\')) {
        return diff.to_string();
    }
    let mut out = String::with_capacity(diff.len() + 64);
    let mut section: Option<usize> = None;
    let mut in_header = false;
    for line in diff.split_inclusive('\n') {
        if line.starts_with("diff --git ") {
            section = Some(section.map_or(0, |n| n + 1));
            in_header = true;
        } else if line.starts_with("@@") {
            in_header = false;
        }
        let real = section.and_then(|n| files.get(n)).filter(|f| f.contains('\\'));
        match real {
            Some(real) if in_header => out.push_str(&header_line(line, real)),
            _ => out.push_str(line),
        }
    }
    out
}

/// One header line with `real`'s slashed form replaced by `real`, git-quoted; other lines (the
/// index line, a rename's other side) as they are.
fn header_line(line: &str, real: &str) -> String {
    let slashed = real.replace('\\', "/");
    let (body, end) = match line.strip_suffix('\n') {
        Some(body) => (body, "\n"),
        None => (line, ""),
    };
    let rewritten = if body == format!("diff --git a/{slashed} b/{slashed}") {
        format!("diff --git {} {}", quote(&format!("a/{real}")), quote(&format!("b/{real}")))
    } else if body == format!("--- a/{slashed}") {
        format!("--- {}", quote(&format!("a/{real}")))
    } else if body == format!("+++ b/{slashed}") {
        format!("+++ {}", quote(&format!("b/{real}")))
    } else if body == format!("rename to {slashed}") {
        format!("rename to {}", quote(real))
    } else {
        return line.to_string();
    };
    rewritten + end
}

/// A path as git quotes one that needs it: in double quotes, with `\`, `"` and control
/// characters escaped (other characters as they are; the diff parser reads both forms).
fn quote(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 4);
    out.push('"');
    for c in path.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_ascii_control() => out.push_str(&format!("\\{:03o}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backslashes_come_back_in_the_headers_of_their_own_sections_only() {
        let diff = "diff --git a/x/y.txt b/x/y.txt\nindex 1..2 100644\n--- a/x/y.txt\n+++ b/x/y.txt\n@@ -1 +1 @@\n-a/x/y.txt\n+b\n\
diff --git a/pom.xml b/pom.xml\n--- a/pom.xml\n+++ b/pom.xml\n@@ -1 +1 @@\n-1\n+2\n";
        let files = vec!["x\\y.txt".to_string(), "pom.xml".to_string()];
        let restored = restore_backslashes(diff, &files);
        assert_eq!(
            restored,
            "diff --git \"a/x\\\\y.txt\" \"b/x\\\\y.txt\"\nindex 1..2 100644\n--- \"a/x\\\\y.txt\"\n+++ \"b/x\\\\y.txt\"\n@@ -1 +1 @@\n-a/x/y.txt\n+b\n\
diff --git a/pom.xml b/pom.xml\n--- a/pom.xml\n+++ b/pom.xml\n@@ -1 +1 @@\n-1\n+2\n"
        );
        // The diff parser reads the real path back.
        let parsed = crate::diff::parse(&restored).unwrap();
        assert_eq!(parsed.files[0].path(), "x\\y.txt");
        assert_eq!(parsed.files[1].path(), "pom.xml");
        // Nothing to do without a backslash.
        assert_eq!(restore_backslashes(diff, &["x/y.txt".into(), "pom.xml".into()]), diff);
    }

    #[test]
    fn quoting_is_the_one_the_diff_parser_undoes() {
        assert_eq!(quote("a/x\\\"y\tz"), "\"a/x\\\\\\\"y\\tz\"");
        let path = "dir\\na\u{1}me.txt";
        let diff =
            format!("diff --git a/x b/x\n--- {}\n+++ {}\n@@ -1 +1 @@\n-a\n+b\n", quote(path), quote(path));
        assert_eq!(crate::diff::parse(&diff).unwrap().files[0].path(), path);
    }
}
