//! The changed lines that only replay this repository's own decisions: a rename of one of its own
//! types, packages or methods, a value of its own configuration. A semantic recipe reproduces them
//! exactly (`ChangeMethodName` on `com.acme.billing.Invoice`, `ChangePropertyValue` of
//! `billing.retry.attempts`), yet on the next repository it finds nothing to do: they are
//! refactorings and tweaks, not a migration, and the migration gate does not count them.

use std::collections::BTreeSet;

use crate::model::{Change, Intent, IntentTree};

/// How many distinct changed lines the tree's own-code and own-configuration intents explain.
pub(crate) fn own_lines(tree: &IntentTree) -> usize {
    let packages = own_packages(tree);
    let lines: BTreeSet<(&str, u32, char)> = tree
        .atomics()
        .into_iter()
        .filter(|intent| intent.change().is_some_and(|c| is_own(c, &packages)))
        .flat_map(|intent| intent.evidence.iter())
        .map(|line| (line.path.as_str(), line.line, line.kind.sign()))
        .collect();
    lines.len()
}

/// The packages the PR's source files are in (`com.acme.billing` for
/// `src/main/java/com/acme/billing/Ledger.java`). A rename of a type of those packages touches the
/// type's own file, so it is among them.
fn own_packages(tree: &IntentTree) -> BTreeSet<String> {
    let paths = tree
        .atomics()
        .into_iter()
        .flat_map(|intent| intent.files().into_iter().chain(evidence_paths(intent)))
        .chain(tree.unexplained.iter().map(|line| line.path.clone()));
    paths.flat_map(|path| packages_of(&path)).collect()
}

fn evidence_paths(intent: &Intent) -> Vec<String> {
    intent.evidence.iter().map(|line| line.path.clone()).collect()
}

/// The package a source file's path says: the directories after the last `java`, `kotlin` or
/// `groovy` directory; in other layouts every tail of its directory (`src/com/acme` may hold
/// `com.acme`), as the path alone cannot tell where the package starts.
fn packages_of(path: &str) -> Vec<String> {
    const SOURCES: [&str; 3] = [".java", ".kt", ".groovy"];
    let Some((dir, file)) = path.rsplit_once('/') else { return Vec::new() };
    if !SOURCES.iter().any(|ext| file.ends_with(ext)) {
        return Vec::new();
    }
    let parts: Vec<&str> = dir.split('/').collect();
    match parts.iter().rposition(|p| matches!(*p, "java" | "kotlin" | "groovy")) {
        Some(root) if root + 1 < parts.len() => vec![parts[root + 1..].join(".")],
        Some(_) => Vec::new(),
        None => (0..parts.len()).map(|start| parts[start..].join(".")).collect(),
    }
}

/// The package of a fully qualified type name: its lower-case leading parts (`a.b.Outer.Inner` is
/// in `a.b`).
fn package_of_type(name: &str) -> String {
    let parts: Vec<&str> =
        name.split('.').take_while(|p| p.chars().next().is_some_and(|c| !c.is_uppercase())).collect();
    parts.join(".")
}

fn is_own(change: &Change, packages: &BTreeSet<String>) -> bool {
    let own_type = |name: &str| packages.contains(&package_of_type(name));
    match change {
        Change::JavaTypeRename { old_type, .. } | Change::JavaStaticCallTarget { old_type, .. } => {
            own_type(old_type)
        }
        Change::JavaAnnotationChange { old_annotation, .. } => own_type(old_annotation),
        // A method renamed on a type the analysis could not name is most likely the repository's
        // own: a library's renamed methods come with their imports, which name the type.
        Change::JavaMethodRename { declaring_type, .. } => {
            declaring_type.is_empty() || own_type(declaring_type)
        }
        // Moving a package moves its files: the old package, or one below it, is among them.
        Change::JavaPackageMove { old_package, .. } => {
            packages.iter().any(|p| p == old_package || p.starts_with(&format!("{old_package}.")))
        }
        // A value set, added or removed is the application's choice; a renamed key is what a
        // framework does to its users (Spring Boot's property migrations), so it is not counted.
        Change::PropertiesValueChange { .. }
        | Change::PropertiesKeyAdded { .. }
        | Change::PropertiesKeyRemoved { .. }
        | Change::YamlValueChange { .. }
        | Change::YamlKeyAdded { .. }
        | Change::YamlKeyRemoved { .. } => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packages(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn packages_come_from_source_paths() {
        assert_eq!(packages_of("src/main/java/com/acme/billing/Ledger.java"), ["com.acme.billing"]);
        assert_eq!(packages_of("app/src/test/kotlin/com/acme/AppTest.kt"), ["com.acme"]);
        assert_eq!(packages_of("src/com/acme/A.java"), ["src.com.acme", "com.acme", "acme"]);
        assert!(packages_of("src/main/resources/application.properties").is_empty());
        assert!(packages_of("Main.java").is_empty());
        assert!(packages_of("src/main/java/Main.java").is_empty(), "the default package");
        assert_eq!(package_of_type("com.acme.Outer.Inner"), "com.acme");
        assert_eq!(package_of_type("javax.persistence.Entity"), "javax.persistence");
    }

    #[test]
    fn renames_of_the_repositorys_own_code_and_values_of_its_configuration_are_its_own() {
        let own = packages(&["com.acme.billing", "com.acme.billing.export"]);
        let rename = |old: &str| Change::JavaTypeRename { old_type: old.into(), new_type: "x.Y".into() };
        assert!(is_own(&rename("com.acme.billing.Invoice"), &own));
        assert!(!is_own(&rename("javax.persistence.Entity"), &own));
        assert!(!is_own(&rename("com.acme.Other"), &own), "a package the PR does not touch");
        let moved = |old: &str| Change::JavaPackageMove { old_package: old.into(), new_package: "n".into() };
        assert!(is_own(&moved("com.acme"), &own), "a parent of the PR's packages");
        assert!(!is_own(&moved("javax.persistence"), &own));
        let method = |declaring: &str| Change::JavaMethodRename {
            old_method: "amount".into(),
            new_method: "total".into(),
            declaring_type: declaring.into(),
        };
        assert!(is_own(&method("com.acme.billing.Invoice"), &own));
        assert!(is_own(&method(""), &own));
        assert!(!is_own(&method("org.junit.Assert"), &own));
        let value = Change::PropertiesValueChange {
            key: "billing.retry".into(),
            old_value: "3".into(),
            new_value: "5".into(),
        };
        assert!(is_own(&value, &own));
        let renamed_key = Change::PropertiesKeyRename {
            old_key: "spring.datasource.initialization-mode".into(),
            new_key: "spring.sql.init.mode".into(),
        };
        assert!(!is_own(&renamed_key, &own));
    }
}
