//! The migration as the catalog writes it. The recommended recipe reproduces this PR, so where a
//! catalog composite (`JUnit4to5Migration`, `JavaxServletToJakartaServlet`, `UpgradeApacheCommonsLang_2_3`)
//! made the PR's change but wrote some lines its own way (a block lambda where the PR wrote an
//! expression, the newest patch where the PR pinned one, no trailing comment), refinement
//! kept narrower recipes. The next repository is served better by the composite: it knows the
//! whole migration, of which this PR showed a part.
//!
//! A composite qualifies for a strategic intent when discovery ran it on this PR and
//! - it fits the intent as the wide option's checks say (it names the migration and its target,
//!   such as `3_1` for Spring Boot 3.1);
//! - every line it got right is the migration's, none the PR's side work;
//! - every line it changed that the PR did not is a blank line, or next to a line the PR changed
//!   (the same place, written its own way), and names no other major version than the PR wrote
//!   there. A composite that reaches into other places of the code does more than this PR's
//!   migration asked for, and is left out.
//!
//! Umbrella upgrades (hundreds of recipes, such as `UpgradeSpringBoot_3_1`: Java 17, Jakarta,
//! Hibernate, …) qualify only for a framework's upgrade, and come with a guard: a
//! `ModuleHasDependency` precondition keeps them to the modules that depend on the framework. A
//! small repository gives them nothing else to do, which is no evidence of what they do on the
//! next one; unguarded, in28's Spring Boot upgrade rewrote 1,348 lines of blazingcache, which has
//! no Spring Boot. Guarded, the next Spring Boot application gets the whole upgrade (the MySQL
//! driver's new coordinates, the properties), which the PR's narrow recipes do not know.
//! Of those that qualify, the one with the most right lines; on a tie the smaller one.

use std::collections::{BTreeMap, HashSet};

use crate::catalog::Catalog;
use crate::diff::{ChangeKind, Diff};
use crate::discovery::{Discovery, Tried};
use crate::model::ChangeLine;
use crate::model::intent::{IntentTree, Level};
use crate::openrewrite::RecipeStep;
use crate::openrewrite::recipe_names::MODULE_HAS_DEPENDENCY;

/// Lines away from a PR change that still count as the same place.
const NEAR: u32 = 3;

/// A composite that makes a strategic intent's migration, and the evidence.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Composite {
    /// The strategic intent it makes.
    pub intent: String,
    pub step: RecipeStep,
    /// PR lines it reproduced, and lines it wrote its own way next to them.
    pub tp: usize,
    pub rewritten: usize,
    /// The precondition an umbrella upgrade runs under (see the module's comment).
    pub guard: Option<RecipeStep>,
}

/// The guard for an umbrella upgrade of `strategic`'s framework; None when the migration is not
/// a framework's upgrade, or the catalog lacks the recipe.
fn guard(catalog: &Catalog, strategic: &crate::model::groups::Strategic) -> Option<RecipeStep> {
    let (group, artifact) = strategic.framework()?;
    let step = RecipeStep::new(MODULE_HAS_DEPENDENCY)
        .with("groupIdPattern", group)
        .with("artifactIdPattern", artifact);
    crate::mapping::check_step(catalog, &step).is_ok().then_some(step)
}

/// The qualifying composite of each strategic intent of `tree`, in tree order.
pub(crate) fn migration_composites(
    discovery: &Discovery,
    tree: &IntentTree,
    pr: &Diff,
    catalog: &Catalog,
    incidental: &std::collections::BTreeSet<String>,
) -> Vec<Composite> {
    let side_work = SideWork::of(tree, incidental);
    let places = Places::of(pr);
    let mut out = Vec::new();
    for intent in tree.intents.iter().filter(|i| i.level() == Level::Strategic) {
        let guard = crate::model::groups::Strategic::of(intent).and_then(|s| guard(catalog, &s));
        let best = discovery
            .tried
            .iter()
            .filter(|t| t.error.is_none() && t.members > 0 && t.tp() > 0)
            // An umbrella upgrade only with its guard (see the module's comment).
            .filter(|t| guard.is_some() || !crate::discovery::pool::is_umbrella(catalog, &t.step.name))
            .filter(|t| crate::mapping::wide::fits(catalog, intent, &t.step.name))
            .filter(|t| !side_work.made_by(t))
            .filter(|t| t.counted_fp().iter().all(|l| places.rewrites(l)))
            .min_by(|a, b| {
                b.tp()
                    .cmp(&a.tp())
                    .then(
                        crate::discovery::pool::size(catalog, &a.step.name, 0)
                            .cmp(&crate::discovery::pool::size(catalog, &b.step.name, 0)),
                    )
                    .then(a.step.name.cmp(&b.step.name))
            });
        if let Some(tried) = best
            && !out.iter().any(|c: &Composite| c.step == tried.step)
        {
            let mut found = composite(&intent.id, tried);
            if crate::discovery::pool::is_umbrella(catalog, &tried.step.name) {
                found.guard = guard;
            }
            out.push(found);
        }
    }
    out
}

