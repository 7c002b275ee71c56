//! OpenRewrite's data tables, kept beside a run's other artifacts in `<prefix>datatables/`: one CSV
//! per table, named as OpenRewrite names them (`org.openrewrite.table.SourcesFileResults.csv`), a
//! module's tables under its path from the build's directory. The plugin backend copies what the
//! build plugin exported into the clone (gone with it otherwise); the embedded runner exports the
//! whole run's tables itself. Each file is capped like the other artifacts
//! ([`crate::setup::artifact_caps`]).

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::RecipeRun;
use crate::setup::artifact_caps::{Ledger, MAX_ARTIFACT_BYTES};

/// The folder's name after the request's prefix.
pub const DIR: &str = "datatables";

/// One directory of exported tables, and where its files go in `<prefix>datatables/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Export {
    /// The module's path from the build's directory; empty for the build's root.
    pub module: PathBuf,
    pub dir: PathBuf,
}

/// Removes the tables an earlier run left where `req` keeps its own (a retry of an option writes
/// to the same place): none of them may pass for this run's.
pub(crate) fn clear(req: &RecipeRun<'_>) -> Result<()> {
    let dir = req.artifact(DIR);
    match std::fs::remove_dir_all(&dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(anyhow::Error::new(e).context(format!("removing the earlier {}", dir.display())))
        }
        _ => Ok(()),
    }
}

/// Where the build plugins exported tables under `project`: Maven's `target/rewrite/datatables/<time>/`
/// and Gradle's `build/reports/rewrite/datatables/<time>/`, in any module (the newest `<time>`
/// of each, though one run writes one).
pub(crate) fn plugin_exports(project: &Path) -> Vec<Export> {
    let mut exports: Vec<Export> = walkdir::WalkDir::new(project)
        .max_depth(8)
        .into_iter()
        .filter_entry(|e| e.file_name() != ".git" && e.file_name() != "node_modules")
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_dir() && e.file_name() == DIR)
        .filter_map(|e| {
            let module = module_of(e.path().strip_prefix(project).ok()?)?;
            let newest = std::fs::read_dir(e.path())
                .ok()?
                .filter_map(Result::ok)
                .filter(|t| t.file_type().is_ok_and(|t| t.is_dir()))
                .map(|t| t.path())
                .max()?;
            Some(Export { module, dir: newest })
        })
        .collect();
    exports.sort_by(|a, b| a.module.cmp(&b.module));
    exports
}

/// The module of a `…/datatables` directory the plugins write (relative to the project), or None
/// when the directory is not one of theirs.
fn module_of(datatables: &Path) -> Option<PathBuf> {
    let parts: Vec<String> = datatables.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let tails: [&[&str]; 2] = [&["target", "rewrite", DIR], &["build", "reports", "rewrite", DIR]];
    let tail = tails
        .into_iter()
        .find(|tail| parts.len() >= tail.len() && parts[parts.len() - tail.len()..] == **tail)?;
    Some(parts[..parts.len() - tail.len()].iter().collect())
}

/// Copies the CSV files of `exports` into `req`'s `<prefix>datatables/`, each within the run's
/// caps (the request's ledger, else one of its own); the number of files kept.
pub(crate) fn keep(req: &RecipeRun<'_>, exports: &[Export]) -> Result<usize> {
    let own = Ledger::default();
    let ledger = req.ledger.unwrap_or(&own);
    let mut kept = 0;
    for export in exports {
        let Ok(entries) = std::fs::read_dir(&export.dir) else { continue };
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "csv"))
            .collect();
        files.sort();
        if files.is_empty() {
            continue;
        }
        let to = req.artifact(DIR).join(&export.module);
        std::fs::create_dir_all(&to).with_context(|| format!("creating {}", to.display()))?;
        for file in files {
            let Some(name) = file.file_name() else { continue };
            copy_capped(&file, &to.join(name), ledger)?;
            kept += 1;
        }
    }
    Ok(kept)
}

/// Copies `from` to `to`, cut to what `ledger` allows; only the start of a large file is read.
fn copy_capped(from: &Path, to: &Path, ledger: &Ledger) -> Result<()> {
    let whole = std::fs::metadata(from).with_context(|| format!("reading {}", from.display()))?.len();
    let mut start = Vec::new();
    std::fs::File::open(from)
        .and_then(|f| f.take(MAX_ARTIFACT_BYTES as u64 + 1).read_to_end(&mut start))
        .with_context(|| format!("reading {}", from.display()))?;
    // The plugins write UTF-8; a stray byte is not worth losing the table over.
    let text = String::from_utf8_lossy(&start);
    let name = to.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let fitted = ledger.fit_start(&name, &text, usize::try_from(whole).unwrap_or(usize::MAX));
    std::fs::write(to, fitted.as_bytes()).with_context(|| format!("writing {}", to.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn the_plugins_exports_are_found_per_module() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(&root.join("target/rewrite/datatables/2026-01-01_00-00-00-000/a.csv"), "x\n");
        write(&root.join("api/target/rewrite/datatables/2026-01-01_00-00-00-000/a.csv"), "x\n");
        write(&root.join("api/target/rewrite/datatables/2026-01-02_00-00-00-000/a.csv"), "x\n");
        write(&root.join("web/build/reports/rewrite/datatables/2026-01-01_00-00-00-000/a.csv"), "x\n");
        // Not where the plugins write: a source folder that happens to be called so.
        write(&root.join("src/datatables/t/a.csv"), "x\n");
        let exports = plugin_exports(root);
        let found: Vec<(String, String)> = exports
            .iter()
            .map(|e| {
                let time = e.dir.file_name().unwrap().to_string_lossy().into_owned();
                (e.module.display().to_string(), time)
            })
            .collect();
        assert_eq!(
            found,
            [
                ("", "2026-01-01_00-00-00-000"),
                ("api", "2026-01-02_00-00-00-000"),
                ("web", "2026-01-01_00-00-00-000")
            ]
            .map(|(m, t)| (m.to_string(), t.to_string()))
        );
    }
}
