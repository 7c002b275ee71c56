//! Synthesis on validation results written by hand: which steps survive and what is added.

use std::collections::BTreeMap;

use super::*;
use crate::model::intent::Intent;
use crate::model::{Attribution, Metrics, StepLines, Strategy, TestCounts, Timings};
use crate::openrewrite::recipe_names::{CHANGE_PACKAGE, FIND_AND_REPLACE};

const PR: &str = "diff --git a/src/A.java b/src/A.java
--- a/src/A.java
+++ b/src/A.java
@@ -1,3 +1,3 @@
 package a;
-import javax.x.Thing;
+import jakarta.x.Thing;
 class A {}
diff --git a/Dockerfile b/Dockerfile
--- a/Dockerfile
+++ b/Dockerfile
@@ -1,2 +1,2 @@
-FROM eclipse-temurin:11-jre
+FROM eclipse-temurin:17-jre
 WORKDIR /app
";

fn line(path: &str, kind: ChangeKind, content: &str) -> ChangeLine {
    ChangeLine { path: path.into(), kind, line: 2, content: content.into() }
}

/// An atomic intent as `intent-tree.json` has it (every param of the kind given).
fn atomic(id: &str, kind: &str, params: &[(&str, &str)], evidence: Vec<ChangeLine>) -> Intent {
    let params: BTreeMap<&str, &str> = params.iter().copied().collect();
    let json = serde_json::json!({
        "id": id, "level": "atomic", "kind": kind, "title": kind, "params": params,
        "evidence": evidence, "children": []
    });
    serde_json::from_value(json).unwrap_or_else(|e| panic!("{kind}: {e}"))
}

fn tree() -> IntentTree {
    let java = vec![
        line("src/A.java", ChangeKind::Removed, "import javax.x.Thing;"),
        line("src/A.java", ChangeKind::Added, "import jakarta.x.Thing;"),
    ];
    let docker = vec![
        line("Dockerfile", ChangeKind::Removed, "FROM eclipse-temurin:11-jre"),
        line("Dockerfile", ChangeKind::Added, "FROM eclipse-temurin:17-jre"),
    ];
    IntentTree {
        intents: vec![
            atomic(
                "1",
                "java.package_move",
                &[("old_package", "javax.x"), ("new_package", "jakarta.x"), ("file", "src/A.java")],
                java,
            ),
            atomic(
                "2",
                "docker.from_change",
                &[
                    ("old_image", "eclipse-temurin"),
                    ("old_tag", "11-jre"),
                    ("new_image", "eclipse-temurin"),
                    ("new_tag", "17-jre"),
                    ("file", "Dockerfile"),
                ],
                docker,
            ),
        ],
        ..IntentTree::default()
    }
}

fn stats(
    option: &CandidateOption,
    attribution: Vec<(&str, &str)>,
    tp: Vec<ChangeLine>,
    fp: Vec<ChangeLine>,
) -> ValidationStats {
    ValidationStats {
        recipe_name: option.recipe_name(),
        build_tool: Some("maven".into()),
        jdk: Some(17),
        command: None,
        recipe_artifacts: vec![],
        metrics: Metrics { true_positive_lines: tp, false_positive_lines: fp, ..Metrics::default() },
        timings: Timings::default(),
        attribution: attribution
            .into_iter()
            .map(|(path, recipe)| Attribution {
                source_path: path.into(),
                after_source_path: path.into(),
                parent_recipe: option.recipe_name(),
                recipe: recipe.into(),
                options: String::new(),
            })
            .collect(),
        tests: TestCounts::default(),
        warnings: vec![],
        error: None,
        backend: None,
        left_out: vec![],
        confirmation: None,
        step_lines: Vec::new(),
        whole_steps_by_file: Default::default(),
        migration: None,
        residual: None,
        unresolved: None,
        result_types: Default::default(),
    }
}

/// The base commit's files of [`PR`].
fn base(path: &str) -> Option<String> {
    match path {
        "src/A.java" => Some("package a;\nimport javax.x.Thing;\nclass A {}\n".to_string()),
        "Dockerfile" => Some("FROM eclipse-temurin:11-jre\nWORKDIR /app\n".to_string()),
        _ => None,
    }
}

fn wide_option(recipe: &str) -> CandidateOption {
    CandidateOption {
        steps: vec![planned(RecipeStep::new(recipe))],
        ..CandidateOption::new(crate::model::OptionId::Wide, "")
    }
}

