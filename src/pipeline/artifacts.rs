//! The run directory: file names of the artifacts ARCHITECTURE.md names (all listed in docs/cli.md),
//! and the append-only audit log.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::model::{AuditEntry, OptionId};

/// The embedded runner's own log (stderr), when it ran.
pub(crate) const RUNNER_LOG: &str = crate::validation::embedded::RUNNER_LOG;
pub(crate) const PR_DIFF: &str = "pr.diff";
pub(crate) const INTENT_TREE_MD: &str = "intent-tree.md";
pub(crate) const INTENT_TREE_JSON: &str = "intent-tree.json";
pub(crate) const AUDIT: &str = "audit.jsonl";
pub(crate) const METADATA: &str = "workflow-metadata.json";
pub(crate) const RESULT_DIR: &str = "result";
pub(crate) const RECOMMENDED_RECIPE: &str = "result/recommended-recipe.yaml";
pub(crate) const RECOMMENDED_DIFF: &str = "result/recommended-recipe.diff";
pub(crate) const REUSABLE_RECIPE: &str = "result/reusable-recipe.yaml";
/// The reusable recipe's steps with their intents and reasons (what `learn` combines).
pub(crate) const REUSABLE_OPTION: &str = "result/reusable-option.json";
pub(crate) const RESULT_PR_DIFF: &str = "result/pr.diff";

/// One run's output directory.
#[derive(Debug, Clone)]
pub(crate) struct RunDir {
    root: PathBuf,
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
        Ok(RunDir { root })
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

    pub(crate) fn write(&self, name: &str, content: impl AsRef<[u8]>) -> Result<PathBuf> {
        let path = self.path(name);
        std::fs::write(&path, content).with_context(|| format!("writing {}", path.display()))?;
        Ok(path)
    }

    pub(crate) fn write_json(&self, name: &str, value: &impl serde::Serialize) -> Result<PathBuf> {
        self.write(name, serde_json::to_string_pretty(value)? + "\n")
    }

    /// Appends one line to `audit.jsonl`.
    pub(crate) fn audit(&self, entry: &AuditEntry) -> Result<()> {
        let mut file = OpenOptions::new().create(true).append(true).open(self.path(AUDIT))?;
        writeln!(file, "{}", serde_json::to_string(entry)?)?;
        Ok(())
    }
}

pub(crate) fn option_file_name(option: OptionId, what: &str) -> String {
    format!("option-{option}-{what}")
}

/// Every file a validated option has in the run directory (after `option-N-`).
pub(crate) const OPTION_FILES: [&str; 6] = [
    "recipe.yaml",
    "creation-analysis.md",
    "recipe.diff",
    "stats.json",
    "validation-analysis.md",
    "build.log",
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
}
