//! Intent extraction on fixture PRs built in memory: the diff is produced from the two file
//! versions (as `git diff` would), and the full contents are served from the same versions.

use std::collections::HashMap;

use serde_json::Value;

use super::{Side, extract_from, render_markdown};
use crate::model::{Intent, IntentTree};

mod analyzers;
mod scenarios;

/// One file of a fixture PR.
pub(super) enum FileSpec {
    Changed { path: String, old: String, new: String },
    Added { path: String, new: String },
    Deleted { path: String, old: String },
    Renamed { old_path: String, new_path: String, old: String, new: String },
    Binary { path: String },
}

pub(super) fn changed(path: &str, old: &str, new: &str) -> FileSpec {
    FileSpec::Changed { path: path.into(), old: old.into(), new: new.into() }
}

pub(super) fn added(path: &str, new: &str) -> FileSpec {
    FileSpec::Added { path: path.into(), new: new.into() }
}

pub(super) fn deleted(path: &str, old: &str) -> FileSpec {
    FileSpec::Deleted { path: path.into(), old: old.into() }
}

pub(super) fn renamed(old_path: &str, new_path: &str, old: &str, new: &str) -> FileSpec {
    FileSpec::Renamed {
        old_path: old_path.into(),
        new_path: new_path.into(),
        old: old.into(),
        new: new.into(),
    }
}

pub(super) fn binary(path: &str) -> FileSpec {
    FileSpec::Binary { path: path.into() }
}

/// A diff in `git diff` format and the contents of both sides.
pub(super) struct Pr {
    pub diff: String,
    contents: HashMap<(bool, String), String>,
}

impl Pr {
    pub(crate) fn new(files: &[FileSpec]) -> Pr {
        let mut diff = String::new();
        let mut contents = HashMap::new();
        for file in files {
            match file {
                FileSpec::Changed { path, old, new } => {
                    diff.push_str(&format!("diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n"));
                    diff.push_str(&unified(old, new, &format!("a/{path}"), &format!("b/{path}")));
                    contents.insert((false, path.clone()), old.clone());
                    contents.insert((true, path.clone()), new.clone());
                }
                FileSpec::Added { path, new } => {
                    diff.push_str(&format!(
                        "diff --git a/{path} b/{path}\nnew file mode 100644\nindex 0000000..2222222\n"
                    ));
                    diff.push_str(&unified("", new, "/dev/null", &format!("b/{path}")));
                    contents.insert((true, path.clone()), new.clone());
                }
                FileSpec::Deleted { path, old } => {
                    diff.push_str(&format!(
                        "diff --git a/{path} b/{path}\ndeleted file mode 100644\nindex 1111111..0000000\n"
                    ));
                    diff.push_str(&unified(old, "", &format!("a/{path}"), "/dev/null"));
                    contents.insert((false, path.clone()), old.clone());
                }
                FileSpec::Renamed { old_path, new_path, old, new } => {
                    diff.push_str(&format!(
                        "diff --git a/{old_path} b/{new_path}\nsimilarity index 90%\nrename from {old_path}\nrename to {new_path}\nindex 1111111..2222222 100644\n"
                    ));
                    if old != new {
                        diff.push_str(&unified(old, new, &format!("a/{old_path}"), &format!("b/{new_path}")));
                    }
                    contents.insert((false, old_path.clone()), old.clone());
                    contents.insert((true, new_path.clone()), new.clone());
                }
                FileSpec::Binary { path } => {
                    diff.push_str(&format!(
                        "diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\nBinary files a/{path} and b/{path} differ\n"
                    ));
                }
            }
        }
        Pr { diff, contents }
    }

    pub(crate) fn tree(&self) -> IntentTree {
        let contents =
            |side: Side, path: &str| self.contents.get(&(side == Side::Head, path.to_string())).cloned();
        extract_from(&self.diff, &contents)
    }
}

/// The unified diff of two texts with git's headers. CRLF texts keep their `\r` in the diff, as
/// git writes them.
fn unified(old: &str, new: &str, a: &str, b: &str) -> String {
    similar::TextDiff::from_lines(old, new).unified_diff().context_radius(3).header(a, b).to_string()
}

pub(super) fn extract(files: &[FileSpec]) -> IntentTree {
    Pr::new(files).tree()
}

/// Every atomic intent as `(kind, params without file/files)`, for compact assertions.
pub(super) fn atomics(tree: &IntentTree) -> Vec<(String, Vec<(String, String)>)> {
    tree.atomics()
        .into_iter()
        .map(|a| {
            let params = a
                .params()
                .iter()
                .filter(|(k, _)| *k != "file" && *k != "files")
                .map(|(k, v)| (k.clone(), v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())))
                .collect();
            (a.kind().to_string(), params)
        })
        .collect()
}

/// The atomic intents of one kind.
pub(super) fn of_kind<'a>(tree: &'a IntentTree, kind: &str) -> Vec<&'a Intent> {
    tree.atomics().into_iter().filter(|a| a.kind() == kind).collect()
}

/// The params of the only atomic intent of `kind`, as plain strings.
pub(super) fn only(tree: &IntentTree, kind: &str) -> HashMap<String, String> {
    let found = of_kind(tree, kind);
    assert_eq!(found.len(), 1, "expected one {kind}, got {found:#?}\n{}", render_markdown(tree));
    found[0]
        .params()
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                },
            )
        })
        .collect()
}

/// Asserts the params of an intent: `expect(&p, &[("old_package", "javax.persistence"), ...])`.
pub(super) fn expect(params: &HashMap<String, String>, expected: &[(&str, &str)]) {
    for (key, value) in expected {
        assert_eq!(params.get(*key).map(String::as_str), Some(*value), "param {key} in {params:#?}");
    }
}

pub(super) fn strategic_kinds(tree: &IntentTree) -> Vec<&str> {
    tree.intents
        .iter()
        .filter(|i| i.level() == crate::model::intent::Level::Strategic)
        .map(|i| i.kind())
        .collect()
}
