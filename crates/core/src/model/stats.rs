//! The metric's result: counts, ratios, and the lines behind them. Written by `metrics`, embedded
//! in validation stats (`option-N-stats.json`) and in eval case results.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::diff::ChangeKind;

/// A recipe's diff scored against the PR's, line by line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, schemars::JsonSchema)]
pub struct Metrics {
    /// Changed lines in both diffs (matched as multisets of path, kind and content).
    pub true_positives: usize,
    /// Changed lines in the recipe's diff only.
    pub false_positives: usize,
    /// Changed lines in the PR's diff only.
    pub false_negatives: usize,
    /// Changed lines of the expected (PR) diff: TP + FN.
    pub total_expected_changes: usize,
    /// Changed lines of the actual (recipe) diff: TP + FP.
    pub total_resulting_changes: usize,
    /// TP / (TP + FP), 0.0–1.0 (0 when the recipe changed nothing), rounded to 4 places.
    pub precision: f64,
    /// TP / (TP + FN), 0.0–1.0 (0 when the PR changed nothing), rounded to 4 places.
    pub recall: f64,
    /// Harmonic mean of precision and recall, 0.0–1.0, rounded to 4 places.
    pub f1: f64,
    /// No false positives and no false negatives.
    pub perfect_match: bool,
    /// Per path (removals counted under the old path, additions under the new one).
    pub files: BTreeMap<String, FileCounts>,
    /// Lines the recipe changed that the PR did not, in the recipe diff's order.
    pub false_positive_lines: Vec<ChangeLine>,
    /// Lines the PR changed that the recipe did not, in the PR diff's order.
    pub false_negative_lines: Vec<ChangeLine>,
    /// Lines both changed (as the recipe diff has them). Kept in memory for attribution and the
    /// semantic share; not serialized, as it would repeat most of the PR.
    #[serde(skip)]
    pub true_positive_lines: Vec<ChangeLine>,
    /// Lines of the PR no recipe can make (a symbolic link, a submodule, a Git LFS pointer, bytes
    /// that are not UTF-8), with why: outside every count above. The recipe's own lines of these
    /// kinds are left out too (their bytes cannot be told apart).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreproducible_lines: Vec<UnreproducibleLine>,
    /// Files of the PR left out whole (too large to analyze, [`crate::diff::bound`]), with how
    /// many changed lines each has: outside every count above, and the recipe's lines in them too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreproducible_files: Vec<crate::model::intent::UnreproducibleFile>,
}

/// A changed line of the PR that no recipe can make, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct UnreproducibleLine {
    /// The changed line.
    #[serde(flatten)]
    pub line: ChangeLine,
    /// Why no recipe can make it.
    pub reason: crate::diff::Unreproducible,
}

/// One file's share of the counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema)]
pub struct FileCounts {
    /// True positives in the file.
    pub tp: usize,
    /// False positives in the file.
    pub fp: usize,
    /// False negatives in the file (`fn` in the JSON).
    #[serde(rename = "fn")]
    pub fn_: usize,
}

/// One changed line, as reported in FP/FN lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ChangeLine {
    /// Path of the file (the old path for a removed line, the new one for an added line).
    pub path: String,
    /// Whether the line was added or removed.
    pub kind: ChangeKind,
    /// Line number in the diff it came from (old file for removals, new file for additions).
    pub line: u32,
    /// The line's text, without the diff's `+`/`-` and line ending.
    pub content: String,
}

impl ChangeLine {
    /// `path:line -content` / `path:line +content`, for reports.
    pub fn display(&self) -> String {
        format!("{}:{} {}{}", self.path, self.line, self.kind.sign(), self.content)
    }
}
