//! The reusable recipe: the recommended recipe reproduces this PR as closely as possible; the
//! reusable one describes the migration, so that it does something on the next repository.
//!
//! From the recommended option it keeps the semantic steps only. Plain-text steps replay this
//! repository's literal text and are left out; a step restricted to some files runs everywhere;
//! options that pin it to this repository (a file pattern naming one file) or to this PR's
//! starting point (the old value or version a change starts from) are dropped when the recipe
//! does not require them. When the PR makes a migration the intent tree names (a strategic intent:
//! a Spring Boot or Java upgrade, javax -> jakarta, …), steps that only do the PR's other changes
//! (a key of the application's own configuration, a repository, an unrelated version bump next to
//! it) are incidental to the migration and left out: on the next repository they would be noise.
//! Each decision is listed, so a reviewer sees what was generalized.

mod adds;
pub(crate) mod composites;
pub mod finish;
pub mod scope;

pub(crate) use scope::incidental_intents;
mod versions;

use std::collections::BTreeSet;

use crate::catalog::Catalog;
use crate::model::intent::IntentTree;
use crate::model::{CandidateOption, Intent, OptionId, PlannedStep};
use crate::openrewrite::recipe_names::{ORDER_IMPORTS, PROPERTIES_ADD_PROPERTY, REMOVE_UNUSED_IMPORTS};

/// Options that say where a change starts from, not what it does: without them a version bump
/// or a value change applies whatever the current value is.
const STARTING_POINT_OPTIONS: &[&str] = &["oldValue", "oldVersion", "currentVersion", "versionPattern"];

/// The reusable recipe, and what was generalized or left out (one line each).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Reusable {
    pub option: CandidateOption,
    pub changes: Vec<String>,
}

/// Generalizes `recommended`; `None` when no semantic step is left.
#[cfg(test)]
pub(crate) fn generalize(
    recommended: &CandidateOption,
    catalog: &Catalog,
    tree: Option<&IntentTree>,
) -> Option<Reusable> {
    generalize_with(recommended, catalog, tree, &[], None)
}

/// Generalizes `recommended`, led by the catalog composites that make its migrations
/// ([`composites::migration_composites`]); `None` when no semantic step is left.
pub(crate) fn generalize_with(
    recommended: &CandidateOption,
    catalog: &Catalog,
    tree: Option<&IntentTree>,
    composites: &[composites::Composite],
    discovery: Option<&crate::discovery::Discovery>,
) -> Option<Reusable> {
    let mut option = CandidateOption::new(OptionId::Reusable, recommended.purpose.clone());
    let mut changes = Vec::new();
    let incidental = tree.map(|t| incidental_intents(t, discovery.map(|d| (d, catalog)))).unwrap_or_default();
    let targets = tree.map(versions::Targets::of).unwrap_or_default();
    let leading = leading_steps(composites, &mut changes);
    // A guarded composite runs only in some modules: the steps it runs stay for the others.
    let runs_it = |planned: &PlannedStep| {
        planned.step.options.is_empty()
            && composites.iter().any(|c| c.guard.is_none() && catalog.runs(&c.step.name, &planned.step.name))
    };
    let mut covering: Vec<PlannedStep> = leading.clone();
    covering.extend(recommended.steps.iter().cloned());
    let missing =
        tree.map(|t| migration_steps_missing(t, &covering, catalog, &incidental)).unwrap_or_default();
    for (intent, step) in &missing {
        changes.push(format!(
            "added `{}` for intent {intent}: the recommended recipe makes that part of the migration as text or with a narrower recipe",
            crate::openrewrite::simple_name(&step.step.name)
        ));
    }
    let own: Vec<&PlannedStep> = recommended
        .steps
        .iter()
        .filter(|planned| {
            let within = runs_it(planned);
            if within {
                changes.push(format!(
                    "left out `{}`: the catalog's migration above runs it",
                    crate::openrewrite::simple_name(&planned.step.name)
                ));
            }
            !within
        })
        .collect();
    for planned in leading.iter().chain(own).chain(missing.iter().map(|(_, step)| step)) {
        let short = crate::openrewrite::simple_name(&planned.step.name).to_string();
        if let Some(why) = left_out_because(planned, &targets, &incidental) {
            changes.push(format!("left out `{short}`: {why}"));
            continue;
        }
        let generalized = generalized(planned, catalog, &targets, &mut changes);
        if !option.steps.iter().any(|s| s.signature() == generalized.signature()) {
            option.steps.push(generalized);
        }
    }
    adds::drop_unconditional_duplicates(&mut option.steps, &mut changes);
    if option.steps.is_empty() {
        return None;
    }
    // Recipes that apply to migrated code follow the migration, the recipes added for its missing
    // parts included.
    let (migration, follow_ups): (Vec<PlannedStep>, Vec<PlannedStep>) =
        std::mem::take(&mut option.steps).into_iter().partition(|s| !s.after_migration);
    option.steps = ahead_of_guards(migration, catalog).into_iter().chain(follow_ups).collect();
    option.notes = changes.clone();
    Some(Reusable { option, changes })
}

