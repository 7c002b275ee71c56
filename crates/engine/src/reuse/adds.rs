//! Dependencies the reusable recipe adds. An `AddDependency` without `onlyIfUsing` adds its
//! artifact to every repository it runs on: on this PR that is what the author did, on the next
//! repository it is a test library where nobody uses it (couchversion's `mockito-junit-jupiter`
//! on a project without Mockito). When the recipe also adds the same artifact under a condition
//! (the catalog's migration writes `onlyIfUsing: org.mockito..MockitoJUnit*Runner`), the
//! condition is the migration's own knowledge of when the artifact is needed, and the
//! unconditional add goes.

use crate::model::PlannedStep;
use crate::openrewrite::RecipeStep;
use crate::openrewrite::recipe_names::{
    DEPENDENCIES_ADD_DEPENDENCY, GRADLE_ADD_DEPENDENCY, MAVEN_ADD_DEPENDENCY,
};

/// The recipes that add a dependency and take `onlyIfUsing`.
const ADD_DEPENDENCY: &[&str] = &[MAVEN_ADD_DEPENDENCY, GRADLE_ADD_DEPENDENCY, DEPENDENCIES_ADD_DEPENDENCY];

/// `groupId:artifactId` a step adds, and whether it adds it only where code uses a type.
fn adds(step: &RecipeStep) -> Option<(String, bool)> {
    if !ADD_DEPENDENCY.contains(&step.name.as_str()) {
        return None;
    }
    let conditional = !step.text("onlyIfUsing").trim().is_empty();
    Some((format!("{}:{}", step.text("groupId"), step.text("artifactId")), conditional))
}

/// Drops each unconditional add of an artifact that another step adds under a condition; one
/// line per step dropped in `changes`.
pub(super) fn drop_unconditional_duplicates(steps: &mut Vec<PlannedStep>, changes: &mut Vec<String>) {
    let conditional: Vec<String> =
        steps.iter().filter_map(|s| adds(&s.step)).filter(|(_, c)| *c).map(|(ga, _)| ga).collect();
    steps.retain(|planned| match adds(&planned.step) {
        Some((ga, false)) if conditional.contains(&ga) => {
            changes.push(format!(
                "left out `{}` of `{ga}`: the recipe adds it where the code uses it (`onlyIfUsing`); unconditionally it would add it to every repository",
                crate::openrewrite::simple_name(&planned.step.name)
            ));
            false
        }
        _ => true,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add(name: &str, artifact: &str, only_if: Option<&str>) -> PlannedStep {
        let mut step = RecipeStep::new(name).with("groupId", "org.mockito").with("artifactId", artifact);
        if let Some(pattern) = only_if {
            step = step.with("onlyIfUsing", pattern);
        }
        PlannedStep::new(step, true, vec!["1".into()], "why.")
    }

    #[test]
    fn an_unconditional_add_goes_when_the_same_artifact_is_added_under_a_condition() {
        let mut steps = vec![
            add(DEPENDENCIES_ADD_DEPENDENCY, "mockito-junit-jupiter", Some("org.mockito..*")),
            add(MAVEN_ADD_DEPENDENCY, "mockito-junit-jupiter", None),
            // Another artifact, and the only add of it: it stays.
            add(MAVEN_ADD_DEPENDENCY, "mockito-core", None),
        ];
        let mut changes = Vec::new();
        drop_unconditional_duplicates(&mut steps, &mut changes);
        let kept: Vec<(String, String)> =
            steps.iter().map(|s| (s.step.name.clone(), s.step.options["artifactId"].as_text())).collect();
        assert_eq!(
            kept,
            vec![
                (DEPENDENCIES_ADD_DEPENDENCY.into(), "mockito-junit-jupiter".into()),
                (MAVEN_ADD_DEPENDENCY.into(), "mockito-core".into()),
            ]
        );
        assert_eq!(changes.len(), 1);
        assert!(changes[0].contains("org.mockito:mockito-junit-jupiter"), "{changes:?}");
    }

    #[test]
    fn two_unconditional_adds_or_two_conditions_stay_as_they_are() {
        let mut steps = vec![
            add(MAVEN_ADD_DEPENDENCY, "mockito-junit-jupiter", None),
            add(GRADLE_ADD_DEPENDENCY, "mockito-junit-jupiter", None),
            add(MAVEN_ADD_DEPENDENCY, "mockito-core", Some("org.mockito.*")),
            add(GRADLE_ADD_DEPENDENCY, "mockito-core", Some("org.mockito..*")),
        ];
        let mut changes = Vec::new();
        drop_unconditional_duplicates(&mut steps, &mut changes);
        assert_eq!(steps.len(), 4);
        assert!(changes.is_empty());
    }
}