/// The lowest precision (right lines over right and wrong ones, on this PR) of a composite that may
/// lead a candidate recipe to finish a migration: the candidate's own run then decides.
const FINISHING_PRECISION: f64 = 0.8;

/// For each strategic intent of `tree`, the catalog composite that may finish its migration on the
/// next repository, judged by looser rules than [`migration_composites`]: it may reach beyond the
/// places this PR changed (that is what finishing is), so long as it was mostly right here
/// ([`FINISHING_PRECISION`]), did none of the PR's side work, and, as an umbrella upgrade, runs
/// behind its guard. Side work here is by the catalog's evidence
/// ([`crate::reuse::incidental_intents`] with discovery's runs): the tree puts beside the
/// migration what it can only read as text (`@Test(expected = X.class)` made `@Test`) or as
/// calls moved off a class of the old library; what the catalog's migration made of it is
/// the migration's. A composite that [`migration_composites`] chose already is not repeated.
/// Whether it finishes the migration is for its candidate's own run on this PR's base to say
/// (the uses of the old library it leaves, the symbols it breaks).
pub(crate) fn finishing_composites(
    discovery: &Discovery,
    tree: &IntentTree,
    catalog: &Catalog,
    chosen: &[Composite],
) -> Vec<Composite> {
    let incidental = crate::reuse::incidental_intents(tree, Some((discovery, catalog)));
    let side_work = SideWork::of(tree, &incidental);
    let precise = |t: &Tried| {
        let wrong = t.counted_fp().len();
        t.tp() as f64 / (t.tp() + wrong) as f64 >= FINISHING_PRECISION
    };
    let mut out = Vec::new();
    for intent in tree.intents.iter().filter(|i| i.level() == Level::Strategic) {
        let guard = crate::model::groups::Strategic::of(intent).and_then(|s| guard(catalog, &s));
        let mut fitting: Vec<&Tried> = discovery
            .tried
            .iter()
            .filter(|t| t.error.is_none() && t.members > 0 && t.tp() > 0 && !t.on_migration)
            .filter(|t| guard.is_some() || !crate::discovery::pool::is_umbrella(catalog, &t.step.name))
            .filter(|t| crate::mapping::wide::fits(catalog, intent, &t.step.name))
            .filter(|t| !side_work.made_by(t))
            .filter(|t| precise(t))
            .filter(|t| !chosen.iter().any(|c| c.step == t.step))
            .collect();
        // The most right lines first; of as many, the smaller composite (a framework's variant of
        // a migration does more than the migration). Two per intent: the candidates' own runs on
        // this PR's base say which finishes it.
        fitting.sort_by(|a, b| {
            b.tp()
                .cmp(&a.tp())
                .then(
                    crate::discovery::pool::size(catalog, &a.step.name, 0)
                        .cmp(&crate::discovery::pool::size(catalog, &b.step.name, 0)),
                )
                .then(a.step.name.cmp(&b.step.name))
        });
        for tried in fitting.into_iter().take(FINISHING_PER_INTENT) {
            if out.iter().any(|c: &Composite| c.step == tried.step) {
                continue;
            }
            let mut found = composite(&intent.id, tried);
            if crate::discovery::pool::is_umbrella(catalog, &tried.step.name) {
                found.guard = guard.clone();
            }
            out.push(found);
        }
    }
    out
}

/// The PR's lines of its side work (the `incidental` intents), by path, kind and content.
struct SideWork<'a>(HashSet<(&'a str, ChangeKind, &'a str)>);