/// `steps` with each recipe a guarded umbrella also runs moved ahead of it. OpenRewrite runs a
/// recipe marked `Singleton` (`UpgradeBuildToJava17`) only at its first place in the whole recipe
/// tree and drops the others: first inside the umbrella, behind its guard, the same recipe listed
/// after it would run nowhere outside the framework's modules (in28's recipe lost its Java 17
/// upgrade on every non-Spring-Boot project). Ahead of it, it runs everywhere, and the umbrella's
/// own copy is the one dropped.
fn ahead_of_guards(steps: Vec<PlannedStep>, catalog: &Catalog) -> Vec<PlannedStep> {
    let mut out: Vec<PlannedStep> = Vec::with_capacity(steps.len());
    for step in steps {
        let umbrella = out.iter().position(|earlier| {
            earlier.guard.is_some()
                && step.guard.is_none()
                && step.step.options.is_empty()
                && catalog.runs(&earlier.step.name, &step.step.name)
        });
        match umbrella {
            Some(at) => out.insert(at, step),
            None => out.push(step),
        }
    }
    out
}

/// The catalog's whole migrations discovery found, leading the reusable recipe.
fn leading_steps(composites: &[composites::Composite], changes: &mut Vec<String>) -> Vec<PlannedStep> {
    composites
        .iter()
        .map(|c| {
            let short = crate::openrewrite::simple_name(&c.step.name);
            changes.push(format!(
                "added `{short}` for intent {}: the whole migration as the catalog writes it (on this PR {} lines right, {} written its own way next to the PR's)",
                c.intent, c.tp, c.rewritten
            ));
            let reason = format!(
                "The catalog's migration for intent {}: discovery ran it on this PR ({} true positives; {} lines written its own way where the PR changed them).",
                c.intent, c.tp, c.rewritten
            );
            let mut planned = PlannedStep::new(c.step.clone(), true, vec![c.intent.clone()], reason);
            if let Some(guard) = &c.guard {
                changes.push(format!(
                    "`{short}` runs only in modules with a dependency on `{}:{}` (a `ModuleHasDependency` precondition): elsewhere the whole upgrade would rewrite code its migration is not about",
                    guard.text("groupIdPattern"),
                    guard.text("artifactIdPattern"),
                ));
            }
            planned.guard = c.guard.clone();
            planned
        })
        .collect()
}

/// Why a step stays out of the reusable recipe (None: it belongs in it).
fn left_out_because(
    planned: &PlannedStep,
    targets: &versions::Targets,
    incidental: &BTreeSet<String>,
) -> Option<String> {
    if !planned.semantic {
        return Some("plain text pinned to this repository".into());
    }
    if is_layout(&planned.step.name) {
        return Some("it lays code out in this repository's style, which is not the migration".into());
    }
    if targets.carries_a_version(&planned.step) {
        return Some(
            "it sets this repository's version property; the swap writes that version itself".into(),
        );
    }
    if !planned.intents.is_empty() && planned.intents.iter().all(|id| incidental.contains(id)) {
        return Some(format!(
            "it does what the PR does besides its migration (intent {})",
            planned.intents.join(", ")
        ));
    }
    None
}

