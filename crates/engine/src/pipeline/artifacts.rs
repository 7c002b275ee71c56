//! The run directory: file names of the artifacts ARCHITECTURE.md names (all listed in docs/cli.md),
//! and the append-only audit log.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use std::borrow::Cow;
use std::sync::Arc;

use anyhow::{Context, Result};

use crate::setup::artifact_caps::Ledger;

use crate::model::{AuditEntry, OptionId};

/// The embedded runner's own log (stderr), when it ran.
pub(crate) const RUNNER_LOG: &str = crate::validation::embedded::RUNNER_LOG;
/// The PR's diff as setup read it, files too large to analyze left out and named in `#` lines
/// before it.
pub const PR_DIFF: &str = "pr.diff";
/// The intent tree for a reviewer, as a nested list.
pub const INTENT_TREE_MD: &str = "intent-tree.md";
/// The intent tree ([`crate::model::IntentTree`]) the intents phase made.
pub const INTENT_TREE_JSON: &str = "intent-tree.json";
pub(crate) const AUDIT: &str = "audit.jsonl";
/// The run's summary, what it ran on and what it spent ([`super::metadata::WorkflowMetadata`]).
pub const METADATA: &str = "workflow-metadata.json";
pub(crate) const RESULT_DIR: &str = "result";
/// The recommended option's recipe, written at publish (absent without a recommendation).
pub const RECOMMENDED_RECIPE: &str = "result/recommended-recipe.yaml";
pub(crate) const RECOMMENDED_DIFF: &str = "result/recommended-recipe.diff";
/// The recipe generalized for other repositories (option 4), written by generalize.
pub const REUSABLE_RECIPE: &str = "result/reusable-recipe.yaml";
/// The reusable recipe's steps with their intents and reasons (what `learn` combines).
pub const REUSABLE_OPTION: &str = "result/reusable-option.json";
pub(crate) const RESULT_PR_DIFF: &str = "result/pr.diff";
/// What the learning phase learned: its templates, refusals, jar and the jar's libraries.
pub const LEARNED_JSON: &str = "learned/learned.json";

/// One run's output directory. Its diffs and markdown reports are capped
/// ([`crate::setup::artifact_caps`]), with one ledger for the run and its subdirectories.
#[derive(Debug, Clone)]
pub(crate) struct RunDir {
    root: PathBuf,
    ledger: Arc<Ledger>,
}

impl RunDir {
    /// Creates the run directory; it must not exist yet or be empty, so that no file of an
    /// earlier run can pass for this run's.
    pub(crate) fn create_fresh(root: &Path) -> Result<RunDir> {
        crate::setup::out_dir::prepare(root)?;
        RunDir::create(root)
    }

    /// Creates (or reuses) a directory for artifacts.
    pub(crate) fn create(root: &Path) -> Result<RunDir> {
        std::fs::create_dir_all(root.join(RESULT_DIR))
            .with_context(|| format!("creating {}", root.display()))?;
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        Ok(RunDir { root, ledger: Arc::default() })
    }

    /// A subdirectory (`refinement/round-1`), created, whose artifacts count toward this run's caps.
    pub(crate) fn sub(&self, name: &str) -> Result<RunDir> {
        let dir = RunDir::create(&self.path(name))?;
        Ok(RunDir { ledger: Arc::clone(&self.ledger), ..dir })
    }

    /// The run's ledger of capped artifacts, for the writers outside this type (validation).
    pub(crate) fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// `option-N-<what>`, e.g. `option-2-recipe.yaml`.
    #[cfg(test)]
    pub(crate) fn option_file(&self, option: OptionId, what: &str) -> PathBuf {
        self.root.join(option_file_name(option, what))
    }

