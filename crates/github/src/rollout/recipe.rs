//! The recipe a rollout runs: a recipe file as it is, or the recipe an `analyze` output directory
//! (or the action's artifacts) chose — the reusable one by default — renamed after its source PR
//! when the run knows it, with the figures of its validated run there.

use std::path::Path;

use anyhow::{Context, Result};

use super::Provenance;
use crate::error::bad_input;
use crate::github::choice::{self, RecipeChoice};
use crate::github::{source, user_message};
use crate::model::RunSummary;
use crate::model::residual::OldLibrary;
use crate::pipeline::artifacts;

/// The YAML to run, the recipe of it to run (None: its only one) and where it came from.
#[derive(Debug, Clone)]
pub struct RolloutRecipe {
    /// The recipe file's text.
    pub yaml: String,
    /// Which recipe of it to run; None: its only one.
    pub name: Option<String>,
    /// Where it came from (the analyzed PR and its run there, or the file), for the pull requests'
    /// bodies.
    pub provenance: Provenance,
    /// What the recipe's migration moves away from: the analyzed PR's (its intent tree), else
    /// what the recipe's steps say.
    pub old_library: OldLibrary,
    /// The jar of recipes the analyze learned from its PR, when the recipe names one of them
    /// (docs/learned-templates.md): every run of the recipe loads it.
    pub learned: Option<crate::validation::embedded::protocol::LearnedJars>,
    /// The learned jar's Maven coordinates (`learned.json`), under which the plugin finds it once
    /// installed.
    pub learned_coordinates: Option<String>,
}

/// Reads `--recipe` (a file or a run directory) with `--option` and `--recipe-name`.
pub fn resolve(given: &Path, option: Option<RecipeChoice>, name: Option<&str>) -> Result<RolloutRecipe> {
    if !given.is_dir() {
        if let Some(option) = option {
            return Err(bad_input(format!(
                "--option {option} picks a recipe of an analyze output directory, and {} is a file",
                given.display()
            )));
        }
        let yaml = crate::openrewrite::yaml_limits::read_recipe_file(given)?;
        let provenance = Provenance { file: given.display().to_string(), ..Provenance::default() };
        let old_library = crate::intents::old_library::of_recipe(&yaml, name);
        return Ok(RolloutRecipe {
            yaml,
            name: name.map(str::to_string),
            provenance,
            old_library,
            learned: None,
            learned_coordinates: None,
        });
    }
    if name.is_some() {
        return Err(bad_input(
            "--recipe-name picks a recipe of a file; in a run directory, --option chooses",
        ));
    }
    let summary = summary_of(given)?;
    // Its messages are written for a PR thread; here they are the one line of a bad input.
    let chosen = choice::choose(&summary, option).map_err(|e| match user_message(&e) {
        Some(message) => {
            bad_input(format!("{}: {}", given.display(), message.replace('`', "").trim_end_matches('.')))
        }
        None => e,
    })?;
    let file = match chosen.choice {
        RecipeChoice::Reusable => given.join(artifacts::REUSABLE_RECIPE),
        option => given.join(artifacts::option_file_name(option.option(), "recipe.yaml")),
    };
    let source = source::read(given);
    let (yaml, name) = match &source {
        Some(source) => {
            let recipe = crate::github::apply::migration_recipe(source, &chosen)?;
            (recipe.to_yaml(), recipe.name)
        }
        None => (chosen.yaml.clone(), chosen.run.recipe_name.clone()),
    };
    let provenance = Provenance { source, run: Some(chosen.run), file: file.display().to_string() };
    let old_library = crate::intents::old_library::of_tree_file(&given.join(artifacts::INTENT_TREE_JSON))
        .unwrap_or_else(|| crate::intents::old_library::of_recipe(&yaml, Some(&name)));
    // The learned jar goes with the recipe only when the recipe runs a learned recipe.
    let learned = artifacts::learned(given).filter(|learned| learned.runs_in(&yaml));
    let learned_coordinates = learned.as_ref().and_then(|learned| learned.coordinates.clone());
    let learned = learned.map(|learned| learned.jars);
    Ok(RolloutRecipe { yaml, name: Some(name), provenance, old_library, learned, learned_coordinates })
}

