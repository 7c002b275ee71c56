//! The reusable recipe is chosen to finish the migration, not only to reproduce the author's lines.
//! A JUnit 4 project whose PR moves one test class and the dependency to JUnit 5 and forgets the
//! other class (its `@Test`, `Assert` and `Assume`): the narrow steps that reproduce the PR leave
//! that class's JUnit 4 uses behind (and `Assume` no longer resolves once the dependency is gone),
//! while the catalog's `JUnit4to5Migration` leaves nothing. The reusable recipe is the umbrella, its
//! run on the PR's base says so, and analyze --json carries the measurements.

mod common;

use common::json_stdout;

use rewrite_assist::fixtures::scenarios::JUNIT4_TO_JUNIT5;

const POM: &str = "pom.xml";
const CALCULATOR: &str = "src/main/java/com/acme/calc/Calculator.java";
const CALCULATOR_TEST: &str = "src/test/java/com/acme/calc/CalculatorTest.java";
const DIVISION_TEST: &str = "src/test/java/com/acme/calc/DivisionTest.java";

/// The class the PR forgot: it has the division test the scenario's CalculatorTest holds.
const DIVISION_TEST_TEXT: &str =
    include_str!("fixtures/reusable_finishes/src/test/java/com/acme/calc/DivisionTest.java");

/// The JUnit 4 to 5 scenario's test method that moved to DivisionTest.
const DIVIDES_NUMBERS: &str = "
    @Test
    public void dividesNumbers() {
        assertEquals(2, calculator.divide(6, 3));
    }
";

#[test]
fn the_reusable_recipe_is_the_umbrella_that_leaves_nothing_of_junit_4() {
    let dir = tempfile::tempdir().unwrap();
    // The scenario's project, its division test moved to a class of its own; the PR makes the
    // scenario's changes to the POM and to CalculatorTest, and leaves DivisionTest alone.
    let before = |path| JUNIT4_TO_JUNIT5.before(path).unwrap();
    let calculator_test = before(CALCULATOR_TEST);
    assert!(calculator_test.contains(DIVIDES_NUMBERS), "{calculator_test}");
    let calculator_test = calculator_test.replace(DIVIDES_NUMBERS, "");
    let pom_5 = JUNIT4_TO_JUNIT5.edit(POM, before(POM)).unwrap();
    let test_5 = JUNIT4_TO_JUNIT5.edit(CALCULATOR_TEST, &calculator_test).unwrap();
    let repo = common::pr_repo(
        &dir.path().join("repo"),
        &[
            (POM, before(POM)),
            (CALCULATOR, before(CALCULATOR)),
            (CALCULATOR_TEST, &calculator_test),
            (DIVISION_TEST, DIVISION_TEST_TEXT),
        ],
        &[(POM, &pom_5), (CALCULATOR_TEST, &test_5)],
    );
    let out = dir.path().join("out");
    let output = common::analyze_embedded(repo.path(), &out).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let summary = json_stdout(&output);

    // The narrow steps reproduce the PR and leave DivisionTest's JUnit 4, which no longer resolves.
    let narrow = summary["options"].as_array().unwrap().iter().find(|o| o["option"] == 2).unwrap();
    assert!(narrow["residual"]["after"].as_u64().unwrap() > 0, "{narrow:#}");
    assert!(narrow["residual"]["samples"].to_string().contains("DivisionTest.java"), "{narrow:#}");

    // The reusable recipe is the umbrella migration, which leaves nothing and breaks nothing.
    let reusable = &summary["reusable"];
    let yaml = std::fs::read_to_string(out.join("result/reusable-recipe.yaml")).unwrap();
    assert!(yaml.contains("org.openrewrite.java.testing.junit5.JUnit4to5Migration"), "{yaml}\n{reusable:#}");
    let result = &reusable["result"];
    assert!(result["residual"]["before"].as_u64().unwrap() > 0, "{reusable:#}");
    assert_eq!(result["residual"]["after"], 0, "{reusable:#}");
    assert_eq!(
        result["unresolved"]["after"].as_u64(),
        result["unresolved"]["before"].as_u64(),
        "{reusable:#}"
    );
    assert_eq!(summary["verdict"], "ready_to_roll_out", "{summary:#}");
    // The candidates ran on the PR's base, each in a directory of its own.
    assert!(out.join("reusable/candidate-0/option-4-stats.json").is_file());
}
