//! `learned/README.md`: what was learned, how to review it, and how to run the jar with the build
//! plugins.

use std::fmt::Write as _;

use crate::model::PlannedStep;
use crate::validation::embedded::protocol::LearnResults;

/// The README of `learned/`: the templates of `results` and the learned Gradle steps `gradle`
/// (`maven_plugin`: the rewrite-maven-plugin version to name).
pub(crate) fn readme(
    results: &LearnResults,
    gradle: &[PlannedStep],
    (coordinates, maven_plugin): (&str, &str),
) -> String {
    let mut out = String::from("# Recipes learned from this pull request\n\n");
    let file_name = |p: &Option<std::path::PathBuf>| {
        p.as_ref().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    };
    let (jar, pom) = (file_name(&results.jar), file_name(&results.pom));
    let _ = writeln!(
        out,
        "The recipes below are in `{jar}` (with its POM `{pom}`, coordinates `{coordinates}`): load the jar\n\
         like any recipe artifact and name them in a recipe list.\n"
    );
    let recipe = results.recipe.as_deref();
    if let Some(recipe) = recipe {
        templates(&mut out, results, recipe);
    }
    if !gradle.is_empty() {
        gradle_steps(&mut out, gradle);
    }
    refused(&mut out, results);
    run(&mut out, (&jar, &pom, coordinates), recipe, !gradle.is_empty(), maven_plugin);
    out
}

fn templates(out: &mut String, results: &LearnResults, recipe: &str) {
    let _ = writeln!(
        out,
        "## Templates\n\n\
         The PR made the same edit several times where no catalog recipe makes it. Each such edit became a\n\
         Refaster-style template (`src/`), compiled by OpenRewrite's `rewrite-templating` into an ordinary,\n\
         type-aware recipe. `{recipe}` runs them all.\n"
    );
    for t in &results.templates {
        let parameters: Vec<String> =
            t.parameters.iter().map(|p| format!("{} {}", p.java_type, p.name)).collect();
        let _ = writeln!(out, "- `{}` ({})", t.name, parameters.join(", "));
        for before in &t.before {
            let _ = writeln!(out, "  - before: `{}`", before.trim());
        }
        let _ = writeln!(out, "  - after: `{}`", t.after.trim());
        let places: Vec<String> = t.occurrences.iter().map(|p| format!("{}:{}", p.path, p.line)).collect();
        let _ = writeln!(out, "  - learned from: {}", places.join(", "));
        if !t.matches.is_empty() {
            let places: Vec<String> = t.matches.iter().map(|p| format!("{}:{}", p.path, p.line)).collect();
            let _ = writeln!(out, "  - also rewrites, in files the PR did not edit: {}", places.join(", "));
        }
    }
    out.push_str(
        "\nRead each template as a rule: every call that matches a `@BeforeTemplate` (by the declaring types\n\
         written there, whatever the layout) becomes its `@AfterTemplate`; a parameter matches any\n\
         expression of its type. The runner kept only templates that change nothing the PR left alone in\n\
         the files it edited. The jar also holds the sources the processor generated.\n\n",
    );
}

fn gradle_steps(out: &mut String, gradle: &[PlannedStep]) {
    out.push_str(
        "## Gradle steps\n\n\
         The PR changed build-script lines that no catalog recipe changes as it did. The jar carries\n\
         rewrite-assist's Gradle recipes (`rewriteassist/learned/gradle/`, sources beside the classes); the\n\
         PR gave their options:\n\n",
    );
    for step in gradle {
        let options: Vec<String> =
            step.step.options.iter().map(|(k, v)| format!("{k}: {}", v.as_text())).collect();
        let _ = writeln!(out, "- `{}` ({}): {}", step.step.name, options.join(", "), step.reason);
    }
    out.push('\n');
}

fn refused(out: &mut String, results: &LearnResults) {
    if results.refused.is_empty() {
        return;
    }
    out.push_str("## Refused\n\n");
    for r in &results.refused {
        let places: Vec<String> = r.occurrences.iter().map(|p| format!("{}:{}", p.path, p.line)).collect();
        let _ = writeln!(
            out,
            "- `{}` → `{}` ({}): {}",
            r.before.trim(),
            r.after.trim(),
            places.join(", "),
            r.reason
        );
    }
    out.push('\n');
}

fn run(
    out: &mut String,
    (jar, pom, coordinates): (&str, &str, &str),
    recipe: Option<&str>,
    gradle: bool,
    maven_plugin: &str,
) {
    let _ = write!(out, "## Run it\n\n```sh\nmvn install:install-file -Dfile={jar} -DpomFile={pom}\n```\n\n");
    if let Some(recipe) = recipe {
        let _ = write!(
            out,
            "With rewrite-maven-plugin:\n\n\
             ```sh\n\
             mvn org.openrewrite.maven:rewrite-maven-plugin:{maven_plugin}:run \\\n\
             \x20 -Drewrite.recipeArtifactCoordinates={coordinates} \\\n\
             \x20 -Drewrite.activeRecipes={recipe}\n\
             ```\n\n"
        );
    }
    if gradle {
        let _ = write!(
            out,
            "With the Gradle plugin, from the local Maven repository (`repositories {{ mavenLocal() }}`):\n\n\
             ```groovy\n\
             dependencies {{ rewrite(\"{coordinates}\") }}\n\
             ```\n\n\
             and the steps above in the `recipeList` of your `rewrite.yml`.\n\n"
        );
    }
    let _ = write!(
        out,
        "A `rewrite.yml` may list these recipes in its `recipeList` like any catalog recipe, with\n\
         `{coordinates}` among the plugin's `recipeArtifactCoordinates`.\n\n\
         ## Move it into your own recipe module\n\n\
         Copy `src/` (and, for the Gradle steps, `rewriteassist/learned/gradle/` from the jar) into a module\n\
         that depends on `org.openrewrite:rewrite-templating` (and `rewrite-gradle`) and on the libraries the\n\
         templates name (with Error Prone's annotations at compile time, and `-Arewrite.generatedAnnotation=\n\
         javax.annotation.processing.Generated` on JDK 17), rename the package, and publish it as any recipe module.\n"
    );
}
