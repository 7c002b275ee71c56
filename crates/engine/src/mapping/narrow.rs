//! Option 2, narrow: each atomic intent mapped to the most specific semantic recipe with exact
//! options. Kinds without a semantic recipe, and recipes the catalog does not have, fall back to
//! plain-text replacements of exactly the PR's lines (see [`super::text`]).

use crate::model::intent::Intent;
use crate::model::java_level::java_major;
use crate::model::{Change, ChangeLine};
use crate::openrewrite::RecipeStep;
use crate::openrewrite::recipe_names::{
    ADD_SPRING_PROPERTY, CHANGE_METHOD_NAME, CHANGE_METHOD_TARGET_TO_STATIC, CHANGE_PACKAGE, CHANGE_TYPE,
    DOCKER_CHANGE_FROM, GITHUB_CHANGE_ACTION_VERSION, GRADLE_ADD_DEPENDENCY, GRADLE_CHANGE_DEPENDENCY,
    GRADLE_REMOVE_DEPENDENCY, GRADLE_UPDATE_JAVA_COMPATIBILITY, GRADLE_UPGRADE_DEPENDENCY_VERSION,
    GRADLE_UPGRADE_PLUGIN_VERSION, MAVEN_ADD_DEPENDENCY, MAVEN_ADD_PLUGIN, MAVEN_ADD_PROPERTY,
    MAVEN_ADD_REPOSITORY, MAVEN_CHANGE_DEPENDENCY_GROUP_ID_AND_ARTIFACT_ID,
    MAVEN_CHANGE_MANAGED_DEPENDENCY_GROUP_ID_AND_ARTIFACT_ID, MAVEN_CHANGE_PARENT_POM,
    MAVEN_CHANGE_PROPERTY_VALUE, MAVEN_REMOVE_DEPENDENCY, MAVEN_REMOVE_PROPERTY,
    MAVEN_UPGRADE_DEPENDENCY_VERSION, MAVEN_UPGRADE_PLUGIN_VERSION, PROPERTIES_ADD_PROPERTY,
    PROPERTIES_CHANGE_PROPERTY_KEY, PROPERTIES_CHANGE_PROPERTY_VALUE, PROPERTIES_DELETE_PROPERTY,
    TOML_CHANGE_VALUE, UPGRADE_KOTLIN_JVM_TARGET_VERSION, YAML_CHANGE_PROPERTY_KEY,
    YAML_CHANGE_PROPERTY_VALUE,
};
use crate::openrewrite::recipe_yaml::OptionValue;

/// The semantic recipe(s) for one atomic intent, or None when only text can reproduce it.
pub(crate) fn semantic_steps(intent: &Intent) -> Option<Vec<RecipeStep>> {
    let file = intent.file();
    let change = intent.change()?.clone();
    // Every kind is routed here, with no catch-all: a new kind must be given a mapping or be
    // declared text-only.
    match change {
        Change::JavaPackageMove { .. }
        | Change::JavaTypeRename { .. }
        | Change::JavaAnnotationChange { .. }
        | Change::JavaMethodRename { .. }
        | Change::JavaStaticCallTarget { .. } => java(change),
        Change::MavenParentChange { .. }
        | Change::MavenPropertyChange { .. }
        | Change::MavenPropertyAdded { .. }
        | Change::MavenPropertyRemoved { .. }
        | Change::MavenDependencyVersion { .. }
        | Change::MavenDependencySwap { .. }
        | Change::MavenDependencyAdded { .. }
        | Change::MavenDependencyRemoved { .. }
        | Change::MavenPluginVersion { .. }
        | Change::MavenPluginConfig { .. }
        | Change::MavenPluginRemoved { .. }
        | Change::MavenRepositoryChange { .. } => maven(change),
        Change::MavenPluginAdded { .. } => plugin_added(change, &intent.evidence, file),
        Change::GradleDependencyVersion { .. }
        | Change::GradleDependencySwap { .. }
        | Change::GradleDependencyAdded { .. }
        | Change::GradleDependencyRemoved { .. }
        | Change::GradlePluginVersion { .. }
        | Change::GradleJavaCompatibility { .. }
        | Change::GradleToolchain { .. }
        | Change::GradleWrapperVersion { .. }
        | Change::GradleCatalogValue { .. } => gradle(change),
        Change::PropertiesKeyRename { .. }
        | Change::PropertiesValueChange { .. }
        | Change::PropertiesKeyAdded { .. }
        | Change::PropertiesKeyRemoved { .. }
        | Change::YamlKeyRename { .. }
        | Change::YamlValueChange { .. }
        | Change::GithubActionsValueChange { .. } => config(change, &workflow_files(intent)),
        Change::GithubActionsSetupJava { .. }
        | Change::GithubActionsActionVersion { .. }
        | Change::DockerFromChange { .. } => ci_and_images(change, &workflow_files(intent)),
        // Added and removed config keys (not mapped yet), and plain text, whitespace and files:
        // text reproduces them exactly.
        Change::YamlKeyAdded { .. }
        | Change::YamlKeyRemoved { .. }
        | Change::TextEdit { .. }
        | Change::FileAdded { .. }
        | Change::FileDeleted { .. }
        | Change::FileRenamed { .. }
        | Change::Whitespace {}
        | Change::ImportOrder {} => None,
    }
}

