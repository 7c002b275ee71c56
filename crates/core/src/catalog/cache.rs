//! Where the catalog with every module's text is kept on the user's machine:
//! `<user cache>/catalog/<rewrite core version>-<hash of the modules' coordinates>.json.gz`. It is
//! written whole (a temporary file, renamed), and read only when stripping it gives exactly the
//! embedded snapshot, so a file of other pins, of an older generator, or damaged is never used.

use std::fs::File;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::generate::modules_in_use;
use super::snapshot::Snapshot;
use super::text;
use crate::openrewrite::Versions;
use crate::openrewrite::versions::REWRITE_CORE_VERSION;

/// The user's cached catalog with the text of every module, one file per set of versions.
pub struct Cache {
    path: PathBuf,
}

impl Cache {
    /// The file for the catalog of `versions`, in the user's cache directory.
    pub fn of(versions: &Versions) -> Result<Cache> {
        let dir = crate::process::user_cache::dir()
            .context("no cache directory for the catalog: set XDG_CACHE_HOME or HOME")?;
        Ok(Cache::in_dir(&dir.join("catalog"), versions))
    }

    fn in_dir(dir: &Path, versions: &Versions) -> Cache {
        Cache { path: dir.join(format!("{}.json.gz", key(versions))) }
    }

    /// The cache file, `<cache dir>/catalog/<key>.json.gz`.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The cached catalog, when there is one whose stripped form is exactly `embedded`.
    pub(crate) fn read(&self, embedded: &Snapshot) -> Option<Snapshot> {
        let bytes = std::fs::read(&self.path).ok()?;
        let snapshot = match Snapshot::decode(&bytes) {
            Ok(snapshot) => snapshot,
            Err(e) => {
                tracing::info!("ignoring the cached catalog {}: {e:#}", self.path.display());
                return None;
            }
        };
        if text::strip(&snapshot) != *embedded {
            tracing::info!(
                "ignoring the cached catalog {}: not of this binary's recipes",
                self.path.display()
            );
            return None;
        }
        Some(snapshot)
    }

    /// Writes `snapshot` whole: a reader never sees half a file.
    pub fn write(&self, snapshot: &Snapshot) -> Result<()> {
        let dir = self.path.parent().expect("the cache file is in a directory");
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let mut file = tempfile::NamedTempFile::new_in(dir)?;
        std::io::Write::write_all(&mut file, &snapshot.encode()?)?;
        // Readable like the rest of the cache: a temporary file starts private.
        file.as_file().set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644))?;
        file.persist(&self.path).with_context(|| format!("writing {}", self.path.display()))?;
        Ok(())
    }

    /// Holds the cache file's lock while it is alive: one process reads the jars, the others wait
    /// for its file instead of reading them again.
    pub(crate) fn lock(&self) -> Result<File> {
        crate::process::file_lock::exclusive(&self.path.with_extension("lock"))
    }
}

/// `8.89.0-<hash>`: the pinned versions (with the user's overrides, for `catalog refresh`) decide
/// which recipes and text the jars hold.
fn key(versions: &Versions) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for (_, coordinates) in modules_in_use(versions) {
        coordinates.to_string().hash(&mut hasher);
    }
    format!("{REWRITE_CORE_VERSION}-{:016x}", hasher.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openrewrite::versions::parse_coordinates_list;

    fn small() -> Snapshot {
        let mut snapshot = Snapshot::decode(super::super::snapshot::EMBEDDED).unwrap();
        snapshot.recipes.truncate(3);
        snapshot
    }

    #[test]
    fn a_written_catalog_is_read_back_only_for_its_own_embedded_snapshot() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::in_dir(dir.path(), &Versions::default());
        let full = small();
        assert_eq!(cache.read(&text::strip(&full)), None, "nothing written yet");
        cache.write(&full).unwrap();
        assert_eq!(cache.read(&text::strip(&full)), Some(full.clone()));
        let mut other = text::strip(&full);
        other.recipes.pop();
        assert_eq!(cache.read(&other), None, "another binary's recipes");
        std::fs::write(cache.path(), b"not gzip").unwrap();
        assert_eq!(cache.read(&text::strip(&full)), None, "a damaged file");
        drop(cache.lock().unwrap());
    }

    #[test]
    fn the_key_follows_the_versions() {
        let other = Versions {
            overrides: parse_coordinates_list("org.openrewrite.recipe:rewrite-spring:9.9.9").unwrap(),
            ..Versions::default()
        };
        assert_eq!(key(&Versions::default()), key(&Versions::default()));
        assert_ne!(key(&Versions::default()), key(&other));
        assert!(key(&other).starts_with(&format!("{REWRITE_CORE_VERSION}-")));
    }
}
