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

/// Where recipes run in a clone: its root, or the project directory in it.
pub(crate) fn project_root(clone_root: &Path, dir: Option<&ProjectDir>) -> PathBuf {
    dir.map_or_else(|| clone_root.to_path_buf(), |d| clone_root.join(d.path()))
}

#[cfg(test)]
mod tests {
    use super::*;

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