/// OpenRewrite's version selector for the newest release.
const LATEST_RELEASE: &str = "latest.release";

/// Java renames: types, packages, annotations, methods, static call targets.
fn java(change: Change) -> Option<Vec<RecipeStep>> {
    match change {
        Change::JavaPackageMove { old_package, new_package } => Some(vec![
            RecipeStep::new(CHANGE_PACKAGE)
                .with("oldPackageName", old_package)
                .with("newPackageName", new_package)
                .with_bool("recursive", false),
        ]),
        Change::JavaTypeRename { old_type, new_type } => Some(vec![change_type(old_type, new_type)]),
        // Unqualified names cannot be matched by type: text instead.
        Change::JavaAnnotationChange { old_annotation, new_annotation } => (is_qualified(&old_annotation)
            && is_qualified(&new_annotation))
        .then(|| vec![change_type(old_annotation, new_annotation)]),
        Change::JavaMethodRename { old_method, new_method, declaring_type } => is_qualified(&declaring_type)
            .then(|| {
                vec![
                    RecipeStep::new(CHANGE_METHOD_NAME)
                        .with("methodPattern", format!("{declaring_type} {old_method}(..)"))
                        .with("newMethodName", new_method),
                ]
            }),
        Change::JavaStaticCallTarget { method, old_type, new_type, new_method } => {
            (is_qualified(&old_type) && is_qualified(&new_type)).then(|| {
                let mut steps = vec![
                    RecipeStep::new(CHANGE_METHOD_TARGET_TO_STATIC)
                        .with("methodPattern", format!("{old_type} {method}(..)"))
                        .with("fullyQualifiedTargetTypeName", new_type.clone()),
                ];
                // The call is on the new type now, under its old name.
                if !new_method.is_empty() && new_method != method && method != "*" {
                    steps.push(
                        RecipeStep::new(CHANGE_METHOD_NAME)
                            .with("methodPattern", format!("{new_type} {method}(..)"))
                            .with("newMethodName", new_method),
                    );
                }
                steps
            })
        }
        // Routed elsewhere by semantic_steps.
        _ => None,
    }
}