    /// Writes `name`; a diff or markdown report is cut to the run's caps, except the PR's diff
    /// (bounded before it is written, and read back whole).
    pub(crate) fn write(&self, name: &str, content: impl AsRef<[u8]>) -> Result<PathBuf> {
        let path = self.path(name);
        let bytes = content.as_ref();
        let cut = match std::str::from_utf8(bytes) {
            Ok(text) if name != PR_DIFF && name != RESULT_PR_DIFF => match self.ledger.fit(name, text) {
                Cow::Owned(cut) => Some(cut),
                Cow::Borrowed(_) => None,
            },
            _ => None,
        };
        let bytes = cut.as_deref().map_or(bytes, str::as_bytes);
        if let Some(parent) = path.parent() {
            // `learned/src/<package>/…`: a name may name folders of its own.
            std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        Ok(path)
    }

    /// Copies `from` (another run directory's file, or folder: an option's data tables) to `name`
    /// here, within the caps; a folder replaces the one there (an earlier round's best).
    pub(crate) fn copy_in(&self, from: &Path, name: &str) -> Result<()> {
        if from.is_dir() {
            let to = self.path(name);
            if to.is_dir() {
                std::fs::remove_dir_all(&to).with_context(|| format!("removing {}", to.display()))?;
            }
            std::fs::create_dir_all(&to).with_context(|| format!("creating {}", to.display()))?;
            for entry in std::fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
                let entry = entry?;
                self.copy_in(&entry.path(), &format!("{name}/{}", entry.file_name().to_string_lossy()))?;
            }
            return Ok(());
        }
        match std::fs::read_to_string(from) {
            Ok(text) => self.write(name, text).map(drop),
            // Not text (a build log with other bytes): copied as it is, never capped.
            Err(_) => std::fs::copy(from, self.path(name)).map(drop).map_err(Into::into),
        }
    }

    pub(crate) fn write_json(&self, name: &str, value: &impl serde::Serialize) -> Result<PathBuf> {
        self.write(name, crate::document::to_json(value)?)
    }

    /// Appends one line to `audit.jsonl`.
    pub(crate) fn audit(&self, entry: &AuditEntry) -> Result<()> {
        let mut file = OpenOptions::new().create(true).append(true).open(self.path(AUDIT))?;
        writeln!(file, "{}", crate::document::to_json_line(entry)?)?;
        Ok(())
    }
}

/// What an analyze learned (`learned/learned.json`), read once: the recipe jar and the jars its
/// templates need (what a run of a recipe naming its recipes loads, `apply` with a run
/// directory), its Maven coordinates, and the recipe that runs its templates.
pub struct Learned {
    /// The jar and the libraries its templates were compiled against.
    pub jars: crate::validation::embedded::protocol::LearnedJars,
    /// Under which the plugins find the jar once it is installed.
    pub coordinates: Option<String>,
    /// None when the jar holds only the Gradle recipes.
    recipe: Option<String>,
}

/// What the analyze in `dir` learned; None when it learned no jar.
pub fn learned(dir: &Path) -> Option<Learned> {
    let text = std::fs::read_to_string(dir.join(LEARNED_JSON)).ok()?;
    let learned: serde_json::Value = serde_json::from_str(&text).ok()?;
    let jar = dir.join("learned").join(learned["jar"].as_str()?);
    let libraries =
        learned["libraries"].as_array()?.iter().filter_map(|l| l.as_str()).map(PathBuf::from).collect();
    let text_of = |key: &str| learned[key].as_str().map(str::to_string);
    Some(Learned {
        jars: crate::validation::embedded::protocol::LearnedJars { jars: vec![jar], libraries },
        coordinates: text_of("coordinates"),
        recipe: text_of("recipe"),
    })
}

impl Learned {
    /// Whether `recipe_yaml` runs a recipe of this jar: its templates' recipe, or one of the
    /// Gradle recipes it carries.
    pub fn runs_in(&self, recipe_yaml: &str) -> bool {
        self.recipe.as_deref().is_some_and(|recipe| recipe_yaml.contains(recipe))
            || recipe_yaml.contains(crate::templates::gradle::PACKAGE)
    }
}

/// The run directory's name of an option's file: `option-N-<what>` (`what` e.g. `recipe.yaml`).
pub fn option_file_name(option: OptionId, what: &str) -> String {
    format!("option-{option}-{what}")
}

