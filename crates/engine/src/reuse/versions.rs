//! The versions a reusable recipe writes: the PR's own targets, as values. A dependency swapped
//! with `${servlet.version}` as its version, and that property moved to 6.0.0, targets 6.0.0; on
//! the next repository the property does not exist, so the recipe names the version itself, and a
//! step that only set this repository's property is left out (the swap writes the version).

use std::collections::BTreeMap;

use crate::model::Change;
use crate::model::change::property_reference;
use crate::model::intent::IntentTree;
use crate::openrewrite::RecipeStep;
use crate::openrewrite::recipe_names::{
    DEPENDENCIES_CHANGE_DEPENDENCY, GRADLE_CHANGE_DEPENDENCY, MAVEN_ADD_PROPERTY,
    MAVEN_CHANGE_DEPENDENCY_GROUP_ID_AND_ARTIFACT_ID, MAVEN_CHANGE_PROPERTY_VALUE,
};

/// Recipes that swap a dependency for another and may set its version (`newVersion`).
const SWAPS: &[&str] = &[
    DEPENDENCIES_CHANGE_DEPENDENCY,
    MAVEN_CHANGE_DEPENDENCY_GROUP_ID_AND_ARTIFACT_ID,
    GRADLE_CHANGE_DEPENDENCY,
];
/// Recipes that set one Maven property's value.
const PROPERTY_VALUES: &[&str] = &[MAVEN_CHANGE_PROPERTY_VALUE, MAVEN_ADD_PROPERTY];

/// What the PR's swaps target: the version each new dependency got, resolved through the
/// properties the PR set, and the properties that only carried those versions.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Targets {
    /// `group:artifact` -> the version the PR gave it.
    versions: BTreeMap<String, String>,
    /// Version properties whose new value a swap now writes.
    carriers: BTreeMap<String, String>,
}

impl Targets {
    pub(crate) fn of(tree: &IntentTree) -> Targets {
        let mut values: BTreeMap<&str, &str> = BTreeMap::new();
        for atomic in tree.atomics() {
            match atomic.change() {
                Some(Change::MavenPropertyChange { key, new_value: value, .. })
                | Some(Change::MavenPropertyAdded { key, value, .. }) => {
                    values.insert(key, value);
                }
                _ => {}
            }
        }
        let mut targets = Targets::default();
        for atomic in tree.atomics() {
            let (group, artifact, version) = match atomic.change() {
                Some(Change::MavenDependencySwap { new_group_id, new_artifact_id, new_version, .. })
                | Some(Change::GradleDependencySwap { new_group_id, new_artifact_id, new_version, .. }) => {
                    (new_group_id, new_artifact_id, new_version)
                }
                _ => continue,
            };
            let resolved = match property_reference(version) {
                Some(property) => match values.get(property) {
                    Some(value) => {
                        targets.carriers.insert(property.to_string(), value.to_string());
                        value.to_string()
                    }
                    None => continue,
                },
                None if version.is_empty() => continue,
                None => version.clone(),
            };
            targets.versions.insert(format!("{group}:{artifact}"), resolved);
        }
        targets
    }

    /// `step` with the PR's target version when it swaps to a dependency the PR swapped to, and
    /// a line saying what changed; None when there is nothing to change.
    pub(crate) fn retarget(&self, step: &RecipeStep) -> Option<(RecipeStep, String)> {
        if !SWAPS.contains(&step.name.as_str()) {
            return None;
        }
        let target =
            self.versions.get(&format!("{}:{}", step.text("newGroupId"), step.text("newArtifactId")))?;
        let current = step.text("newVersion");
        if &current == target {
            return None;
        }
        let mut out = step.clone();
        out.options.insert("newVersion".into(), crate::openrewrite::OptionValue::Text(target.clone()));
        let was = if current.is_empty() { "no version".to_string() } else { format!("`{current}`") };
        Some((out, format!("`newVersion: {target}`, the PR's target version (was {was})")))
    }

