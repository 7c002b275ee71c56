//! What a recipe's false positives are, by class (layout, variant, completion, wrong): the data.
//! `metrics::classes` computes them; reports, decisions and evals read them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::ChangeLine;

/// A recipe's false positives by class: each line of layout, variant and completion with the
/// rule that classified it; wrong is what no rule took.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Classes {
    /// Lines laid out differently from the PR's: whitespace, wrapping, qualified names against imports.
    pub layout: Vec<Classified>,
    /// Lines the PR replaced too, written another way without keeping the old library.
    pub variant: Vec<Classified>,
    /// The PR's change made in more places than the author made it.
    pub completion: Vec<Classified>,
    /// False positives no rule classified: changes the migration does not call for.
    pub wrong: Vec<ChangeLine>,
}

/// A false positive a rule of `metrics::classes::rules` took out of the wrong ones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Classified {
    /// The false-positive line.
    #[serde(flatten)]
    pub line: ChangeLine,
    /// The name of the rule that classified it (`metrics::classes::rules::RULES`).
    #[serde(default)]
    pub rule: String,
}

impl Classes {
    /// TP / (TP + wrong): the share of what the recipe did that the migration calls for, layout,
    /// variants and completions not counting against it. 0 when it did nothing.
    pub(crate) fn migration_precision(&self, true_positives: usize) -> f64 {
        let whole = true_positives + self.wrong.len();
        if whole == 0 { 0.0 } else { (true_positives as f64 / whole as f64 * 10_000.0).round() / 10_000.0 }
    }

    /// How many lines each class has, for reports.
    pub(crate) fn counts(&self) -> ClassCounts {
        ClassCounts {
            layout: self.layout.len(),
            variant: self.variant.len(),
            completion: self.completion.len(),
            wrong: self.wrong.len(),
        }
    }
}

/// [`Classes`] as counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ClassCounts {
    /// Number of layout lines.
    pub layout: usize,
    /// Number of variant lines.
    pub variant: usize,
    /// Number of completion lines.
    pub completion: usize,
    /// Number of wrong lines: the ones that lower migration precision.
    pub wrong: usize,
}

/// The types each changed Java file of a recipe's result uses (from the embedded runner).
pub type ResultTypes = BTreeMap<String, Vec<String>>;
