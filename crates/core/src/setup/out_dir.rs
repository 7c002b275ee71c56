//! The output directory a command writes its artifacts to: new or empty, so that no file of an
//! earlier run can pass for this run's and nothing of the user's is overwritten.

use std::path::Path;

use anyhow::Result;

use crate::error::bad_input;

/// Creates `out` (and its parents) when it does not exist; refuses a directory that has files, or
/// a path that cannot be a directory, as bad input (exit 2).
pub fn prepare(out: &Path) -> Result<()> {
    if out.exists() {
        let mut entries =
            std::fs::read_dir(out).map_err(|e| bad_input(format!("--out {}: {e}", out.display())))?;
        if entries.next().is_some() {
            return Err(bad_input(format!(
                "{} exists and is not empty: give a new directory for this run's artifacts",
                out.display()
            )));
        }
    }
    std::fs::create_dir_all(out)
        .map_err(|e| bad_input(format!("--out {}: cannot create it: {e}", out.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_and_empty_directories_are_fine_others_are_bad_input() {
        let dir = tempfile::tempdir().unwrap();
        prepare(&dir.path().join("new/deeper")).unwrap();
        prepare(&dir.path().join("new/deeper")).unwrap(); // still empty
        std::fs::write(dir.path().join("new/deeper/build.log"), "mine").unwrap();
        let error = prepare(&dir.path().join("new/deeper")).unwrap_err();
        assert_eq!(crate::error::exit_code_of(&error), crate::error::exit::BAD_INPUT);
        assert!(error.to_string().contains("not empty"), "{error}");
        assert_eq!(std::fs::read_to_string(dir.path().join("new/deeper/build.log")).unwrap(), "mine");
        // A file where the directory should be.
        let file = dir.path().join("file");
        std::fs::write(&file, "x").unwrap();
        let error = prepare(&file.join("out")).unwrap_err();
        assert_eq!(crate::error::exit_code_of(&error), crate::error::exit::BAD_INPUT, "{error}");
    }
}
