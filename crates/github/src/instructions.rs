//! What a pull request that brings a recipe tells its reviewers about it: what each step does (from
//! the catalog), how to run it with the team's own build, and how to keep the code migrated with a
//! dry run in CI. Shared by the recipe proposed on the PR's own repository and the rollout's PRs.

use std::fmt::Write;

use super::report::{cell, fenced};
use crate::openrewrite::{RecipeFile, Versions};

/// One row per step the recipe runs (steps of recipes defined in the same file followed): the
/// recipe, its options, and what the catalog says it does.
pub(crate) fn steps_table(yaml: &str, name: &str) -> String {
    let Ok(file) = RecipeFile::parse(yaml) else { return String::new() };
    let catalog = crate::catalog::Catalog::enriched();
    let mut out = String::from("| step | options | what it does |\n|---|---|---|\n");
    for step in file.external_steps(name) {
        let options: Vec<String> =
            step.options.iter().map(|(k, v)| format!("`{k}`: `{}`", cell(&v.as_text()))).collect();
        let what = match catalog.get(&step.name) {
            Some(recipe) => {
                format!("**{}**: {}", cell(&recipe.display_name), cell(&first_sentence(&recipe.description)))
            }
            None => "(not in the catalog)".to_string(),
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {what} |",
            crate::openrewrite::simple_name(&step.name),
            if options.is_empty() { "–".to_string() } else { options.join(", ") }
        );
    }
    out
}

fn first_sentence(text: &str) -> String {
    let text = text.trim();
    match text.find(". ") {
        Some(end) => text[..=end].to_string(),
        None => text.to_string(),
    }
}

/// The recipe modules (`g:a:v`) the recipe needs besides the plugins' bundled recipes.
pub(crate) fn recipe_artifacts(yaml: &str, name: &str, versions: &Versions) -> Vec<String> {
    let Ok(file) = RecipeFile::parse(yaml) else { return Vec::new() };
    let catalog = crate::catalog::Catalog::embedded();
    let mut artifacts: Vec<_> = file
        .external_steps(name)
        .iter()
        .filter_map(|s| catalog.artifact_for(&s.name))
        .map(|c| versions.apply(c))
        .chain(versions.extra_artifacts())
        .collect();
    artifacts.sort();
    artifacts.dedup();
    artifacts.iter().map(ToString::to_string).collect()
}

/// Where the recipe is and what to run it with.
pub(crate) struct RunIt<'a> {
    pub recipe_name: &'a str,
    /// The recipe file in the repository, e.g. `rewrite.yml` or `services/api/rewrite.yml`.
    pub recipe_path: &'a str,
    pub artifacts: &'a [String],
    pub versions: &'a Versions,
}

/// How to run the recipe with the team's own build, and keep the code migrated in CI.
pub(crate) fn run_it_yourself(r: &RunIt<'_>) -> String {
    let dir = match r.recipe_path.rsplit_once('/') {
        Some((dir, _)) => format!("`{dir}/`"),
        None => "the repository's root".to_string(),
    };
    let mut out = format!(
        "### Run it with your own build\n\nThe build plugins read `{}`: run them from {dir}. Maven:\n\n",
        r.recipe_path
    );
    out.push_str(&fenced("sh", &maven(r, "run", false)));
    out.push_str(
        "\nGradle, without changing the build: save this init script as `rewrite.gradle` (outside the \
project, or ignored), then `./gradlew --init-script rewrite.gradle rewriteRun`:\n\n",
    );
    out.push_str(&fenced("groovy", &gradle_init_script(r)));
    out.push_str(
        "\n### Keep the code migrated\n\nA dry run in CI fails the build when code that needs the migration \
comes back (a branch that predates it, a copied snippet). Maven:\n\n",
    );
    out.push_str(&fenced("sh", &maven(r, "dryRun", true)));
    out.push_str(
        "\nGradle: `./gradlew --init-script rewrite.gradle rewriteDryRun` (the script above sets \
`failOnDryRunResults`), or `failOnDryRunResults = true` in the `rewrite { }` block of a build that applies \
the plugin.\n\n",
    );
    out
}

