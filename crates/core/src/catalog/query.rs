//! Query cleaning: phrasings often come from build logs and stack traces, whose noise (frames,
//! timestamps, log levels, URLs, hashes) would otherwise outweigh the words that matter. Versions are
//! kept: "Spring Boot 3.2" must keep its 3.2.

use std::sync::LazyLock;

use regex::Regex;

use super::tokenize;

/// `query` without stack-trace frames, log prefixes, timestamps, URLs and long hex ids, on one line.
pub fn clean(query: &str) -> String {
    static NOISE: LazyLock<Vec<Regex>> = LazyLock::new(|| {
        [
            // URLs and file URIs.
            r"(?i)\b(?:https?|file|ftp)://\S+",
            // ISO and log timestamps: 2024-01-31T10:11:12.123Z, 2024-01-31 10:11:12,123, 10:11:12.
            r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b",
            r"\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b",
            // Log levels, bracketed or at the start of a line, and bracketed thread names.
            r"(?i)\[(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|SEVERE|main)\]",
            // Bare levels only in capitals, as logs write them: "trace logging" is a query.
            r"(?m)^\s*(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|SEVERE)\b:?",
            // Exception chaining prefixes (the exception and its message stay).
            r"(?i)\bCaused by:",
            // Commit hashes, object ids.
            r"\b(?:0x)?[0-9a-fA-F]{12,}\b",
        ]
        .iter()
        .map(|re| Regex::new(re).expect("valid regex"))
        .collect()
    });

    let kept: Vec<&str> = query.lines().filter(|line| !is_trace_frame(line)).collect();
    let mut text = kept.join("\n");
    for re in NOISE.iter() {
        text = re.replace_all(&text, " ").into_owned();
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `at org.acme.Foo.bar(Foo.java:12)`, `... 42 more`, `at java.base/...`: no search value.
fn is_trace_frame(line: &str) -> bool {
    static FRAME: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\s*(?:at\s+\S+\(.*\)|\.\.\.\s*\d+\s+(?:more|common frames omitted))\s*$")
            .expect("valid regex")
    });
    FRAME.is_match(line)
}

/// The cache key of a cleaned query: its search terms (identifier-split words, lower-case, see
/// [`tokenize::terms`]), sorted and de-duplicated. Search ranks this key, not the raw text, so
/// "Spring Boot 3" and "boot spring 3" (the same bag of words to BM25) share one entry and one
/// ranking.
pub(crate) fn normalize(cleaned: &str) -> String {
    let mut terms = tokenize::terms(cleaned);
    terms.sort();
    terms.dedup();
    terms.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stack_traces_and_log_noise_are_removed_and_versions_kept() {
        let raw = "2024-03-01 10:11:12,345 [main] ERROR Caused by: java.lang.ClassNotFoundException: \
                   javax.persistence.Entity\n\tat org.acme.App.main(App.java:12)\n\t... 3 more\n\
                   see https://example.com/docs?x=1 for spring boot 3.2.1";
        assert_eq!(
            clean(raw),
            "java.lang.ClassNotFoundException: javax.persistence.Entity see for spring boot 3.2.1"
        );
    }

    #[test]
    fn maven_log_lines_lose_their_level() {
        assert_eq!(clean("[INFO] Upgrade to Java 17"), "Upgrade to Java 17");
        assert_eq!(clean("[WARNING] commit 0123456789abcdef0123 bumped junit"), "commit bumped junit");
        assert_eq!(clean("upgrade java 17"), "upgrade java 17");
        assert_eq!(clean("DEBUG: switch to slf4j"), "switch to slf4j");
        assert_eq!(clean("trace logging to slf4j"), "trace logging to slf4j");
    }

    #[test]
    fn normalized_keys_ignore_case_order_and_spacing() {
        assert_eq!(normalize("Spring  Boot 3"), "3 boot spring");
        assert_eq!(normalize("boot, spring 3 SPRING"), "3 boot spring");
        assert_ne!(normalize("spring boot 3"), normalize("spring boot 2"));
        assert_eq!(normalize("JavaxToJakarta"), "jakarta javax javaxtojakarta to");
        assert_eq!(normalize(""), "");
    }
}
