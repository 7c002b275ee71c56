//! The PR's changes no recipe can make (see [`crate::diff::Unreproducible`]): they get no intent,
//! so mapping makes no recipe for them, and the tree lists them with why.

use std::collections::BTreeMap;

use crate::diff::{Unreproducible, not_utf8};
use crate::model::ChangeLine;
use crate::model::intent::UnreproducibleFile;

use super::change::FileChange;

/// The tree's list: each symbolic link, submodule and LFS pointer, each file with changed lines
/// that are not UTF-8 and stayed unexplained, and each file too large to analyze, sorted by path.
pub(crate) fn list(
    files: &[FileChange<'_>],
    unexplained: &[ChangeLine],
    too_large: &[crate::diff::TooLarge],
) -> Vec<UnreproducibleFile> {
    let mut out: Vec<UnreproducibleFile> = files
        .iter()
        .filter_map(|file| {
            let reason = file.diff.unreproducible()?;
            Some(UnreproducibleFile { path: file.path.to_string(), reason, lines: file.changes().len() })
        })
        .collect();
    let mut not_text: BTreeMap<&str, usize> = BTreeMap::new();
    for line in unexplained.iter().filter(|l| not_utf8(&l.content)) {
        *not_text.entry(line.path.as_str()).or_default() += 1;
    }
    let special: Vec<String> = out.iter().map(|f| f.path.clone()).collect();
    out.extend(not_text.into_iter().filter(|(path, _)| !special.iter().any(|s| s == path)).map(
        |(path, lines)| UnreproducibleFile { path: path.to_string(), reason: Unreproducible::NotUtf8, lines },
    ));
    out.extend(too_large.iter().map(|f| UnreproducibleFile {
        path: f.path.clone(),
        reason: Unreproducible::TooLarge,
        lines: f.lines,
    }));
    out.sort_by(|a, b| (&a.path, a.reason).cmp(&(&b.path, b.reason)));
    out
}

/// Whether any changed line of `lines` is not UTF-8.
pub(crate) fn any_not_utf8<'a>(mut lines: impl Iterator<Item = &'a ChangeLine>) -> bool {
    lines.any(|l| not_utf8(&l.content))
}