impl<'a> SideWork<'a> {
    fn of(tree: &'a IntentTree, incidental: &std::collections::BTreeSet<String>) -> SideWork<'a> {
        SideWork(
            tree.atomics()
                .into_iter()
                .filter(|a| incidental.contains(&a.id))
                .flat_map(|a| a.evidence.iter().map(|l| (l.path.as_str(), l.kind, l.content.as_str())))
                .collect(),
        )
    }

    /// Whether the composite got one of these lines right: it did the PR's side work.
    fn made_by(&self, tried: &Tried) -> bool {
        tried.tp_lines.iter().any(|l| self.0.contains(&(l.path.as_str(), l.kind, l.content.as_str())))
    }
}

/// Composites per strategic intent that may lead a candidate.
const FINISHING_PER_INTENT: usize = 2;

fn composite(intent: &str, tried: &Tried) -> Composite {
    Composite {
        intent: intent.to_string(),
        step: tried.step.clone(),
        tp: tried.tp(),
        rewritten: tried.counted_fp().len(),
        guard: None,
    }
}

/// Where the PR changed each file, and the major versions it wrote there.
struct Places<'a> {
    lines: BTreeMap<&'a str, Vec<u32>>,
    majors: BTreeMap<&'a str, HashSet<String>>,
}

impl<'a> Places<'a> {
    fn of(pr: &'a Diff) -> Places<'a> {
        let mut lines: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        let mut majors: BTreeMap<&str, HashSet<String>> = BTreeMap::new();
        for change in pr.changes() {
            lines.entry(change.path).or_default().push(change.line);
            if change.kind == ChangeKind::Added {
                majors.entry(change.path).or_default().extend(major_versions(change.content));
            }
        }
        Places { lines, majors }
    }

    /// Whether a line the PR did not change is the PR's change written another way: in a file
    /// the PR changed, near a line it changed, with no major version the PR did not write there.
    fn rewrites(&self, line: &ChangeLine) -> bool {
        let Some(changed) = self.lines.get(line.path.as_str()) else { return false };
        let near = changed.iter().any(|&n| n.abs_diff(line.line) <= NEAR);
        let written = self.majors.get(line.path.as_str());
        let same_majors = line.kind == ChangeKind::Removed
            || major_versions(&line.content).iter().all(|m| written.is_some_and(|w| w.contains(m)));
        near && same_majors
    }
}

/// The major of each version-like token (`3.1.12` -> `3`): digits, a dot, digits.
fn major_versions(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_alphanumeric());
        if !starts {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let major: String = chars[start..i].iter().collect();
        if i + 1 < chars.len() && chars[i] == '.' && chars[i + 1].is_ascii_digit() {
            out.push(major);
        }
        while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn majors_of_version_tokens() {
        assert_eq!(major_versions("\t\t<version>3.1.12</version>"), ["3"]);
        assert_eq!(
            major_versions("assertThrows(NullPointerException.class, () -> x(2))"),
            Vec::<String>::new()
        );
        assert_eq!(major_versions("uses: actions/checkout@v4 # 17 and 1.8 and 21.0.1"), ["1", "21"]);
        assert_eq!(major_versions("x10.2 is not a version"), Vec::<String>::new());
    }
}

#[cfg(test)]
mod choice {
    use super::*;
    use crate::discovery::Tried;

    const PR: &str = "diff --git a/pom.xml b/pom.xml
--- a/pom.xml
+++ b/pom.xml
@@ -10,3 +10,3 @@
 <dependency>
-<artifactId>junit</artifactId><version>4.13.2</version>
+<artifactId>junit-jupiter</artifactId><version>5.9.1</version>
 </dependency>
@@ -30,1 +30,1 @@
-<jacoco.version>0.8.8</jacoco.version>
+<jacoco.version>0.8.14</jacoco.version>
diff --git a/src/test/java/CalcTest.java b/src/test/java/CalcTest.java
--- a/src/test/java/CalcTest.java
+++ b/src/test/java/CalcTest.java
@@ -3,2 +3,2 @@
-import org.junit.Test;
+import org.junit.jupiter.api.Test;
 class CalcTest {
";

    fn line(path: &str, kind: ChangeKind, line: u32, content: &str) -> ChangeLine {
        ChangeLine { path: path.into(), kind, line, content: content.into() }
    }

    fn tree() -> IntentTree {
        let evidence = |l: &ChangeLine| serde_json::to_value(l).unwrap();
        let import = line("src/test/java/CalcTest.java", ChangeKind::Removed, 3, "import org.junit.Test;");
        let jacoco = line("pom.xml", ChangeKind::Removed, 30, "<jacoco.version>0.8.8</jacoco.version>");
        IntentTree {
            intents: serde_json::from_value(serde_json::json!([
                {"id": "1", "level": "strategic", "kind": "migrate_junit4_to_junit5", "title": "Migrate JUnit 4 -> 5",
                 "params": {}, "evidence": [], "children": [
                    {"id": "1.1", "level": "atomic", "kind": "java.type_rename", "title": "Test",
                     "params": {"old_type": "org.junit.Test", "new_type": "org.junit.jupiter.api.Test"},
                     "evidence": [evidence(&import)], "children": []}]},
                {"id": "2", "level": "tactical", "kind": "change_build_properties", "title": "Change build properties",
                 "params": {}, "evidence": [], "children": [
                    {"id": "2.1", "level": "atomic", "kind": "maven.property_change", "title": "jacoco",
                     "params": {"key": "jacoco.version", "old_value": "0.8.8", "new_value": "0.8.14", "file": "pom.xml"},
                     "evidence": [evidence(&jacoco)], "children": []}]}
            ]))
            .unwrap(),
            ..IntentTree::default()
        }
    }

