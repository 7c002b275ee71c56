//! The clone cache of `eval run --cache DIR`: bare clones kept between runs, one per remote,
//! at `DIR/<host>/<owner>/<name>.git`. A case whose commits are already there needs no network;
//! a missing commit is fetched into the cached clone (git transfers only the objects it lacks).
//! `eval cache add URL PATH` fills an entry from a local repository, so a suite runs offline.
//!
//! Entries are created by cloning into a temporary sibling and renaming it into place, and every
//! clone or fetch into an entry holds an exclusive lock on `<entry>.lock`, so two shards sharing
//! one cache on one machine never see a half-made clone.

use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use serde::Serialize;

use crate::error::bad_input;
use crate::setup::git::{git_command, git_output};

/// The environment variable that names the cache when `--cache` is not given.
pub(crate) const CACHE_ENV: &str = "REWRITE_ASSIST_EVAL_CACHE";

/// A cache directory.
#[derive(Debug, Clone)]
pub(crate) struct CloneCache {
    root: PathBuf,
}

/// One cached clone, as `eval cache list` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct Entry {
    /// Relative to the cache: `github.com/owner/name.git`.
    pub key: String,
    /// The remote it fetches from.
    pub url: Option<String>,
    pub path: PathBuf,
}

/// What `eval cache list --json` prints: the cached clones.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct Listing {
    pub entries: Vec<Entry>,
}

/// Held while a clone or fetch changes an entry; released when dropped.
pub(crate) struct EntryLock {
    _file: File,
}

impl CloneCache {
    /// Opens (and creates) the cache at `root`.
    pub(crate) fn open(root: &Path) -> Result<CloneCache> {
        if root.exists() && !root.is_dir() {
            return Err(bad_input(format!("cache {}: not a directory", root.display())));
        }
        std::fs::create_dir_all(root)
            .map_err(|e| bad_input(format!("cache {}: cannot create it: {e}", root.display())))?;
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        Ok(CloneCache { root })
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// Where the clone of `url` lives (whether or not it exists yet).
    pub(crate) fn entry(&self, url: &str) -> Result<PathBuf> {
        Ok(self.root.join(key(url).map_err(|e| bad_input(e.to_string()))?))
    }

    /// True when the entry of `url` holds a usable bare repository.
    pub(crate) fn has(&self, url: &str) -> bool {
        self.entry(url).is_ok_and(|path| is_repository(&path))
    }

    /// Waits for, then takes, the exclusive lock of `url`'s entry.
    pub(crate) fn lock(&self, url: &str) -> Result<EntryLock> {
        let entry = self.entry(url)?;
        Ok(EntryLock { _file: crate::process::file_lock::exclusive(&lock_path(&entry))? })
    }

    /// Makes the entry of `url` with `make(temporary path)` — a clone into a sibling directory,
    /// renamed into place only when it succeeded. The caller holds the entry's lock.
    pub(crate) fn create_with(&self, url: &str, make: impl FnOnce(&Path) -> Result<()>) -> Result<PathBuf> {
        let entry = self.entry(url)?;
        let parent = entry.parent().ok_or_else(|| anyhow!("{} has no parent", entry.display()))?;
        std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        let partial = tempfile::Builder::new().prefix(".partial-").tempdir_in(parent)?;
        let target = partial.path().join("clone.git");
        make(&target)?;
        if entry.exists() {
            // Not a repository (checked by the caller): the remains of something else.
            std::fs::remove_dir_all(&entry).with_context(|| format!("removing {}", entry.display()))?;
        }
        std::fs::rename(&target, &entry)
            .with_context(|| format!("moving the clone to {}", entry.display()))?;
        Ok(entry)
    }

    /// Fills the entry of `url` from the local repository `from` (a bare directory or a work
    /// tree): a new entry is a clone of it (objects hard-linked where possible), an existing one
    /// fetches its branches, tags and pull-request refs. The entry's remote stays `url`.
    pub(crate) fn add(&self, url: &str, from: &Path) -> Result<PathBuf> {
        if !is_repository(from) {
            return Err(bad_input(format!("{}: not a git repository", from.display())));
        }
        let _lock = self.lock(url)?;
        let entry = self.entry(url)?;
        if is_repository(&entry) {
            let source = from.canonicalize().unwrap_or_else(|_| from.to_path_buf());
            git_output(
                &entry,
                [
                    "fetch",
                    "--quiet",
                    "--end-of-options",
                    &source.to_string_lossy(),
                    "+refs/heads/*:refs/heads/*",
                    "+refs/tags/*:refs/tags/*",
                    "+refs/pull/*:refs/pull/*",
                ],
            )
            .with_context(|| format!("fetching {} into {}", from.display(), entry.display()))?;
            return Ok(entry);
        }
        self.create_with(url, |target| {
            git_output(
                from,
                ["clone", "--bare", "--quiet", "--end-of-options", ".", &target.to_string_lossy()],
            )
            .with_context(|| format!("cloning {}", from.display()))?;
            // A local clone copies every object, refs/pull/* included in the object store but
            // not as refs: keep those too, so PR cases resolve offline.
            let _ = git_output(
                target,
                ["fetch", "--quiet", "--end-of-options", &from.to_string_lossy(), "+refs/pull/*:refs/pull/*"],
            );
            git_output(target, ["remote", "set-url", "--end-of-options", "origin", url])
                .with_context(|| format!("setting the remote of {}", target.display()))?;
            Ok(())
        })
    }

    /// The cached clones, sorted by key.
    pub(crate) fn list(&self) -> Result<Vec<Entry>> {
        let mut entries = Vec::new();
        let mut walk = walkdir::WalkDir::new(&self.root).min_depth(1).sort_by_file_name().into_iter();
        while let Some(item) = walk.next() {
            let item = item.with_context(|| format!("reading {}", self.root.display()))?;
            let path = item.path();
            let name = item.file_name().to_string_lossy();
            if !item.file_type().is_dir() || name.starts_with('.') {
                if item.file_type().is_dir() {
                    walk.skip_current_dir();
                }
                continue;
            }
            if name.ends_with(".git") && is_repository(path) {
                walk.skip_current_dir();
                let url = git_output(path, ["config", "--get", "remote.origin.url"])
                    .ok()
                    .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
                    .filter(|url| !url.is_empty());
                let key = path.strip_prefix(&self.root).unwrap_or(path).to_string_lossy().into_owned();
                entries.push(Entry { key, url, path: path.to_path_buf() });
            }
        }
        Ok(entries)
    }
}

fn lock_path(entry: &Path) -> PathBuf {
    let mut name = entry.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    entry.with_file_name(name)
}

/// A git directory (bare) or work tree that git itself accepts.
fn is_repository(path: &Path) -> bool {
    path.is_dir()
        && git_command(path)
            .args(["rev-parse", "--git-dir"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
}

/// A URL the clone cache cannot name a place for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a repository URL the clone cache can key (host/owner/name)")]
pub(crate) struct UnkeyableUrl(pub String);

/// The cache key of a remote: `host/owner/name.git`, from `https://host/owner/name(.git)`,
/// `ssh://user@host:port/owner/name`, `user@host:owner/name.git` or `file:///path/name.git`
/// (host `file`). Every component is reduced to `[A-Za-z0-9._-]`, so a URL can never name a
/// place outside the cache; the host is lower-cased (host names are case-insensitive).
pub(crate) fn key(url: &str) -> Result<PathBuf, UnkeyableUrl> {
    let invalid = || UnkeyableUrl(url.to_string());
    let (host, path) = if let Some((scheme, rest)) = url.split_once("://") {
        if scheme == "file" {
            ("file".to_string(), rest)
        } else {
            let (authority, path) = rest.split_once('/').ok_or_else(invalid)?;
            let host = authority.rsplit('@').next().unwrap_or(authority);
            (host.replace(':', "_"), path)
        }
    } else if let Some((authority, path)) = url.split_once(':')
        && !authority.contains('/')
        && authority.len() > 1
    {
        // scp-like `git@host:owner/name.git` (a one-letter "host" would be a Windows drive).
        (authority.rsplit('@').next().unwrap_or(authority).to_string(), path)
    } else {
        return Err(invalid());
    };
    let host = sanitize(&host.to_ascii_lowercase());
    let path = path.trim_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path).trim_end_matches('/');
    let components: Vec<String> = path.split('/').filter(|c| !c.is_empty()).map(sanitize).collect();
    if host.is_empty() || components.is_empty() || components.iter().any(|c| c.chars().all(|ch| ch == '.')) {
        return Err(invalid());
    }
    let mut key = PathBuf::from(host);
    let (last, dirs) = components.split_last().ok_or_else(invalid)?;
    for dir in dirs {
        key.push(dir);
    }
    key.push(format!("{last}.git"));
    Ok(key)
}

fn sanitize(component: &str) -> String {
    component
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '_' })
        .collect()
}