/// Option 3 from one validated option.
fn synthesize_one(
    tree: &IntentTree,
    pr: &Diff,
    base: BaseFile<'_>,
    option: &CandidateOption,
    stats: &ValidationStats,
) -> CandidateOption {
    synthesize(tree, pr, Catalog::enriched(), base, &[Evaluated { option, stats }], &[], Form::Migration)
}

fn step_names(option: &CandidateOption) -> Vec<&str> {
    option.steps.iter().map(|s| s.step.name.as_str()).collect()
}

fn planned(step: RecipeStep) -> PlannedStep {
    PlannedStep::new(step, true, vec![], "test")
}

#[test]
fn clean_steps_stay_over_applying_ones_go_and_missing_lines_get_text() {
    let tree = tree();
    let pr = crate::diff::parse_all(PR).unwrap();
    let catalog = Catalog::enriched();
    let wide_name = "org.openrewrite.java.migrate.UpgradeToJava17";
    let wide = wide_option(wide_name);
    let change_package = RecipeStep::new(CHANGE_PACKAGE)
        .with("oldPackageName", "javax.x")
        .with("newPackageName", "jakarta.x")
        .with_bool("recursive", false);
    // Exactly the step option 2 composes for the Docker intent.
    let change_from = mapping::narrow::semantic_steps(&tree.intents[1]).unwrap().remove(0);
    let narrow = CandidateOption {
        steps: vec![planned(change_package.clone()), planned(change_from.clone())],
        ..CandidateOption::new(crate::model::OptionId::Narrow, "")
    };
    let java_tp = tree.intents[0].evidence.clone();
    // Option 1 got the Java lines right but wrote the wrong Docker tag.
    let wide_stats = stats(
        &wide,
        vec![("src/A.java", wide_name), ("Dockerfile", wide_name)],
        java_tp.clone(),
        vec![line("Dockerfile", ChangeKind::Added, "FROM eclipse-temurin:21-jre")],
    );
    // Option 2's ChangePackage was exact; its ChangeFrom changed nothing.
    let narrow_stats = stats(&narrow, vec![("src/A.java", CHANGE_PACKAGE)], java_tp, vec![]);

    let evaluated = [
        Evaluated { option: &wide, stats: &wide_stats },
        Evaluated { option: &narrow, stats: &narrow_stats },
    ];
    let effects_1 = effects(&wide, &wide_stats, Some(&tree));
    assert_eq!(effects_1[0].kind, EffectKind::OverApplying);
    let effects_2 = effects(&narrow, &narrow_stats, Some(&tree));
    assert_eq!(effects_2[0].kind, EffectKind::Clean);
    assert_eq!(effects_2[1].kind, EffectKind::NoEffect);

    let option = synthesize(&tree, &pr, catalog, &base, &evaluated, &[], Form::Migration);
    let names = step_names(&option);
    assert_eq!(names, vec!["org.openrewrite.java.ChangePackage", FIND_AND_REPLACE], "{:#?}", option.notes);
    assert!(option.steps[0].semantic && !option.steps[1].semantic);
    let find = option.steps[1].step.options["find"].as_text();
    assert_eq!(find, "FROM eclipse-temurin:11-jre\n");
    assert!(option.notes.iter().any(|n| n.starts_with("dropped `UpgradeToJava17`")), "{:#?}", option.notes);
    assert!(option.notes.iter().any(|n| n.contains("changed nothing")), "{:#?}", option.notes);
}

#[test]
fn a_step_with_only_false_positives_is_dropped_and_its_intent_gets_the_narrow_recipe() {
    let tree = tree();
    let pr = crate::diff::parse_all(PR).unwrap();
    let base = |_: &str| Some("FROM eclipse-temurin:11-jre\nWORKDIR /app\n".to_string());
    let noisy = "org.openrewrite.staticanalysis.CommonStaticAnalysis";
    let wide = wide_option(noisy);
    let wide_stats = stats(
        &wide,
        vec![("src/B.java", noisy)],
        vec![],
        vec![line("src/B.java", ChangeKind::Added, "final int x;")],
    );
    let option = synthesize_one(&tree, &pr, &base, &wide, &wide_stats);
    let names = step_names(&option);
    assert_eq!(
        names,
        vec!["org.openrewrite.java.ChangePackage", "org.openrewrite.docker.ChangeFrom"],
        "{:#?}",
        option.notes
    );
    assert!(option.notes.iter().any(|n| n.contains("only produced 1 false positives")));
    assert_eq!(option.number, crate::model::OptionId::Synthesized);
    assert_eq!(option.strategy, Strategy::Synthesized);
}

