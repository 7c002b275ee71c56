//! Exclusive locks between processes of rewrite-assist (parallel tests, eval shards, several runs
//! on one machine) on what they build or fetch once into a shared cache.

use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result};

/// Waits for, then takes, the exclusive lock of the file at `path` (made, with its directory, when
/// missing). The lock is held until the returned file is dropped.
pub fn exclusive(path: &Path) -> Result<File> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    file.lock().with_context(|| format!("locking {}", path.display()))?;
    Ok(file)
}
