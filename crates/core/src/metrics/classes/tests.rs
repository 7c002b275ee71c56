//! Each class on small, realistic diffs: what the PR did and what a recipe did, as git writes them.

use std::collections::BTreeMap;

use super::*;

/// A file section as `git diff` writes it (3 lines of context).
fn section(path: &str, before: &str, after: &str) -> String {
    let diff = similar::TextDiff::from_lines(before, after);
    let hunks = diff.unified_diff().context_radius(3).to_string();
    format!(
        "diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n--- a/{path}\n+++ b/{path}\n{hunks}"
    )
}

struct Case {
    base: BTreeMap<String, String>,
    pr: BTreeMap<String, String>,
    run: BTreeMap<String, String>,
}

impl Case {
    fn new() -> Case {
        Case { base: BTreeMap::new(), pr: BTreeMap::new(), run: BTreeMap::new() }
    }

    /// A file at base, as the PR left it, and as the recipe left it.
    fn file(mut self, path: &str, base: &str, pr: &str, run: &str) -> Case {
        self.base.insert(path.into(), base.into());
        self.pr.insert(path.into(), pr.into());
        self.run.insert(path.into(), run.into());
        self
    }

    fn diff(&self, side: &BTreeMap<String, String>) -> crate::diff::Diff {
        let text: String = side
            .iter()
            .filter(|(p, t)| self.base[*p] != **t)
            .map(|(p, t)| section(p, &self.base[p], t))
            .collect();
        crate::diff::parse(&text).unwrap()
    }

    fn classify(&self, types: Option<&ResultTypes>) -> (Metrics, Classes) {
        self.classify_by(rules::RULES, types)
    }

    fn classify_by(&self, table: &[rules::Rule], types: Option<&ResultTypes>) -> (Metrics, Classes) {
        let pr_diff = self.diff(&self.pr);
        let head: BTreeMap<String, String> = self
            .pr
            .iter()
            .filter(|(p, t)| self.base[*p] != **t)
            .map(|(p, t)| (p.clone(), t.clone()))
            .collect();
        let base: BTreeMap<String, String> = self
            .base
            .iter()
            .filter(|(p, _)| head.contains_key(*p))
            .map(|(p, t)| (p.clone(), t.clone()))
            .collect();
        let view = PrView::new(pr_diff.clone(), &base, head);
        let run = self.diff(&self.run);
        let metrics = crate::metrics::compare(&pr_diff, &run);
        let classes = classify_by(table, &view, &run, &metrics, types);
        (metrics, classes)
    }
}

/// A line of a class: wrong lines are bare, the others carry their rule.
trait Line {
    fn line(&self) -> &ChangeLine;
}

impl Line for ChangeLine {
    fn line(&self) -> &ChangeLine {
        self
    }
}

impl Line for crate::model::classes::Classified {
    fn line(&self) -> &ChangeLine {
        &self.line
    }
}

/// The lines as `+content` / `-content`, sorted (the classes keep the diff's order).
fn contents(lines: &[impl Line]) -> Vec<String> {
    let mut out: Vec<String> =
        lines.iter().map(Line::line).map(|l| format!("{}{}", l.kind.sign(), l.content.trim())).collect();
    out.sort();
    out
}

const TEST_BASE: &str = "package a;\n\nimport static org.hamcrest.MatcherAssert.assertThat;\nimport static org.hamcrest.Matchers.equalTo;\n\nclass T {\n    void t() {\n        assertThat(x, equalTo(new Object()));\n        assertThat(total(), equalTo(sum(first(), second(), third(), fourth())));\n    }\n}\n";

