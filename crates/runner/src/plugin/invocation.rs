//! The command line that runs a recipe: rewrite-maven-plugin's NoFork goal for Maven projects, an
//! init script with the rewrite Gradle plugin for Gradle projects. Both leave the project's build
//! files untouched and read the recipe from outside the clone.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};

use crate::openrewrite::Coordinates;
use crate::validation::build::BuildTool;
use crate::validation::jdk::Jdk;

/// Everything needed to start one recipe run; printable for reproducibility.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Invocation {
    pub program: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    pub cwd: PathBuf,
}

impl Invocation {
    pub(crate) fn command(&self) -> Command {
        let mut cmd = Command::new(&self.program);
        crate::process::env::restrict_for_build_tool(&mut cmd);
        cmd.args(&self.args).current_dir(&self.cwd);
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd
    }

    /// The command as a shell line (for logs and stats).
    pub(crate) fn display(&self) -> String {
        let env: Vec<String> = self.env.iter().map(|(k, v)| format!("{k}={}", shell_quote(v))).collect();
        let args: Vec<String> = self.args.iter().map(|a| shell_quote(a)).collect();
        [env.join(" "), shell_quote(&self.program), args.join(" ")]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn shell_quote(text: &str) -> String {
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=,@+%".contains(c)) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// What a run needs, whatever the build tool.
pub(crate) struct RunSpec<'a> {
    pub project: &'a Path,
    /// Absolute path of the recipe YAML, outside the project.
    pub recipe_file: &'a Path,
    pub recipe_name: &'a str,
    /// Recipe modules to put on the classpath (core recipes need none).
    pub artifacts: &'a [Coordinates],
    pub jdk: &'a Jdk,
    pub maven_plugin_version: &'a str,
    pub gradle_plugin_version: &'a str,
    /// Where the Gradle init script is written (outside the project).
    pub init_script: &'a Path,
    /// An empty directory outside the project that Maven takes for the project's base directory,
    /// so the clone's `.mvn/` is not read (see [`crate::validation::trust::Trust`]); None: honour it.
    pub maven_basedir: Option<&'a Path>,
    /// The user's settings.xml ([`crate::validation::maven_settings::user_settings`]).
    pub maven_settings: Option<&'a Path>,
}

/// The files of a Maven project's `.mvn/` that change how Maven itself starts.
pub(crate) const MAVEN_BUILD_CONFIG: [&str; 3] =
    [".mvn/jvm.config", ".mvn/maven.config", ".mvn/extensions.xml"];

/// Which of [`MAVEN_BUILD_CONFIG`] `project` has.
pub(crate) fn maven_build_config(project: &Path) -> Vec<&'static str> {
    MAVEN_BUILD_CONFIG.into_iter().filter(|f| project.join(f).is_file()).collect()
}

pub(crate) fn invocation(tool: BuildTool, spec: &RunSpec<'_>) -> Invocation {
    match tool {
        BuildTool::Maven => maven(spec),
        BuildTool::Gradle => gradle(spec),
    }
}

fn java_env(jdk: &Jdk) -> Vec<(String, String)> {
    vec![("JAVA_HOME".into(), jdk.home.display().to_string())]
}

/// `mvn rewrite-maven-plugin:<v>:runNoFork` with the recipe passed by absolute path.
pub(crate) fn maven(spec: &RunSpec<'_>) -> Invocation {
    let mut args = vec![
        "-B".to_string(),
        "--no-transfer-progress".into(),
        "-Dstyle.color=never".into(),
        format!("org.openrewrite.maven:rewrite-maven-plugin:{}:runNoFork", spec.maven_plugin_version),
        format!("-Drewrite.configLocation={}", spec.recipe_file.display()),
        format!("-Drewrite.activeRecipes={}", spec.recipe_name),
        "-Drewrite.exportDatatables=true".into(),
        "-Drewrite.failOnInvalidActiveRecipes=true".into(),
        "-Drewrite.checkstyleDetectionEnabled=false".into(),
    ];
    if !spec.artifacts.is_empty() {
        let list: Vec<String> = spec.artifacts.iter().map(ToString::to_string).collect();
        args.push(format!("-Drewrite.recipeArtifactCoordinates={}", list.join(",")));
    }
    if let Some(settings) = spec.maven_settings {
        args.push("--settings".into());
        args.push(settings.display().to_string());
    }
    let mut env = java_env(spec.jdk);
    if let Some(dir) = spec.maven_basedir {
        // The `mvn` launcher reads jvm.config from MAVEN_BASEDIR (when set) instead of searching
        // for `.mvn/`, and passes it on as maven.multiModuleProjectDirectory, where Maven reads
        // maven.config and extensions.xml.
        env.push(("MAVEN_BASEDIR".into(), dir.display().to_string()));
    }
    Invocation { program: "mvn".into(), args, env, cwd: spec.project.to_path_buf() }
}

/// `./gradlew` (or `gradle`) `rewriteRun` with a generated init script.
pub(crate) fn gradle(spec: &RunSpec<'_>) -> Invocation {
    let wrapper = spec.project.join("gradlew");
    let program = if wrapper.is_file() { wrapper.display().to_string() } else { "gradle".to_string() };
    let args = vec![
        "--no-daemon".to_string(),
        "--console=plain".into(),
        "--init-script".into(),
        spec.init_script.display().to_string(),
        "rewriteRun".into(),
        format!("-Drewrite.activeRecipe={}", spec.recipe_name),
    ];
    Invocation { program, args, env: java_env(spec.jdk), cwd: spec.project.to_path_buf() }
}

/// The group of the recipe jars `analyze` learns from a PR (`rewriteassist.learned`).
const LEARNED_GROUP_PREFIX: &str = "rewriteassist.";

/// The init script: applies the rewrite Gradle plugin to the root project with the recipe modules,
/// the recipe file and data-table export, and makes sure a repository is there to resolve them.
pub(crate) fn gradle_init_script(spec: &RunSpec<'_>) -> String {
    let groovy = |s: &str| s.replace('\\', "\\\\").replace('\'', "\\'");
    let deps: String =
        spec.artifacts.iter().map(|c| format!("        rewrite('{}')\n", groovy(&c.to_string()))).collect();
    // A recipe jar learned from a PR is installed in the local Maven repository only
    // (`plugin::learned`): that repository serves its group and nothing else.
    let local: String = spec
        .artifacts
        .iter()
        .filter(|c| c.group.starts_with(LEARNED_GROUP_PREFIX))
        .map(|c| {
            format!(
                "        repositories {{\n            mavenLocal {{ content {{ includeGroup('{}') }} }}\n        }}\n",
                groovy(&c.group)
            )
        })
        .collect();
    format!(
        r#"// Generated by rewrite-assist: runs one recipe without touching the project's build files.
initscript {{
    repositories {{
        gradlePluginPortal()
        mavenCentral()
    }}
    dependencies {{
        classpath('org.openrewrite:plugin:{plugin}')
    }}
}}

rootProject {{
    plugins.apply(org.openrewrite.gradle.RewritePlugin)
    dependencies {{
{deps}    }}
    rewrite {{
        activeRecipe('{recipe}')
        configFile = file('{config}')
        exportDatatables = true
        failOnInvalidActiveRecipes = true
    }}
    afterEvaluate {{
        // The rewrite configuration resolves from the project's repositories; builds that declare
        // theirs in settings.gradle have none here.
        if (repositories.isEmpty()) {{
            repositories {{
                mavenCentral()
            }}
        }}
{local}    }}
}}
"#,
        plugin = groovy(spec.gradle_plugin_version),
        recipe = groovy(spec.recipe_name),
        config = groovy(&spec.recipe_file.display().to_string()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec<'a>(project: &'a Path, artifacts: &'a [Coordinates], jdk: &'a Jdk) -> RunSpec<'a> {
        RunSpec {
            project,
            recipe_file: Path::new("/tmp/run-1/rewrite-assist.recipe.yml"),
            recipe_name: "com.example.Option2",
            artifacts,
            jdk,
            maven_plugin_version: "6.46.1",
            gradle_plugin_version: "7.38.0",
            init_script: Path::new("/tmp/run-1/rewrite-assist.init.gradle"),
            maven_basedir: None,
            maven_settings: None,
        }
    }

    fn jdk() -> Jdk {
        Jdk { home: PathBuf::from("/usr/lib/jvm/java-17"), major: 17 }
    }

    #[test]
    fn maven_uses_the_nofork_goal_and_an_outside_recipe() {
        let artifacts = vec![Coordinates::new("org.openrewrite.recipe", "rewrite-migrate-java", "3.42.0")];
        let jdk = jdk();
        let inv = maven(&spec(Path::new("/tmp/run-1/repo"), &artifacts, &jdk));
        assert_eq!(inv.program, "mvn");
        assert!(
            inv.args.contains(&"org.openrewrite.maven:rewrite-maven-plugin:6.46.1:runNoFork".to_string())
        );
        for expected in [
            "-Drewrite.configLocation=/tmp/run-1/rewrite-assist.recipe.yml",
            "-Drewrite.activeRecipes=com.example.Option2",
            "-Drewrite.recipeArtifactCoordinates=org.openrewrite.recipe:rewrite-migrate-java:3.42.0",
            "-Drewrite.failOnInvalidActiveRecipes=true",
            "-Drewrite.checkstyleDetectionEnabled=false",
            "-Drewrite.exportDatatables=true",
        ] {
            assert!(inv.args.iter().any(|a| a == expected), "missing {expected}: {:?}", inv.args);
        }
        assert_eq!(inv.env, vec![("JAVA_HOME".to_string(), "/usr/lib/jvm/java-17".to_string())]);
        assert_eq!(inv.cwd, Path::new("/tmp/run-1/repo"));
        let no_artifacts = maven(&spec(Path::new("/x"), &[], &jdk));
        assert!(!no_artifacts.args.iter().any(|a| a.contains("recipeArtifactCoordinates")));
        let ignoring = RunSpec {
            maven_basedir: Some(Path::new("/tmp/run-1/maven-basedir")),
            maven_settings: Some(Path::new("/home/u/.m2/settings.xml")),
            ..spec(Path::new("/x"), &[], &jdk)
        };
        assert!(maven(&ignoring).args.ends_with(&["--settings".into(), "/home/u/.m2/settings.xml".into()]));
        assert_eq!(
            maven(&ignoring).env[1],
            ("MAVEN_BASEDIR".to_string(), "/tmp/run-1/maven-basedir".to_string())
        );
    }

    #[test]
    fn the_maven_build_config_a_project_has() {
        let dir = tempfile::tempdir().unwrap();
        assert!(maven_build_config(dir.path()).is_empty());
        std::fs::create_dir_all(dir.path().join(".mvn/wrapper")).unwrap();
        std::fs::write(dir.path().join(".mvn/jvm.config"), "-Xmx1g").unwrap();
        std::fs::write(dir.path().join(".mvn/extensions.xml"), "<extensions/>").unwrap();
        std::fs::write(dir.path().join(".mvn/wrapper/maven-wrapper.properties"), "").unwrap();
        assert_eq!(maven_build_config(dir.path()), vec![".mvn/jvm.config", ".mvn/extensions.xml"]);
    }

    #[test]
    fn gradle_command_prefers_the_wrapper() {
        let dir = tempfile::tempdir().unwrap();
        let jdk = jdk();
        let inv = gradle(&spec(dir.path(), &[], &jdk));
        assert_eq!(inv.program, "gradle");
        assert_eq!(
            inv.args,
            vec![
                "--no-daemon",
                "--console=plain",
                "--init-script",
                "/tmp/run-1/rewrite-assist.init.gradle",
                "rewriteRun",
                "-Drewrite.activeRecipe=com.example.Option2"
            ]
        );
        std::fs::write(dir.path().join("gradlew"), "#!/bin/sh\n").unwrap();
        assert_eq!(
            gradle(&spec(dir.path(), &[], &jdk)).program,
            dir.path().join("gradlew").display().to_string()
        );
    }

    #[test]
    fn gradle_init_script_snapshot() {
        let artifacts = vec![
            Coordinates::new("org.openrewrite.recipe", "rewrite-migrate-java", "3.42.0"),
            Coordinates::new("org.openrewrite.recipe", "rewrite-github-actions", "3.29.0"),
        ];
        let jdk = jdk();
        let script = gradle_init_script(&spec(Path::new("/p"), &artifacts, &jdk));
        insta::assert_snapshot!(script);
    }

    #[test]
    fn a_learned_jar_resolves_from_the_local_repository_for_its_group_only() {
        let jdk = jdk();
        let catalog = [Coordinates::new("org.openrewrite.recipe", "rewrite-migrate-java", "3.42.0")];
        assert!(!gradle_init_script(&spec(Path::new("/p"), &catalog, &jdk)).contains("mavenLocal"));
        let learned =
            [catalog[0].clone(), Coordinates::new("rewriteassist.learned", "learned-recipes", "1.0.0")];
        let script = gradle_init_script(&spec(Path::new("/p"), &learned, &jdk));
        assert!(
            script.contains("mavenLocal { content { includeGroup('rewriteassist.learned') } }"),
            "{script}"
        );
        assert!(script.contains("rewrite('rewriteassist.learned:learned-recipes:1.0.0')"), "{script}");
    }

    #[test]
    fn display_quotes_what_needs_quoting() {
        let inv = Invocation {
            program: "mvn".into(),
            args: vec!["-Dx=a b".into(), "plain".into()],
            env: vec![("JAVA_HOME".into(), "/j".into())],
            cwd: PathBuf::from("/"),
        };
        assert_eq!(inv.display(), "JAVA_HOME=/j mvn '-Dx=a b' plain");
    }
}
