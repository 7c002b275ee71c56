//! Plain serde data types shared by the phases: what one phase writes, the next one reads.

pub mod change;
pub mod eval;
pub mod groups;
pub mod intent;
pub mod java_level;
pub mod option;
pub mod recipe;
pub mod run;
pub mod stats;
pub mod validation;

pub use change::Change;
pub use eval::{
    CaseChange, CaseResult, CaseRow, CaseSource, CaseStatus, Commits, Comparison, OptionScore, Shard,
    ShardResults, SuiteResults, Totals,
};
pub use groups::{Strategic, Tactical};
pub use intent::{Intent, IntentTree, Level};
pub use option::{CandidateOption, PlannedStep, Strategy};
pub use recipe::{RecipeDescriptor, RecipeOption};
pub use run::{
    AuditEntry, Backend, Confidence, Confirmation, IntentSummary, OptionResult, Recommendation, RunStatus,
    RunSummary,
};
pub use stats::{ChangeLine, FileCounts, Metrics};
pub use validation::{Attribution, ErrorKind, LeftOut, RunError, TestCounts, Timings, ValidationStats};

/// The plural ending of a counted noun in reports: `""` for one, `"s"` otherwise.
pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
