//! What a PR's migration moves away from ([`OldLibrary`]), read off its intent tree: the types,
//! packages and static call targets it moves code away from, the dependencies it removes or
//! swaps, the configuration keys it renames, the Java version it leaves. Only the migration's own
//! intents count (the members of its strategic intents, when it has any): a README edit or a key
//! of the application's own configuration beside it is not the old library.
//!
//! A moved type is the unit, not its package: a PR that moves `Preconditions.checkNotNull` to the
//! JDK leaves Guava's other types in use on purpose. The package becomes the unit when the library
//! goes as a whole — a package moved (`javax.persistence`), or the dependency whose group names the
//! type's package removed or swapped — and for JUnit 4, whose types all sit in `org.junit`.

use crate::model::intent::{IntentTree, Level};
use crate::model::residual::OldLibrary;
use crate::model::{Change, Strategic};

/// JUnit 4's package, and JUnit 5's below it (which is not the old library).
const JUNIT4: &str = "org.junit";
const JUNIT5: [&str; 2] = ["org.junit.jupiter", "org.junit.platform"];

/// The old library of `tree`'s migration (empty when it names none).
pub(crate) fn of(tree: &IntentTree) -> OldLibrary {
    let strategic: Vec<_> = tree.intents.iter().filter(|i| i.level() == Level::Strategic).collect();
    let changes: Vec<&Change> = if strategic.is_empty() {
        tree.atomics().into_iter().filter_map(|a| a.change()).collect()
    } else {
        strategic.iter().flat_map(|s| s.atomics()).filter_map(|a| a.change()).collect()
    };
    let mut old = OldLibrary::default();
    for change in &changes {
        add(&mut old, change);
    }
    let gone: Vec<String> = changes.iter().filter_map(|c| removed_group(c)).collect();
    for moved in changes.iter().filter_map(|c| moved_type(c)) {
        let package = package_of(&moved.0);
        if gone.iter().any(|group| {
            group.contains('.') && (package == *group || package.starts_with(&format!("{group}.")))
        }) {
            old.packages.push(package.to_string());
            old.new_packages.push(package_of(&moved.1).to_string());
        }
    }
    for node in &strategic {
        match Strategic::of(node) {
            Some(Strategic::JUnit) => {
                old.packages.push(JUNIT4.into());
                old.new_packages.extend(JUNIT5.iter().map(|p| p.to_string()));
            }
            Some(Strategic::Java { from, .. }) => old.java_version = Some(from),
            // A library swapped for another: the packages the code moved away from go with it.
            Some(Strategic::Dependency { .. }) => {
                for (from, to) in node.atomics().into_iter().filter_map(|a| moved_type(a.change()?)) {
                    old.packages.push(package_of(&from).to_string());
                    old.new_packages.push(package_of(&to).to_string());
                }
            }
            _ => {}
        }
    }
    old.normalized()
}

/// The old library of the analysis whose intent tree is the file `path` (its `intent-tree.json`);
/// None when there is no such file, or it is not an intent tree.
pub fn of_tree_file(path: &std::path::Path) -> Option<OldLibrary> {
    let text = std::fs::read_to_string(path).ok()?;
    let tree: IntentTree = serde_json::from_str(&text).ok()?;
    Some(of(&tree))
}

/// The old library of the PR `base..head` of `repo` (its intent tree, computed here).
pub fn of_pr(repo: &crate::setup::Repo, base: &str, head: &str) -> anyhow::Result<OldLibrary> {
    Ok(of(&super::extract(repo, base, head, None)?))
}

/// What the recipe `name` of the recipe file `yaml` (its only one when None) moves away from, read
/// off its steps' options, where no PR tells: the packages and types it changes away from, the
/// dependencies and plugins it removes or replaces, the keys it renames; JUnit 4 for the catalog's
/// JUnit 5 migration. Empty when the file does not read.
pub fn of_recipe(yaml: &str, name: Option<&str>) -> OldLibrary {
    let Ok(file) = crate::openrewrite::RecipeFile::parse(yaml) else { return OldLibrary::default() };
    let Some(name) = name.map(str::to_string).or_else(|| file.roots().first().map(|r| r.to_string())) else {
        return OldLibrary::default();
    };
    let mut old = OldLibrary::default();
    for step in file.family(&name).into_iter().flat_map(|r| &r.steps) {
        step_says(&mut old, step);
    }
    old.normalized()
}

/// What one recipe step says of the old library.
fn step_says(old: &mut OldLibrary, step: &crate::openrewrite::RecipeStep) {
    let text = |key: &str| Some(step.text(key)).filter(|v| !v.is_empty() && !v.contains('*'));
    let simple = crate::openrewrite::simple_name(&step.name);
    match simple {
        "JUnit4to5Migration" => {
            old.packages.push(JUNIT4.into());
            old.new_packages.extend(JUNIT5.iter().map(|p| p.to_string()));
            old.dependencies.push("junit:junit".into());
        }
        "ChangePackage" => {
            old.packages.extend(text("oldPackageName"));
            old.new_packages.extend(text("newPackageName"));
        }
        "ChangeType" => {
            old.types.extend(text("oldFullyQualifiedTypeName"));
            old.new_packages.extend(text("newFullyQualifiedTypeName").map(|t| package_of(&t).to_string()));
        }
        "ChangeDependency" | "ChangeDependencyGroupIdAndArtifactId" => {
            if let (Some(group), Some(artifact)) = (text("oldGroupId"), text("oldArtifactId")) {
                old.dependencies.push(format!("{group}:{artifact}"));
            }
        }
        "RemoveDependency" | "RemovePlugin" => {
            if let (Some(group), Some(artifact)) = (text("groupId"), text("artifactId")) {
                let list = if simple == "RemovePlugin" { &mut old.plugins } else { &mut old.dependencies };
                list.push(format!("{group}:{artifact}"));
            }
        }
        "ChangePropertyKey" | "ChangeSpringPropertyKey" => old.config_keys.extend(text("oldPropertyKey")),
        _ => {}
    }
}