/// The POM: parent, properties, dependencies, plugins.
fn maven(change: Change) -> Option<Vec<RecipeStep>> {
    match change {
        change @ Change::MavenParentChange { .. } => parent_pom(change),
        Change::MavenPropertyChange { key, new_value, .. } => Some(vec![
            RecipeStep::new(MAVEN_CHANGE_PROPERTY_VALUE).with("key", key).with("newValue", new_value),
        ]),
        Change::MavenPropertyAdded { key, value, .. } => {
            Some(vec![RecipeStep::new(MAVEN_ADD_PROPERTY).with("key", key).with("value", value)])
        }
        Change::MavenPropertyRemoved { key, .. } => {
            Some(vec![RecipeStep::new(MAVEN_REMOVE_PROPERTY).with("propertyName", key)])
        }
        Change::MavenDependencyVersion { group_id, artifact_id, new_version, .. } => {
            Some(vec![upgrade_dependency(
                MAVEN_UPGRADE_DEPENDENCY_VERSION,
                group_id,
                artifact_id,
                new_version,
            )])
        }
        Change::MavenDependencySwap {
            old_group_id,
            old_artifact_id,
            new_group_id,
            new_artifact_id,
            new_version,
            managed,
            ..
        } => {
            let name = if managed {
                MAVEN_CHANGE_MANAGED_DEPENDENCY_GROUP_ID_AND_ARTIFACT_ID
            } else {
                MAVEN_CHANGE_DEPENDENCY_GROUP_ID_AND_ARTIFACT_ID
            };
            Some(vec![change_dependency(
                name,
                old_group_id,
                old_artifact_id,
                new_group_id,
                new_artifact_id,
                new_version,
            )])
        }
        Change::MavenDependencyAdded { group_id, artifact_id, version, scope, .. } => {
            // Added without a version: something manages it (the parent, a BOM), and AddDependency
            // then writes none; the selector only matters where nothing does.
            let version = if version.is_empty() { LATEST_RELEASE.to_string() } else { version };
            let step = RecipeStep::new(MAVEN_ADD_DEPENDENCY)
                .with("groupId", group_id)
                .with("artifactId", artifact_id)
                .with("version", version);
            let scope = if scope == "compile" { String::new() } else { scope };
            Some(vec![with_non_empty(step, "scope", scope)])
        }
        Change::MavenDependencyRemoved { group_id, artifact_id, .. } => Some(vec![
            RecipeStep::new(MAVEN_REMOVE_DEPENDENCY)
                .with("groupId", group_id)
                .with("artifactId", artifact_id),
        ]),
        Change::MavenPluginVersion { group_id, artifact_id, new_version, .. } => Some(vec![
            RecipeStep::new(MAVEN_UPGRADE_PLUGIN_VERSION)
                .with("groupId", non_empty(group_id, "org.apache.maven.plugins"))
                .with("artifactId", artifact_id)
                .with("newVersion", new_version),
        ]),
        change @ Change::MavenRepositoryChange { .. } => added_repository(&change),
        // Not mapped yet (text): OpenRewrite has plugin recipes (RemovePlugin,
        // ChangePluginConfiguration, …), but none is mapped from these intents.
        Change::MavenPluginConfig { .. } | Change::MavenPluginRemoved { .. } => None,
        // Routed elsewhere by semantic_steps.
        _ => None,
    }
}

/// ChangeParentPom for a new parent (None: not a parent change).
fn parent_pom(change: Change) -> Option<Vec<RecipeStep>> {
    let Change::MavenParentChange {
        old_group_id,
        old_artifact_id,
        new_group_id,
        new_artifact_id,
        new_version,
        drops_managed_versions,
        ..
    } = change
    else {
        return None;
    };
    let mut step = RecipeStep::new(MAVEN_CHANGE_PARENT_POM)
        .with("oldGroupId", &old_group_id)
        .with("oldArtifactId", &old_artifact_id)
        .with("newVersion", new_version)
        .with_bool("allowVersionDowngrades", true);
    // ChangeParentPom removes the explicit versions the new parent manages unless told which to
    // keep: a PR that kept them all keeps them all.
    if !drops_managed_versions {
        step = step.with_list("except", vec!["*:*".to_string()]);
    }
    if new_group_id != old_group_id {
        step = step.with("newGroupId", new_group_id);
    }
    if new_artifact_id != old_artifact_id {
        step = step.with("newArtifactId", new_artifact_id);
    }
    Some(vec![step])
}