/// Every file a validated option has in the run directory (after `option-N-`); `datatables` is a
/// folder.
pub(crate) const OPTION_FILES: [&str; 7] = [
    "recipe.yaml",
    "creation-analysis.md",
    "recipe.diff",
    "stats.json",
    "validation-analysis.md",
    "build.log",
    crate::validation::datatables::DIR,
];

/// Prefix that validation puts before `recipe.diff`, `stats.json`, `build.log`.
pub(crate) fn option_prefix(option: OptionId) -> String {
    format!("option-{option}-")
}

/// Current UTC time, RFC 3339.
pub(crate) fn now() -> String {
    jiff::Timestamp::now().strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_and_audit_lines() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunDir::create(&dir.path().join("run")).unwrap();
        assert!(run.path(RESULT_DIR).is_dir());
        assert_eq!(
            run.option_file(OptionId::Narrow, "recipe.yaml").file_name().unwrap(),
            "option-2-recipe.yaml"
        );
        let entry = AuditEntry {
            at: now(),
            phase: "setup".into(),
            outcome: "ok".into(),
            seconds: 0.5,
            inputs: vec!["repo".into()],
            outputs: vec![PR_DIFF.into()],
            detail: String::new(),
        };
        run.audit(&entry).unwrap();
        run.audit(&entry).unwrap();
        let text = std::fs::read_to_string(run.path(AUDIT)).unwrap();
        assert_eq!(text.lines().count(), 2);
        let back: AuditEntry = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(back, entry);
    }

    #[test]
    fn reports_and_diffs_are_capped_for_the_whole_run_but_the_pr_diff_is_not() {
        use crate::setup::artifact_caps::MAX_ARTIFACT_BYTES;
        let dir = tempfile::tempdir().unwrap();
        let run = RunDir::create(&dir.path().join("run")).unwrap();
        let big = "+a line of a diff\n".repeat(MAX_ARTIFACT_BYTES / 10);
        let size = |path: PathBuf| std::fs::metadata(path).unwrap().len() as usize;
        assert_eq!(size(run.write(PR_DIFF, &big).unwrap()), big.len());
        assert_eq!(size(run.write(RESULT_PR_DIFF, &big).unwrap()), big.len());
        assert_eq!(run.ledger().written(), 0, "the PR's diff is bounded before, not here");
        let report = run.write("option-1-validation-analysis.md", &big).unwrap();
        assert!(size(report) < MAX_ARTIFACT_BYTES + 300);
        assert!(size(run.write("option-1-stats.json", &big).unwrap()) == big.len(), "JSON is never cut");
        // A round's directory counts toward the same run, and so do copies.
        let round = run.sub("refinement/round-1").unwrap();
        round.write("option-3-recipe.diff", &big).unwrap();
        run.copy_in(&round.path("option-3-recipe.diff"), "option-3-recipe.diff").unwrap();
        assert_eq!(run.ledger().written(), 3 * MAX_ARTIFACT_BYTES);
    }

    #[test]
    fn a_folder_of_data_tables_is_copied_in_place_of_the_earlier_one() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunDir::create(&dir.path().join("run")).unwrap();
        let round = run.sub("refinement/round-2").unwrap();
        let tables = round.path("option-3-datatables");
        std::fs::create_dir_all(tables.join("api")).unwrap();
        std::fs::write(tables.join("a.csv"), "sourcePath\nA.java\n").unwrap();
        std::fs::write(tables.join("api/b.csv"), "sourcePath\nB.java\n").unwrap();
        std::fs::create_dir_all(run.path("option-3-datatables")).unwrap();
        std::fs::write(run.path("option-3-datatables/stale.csv"), "from round 1\n").unwrap();
        run.copy_in(&tables, "option-3-datatables").unwrap();
        let copied = run.path("option-3-datatables");
        assert_eq!(std::fs::read_to_string(copied.join("a.csv")).unwrap(), "sourcePath\nA.java\n");
        assert_eq!(std::fs::read_to_string(copied.join("api/b.csv")).unwrap(), "sourcePath\nB.java\n");
        assert!(!copied.join("stale.csv").exists(), "an earlier round's table does not linger");
    }
}
