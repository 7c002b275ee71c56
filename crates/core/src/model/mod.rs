//! Plain serde data types shared by the phases: what one phase writes, the next one reads.

pub mod change;
pub mod classes;
pub mod eval;
pub mod groups;
pub mod intent;
pub mod java_level;
pub(crate) mod option;
pub(crate) mod option_id;
pub(crate) mod recipe;
pub mod residual;
pub(crate) mod run;
pub(crate) mod stats;
pub mod validation;
pub(crate) mod verdict;

pub use change::Change;
pub use eval::{
    CaseChange, CaseResult, CaseRow, CaseSource, CaseStatus, Commits, Comparison, OptionScore, Shard,
    ShardResults, SuiteResults, Totals, TransferComparison, TransferResult, TransferStatus, TransferTotals,
};
pub use groups::{Strategic, Tactical};
pub use intent::{Intent, IntentTree};
pub use option::{CandidateOption, PlannedStep, Strategy};
pub use option_id::OptionId;
pub use recipe::{RecipeDescriptor, RecipeOption};
pub use run::{
    AuditEntry, AuthorsWay, Backend, Confidence, Confirmation, IntentSummary, OptionResult, Recommendation,
    ReusableRecipe, RunStatus, RunSummary,
};
pub use stats::{ChangeLine, FileCounts, Metrics, UnreproducibleLine};
pub use validation::{
    Attribution, ErrorKind, LeftOut, RunError, StepLines, TestCounts, Timings, ValidationStats,
};
pub use verdict::{PrKind, Verdict};

/// The plural ending of a counted noun in reports: `""` for one, `"s"` otherwise.
pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
