//! The reusable recipe is chosen to finish the migration, not only to reproduce the author's lines.
//! A JUnit 4 project whose PR moves one test class and the dependency to JUnit 5 and forgets the
//! other class (its `@Test`, `Assert` and `Assume`): the narrow steps that reproduce the PR leave
//! that class's JUnit 4 uses behind (and `Assume` no longer resolves once the dependency is gone),
//! while the catalog's `JUnit4to5Migration` leaves nothing. The reusable recipe is the umbrella, its
//! run on the PR's base says so, and analyze --json carries the measurements.

mod common;

use common::json_stdout;

const POM: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>calculator</artifactId>
  <version>2.3.0</version>

  <properties>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>

  <dependencies>
    <dependency>
      <groupId>junit</groupId>
      <artifactId>junit</artifactId>
      <version>4.13.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
"#;

const CALCULATOR: &str = "package com.acme.calc;\n\npublic class Calculator {\n\n    public int add(int a, int b) {\n        return a + b;\n    }\n\n    public int divide(int a, int b) {\n        return a / b;\n    }\n}\n";

const CALCULATOR_TEST: &str = "package com.acme.calc;\n\nimport static org.junit.Assert.assertEquals;\n\nimport org.junit.Before;\nimport org.junit.Test;\n\npublic class CalculatorTest {\n\n    private Calculator calculator;\n\n    @Before\n    public void setUp() {\n        calculator = new Calculator();\n    }\n\n    @Test\n    public void addsNumbers() {\n        assertEquals(5, calculator.add(2, 3));\n    }\n}\n";

/// The class the PR forgot.
const DIVISION_TEST: &str = "package com.acme.calc;\n\nimport static org.junit.Assert.assertEquals;\nimport static org.junit.Assume.assumeTrue;\n\nimport org.junit.Test;\n\npublic class DivisionTest {\n\n    @Test\n    public void dividesNumbers() {\n        assumeTrue(Runtime.getRuntime().availableProcessors() > 0);\n        assertEquals(2, new Calculator().divide(6, 3));\n    }\n}\n";

#[test]
fn the_reusable_recipe_is_the_umbrella_that_leaves_nothing_of_junit_4() {
    let dir = tempfile::tempdir().unwrap();
    let pom_5 = POM
        .replace("<groupId>junit</groupId>", "<groupId>org.junit.jupiter</groupId>")
        .replace("<artifactId>junit</artifactId>", "<artifactId>junit-jupiter</artifactId>")
        .replace("<version>4.13.2</version>", "<version>5.10.2</version>");
    let test_5 = CALCULATOR_TEST
        .replace("org.junit.Assert.assertEquals", "org.junit.jupiter.api.Assertions.assertEquals")
        .replace("import org.junit.Before;", "import org.junit.jupiter.api.BeforeEach;")
        .replace("import org.junit.Test;", "import org.junit.jupiter.api.Test;")
        .replace("@Before\n", "@BeforeEach\n");
    let repo = common::pr_repo(
        &dir.path().join("repo"),
        &[
            ("pom.xml", POM),
            ("src/main/java/com/acme/calc/Calculator.java", CALCULATOR),
            ("src/test/java/com/acme/calc/CalculatorTest.java", CALCULATOR_TEST),
            ("src/test/java/com/acme/calc/DivisionTest.java", DIVISION_TEST),
        ],
        &[("pom.xml", &pom_5), ("src/test/java/com/acme/calc/CalculatorTest.java", &test_5)],
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