/// AddRepository for a repository added to the project (not to a profile: the recipe adds at the
/// top level). None for any other repository change: URL changes and removals are not mapped.
fn added_repository(change: &Change) -> Option<Vec<RecipeStep>> {
    let Change::MavenRepositoryChange { change, section, id, new_url, name, snapshots, releases, .. } =
        change
    else {
        return None;
    };
    if change != "added" || !matches!(section.as_str(), "repositories" | "pluginRepositories") {
        return None;
    }
    let mut step = RecipeStep::new(MAVEN_ADD_REPOSITORY).with("id", id).with("url", new_url);
    if section == "pluginRepositories" {
        step = step.with("type", "PluginRepository");
    }
    if !name.is_empty() {
        step = step.with("repoName", name);
    }
    for (key, value) in [("snapshotsEnabled", snapshots), ("releasesEnabled", releases)] {
        if let Ok(enabled) = value.parse::<bool>() {
            step = step.with_bool(key, enabled);
        }
    }
    Some(vec![step])
}

/// A plugin added to the project's build with nothing but its coordinates: AddPlugin writes
/// exactly those (in this POM only: without a file pattern it adds to every module). One with
/// configuration, executions or dependencies, or added elsewhere (pluginManagement, a profile),
/// stays text.
fn plugin_added(change: Change, evidence: &[ChangeLine], file: &str) -> Option<Vec<RecipeStep>> {
    let Change::MavenPluginAdded { group_id, artifact_id, version, section } = change else { return None };
    let coordinates_only = evidence.iter().all(|line| {
        let text = line.content.trim();
        ["<plugin>", "</plugin>", "<groupId>", "<artifactId>", "<version>"]
            .iter()
            .any(|t| text.starts_with(t))
    });
    (section == "build/plugins" && coordinates_only && !artifact_id.is_empty()).then(|| {
        let step = RecipeStep::new(MAVEN_ADD_PLUGIN)
            .with("groupId", non_empty(group_id, "org.apache.maven.plugins"))
            .with("artifactId", artifact_id)
            .with("filePattern", crate::openrewrite::text::glob_escape(file));
        vec![with_non_empty(step, "version", version)]
    })
}

/// Gradle scripts: dependencies, plugins, the Java level.
fn gradle(change: Change) -> Option<Vec<RecipeStep>> {
    match change {
        // A version the PR removed (left to a platform or Spring's dependency management) stays
        // text: RemoveRedundantDependencyVersions (rewrite-gradle 8.89) also removes, whatever its
        // patterns, every second declaration of one coordinate in a `dependencies` block, such as
        // Lombok's `annotationProcessor` beside its `compileOnly`, which breaks the build; and
        // UpgradeDependencyVersion needs a version.
        Change::GradleDependencyVersion { new_version, .. } if new_version.is_empty() => None,
        Change::GradleDependencyVersion { group_id, artifact_id, new_version, .. } => {
            Some(vec![upgrade_dependency(
                GRADLE_UPGRADE_DEPENDENCY_VERSION,
                group_id,
                artifact_id,
                new_version,
            )])
        }
        Change::GradleDependencySwap {
            old_group_id,
            old_artifact_id,
            new_group_id,
            new_artifact_id,
            new_version,
            ..
        } => Some(vec![change_dependency(
            GRADLE_CHANGE_DEPENDENCY,
            old_group_id,
            old_artifact_id,
            new_group_id,
            new_artifact_id,
            new_version,
        )]),
        Change::GradleDependencyAdded { group_id, artifact_id, version, configuration } => {
            let step = RecipeStep::new(GRADLE_ADD_DEPENDENCY)
                .with("groupId", group_id)
                .with("artifactId", artifact_id)
                .with("version", version);
            Some(vec![with_non_empty(step, "configuration", configuration)])
        }
        Change::GradleDependencyRemoved { group_id, artifact_id, .. } => Some(vec![
            RecipeStep::new(GRADLE_REMOVE_DEPENDENCY)
                .with("groupId", group_id)
                .with("artifactId", artifact_id),
        ]),
        Change::GradlePluginVersion { plugin_id, new_version, .. } => {
            (!plugin_id.is_empty() && !new_version.is_empty()).then(|| {
                vec![
                    RecipeStep::new(GRADLE_UPGRADE_PLUGIN_VERSION)
                        .with("pluginIdPattern", plugin_id)
                        .with("newVersion", new_version),
                ]
            })
        }
        Change::GradleJavaCompatibility { property, new_value, .. } => {
            java_compatibility(&property, &new_value)
        }
        // The catalog is TOML: no Gradle recipe changes it (UpgradeDependencyVersion leaves
        // `libs.*` declarations alone), so its values are TOML's to change. `newValue` is TOML
        // source; a value that would need escaping stays text.
        Change::GradleCatalogValue { key, new_value, .. } => (!new_value.contains(['"', '\\'])).then(|| {
            vec![
                RecipeStep::new(TOML_CHANGE_VALUE)
                    .with("keyPath", key)
                    .with("newValue", format!("\"{new_value}\"")),
            ]
        }),
        // Not mapped yet (text): the wrapper's recipe downloads a distribution, and a toolchain
        // version has no recipe mapped.
        Change::GradleToolchain { .. } | Change::GradleWrapperVersion { .. } => None,
        // Routed elsewhere by semantic_steps.
        _ => None,
    }
}