#[test]
fn a_recipe_that_differs_only_in_layout_has_no_wrong_line() {
    let pr = "package a;\n\nimport static org.assertj.core.api.Assertions.assertThat;\n\nclass T {\n    void t() {\n        assertThat(x).isEqualTo(new Object() );\n        assertThat(total())\n            .isEqualTo(sum(first(), second(), third(), fourth()));\n    }\n}\n";
    let run = "package a;\n\nimport static org.assertj.core.api.Assertions.assertThat;\n\n\nclass T {\n    void t() {\n        assertThat(x).isEqualTo(new Object());\n        assertThat(total()).isEqualTo(sum(first(), second(), third(), fourth()));\n    }\n}\n";
    let (metrics, classes) = Case::new().file("src/T.java", TEST_BASE, pr, run).classify(None);
    assert!(metrics.false_positives > 0, "{metrics:?}");
    assert_eq!(classes.wrong, vec![], "{classes:#?}");
    assert_eq!(classes.layout.len(), metrics.false_positives, "{classes:#?}");
    assert_eq!(classes.migration_precision(metrics.true_positives), 1.0);
}

#[test]
fn a_line_the_pr_left_alone_laid_out_anew_by_the_recipe_is_layout_and_a_changed_name_is_not() {
    let base = "package a;\n\nimport org.junit.Test;\n\nclass T {\n\t@SuppressWarnings({ \"unchecked\" })\n\t@Test\n\tpublic void t() { }    \n}\n";
    let pr = "package a;\n\nimport org.junit.jupiter.api.Test;\n\nclass T {\n\t@SuppressWarnings({ \"unchecked\" })\n\t@Test\n\tpublic void t() { }    \n}\n";
    // The formatter re-indents what the PR left alone; a name qualified anew is another type.
    let run = "package a;\n\nimport org.junit.jupiter.api.Test;\n\nclass T {\n    @SuppressWarnings({\"unchecked\"})\n    @org.junit.jupiter.api.Test\n    public void t() { }\n}\n";
    let (metrics, classes) = Case::new().file("src/T.java", base, pr, run).classify(None);
    assert_eq!(metrics.true_positives, 2, "{metrics:?}");
    assert_eq!(
        contents(&classes.layout),
        vec![
            "+@SuppressWarnings({\"unchecked\"})",
            "+public void t() { }",
            "-@SuppressWarnings({ \"unchecked\" })",
            "-public void t() { }"
        ],
        "{classes:#?}"
    );
    assert_eq!(contents(&classes.wrong), vec!["+@org.junit.jupiter.api.Test", "-@Test"], "{classes:#?}");
}

#[test]
fn a_fully_qualified_name_against_an_import_is_layout() {
    let base = "package a;\n\nclass T {\n    java.util.Date when;\n}\n";
    let pr = "package a;\n\nclass T {\n    java.time.Instant when;\n}\n";
    let run = "package a;\n\nimport java.time.Instant;\n\nclass T {\n    Instant when;\n}\n";
    let (_, classes) = Case::new().file("src/T.java", base, pr, run).classify(None);
    assert_eq!(classes.wrong, vec![], "{classes:#?}");
    assert_eq!(contents(&classes.layout), vec!["+", "+Instant when;", "+import java.time.Instant;"]);
}

#[test]
fn a_member_imported_where_the_pr_imports_its_owner_on_demand_is_layout() {
    let base = "package a;\n\nimport static a.Util.*;\n\nclass T {\n    void t() {\n        check(true);\n    }\n}\n";
    let pr = "package a;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nclass T {\n    void t() {\n        assertTrue(true);\n    }\n}\n";
    let run = "package a;\n\nimport static org.junit.jupiter.api.Assertions.assertTrue;\n\nclass T {\n    void t() {\n        assertTrue(true);\n    }\n}\n";
    let (_, classes) = Case::new().file("src/T.java", base, pr, run).classify(None);
    assert_eq!(
        contents(&classes.layout),
        vec!["+import static org.junit.jupiter.api.Assertions.assertTrue;"],
        "{classes:#?}"
    );
    // The reverse, and the same name from another owner or not static, are not.
    let (_, classes) = Case::new().file("src/T.java", base, run, pr).classify(None);
    assert_eq!(classes.layout.len(), 1, "{classes:#?}");
    let other = run.replace("jupiter.api.Assertions", "jupiter.api.Assumptions");
    let (_, classes) = Case::new().file("src/T.java", base, pr, &other).classify(None);
    assert!(classes.layout.is_empty(), "{classes:#?}");
    let plain = run.replace("import static", "import");
    let (_, classes) = Case::new().file("src/T.java", base, pr, &plain).classify(None);
    assert!(classes.layout.is_empty(), "{classes:#?}");
}

