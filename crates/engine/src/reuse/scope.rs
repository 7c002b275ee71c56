//! What belongs to the PR's migration and what is its side work.
//!
//! The intent tree groups changes by what they look like: a Spring Boot parent bump, its property
//! renames and starters sit under the strategic intent, while a type move of another library (the
//! Hibernate Validator constraints to `javax.validation` that Spring Boot 2 calls for) is a group of
//! its own. Which of those the migration calls for is evidence, not syntax: when the catalog's own
//! migration for a strategic intent (a composite that fits it, run by discovery on this PR) made
//! the change on at least half of its lines, the change is part of that migration, wherever the
//! tree put it. Without such evidence the tree's grouping stands.

use std::collections::{BTreeSet, HashSet};

use crate::catalog::Catalog;
use crate::diff::ChangeKind;
use crate::discovery::Discovery;
use crate::model::Intent;
use crate::model::intent::{IntentTree, Level};

/// A group of changes with fewer than one line in this many of the largest group's is beside the
/// PR's point when the tree names no migration (a test dependency added next to a hundred moved
/// calls); groups of comparable size are all the change.
const SIDE_WORK_RATIO: usize = 4;

/// The ids of the intents outside the PR's migration. When the tree names a migration (a
/// strategic intent) that is every other intent, except the atomic changes the catalog's own
/// migration makes ([`made_by_the_migration`]) and the groups holding them; when it names none,
/// the groups much smaller than the largest one ([`SIDE_WORK_RATIO`]).
pub(crate) fn incidental_intents(
    tree: &IntentTree,
    evidence: Option<(&Discovery, &Catalog)>,
) -> BTreeSet<String> {
    fn ids(intent: &Intent, out: &mut BTreeSet<String>) {
        out.insert(intent.id.clone());
        for child in &intent.children {
            ids(child, out);
        }
    }
    let lines = |intent: &Intent| intent.atomics().iter().map(|a| a.evidence.len()).sum::<usize>();
    let mut out = BTreeSet::new();
    let outside: Vec<&Intent> = if tree.intents.iter().any(|i| i.level() == Level::Strategic) {
        tree.intents.iter().filter(|i| i.level() != Level::Strategic).collect()
    } else {
        let largest = tree.intents.iter().map(lines).max().unwrap_or(0);
        tree.intents.iter().filter(|i| lines(i) * SIDE_WORK_RATIO < largest).collect()
    };
    for intent in outside {
        ids(intent, &mut out);
    }
    if let Some((discovery, catalog)) = evidence {
        for id in made_by_the_migration(tree, discovery, catalog) {
            // The atomic change and the groups above it: a group with a part of the migration in
            // it is not all side work.
            out.retain(|other| other != &id && !id.starts_with(&format!("{other}.")));
        }
    }
    out
}

/// A changed line by what it is: path, kind and content.
pub type LineKey = (String, ChangeKind, String);

fn key(line: &crate::model::ChangeLine) -> LineKey {
    (line.path.clone(), line.kind, line.content.clone())
}

/// The PR lines outside its migration: those of the intents the reusable recipe leaves out as side
/// work and, when the tree names a migration, the lines no intent explains (nothing says they are
/// the migration's), except lines the catalog's migration made (`evidence`: discovery's runs).
pub fn side_work_lines(tree: &IntentTree, evidence: Option<(&Discovery, &Catalog)>) -> HashSet<LineKey> {
    let incidental = incidental_intents(tree, evidence);
    let mut out: HashSet<LineKey> = tree
        .atomics()
        .into_iter()
        .filter(|a| incidental.contains(&a.id))
        .flat_map(|a| a.evidence.iter().map(key))
        .collect();
    if tree.intents.iter().any(|i| i.level() == Level::Strategic) {
        let made = evidence.map(|(d, c)| migration_lines(tree, d, c)).unwrap_or_default();
        out.extend(tree.unexplained.iter().map(key).filter(|k| !made.contains(k)));
    }
    out
}