    fn tried(name: &str, members: usize, fp: Vec<ChangeLine>) -> Tried {
        let tp = vec![
            line("src/test/java/CalcTest.java", ChangeKind::Removed, 3, "import org.junit.Test;"),
            line("src/test/java/CalcTest.java", ChangeKind::Added, 3, "import org.junit.jupiter.api.Test;"),
            line(
                "pom.xml",
                ChangeKind::Removed,
                11,
                "<artifactId>junit</artifactId><version>4.13.2</version>",
            ),
        ];
        Tried::for_test(name, members, tp, fp)
    }

    fn chosen(candidates: Vec<Tried>) -> Vec<String> {
        let discovery = Discovery { tried: candidates, ..Discovery::default() };
        let tree = tree();
        let incidental = crate::reuse::incidental_intents(&tree, None);
        let pr = crate::diff::parse(PR).unwrap();
        migration_composites(&discovery, &tree, &pr, Catalog::enriched(), &incidental)
            .into_iter()
            .map(|c| format!("{} {} {}", c.intent, c.step.name, c.rewritten))
            .collect()
    }

    /// The newest Jupiter where the PR pinned 5.9.1: the same line written its own way.
    fn newer_jupiter() -> ChangeLine {
        line(
            "pom.xml",
            ChangeKind::Added,
            11,
            "<artifactId>junit-jupiter</artifactId><version>5.14.4</version>",
        )
    }

    #[test]
    fn the_composite_that_writes_the_prs_lines_its_own_way_is_the_migration() {
        let junit = "org.openrewrite.java.testing.junit5.JUnit4to5Migration";
        let spring = "org.openrewrite.java.spring.boot2.SpringBoot2JUnit4to5Migration";
        let elsewhere = line("src/main/java/Other.java", ChangeKind::Added, 40, "    @Nested");
        assert_eq!(
            chosen(vec![
                tried(spring, 8, vec![newer_jupiter()]),
                tried(junit, 51, vec![newer_jupiter()]),
                tried("org.openrewrite.java.testing.junit5.JUnit5BestPractices", 30, vec![elsewhere]),
            ]),
            [format!("1 {junit} 1")],
            "the smaller of two that do the same; not one that reaches into a file the PR left alone"
        );
    }

    #[test]
    fn an_umbrella_upgrade_is_a_frameworks_migration_only_where_the_framework_is() {
        let strategic = |kind: &str, title: &str, params: serde_json::Value| {
            let mut tree = tree();
            tree.intents[0] = serde_json::from_value(serde_json::json!({
                "id": "1", "level": "strategic", "kind": kind, "title": title,
                "params": params, "evidence": [], "children": tree.intents[0].children}))
            .unwrap();
            tree
        };
        let composites = |tree: &IntentTree, recipe: &str| {
            assert!(crate::discovery::pool::is_umbrella(Catalog::enriched(), recipe), "{recipe}");
            let discovery = Discovery { tried: vec![tried(recipe, 13, vec![])], ..Discovery::default() };
            let pr = crate::diff::parse(PR).unwrap();
            let incidental = crate::reuse::incidental_intents(tree, None);
            migration_composites(&discovery, tree, &pr, Catalog::enriched(), &incidental)
        };
        let boot = strategic(
            "upgrade_spring_boot",
            "Upgrade Spring Boot 2.4 -> 3.1",
            serde_json::json!({"from": "2.4.0", "to": "3.1.1"}),
        );
        let found = composites(&boot, "org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_1");
        assert_eq!(found.len(), 1);
        let guard = found[0].guard.as_ref().expect("an umbrella runs under a guard");
        assert_eq!(
            guard.signature(),
            RecipeStep::new(MODULE_HAS_DEPENDENCY)
                .with("groupIdPattern", "org.springframework.boot")
                .with("artifactIdPattern", "*")
                .signature()
        );
        // A Java upgrade is not a framework's: nothing would keep its umbrella to the modules it
        // is about.
        let java =
            strategic("upgrade_java", "Upgrade Java 8 -> 21", serde_json::json!({"from": "8", "to": "21"}));
        assert!(composites(&java, "org.openrewrite.java.migrate.UpgradeToJava21").is_empty());
    }