#[test]
fn an_over_applying_step_is_kept_only_in_files_where_it_made_no_mistake() {
    let tree = tree();
    let pr = crate::diff::parse_all(PR).unwrap();
    let broad = "org.openrewrite.java.migrate.UpgradeToJava17";
    let wide = wide_option(broad);
    // Right in A.java; in the Dockerfile it removed the right line but wrote the wrong tag.
    let mut tp = tree.intents[0].evidence.clone();
    tp.push(line("Dockerfile", ChangeKind::Removed, "FROM eclipse-temurin:11-jre"));
    let wide_stats = stats(
        &wide,
        vec![("src/A.java", broad), ("Dockerfile", broad)],
        tp,
        vec![line("Dockerfile", ChangeKind::Added, "FROM eclipse-temurin:21-jre")],
    );
    let effect = &effects(&wide, &wide_stats, None)[0];
    assert_eq!(effect.kind, EffectKind::OverApplying);
    assert_eq!(effect.clean_files(), vec!["src/A.java".to_string()]);

    let option = synthesize_one(&tree, &pr, &base, &wide, &wide_stats);
    let names = step_names(&option);
    // The broad recipe stays for A.java only; the Dockerfile gets its narrow recipe.
    assert_eq!(names, vec![broad, "org.openrewrite.docker.ChangeFrom"], "{:#?}", option.notes);
    assert_eq!(option.steps[0].scope, vec!["src/A.java".to_string()]);
}

#[test]
fn a_multi_line_text_step_is_matched_to_its_row_although_the_log_cut_its_options() {
    let step = RecipeStep::new(FIND_AND_REPLACE)
        .with("caseSensitive", "true")
        .with("filePattern", "README.md")
        .with("find", "a\nold\n")
        .with("regex", "false")
        .with("replace", "a\nnew\n");
    let option = CandidateOption {
        steps: vec![PlannedStep::new(step, false, vec![], "test")],
        ..CandidateOption::new(crate::model::OptionId::Narrow, "")
    };
    let mut stats = stats(
        &option,
        vec![("README.md", FIND_AND_REPLACE)],
        vec![line("README.md", ChangeKind::Removed, "old"), line("README.md", ChangeKind::Added, "new")],
        vec![],
    );
    // The log prints options on one line: a multi-line value ends the row's text early.
    stats.attribution[0].options = "caseSensitive=true, filePattern=README.md, find=a".into();
    let effect = &effects(&option, &stats, None)[0];
    assert_eq!(effect.kind, EffectKind::Clean, "{effect:?}");
    assert_eq!(effect.tp, 2);
}

#[test]
fn discovered_recipes_come_first_and_a_validated_step_they_repeat_is_left_out() {
    let tree = tree();
    let pr = crate::diff::parse_all(PR).unwrap();
    let change_package = RecipeStep::new(CHANGE_PACKAGE)
        .with("oldPackageName", "javax.x")
        .with("newPackageName", "jakarta.x")
        .with_bool("recursive", false);
    let narrow = CandidateOption {
        steps: vec![planned(change_package)],
        ..CandidateOption::new(crate::model::OptionId::Narrow, "")
    };
    let java_tp = tree.intents[0].evidence.clone();
    let narrow_stats = stats(&narrow, vec![("src/A.java", CHANGE_PACKAGE)], java_tp.clone(), vec![]);
    // Discovery found a composite that produces the same Java lines, exactly, and nothing else.
    let composite = PlannedStep::new(
        RecipeStep::new("org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta"),
        true,
        vec!["1".into()],
        "Discovery ran it on its own.",
    );
    let effect = StepEffect {
        kind: EffectKind::Clean,
        files: ["src/A.java".to_string()].into(),
        tp_files: ["src/A.java".to_string()].into(),
        tp: 2,
        fp: 0,
        layout_fp: 0,
        tp_lines: java_tp,
        fp_per_file: BTreeMap::new(),
        elsewhere: Default::default(),
        own_diff: String::new(),
    };
    let evaluated = [Evaluated { option: &narrow, stats: &narrow_stats }];
    let option = synthesize(
        &tree,
        &pr,
        Catalog::enriched(),
        &base,
        &evaluated,
        &[(composite, effect)],
        Form::Migration,
    );
    assert_eq!(
        step_names(&option),
        // The Docker intent was never evaluated: its narrow recipe is added.
        vec![
            "org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta",
            "org.openrewrite.docker.ChangeFrom"
        ],
        "{:#?}",
        option.notes
    );
    assert!(
        option.notes.iter().any(|n| n.starts_with("left out `ChangePackage")
            && n.contains("the recipes discovery found produce its 2 true positives")),
        "{:#?}",
        option.notes
    );
}

