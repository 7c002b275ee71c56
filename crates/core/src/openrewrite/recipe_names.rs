//! The names of the OpenRewrite recipes the tool writes into recipes or looks for in them, each
//! spelled once: mapping writes them, reuse, discovery and decision recognise them. Grouped by the
//! package that ships them; a name several packages share (`AddDependency`) is prefixed by its
//! package. Package prefixes (`org.openrewrite.java.format.`) and artifact coordinates are other
//! facts and live where they are used ([`super::versions`] for coordinates).

// Core and plain text (rewrite-core).

/// Precondition that matches the files its `filePattern` globs; scopes a step to some files.
pub const FIND_SOURCE_FILES: &str = "org.openrewrite.FindSourceFiles";
/// Deletes the files `filePattern` matches.
pub const DELETE_SOURCE_FILES: &str = "org.openrewrite.DeleteSourceFiles";
/// Replaces literal text (or a regex) in the files `filePattern` matches.
pub const FIND_AND_REPLACE: &str = "org.openrewrite.text.FindAndReplace";
/// Creates a file with the given contents.
pub const CREATE_TEXT_FILE: &str = "org.openrewrite.text.CreateTextFile";

// Java (rewrite-java, and Java recipes of the recipe modules).

/// Moves types from one package to another; what a Java package move maps to.
pub const CHANGE_PACKAGE: &str = "org.openrewrite.java.ChangePackage";
/// Renames a fully qualified type and its references; what a Java type rename maps to.
pub const CHANGE_TYPE: &str = "org.openrewrite.java.ChangeType";
/// Renames a method matched by a method pattern, and its calls.
pub const CHANGE_METHOD_NAME: &str = "org.openrewrite.java.ChangeMethodName";
/// Moves the target of static calls matched by a method pattern to another type.
pub const CHANGE_METHOD_TARGET_TO_STATIC: &str = "org.openrewrite.java.ChangeMethodTargetToStatic";
/// Orders imports by the detected style: layout, the PR's lines it explains are style.
pub const ORDER_IMPORTS: &str = "org.openrewrite.java.OrderImports";
/// Removes unused imports: layout, and a tidy-up authors make after a migration.
pub const REMOVE_UNUSED_IMPORTS: &str = "org.openrewrite.java.RemoveUnusedImports";
/// Makes a block lambda an expression lambda: a tidy-up authors make after a migration.
pub const LAMBDA_BLOCK_TO_EXPRESSION: &str = "org.openrewrite.staticanalysis.LambdaBlockToExpression";
/// Sets Kotlin's `jvmTarget`, which Gradle's `UpdateJavaCompatibility` does not change.
pub const UPGRADE_KOTLIN_JVM_TARGET_VERSION: &str =
    "org.openrewrite.java.migrate.UpgradeKotlinJvmTargetVersion";
/// Adds a Spring property to application.properties or application.yml, in the file's format.
pub const ADD_SPRING_PROPERTY: &str = "org.openrewrite.java.spring.AddSpringProperty";

// Build-tool-agnostic dependencies (rewrite-java-dependencies).

/// Adds a dependency to Maven or Gradle builds; takes `onlyIfUsing`.
pub const DEPENDENCIES_ADD_DEPENDENCY: &str = "org.openrewrite.java.dependencies.AddDependency";
/// Swaps a dependency for another in Maven or Gradle builds; may set `newVersion`.
pub const DEPENDENCIES_CHANGE_DEPENDENCY: &str = "org.openrewrite.java.dependencies.ChangeDependency";
/// Marks the modules that depend on a framework; the guard of an umbrella upgrade.
pub const MODULE_HAS_DEPENDENCY: &str = "org.openrewrite.java.dependencies.search.ModuleHasDependency";

// Maven (rewrite-maven).

/// Sets the value of a POM property.
pub const MAVEN_CHANGE_PROPERTY_VALUE: &str = "org.openrewrite.maven.ChangePropertyValue";
/// Adds a POM property (or sets it when present).
pub const MAVEN_ADD_PROPERTY: &str = "org.openrewrite.maven.AddProperty";
/// Removes a POM property.
pub const MAVEN_REMOVE_PROPERTY: &str = "org.openrewrite.maven.RemoveProperty";
/// Moves a Maven dependency to a new version.
pub const MAVEN_UPGRADE_DEPENDENCY_VERSION: &str = "org.openrewrite.maven.UpgradeDependencyVersion";
/// Swaps a dependency in `dependencyManagement` for another.
pub const MAVEN_CHANGE_MANAGED_DEPENDENCY_GROUP_ID_AND_ARTIFACT_ID: &str =
    "org.openrewrite.maven.ChangeManagedDependencyGroupIdAndArtifactId";
