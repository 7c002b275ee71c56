//! Option 2, narrow: each atomic intent mapped to the most specific semantic recipe with exact
//! options. Kinds without a semantic recipe, and recipes the catalog does not have, fall back to
//! plain-text replacements of exactly the PR's lines (see [`super::text`]).

use crate::model::intent::{Intent, kind};
use crate::model::java_level::java_major;
use crate::openrewrite::RecipeStep;

/// The semantic recipe(s) for one atomic intent, or None when only text can reproduce it.
pub fn semantic_steps(intent: &Intent) -> Option<Vec<RecipeStep>> {
    let p = |key: &str| intent.param(key).to_string();
    let file = p("file");
    let steps = match intent.kind.as_str() {
        kind::JAVA_PACKAGE_MOVE => vec![
            RecipeStep::new("org.openrewrite.java.ChangePackage")
                .with("oldPackageName", p("old_package"))
                .with("newPackageName", p("new_package"))
                .with_bool("recursive", false),
        ],
        kind::JAVA_TYPE_RENAME => vec![
            RecipeStep::new("org.openrewrite.java.ChangeType")
                .with("oldFullyQualifiedTypeName", p("old_type"))
                .with("newFullyQualifiedTypeName", p("new_type")),
        ],
        kind::JAVA_ANNOTATION_CHANGE
            if is_qualified(&p("old_annotation")) && is_qualified(&p("new_annotation")) =>
        {
            vec![
                RecipeStep::new("org.openrewrite.java.ChangeType")
                    .with("oldFullyQualifiedTypeName", p("old_annotation"))
                    .with("newFullyQualifiedTypeName", p("new_annotation")),
            ]
        }
        kind::JAVA_METHOD_RENAME if is_qualified(&p("declaring_type")) => vec![
            RecipeStep::new("org.openrewrite.java.ChangeMethodName")
                .with("methodPattern", format!("{} {}(..)", p("declaring_type"), p("old_method")))
                .with("newMethodName", p("new_method")),
        ],
        kind::JAVA_STATIC_CALL_TARGET if is_qualified(&p("old_type")) && is_qualified(&p("new_type")) => {
            vec![
                RecipeStep::new("org.openrewrite.java.ChangeMethodTargetToStatic")
                    .with("methodPattern", format!("{} {}(..)", p("old_type"), p("method")))
                    .with("fullyQualifiedTargetTypeName", p("new_type")),
            ]
        }
        kind::MAVEN_PARENT_CHANGE => {
            let mut step = RecipeStep::new("org.openrewrite.maven.ChangeParentPom")
                .with("oldGroupId", p("old_group_id"))
                .with("oldArtifactId", p("old_artifact_id"))
                .with("newVersion", p("new_version"))
                .with_bool("allowVersionDowngrades", true);
            if p("new_group_id") != p("old_group_id") {
                step = step.with("newGroupId", p("new_group_id"));
            }
            if p("new_artifact_id") != p("old_artifact_id") {
                step = step.with("newArtifactId", p("new_artifact_id"));
            }
            vec![step]
        }
        kind::MAVEN_PROPERTY_CHANGE => vec![
            RecipeStep::new("org.openrewrite.maven.ChangePropertyValue")
                .with("key", p("key"))
                .with("newValue", p("new_value")),
        ],
        kind::MAVEN_DEPENDENCY_VERSION => vec![
            RecipeStep::new("org.openrewrite.maven.UpgradeDependencyVersion")
                .with("groupId", p("group_id"))
                .with("artifactId", p("artifact_id"))
                .with("newVersion", p("new_version")),
        ],
        kind::MAVEN_DEPENDENCY_SWAP => {
            let name = if p("managed") == "true" {
                "org.openrewrite.maven.ChangeManagedDependencyGroupIdAndArtifactId"
            } else {
                "org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId"
            };
            let mut step = RecipeStep::new(name)
                .with("oldGroupId", p("old_group_id"))
                .with("oldArtifactId", p("old_artifact_id"))
                .with("newGroupId", p("new_group_id"))
                .with("newArtifactId", p("new_artifact_id"));
            if !p("new_version").is_empty() {
                step = step.with("newVersion", p("new_version"));
            }
            vec![step]
        }
        kind::MAVEN_DEPENDENCY_ADDED => {
            let mut step = RecipeStep::new("org.openrewrite.maven.AddDependency")
                .with("groupId", p("group_id"))
                .with("artifactId", p("artifact_id"))
                .with("version", p("version"));
            if !p("scope").is_empty() && p("scope") != "compile" {
                step = step.with("scope", p("scope"));
            }
            vec![step]
        }
        kind::MAVEN_PROPERTY_ADDED => vec![
            RecipeStep::new("org.openrewrite.maven.AddProperty")
                .with("key", p("key"))
                .with("value", p("value")),
        ],
        kind::MAVEN_PROPERTY_REMOVED => {
            vec![RecipeStep::new("org.openrewrite.maven.RemoveProperty").with("propertyName", p("key"))]
        }
        kind::MAVEN_DEPENDENCY_REMOVED => vec![
            RecipeStep::new("org.openrewrite.maven.RemoveDependency")
                .with("groupId", p("group_id"))
                .with("artifactId", p("artifact_id")),
        ],
        kind::MAVEN_PLUGIN_VERSION => vec![
            RecipeStep::new("org.openrewrite.maven.UpgradePluginVersion")
                .with("groupId", non_empty(p("group_id"), "org.apache.maven.plugins"))
                .with("artifactId", p("artifact_id"))
                .with("newVersion", p("new_version")),
        ],
        kind::GRADLE_DEPENDENCY_VERSION => vec![
            RecipeStep::new("org.openrewrite.gradle.UpgradeDependencyVersion")
                .with("groupId", p("group_id"))
                .with("artifactId", p("artifact_id"))
                .with("newVersion", p("new_version")),
        ],
        kind::GRADLE_DEPENDENCY_SWAP => {
            let mut step = RecipeStep::new("org.openrewrite.gradle.ChangeDependency")
                .with("oldGroupId", p("old_group_id"))
                .with("oldArtifactId", p("old_artifact_id"))
                .with("newGroupId", p("new_group_id"))
                .with("newArtifactId", p("new_artifact_id"));
            if !p("new_version").is_empty() {
                step = step.with("newVersion", p("new_version"));
            }
            vec![step]
        }
        kind::GRADLE_DEPENDENCY_ADDED => {
            let mut step = RecipeStep::new("org.openrewrite.gradle.AddDependency")
                .with("groupId", p("group_id"))
                .with("artifactId", p("artifact_id"))
                .with("version", p("version"));
            if !p("configuration").is_empty() {
                step = step.with("configuration", p("configuration"));
            }
            vec![step]
        }
        kind::GRADLE_DEPENDENCY_REMOVED => vec![
            RecipeStep::new("org.openrewrite.gradle.RemoveDependency")
                .with("groupId", p("group_id"))
                .with("artifactId", p("artifact_id")),
        ],
        kind::PROPERTIES_KEY_RENAME => vec![
            RecipeStep::new("org.openrewrite.properties.ChangePropertyKey")
                .with("oldPropertyKey", p("old_key"))
                .with("newPropertyKey", p("new_key")),
        ],
        kind::PROPERTIES_VALUE_CHANGE => vec![
            RecipeStep::new("org.openrewrite.properties.ChangePropertyValue")
                .with("propertyKey", p("key"))
                .with("newValue", p("new_value"))
                .with("oldValue", p("old_value")),
        ],
        kind::PROPERTIES_KEY_REMOVED => {
            vec![RecipeStep::new("org.openrewrite.properties.DeleteProperty").with("propertyKey", p("key"))]
        }
        kind::YAML_KEY_RENAME => vec![
            RecipeStep::new("org.openrewrite.yaml.ChangePropertyKey")
                .with("oldPropertyKey", p("old_key"))
                .with("newPropertyKey", p("new_key"))
                .with("filePattern", file.clone()),
        ],
        // List items (`matrix.java[0]`) are not keys ChangePropertyValue can address.
        kind::YAML_VALUE_CHANGE | kind::GITHUB_ACTIONS_VALUE_CHANGE
            if !p("key").is_empty() && !p("key").contains('[') =>
        {
            vec![
                RecipeStep::new("org.openrewrite.yaml.ChangePropertyValue")
                    .with("propertyKey", p("key"))
                    .with("newValue", p("new_value"))
                    .with("oldValue", p("old_value"))
                    .with("filePattern", file.clone()),
            ]
        }
        kind::GITHUB_ACTIONS_SETUP_JAVA => {
            // setup-java's `with:` values under any job and step; ChangePropertyValue keeps quoting.
            let mut steps = Vec::new();
            for (key, old, new) in [
                ("java-version", p("old_version"), p("new_version")),
                ("distribution", p("old_distribution"), p("new_distribution")),
            ] {
                if !new.is_empty() && old != new {
                    steps.push(
                        RecipeStep::new("org.openrewrite.yaml.ChangePropertyValue")
                            .with("propertyKey", format!("jobs.*.steps.with.{key}"))
                            .with("newValue", new)
                            .with("oldValue", old)
                            .with("filePattern", file.clone()),
                    );
                }
            }
            if steps.is_empty() {
                return None;
            }
            steps
        }
        kind::GRADLE_PLUGIN_VERSION if !p("plugin_id").is_empty() && !p("new_version").is_empty() => vec![
            RecipeStep::new("org.openrewrite.gradle.plugins.UpgradePluginVersion")
                .with("pluginIdPattern", p("plugin_id"))
                .with("newVersion", p("new_version")),
        ],
        // UpdateJavaCompatibility writes Java's source/target compatibility; Kotlin's `jvmTarget`
        // is not among what it changes, so that stays a text edit.
        kind::GRADLE_JAVA_COMPATIBILITY => {
            let version = java_major(&p("new_value"))?;
            let property = p("property");
            let compatibility = if property.ends_with("sourceCompatibility") {
                "source"
            } else if property.ends_with("targetCompatibility") {
                "target"
            } else {
                return None;
            };
            vec![
                RecipeStep::new("org.openrewrite.gradle.UpdateJavaCompatibility")
                    .with("version", version.to_string())
                    .with("compatibilityType", compatibility),
            ]
        }
        // Commit-SHA pins carry their version in a trailing comment the recipe does not write.
        kind::GITHUB_ACTIONS_ACTION_VERSION
            if !p("action").is_empty() && !is_commit_sha(&p("old_ref")) && !is_commit_sha(&p("new_ref")) =>
        {
            vec![
                RecipeStep::new("org.openrewrite.github.ChangeActionVersion")
                    .with("action", p("action"))
                    .with("version", p("new_ref")),
            ]
        }
        kind::DOCKER_FROM_CHANGE => {
            let mut step =
                RecipeStep::new("org.openrewrite.docker.ChangeFrom").with("oldImageName", p("old_image"));
            if !p("old_tag").is_empty() {
                step = step.with("oldTag", p("old_tag"));
            }
            if p("new_image") != p("old_image") && !p("new_image").is_empty() {
                step = step.with("newImageName", p("new_image"));
            }
            if !p("new_tag").is_empty() {
                step = step.with("newTag", p("new_tag"));
            }
            vec![step]
        }
        _ => return None,
    };
    Some(steps)
}

fn is_commit_sha(reference: &str) -> bool {
    reference.len() == 40 && reference.bytes().all(|b| b.is_ascii_hexdigit())
}

fn is_qualified(name: &str) -> bool {
    name.contains('.') && !name.starts_with('.') && !name.ends_with('.')
}

fn non_empty(value: String, default: &str) -> String {
    if value.is_empty() { default.to_string() } else { value }
}

/// Why a kind maps to its recipe, for the creation analysis.
pub fn reason(intent: &Intent, step: &RecipeStep) -> String {
    let short = step.name.rsplit('.').next().unwrap_or(&step.name);
    format!("{short} reproduces {} `{}` ({}) with exact options.", intent.kind, intent.title, intent.id)
}