/// Atomic intents outside every strategic intent of which the catalog's migration for one of them
/// made at least half of the lines (exactly as the PR wrote them), in tree order.
pub(crate) fn made_by_the_migration(
    tree: &IntentTree,
    discovery: &Discovery,
    catalog: &Catalog,
) -> Vec<String> {
    let made = migration_lines(tree, discovery, catalog);
    if made.is_empty() {
        return Vec::new();
    }
    tree.intents
        .iter()
        .filter(|i| i.level() != Level::Strategic)
        .flat_map(|i| i.atomics())
        .filter(|a| {
            let ours = a.evidence.iter().filter(|l| made.contains(&key(l)));
            !a.evidence.is_empty() && 2 * ours.count() >= a.evidence.len()
        })
        .map(|a| a.id.clone())
        .collect()
}

/// The PR lines that a composite fitting one of the tree's strategic intents made in discovery's
/// runs, exactly as the PR wrote them.
fn migration_lines(tree: &IntentTree, discovery: &Discovery, catalog: &Catalog) -> HashSet<LineKey> {
    let strategic: Vec<&Intent> = tree.intents.iter().filter(|i| i.level() == Level::Strategic).collect();
    discovery
        .tried
        .iter()
        .filter(|t| t.error.is_none() && t.members > 0)
        .filter(|t| strategic.iter().any(|s| crate::mapping::wide::fits(catalog, s, &t.step.name)))
        .flat_map(|t| t.tp_lines.iter().map(key))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discovery::Tried;
    use crate::model::ChangeLine;

    fn line(path: &str, kind: ChangeKind, content: &str) -> ChangeLine {
        ChangeLine { path: path.into(), kind, line: 3, content: content.into() }
    }

    fn import(kind: ChangeKind, file: &str, type_name: &str) -> ChangeLine {
        line(&format!("src/main/java/{file}.java"), kind, &format!("import {type_name};"))
    }

    fn type_change(id: &str, old: &str, new: &str, files: &[&str]) -> serde_json::Value {
        let evidence: Vec<serde_json::Value> = files
            .iter()
            .flat_map(|f| [import(ChangeKind::Removed, f, old), import(ChangeKind::Added, f, new)])
            .map(|l| serde_json::to_value(l).unwrap())
            .collect();
        serde_json::json!({"id": id, "level": "atomic", "kind": "java.type_rename", "title": id,
            "params": {"old_type": old, "new_type": new}, "evidence": evidence, "children": []})
    }

    /// Spring Boot 1.5 -> 2.0, and beside it a group of two type moves: Hibernate Validator's
    /// `NotBlank` (which Spring Boot 2's migration makes) and `Email`.
    fn tree() -> IntentTree {
        let parent = line("pom.xml", ChangeKind::Removed, "<version>1.5.10.RELEASE</version>");
        IntentTree {
            intents: serde_json::from_value(serde_json::json!([
                {"id": "1", "level": "strategic", "kind": "upgrade_spring_boot", "title": "Upgrade Spring Boot 1.5 -> 2.0",
                 "params": {"from": "1.5.10.RELEASE", "to": "2.0.0.RELEASE"}, "evidence": [], "children": [
                    {"id": "1.1", "level": "atomic", "kind": "text.edit", "title": "parent",
                     "params": {"from": "1.5.10.RELEASE", "to": "2.0.0.RELEASE"}, "evidence": [serde_json::to_value(&parent).unwrap()], "children": []}]},
                {"id": "2", "level": "tactical", "kind": "change_types", "title": "Change types (2)",
                 "params": {}, "evidence": [], "children": [
                    type_change("2.1", "org.hibernate.validator.constraints.NotBlank", "javax.validation.constraints.NotBlank", &["A", "B"]),
                    type_change("2.2", "org.hibernate.validator.constraints.Email", "javax.validation.constraints.Email", &["C"])]}
            ]))
            .unwrap(),
            ..IntentTree::default()
        }
    }

    fn tried(name: &str, members: usize, tp_lines: Vec<ChangeLine>) -> Tried {
        Tried::for_test(name, members, tp_lines, Vec::new())
    }

    const NOT_BLANK: (&str, &str) =
        ("org.hibernate.validator.constraints.NotBlank", "javax.validation.constraints.NotBlank");

    #[test]
    fn a_change_the_catalogs_migration_makes_belongs_to_the_migration() {
        let tree = tree();
        let catalog = Catalog::enriched();
        // The catalog's Spring Boot 2.0 migration made one of NotBlank's two files, the lines as
        // the PR wrote them: half of the change.
        let made =
            vec![import(ChangeKind::Removed, "A", NOT_BLANK.0), import(ChangeKind::Added, "A", NOT_BLANK.1)];
        let boot = "org.openrewrite.java.spring.boot2.UpgradeSpringBoot_2_0";
        let discovery = Discovery { tried: vec![tried(boot, 20, made.clone())], ..Discovery::default() };
        assert_eq!(made_by_the_migration(&tree, &discovery, catalog), vec!["2.1".to_string()]);
        let incidental = incidental_intents(&tree, Some((&discovery, catalog)));
        assert_eq!(incidental, BTreeSet::from(["2.2".to_string()]), "Email and nothing above NotBlank");
        assert_eq!(incidental_intents(&tree, None), BTreeSet::from(["2".into(), "2.1".into(), "2.2".into()]));
        // Less than half of a change is no evidence.
        let one = vec![made[0].clone()];
        let discovery = Discovery { tried: vec![tried(boot, 20, one)], ..Discovery::default() };
        assert!(made_by_the_migration(&tree, &discovery, catalog).is_empty());
    }

    #[test]
    fn only_a_composite_that_fits_the_strategic_intent_is_evidence() {
        let tree = tree();
        let catalog = Catalog::enriched();
        let made =
            vec![import(ChangeKind::Removed, "A", NOT_BLANK.0), import(ChangeKind::Added, "A", NOT_BLANK.1)];
        for (name, members) in [
            // Another migration's composite, a single recipe, another Spring Boot target.
            ("org.openrewrite.java.migrate.jakarta.JavaxValidationMigrationToJakartaValidation", 10),
            ("org.openrewrite.java.ChangeType", 0),
            ("org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_0", 20),
        ] {
            let discovery =
                Discovery { tried: vec![tried(name, members, made.clone())], ..Discovery::default() };
            assert!(made_by_the_migration(&tree, &discovery, catalog).is_empty(), "{name}");
        }
    }

    #[test]
    fn a_line_no_intent_explains_is_side_work_unless_the_migration_made_it() {
        let mut tree = tree();
        let optional = line("src/main/java/A.java", ChangeKind::Added, "import java.util.Optional;");
        let note = line("Dockerfile", ChangeKind::Added, "ENV OPTS=-Xmx150m");
        tree.unexplained = vec![optional.clone(), note.clone()];
        let key = |l: &ChangeLine| (l.path.clone(), l.kind, l.content.clone());
        let side_work = side_work_lines(&tree, None);
        assert!(side_work.contains(&key(&optional)) && side_work.contains(&key(&note)));
        assert!(
            !side_work.contains(&key(&tree.intents[0].atomics()[0].evidence[0])),
            "the strategic intent's own"
        );
        let boot = "org.openrewrite.java.spring.boot2.UpgradeSpringBoot_2_0";
        let discovery =
            Discovery { tried: vec![tried(boot, 20, vec![optional.clone()])], ..Discovery::default() };
        let side_work = side_work_lines(&tree, Some((&discovery, Catalog::enriched())));
        assert!(!side_work.contains(&key(&optional)) && side_work.contains(&key(&note)));
        // Without a migration in the tree, what no intent explains is not judged here.
        tree.intents.remove(0);
        assert!(!side_work_lines(&tree, None).contains(&key(&note)));
    }
}