/// Swaps a Maven dependency for another; may set `newVersion`.
pub const MAVEN_CHANGE_DEPENDENCY_GROUP_ID_AND_ARTIFACT_ID: &str =
    "org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId";
/// Adds a Maven dependency; takes `onlyIfUsing`.
pub const MAVEN_ADD_DEPENDENCY: &str = "org.openrewrite.maven.AddDependency";
/// Removes a Maven dependency.
pub const MAVEN_REMOVE_DEPENDENCY: &str = "org.openrewrite.maven.RemoveDependency";
/// Moves a Maven plugin to a new version.
pub const MAVEN_UPGRADE_PLUGIN_VERSION: &str = "org.openrewrite.maven.UpgradePluginVersion";
/// Changes the POM's parent (coordinates and version).
pub const MAVEN_CHANGE_PARENT_POM: &str = "org.openrewrite.maven.ChangeParentPom";
/// Adds a repository (or plugin repository) at the POM's top level.
pub const MAVEN_ADD_REPOSITORY: &str = "org.openrewrite.maven.AddRepository";
/// Adds a plugin to the build's plugins by its coordinates.
pub const MAVEN_ADD_PLUGIN: &str = "org.openrewrite.maven.AddPlugin";

// Gradle (rewrite-gradle).

/// Moves a Gradle dependency to a new version.
pub const GRADLE_UPGRADE_DEPENDENCY_VERSION: &str = "org.openrewrite.gradle.UpgradeDependencyVersion";
/// Swaps a Gradle dependency for another; may set `newVersion`.
pub const GRADLE_CHANGE_DEPENDENCY: &str = "org.openrewrite.gradle.ChangeDependency";
/// Adds a Gradle dependency; takes `onlyIfUsing`.
pub const GRADLE_ADD_DEPENDENCY: &str = "org.openrewrite.gradle.AddDependency";
/// Removes a Gradle dependency.
pub const GRADLE_REMOVE_DEPENDENCY: &str = "org.openrewrite.gradle.RemoveDependency";
/// Moves a Gradle plugin, by id, to a new version.
pub const GRADLE_UPGRADE_PLUGIN_VERSION: &str = "org.openrewrite.gradle.plugins.UpgradePluginVersion";
/// Sets Java's source or target compatibility in a Gradle build.
pub const GRADLE_UPDATE_JAVA_COMPATIBILITY: &str = "org.openrewrite.gradle.UpdateJavaCompatibility";

// Configuration files (rewrite-properties, rewrite-yaml, rewrite-toml).

/// Renames a key in `.properties` files.
pub const PROPERTIES_CHANGE_PROPERTY_KEY: &str = "org.openrewrite.properties.ChangePropertyKey";
/// Sets a value in `.properties` files.
pub const PROPERTIES_CHANGE_PROPERTY_VALUE: &str = "org.openrewrite.properties.ChangePropertyValue";
/// Adds a key to every `.properties` file it sees (it has no file option of its own).
pub const PROPERTIES_ADD_PROPERTY: &str = "org.openrewrite.properties.AddProperty";
/// Deletes a key from `.properties` files.
pub const PROPERTIES_DELETE_PROPERTY: &str = "org.openrewrite.properties.DeleteProperty";
/// Renames a key in YAML files.
pub const YAML_CHANGE_PROPERTY_KEY: &str = "org.openrewrite.yaml.ChangePropertyKey";
/// Sets a value in YAML files (GitHub workflows' values too); keeps quoting.
pub const YAML_CHANGE_PROPERTY_VALUE: &str = "org.openrewrite.yaml.ChangePropertyValue";
/// Sets a value in TOML files (Gradle's version catalog).
pub const TOML_CHANGE_VALUE: &str = "org.openrewrite.toml.ChangeValue";

// CI and images (rewrite-github-actions, rewrite-docker).

/// Moves a GitHub Action to another version (tag or ref).
pub const GITHUB_CHANGE_ACTION_VERSION: &str = "org.openrewrite.github.ChangeActionVersion";
/// Changes a Dockerfile's `FROM` image and tag.
pub const DOCKER_CHANGE_FROM: &str = "org.openrewrite.docker.ChangeFrom";
