//! What a recipe changes in one repository, as a reviewer wants it before any PR exists: files,
//! lines, which recipe changed which files, and what OpenRewrite warned about.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::ValidationStats;
use crate::model::residual::{Completion, Residual, Unresolved};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, schemars::JsonSchema)]
pub struct Figures {
    /// Files and changed lines (added plus removed) of the recipe's diff.
    pub files: usize,
    pub lines: usize,
    /// Which recipe changed which files (OpenRewrite's `SourcesFileResults`), by recipe name.
    #[serde(default)]
    pub steps: Vec<StepChanges>,
    /// Parse and resolution problems that did not stop the run.
    #[serde(default)]
    pub warnings: Vec<String>,
    /// Uses of the migration's old library before and after the recipe (embedded runner, when
    /// the old library is known).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub residual: Option<Residual>,
    /// Symbols of the changed files that resolved before and no longer do (embedded runner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unresolved: Option<Unresolved>,
    /// Whether the migration is done here: `complete`, `partial`, `breaks_compilation` (None:
    /// not measured).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion: Option<Completion>,
    /// What a reviewer must see first: CI or build configuration written, a mass change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flags: Option<super::flags::Flags>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct StepChanges {
    pub recipe: String,
    pub files: Vec<String>,
}

impl Figures {
    pub(crate) fn of(stats: &ValidationStats, diff: &str) -> Figures {
        let files = crate::diff::parse_all(diff).map(|d| d.files.len()).unwrap_or(0);
        let mut by_recipe: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for row in &stats.attribution {
            let files = by_recipe.entry(row.recipe.as_str()).or_default();
            // A deleted file has no path after the run (`SourcesFileResults` leaves it empty).
            let path =
                if row.after_source_path.is_empty() { &row.source_path } else { &row.after_source_path };
            if !files.contains(path) {
                files.push(path.clone());
            }
        }
        Figures {
            files,
            lines: stats.metrics.total_resulting_changes,
            steps: by_recipe
                .into_iter()
                .map(|(recipe, mut files)| {
                    files.sort();
                    StepChanges { recipe: recipe.to_string(), files }
                })
                .collect(),
            warnings: stats.warnings.clone(),
            residual: stats.residual.clone(),
            unresolved: stats.unresolved.clone(),
            completion: Completion::of(stats.residual.as_ref(), stats.unresolved.as_ref()),
            flags: None,
        }
    }

    /// `12 → 0`: uses of the old library before and after; `-` when not measured.
    pub(crate) fn residual_cell(&self) -> String {
        self.residual.as_ref().map(Residual::before_after).unwrap_or_else(|| "-".into())
    }

    /// New unresolved symbols; `-` when not measured.
    pub(crate) fn unresolved_cell(&self) -> String {
        self.unresolved.as_ref().map(|u| u.added().to_string()).unwrap_or_else(|| "-".into())
    }

    /// `ChangePackage` 2 files · `AddDependency` 1 file.
    pub(crate) fn steps_line(&self) -> String {
        let parts: Vec<String> = self
            .steps
            .iter()
            .map(|s| {
                format!(
                    "`{}` {} file{}",
                    crate::openrewrite::simple_name(&s.recipe),
                    s.files.len(),
                    crate::model::plural(s.files.len())
                )
            })
            .collect();
        parts.join(" · ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Attribution;

    #[test]
    fn figures_from_a_run() {
        let mut stats = crate::validation::empty_stats("r", &crate::diff::Diff::default());
        let row = |path: &str, recipe: &str| Attribution {
            source_path: path.into(),
            after_source_path: path.into(),
            parent_recipe: "r".into(),
            recipe: recipe.into(),
            options: String::new(),
        };
        stats.attribution = vec![
            row("src/B.java", "org.openrewrite.java.ChangePackage"),
            row("src/A.java", "org.openrewrite.java.ChangePackage"),
            row("pom.xml", "org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId"),
        ];
        stats.metrics.total_resulting_changes = 6;
        stats.warnings = vec!["could not parse src/C.java".into()];
        let diff = "diff --git a/pom.xml b/pom.xml\n--- a/pom.xml\n+++ b/pom.xml\n@@ -1 +1 @@\n-a\n+b\n\
diff --git a/src/A.java b/src/A.java\n--- a/src/A.java\n+++ b/src/A.java\n@@ -1 +1 @@\n-a\n+b\n";
        let figures = Figures::of(&stats, diff);
        assert_eq!((figures.files, figures.lines), (2, 6));
        assert_eq!(figures.steps[0].files, ["src/A.java", "src/B.java"]);
        assert_eq!(
            figures.steps_line(),
            "`ChangePackage` 2 files · `ChangeDependencyGroupIdAndArtifactId` 1 file"
        );
        assert_eq!(figures.warnings.len(), 1);
    }

    #[test]
    fn a_deleted_file_is_named_by_its_path_before_the_run() {
        let mut stats = crate::validation::empty_stats("r", &crate::diff::Diff::default());
        // As the plugin's `SourcesFileResults` has it: no path after the run.
        stats.attribution = vec![Attribution {
            source_path: "docs/old.txt".into(),
            after_source_path: String::new(),
            parent_recipe: "r".into(),
            recipe: "org.openrewrite.DeleteSourceFiles".into(),
            options: String::new(),
        }];
        let figures = Figures::of(&stats, "");
        assert_eq!(figures.steps[0].files, ["docs/old.txt"]);
        assert_eq!(figures.steps_line(), "`DeleteSourceFiles` 1 file");
    }
}
