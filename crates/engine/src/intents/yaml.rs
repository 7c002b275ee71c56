//! YAML configuration (Spring `application.yml`, ...), read with a real YAML parser: every scalar
//! becomes an entry keyed by its dotted path (`spring.sql.init.mode`, `list[0]`), then compared
//! like `.properties`. A file that does not parse falls back to text intents.

use crate::openrewrite::yaml::events::{Event, Parser, ScalarStyle};

use super::atomic::Atomic;
use super::change::FileChange;
use super::entries::{self, Entry, Format};

pub(crate) fn analyze(file: &FileChange<'_>) -> Option<Vec<Atomic>> {
    let old = flatten(file.old_text.as_deref()?)?;
    let new = flatten(file.new_text.as_deref()?)?;
    Some(entries::intents(file, &old, &new, Format::Yaml))
}

/// A container being read: a mapping (waiting for a key or its value) or a sequence.
struct Frame {
    path: String,
    /// `(path, key line)` of this container and its parents.
    parents: Vec<(String, usize)>,
    kind: FrameKind,
}

enum FrameKind {
    Mapping { key: Option<(String, usize)> },
    Sequence { index: usize },
}

/// Every scalar of every document as an entry, or `None` when the text is not valid YAML.
pub(crate) fn flatten(text: &str) -> Option<Vec<Entry>> {
    let mut out = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut document = 0usize;
    let mut documents_seen = 0usize;
    for event in Parser::new_from_str(text) {
        let (event, span) = event.ok()?;
        let start_line = span.start.line();
        // A block scalar's span ends at the start of the next line.
        let end_line = if span.end.col() == 0 && span.end.line() > start_line {
            span.end.line() - 1
        } else {
            span.end.line()
        };
        match event {
            Event::DocumentStart(..) => {
                document = documents_seen;
                documents_seen += 1;
                stack.clear();
            }
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                let mapping = matches!(event, Event::MappingStart(..));
                let (path, key_line, mut parents) = match stack.last_mut() {
                    Some(parent) => {
                        let parents = parent.parents.clone();
                        let (path, line) = child_path(parent, start_line);
                        (path, line, parents)
                    }
                    None => (String::new(), start_line, Vec::new()),
                };
                if !path.is_empty() {
                    parents.push((path.clone(), key_line));
                }
                let kind =
                    if mapping { FrameKind::Mapping { key: None } } else { FrameKind::Sequence { index: 0 } };
                stack.push(Frame { path, parents, kind });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                stack.pop();
                if let Some(parent) = stack.last_mut() {
                    advance(parent);
                }
            }
            Event::Scalar(value, style, ..) => {
                let quoted = matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted);
                leaf(&mut stack, &mut out, document, value.into_owned(), quoted, start_line, end_line);
            }
            Event::Alias(_) => {
                leaf(&mut stack, &mut out, document, "*".to_string(), false, start_line, end_line);
            }
            _ => {}
        }
    }
    Some(out)
}

fn leaf(
    stack: &mut [Frame],
    out: &mut Vec<Entry>,
    scope: usize,
    value: String,
    quoted: bool,
    start_line: usize,
    end_line: usize,
) {
    let Some(frame) = stack.last_mut() else {
        // A document that is a single scalar.
        out.push(Entry {
            scope,
            key: String::new(),
            value,
            quoted,
            span: (start_line, end_line),
            parents: vec![],
        });
        return;
    };
    if let FrameKind::Mapping { key: key @ None } = &mut frame.kind {
        *key = Some((value, start_line));
        return;
    }
    let parents = frame.parents.clone();
    let (key, key_line) = child_path(frame, start_line);
    out.push(Entry { scope, key, value, quoted, span: (key_line.min(start_line), end_line), parents });
    advance(frame);
}

/// The path of the value about to be read in `frame`, and the line of its key.
fn child_path(frame: &Frame, value_line: usize) -> (String, usize) {
    match &frame.kind {
        FrameKind::Mapping { key: Some((key, line)) } => (join(&frame.path, key), *line),
        FrameKind::Mapping { key: None } => (join(&frame.path, "?"), value_line),
        FrameKind::Sequence { index } => (format!("{}[{index}]", frame.path), value_line),
    }
}

/// A value was read: a mapping waits for its next key, a sequence moves to its next item.
fn advance(frame: &mut Frame) {
    match &mut frame.kind {
        FrameKind::Mapping { key } => *key = None,
        FrameKind::Sequence { index } => *index += 1,
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_string() } else { format!("{path}.{key}") }
}

#[cfg(test)]
mod tests {
    use super::flatten;

    #[test]
    fn dotted_paths_lines_and_quotes() {
        let text = "spring:\n  datasource:\n    url: 'jdbc:h2:mem'\n  sql:\n    init:\n      mode: always\nlist:\n  - a\n  - b: 1\n";
        let entries = flatten(text).unwrap();
        let got: Vec<(&str, &str, bool, (usize, usize))> =
            entries.iter().map(|e| (e.key.as_str(), e.value.as_str(), e.quoted, e.span)).collect();
        assert_eq!(
            got,
            vec![
                ("spring.datasource.url", "jdbc:h2:mem", true, (3, 3)),
                ("spring.sql.init.mode", "always", false, (6, 6)),
                ("list[0]", "a", false, (8, 8)),
                ("list[1].b", "1", false, (9, 9)),
            ]
        );
        assert_eq!(
            entries[1].parents,
            vec![("spring".into(), 1), ("spring.sql".into(), 4), ("spring.sql.init".into(), 5)]
        );
    }

    #[test]
    fn documents_are_scoped_and_bad_yaml_is_none() {
        let entries = flatten("a: 1\n---\na: 2\n").unwrap();
        assert_eq!(entries.iter().map(|e| e.scope).collect::<Vec<_>>(), vec![0, 1]);
        assert!(flatten("a: [1, 2\nb: : :\n").is_none());
    }
}
