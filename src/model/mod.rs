//! Plain serde data types shared by the phases: what one phase writes, the next one reads.

pub(crate) mod change;
pub(crate) mod classes;
pub(crate) mod eval;
pub(crate) mod groups;
pub(crate) mod intent;
pub(crate) mod java_level;
pub(crate) mod option;
pub(crate) mod option_id;
pub(crate) mod recipe;
pub(crate) mod residual;
pub(crate) mod run;
pub(crate) mod stats;
pub(crate) mod validation;
pub(crate) mod verdict;

pub(crate) use change::Change;
pub(crate) use eval::{
    CaseChange, CaseResult, CaseRow, CaseSource, CaseStatus, Commits, Comparison, OptionScore, Shard,
    ShardResults, SuiteResults, Totals, TransferComparison, TransferResult, TransferStatus, TransferTotals,
};
pub(crate) use groups::{Strategic, Tactical};
pub(crate) use intent::{Intent, IntentTree};
pub(crate) use option::{CandidateOption, PlannedStep, Strategy};
pub use option_id::OptionId;
pub use recipe::{RecipeDescriptor, RecipeOption};
pub use run::{
    AuditEntry, AuthorsWay, Backend, Confidence, Confirmation, IntentSummary, OptionResult, Recommendation,
    ReusableRecipe, RunStatus, RunSummary,
};
pub(crate) use stats::{ChangeLine, FileCounts, Metrics, UnreproducibleLine};
pub(crate) use validation::{
    Attribution, ErrorKind, LeftOut, RunError, StepLines, TestCounts, Timings, ValidationStats,
};
pub use verdict::{PrKind, Verdict};

/// The plural ending of a counted noun in reports: `""` for one, `"s"` otherwise.
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
