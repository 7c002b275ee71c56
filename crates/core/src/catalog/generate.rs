//! `catalog refresh`: regenerates the snapshot from the real recipe jars. The Java generator in
//! `catalog/generator/` (embedded here, so an installed binary can refresh too) runs through Maven
//! with every version passed as a `-D` property from [`crate::openrewrite::versions`]; it lists
//! what OpenRewrite's own `Environment` finds on that classpath. This side maps each recipe's jar to
//! its pinned module and licence.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use super::snapshot::{ExcludedJar, ModuleSummary, ModuleText, Snapshot};
use crate::model::{RecipeDescriptor, RecipeOption};
use crate::openrewrite::versions::{MODULES, REWRITE_CORE_VERSION};
use crate::openrewrite::{Coordinates, RecipeModule, Versions};
use crate::process::ProcessEnd;

const GENERATOR_POM: &str = include_str!("../../../../catalog/generator/pom.xml");
const GENERATOR_MAIN: &str =
    include_str!("../../../../catalog/generator/src/main/java/rewriteassist/catalog/Generator.java");
const GENERATOR_MAIN_PATH: &str = "src/main/java/rewriteassist/catalog/Generator.java";

/// What the Java generator writes.
#[derive(Debug, Deserialize)]
pub(crate) struct RawCatalog {
    pub recipes: Vec<RawRecipe>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RawRecipe {
    pub name: String,
    pub display_name: Option<String>,
    pub description: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub options: Vec<RawOption>,
    #[serde(default)]
    pub members: Vec<String>,
    /// File name of the jar the recipe was loaded from.
    pub jar: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawOption {
    pub name: String,
    #[serde(rename = "type")]
    pub option_type: Option<String>,
    pub required: bool,
    pub description: Option<String>,
    pub example: Option<String>,
    #[serde(default)]
    pub valid: Vec<String>,
}

/// Each pinned module with the coordinates this run uses (pins, with the user's overrides).
pub fn modules_in_use(versions: &Versions) -> Vec<(RecipeModule, Coordinates)> {
    MODULES.iter().map(|m| (*m, versions.coordinates_of(m))).collect()
}

/// How long the generator may take: Maven downloads every pinned module into an empty local
/// repository in a few minutes; a network that swallows requests must not hang a run for longer.
const TIME_LIMIT: Duration = Duration::from_secs(900);

/// Runs the generator through `mvn` and returns the snapshot it describes, with the text of every
/// module (the binary carries [`super::text::strip`] of it).
pub fn generate(mvn: &str, versions: &Versions) -> Result<Snapshot> {
    let modules = modules_in_use(versions);
    let dir = tempfile::tempdir().context("creating a directory for the catalog generator")?;
    let main = dir.path().join(GENERATOR_MAIN_PATH);
    std::fs::create_dir_all(main.parent().expect("the path has a parent"))?;
    std::fs::write(dir.path().join("pom.xml"), GENERATOR_POM)?;
    std::fs::write(&main, GENERATOR_MAIN)?;
    let output = dir.path().join("recipes.json");

    let mut cmd = crate::process::maven::command(mvn);
    cmd.current_dir(dir.path()).args(["-B", "-q", "-f", "pom.xml", "compile", "exec:exec"]);
    cmd.args(maven_properties(&modules, &output));
    tracing::info!("running the catalog generator: {}", crate::process::env::command_line(&cmd));
    let log_path = dir.path().join("generator.log");
    let outcome = crate::process::run_logged(cmd, &log_path, TIME_LIMIT)
        .context("the catalog generator needs Maven and a JDK 17+")?;
    let log = std::fs::read_to_string(&log_path).unwrap_or_default();
    tracing::debug!("catalog generator output:\n{log}");
    match outcome {
        ProcessEnd::Exited(status) if status.success() => {}
        ProcessEnd::Exited(status) => {
            bail!("the catalog generator failed ({status}): {}", first_error_line(&log))
        }
        ProcessEnd::TimedOut => bail!("the catalog generator took more than {} s", TIME_LIMIT.as_secs()),
        ProcessEnd::Interrupted => bail!("the catalog generator was interrupted"),
    }
    let raw = std::fs::read(&output).context("the catalog generator wrote no output")?;
    let raw: RawCatalog = serde_json::from_slice(&raw).context("the catalog generator's output")?;
    build_snapshot(raw, &modules)
}

/// `-Drewrite.version=…`, one `-D<artifact>.version=…` per recipe module, and the output path.
pub(crate) fn maven_properties(modules: &[(RecipeModule, Coordinates)], output: &Path) -> Vec<String> {
    let mut args = vec![format!("-Drewrite.version={REWRITE_CORE_VERSION}")];
    for (module, coordinates) in modules.iter().filter(|(m, _)| !m.bundled) {
        args.push(format!("-D{}.version={}", module.artifact, coordinates.version));
    }
    args.push(format!("-Dcatalog.output={}", output.display()));
    args
}

/// Maps every recipe to the module whose jar it came from; recipes from other jars are counted
/// in `excluded` and left out.
pub(crate) fn build_snapshot(raw: RawCatalog, modules: &[(RecipeModule, Coordinates)]) -> Result<Snapshot> {
    let jar_names: BTreeMap<String, usize> = modules
        .iter()
        .enumerate()
        .map(|(i, (_, c))| (format!("{}-{}.jar", c.artifact, c.version), i))
        .collect();
    let mut counts = vec![0; modules.len()];
    let mut excluded: BTreeMap<String, usize> = BTreeMap::new();
    let mut recipes: BTreeMap<String, RecipeDescriptor> = BTreeMap::new();
    for recipe in raw.recipes {
        let jar = recipe.jar.clone().unwrap_or_else(|| "(not from a jar)".into());
        let Some(&i) = jar_names.get(&jar) else {
            *excluded.entry(jar).or_default() += 1;
            continue;
        };
        let (module, coordinates) = &modules[i];
        if recipes.contains_key(&recipe.name) {
            tracing::warn!("recipe {} is listed twice; keeping the first", recipe.name);
            continue;
        }
        counts[i] += 1;
        recipes.insert(recipe.name.clone(), descriptor(recipe, module, coordinates));
    }
    if recipes.is_empty() {
        bail!("the catalog generator found no recipe of the pinned modules");
    }
    let modules = modules
        .iter()
        .zip(counts)
        .map(|((m, c), recipes)| ModuleSummary {
            module: m.artifact.into(),
            artifact: (!m.bundled).then(|| c.to_string()),
            version: c.version.clone(),
            licence: m.licence.into(),
            recipes,
            text: ModuleText::Full,
        })
        .collect();
    Ok(Snapshot {
        rewrite_version: REWRITE_CORE_VERSION.into(),
        modules,
        excluded: excluded.into_iter().map(|(jar, recipes)| ExcludedJar { jar, recipes }).collect(),
        recipes: recipes.into_values().collect(),
    })
}

fn descriptor(raw: RawRecipe, module: &RecipeModule, coordinates: &Coordinates) -> RecipeDescriptor {
    let display_name = raw.display_name.filter(|d| !d.is_empty()).unwrap_or_else(|| raw.name.clone());
    RecipeDescriptor {
        display_name,
        description: raw.description.unwrap_or_default(),
        tags: raw.tags,
        options: raw
            .options
            .into_iter()
            .map(|o| RecipeOption {
                name: o.name,
                option_type: o.option_type.unwrap_or_else(|| "String".into()),
                required: o.required,
                description: o.description.filter(|d| !d.is_empty()),
                example: o.example.filter(|e| !e.is_empty()),
                valid: o.valid,
            })
            .collect(),
        members: raw.members,
        artifact: (!module.bundled).then(|| coordinates.to_string()),
        module: module.artifact.into(),
        licence: module.licence.into(),
        name: raw.name,
    }
}

/// The first error of a failed Maven run (the later ones are Maven's help text), for a one-line error.
fn first_error_line(log: &str) -> String {
    let lines: Vec<&str> = log.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let error = lines.iter().find(|l| l.starts_with("[ERROR]") && l.len() > "[ERROR]".len() + 1);
    error.or(lines.last()).map(|l| l.to_string()).unwrap_or_else(|| "no output".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(json: serde_json::Value) -> RawCatalog {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn recipes_map_to_their_module_and_foreign_jars_are_excluded() {
        let modules = modules_in_use(&Versions::default());
        let spring = modules.iter().find(|(m, _)| m.artifact == "rewrite-spring").unwrap();
        let spring_jar = format!("rewrite-spring-{}.jar", spring.1.version);
        let snapshot = build_snapshot(
            raw(serde_json::json!({"recipes": [
                {"name": "org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_0", "displayName": "Boot 3.0",
                 "description": "d", "tags": ["spring"], "options": [], "members": ["a", "b"], "jar": spring_jar},
                {"name": "org.openrewrite.java.ChangePackage", "displayName": "Rename package name",
                 "description": null, "options": [{"name": "oldPackageName", "type": "String", "required": true,
                 "description": "old", "example": "com.a", "valid": []}], "jar": format!("rewrite-java-{REWRITE_CORE_VERSION}.jar")},
                {"name": "tech.picnic.Rule", "displayName": "x", "description": "y", "jar": "error-prone-contrib-0.30.0-recipes.jar"}
            ]})),
            &modules,
        )
        .unwrap();
        assert_eq!(snapshot.recipes.len(), 2);
        let boot = &snapshot.recipes[1];
        assert_eq!(boot.artifact.as_deref(), Some(spring.1.to_string().as_str()));
        assert_eq!(boot.licence, crate::openrewrite::versions::MODERNE_SOURCE_AVAILABLE);
        assert_eq!(boot.members, ["a", "b"]);
        let change_package = &snapshot.recipes[0];
        assert_eq!(change_package.artifact, None, "core recipes are bundled");
        assert_eq!(change_package.module, "rewrite-java");
        assert_eq!(change_package.options[0].option_type, "String");
        assert_eq!(
            snapshot.excluded,
            [ExcludedJar { jar: "error-prone-contrib-0.30.0-recipes.jar".into(), recipes: 1 }]
        );
        let java = snapshot.modules.iter().find(|m| m.module == "rewrite-java").unwrap();
        assert_eq!((java.recipes, java.artifact.as_deref()), (1, None));
    }

    #[test]
    fn maven_gets_every_pinned_version_as_a_property() {
        let modules = modules_in_use(&Versions::default());
        let args = maven_properties(&modules, Path::new("/tmp/out.json"));
        assert_eq!(args[0], format!("-Drewrite.version={REWRITE_CORE_VERSION}"));
        for m in MODULES.iter().filter(|m| !m.bundled) {
            assert!(args.contains(&format!("-D{}.version={}", m.artifact, m.version)), "{}", m.artifact);
        }
        assert_eq!(args.last().unwrap(), "-Dcatalog.output=/tmp/out.json");
    }

    /// The generator's pom must declare exactly the pinned modules, each recipe module with the
    /// version property `maven_properties` sets: the Rust pins stay the single source.
    #[test]
    fn generator_pom_declares_exactly_the_pinned_modules() {
        let declared: Vec<&str> = GENERATOR_POM
            .lines()
            .filter(|l| l.contains("<dependency>") && !l.contains("rewrite-bom"))
            .filter_map(|l| l.split("<artifactId>").nth(1)?.split("</artifactId>").next())
            .collect();
        let pinned: Vec<&str> = MODULES.iter().map(|m| m.artifact).collect();
        assert_eq!(declared, pinned);
        for m in MODULES.iter().filter(|m| !m.bundled) {
            assert!(GENERATOR_POM.contains(&format!("<version>${{{}.version}}</version>", m.artifact)));
        }
    }

    #[test]
    fn the_first_maven_error_line_is_reported() {
        let log =
            "[INFO] x\n[ERROR] Failed to execute goal: could not resolve foo\n[ERROR] \n[ERROR] -> [Help 1]";
        assert_eq!(first_error_line(log), "[ERROR] Failed to execute goal: could not resolve foo");
        assert_eq!(first_error_line(""), "no output");
    }
}