/// Properties and YAML (workflow values are YAML too).
fn config(change: Change, file: &str) -> Option<Vec<RecipeStep>> {
    match change {
        Change::PropertiesKeyRename { old_key, new_key } => Some(vec![
            RecipeStep::new(PROPERTIES_CHANGE_PROPERTY_KEY)
                .with("oldPropertyKey", old_key)
                .with("newPropertyKey", new_key),
        ]),
        Change::PropertiesValueChange { key, old_value, new_value } => Some(vec![
            RecipeStep::new(PROPERTIES_CHANGE_PROPERTY_VALUE)
                .with("propertyKey", key)
                .with("newValue", new_value)
                .with("oldValue", old_value),
        ]),
        // A Spring Boot configuration file: the Spring recipe finds such files by name in any
        // repository (its default is `application.properties`); it inserts in key order.
        Change::PropertiesKeyAdded { key, value } if is_spring_config(file) => {
            let mut step = RecipeStep::new(ADD_SPRING_PROPERTY).with("property", key).with("value", value);
            let name = file.rsplit('/').next().unwrap_or(file);
            if name != "application.properties" {
                step.options.insert("pathExpressions".into(), OptionValue::List(vec![format!("**/{name}")]));
            }
            Some(vec![step])
        }
        // Any other properties file: the key at the end, in the PR's files only (see `scope`).
        Change::PropertiesKeyAdded { key, value } => Some(vec![
            RecipeStep::new(PROPERTIES_ADD_PROPERTY)
                .with("property", key)
                .with("value", value)
                .with_bool("orderedInsertion", false),
        ]),
        Change::PropertiesKeyRemoved { key } => {
            Some(vec![RecipeStep::new(PROPERTIES_DELETE_PROPERTY).with("propertyKey", key)])
        }
        Change::YamlKeyRename { old_key, new_key } => Some(vec![
            RecipeStep::new(YAML_CHANGE_PROPERTY_KEY)
                .with("oldPropertyKey", old_key)
                .with("newPropertyKey", new_key)
                .with("filePattern", file),
        ]),
        Change::YamlValueChange { key, old_value, new_value, .. } => {
            yaml_value(&key, old_value, new_value, file)
        }
        // The same value in several workflows (a step named "Set up JDK 11" in each): their jobs
        // have names of their own, and `file` is then a pattern for all of them.
        Change::GithubActionsValueChange { key, old_value, new_value } => {
            let key = if file.contains('*') { any_job(&key) } else { key };
            yaml_value(&key, old_value, new_value, file)
        }
        // Routed elsewhere by semantic_steps.
        _ => None,
    }
}