/// What one change says of the old library.
fn add(old: &mut OldLibrary, change: &Change) {
    match change {
        Change::JavaPackageMove { old_package, new_package } => {
            old.packages.push(old_package.clone());
            old.new_packages.push(new_package.clone());
        }
        Change::JavaTypeRename { old_type, new_type }
        | Change::JavaStaticCallTarget { old_type, new_type, .. } => {
            // A type renamed within its package is the repository's own refactoring, or a
            // library's rename; either way the old name is what must not be left.
            old.types.push(old_type.clone());
            if package_of(old_type) != package_of(new_type) {
                old.new_packages.push(package_of(new_type).to_string());
            }
        }
        Change::JavaAnnotationChange { old_annotation, new_annotation } => {
            old.types.push(old_annotation.clone());
            old.new_packages.push(package_of(new_annotation).to_string());
        }
        Change::MavenDependencySwap { old_group_id, old_artifact_id, .. }
        | Change::GradleDependencySwap { old_group_id, old_artifact_id, .. } => {
            old.dependencies.push(format!("{old_group_id}:{old_artifact_id}"));
        }
        Change::MavenDependencyRemoved { group_id, artifact_id, .. }
        | Change::GradleDependencyRemoved { group_id, artifact_id, .. } => {
            old.dependencies.push(format!("{group_id}:{artifact_id}"));
        }
        Change::MavenPluginRemoved { group_id, artifact_id } => {
            old.plugins.push(format!("{group_id}:{artifact_id}"));
        }
        Change::PropertiesKeyRename { old_key, .. } | Change::YamlKeyRename { old_key, .. } => {
            old.config_keys.push(old_key.clone());
        }
        _ => {}
    }
}

/// The group of a dependency the change removes (or swaps away).
fn removed_group(change: &Change) -> Option<String> {
    match change {
        Change::MavenDependencySwap { old_group_id: group, .. }
        | Change::GradleDependencySwap { old_group_id: group, .. }
        | Change::MavenDependencyRemoved { group_id: group, .. }
        | Change::GradleDependencyRemoved { group_id: group, .. } => Some(group.clone()),
        _ => None,
    }
}

/// The old and new names of a type the change moves code away from.
fn moved_type(change: &Change) -> Option<(String, String)> {
    match change {
        Change::JavaTypeRename { old_type, new_type }
        | Change::JavaStaticCallTarget { old_type, new_type, .. } => {
            Some((old_type.clone(), new_type.clone()))
        }
        Change::JavaAnnotationChange { old_annotation, new_annotation } => {
            Some((old_annotation.clone(), new_annotation.clone()))
        }
        _ => None,
    }
}

/// The package of a fully qualified name: the segments before the first that starts upper-case
/// (`org.junit.Assert.assertEquals` -> `org.junit`).
pub(crate) fn package_of(name: &str) -> &str {
    let mut end = 0;
    for (i, segment) in name.split('.').enumerate() {
        if segment == "*" || segment.chars().next().is_some_and(char::is_uppercase) {
            break;
        }
        end += segment.len() + usize::from(i > 0);
    }
    &name[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recipe_says_what_it_moves_away_from() {
        let yaml = "type: specs.openrewrite.org/v1beta/recipe\nname: a.Migrate\nrecipeList:\n  - org.openrewrite.java.ChangePackage:\n      oldPackageName: javax.persistence\n      newPackageName: jakarta.persistence\n  - org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId:\n      oldGroupId: javax.persistence\n      oldArtifactId: javax.persistence-api\n      newGroupId: jakarta.persistence\n      newArtifactId: jakarta.persistence-api\n  - a.Tests\n---\ntype: specs.openrewrite.org/v1beta/recipe\nname: a.Tests\nrecipeList:\n  - org.openrewrite.java.testing.junit5.JUnit4to5Migration\n  - org.openrewrite.properties.ChangePropertyKey:\n      oldPropertyKey: a.b\n      newPropertyKey: a.c\n  - org.openrewrite.java.ChangeType:\n      oldFullyQualifiedTypeName: org.old.*\n      newFullyQualifiedTypeName: org.nw.X\n";
        let old = of_recipe(yaml, None);
        assert_eq!(old.packages, ["javax.persistence", "org.junit"]);
        assert_eq!(
            old.new_packages,
            ["jakarta.persistence", "org.junit.jupiter", "org.junit.platform", "org.nw"]
        );
        assert_eq!(old.dependencies, ["javax.persistence:javax.persistence-api", "junit:junit"]);
        assert_eq!(old.config_keys, ["a.b"]);
        assert!(old.types.is_empty(), "a pattern is no type");
        assert!(of_recipe("not: [yaml", None).is_empty());
    }

    #[test]
    fn packages_of_names() {
        assert_eq!(package_of("org.junit.Assert.assertEquals"), "org.junit");
        assert_eq!(package_of("org.junit.jupiter.api.Test"), "org.junit.jupiter.api");
        assert_eq!(package_of("javax.persistence.*"), "javax.persistence");
        assert_eq!(package_of("Foo"), "");
    }
}
