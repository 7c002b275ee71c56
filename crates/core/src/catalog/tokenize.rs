//! Identifier-aware tokenization, used for the index and for queries alike, so that
//! `JavaxMigrationToJakarta`, `org.openrewrite.java.migrate.jakarta` and "javax jakarta migration"
//! meet on the same terms.
//!
//! A word (a run of letters and digits) is split at camelCase humps and letter/digit boundaries;
//! dots, underscores and other punctuation separate words. Besides the parts, a compound word is
//! also kept whole, a one-letter prefix is joined to the part after it (`JUnit` gives `j`, `unit`
//! and `junit`, so a user typing "junit" finds it), and digit groups joined by `.` or `_` give a
//! version term (`UpgradeSpringBoot_3_0` gives `3`, `0` and `3.0`).

use std::sync::LazyLock;

use regex::Regex;
use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

/// Lower-case search terms of `text`, in order (a word's parts first, then its extra forms).
pub(crate) fn terms(text: &str) -> Vec<String> {
    static VERSION: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\d+(?:[._]\d+)+").expect("valid regex"));

    let mut out = Vec::new();
    let mut versions = VERSION.find_iter(text).peekable();
    for (start, word) in words(text) {
        // A version term goes before the first word it overlaps.
        while let Some(v) = versions.next_if(|v| v.start() <= start + word.len()) {
            out.push(v.as_str().replace('_', "."));
        }
        let parts = split_word(word);
        let whole = word.to_lowercase();
        let joined = joined_prefixes(&parts);
        let compound = parts.len() > 1;
        out.extend(parts.into_iter().map(|p| p.to_lowercase()));
        out.extend(joined);
        if compound {
            out.push(whole);
        }
    }
    out.extend(versions.map(|v| v.as_str().replace('_', ".")));
    out
}

/// Maximal runs of alphanumeric characters with their byte offsets.
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

/// `XMLParserV2` → `XML`, `Parser`, `V`, `2`; `UpgradeToJava17` → `Upgrade`, `To`, `Java`, `17`.
pub(crate) fn split_word(word: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut parts = Vec::new();
    let mut start = 0;
    for i in 1..chars.len() {
        let (at, c) = chars[i];
        let prev = chars[i - 1].1;
        let next = chars.get(i + 1).map(|&(_, n)| n);
        let boundary = (prev.is_lowercase() && c.is_uppercase())
            || (prev.is_alphabetic() && c.is_numeric())
            || (prev.is_numeric() && c.is_alphabetic())
            // The last capital of an acronym starts the next part: `XMLParser` → `XML`, `Parser`.
            || (prev.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase));
        if boundary {
            parts.push(&word[start..at]);
            start = at;
        }
    }
    parts.push(&word[start..]);
    parts
}

/// A single capital split off the front of a word joins the part after it: `J`+`Unit` → `junit`.
fn joined_prefixes(parts: &[&str]) -> Vec<String> {
    parts
        .windows(2)
        .filter(|pair| {
            let mut first = pair[0].chars();
            matches!((first.next(), first.next()), (Some(c), None) if c.is_uppercase())
                && pair[1].chars().next().is_some_and(char::is_alphabetic)
        })
        .map(|pair| format!("{}{}", pair[0], pair[1]).to_lowercase())
        .collect()
}

/// [`terms`] as a tantivy tokenizer (lower-casing included; stemming is a filter after it).
#[derive(Clone, Default)]
pub(crate) struct IdentifierTokenizer {
    token: Token,
}

pub(crate) struct IdentifierTokens<'a> {
    terms: std::vec::IntoIter<String>,
    token: &'a mut Token,
}

impl Tokenizer for IdentifierTokenizer {
    type TokenStream<'a> = IdentifierTokens<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> IdentifierTokens<'a> {
        self.token.reset();
        IdentifierTokens { terms: terms(text).into_iter(), token: &mut self.token }
    }
}

impl TokenStream for IdentifierTokens<'_> {
    fn advance(&mut self) -> bool {
        match self.terms.next() {
            Some(term) => {
                self.token.text = term;
                self.token.position = self.token.position.wrapping_add(1);
                true
            }
            None => false,
        }
    }

    fn token(&self) -> &Token {
        self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        self.token
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has_all(text: &str, expected: &[&str]) {
        let got = terms(text);
        for e in expected {
            assert!(got.iter().any(|t| t == e), "{text}: missing `{e}` in {got:?}");
        }
    }

    #[test]
    fn camel_case_and_packages_split_into_words() {
        assert_eq!(
            terms("JavaxMigrationToJakarta"),
            ["javax", "migration", "to", "jakarta", "javaxmigrationtojakarta"]
        );
        assert_eq!(
            terms("org.openrewrite.java.migrate.jakarta"),
            ["org", "openrewrite", "java", "migrate", "jakarta"]
        );
    }

    #[test]
    fn acronyms_digits_and_underscores() {
        assert_eq!(terms("XMLParser"), ["xml", "parser", "xmlparser"]);
        assert_eq!(terms("UpgradeToJava17"), ["upgrade", "to", "java", "17", "upgradetojava17"]);
        has_all("UpgradeSpringBoot_3_0", &["upgrade", "spring", "boot", "3", "0", "3.0"]);
        has_all("spring boot 3.0", &["spring", "boot", "3", "0", "3.0"]);
        has_all("snake_case_name", &["snake", "case", "name"]);
    }

    #[test]
    fn one_letter_prefixes_are_also_joined() {
        has_all("JUnit4to5Migration", &["j", "unit", "junit", "4", "to", "5", "migration"]);
        has_all("JUnit 5", &["junit", "5"]);
        assert_eq!(terms("junit"), ["junit"]);
    }

    #[test]
    fn versions_come_once_and_in_place() {
        assert_eq!(terms("boot 2.7 to 3.0.1"), ["boot", "2.7", "2", "7", "to", "3.0.1", "3", "0", "1"]);
        assert!(terms("").is_empty());
        assert!(terms(" .,;:-_ ").is_empty());
    }

    #[test]
    fn tantivy_stream_yields_the_terms() {
        let mut tokenizer = IdentifierTokenizer::default();
        let mut stream = tokenizer.token_stream("ChangePackage");
        let mut got = Vec::new();
        while stream.advance() {
            got.push((stream.token().text.clone(), stream.token().position));
        }
        assert_eq!(
            got,
            [("change".to_string(), 0), ("package".to_string(), 1), ("changepackage".to_string(), 2)]
        );
    }
}