/// CI (setup-java, action versions) and container images.
fn ci_and_images(change: Change, file: &str) -> Option<Vec<RecipeStep>> {
    match change {
        Change::GithubActionsSetupJava { old_version, new_version, old_distribution, new_distribution } => {
            setup_java(
                [
                    ("java-version", old_version, new_version),
                    ("distribution", old_distribution, new_distribution),
                ],
                file,
            )
        }
        // Commit-SHA pins carry their version in a trailing comment the recipe does not write.
        Change::GithubActionsActionVersion { action, new_ref, .. } => {
            // A step pinned to a commit and moved to a tag is the same bump (the recipe rewrites
            // whatever ref is there). A commit the PR pins to usually carries a `# v4.1.0` comment
            // the recipe would not write, so that stays text.
            (!action.is_empty() && !is_commit_sha(&new_ref)).then(|| {
                vec![
                    RecipeStep::new(GITHUB_CHANGE_ACTION_VERSION)
                        .with("action", action)
                        .with("version", new_ref),
                ]
            })
        }
        Change::DockerFromChange { old_image, old_tag, new_image, new_tag } => {
            let step = RecipeStep::new(DOCKER_CHANGE_FROM).with("oldImageName", &old_image);
            let step = with_non_empty(step, "oldTag", old_tag);
            let new_image = if new_image == old_image { String::new() } else { new_image };
            let step = with_non_empty(step, "newImageName", new_image);
            Some(vec![with_non_empty(step, "newTag", new_tag)])
        }
        // Routed elsewhere by semantic_steps.
        _ => None,
    }
}

/// `UpgradeDependencyVersion` (`recipe` is Maven's or Gradle's).
fn upgrade_dependency(
    recipe: &str,
    group_id: String,
    artifact_id: String,
    new_version: String,
) -> RecipeStep {
    RecipeStep::new(recipe)
        .with("groupId", group_id)
        .with("artifactId", artifact_id)
        .with("newVersion", new_version)
}

/// A dependency replaced by another (`recipe` is Maven's or Gradle's), its version when given.
fn change_dependency(
    recipe: &str,
    old_group_id: String,
    old_artifact_id: String,
    new_group_id: String,
    new_artifact_id: String,
    new_version: String,
) -> RecipeStep {
    let step = RecipeStep::new(recipe)
        .with("oldGroupId", old_group_id)
        .with("oldArtifactId", old_artifact_id)
        .with("newGroupId", new_group_id)
        .with("newArtifactId", new_artifact_id);
    // A version kept in a property (`${servlet.version}`) stays there: given as `newVersion` the
    // recipe would write the reference into the property itself. The property's own change is an
    // intent of its own.
    let new_version = if new_version.trim_start().starts_with("${") { String::new() } else { new_version };
    with_non_empty(step, "newVersion", new_version)
}

fn change_type(old: String, new: String) -> RecipeStep {
    RecipeStep::new(CHANGE_TYPE).with("oldFullyQualifiedTypeName", old).with("newFullyQualifiedTypeName", new)
}

/// The option only when it has a value (OpenRewrite's default otherwise).
fn with_non_empty(step: RecipeStep, key: &str, value: String) -> RecipeStep {
    if value.is_empty() { step } else { step.with(key, value) }
}

/// UpdateJavaCompatibility writes Java's source/target compatibility; Kotlin's `jvmTarget` is not
/// among what it changes, so that stays a text edit.
fn java_compatibility(property: &str, new_value: &str) -> Option<Vec<RecipeStep>> {
    let version = java_major(new_value)?;
    // Kotlin's bytecode level (`kotlinOptions.jvmTarget`, `compilerOptions.jvmTarget`).
    if property.ends_with("jvmTarget") {
        return Some(vec![
            RecipeStep::new(UPGRADE_KOTLIN_JVM_TARGET_VERSION).with("version", version.to_string()),
        ]);
    }
    let compatibility = if property.ends_with("sourceCompatibility") {
        "source"
    } else if property.ends_with("targetCompatibility") {
        "target"
    } else {
        return None;
    };
    Some(vec![
        RecipeStep::new(GRADLE_UPDATE_JAVA_COMPATIBILITY)
            .with("version", version.to_string())
            .with("compatibilityType", compatibility),
    ])
}

