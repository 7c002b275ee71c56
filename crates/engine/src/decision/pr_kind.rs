//! The migration gate: is the pull request a migration, worth a recipe to roll out, or ordinary
//! work (a bug fix, a feature, a refactoring of the repository's own code, a configuration tweak)?
//! Deterministic, from the intent tree and the reusable recipe's own validated run on the PR, and
//! always with a one-sentence reason for the report. A PR is a migration when, checked in order:
//!
//! 1. the intent tree names a migration: a strategic intent (a Spring Boot or Java upgrade,
//!    javax -> jakarta, JUnit 4 -> 5, a library swapped for another);
//! 2. it is a tooling bump: the build plugins, the Gradle wrapper, CI actions or Docker base images
//!    updated, and that is at least [`MIGRATION_SHARE`] of its changed lines;
//! 3. its reusable recipe (semantic steps only, nothing pinned to the repository) ran on it and
//!    reproduces at least [`MIGRATION_SHARE`] of its changed lines, not counting lines that only
//!    rename the repository's own code or set its own configuration values ([`own_changes`]), with
//!    precision at least [`MIN_PRECISION`].
//!
//! [`own_changes`]: super::own_changes

use crate::model::intent::Level;
use crate::model::{IntentTree, PrKind, ReusableRecipe, Tactical};

/// The share of a PR's changed lines a tooling bump or the reusable recipe must explain. Half:
/// a migration is the point of its PR, while the same recipe explaining a few lines of a feature
/// PR (a dependency the feature needs) is beside it.
pub(crate) const MIGRATION_SHARE: f64 = 0.5;

/// How precise the reusable recipe must be on the PR it came from. A migration changes every place
/// the recipe finds; a recipe that finds as many places again as the PR changed (a type changed
/// in one class, left alone in the next) generalizes a local edit, not a migration.
pub(crate) const MIN_PRECISION: f64 = 0.8;

/// The tactical intents that update tools rather than code.
const TOOLING: [Tactical; 5] = [
    Tactical::UpdateBuildPlugins,
    Tactical::UpdateGradleWrapper,
    Tactical::BumpCiJava,
    Tactical::BumpCiActions,
    Tactical::UpdateDockerImages,
];

/// The gate's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Classification {
    pub kind: PrKind,
    pub reason: String,
}

/// Classifies the PR of `tree`, given its reusable recipe (None when there is none).
pub(crate) fn classify(tree: Option<&IntentTree>, reusable: Option<&ReusableRecipe>) -> Classification {
    let Some(tree) = tree else {
        return ordinary("the analysis stopped before the intent tree, so nothing shows a migration".into());
    };
    let strategic: Vec<&str> =
        tree.intents.iter().filter(|i| i.level() == Level::Strategic).map(|i| i.title.as_str()).collect();
    if !strategic.is_empty() {
        return migration(format!("the intent tree names a migration: {}", strategic.join("; ")));
    }
    if let Some(reason) = tooling_bump(tree) {
        return migration(reason);
    }
    by_reusable_recipe(tree, reusable)
}

/// A tooling bump that makes most of the PR, said as the reason; None otherwise.
fn tooling_bump(tree: &IntentTree) -> Option<String> {
    let tooling: Vec<(&str, usize)> = tree
        .intents
        .iter()
        .filter(|i| Tactical::of(i).is_some_and(|t| TOOLING.contains(&t)))
        .map(|i| (i.title.as_str(), i.atomics().iter().map(|a| a.evidence.len()).sum()))
        .collect();
    let lines: usize = tooling.iter().map(|(_, n)| n).sum();
    let share = share(lines, tree.changed_lines);
    (!tooling.is_empty() && share >= MIGRATION_SHARE).then(|| {
        let titles: Vec<&str> = tooling.iter().map(|(title, _)| *title).collect();
        format!("a tooling bump ({}) makes {} of the changed lines", titles.join("; "), percent(share))
    })
}

fn by_reusable_recipe(tree: &IntentTree, reusable: Option<&ReusableRecipe>) -> Classification {
    const NO_MIGRATION: &str = "the intent tree names no migration";
    let Some(reusable) = reusable else {
        return ordinary(format!(
            "{NO_MIGRATION}, and no semantic recipe reproduces it (no reusable recipe)"
        ));
    };
    let Some(run) = reusable.result.as_ref().filter(|r| r.ran()) else {
        return ordinary(format!("{NO_MIGRATION}, and its reusable recipe could not be validated on it"));
    };
    let own = share(super::own_changes::own_lines(tree), tree.changed_lines);
    let explained = crate::metrics::round4((run.recall * run.semantic_share - own).max(0.0));
    let needed = percent(MIGRATION_SHARE);
    if explained < MIGRATION_SHARE {
        let beyond = if own > 0.0 {
            " beyond renames of the repository's own code and values of its own configuration"
        } else {
            ""
        };
        return ordinary(format!(
            "{NO_MIGRATION}, and its reusable recipe reproduces {} of its changed lines{beyond} ({needed} needed)",
            percent(explained)
        ));
    }
    if run.precision < MIN_PRECISION {
        return ordinary(format!(
            "{NO_MIGRATION}, and its reusable recipe would change about as much again that the pull request left alone \
(precision {:.2} on it, {MIN_PRECISION:.2} needed): a local change, not a migration",
            run.precision
        ));
    }
    migration(format!(
        "its reusable recipe reproduces {} of its changed lines with semantic recipes ({needed} needed), at precision {:.2}",
        percent(explained),
        run.precision
    ))
}

fn share(lines: usize, of: usize) -> f64 {
    if of == 0 { 0.0 } else { crate::metrics::round4(lines.min(of) as f64 / of as f64) }
}

fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

fn migration(reason: String) -> Classification {
    Classification { kind: PrKind::Migration, reason }
}

fn ordinary(reason: String) -> Classification {
    Classification { kind: PrKind::Ordinary, reason }
}

#[cfg(test)]
#[path = "pr_kind_tests.rs"]
mod tests;