#[test]
fn a_groovy_string_in_the_other_quotes_is_layout_and_an_interpolated_one_is_not() {
    let base = "task stage {\n    dependsOn build\n}\n";
    let pr = "tasks.register('stage') {\n    dependsOn build\n}\n";
    let run = "tasks.register(\"stage\") {\n    dependsOn build\n}\n";
    let (metrics, classes) = Case::new().file("build.gradle", base, pr, run).classify(None);
    assert_eq!(metrics.false_positives, 1, "{metrics:?}");
    assert_eq!(contents(&classes.layout), vec!["+tasks.register(\"stage\") {"], "{classes:#?}");
    // Another name interpolated in is another string.
    let run = "tasks.register(\"${name}\") {\n    dependsOn build\n}\n";
    let (_, classes) = Case::new().file("build.gradle", base, pr, run).classify(None);
    assert!(classes.layout.is_empty(), "{classes:#?}");
    // Wrapped onto two lines as well.
    let base = "dependencies {\n    implementation 'a:b:1'\n}\n";
    let pr = "dependencies {\n    implementation group: 'a', name: 'b', version: '2'\n}\n";
    let run = "dependencies {\n    implementation group: \"a\",\n        name: \"b\", version: \"2\"\n}\n";
    let (metrics, classes) = Case::new().file("build.gradle", base, pr, run).classify(None);
    assert_eq!(metrics.false_positives, 2, "{metrics:?}");
    assert_eq!(classes.layout.len(), 2, "{classes:#?}");
    // In Java the quotes mean a char against a string.
    let (_, classes) = Case::new()
        .file("src/A.java", "char c = 'a';\n", "char c = 'b';\n", "char c = \"b\";\n")
        .classify(None);
    assert!(classes.layout.is_empty(), "{classes:#?}");
}

const LOG_BASE: &str = "package a;\n\nimport org.apache.commons.logging.Log;\nimport org.apache.commons.logging.LogFactory;\n\nclass A {\n    Log log = LogFactory.getLog(A.class);\n}\n";

#[test]
fn another_way_of_writing_the_prs_change_in_its_place_is_a_variant() {
    let pr = "package a;\n\nimport java.lang.invoke.MethodHandles;\nimport org.slf4j.Logger;\nimport org.slf4j.LoggerFactory;\n\nclass A {\n    Logger log = LoggerFactory.getLogger(MethodHandles.lookup().lookupClass());\n}\n";
    let run = "package a;\n\nimport org.slf4j.Logger;\nimport org.slf4j.LoggerFactory;\n\nclass A {\n    Logger log = LoggerFactory.getLogger(getClass());\n}\n";
    let (metrics, classes) = Case::new().file("src/A.java", LOG_BASE, pr, run).classify(None);
    assert_eq!(
        contents(&classes.variant),
        vec!["+Logger log = LoggerFactory.getLogger(getClass());"],
        "{classes:#?}"
    );
    assert_eq!(classes.wrong, vec![]);
    assert_eq!(classes.migration_precision(metrics.true_positives), 1.0);
}

#[test]
fn a_variant_that_keeps_the_old_library_is_wrong() {
    let pr = "package a;\n\nimport static org.assertj.core.api.Assertions.assertThat;\n\nclass T {\n    void t() {\n        assertThat(x).isEqualTo(new Object());\n        assertThat(total()).isEqualTo(sum(first(), second(), third(), fourth()));\n    }\n}\n";
    // Hamcrest's matcher kept inside AssertJ's satisfies: the line is replaced, the library is not.
    let run = "package a;\n\nimport static org.assertj.core.api.Assertions.assertThat;\nimport static org.hamcrest.Matchers.equalTo;\n\nclass T {\n    void t() {\n        assertThat(x).satisfies(arg -> org.hamcrest.MatcherAssert.assertThat(arg, equalTo(new Object())));\n        assertThat(total()).isEqualTo(sum(first(), second(), third(), fourth()));\n    }\n}\n";
    let (_, classes) = Case::new().file("src/T.java", TEST_BASE, pr, run).classify(None);
    assert!(contents(&classes.wrong).iter().any(|l| l.contains("satisfies")), "{classes:#?}");
    assert!(classes.variant.is_empty(), "{classes:#?}");
    // With the runner's result types saying Hamcrest is still in use, the same.
    let types: ResultTypes = [("src/T.java".to_string(), vec!["org.hamcrest.Matchers".to_string()])].into();
    let (_, classes) = Case::new().file("src/T.java", TEST_BASE, pr, run).classify(Some(&types));
    assert!(classes.variant.is_empty(), "{classes:#?}");
}