/// Two steps change the same file; only one of them is wrong there. With each step's own lines
/// (the embedded runner), the right one is clean and kept, not dropped for its neighbour's false
/// positives as the per-file reading would.
#[test]
fn a_step_is_judged_by_its_own_lines_when_the_runner_gives_them() {
    let tree = tree();
    let docker_tp = tree.intents[1].evidence.clone();
    let change_from = mapping::narrow::semantic_steps(&tree.intents[1]).unwrap().remove(0);
    let expose = RecipeStep::new(FIND_AND_REPLACE).with("find", "WORKDIR").with("replace", "EXPOSE");
    let narrow = CandidateOption {
        steps: vec![planned(change_from), PlannedStep::new(expose, false, vec![], "test")],
        ..CandidateOption::new(crate::model::OptionId::Narrow, "")
    };
    let wrong = line("Dockerfile", ChangeKind::Added, "EXPOSE /app");
    let mut by_file = stats(
        &narrow,
        vec![
            ("Dockerfile", "org.openrewrite.docker.search.ChangeFrom"),
            ("Dockerfile", "org.openrewrite.text.FindAndReplace"),
        ],
        docker_tp.clone(),
        vec![wrong.clone()],
    );
    by_file.attribution[0].recipe = narrow.steps[0].step.name.clone();
    let shared = effects(&narrow, &by_file, Some(&tree));
    assert_eq!(shared[0].kind, EffectKind::OverApplying, "the file's false positive is everyone's");

    let mut own = by_file.clone();
    own.step_lines = vec![
        StepLines { step: 0, tp_lines: docker_tp, fp_lines: vec![], classes: None, diff: String::new() },
        StepLines { step: 1, tp_lines: vec![], fp_lines: vec![wrong], classes: None, diff: String::new() },
    ];
    let exact = effects(&narrow, &own, Some(&tree));
    assert_eq!(exact[0].kind, EffectKind::Clean);
    assert_eq!(exact[1].kind, EffectKind::OnlyFalsePositives);
}

/// A semantic recipe that also adds a blank line the PR does not (its import layout, the gap it
/// leaves after a removed dependency) made the same migration: the blank line does not count
/// against it, up to one per two true positives. A text step's blank line always counts.
#[test]
fn a_few_blank_lines_of_layout_do_not_make_a_semantic_step_over_apply() {
    let tree = tree();
    let docker_tp = tree.intents[1].evidence.clone();
    assert!(docker_tp.len() >= 2, "{docker_tp:?}");
    let change_from = mapping::narrow::semantic_steps(&tree.intents[1]).unwrap().remove(0);
    let gap = RecipeStep::new(FIND_AND_REPLACE).with("find", "WORKDIR").with("replace", "\n");
    let narrow = CandidateOption {
        steps: vec![planned(change_from), PlannedStep::new(gap, false, vec![], "test")],
        ..CandidateOption::new(crate::model::OptionId::Narrow, "")
    };
    let blank = line("Dockerfile", ChangeKind::Added, "");
    let mut run =
        stats(&narrow, vec![("Dockerfile", "org.openrewrite.docker.search.ChangeFrom")], vec![], vec![]);
    run.step_lines = vec![
        StepLines {
            step: 0,
            tp_lines: docker_tp.clone(),
            fp_lines: vec![blank.clone()],
            classes: None,
            diff: String::new(),
        },
        StepLines {
            step: 1,
            tp_lines: vec![docker_tp[0].clone()],
            fp_lines: vec![blank.clone()],
            classes: None,
            diff: String::new(),
        },
    ];
    let judged = effects(&narrow, &run, Some(&tree));
    assert_eq!(judged[0].kind, EffectKind::Clean, "{:?}", judged[0]);
    assert_eq!((judged[0].fp, judged[0].layout_fp), (0, 1));
    assert_eq!(judged[1].kind, EffectKind::OverApplying, "a text step writes what it is told");

    // More blank lines than half its true positives: it is the layout that is wrong.
    run.step_lines[0].fp_lines = vec![blank; docker_tp.len()];
    let judged = effects(&narrow, &run, Some(&tree));
    assert_eq!(judged[0].kind, EffectKind::OverApplying);
    assert_eq!(judged[0].layout_fp, 0);
}