/// `planned` made fit for other repositories: its files by name, its options that pin this
/// repository's starting point dropped, its versions retargeted; each change said in `changes`.
fn generalized(
    planned: &PlannedStep,
    catalog: &Catalog,
    targets: &versions::Targets,
    changes: &mut Vec<String>,
) -> PlannedStep {
    let short = crate::openrewrite::simple_name(&planned.step.name).to_string();
    let mut step = planned.step.clone();
    // A recipe that would change every file of its kind (a key added to every properties
    // file) keeps its files, by name: the same files of the next repository.
    let by_name: Vec<String> = if step.name == PROPERTIES_ADD_PROPERTY && !planned.scope.is_empty() {
        let names: std::collections::BTreeSet<String> =
            planned.scope.iter().map(|f| format!("**/{}", f.rsplit('/').next().unwrap_or(f))).collect();
        changes.push(format!("`{short}` runs on {}, not only {}", join(&names), planned.scope.join(", ")));
        names.into_iter().collect()
    } else {
        if !planned.scope.is_empty() {
            changes.push(format!("`{short}` runs on every file, not only {}", planned.scope.join(", ")));
        }
        Vec::new()
    };
    let optional = |key: &str| {
        catalog.get(&step.name).is_some_and(|r| r.options.iter().any(|o| o.name == key && !o.required))
    };
    let pinned: Vec<String> = step
        .options
        .iter()
        .filter(|(key, value)| {
            let path_like = key.as_str() == "filePattern" && !has_wildcard(&value.as_text());
            (path_like || STARTING_POINT_OPTIONS.contains(&key.as_str())) && optional(key)
        })
        .map(|(key, _)| key.clone())
        .collect();
    for key in pinned {
        let value = step.options.remove(&key).map(|v| v.as_text()).unwrap_or_default();
        changes.push(format!(
            "`{short}`: dropped `{key}: {value}` (pins it to this repository's starting point)"
        ));
    }
    if let Some((retargeted, note)) = targets.retarget(&step) {
        step = retargeted;
        changes.push(format!("`{short}`: {note}"));
    }
    let reason = format!("{} Generalized for other repositories.", planned.reason);
    let mut generalized = PlannedStep::new(step, true, planned.intents.clone(), reason);
    generalized.scope = by_name;
    generalized.learned = planned.learned;
    generalized.after_previous = planned.after_previous;
    generalized.after_migration = planned.after_migration;
    generalized.guard = planned.guard.clone();
    generalized
}

/// Narrow semantic recipes for the migration's own changes that the recommended recipe makes only
/// as text (its semantic recipe wrote the line a little differently than the PR, say with the
/// PR's trailing comment), or only with a recipe narrower than the change: this PR is reproduced
/// best by those, the next repository is served by the change's own recipe. `(intent id, step)`
/// in tree order.
fn migration_steps_missing(
    tree: &IntentTree,
    steps: &[PlannedStep],
    catalog: &Catalog,
    incidental: &BTreeSet<String>,
) -> Vec<(String, PlannedStep)> {
    // An atomic change is covered by a recipe made for its group (a migration composite), or by
    // its own narrow recipe. A recipe discovery found for some of its lines (a Refaster rule for
    // `checkNotNull(x, message)` only) reproduced this PR but is narrower than the change itself.
    // A guarded step (an umbrella upgrade) covers only the modules its guard lets it into.
    let covered = |intent: &Intent, own: &[crate::openrewrite::RecipeStep]| {
        steps.iter().filter(|s| s.semantic && s.guard.is_none()).any(|s| {
            s.intents.iter().any(|by| {
                intent.id.starts_with(&format!("{by}."))
                    || (intent.id == *by && own.iter().any(|o| o.name == s.step.name))
            })
        })
    };
    let mut out = Vec::new();
    for intent in tree.atomics().into_iter().filter(|i| !incidental.contains(&i.id)) {
        let Some(steps) = crate::mapping::narrow::semantic_steps(intent) else { continue };
        if covered(intent, &steps) {
            continue;
        }
        if steps.iter().any(|s| crate::mapping::check_step(catalog, s).is_err()) {
            continue;
        }
        for (index, step) in steps.into_iter().enumerate() {
            let reason = crate::mapping::narrow::reason(intent, &step);
            let mut planned = PlannedStep::new(step, true, vec![intent.id.clone()], reason);
            planned.after_previous = index > 0;
            planned.scope = crate::mapping::narrow::scope(intent);
            out.push((intent.id.clone(), planned));
        }
    }
    out
}