#[test]
fn the_new_librarys_package_below_the_old_one_does_not_keep_the_old_library() {
    // JUnit 5 lives below JUnit 4's `org.junit`: the hunk that adds its imports still writes a
    // variant of the PR's runner annotation (another strictness), not a line of the old library.
    let base = "package a;\n\nimport org.junit.Test;\nimport org.junit.runner.RunWith;\nimport org.mockito.runners.MockitoJUnitRunner;\n\n@RunWith(MockitoJUnitRunner.class)\nclass T {\n    @Test\n    void t() {\n    }\n}\n";
    let head = |strictness: &str| {
        format!(
            "package a;\n\nimport org.junit.jupiter.api.Test;\nimport org.junit.jupiter.api.extension.ExtendWith;\nimport org.mockito.junit.jupiter.MockitoExtension;\n\n@ExtendWith(MockitoExtension.class)\n@MockitoSettings(strictness = Strictness.{strictness})\nclass T {{\n    @Test\n    void t() {{\n    }}\n}}\n"
        )
    };
    let (pr, run) = (head("LENIENT"), head("WARN"));
    let (_, classes) = Case::new().file("src/T.java", base, &pr, &run).classify(None);
    assert_eq!(
        contents(&classes.variant),
        vec!["+@MockitoSettings(strictness = Strictness.WARN)"],
        "{classes:#?}"
    );
    assert_eq!(classes.wrong, vec![], "{classes:#?}");
    // A line naming a type of the old package itself still keeps it.
    let run = run.replace("@MockitoSettings(strictness = Strictness.WARN)", "@org.junit.Ignore");
    let (_, classes) = Case::new().file("src/T.java", base, &pr, &run).classify(None);
    assert_eq!(contents(&classes.wrong), vec!["+@org.junit.Ignore"], "{classes:#?}");
}

const SERVLET_A: &str =
    "package a;\n\nimport javax.servlet.Filter;\n\nabstract class A implements Filter {\n}\n";
const SERVLET_B: &str = "package a;\n\nimport javax.servlet.ServletException;\n\nabstract class B {\n    abstract void f() throws ServletException;\n}\n";

#[test]
fn the_prs_change_made_where_the_author_had_not_is_a_completion() {
    let case = Case::new()
        .file(
            "src/A.java",
            SERVLET_A,
            &SERVLET_A.replace("javax", "jakarta"),
            &SERVLET_A.replace("javax", "jakarta"),
        )
        .file("src/B.java", SERVLET_B, SERVLET_B, &SERVLET_B.replace("javax", "jakarta"));
    let (metrics, classes) = case.classify(None);
    assert_eq!(metrics.true_positives, 2);
    assert_eq!(
        contents(&classes.completion),
        vec!["+import jakarta.servlet.ServletException;", "-import javax.servlet.ServletException;"]
    );
    assert_eq!(classes.wrong, vec![]);
}