/// A clean text step that writes lines a clean semantic step writes too would write them twice
/// in one recipe: the semantic step is kept, the text step left out.
#[test]
fn a_text_step_that_repeats_a_semantic_steps_lines_is_left_out() {
    let tree = tree();
    let pr = crate::diff::parse_all(PR).unwrap();
    let docker_tp = tree.intents[1].evidence.clone();
    let change_from = mapping::narrow::semantic_steps(&tree.intents[1]).unwrap().remove(0);
    let text = RecipeStep::new(FIND_AND_REPLACE)
        .with("find", "FROM eclipse-temurin:11-jre\n")
        .with("replace", "FROM eclipse-temurin:17-jre\n")
        .with("filePattern", "Dockerfile");
    let narrow = CandidateOption {
        steps: vec![planned(change_from.clone()), PlannedStep::new(text, false, vec![], "test")],
        ..CandidateOption::new(crate::model::OptionId::Narrow, "")
    };
    let mut stats = stats(&narrow, vec![], docker_tp.clone(), vec![]);
    stats.attribution = vec![];
    stats.step_lines = vec![
        StepLines {
            step: 0,
            tp_lines: docker_tp.clone(),
            fp_lines: vec![],
            classes: None,
            diff: String::new(),
        },
        StepLines { step: 1, tp_lines: docker_tp, fp_lines: vec![], classes: None, diff: String::new() },
    ];
    let option = synthesize_one(&tree, &pr, &base, &narrow, &stats);
    assert!(option.steps.iter().any(|s| s.step == change_from), "{:#?}", option.notes);
    assert!(
        option.steps.iter().all(|s| s.semantic
            || !s.step.options.contains_key("filePattern")
            || s.step.options["filePattern"].as_text() != "Dockerfile"),
        "{:#?}",
        option.steps
    );
    assert!(
        option.notes.iter().any(|n| n.contains("also writes lines the semantic recipes write")),
        "{:#?}",
        option.notes
    );
}

/// A recipe that makes the PR's change but writes one of its lines differently (a block lambda
/// where the PR wrote an expression) is kept, first, with a literal touch-up of what it wrote;
/// the PR's other lines are its own, not text.
#[test]
fn a_recipe_that_writes_the_change_differently_is_kept_with_a_touch_up() {
    use super::touch_ups::tests::{BASE, PR as AFTER, RECIPE, unified};
    let pr = crate::diff::parse_all(&unified("T.java", BASE, AFTER)).unwrap();
    let own_diff = unified("T.java", BASE, RECIPE);
    let (tp_lines, fp_lines) = crate::metrics::score_lines(&pr, &own_diff);
    assert_eq!(fp_lines.len(), 3, "{fp_lines:?}");
    let effect = StepEffect {
        kind: EffectKind::OverApplying,
        files: ["T.java".to_string()].into(),
        tp_files: ["T.java".to_string()].into(),
        tp: tp_lines.len(),
        fp: fp_lines.len(),
        layout_fp: 0,
        tp_lines,
        fp_per_file: [("T.java".to_string(), 3)].into(),
        own_diff,
        elsewhere: Default::default(),
    };
    let recipe = PlannedStep::new(
        RecipeStep::new("org.openrewrite.java.testing.junit5.UpdateTestAnnotation"),
        true,
        vec![],
        "Discovery ran it on its own.",
    );
    let base = |path: &str| (path == "T.java").then(|| BASE.to_string());
    let option = synthesize(
        &IntentTree::default(),
        &pr,
        Catalog::enriched(),
        &base,
        &[],
        &[(recipe.clone(), effect.clone())],
        Form::Migration,
    );
    assert_eq!(
        step_names(&option),
        vec![
            "org.openrewrite.java.testing.junit5.UpdateTestAnnotation",
            "org.openrewrite.text.FindAndReplace"
        ],
        "{:#?}",
        option.notes
    );
    assert_eq!(
        option.steps[1].step.options["replace"].as_text(),
        "        assertThrows(E.class, () -> build(null));\n"
    );
    assert!(
        option.notes.iter().any(|n| n.starts_with("touched up `UpdateTestAnnotation` in T.java")),
        "{:#?}",
        option.notes
    );

    // Touch-ups that would write more than the recipe gets right are not worth it.
    let few = StepEffect { tp_lines: effect.tp_lines[..1].to_vec(), tp: 1, ..effect };
    let option = synthesize(
        &IntentTree::default(),
        &pr,
        Catalog::enriched(),
        &base,
        &[],
        &[(recipe, few)],
        Form::Migration,
    );
    assert!(!step_names(&option).contains(&"org.openrewrite.java.testing.junit5.UpdateTestAnnotation"));
}
