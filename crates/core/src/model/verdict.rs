//! What a run concludes about a pull request: whether it is a migration at all ([`PrKind`]), and
//! what its recipe is good for ([`Verdict`]). Both are in `analyze --json` (`pr_kind`,
//! `pr_kind_reason`, `verdict`) and the action's outputs of the same names.

use serde::{Deserialize, Serialize};

/// Whether a pull request makes a migration worth a recipe, or is ordinary work (a bug fix, a
/// feature, a refactoring of the repository's own code, a configuration tweak).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PrKind {
    /// The PR makes a migration worth a recipe.
    Migration,
    /// Also what a run that stopped before the intent tree says: nothing showed a migration.
    #[default]
    Ordinary,
}

impl PrKind {
    /// The JSON and output value.
    pub fn as_str(self) -> &'static str {
        match self {
            PrKind::Migration => "migration",
            PrKind::Ordinary => "ordinary",
        }
    }
}

/// What the run's recipes are good for, from the recommended recipe's line F1, semantic share and
/// the reusable recipe's own run on the PR together (`decision::verdict`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// A migration with a semantic reusable recipe, validated on this PR: roll it out.
    ReadyToRollOut,
    /// A recipe reproduces this PR, but mostly as text, or its reusable form is missing or does
    /// not hold up: useful here, not for other repositories.
    ReproducesThisPrOnly,
    /// Nothing reproduces the PR well enough (or nothing could run).
    #[default]
    NoReliableRecipe,
}

impl Verdict {
    /// The JSON and output value.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::ReadyToRollOut => "ready_to_roll_out",
            Verdict::ReproducesThisPrOnly => "reproduces_this_pr_only",
            Verdict::NoReliableRecipe => "no_reliable_recipe",
        }
    }

    /// How reports name it.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::ReadyToRollOut => "ready to roll out",
            Verdict::ReproducesThisPrOnly => "reproduces this PR only",
            Verdict::NoReliableRecipe => "no reliable recipe",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_names_are_the_documented_values() {
        for kind in [PrKind::Migration, PrKind::Ordinary] {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
        }
        for verdict in [Verdict::ReadyToRollOut, Verdict::ReproducesThisPrOnly, Verdict::NoReliableRecipe] {
            assert_eq!(serde_json::to_value(verdict).unwrap(), verdict.as_str());
        }
    }
}