#[test]
fn over_applying_to_unrelated_code_is_wrong() {
    let jaxb = "package a;\n\nimport javax.xml.bind.JAXB;\n\nclass C {\n    int  size = 1;\n}\n";
    let case = Case::new()
        .file(
            "src/A.java",
            SERVLET_A,
            &SERVLET_A.replace("javax", "jakarta"),
            &SERVLET_A.replace("javax", "jakarta"),
        )
        // Another library moved (jaxb is not servlet), and a line reformatted that nobody changed.
        .file("src/C.java", jaxb, jaxb, &jaxb.replace("javax", "jakarta").replace("int  size", "int size"));
    let (_, classes) = case.classify(None);
    assert_eq!(
        contents(&classes.wrong),
        vec![
            "+import jakarta.xml.bind.JAXB;",
            "+int size = 1;",
            "-import javax.xml.bind.JAXB;",
            "-int  size = 1;"
        ],
        "{classes:#?}"
    );
    assert!(classes.completion.is_empty() && classes.layout.is_empty(), "{classes:#?}");
}

const POM: &str = "<project>\n  <dependencies>\n    <dependency>\n      <groupId>junit</groupId>\n      <artifactId>junit</artifactId>\n    </dependency>\n  </dependencies>\n</project>\n";

fn with_dependency(artifact: &str, version: &str) -> String {
    POM.replace(
        "  </dependencies>",
        &format!("    <dependency>\n      <groupId>org.assertj</groupId>\n      <artifactId>{artifact}</artifactId>\n      <version>{version}</version>\n    </dependency>\n  </dependencies>"),
    )
}

#[test]
fn a_newer_version_of_the_same_artifact_is_a_variant_an_older_or_another_is_not() {
    let pr = with_dependency("assertj-core", "3.24.2");
    let (_, newer) =
        Case::new().file("pom.xml", POM, &pr, &with_dependency("assertj-core", "3.27.3")).classify(None);
    assert_eq!(contents(&newer.variant), vec!["+<version>3.27.3</version>"], "{newer:#?}");
    assert!(newer.wrong.is_empty(), "{newer:#?}");
    let (_, older) =
        Case::new().file("pom.xml", POM, &pr, &with_dependency("assertj-core", "3.10.0")).classify(None);
    assert_eq!(contents(&older.wrong), vec!["+<version>3.10.0</version>"], "{older:#?}");
    let (_, other) =
        Case::new().file("pom.xml", POM, &pr, &with_dependency("assertj-guava", "3.27.3")).classify(None);
    assert!(other.variant.is_empty(), "{other:#?}");
}

const BUILD_BASE: &str = "dependencies {\n    implementation 'org.acme:web:2.6.7'\n    implementation 'org.acme:test:2.6.7'\n}\n\ntask stage {\n    dependsOn build\n}\n";

#[test]
fn one_change_of_a_merged_hunk_written_another_way_is_a_variant() {
    // Three lines of context merge the PR's two changes into one hunk; the recipe makes only the
    // second, through the project. (Other quotes alone are layout in Groovy.)
    let pr = "dependencies {\n    implementation 'org.acme:web'\n    implementation 'org.acme:test'\n}\n\ntasks.register('stage') {\n    dependsOn build\n}\n";
    let run = "dependencies {\n    implementation 'org.acme:web:2.6.7'\n    implementation 'org.acme:test:2.6.7'\n}\n\nproject.tasks.register('stage') {\n    dependsOn build\n}\n";
    let (metrics, classes) = Case::new().file("build.gradle", BUILD_BASE, pr, run).classify(None);
    assert_eq!(contents(&classes.variant), vec!["+project.tasks.register('stage') {"], "{classes:#?}");
    assert_eq!(classes.wrong, vec![]);
    assert_eq!(classes.migration_precision(metrics.true_positives), 1.0);
}

#[test]
fn replacing_part_of_a_change_or_more_than_it_is_not_a_variant() {
    let pr = "dependencies {\n    implementation 'org.acme:web'\n    implementation 'org.acme:test'\n}\n\ntask stage {\n    dependsOn build\n}\n";
    // The PR replaced both dependency lines in one change; the recipe replaces only the first.
    let part = "dependencies {\n    implementation 'org.acme:web:3.0.0'\n    implementation 'org.acme:test:2.6.7'\n}\n\ntask stage {\n    dependsOn build\n}\n";
    let (_, classes) = Case::new().file("build.gradle", BUILD_BASE, pr, part).classify(None);
    assert!(classes.variant.is_empty(), "{classes:#?}");
    assert_eq!(contents(&classes.wrong), vec!["+implementation 'org.acme:web:3.0.0'"]);
    // The recipe's change also takes in the closing brace the PR left alone.
    let more = "dependencies {\n    implementation 'org.acme:web:3.0.0'\n    implementation 'org.acme:test:3.0.0'\n} // pinned\n\ntask stage {\n    dependsOn build\n}\n";
    let (_, classes) = Case::new().file("build.gradle", BUILD_BASE, pr, more).classify(None);
    assert!(classes.variant.is_empty(), "{classes:#?}");
}

