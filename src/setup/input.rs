//! Reading a file the user names (a diff, a recipe) with a size limit: input is untrusted, and a
//! file read whole has no bound of its own (`/dev/zero` as a diff would fill the memory).

use std::io::Read;
use std::path::Path;

use anyhow::Result;

use crate::error::bad_input;

/// Largest diff read, from a file or from git: parsing needs about seven times its size in memory.
pub(crate) const MAX_DIFF_BYTES: usize = 64 << 20;

/// The bytes of `path`, refused with a one-line error when there are more than `max`.
pub(crate) fn read_bounded(path: &Path, max: usize, what: &str) -> Result<Vec<u8>> {
    read_bounded_named(path, None, max, what)
}

/// [`read_bounded`] for a file whose path says little about what it is (`GITHUB_EVENT_PATH`):
/// its errors name it as `noun` ("cannot read the event /tmp/x.json: …").
pub(crate) fn read_bounded_named(path: &Path, noun: Option<&str>, max: usize, what: &str) -> Result<Vec<u8>> {
    let name = match noun {
        Some(noun) => format!("{noun} {}", path.display()),
        None => path.display().to_string(),
    };
    let file = std::fs::File::open(path).map_err(|e| bad_input(format!("cannot read {name}: {e}")))?;
    let mut bytes = Vec::new();
    file.take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad_input(format!("cannot read {name}: {e}")))?;
    if bytes.len() > max {
        return Err(bad_input(format!("{name} is larger than {} MiB, the limit for {what}", max >> 20)));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_up_to_the_limit_and_refuses_more_without_reading_it_all() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x");
        std::fs::write(&path, vec![b'a'; 2 << 20]).unwrap();
        assert_eq!(read_bounded(&path, 2 << 20, "diffs").unwrap().len(), 2 << 20);
        let error = read_bounded(&path, 1 << 20, "diffs").unwrap_err();
        assert!(crate::error::exit_code_of(&error) == crate::error::exit::BAD_INPUT);
        assert!(error.to_string().ends_with("is larger than 1 MiB, the limit for diffs"), "{error}");
        // An endless file stops at the limit.
        let error = read_bounded(Path::new("/dev/zero"), 1 << 20, "diffs").unwrap_err();
        assert!(error.to_string().starts_with("/dev/zero is larger than 1 MiB"), "{error}");
        assert!(read_bounded(&dir.path().join("missing"), 1, "diffs").is_err());
    }
}
