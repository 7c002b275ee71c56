//! Text normalizations the classes compare by: what layout may change and a migration may not.

/// `line` without the whitespace layout decides: runs of whitespace between two word characters
/// become one space, all other whitespace goes. `new Object() )` and `new Object())` compare equal,
/// `return x` and `returnx` do not.
pub(crate) fn collapse(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut pending_space = false;
    for c in line.chars() {
        if c.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
        }
        if pending_space && out.chars().last().is_some_and(is_word) && is_word(c) {
            out.push(' ');
        }
        pending_space = false;
        out.push(c);
    }
    out
}

/// `line` of a Groovy file (a `build.gradle`) with each double-quoted string that interpolates
/// nothing written in single quotes: in Groovy `"stage"` and `'stage'` are the same string (a
/// recipe's template writes the one, the author the other). A string with `$`, a backslash or a
/// quote inside stays as it is.
pub(crate) fn groovy_quotes(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find(['"', '\'']) {
        out.push_str(&rest[..open]);
        let quote = rest.as_bytes()[open] as char;
        let after = &rest[open + 1..];
        let Some(close) = after.find(quote) else {
            out.push_str(&rest[open..]);
            return out;
        };
        let literal = &after[..close];
        if quote == '"' && !literal.contains(['$', '\\', '\'']) {
            out.push('\'');
            out.push_str(literal);
            out.push('\'');
        } else {
            out.push_str(&rest[open..open + close + 2]);
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Whether `path` is a Groovy file, where [`groovy_quotes`] applies.
pub(crate) fn is_groovy(path: &str) -> bool {
    path.ends_with(".gradle") || path.ends_with(".groovy")
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// `line` with every qualified type name written by its simple name from its first capitalised
/// segment on (`java.util.List<String>` → `List<String>`, `org.junit.jupiter.api.Assertions.assertTrue`
/// → `Assertions.assertTrue`): a recipe that writes a fully qualified name where the author
/// imported the type (or the reverse) writes the same code.
pub(crate) fn simple_names(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(&shorten(word));
        word.clear();
    };
    for c in line.chars() {
        if is_word(c) || (c == '.' && !word.is_empty()) {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// A dotted word from its first capitalised segment on, when lower-case segments (a package) come
/// before it; otherwise as it is.
fn shorten(word: &str) -> String {
    let segments: Vec<&str> = word.split('.').collect();
    let first_type = segments.iter().position(|s| s.chars().next().is_some_and(char::is_uppercase));
    match first_type {
        Some(at)
            if at > 0 && segments[..at].iter().all(|s| s.chars().next().is_some_and(char::is_lowercase)) =>
        {
            segments[at..].join(".")
        }
        _ => word.to_string(),
    }
}

/// The package of a fully qualified type name (the segments before the first capitalised one),
/// or of a wildcard import (`org.foo.*`); None when there is none.
pub(crate) fn package_of(name: &str) -> Option<String> {
    let name = name.trim_end_matches(".*");
    let segments: Vec<&str> = name.split('.').collect();
    let at = segments.iter().position(|s| s.chars().next().is_some_and(char::is_uppercase));
    let package = match at {
        Some(0) => return None,
        Some(at) => &segments[..at],
        None if name.ends_with('*') || segments.len() > 1 => &segments[..],
        None => return None,
    };
    Some(package.join(".")).filter(|p| !p.is_empty())
}

/// The name an import line imports (`import static a.b.C.m;` → `a.b.C.m`, `import a.b.*;` → `a.b.*`).
pub fn imported(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("import ")?;
    let rest = rest.trim_start().strip_prefix("static ").unwrap_or(rest).trim();
    let name = rest.trim_end_matches(';').trim();
    (!name.is_empty() && !name.contains(' ')).then(|| name.to_string())
}

/// A version as it is written in a build file: digits and dots, with an optional qualifier.
pub(crate) fn versions(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts =
            bytes[i].is_ascii_digit() && (i == 0 || !is_word(bytes[i - 1] as char) || bytes[i - 1] == b'v');
        if !starts {
            i += 1;
            continue;
        }
        let start = i;
        let mut dots = 0;
        while i < bytes.len()
            && (bytes[i].is_ascii_digit()
                || (bytes[i] == b'.' && i + 1 < bytes.len() && bytes[i + 1].is_ascii_digit()))
        {
            dots += usize::from(bytes[i] == b'.');
            i += 1;
        }
        // A qualifier: -SNAPSHOT, .RELEASE, -M1, -jre …
        while i < bytes.len()
            && (bytes[i] == b'-' || bytes[i] == b'.')
            && i + 1 < bytes.len()
            && bytes[i + 1].is_ascii_alphanumeric()
        {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                i += 1;
            }
        }
        if dots >= 1 {
            out.push((start, i));
        }
    }
    out
}

/// `line` with each version replaced by `<v>`, and the versions in order.
pub(crate) fn masked_versions(line: &str) -> (String, Vec<String>) {
    let spans = versions(line);
    let mut masked = String::new();
    let mut found = Vec::new();
    let mut at = 0;
    for (start, end) in spans {
        masked.push_str(&line[at..start]);
        masked.push_str("<v>");
        found.push(line[start..end].to_string());
        at = end;
    }
    masked.push_str(&line[at..]);
    (masked, found)
}

/// Whether version `a` is newer than `b`: numeric segments compared as numbers, a qualified version
/// (`-SNAPSHOT`, `-RC1`) older than the same release.
pub(crate) fn newer(a: &str, b: &str) -> bool {
    let parts = |v: &str| -> (Vec<u64>, bool) {
        let numeric: String = v.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
        let numbers = numeric.split('.').filter(|s| !s.is_empty()).map(|s| s.parse().unwrap_or(0)).collect();
        (numbers, numeric.len() < v.len())
    };
    let (na, qa) = parts(a);
    let (nb, qb) = parts(b);
    let width = na.len().max(nb.len());
    for i in 0..width {
        let (x, y) = (na.get(i).copied().unwrap_or(0), nb.get(i).copied().unwrap_or(0));
        if x != y {
            return x > y;
        }
    }
    !qa && qb
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_whitespace_goes_words_stay_apart() {
        assert_eq!(collapse("  assertThat(x,   new Object() )  ;"), "assertThat(x,new Object());");
        assert_eq!(collapse("return x;"), "return x;");
        assert_ne!(collapse("return x;"), collapse("returnx;"));
    }

    #[test]
    fn groovy_strings_that_interpolate_nothing_read_the_same_in_either_quote() {
        assert_eq!(groovy_quotes(r#"tasks.register("stage") {"#), "tasks.register('stage') {");
        assert_eq!(groovy_quotes("tasks.register('stage') {"), "tasks.register('stage') {");
        assert_eq!(
            groovy_quotes(r#"implementation "org.a:b:1.0", 'x', "y""#),
            "implementation 'org.a:b:1.0', 'x', 'y'"
        );
        // Interpolation, escapes and quotes inside make another string, or another literal.
        assert_eq!(groovy_quotes(r#"version = "${v}""#), r#"version = "${v}""#);
        assert_eq!(groovy_quotes(r#"a = "it's""#), r#"a = "it's""#);
        assert_eq!(groovy_quotes(r#"a = "x\ty""#), r#"a = "x\ty""#);
        assert_eq!(groovy_quotes(r#"a = "open"#), r#"a = "open"#);
        assert!(is_groovy("build.gradle") && is_groovy("buildSrc/src/main/groovy/A.groovy"));
        assert!(!is_groovy("build.gradle.kts") && !is_groovy("src/A.java"));
    }

    #[test]
    fn qualified_names_are_written_simply() {
        assert_eq!(
            simple_names("java.util.List<String> xs = new java.util.ArrayList<>();"),
            "List<String> xs = new ArrayList<>();"
        );
        assert_eq!(
            simple_names("org.junit.jupiter.api.Assertions.assertTrue(ok);"),
            "Assertions.assertTrue(ok);"
        );
        assert_eq!(simple_names("this.value = other.value;"), "this.value = other.value;");
        assert_eq!(simple_names("Map.Entry<K, V> e"), "Map.Entry<K, V> e");
    }

    #[test]
    fn packages_and_imports() {
        assert_eq!(package_of("org.hamcrest.Matchers").as_deref(), Some("org.hamcrest"));
        assert_eq!(package_of("org.junit.jupiter.api.Assertions").as_deref(), Some("org.junit.jupiter.api"));
        assert_eq!(package_of("org.foo.*").as_deref(), Some("org.foo"));
        assert_eq!(package_of("a.b.Outer.Inner").as_deref(), Some("a.b"));
        assert_eq!(package_of("String"), None);
        assert_eq!(
            imported("import static org.hamcrest.Matchers.equalTo;").as_deref(),
            Some("org.hamcrest.Matchers.equalTo")
        );
        assert_eq!(imported("import java.util.*;").as_deref(), Some("java.util.*"));
        assert_eq!(imported("int x = 1;"), None);
    }

    #[test]
    fn versions_are_found_masked_and_compared() {
        let (masked, found) = masked_versions("      <version>3.27.3</version>");
        assert_eq!(masked, "      <version><v></version>");
        assert_eq!(found, vec!["3.27.3"]);
        let (masked, found) = masked_versions("    testImplementation 'org.assertj:assertj-core:3.24.2'");
        assert_eq!(masked, "    testImplementation 'org.assertj:assertj-core:<v>'");
        assert_eq!(found, vec!["3.24.2"]);
        assert_eq!(masked_versions("<version>2.0.0-SNAPSHOT</version>").1, vec!["2.0.0-SNAPSHOT"]);
        assert!(masked_versions("int x = 3;").1.is_empty());
        assert!(newer("3.27.3", "3.24.2") && !newer("3.24.2", "3.27.3"));
        assert!(newer("2.0.0", "2.0.0-RC1") && !newer("2.0.0-RC1", "2.0.0"));
        assert!(newer("1.10", "1.9") && !newer("1.0", "1.0"));
    }
}