#[test]
fn a_version_the_pr_did_not_write_is_never_a_variant_of_its_line() {
    // The PR leaves the version to the platform; the recipe pins a patch release in its place.
    let pr = "dependencies {\n    implementation 'org.acme:web'\n    implementation 'org.acme:test:2.6.7'\n}\n\ntask stage {\n    dependsOn build\n}\n";
    let run = "dependencies {\n    implementation 'org.acme:web:2.6.15'\n    implementation 'org.acme:test:2.6.7'\n}\n\ntask stage {\n    dependsOn build\n}\n";
    let (_, classes) = Case::new().file("build.gradle", BUILD_BASE, pr, run).classify(None);
    assert!(classes.variant.is_empty(), "{classes:#?}");
    assert_eq!(contents(&classes.wrong), vec!["+implementation 'org.acme:web:2.6.15'"]);
}

/// The rule of each classified line, as `rule: +content`, sorted.
fn rules_of(classes: &Classes) -> Vec<String> {
    let mut out: Vec<String> = [&classes.layout, &classes.variant, &classes.completion]
        .into_iter()
        .flatten()
        .map(|c| format!("{}: {}{}", c.rule, c.line.kind.sign(), c.line.content.trim()))
        .collect();
    out.sort();
    out
}

#[test]
fn each_classified_line_names_the_rule_that_took_it() {
    let base = "package a;\n\nclass T {\n    java.util.Date when;\n}\n";
    let pr = "package a;\n\nclass T {\n    java.time.Instant when;\n}\n";
    let run = "package a;\n\nimport java.time.Instant;\n\nclass T {\n    Instant when;\n}\n";
    let (_, classes) = Case::new().file("src/T.java", base, pr, run).classify(None);
    assert_eq!(
        rules_of(&classes),
        vec![
            "blank_line: +",
            "import_for_a_qualified_name: +import java.time.Instant;",
            "same_code: +Instant when;",
        ],
        "{classes:#?}"
    );
}

/// A blank line the recipe adds where the PR adds none, and the blank line it got right
/// elsewhere: layout (a blank line) and completion (a line it got right) both match it.
#[test]
fn the_tables_order_decides_which_rule_takes_a_line_two_rules_match() {
    let base = "package a;\nimport x.A;\n\nclass T {\n    int a;\n    int b;\n}\n";
    let pr = "package a;\n\nimport x.A;\n\nclass T {\n    int a;\n    int b;\n}\n";
    let run = "package a;\n\nimport x.A;\n\nclass T {\n    int a;\n\n    int b;\n}\n";
    let case = Case::new().file("src/T.java", base, pr, run);
    let (metrics, classes) = case.classify(None);
    assert_eq!((metrics.true_positives, metrics.false_positives), (1, 1));
    assert_eq!(rules_of(&classes), vec!["blank_line: +"], "{classes:#?}");
    assert_eq!(classes.layout.len(), 1);
    // The same rules with completion first: the line is a completion.
    let mut reordered: Vec<rules::Rule> = rules::RULES
        .iter()
        .map(|r| rules::Rule { name: r.name, matches: r.matches, class: r.class, take: r.take })
        .collect();
    let at = reordered.iter().position(|r| r.name == "same_change_elsewhere").unwrap();
    let completion = reordered.remove(at);
    reordered.insert(0, completion);
    let (_, classes) = case.classify_by(&reordered, None);
    assert_eq!(rules_of(&classes), vec!["same_change_elsewhere: +"], "{classes:#?}");
    assert!(classes.layout.is_empty() && classes.completion.len() == 1);
}
