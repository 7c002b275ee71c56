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
    read_opened(file, &name, max, what)
}

/// [`read_bounded_named`] for a file that must be a regular file (`GITHUB_EVENT_PATH`): a FIFO, a
/// device or a directory is refused before anything is read. It is opened without blocking (a
/// FIFO without a writer would block the open for ever) and checked as opened, so no other file
/// can take its place in between.
pub fn read_regular_named(path: &Path, noun: &str, max: usize, what: &str) -> Result<Vec<u8>> {
    use std::os::unix::fs::OpenOptionsExt;
    let name = format!("{noun} {}", path.display());
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
        .open(path)
        .map_err(|e| bad_input(format!("cannot read {name}: {e}")))?;
    let regular = file.metadata().map(|m| m.is_file()).unwrap_or(false);
    if !regular {
        return Err(bad_input(format!("{name} is not a regular file")));
    }
    read_opened(file, &name, max, what)
}

fn read_opened(file: std::fs::File, name: &str, max: usize, what: &str) -> Result<Vec<u8>> {
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

    #[test]
    fn only_a_regular_file_is_read_as_one() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        for path in [fifo.as_path(), Path::new("/dev/zero"), dir.path()] {
            let error = read_regular_named(path, "the event", 1 << 20, "events").unwrap_err();
            assert_eq!(crate::error::exit_code_of(&error), crate::error::exit::BAD_INPUT);
            assert_eq!(error.to_string(), format!("the event {} is not a regular file", path.display()));
        }
        let file = dir.path().join("event.json");
        std::fs::write(&file, "{}").unwrap();
        assert_eq!(read_regular_named(&file, "the event", 10, "events").unwrap(), b"{}");
    }
}
