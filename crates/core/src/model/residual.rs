//! What a migration moves away from, and how much of it a recipe leaves: the question the user of
//! a rollout asks on the next repository — is the migration done there, and does the code still
//! compile? Both are measured by the embedded runner on a whole recipe run (the `measure` of its
//! run request) and reported in each run's stats.

use serde::{Deserialize, Serialize};

/// The old library of a migration: its packages and types, its dependencies and plugins, its
/// configuration keys and the Java version left behind. Empty when the migration moves away from
/// nothing (a version bump of a library that stays).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct OldLibrary {
    /// A type in one of these packages, or below one, is the old library's...
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub packages: Vec<String>,
    /// ...unless it is in one of these or below (JUnit 5's `org.junit.jupiter` is below JUnit 4's
    /// `org.junit`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub new_packages: Vec<String>,
    /// Types the migration moves away from (and their members).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    /// `group:artifact` of the dependencies it removes or replaces (Maven, Gradle, version catalogs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dependencies: Vec<String>,
    /// Maven plugins (`group:artifact`) and Gradle plugin ids it removes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plugins: Vec<String>,
    /// Configuration keys it renames away from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config_keys: Vec<String>,
    /// The Java version it upgrades from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub java_version: Option<u32>,
}

impl OldLibrary {
    /// True when nothing names the old library, so there is nothing to measure.
    pub fn is_empty(&self) -> bool {
        *self == OldLibrary::default()
    }

    /// Sorted and without duplicates, so two derivations of one migration compare equal.
    pub fn normalized(mut self) -> OldLibrary {
        for list in [
            &mut self.packages,
            &mut self.new_packages,
            &mut self.types,
            &mut self.dependencies,
            &mut self.plugins,
            &mut self.config_keys,
        ] {
            list.sort();
            list.dedup();
        }
        // A package that is the new library's (or under it) is no old package.
        let new = self.new_packages.clone();
        self.packages.retain(|p| !new.iter().any(|n| p == n || p.starts_with(&format!("{n}."))));
        self
    }
}

/// What a whole recipe run measures on the trees before and after the recipe (the embedded
/// runner's `measure`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Measure {
    /// Count the uses of this old library before and after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub residual: Option<OldLibrary>,
    /// Re-attribute the changed Java files against the classpath before and after.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub compile_check: bool,
}

impl Measure {
    /// Both measurements, the residual of `old` (none when it is empty).
    pub fn of(old: &OldLibrary) -> Measure {
        Measure { residual: (!old.is_empty()).then(|| old.clone()), compile_check: true }
    }
}

/// Uses of the old library before and after a recipe ran.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Residual {
    /// Uses of the old library on the base, before the recipe.
    pub before: usize,
    /// Uses of the old library left after the recipe.
    pub after: usize,
    /// Files that still use the old library after the recipe.
    pub files_after: usize,
    /// Of the uses after, those in POMs that did not resolve on this machine (their parent or a
    /// BOM cannot be downloaded): Maven recipes skip such a POM, so no recipe could take them away
    /// here, while where the parent can be downloaded (the repository's own CI, a rollout with its
    /// credentials) they may.
    #[serde(default)]
    pub out_of_reach: usize,
    /// Where, after the recipe: `path:line: text` (at most ten).
    #[serde(default)]
    pub samples: Vec<String>,
}

impl Residual {
    /// The uses after that a recipe could have taken away here.
    pub fn after_in_reach(&self) -> usize {
        self.after.saturating_sub(self.out_of_reach)
    }

    /// `12 → 2`, and `(1 out of reach)` when some of what is left is in POMs that did not resolve.
    pub fn before_after(&self) -> String {
        match self.out_of_reach {
            0 => format!("{} → {}", self.before, self.after),
            n => format!("{} → {} ({n} out of reach)", self.before, self.after),
        }
    }

    /// What the recipe took away, as a share of what there was (1.0 when there was nothing).
    pub fn reduction(&self) -> f64 {
        if self.before == 0 {
            return 1.0;
        }
        let share = self.before.saturating_sub(self.after) as f64 / self.before as f64;
        (share * 10_000.0).round() / 10_000.0
    }
}

/// Symbols that do not resolve in the files a recipe changed, re-attributed against the classpath
/// before and after it: a compile check without a build.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Unresolved {
    /// Unresolved symbols in those files before the recipe.
    pub before: usize,
    /// Unresolved symbols in those files after the recipe.
    pub after: usize,
    /// Files re-attributed (at most the runner's bound).
    #[serde(default)]
    pub checked_files: usize,
    /// Symbols new after the recipe: `path:line: what` (at most ten).
    #[serde(default)]
    pub samples: Vec<String>,
}

impl Unresolved {
    /// Symbols that resolved before the recipe and no longer do.
    pub fn added(&self) -> usize {
        self.after.saturating_sub(self.before)
    }
}

/// What a recipe run leaves on a repository, as a rollout reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Completion {
    /// No use of the old library is left, and nothing stopped resolving.
    Complete,
    /// Some use of the old library is left, and nothing stopped resolving.
    Partial,
    /// Symbols that resolved before no longer do.
    BreaksCompilation,
}

impl Completion {
    /// None when nothing was measured.
    pub fn of(residual: Option<&Residual>, unresolved: Option<&Unresolved>) -> Option<Completion> {
        if unresolved.is_some_and(|u| u.added() > 0) {
            return Some(Completion::BreaksCompilation);
        }
        let residual = residual?;
        Some(if residual.after == 0 { Completion::Complete } else { Completion::Partial })
    }

    /// The value as reports print it: `complete`, `partial`, `breaks compilation`.
    pub fn label(self) -> &'static str {
        match self {
            Completion::Complete => "complete",
            Completion::Partial => "partial",
            Completion::BreaksCompilation => "breaks compilation",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_and_reduction() {
        let left = |after| Residual {
            before: 4,
            after,
            files_after: after.min(1),
            out_of_reach: 0,
            samples: vec![],
        };
        let broken = Unresolved { before: 2, after: 5, checked_files: 1, samples: vec![] };
        let fine = Unresolved { before: 2, after: 1, checked_files: 1, samples: vec![] };
        assert_eq!(Completion::of(Some(&left(0)), Some(&fine)), Some(Completion::Complete));
        assert_eq!(Completion::of(Some(&left(1)), Some(&fine)), Some(Completion::Partial));
        assert_eq!(Completion::of(Some(&left(0)), Some(&broken)), Some(Completion::BreaksCompilation));
        assert_eq!(Completion::of(None, None), None);
        assert_eq!(left(1).reduction(), 0.75);
        assert_eq!(Residual::default().reduction(), 1.0);
        let beyond = Residual { out_of_reach: 1, ..left(1) };
        assert_eq!((beyond.after_in_reach(), beyond.before_after().as_str()), (0, "4 → 1 (1 out of reach)"));
        assert_eq!(left(1).before_after(), "4 → 1");
    }

    #[test]
    fn normalized_drops_the_new_librarys_packages() {
        let old = OldLibrary {
            packages: vec!["org.junit".into(), "org.junit.jupiter.api".into(), "org.junit".into()],
            new_packages: vec!["org.junit.jupiter".into()],
            ..OldLibrary::default()
        }
        .normalized();
        assert_eq!(old.packages, ["org.junit"]);
    }
}
