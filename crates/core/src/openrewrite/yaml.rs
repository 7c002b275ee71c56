//! YAML as OpenRewrite reads it. Recipe files are read by SnakeYAML, a YAML 1.1 parser: `yes`/`on`
//! are booleans and `0777` is octal there, so we read them the same way to know what a recipe will
//! do. Writing goes the other way: every string a 1.1 reader could take for something else is
//! quoted. One library (serde-saphyr) does both, and its parser gives `intents::yaml` its spans.

use serde_json::Value;

/// YAML events with their spans, from the parser serde-saphyr reads with (for `intents`).
pub use serde_saphyr::granit_parser as events;

fn options() -> serde_saphyr::Options {
    // The parser's own budget (250,000 nodes, 1,024 documents by default) would refuse a file our
    // limits accept and say less: `yaml_limits` bounds the size and the depth before parsing and
    // counts the steps after it ("250000 recipe steps; recipe files are limited to 10000"). Every
    // node and event takes at least a byte of the text, so the byte limit bounds them too.
    let budget = serde_saphyr::budget! {
        max_nodes: super::yaml_limits::MAX_BYTES,
        max_events: 2 * super::yaml_limits::MAX_BYTES,
        max_documents: super::yaml_limits::MAX_BYTES,
    };
    serde_saphyr::options! { legacy_octal_numbers: true, budget: budget }
}

/// Every document of `text` (empty documents left out), or the error in one line.
pub fn documents(text: &str) -> Result<Vec<Value>, String> {
    serde_saphyr::from_str_multiple_with_options(text, options()).map_err(|e| one_line(&e, text))
}

/// `text` read as one typed document (an eval suite), or the error in one line.
pub fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_saphyr::from_str_with_options(text, options()).map_err(|e| one_line(&e, text))
}

/// `value` as a YAML document, quoted so that a YAML 1.1 reader reads back the same values.
pub fn to_string(value: &Value) -> Option<String> {
    serde_saphyr::to_string(value).ok()
}

/// The error's first line (`line 2 column 8: expected sequence start`) and the line of `text` it
/// points at, instead of the snippet it draws under it over several lines.
fn one_line(error: &serde_saphyr::Error, text: &str) -> String {
    let message = error.to_string();
    let first = message.lines().next().unwrap_or_default().trim().trim_start_matches("error: ");
    let line =
        error.location().and_then(|l| text.lines().nth(usize::try_from(l.line()).ok()?.checked_sub(1)?));
    match line.map(str::trim).filter(|l| !l.is_empty()) {
        Some(source) => format!("{first} (in `{source}`)"),
        None => first.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_like_yaml_1_1_and_writes_what_1_1_reads_back() {
        let read = documents("a: yes\nb: 0777\nc: on\nd: \"yes\"\n---\n---\ne: [1, 2]\n").unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!(read[0]["a"], Value::Bool(true));
        assert_eq!(read[0]["b"], serde_json::json!(511));
        assert_eq!(read[0]["d"], Value::String("yes".into()));
        let strings = serde_json::json!({"a": "yes", "b": "on", "c": "0777", "d": "2001-12-14", "e": "~"});
        let written = to_string(&strings).unwrap();
        assert_eq!(documents(&written).unwrap(), vec![strings], "{written}");
    }

    #[test]
    fn the_byte_limit_not_the_parsers_budget_bounds_a_recipe_file() {
        let steps = "- a.B\n".repeat(300_000);
        assert_eq!(documents(&steps).unwrap()[0].as_array().map(Vec::len), Some(300_000));
    }

    #[test]
    fn errors_are_one_line() {
        let error = documents("a: [unclosed").unwrap_err();
        assert!(!error.contains('\n') && error.contains("line 1"), "{error}");
        let error = from_str::<Vec<String>>("a: 1\nb: 2\n").unwrap_err();
        assert!(!error.contains('\n') && error.contains("(in `a: 1`)"), "{error}");
    }
}