/// Recipes that only lay code out (order imports, indent, wrap, drop unused imports): the PR's
/// lines they explain are this repository's style. On the next repository they rearrange every
/// file that does not follow the style detected there (import order across a whole codebase).
fn is_layout(name: &str) -> bool {
    const FORMAT_PACKAGES: &[&str] = &[
        "org.openrewrite.java.format.",
        "org.openrewrite.xml.format.",
        "org.openrewrite.yaml.format.",
        "org.openrewrite.json.format.",
        "org.openrewrite.groovy.format.",
        "org.openrewrite.kotlin.format.",
        "org.openrewrite.format.",
        // Cleanups of the POM's own style (explicit plugin group ids, prefixless expressions).
        "org.openrewrite.maven.cleanup.",
    ];
    const LAYOUT: &[&str] = &[ORDER_IMPORTS, REMOVE_UNUSED_IMPORTS];
    FORMAT_PACKAGES.iter().any(|p| name.starts_with(p)) || LAYOUT.contains(&name)
}

fn join(names: &std::collections::BTreeSet<String>) -> String {
    names.iter().cloned().collect::<Vec<_>>().join(", ")
}

fn has_wildcard(pattern: &str) -> bool {
    pattern.contains(['*', '?', '['])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openrewrite::RecipeStep;
    use crate::openrewrite::recipe_names::{
        ADD_SPRING_PROPERTY, CHANGE_PACKAGE, CHANGE_TYPE, FIND_AND_REPLACE, MODULE_HAS_DEPENDENCY,
        PROPERTIES_CHANGE_PROPERTY_VALUE, YAML_CHANGE_PROPERTY_VALUE,
    };

    fn planned(step: RecipeStep, semantic: bool) -> PlannedStep {
        PlannedStep::new(step, semantic, vec!["1".into()], "why.")
    }

    #[test]
    fn text_steps_go_scopes_and_pinned_optional_options_are_dropped() {
        let mut scoped = planned(
            RecipeStep::new(CHANGE_TYPE)
                .with("oldFullyQualifiedTypeName", "a.B")
                .with("newFullyQualifiedTypeName", "c.B"),
            true,
        );
        scoped.scope = vec!["src/A.java".into()];
        let value = planned(
            RecipeStep::new(PROPERTIES_CHANGE_PROPERTY_VALUE)
                .with("propertyKey", "app.greeting")
                .with("newValue", "hello world")
                .with("oldValue", "hello"),
            true,
        );
        let yaml = planned(
            RecipeStep::new(YAML_CHANGE_PROPERTY_VALUE)
                .with("propertyKey", "jobs.build.runs-on")
                .with("newValue", "ubuntu-24.04")
                .with("filePattern", ".github/workflows/*.yml"),
            true,
        );
        let one_file = planned(
            RecipeStep::new(YAML_CHANGE_PROPERTY_VALUE)
                .with("propertyKey", "jobs.build.timeout-minutes")
                .with("newValue", "30")
                .with("filePattern", ".github/workflows/build.yml"),
            true,
        );
        let text = planned(RecipeStep::new(FIND_AND_REPLACE).with("find", "x").with("replace", "y"), false);
        let recommended = CandidateOption {
            steps: vec![scoped, value, yaml, one_file, text],
            ..CandidateOption::new(OptionId::Synthesized, "Migrate")
        };
        let reusable = generalize(&recommended, Catalog::enriched(), None).unwrap();
        let signatures: Vec<String> = reusable.option.steps.iter().map(|s| s.signature()).collect();
        assert_eq!(
            signatures,
            vec![
                "org.openrewrite.java.ChangeType newFullyQualifiedTypeName=c.B oldFullyQualifiedTypeName=a.B",
                "org.openrewrite.properties.ChangePropertyValue newValue=hello world propertyKey=app.greeting",
                "org.openrewrite.yaml.ChangePropertyValue filePattern=.github/workflows/*.yml newValue=ubuntu-24.04 propertyKey=jobs.build.runs-on",
                "org.openrewrite.yaml.ChangePropertyValue newValue=30 propertyKey=jobs.build.timeout-minutes",
            ]
        );
        assert!(reusable.option.steps.iter().all(|s| s.semantic && s.scope.is_empty()));
        assert_eq!(reusable.changes.len(), 4, "{:?}", reusable.changes);
        assert!(reusable.changes.iter().any(|c| c.contains("left out `FindAndReplace`")));
        assert!(reusable.option.to_yaml().contains("name: \"rewriteassist.Option4Reusable\""));

        // A key added to some properties files keeps to files of those names, anywhere.
        let mut added = planned(
            RecipeStep::new(PROPERTIES_ADD_PROPERTY).with("property", "app.mode").with("value", "fast"),
            true,
        );
        added.scope = vec!["a/messages.properties".into(), "b/messages.properties".into()];
        let recommended =
            CandidateOption { steps: vec![added], ..CandidateOption::new(OptionId::Narrow, "Add a key") };
        let reusable = generalize(&recommended, Catalog::enriched(), None).unwrap();
        assert_eq!(reusable.option.steps[0].scope, ["**/messages.properties"]);
        assert!(reusable.changes[0].contains("runs on **/messages.properties"), "{:?}", reusable.changes);
    }

    #[test]
    fn a_part_of_the_migration_the_recommended_recipe_makes_as_text_gets_its_recipe() {
        let tree: IntentTree = IntentTree {
            intents: serde_json::from_value(serde_json::json!([{
                "id": "1", "level": "strategic", "kind": "upgrade_java", "title": "Upgrade Java 8 -> 17",
                "params": {"from": "8", "to": "17"}, "evidence": [], "children": [{
                    "id": "1.1", "level": "atomic", "kind": "maven.property_change", "title": "java.version",
                    "params": {"key": "java.version", "old_value": "1.8", "new_value": "17", "file": "pom.xml"},
                    "evidence": [], "children": []
                }]
            }]))
            .unwrap(),
            ..IntentTree::default()
        };
        // The PR wrote `<java.version>17</java.version> <!-- was 1.8 -->`: text reproduces it.
        let text =
            planned(RecipeStep::new(FIND_AND_REPLACE).with("find", "1.8").with("replace", "17"), false);
        let other = planned(RecipeStep::new("org.openrewrite.java.migrate.UpgradeBuildToJava17"), true);
        let mut other = other;
        other.intents = vec![];
        let recommended = CandidateOption {
            steps: vec![text.clone(), other],
            ..CandidateOption::new(OptionId::Synthesized, "Upgrade")
        };
        let reusable = generalize(&recommended, Catalog::enriched(), Some(&tree)).unwrap();
        let signatures: Vec<String> = reusable.option.steps.iter().map(|s| s.signature()).collect();
        assert_eq!(
            signatures,
            [
                "org.openrewrite.java.migrate.UpgradeBuildToJava17",
                "org.openrewrite.maven.ChangePropertyValue key=java.version newValue=17"
            ]
        );
        assert!(reusable.changes.iter().any(|c| c.starts_with("added `ChangePropertyValue` for intent 1.1")));
        // Covered by a semantic step already: nothing is added.
        let mut covering =
            planned(RecipeStep::new("org.openrewrite.java.migrate.UpgradeBuildToJava17"), true);
        covering.intents = vec!["1".into()];
        let recommended = CandidateOption {
            steps: vec![text, covering],
            ..CandidateOption::new(OptionId::Synthesized, "")
        };
        let reusable = generalize(&recommended, Catalog::enriched(), Some(&tree)).unwrap();
        assert_eq!(reusable.option.steps.len(), 1);
    }

    #[test]
    fn a_migration_composite_leads_and_the_recipes_it_runs_go() {
        let member = planned(
            RecipeStep::new("org.openrewrite.java.testing.junit5.UpdateBeforeAfterAnnotations"),
            true,
        );
        let narrow = planned(
            RecipeStep::new(CHANGE_TYPE)
                .with("oldFullyQualifiedTypeName", "org.junit.Test")
                .with("newFullyQualifiedTypeName", "org.junit.jupiter.api.Test"),
            true,
        );
        let recommended = CandidateOption {
            steps: vec![member, narrow],
            ..CandidateOption::new(OptionId::Synthesized, "Migrate JUnit")
        };
        let composite = composites::Composite {
            intent: "1".into(),
            step: RecipeStep::new("org.openrewrite.java.testing.junit5.JUnit4to5Migration"),
            tp: 59,
            rewritten: 21,
            guard: None,
        };
        let reusable = generalize_with(&recommended, Catalog::enriched(), None, &[composite], None).unwrap();
        let names: Vec<&str> = reusable.option.steps.iter().map(|s| s.step.name.as_str()).collect();
        assert_eq!(
            names,
            ["org.openrewrite.java.testing.junit5.JUnit4to5Migration", "org.openrewrite.java.ChangeType"]
        );
        assert!(
            reusable.changes[0].starts_with("added `JUnit4to5Migration` for intent 1: the whole migration")
        );
        assert!(
            reusable.changes.iter().any(
                |c| c == "left out `UpdateBeforeAfterAnnotations`: the catalog's migration above runs it"
            )
        );
    }

    #[test]
    fn a_guarded_upgrade_runs_in_its_wrapper_after_the_recipes_it_runs_which_stay_for_other_modules() {
        let member = planned(RecipeStep::new("org.openrewrite.java.migrate.UpgradeBuildToJava17"), true);
        let recommended = CandidateOption {
            steps: vec![member],
            ..CandidateOption::new(OptionId::Synthesized, "Upgrade Spring Boot")
        };
        let boot = "org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_1";
        assert!(Catalog::enriched().runs(boot, "org.openrewrite.java.migrate.UpgradeBuildToJava17"));
        let guard = RecipeStep::new(MODULE_HAS_DEPENDENCY)
            .with("groupIdPattern", "org.springframework.boot")
            .with("artifactIdPattern", "*");
        let composite = composites::Composite {
            intent: "1".into(),
            step: RecipeStep::new(boot),
            tp: 8,
            rewritten: 1,
            guard: Some(guard.clone()),
        };
        let reusable = generalize_with(&recommended, Catalog::enriched(), None, &[composite], None).unwrap();
        let steps = &reusable.option.steps;
        // The Java 17 build upgrade, a `Singleton` the umbrella runs too, goes first: OpenRewrite
        // runs such a recipe only at its first place, which must not be behind the guard.
        assert_eq!(
            steps.iter().map(|s| (s.step.name.as_str(), s.guard.is_some())).collect::<Vec<_>>(),
            [("org.openrewrite.java.migrate.UpgradeBuildToJava17", false), (boot, true)]
        );
        assert!(reusable.changes.iter().any(|c| c.contains("runs only in modules with a dependency on `org.springframework.boot:*`")));
        let yaml = reusable.option.to_yaml();
        let file = crate::openrewrite::RecipeFile::parse(&yaml).unwrap();
        let wrapper = file.get(&reusable.option.scoped_name(1)).expect("the upgrade's wrapper");
        assert_eq!(wrapper.preconditions, vec![guard]);
        assert_eq!(reusable.option.reported_name(1), reusable.option.scoped_name(1));
    }

    #[test]
    fn recipes_that_only_lay_code_out_are_left_out() {
        let mut order = planned(RecipeStep::new(ORDER_IMPORTS), true);
        order.scope = vec!["src/test/java/AcceptEncodingTest.java".into()];
        let spaces = planned(RecipeStep::new("org.openrewrite.java.format.Spaces"), true);
        let move_package = planned(
            RecipeStep::new(CHANGE_PACKAGE)
                .with("oldPackageName", "javax.servlet")
                .with("newPackageName", "jakarta.servlet"),
            true,
        );
        let recommended = CandidateOption {
            steps: vec![move_package, order, spaces],
            ..CandidateOption::new(OptionId::Synthesized, "Migrate")
        };
        let reusable = generalize(&recommended, Catalog::enriched(), None).unwrap();
        let names: Vec<&str> = reusable.option.steps.iter().map(|s| s.step.name.as_str()).collect();
        assert_eq!(names, ["org.openrewrite.java.ChangePackage"]);
        assert!(reusable.changes.iter().any(|c| c.starts_with("left out `OrderImports`: it lays code out")));
    }

    #[test]
    fn a_change_made_by_a_narrower_recipe_gets_its_own_recipe_too() {
        let tree: IntentTree = IntentTree {
            intents: serde_json::from_value(serde_json::json!([{
                "id": "1", "level": "tactical", "kind": "change_static_calls", "title": "Change static call targets",
                "params": {}, "evidence": [], "children": [{
                    "id": "1.1", "level": "atomic", "kind": "java.static_call_target", "title": "checkNotNull",
                    "params": {"method": "checkNotNull", "old_type": "com.google.common.base.Preconditions",
                        "new_type": "java.util.Objects", "new_method": "requireNonNull", "file": "A.java"},
                    "evidence": [], "children": []
                }]
            }]))
            .unwrap(),
            ..IntentTree::default()
        };
        // Discovery's Refaster rule covers `checkNotNull(x, message)` only.
        let mut refaster = planned(
            RecipeStep::new(
                "org.openrewrite.java.migrate.guava.NoGuavaRefasterRecipes$PreconditionsCheckNotNullWithMessageToObjectsRequireNonNullRecipe",
            ),
            true,
        );
        refaster.intents = vec!["1.1".into()];
        let recommended =
            CandidateOption { steps: vec![refaster], ..CandidateOption::new(OptionId::Synthesized, "") };
        let reusable = generalize(&recommended, Catalog::enriched(), Some(&tree)).unwrap();
        let names: Vec<&str> = reusable.option.steps.iter().map(|s| s.step.name.as_str()).collect();
        assert_eq!(
            names[1..],
            ["org.openrewrite.java.ChangeMethodTargetToStatic", "org.openrewrite.java.ChangeMethodName"],
            "{names:?}"
        );
    }

    #[test]
    fn a_recipe_of_text_only_has_no_reusable_form() {
        let text = planned(RecipeStep::new(FIND_AND_REPLACE).with("find", "x").with("replace", "y"), false);
        let recommended =
            CandidateOption { steps: vec![text], ..CandidateOption::new(OptionId::Narrow, "Edit") };
        assert_eq!(generalize(&recommended, Catalog::enriched(), None), None);
    }

    #[test]
    fn steps_outside_the_migration_are_left_out_when_the_pr_makes_one() {
        let node = |id: &str, level: &str, kind: &str, children: serde_json::Value| {
            let mut node = serde_json::json!({
                "id": id, "level": level, "kind": kind, "title": kind, "params": {}, "evidence": [],
                "children": children
            });
            if level == "atomic" {
                node["params"] = serde_json::json!({ "key": "app.mode", "value": "fast", "file": "src/main/resources/application.properties" });
            }
            node
        };
        let atomic = |id: &str| node(id, "atomic", "properties.key_added", serde_json::json!([]));
        let tree = |with_migration: bool| -> IntentTree {
            let first = if with_migration {
                node("1", "strategic", "migrate_javax_to_jakarta", serde_json::json!([atomic("1.1")]))
            } else {
                node("1", "tactical", "update_config_keys", serde_json::json!([atomic("1.1")]))
            };
            let second = node("2", "tactical", "update_config_keys", serde_json::json!([atomic("2.1")]));
            let intents: Vec<Intent> = serde_json::from_value(serde_json::json!([first, second])).unwrap();
            IntentTree { intents, ..IntentTree::default() }
        };
        let step = |key: &str, intents: &[&str]| {
            let mut p =
                planned(RecipeStep::new(ADD_SPRING_PROPERTY).with("property", key).with("value", "x"), true);
            p.intents = intents.iter().map(|i| i.to_string()).collect();
            p
        };
        let recommended = CandidateOption {
            steps: vec![step("a", &["1.1"]), step("b", &["2.1"]), step("c", &["1.1", "2.1"]), step("d", &[])],
            ..CandidateOption::new(OptionId::Synthesized, "Upgrade")
        };
        let kept = |tree: &IntentTree| -> Vec<String> {
            generalize(&recommended, Catalog::enriched(), Some(tree))
                .unwrap()
                .option
                .steps
                .iter()
                .map(|s| s.step.options["property"].as_text())
                .collect()
        };
        assert_eq!(kept(&tree(true)), ["a", "c", "d"]);
        assert_eq!(kept(&tree(false)), ["a", "b", "c", "d"], "no migration named: all of it is the change");
        // Without a migration named, a group much smaller than the largest is side work.
        let mut uneven = tree(false);
        let line = |n: u32| crate::model::ChangeLine {
            path: "a.properties".into(),
            kind: crate::diff::ChangeKind::Added,
            line: n,
            content: format!("k{n}=v"),
        };
        uneven.intents[0].children[0].evidence = (1..=8).map(line).collect();
        uneven.intents[1].children[0].evidence = vec![line(9)];
        assert_eq!(kept(&uneven), ["a", "c", "d"], "8 lines against 1");
        uneven.intents[1].children[0].evidence = (9..=10).map(line).collect();
        assert_eq!(kept(&uneven), ["a", "b", "c", "d"], "8 lines against 2: comparable");
        let reusable = generalize(&recommended, Catalog::enriched(), Some(&tree(true))).unwrap();
        assert!(
            reusable.changes.iter().any(|c| c.contains("besides its migration (intent 2.1)")),
            "{:?}",
            reusable.changes
        );
    }
}