/// The run's summary as its `workflow-metadata.json` holds it.
fn summary_of(dir: &Path) -> Result<RunSummary> {
    let path = dir.join(artifacts::METADATA);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| bad_input(format!("{} is not an analyze output directory ({e})", dir.display())))?;
    let mut value: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
    value["artifacts_dir"] = serde_json::Value::String(dir.display().to_string());
    serde_json::from_value(value).with_context(|| format!("reading {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::verdict::tests::{ordinary_report, ready_report};

    /// A run directory as `analyze` leaves it, from a report's summary.
    fn run_dir(summary: &RunSummary, source: bool) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("result")).unwrap();
        let mut metadata = serde_json::to_value(summary).unwrap();
        metadata.as_object_mut().unwrap().remove("artifacts_dir");
        std::fs::write(dir.path().join(artifacts::METADATA), metadata.to_string()).unwrap();
        let yaml = ready_report().reusable_yaml.unwrap();
        std::fs::write(dir.path().join(artifacts::REUSABLE_RECIPE), yaml).unwrap();
        std::fs::write(dir.path().join("option-2-recipe.yaml"), crate::fixtures::NOOP_RECIPE).unwrap();
        if source {
            let source = source::SourcePr {
                repository: "acme/shop".into(),
                number: 7,
                title: "Jakarta".into(),
                url: "https://github.com/acme/shop/pull/7".into(),
                working_directory: None,
            };
            source::write(dir.path(), &source).unwrap();
        }
        dir
    }

    #[test]
    fn a_run_directory_gives_its_reusable_recipe_renamed_after_its_pr() {
        let dir = run_dir(&ready_report().summary, true);
        let recipe = resolve(dir.path(), None, None).unwrap();
        assert_eq!(recipe.name.as_deref(), Some("rewriteassist.Pr7Reusable"));
        assert!(recipe.yaml.contains("name: \"rewriteassist.Pr7Reusable\""), "{}", recipe.yaml);
        assert_eq!(recipe.provenance.source.unwrap().number, 7);
        assert_eq!(recipe.provenance.run.unwrap().option, crate::model::OptionId::Reusable);
        // Without a source PR (a local analyze), the recipe keeps its name.
        let dir = run_dir(&ready_report().summary, false);
        let recipe = resolve(dir.path(), None, None).unwrap();
        assert_eq!(recipe.name.as_deref(), Some("rewriteassist.Option4Reusable"));
        let option = resolve(dir.path(), Some(RecipeChoice::Two), None).unwrap();
        assert_eq!(option.yaml, crate::fixtures::NOOP_RECIPE);
        assert!(option.provenance.file.ends_with("option-2-recipe.yaml"));
    }

    #[test]
    fn bad_choices_are_one_line_bad_inputs() {
        let dir = run_dir(&ordinary_report().summary, false);
        let error = resolve(dir.path(), None, None).unwrap_err();
        assert_eq!(crate::error::exit_code_of(&error), crate::error::exit::BAD_INPUT);
        let text = error.to_string();
        assert!(text.contains("This pull request is not a migration") && !text.contains('\n'), "{text}");
        let file = dir.path().join("option-2-recipe.yaml");
        assert!(resolve(&file, Some(RecipeChoice::Two), None).unwrap_err().to_string().contains("is a file"));
        assert!(resolve(dir.path(), None, Some("x")).is_err());
        let empty = tempfile::tempdir().unwrap();
        assert!(resolve(empty.path(), None, None).unwrap_err().to_string().contains("not an analyze output"));
        let recipe = resolve(&file, None, Some("com.example.Noop")).unwrap();
        assert_eq!(recipe.provenance.file, file.display().to_string());
    }
}
