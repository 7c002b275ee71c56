//! The migration gate on intent trees extracted from small diffs, as the intent phase makes them.

use super::*;
use crate::fixtures::ordinary::REFACTORING;
use crate::intents::{Side, extract_from};
use crate::model::{OptionId, OptionResult, Strategy};

/// The intent tree of a PR changing `files` (path, before, after).
fn tree(files: &[(&str, &str, &str)]) -> IntentTree {
    let mut diff = String::new();
    for (path, old, new) in files {
        diff.push_str(&format!("diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n"));
        let unified = similar::TextDiff::from_lines(*old, *new)
            .unified_diff()
            .context_radius(3)
            .header(&format!("a/{path}"), &format!("b/{path}"))
            .to_string();
        diff.push_str(&unified);
    }
    let contents = |side: Side, path: &str| {
        files
            .iter()
            .find(|(p, _, _)| *p == path)
            .map(|(_, old, new)| if side == Side::Base { old.to_string() } else { new.to_string() })
    };
    extract_from(&diff, &contents)
}

/// A reusable recipe whose run on the PR scored `precision` and `recall`, all of it semantic.
fn reusable(precision: f64, recall: f64) -> ReusableRecipe {
    ReusableRecipe {
        recipe_name: "rewriteassist.Option4Reusable".into(),
        recipes: 1,
        generalized: vec![],
        result: Some(OptionResult {
            option: OptionId::Reusable,
            strategy: Strategy::Reusable,
            recipe_name: "rewriteassist.Option4Reusable".into(),
            recipes: 1,
            precision,
            recall,
            f1: crate::metrics::f1(precision, recall),
            perfect_match: precision == 1.0 && recall == 1.0,
            semantic_share: 1.0,
            catalog_share: 1.0,
            learned_share: 0.0,
            wall_seconds: 1.0,
            attempts: 1,
            dropped: vec![],
            tests_dropped: false,
            error: None,
            backend: None,
            migration_precision: None,
            false_positive_classes: None,
            migration_recall: None,
            migration_f1: None,
            residual: None,
            unresolved: None,
        }),
    }
}

/// The fixtures' refactoring PR: `Invoice.amount()` renamed to `total()`, with its callers.
fn refactoring() -> IntentTree {
    let files = ["src/main/java/com/acme/billing/Invoice.java", "src/main/java/com/acme/billing/Ledger.java"]
        .map(|path| {
            let before = REFACTORING.before(path).unwrap();
            (path, before, REFACTORING.edit(path, before).unwrap())
        });
    tree(&files.each_ref().map(|(path, before, after)| (*path, *before, after.as_str())))
}

#[test]
fn a_strategic_intent_makes_a_migration_whatever_the_recipe() {
    let old =
        "package com.acme.shop;\n\nimport javax.persistence.Entity;\n\n@Entity\npublic class Customer {\n}\n";
    let t = tree(&[("src/main/java/com/acme/shop/Customer.java", old, &old.replace("javax.", "jakarta."))]);
    let c = classify(Some(&t), None);
    assert_eq!(c.kind, PrKind::Migration, "{c:?}");
    assert_eq!(c.reason, "the intent tree names a migration: Migrate javax -> jakarta");
}

#[test]
fn a_rename_of_the_repositorys_own_method_is_ordinary_even_when_a_recipe_reproduces_it() {
    let c = classify(Some(&refactoring()), Some(&reusable(1.0, 1.0)));
    assert_eq!(c.kind, PrKind::Ordinary, "{c:?}");
    assert_eq!(
        c.reason,
        "the intent tree names no migration, and its reusable recipe reproduces 0% of its changed lines beyond \
renames of the repository's own code and values of its own configuration (50% needed)"
    );
}

#[test]
fn values_of_the_applications_own_configuration_are_ordinary_renamed_framework_keys_are_not() {
    let path = "src/main/resources/application.properties";
    let old = "billing.retry.attempts=3\nspring.datasource.initialization-mode=always\n";
    let tweak = tree(&[(path, old, &old.replace("=3", "=5"))]);
    assert_eq!(classify(Some(&tweak), Some(&reusable(1.0, 1.0))).kind, PrKind::Ordinary);
    let renamed =
        tree(&[(path, old, &old.replace("spring.datasource.initialization-mode", "spring.sql.init.mode"))]);
    let c = classify(Some(&renamed), Some(&reusable(1.0, 1.0)));
    assert_eq!(c.kind, PrKind::Migration, "{c:?}");
    assert_eq!(
        c.reason,
        "its reusable recipe reproduces 100% of its changed lines with semantic recipes (50% needed), at precision 1.00"
    );
    // Half of the lines is enough; a little less is not.
    assert_eq!(classify(Some(&renamed), Some(&reusable(1.0, 0.5))).kind, PrKind::Migration);
    assert_eq!(classify(Some(&renamed), Some(&reusable(1.0, 0.49))).kind, PrKind::Ordinary);
}

#[test]
fn a_recipe_that_would_change_much_more_than_the_pr_generalizes_a_local_edit() {
    let path = "src/main/resources/application.properties";
    let old = "spring.datasource.initialization-mode=always\n";
    let renamed = tree(&[(path, old, "spring.sql.init.mode=always\n")]);
    let c = classify(Some(&renamed), Some(&reusable(0.5, 1.0)));
    assert_eq!(c.kind, PrKind::Ordinary);
    assert!(c.reason.contains("(precision 0.50 on it, 0.80 needed): a local change"), "{}", c.reason);
    assert_eq!(classify(Some(&renamed), Some(&reusable(0.8, 1.0))).kind, PrKind::Migration);
}

#[test]
fn without_a_reusable_recipe_or_its_run_a_pr_without_a_named_migration_is_ordinary() {
    let t = refactoring();
    assert_eq!(
        classify(Some(&t), None).reason,
        "the intent tree names no migration, and no semantic recipe reproduces it (no reusable recipe)"
    );
    let mut failed = reusable(1.0, 1.0);
    failed.result = None;
    assert!(classify(Some(&t), Some(&failed)).reason.ends_with("could not be validated on it"));
    let c = classify(None, Some(&reusable(1.0, 1.0)));
    assert_eq!(c.kind, PrKind::Ordinary);
    assert!(c.reason.starts_with("the analysis stopped before the intent tree"), "{}", c.reason);
}

#[test]
fn a_tooling_bump_that_makes_the_pr_is_a_migration() {
    let ci = ".github/workflows/ci.yml";
    let old = "jobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v3\n      - run: mvn verify\n";
    let bump = tree(&[(ci, old, &old.replace("checkout@v3", "checkout@v4"))]);
    let c = classify(Some(&bump), None);
    assert_eq!(c.kind, PrKind::Migration, "{c:?}");
    assert!(c.reason.starts_with("a tooling bump (Bump GitHub Actions"), "{}", c.reason);
    assert!(c.reason.ends_with("makes 100% of the changed lines"), "{}", c.reason);
    // The same bump beside a larger change to the repository's own code is beside the point.
    let code = "package com.acme.billing;\n\nclass A {\n}\n";
    let feature = "package com.acme.billing;\n\nclass A {\n    int a() { return 1; }\n    int b() { return 2; }\n    int c() { return 3; }\n}\n";
    let mixed = tree(&[
        (ci, old, &old.replace("checkout@v3", "checkout@v4")),
        ("src/main/java/com/acme/billing/A.java", code, feature),
    ]);
    assert_eq!(classify(Some(&mixed), None).kind, PrKind::Ordinary);
}
