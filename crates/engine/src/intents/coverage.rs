//! Coverage: every changed line of the PR is claimed by at least one atomic intent or listed as
//! unexplained; `coverage = claimed / changed` (1.0 when nothing changed).

use std::collections::{BTreeMap, BTreeSet, HashSet};

use crate::diff::ChangeKind;
use crate::model::{ChangeLine, Intent, IntentTree};

use super::atomic::Atomic;
use super::change::FileChange;

/// A changed line's identity: path, side and line number (content is implied by them).
pub(crate) type ClaimKey = (String, ChangeKind, u32);

pub(crate) fn key_of(line: &ChangeLine) -> ClaimKey {
    (line.path.clone(), line.kind, line.line)
}

/// The lines some atomic intent already explains.
pub(crate) fn claimed_keys(atomics: &[Atomic]) -> HashSet<ClaimKey> {
    atomics.iter().flat_map(|a| a.evidence.iter().map(key_of)).collect()
}

/// Completes the tree with the counts, the unexplained lines and the label totals.
pub(crate) fn finish(
    intents: Vec<Intent>,
    files: &[FileChange<'_>],
    binary_files: Vec<String>,
) -> IntentTree {
    let mut claimed: HashSet<ClaimKey> = HashSet::new();
    let mut labels: BTreeMap<String, BTreeSet<ClaimKey>> = BTreeMap::new();
    for intent in &intents {
        for atomic in intent.atomics() {
            for line in &atomic.evidence {
                claimed.insert(key_of(line));
                for label in &atomic.labels {
                    labels.entry(label.clone()).or_default().insert(key_of(line));
                }
            }
        }
    }
    let mut changed_lines = 0;
    let mut claimed_lines = 0;
    let mut unexplained = Vec::new();
    for file in files {
        for line in file.changes() {
            changed_lines += 1;
            if claimed.contains(&key_of(&line)) {
                claimed_lines += 1;
            } else {
                unexplained.push(line);
            }
        }
    }
    IntentTree {
        coverage: ratio(claimed_lines, changed_lines),
        changed_lines,
        claimed_lines,
        intents,
        unexplained,
        binary_files,
        unreproducible: Vec::new(),
        labels: labels.into_iter().map(|(label, lines)| (label, lines.len())).collect(),
    }
}

/// `part / whole` rounded to 4 places; 1.0 for an empty whole (nothing to explain).
fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        return 1.0;
    }
    (part as f64 / whole as f64 * 10_000.0).round() / 10_000.0
}

#[cfg(test)]
mod tests {
    use super::ratio;

    #[test]
    fn ratio_is_rounded_and_empty_is_full() {
        assert_eq!(ratio(0, 0), 1.0);
        assert_eq!(ratio(1, 3), 0.3333);
        assert_eq!(ratio(2, 2), 1.0);
    }
}