    #[test]
    fn another_major_version_or_side_work_disqualifies_a_composite() {
        let junit = "org.openrewrite.java.testing.junit5.JUnit4to5Migration";
        let six = line(
            "pom.xml",
            ChangeKind::Added,
            11,
            "<artifactId>junit-jupiter</artifactId><version>6.0.0</version>",
        );
        assert!(chosen(vec![tried(junit, 51, vec![six])]).is_empty(), "the PR wrote 5.x there");
        let mut bumps_jacoco = tried(junit, 51, vec![]);
        bumps_jacoco.tp_lines.push(line(
            "pom.xml",
            ChangeKind::Removed,
            30,
            "<jacoco.version>0.8.8</jacoco.version>",
        ));
        assert!(chosen(vec![bumps_jacoco]).is_empty(), "it reproduces the PR's side work");
        let mut single = tried(junit, 0, vec![]);
        single.step = RecipeStep::new("org.openrewrite.java.testing.junit5.UpdateTestAnnotation");
        assert!(chosen(vec![single]).is_empty(), "a single recipe is not a composite migration");
    }
    #[test]
    fn a_finishing_composite_may_make_what_the_tree_put_beside_the_migration() {
        let junit = "org.openrewrite.java.testing.junit5.JUnit4to5Migration";
        let test_file = "src/test/java/CalcTest.java";
        let expected =
            line(test_file, ChangeKind::Removed, 9, "@Test(expected = IllegalStateException.class)");
        let plain = line(test_file, ChangeKind::Added, 9, "@Test");
        let assert3 =
            line(test_file, ChangeKind::Removed, 4, "import static junit.framework.Assert.assertEquals;");
        let assert5 = line(
            test_file,
            ChangeKind::Added,
            4,
            "import static org.junit.jupiter.api.Assertions.assertEquals;",
        );
        let plugin = |n: u32, text: &str| line("pom.xml", ChangeKind::Added, n, text);
        let bump = [
            plugin(40, "<plugin>"),
            plugin(41, "<artifactId>jacoco-maven-plugin</artifactId>"),
            plugin(42, "</plugin>"),
        ];
        let mut tree = tree();
        let atomic = |id: &str, kind: &str, params: serde_json::Value, lines: &[&ChangeLine]| {
            serde_json::json!({"id": id, "level": "atomic", "kind": kind, "title": id, "params": params,
                "evidence": lines.iter().map(|l| serde_json::to_value(l).unwrap()).collect::<Vec<_>>(),
                "children": []})
        };
        let group = |id: &str, kind: &str, child: serde_json::Value| {
            serde_json::from_value(serde_json::json!({"id": id, "level": "tactical", "kind": kind,
                "title": id, "params": {}, "evidence": [], "children": [child]}))
            .unwrap()
        };
        tree.intents.push(group(
            "3",
            "edit_text",
            atomic(
                "3.1",
                "text.edit",
                serde_json::json!({"from": expected.content, "to": plain.content}),
                &[&expected, &plain],
            ),
        ));
        tree.intents.push(group(
            "4",
            "change_static_calls",
            atomic(
                "4.1",
                "java.static_call_target",
                serde_json::json!({"method": "assertEquals", "old_type": "junit.framework.Assert",
                    "new_type": "org.junit.jupiter.api.Assertions"}),
                &[&assert3, &assert5],
            ),
        ));
        tree.intents.push(group(
            "5",
            "update_build_plugins",
            atomic(
                "5.1",
                "maven.plugin_added",
                serde_json::json!({"group_id": "org.jacoco", "artifact_id": "jacoco-maven-plugin", "version": "0.8.14"}),
                &bump.iter().collect::<Vec<_>>(),
            ),
        ));
        let finishing = |made: &[&ChangeLine]| {
            let mut umbrella = tried(junit, 51, vec![]);
            umbrella.tp_lines.extend(made.iter().map(|l| (*l).clone()));
            let discovery = Discovery { tried: vec![umbrella], ..Discovery::default() };
            finishing_composites(&discovery, &tree, Catalog::enriched(), &[]).len()
        };
        assert_eq!(
            finishing(&[&expected, &plain, &assert3, &assert5]),
            1,
            "the catalog's migration made the text edit and the moved call: they are the migration's"
        );
        assert_eq!(
            finishing(&[&expected, &plain, &bump[0]]),
            0,
            "a line of another change the migration did not make (one of its three) is side work"
        );
    }
}