fn maven(r: &RunIt<'_>, goal: &str, fail: bool) -> String {
    let mut command = format!(
        "mvn -U org.openrewrite.maven:rewrite-maven-plugin:{}:{goal} \\\n  -Drewrite.activeRecipes={}",
        r.versions.maven_plugin, r.recipe_name
    );
    if !r.artifacts.is_empty() {
        let _ = write!(command, " \\\n  -Drewrite.recipeArtifactCoordinates={}", r.artifacts.join(","));
    }
    if fail {
        command.push_str(" \\\n  -Drewrite.failOnDryRunResults=true");
    }
    command
}

fn gradle_init_script(r: &RunIt<'_>) -> String {
    let groovy = |s: &str| s.replace('\\', "\\\\").replace('\'', "\\'");
    let lines: String = r.artifacts.iter().map(|a| format!("        rewrite('{}')\n", groovy(a))).collect();
    // Core recipes come with the plugin: no dependencies block then.
    let deps = if lines.is_empty() { String::new() } else { format!("    dependencies {{\n{lines}    }}\n") };
    format!(
        "initscript {{\n    repositories {{\n        gradlePluginPortal()\n    }}\n    dependencies {{\n        \
classpath('org.openrewrite:plugin:{plugin}')\n    }}\n}}\nrootProject {{\n    plugins.apply(org.openrewrite.gradle.RewritePlugin)\n\
{deps}    rewrite {{\n        activeRecipe('{recipe}')\n        failOnDryRunResults = true\n    }}\n    \
afterEvaluate {{\n        if (repositories.isEmpty()) {{\n            repositories {{\n                mavenCentral()\n            \
}}\n        }}\n    }}\n}}\n",
        plugin = groovy(&r.versions.gradle_plugin),
        recipe = groovy(r.recipe_name),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const YAML: &str = "type: specs.openrewrite.org/v1beta/recipe\nname: com.acme.Jakarta\nrecipeList:\n  - org.openrewrite.java.ChangePackage:\n      oldPackageName: javax.persistence\n      newPackageName: jakarta.persistence\n  - org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta\n  - com.example.NotInTheCatalog\n";

    #[test]
    fn every_step_is_explained_from_the_catalog() {
        let table = steps_table(YAML, "com.acme.Jakarta");
        let rows: Vec<&str> = table.lines().skip(2).collect();
        assert_eq!(rows.len(), 3, "{table}");
        assert!(
            rows[0].starts_with(
                "| `ChangePackage` | `newPackageName`: `jakarta.persistence`, `oldPackageName`: `javax.persistence` | **Rename package name**"
            ),
            "{table}"
        );
        assert!(rows[1].contains("| – |"), "{table}");
        assert!(rows[2].ends_with("| (not in the catalog) |"), "{table}");
        assert_eq!(first_sentence("Does a. Then b."), "Does a.");
    }

    #[test]
    fn artifacts_come_from_the_catalog_with_the_pinned_versions() {
        let versions = Versions::default();
        let artifacts = recipe_artifacts(YAML, "com.acme.Jakarta", &versions);
        assert_eq!(artifacts.len(), 1, "ChangePackage is core: {artifacts:?}");
        assert!(artifacts[0].starts_with("org.openrewrite.recipe:rewrite-migrate-java:"), "{artifacts:?}");
        assert!(recipe_artifacts("not: [yaml", "x", &versions).is_empty());
    }

    #[test]
    fn the_instructions_name_the_recipe_file_of_the_build() {
        let versions = Versions::default();
        let artifacts = vec!["org.openrewrite.recipe:rewrite-migrate-java:1.0".to_string()];
        let text = run_it_yourself(&RunIt {
            recipe_name: "com.acme.Jakarta",
            recipe_path: "services/api/rewrite.yml",
            artifacts: &artifacts,
            versions: &versions,
        });
        assert!(text.contains("read `services/api/rewrite.yml`: run them from `services/api/`"), "{text}");
        assert!(text.contains(":dryRun \\\n  -Drewrite.activeRecipes=com.acme.Jakarta"), "{text}");
        assert!(text.contains("-Drewrite.failOnDryRunResults=true"), "{text}");
        assert!(
            text.contains("        rewrite('org.openrewrite.recipe:rewrite-migrate-java:1.0')\n"),
            "{text}"
        );
        assert!(text.contains("./gradlew --init-script rewrite.gradle rewriteDryRun"), "{text}");
    }
}
