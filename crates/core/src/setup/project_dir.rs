//! The build's directory inside the repository (`--working-directory`, action input
//! `working-directory`), for monorepos: the PR's diff is cut to it, and recipes run from it.

use std::path::{Component, Path, PathBuf};

use anyhow::Result;

use crate::error::bad_input;

/// A relative directory inside the repository, without `.` or `..` parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectDir(PathBuf);

impl ProjectDir {
    /// Reads what the user wrote: `service`, `./service/`, `apps/api`. Empty or `.` is the
    /// repository root (None). Absolute paths and `..` are bad input.
    pub fn parse(text: &str) -> Result<Option<ProjectDir>> {
        let mut parts = PathBuf::new();
        for component in Path::new(text.trim()).components() {
            match component {
                Component::Normal(part) => parts.push(part),
                Component::CurDir => {}
                _ => {
                    return Err(bad_input(format!(
                        "working directory `{text}`: give a directory inside the repository, relative to its root"
                    )));
                }
            }
        }
        Ok((!parts.as_os_str().is_empty()).then_some(ProjectDir(parts)))
    }

    /// The directory, relative to the repository root.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// `service/`: the start of the repository paths inside it, as diffs write them.
    pub fn prefix(&self) -> String {
        format!("{}/", self.0.display())
    }

    /// Whether `path` (relative to the repository root) lies inside.
    pub fn contains(&self, path: &str) -> bool {
        path.starts_with(&self.prefix())
    }
}

impl std::fmt::Display for ProjectDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0.display())
    }
}

/// Where recipes run in a clone: its root, or the project directory in it. The directory must
/// stay inside the clone once symbolic links are resolved: the base commit could make
/// `services/api` a link to `/home/runner` or `../..`, and the build (plugin backend) would write
/// there and the runner read from there. A directory that does not exist is returned as it is
/// (the caller says it is missing).
pub fn project_root(clone_root: &Path, dir: Option<&ProjectDir>) -> Result<PathBuf> {
    let Some(dir) = dir else { return Ok(clone_root.to_path_buf()) };
    let joined = clone_root.join(dir.path());
    let Ok(real) = joined.canonicalize() else { return Ok(joined) };
    let root = clone_root.canonicalize().unwrap_or_else(|_| clone_root.to_path_buf());
    if !real.starts_with(&root) {
        return Err(bad_input(format!(
            "the working directory `{dir}` leads outside the repository (a symbolic link in the base commit): refused"
        )));
    }
    Ok(real)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_working_directory_that_is_a_link_out_of_the_clone_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let clone = dir.path().join("clone");
        std::fs::create_dir_all(clone.join("services/api")).unwrap();
        std::fs::create_dir_all(dir.path().join("elsewhere")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), clone.join("escape")).unwrap();
        std::os::unix::fs::symlink("../..", clone.join("services/up")).unwrap();
        let inside = ProjectDir::parse("services/api").unwrap();
        assert!(project_root(&clone, inside.as_ref()).unwrap().ends_with("services/api"));
        for bad in ["escape", "services/up"] {
            let error = project_root(&clone, ProjectDir::parse(bad).unwrap().as_ref()).unwrap_err();
            assert_eq!(crate::error::exit_code_of(&error), crate::error::exit::BAD_INPUT, "{bad}");
            assert!(error.to_string().contains("outside the repository"), "{error}");
        }
        let missing = ProjectDir::parse("not/there").unwrap();
        assert_eq!(project_root(&clone, missing.as_ref()).unwrap(), clone.join("not/there"));
    }

    #[test]
    fn relative_directories_only() {
        let dir = ProjectDir::parse("./apps/api/").unwrap().unwrap();
        assert_eq!(dir.prefix(), "apps/api/");
        assert!(
            dir.contains("apps/api/pom.xml")
                && !dir.contains("apps/apiary/pom.xml")
                && !dir.contains("README.md")
        );
        for root in ["", ".", " ./ "] {
            assert_eq!(ProjectDir::parse(root).unwrap(), None, "{root:?}");
        }
        for bad in ["/abs", "../up", "a/../../b"] {
            let error = ProjectDir::parse(bad).unwrap_err();
            assert_eq!(crate::error::exit_code_of(&error), crate::error::exit::BAD_INPUT, "{bad}");
        }
    }
}