    /// Whether `step` only sets a property this repository kept a swapped dependency's version
    /// in (the swap now writes that version itself).
    pub(crate) fn carries_a_version(&self, step: &RecipeStep) -> bool {
        if !PROPERTY_VALUES.contains(&step.name.as_str()) {
            return false;
        }
        let key = step.text("key");
        let value = step
            .options
            .get("newValue")
            .or_else(|| step.options.get("value"))
            .map(|v| v.as_text())
            .unwrap_or_default();
        self.carriers.get(&key).is_some_and(|carried| carried == &value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openrewrite::recipe_names::CHANGE_PACKAGE;

    fn tree(intents: serde_json::Value) -> IntentTree {
        IntentTree { intents: serde_json::from_value(intents).unwrap(), ..IntentTree::default() }
    }

    fn atomic(id: &str, kind: &str, params: serde_json::Value) -> serde_json::Value {
        serde_json::json!({"id": id, "level": "atomic", "kind": kind, "title": id, "params": params,
            "evidence": [], "children": []})
    }

    fn swap(version: &str) -> serde_json::Value {
        atomic(
            "1.1",
            "maven.dependency_swap",
            serde_json::json!({"file": "pom.xml", "managed": "false", "old_group_id": "javax.servlet",
                "old_artifact_id": "javax.servlet-api", "new_group_id": "jakarta.servlet",
                "new_artifact_id": "jakarta.servlet-api", "old_version": version, "new_version": version}),
        )
    }

    fn property(key: &str, old: &str, new: &str) -> serde_json::Value {
        atomic(
            "2.1",
            "maven.property_change",
            serde_json::json!({"file": "pom.xml", "key": key, "old_value": old, "new_value": new}),
        )
    }

    fn change_dependency(version: &str) -> RecipeStep {
        RecipeStep::new(SWAPS[0])
            .with("oldGroupId", "javax.servlet")
            .with("oldArtifactId", "javax.servlet-api")
            .with("newGroupId", "jakarta.servlet")
            .with("newArtifactId", "jakarta.servlet-api")
            .with("newVersion", version)
    }

    #[test]
    fn a_swap_gets_the_version_its_property_moved_to_and_the_property_step_goes() {
        let targets = Targets::of(&tree(serde_json::json!([
            swap("${servlet.version}"),
            property("servlet.version", "4.0.1", "6.0.0")
        ])));
        let (step, note) = targets.retarget(&change_dependency("5.0.x")).unwrap();
        assert_eq!(step.options["newVersion"].as_text(), "6.0.0");
        assert_eq!(note, "`newVersion: 6.0.0`, the PR's target version (was `5.0.x`)");
        assert_eq!(targets.retarget(&step), None, "already right");
        let setter =
            RecipeStep::new(PROPERTY_VALUES[0]).with("key", "servlet.version").with("newValue", "6.0.0");
        assert!(targets.carries_a_version(&setter));
        let other =
            RecipeStep::new(PROPERTY_VALUES[0]).with("key", "jacoco.version").with("newValue", "0.8.14");
        assert!(!targets.carries_a_version(&other));
    }

    #[test]
    fn a_literal_version_is_the_target_and_an_unresolved_property_changes_nothing() {
        let targets = Targets::of(&tree(serde_json::json!([swap("6.0.0")])));
        let (step, _) = targets.retarget(&change_dependency("${servlet.version}")).unwrap();
        assert_eq!(step.options["newVersion"].as_text(), "6.0.0");
        let targets = Targets::of(&tree(serde_json::json!([swap("${elsewhere}")])));
        assert_eq!(targets.retarget(&change_dependency("5.0.x")), None);
        let other = RecipeStep::new(CHANGE_PACKAGE).with("oldPackageName", "javax.servlet");
        assert_eq!(targets.retarget(&other), None);
    }
}