/// Resolves the cache directory from `--cache` or the environment; None for no cache.
pub(crate) fn from_option(dir: Option<&Path>) -> Result<Option<CloneCache>> {
    let dir = match dir {
        Some(dir) => Some(dir.to_path_buf()),
        None => std::env::var_os(CACHE_ENV).filter(|v| !v.is_empty()).map(PathBuf::from),
    };
    dir.map(|d| CloneCache::open(&d)).transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_host_owner_name() {
        let k = |url: &str| key(url).map(|p| p.to_string_lossy().into_owned());
        assert_eq!(k("https://github.com/Axual/ksml.git").unwrap(), "github.com/Axual/ksml.git");
        assert_eq!(k("https://GitHub.com/Axual/ksml").unwrap(), "github.com/Axual/ksml.git");
        assert_eq!(k("https://github.com/Axual/ksml/").unwrap(), "github.com/Axual/ksml.git");
        assert_eq!(k("git@github.com:Axual/ksml.git").unwrap(), "github.com/Axual/ksml.git");
        assert_eq!(k("ssh://git@ghe.example:2222/a/b.git").unwrap(), "ghe.example_2222/a/b.git");
        assert_eq!(k("file:///srv/git/shop.git").unwrap(), "file/srv/git/shop.git");
        // Nothing can climb out of the cache.
        assert_eq!(k("https://h/../../etc").unwrap_err(), k("https://h/../../etc").unwrap_err());
        assert!(k("https://h/a/../b").is_err());
        assert_eq!(k("https://h/a b/c?d").unwrap(), "h/a_b/c_d.git");
        for bad in ["", "just-a-name", "https://github.com", "https://github.com/", "C:/x"] {
            assert!(key(bad).is_err(), "{bad}");
        }
    }
}
