//! The user's cache directory, where what is built or read once per machine is kept: the embedded
//! runner, its POM cache, the catalog's descriptions read from the user's recipe jars.

use std::path::PathBuf;

/// `$XDG_CACHE_HOME/rewrite-assist`, else `~/.cache/rewrite-assist`.
pub fn dir() -> Option<PathBuf> {
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .map(|base| base.join("rewrite-assist"))
}
