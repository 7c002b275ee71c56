//! GitHub Actions workflows (`.github/workflows/*.yml`): `setup-java` version and distribution,
//! action version bumps (`actions/checkout@v3` -> `@v4`), and other values. Steps are named by
//! their `id`, action or `name` instead of their position, so inserting a step does not make every
//! later step look changed.

use std::collections::{BTreeMap, HashMap};

use regex::Regex;
use std::sync::LazyLock;

use crate::model::Change;

use super::Side;
use super::atomic::Atomic;
use super::change::FileChange;
use super::entries::{self, Difference, Entry};
use super::yaml;

static STEP: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(jobs\.[^\[]+?\.steps)\[(\d+)\]").expect("valid regex"));

pub(crate) fn analyze(file: &FileChange<'_>) -> Option<Vec<Atomic>> {
    let old = label_steps(yaml::flatten(file.old_text.as_deref()?)?);
    let new = label_steps(yaml::flatten(file.new_text.as_deref()?)?);
    let setup_java_steps = |entries: &[Entry]| -> Vec<String> {
        entries
            .iter()
            .filter(|e| e.key.ends_with(".uses") && action_name(&e.value) == "actions/setup-java")
            .map(|e| e.key.trim_end_matches(".uses").to_string())
            .collect()
    };
    let mut java_steps = setup_java_steps(&old);
    java_steps.extend(setup_java_steps(&new));

    let mut out = Vec::new();
    // Per setup-java step: (old, new) java-version and distribution, and their evidence.
    let mut setup: BTreeMap<String, SetupJava> = BTreeMap::new();
    for difference in entries::compare(file, &old, &new) {
        let (before, after) = match difference {
            Difference::Value(b, a) => (Some(b), Some(a)),
            Difference::Added(a) => (None, Some(a)),
            Difference::Removed(b) => (Some(b), None),
            Difference::Rename(b, a) => {
                out.push(value_change(file, Some(b), None, &old, &new));
                (None, Some(a))
            }
        };
        let key = after.or(before).map(|e| e.key.as_str()).unwrap_or("");
        let step = java_steps.iter().find(|s| key.starts_with(&format!("{s}.with.")));
        let setting = key.rsplit('.').next().unwrap_or("");
        if let (Some(step), "java-version" | "distribution") = (step, setting) {
            let entry = setup.entry(step.clone()).or_default();
            let old_value = before.map(|e| e.value.clone()).unwrap_or_default();
            let new_value = after.map(|e| e.value.clone()).unwrap_or_default();
            if setting == "java-version" {
                entry.version = Some((old_value, new_value));
            } else {
                entry.distribution = Some((old_value, new_value));
            }
            entry
                .evidence
                .extend(before.map(|b| entries::lines_of(file, b, Side::Base, &new)).unwrap_or_default());
            entry
                .evidence
                .extend(after.map(|a| entries::lines_of(file, a, Side::Head, &old)).unwrap_or_default());
            continue;
        }
        if let (Some(b), Some(a)) = (before, after)
            && key.ends_with(".uses")
            && action_name(&b.value) == action_name(&a.value)
        {
            let action = action_name(&a.value);
            out.push(
                Atomic::new(
                    Change::GithubActionsActionVersion {
                        action: action.to_string(),
                        old_ref: action_ref(&b.value).to_string(),
                        new_ref: action_ref(&a.value).to_string(),
                    },
                    file.path,
                    format!("Bump {action} {} -> {}", action_ref(&b.value), action_ref(&a.value)),
                )
                .evidence(entries::lines_of(file, b, Side::Base, &new))
                .evidence(entries::lines_of(file, a, Side::Head, &old)),
            );
            continue;
        }
        out.push(value_change(file, before, after, &old, &new));
    }
    out.extend(setup_java(file, setup, &old, &new));
    out.retain(|a| !a.evidence.is_empty());
    Some(out)
}

/// One `setup-java` intent per step whose Java version or distribution changed; the value that
/// did not change repeats the current one.
fn setup_java(
    file: &FileChange<'_>,
    setup: BTreeMap<String, SetupJava>,
    old: &[Entry],
    new: &[Entry],
) -> Vec<Atomic> {
    let mut out = Vec::new();
    for (step, change) in setup {
        let current = |side: &[Entry], setting: &str| {
            side.iter()
                .find(|e| e.key == format!("{step}.with.{setting}"))
                .map(|e| e.value.clone())
                .unwrap_or_default()
        };
        let (old_version, new_version) =
            change.version.unwrap_or_else(|| (current(old, "java-version"), current(new, "java-version")));
        let (old_distribution, new_distribution) = change
            .distribution
            .unwrap_or_else(|| (current(old, "distribution"), current(new, "distribution")));
        let title = if old_version != new_version {
            format!("Set up Java {old_version} -> {new_version} in CI")
        } else {
            format!("Set up Java distribution {old_distribution} -> {new_distribution} in CI")
        };
        out.push(
            Atomic::new(
                Change::GithubActionsSetupJava {
                    old_version: old_version.to_string(),
                    new_version: new_version.to_string(),
                    old_distribution: old_distribution.to_string(),
                    new_distribution: new_distribution.to_string(),
                },
                file.path,
                title,
            )
            .evidence(change.evidence),
        );
    }
    out
}

#[derive(Default)]
struct SetupJava {
    version: Option<(String, String)>,
    distribution: Option<(String, String)>,
    evidence: Vec<crate::model::ChangeLine>,
}

fn value_change(
    file: &FileChange<'_>,
    before: Option<&Entry>,
    after: Option<&Entry>,
    old: &[Entry],
    new: &[Entry],
) -> Atomic {
    let key = after.or(before).map(|e| e.key.clone()).unwrap_or_default();
    let old_value = before.map(|e| e.value.clone()).unwrap_or_default();
    let new_value = after.map(|e| e.value.clone()).unwrap_or_default();
    let title = match (before, after) {
        (None, _) => format!("Add {key}: {new_value} in CI"),
        (_, None) => format!("Remove {key} from CI"),
        _ => format!("Set {key} {old_value} -> {new_value} in CI"),
    };
    Atomic::new(
        Change::GithubActionsValueChange {
            key: key.to_string(),
            old_value: old_value.to_string(),
            new_value: new_value.to_string(),
        },
        file.path,
        title,
    )
    .evidence(before.map(|b| entries::lines_of(file, b, Side::Base, new)).unwrap_or_default())
    .evidence(after.map(|a| entries::lines_of(file, a, Side::Head, old)).unwrap_or_default())
}

/// `actions/checkout@v4` -> `actions/checkout`.
fn action_name(uses: &str) -> &str {
    uses.split('@').next().unwrap_or(uses)
}

/// `actions/checkout@v4` -> `v4`.
fn action_ref(uses: &str) -> &str {
    uses.split_once('@').map(|(_, r)| r).unwrap_or("")
}

/// Replaces step positions in paths by a stable label: the step's `id`, else its action, else its
/// `name`, else its position; repeated labels get `#2`, `#3`, ...
fn label_steps(mut entries: Vec<Entry>) -> Vec<Entry> {
    // (scope, steps path, index) -> what the step holds.
    let mut steps: BTreeMap<(usize, String, usize), HashMap<&'static str, String>> = BTreeMap::new();
    for entry in &entries {
        let Some(captures) = STEP.captures(&entry.key) else { continue };
        let index: usize = captures[2].parse().unwrap_or(0);
        let rest = &entry.key[captures[0].len()..];
        let step = steps.entry((entry.scope, captures[1].to_string(), index)).or_default();
        for field in ["id", "uses", "name"] {
            if rest == format!(".{field}") {
                let value = if field == "uses" { action_name(&entry.value) } else { &entry.value };
                step.insert(field, value.to_string());
            }
        }
    }
    let mut labels: HashMap<(usize, String, usize), String> = HashMap::new();
    let mut seen: HashMap<(usize, String, String), usize> = HashMap::new();
    for ((scope, path, index), fields) in &steps {
        let base = ["id", "uses", "name"]
            .iter()
            .find_map(|f| fields.get(f).cloned())
            .unwrap_or_else(|| index.to_string());
        let count = seen.entry((*scope, path.clone(), base.clone())).or_default();
        *count += 1;
        let label = if *count == 1 { base } else { format!("{base}#{count}") };
        labels.insert((*scope, path.clone(), *index), label);
    }
    let relabel = |scope: usize, key: &str| -> String {
        let Some(captures) = STEP.captures(key) else { return key.to_string() };
        let index: usize = captures[2].parse().unwrap_or(0);
        match labels.get(&(scope, captures[1].to_string(), index)) {
            Some(label) => format!("{}[{label}]{}", &captures[1], &key[captures[0].len()..]),
            None => key.to_string(),
        }
    };
    for entry in &mut entries {
        entry.key = relabel(entry.scope, &entry.key);
        for (path, _) in &mut entry.parents {
            *path = relabel(entry.scope, path);
        }
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_labelled_by_id_action_or_name() {
        let text = "jobs:\n  build:\n    steps:\n      - uses: actions/checkout@v4\n      - name: Set up\n        uses: actions/setup-java@v4\n        with:\n          java-version: '17'\n      - run: mvn -B verify\n";
        let entries = label_steps(yaml::flatten(text).unwrap());
        let keys: Vec<&str> = entries.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(
            keys,
            vec![
                "jobs.build.steps[actions/checkout].uses",
                "jobs.build.steps[actions/setup-java].name",
                "jobs.build.steps[actions/setup-java].uses",
                "jobs.build.steps[actions/setup-java].with.java-version",
                "jobs.build.steps[2].run",
            ]
        );
    }
}
