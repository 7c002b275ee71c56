//! Learned Gradle steps (#39, item 4): where an option still writes a Gradle build script's line as
//! text because OpenRewrite's catalog cannot make it — a Kotlin `jvmTarget` assigned as
//! `kotlinOptions.jvmTarget = '1.8'` (which `UpgradeKotlinJvmTargetVersion` skips), one dependency's
//! version removed (which only `RemoveRedundantDependencyVersions` does, deleting a Lombok of the
//! same coordinates in another configuration on the way) — the PR's intent gives the options of one
//! of the runner's own Gradle recipes (`rewriteassist.learned.gradle`). They travel in the learned
//! jar (`gradle_recipes`), so the build plugins load them on the next repository.

use crate::model::intent::IntentTree;
use crate::model::{Change, PlannedStep};
use crate::openrewrite::RecipeStep;

/// Sets a property a build script assigns by name, wherever it is nested.
pub(crate) const CHANGE_PROPERTY_VALUE: &str = "rewriteassist.learned.gradle.ChangeGradlePropertyValue";
/// Removes one dependency's version and nothing else.
pub(crate) const REMOVE_DEPENDENCY_VERSION: &str =
    "rewriteassist.learned.gradle.RemoveGradleDependencyVersion";
/// The package of both: a recipe list naming one needs the learned jar.
pub(crate) const PACKAGE: &str = "rewriteassist.learned.gradle.";

/// One learned step for each intent of `text_steps` that a Gradle recipe of ours makes, in the
/// order of the steps (one step per distinct recipe and options).
pub(crate) fn steps(tree: &IntentTree, text_steps: &[&PlannedStep]) -> Vec<PlannedStep> {
    let atomics = tree.atomics();
    let mut out: Vec<PlannedStep> = Vec::new();
    for id in text_steps.iter().flat_map(|s| s.intents.iter()) {
        let Some(intent) = atomics.iter().find(|i| &i.id == id) else { continue };
        let Some((step, reason)) = intent.change().and_then(step_for) else { continue };
        match out.iter_mut().find(|s| s.step == step) {
            Some(existing) if !existing.intents.contains(id) => existing.intents.push(id.clone()),
            Some(_) => {}
            None => {
                let mut planned = PlannedStep::new(step, true, vec![id.clone()], reason);
                planned.learned = true;
                out.push(planned);
            }
        }
    }
    out
}

/// `steps` without the text steps whose every intent one of the learned Gradle `learned` steps
/// makes: they would find nothing left to replace. Should a learned step not make its line after
/// all, the option loses that line and the decision keeps the one with the text step.
pub(crate) fn without_replaced_text(steps: &mut Vec<PlannedStep>, learned: &[PlannedStep]) {
    let covered: std::collections::BTreeSet<&String> = learned.iter().flat_map(|s| &s.intents).collect();
    steps.retain(|s| s.semantic || s.intents.is_empty() || !s.intents.iter().all(|i| covered.contains(i)));
}

/// The recipe and why, for a change the catalog leaves to text.
fn step_for(change: &Change) -> Option<(RecipeStep, String)> {
    match change {
        Change::GradleDependencyVersion { group_id, artifact_id, new_version, configuration, .. }
            if new_version.is_empty() =>
        {
            let mut step = RecipeStep::new(REMOVE_DEPENDENCY_VERSION)
                .with("groupId", group_id)
                .with("artifactId", artifact_id);
            if !configuration.is_empty() {
                step = step.with("configuration", configuration);
            }
            Some((
                step,
                format!(
                    "{group_id}:{artifact_id} loses its version ({configuration}); the catalog's only recipe that \
                     removes one also deletes dependencies of the same coordinates in other configurations"
                ),
            ))
        }
        // Only a plain value: the recipe rewrites string literals (`'17'`), not `JavaVersion.VERSION_17`.
        Change::GradleJavaCompatibility { property, new_value, .. }
            if !new_value.is_empty() && new_value.chars().all(|c| c.is_ascii_digit() || c == '.') =>
        {
            let step = RecipeStep::new(CHANGE_PROPERTY_VALUE)
                .with("propertyName", property)
                .with("newValue", new_value);
            Some((step, format!("{property} = '{new_value}' wherever the build script assigns it")))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::intent::{Intent, Node};

    fn tree(changes: Vec<Change>) -> IntentTree {
        let intents: Vec<Intent> = changes
            .into_iter()
            .enumerate()
            .map(|(i, change)| Intent {
                id: format!("1.{}", i + 1),
                node: Node::Atomic { change, file: "build.gradle".into(), files: None },
                title: "t".into(),
                labels: Vec::new(),
                evidence: Vec::new(),
                children: Vec::new(),
            })
            .collect();
        IntentTree { intents, ..IntentTree::default() }
    }

    fn text_step(intents: &[&str]) -> PlannedStep {
        PlannedStep::new(
            RecipeStep::new("org.openrewrite.text.FindAndReplace"),
            false,
            intents.iter().map(|s| s.to_string()).collect(),
            "text",
        )
    }

    #[test]
    fn a_removed_version_and_a_plain_jvm_target_become_learned_steps_and_nothing_else_does() {
        let tree = tree(vec![
            Change::GradleDependencyVersion {
                group_id: "org.springframework.boot".into(),
                artifact_id: "spring-boot-starter-web".into(),
                old_version: "2.6.7".into(),
                new_version: String::new(),
                configuration: "implementation".into(),
            },
            Change::GradleJavaCompatibility {
                property: "jvmTarget".into(),
                old_value: "1.8".into(),
                new_value: "17".into(),
            },
            Change::GradleJavaCompatibility {
                property: "sourceCompatibility".into(),
                old_value: "JavaVersion.VERSION_11".into(),
                new_value: "JavaVersion.VERSION_17".into(),
            },
            Change::GradleDependencyVersion {
                group_id: "com.google.guava".into(),
                artifact_id: "guava".into(),
                old_version: "31.1-jre".into(),
                new_version: "32.1.3-jre".into(),
                configuration: "implementation".into(),
            },
        ]);
        let steps = steps(&tree, &[&text_step(&["1.1", "1.2"]), &text_step(&["1.3", "1.4", "1.1"])]);
        assert_eq!(steps.len(), 2, "{steps:#?}");
        assert!(steps.iter().all(|s| s.learned && s.semantic));
        assert_eq!(steps[0].step.name, REMOVE_DEPENDENCY_VERSION);
        assert_eq!(steps[0].step.options["configuration"].as_text(), "implementation");
        assert_eq!(steps[0].intents, vec!["1.1"]);
        assert_eq!(steps[1].step.name, CHANGE_PROPERTY_VALUE);
        assert_eq!(steps[1].step.options["propertyName"].as_text(), "jvmTarget");
        assert_eq!(steps[1].step.options["newValue"].as_text(), "17");
        // Intents of semantic steps are not looked at.
        assert!(super::steps(&tree, &[]).is_empty());

        // The text step of 1.1 and 1.2 goes; the one that also writes 1.3 and 1.4 stays.
        let mut option = vec![text_step(&["1.1", "1.2"]), text_step(&["1.3", "1.4", "1.1"]), text_step(&[])];
        without_replaced_text(&mut option, &steps);
        assert_eq!(option.iter().map(|s| s.intents.len()).collect::<Vec<_>>(), vec![3, 0]);
    }
}
