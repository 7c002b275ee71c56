//! The analyzers' output before the tree is built: one concrete edit with its params and evidence.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::model::ChangeLine;

/// An atomic intent as an analyzer reports it; `tree` gives it an id and a place in the tree.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Atomic {
    pub kind: &'static str,
    pub title: String,
    pub params: BTreeMap<String, Value>,
    pub labels: Vec<String>,
    pub evidence: Vec<ChangeLine>,
}

impl Atomic {
    /// A new intent about `file` (stored as the `file` param).
    pub fn new(kind: &'static str, file: &str, title: impl Into<String>) -> Atomic {
        let mut params = BTreeMap::new();
        params.insert("file".to_string(), Value::String(file.to_string()));
        Atomic { kind, title: title.into(), params, labels: Vec::new(), evidence: Vec::new() }
    }

    /// Sets a string param.
    pub fn param(mut self, key: &str, value: impl Into<String>) -> Atomic {
        self.params.insert(key.to_string(), Value::String(value.into()));
        self
    }

    /// Sets the `files` list (cross-file intents); `file` becomes the first of them.
    pub fn set_files(&mut self, files: Vec<String>) {
        if let Some(first) = files.first() {
            self.params.insert("file".to_string(), Value::String(first.clone()));
        }
        self.params.insert("files".to_string(), Value::Array(files.into_iter().map(Value::String).collect()));
    }

    pub fn label(mut self, label: &str) -> Atomic {
        self.labels.push(label.to_string());
        self
    }

    pub fn evidence(mut self, lines: impl IntoIterator<Item = ChangeLine>) -> Atomic {
        self.evidence.extend(lines);
        self
    }

    /// A string param, or "".
    pub fn get(&self, key: &str) -> &str {
        self.params.get(key).and_then(Value::as_str).unwrap_or("")
    }
}
