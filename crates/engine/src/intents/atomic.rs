//! The analyzers' output before the tree is built: one concrete edit, typed, with its file and
//! evidence.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::model::{Change, ChangeLine};

/// An atomic intent as an analyzer reports it; `tree` gives it an id and a place in the tree.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Atomic {
    pub change: Change,
    pub title: String,
    /// The file it applies to (the new path, or the old one for a deletion); the first of `files`
    /// when it spans several.
    pub file: String,
    /// Every file, for intents that span files (Java intents, and edits merged across files).
    pub files: Option<Vec<String>>,
    pub labels: Vec<String>,
    pub evidence: Vec<ChangeLine>,
}

impl Atomic {
    /// A new intent about `file`.
    pub(crate) fn new(change: Change, file: &str, title: impl Into<String>) -> Atomic {
        Atomic {
            change,
            title: title.into(),
            file: file.to_string(),
            files: None,
            labels: Vec::new(),
            evidence: Vec::new(),
        }
    }

    /// The kind, e.g. `maven.dependency_version`.
    pub(crate) fn kind(&self) -> &'static str {
        self.change.kind()
    }

    /// Sets the `files` list (cross-file intents); `file` becomes the first of them.
    pub(crate) fn set_files(&mut self, files: Vec<String>) {
        if let Some(first) = files.first() {
            self.file = first.clone();
        }
        self.files = Some(files);
    }

    pub(crate) fn label(mut self, label: &str) -> Atomic {
        self.labels.push(label.to_string());
        self
    }

    pub(crate) fn evidence(mut self, lines: impl IntoIterator<Item = ChangeLine>) -> Atomic {
        self.evidence.extend(lines);
        self
    }

    /// The node's `params`: the change's, `file`, and `files` when set.
    pub(crate) fn params(&self) -> BTreeMap<String, Value> {
        self.change.params_about(&self.file, self.files.as_deref())
    }
}