/// A YAML value; list items (`matrix.java[0]`) are not keys ChangePropertyValue can address.
fn yaml_value(key: &str, old_value: String, new_value: String, file: &str) -> Option<Vec<RecipeStep>> {
    // ChangePropertyValue walks through sequences (`steps.name` reaches every step's name); a
    // selector of one entry (`steps[actions/setup-java]`) is left to the old value, which must
    // then be known.
    let key =
        if key.contains('[') && !old_value.is_empty() { without_selectors(key) } else { key.to_string() };
    (!key.is_empty() && !key.contains('[')).then(|| {
        vec![
            RecipeStep::new(YAML_CHANGE_PROPERTY_VALUE)
                .with("propertyKey", key)
                .with("newValue", new_value)
                .with("oldValue", old_value)
                .with("filePattern", file),
        ]
    })
}

/// The file of a workflow value change, or `dir/*.yml` when the same change is in several
/// workflows of one directory with one extension.
fn workflow_files(intent: &Intent) -> String {
    let files = intent.files();
    if files.len() < 2 {
        return intent.file().to_string();
    }
    let parts = |f: &String| {
        let (dir, name) = f.rsplit_once('/').unwrap_or(("", f.as_str()));
        (dir.to_string(), name.rsplit_once('.').map(|(_, ext)| ext.to_string()).unwrap_or_default())
    };
    let first = parts(&files[0]);
    if files.iter().all(|f| parts(f) == first) && !first.1.is_empty() {
        format!("{}/*.{}", first.0, first.1)
    } else {
        intent.file().to_string()
    }
}

/// `jobs.build.steps.name` -> `jobs.*.steps.name`: any job.
fn any_job(key: &str) -> String {
    match key.strip_prefix("jobs.").and_then(|rest| rest.split_once('.')) {
        Some((_, rest)) => format!("jobs.*.{rest}"),
        None => key.to_string(),
    }
}

/// `jobs.build.steps[actions/setup-java].name` -> `jobs.build.steps.name`; unbalanced brackets stay.
fn without_selectors(key: &str) -> String {
    let mut out = String::new();
    let mut rest = key;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find(']') else { break };
        out.push_str(&rest[..open]);
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// setup-java's `with:` values under any job and step; ChangePropertyValue keeps quoting.
fn setup_java(values: [(&str, String, String); 2], file: &str) -> Option<Vec<RecipeStep>> {
    let steps: Vec<RecipeStep> = values
        .into_iter()
        .filter(|(_, old, new)| !new.is_empty() && old != new)
        .map(|(key, old, new)| {
            RecipeStep::new(YAML_CHANGE_PROPERTY_VALUE)
                .with("propertyKey", format!("jobs.*.steps.with.{key}"))
                .with("newValue", new)
                .with("oldValue", old)
                .with("filePattern", file)
        })
        .collect();
    (!steps.is_empty()).then_some(steps)
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
/// Spring Boot's own configuration files: `application.properties`, `application-<profile>.properties`.
fn is_spring_config(file: &str) -> bool {
    let name = file.rsplit('/').next().unwrap_or(file);
    name.starts_with("application") && name.ends_with(".properties")
}

/// The files a step must be restricted to when its recipe has no file option of its own and
/// would otherwise change every file of its kind (empty: no restriction).
pub(crate) fn scope(intent: &Intent) -> Vec<String> {
    let Some(Change::PropertiesKeyAdded { .. }) = intent.change() else { return Vec::new() };
    if is_spring_config(intent.file()) {
        return Vec::new();
    }
    intent.files().iter().map(|f| crate::openrewrite::text::glob_escape(f)).collect()
}

pub(crate) fn reason(intent: &Intent, step: &RecipeStep) -> String {
    let short = step.name.rsplit('.').next().unwrap_or(&step.name);
    format!("{short} reproduces {} `{}` ({}) with exact options.", intent.kind(), intent.title, intent.id)
}
