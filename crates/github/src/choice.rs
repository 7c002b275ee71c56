//! Which recipe of an analysis to propose or roll out: the reusable one (the default, made for other
//! repositories) or an option (`/rewrite-assist apply reusable|1|2|3`, `apply --option`), and the
//! recipe file and validated run that choice names in the run directory.

use std::fmt;
use std::path::Path;

use anyhow::{Context, Result};

use super::report::escape;
use super::user_facing;
use crate::model::{OptionId, OptionResult, PrKind, RunSummary, Verdict};
use crate::pipeline::artifacts;

/// A recipe of an analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RecipeChoice {
    /// The reusable recipe: semantic steps only, nothing pinned to the analyzed repository (also
    /// `4`, the number its files carry in the run directory).
    #[value(name = "reusable", alias = "4")]
    Reusable,
    /// Option 1 (wide).
    #[value(name = "1")]
    One,
    /// Option 2 (narrow).
    #[value(name = "2")]
    Two,
    /// Option 3 (synthesized).
    #[value(name = "3")]
    Three,
}

impl RecipeChoice {
    /// A command's argument: `reusable` (or `4`, as its files are numbered), `1`, `2` or `3`.
    pub(crate) fn parse(word: &str) -> Option<RecipeChoice> {
        match word {
            "reusable" | "4" => Some(RecipeChoice::Reusable),
            "1" => Some(RecipeChoice::One),
            "2" => Some(RecipeChoice::Two),
            "3" => Some(RecipeChoice::Three),
            _ => None,
        }
    }

    /// The option number its files carry (`option-N-*`); the reusable recipe runs as option 4.
    pub(crate) fn option(self) -> OptionId {
        match self {
            RecipeChoice::Reusable => OptionId::Reusable,
            RecipeChoice::One => OptionId::Wide,
            RecipeChoice::Two => OptionId::Narrow,
            RecipeChoice::Three => OptionId::Synthesized,
        }
    }
}

impl fmt::Display for RecipeChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecipeChoice::Reusable => f.write_str("reusable"),
            other => write!(f, "{}", other.option()),
        }
    }
}

/// The chosen recipe as the analysis wrote and validated it.
#[derive(Debug, Clone)]
pub(crate) struct ChosenRecipe {
    pub choice: RecipeChoice,
    /// The recipe file (`result/reusable-recipe.yaml` or `option-N-recipe.yaml`).
    pub yaml: String,
    /// Its run on the analyzed PR.
    pub run: OptionResult,
}

/// The recipe `asked` for (None: the reusable one, when the verdict says it is ready to roll out),
/// or a user-facing reason why there is none.
pub(crate) fn choose(summary: &RunSummary, asked: Option<RecipeChoice>) -> Result<ChosenRecipe> {
    let dir = Path::new(&summary.artifacts_dir);
    let choice = match asked {
        Some(choice) => choice,
        None => {
            ready(summary)?;
            RecipeChoice::Reusable
        }
    };
    let (run, file) = match choice {
        RecipeChoice::Reusable => (reusable_run(summary)?, artifacts::REUSABLE_RECIPE.to_string()),
        option => {
            let run = choose_option(summary, option.option())?.clone();
            let file = artifacts::option_file_name(option.option(), "recipe.yaml");
            (run, file)
        }
    };
    let path = dir.join(&file);
    let yaml = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    Ok(ChosenRecipe { choice, yaml, run })
}

/// The default needs a recipe that is ready to roll out; otherwise the user is told why, and how to
/// ask for another one anyway.
fn ready(summary: &RunSummary) -> Result<()> {
    let why = match (summary.verdict, summary.pr_kind) {
        (Verdict::ReadyToRollOut, _) => return Ok(()),
        (_, PrKind::Ordinary) => format!(
            "This pull request is not a migration ({}), so there is no recipe to roll out.",
            escape(&summary.pr_kind_reason)
        ),
        (Verdict::NoReliableRecipe, _) => {
            "No recipe reproduces this pull request well enough (verdict: no reliable recipe), so there is nothing \
to apply."
                .to_string()
        }
        (Verdict::ReproducesThisPrOnly, _) => {
            "The reusable recipe is not ready to roll out (verdict: reproduces this PR only; the results comment \
says why)."
                .to_string()
        }
    };
    let options: Vec<String> =
        summary.options.iter().filter(|o| o.ran()).map(|o| format!("`apply {}`", o.option)).collect();
    let anyway = match (&summary.reusable, options.is_empty()) {
        (Some(_), _) => {
            format!(" To use it anyway, comment `/rewrite-assist apply reusable`{}.", or(&options))
        }
        (None, false) => format!(" To use an option's recipe anyway: {}.", options.join(", ")),
        (None, true) => String::new(),
    };
    Err(user_facing(format!("{why}{anyway}")))
}

fn or(options: &[String]) -> String {
    if options.is_empty() { String::new() } else { format!(" (or {})", options.join(", ")) }
}

fn reusable_run(summary: &RunSummary) -> Result<OptionResult> {
    let Some(reusable) = &summary.reusable else {
        return Err(user_facing(
            "This analysis made no reusable recipe (no semantic step was left to generalize); \
`apply 1`, `apply 2` or `apply 3` use an option's recipe.",
        ));
    };
    match &reusable.result {
        Some(run) if run.ran() => Ok(run.clone()),
        Some(run) => Err(user_facing(format!(
            "The reusable recipe could not run on this pull request (`{}`), so it is not validated.",
            run.error.as_ref().map(|e| e.kind.to_string()).unwrap_or_default()
        ))),
        None => Err(user_facing(
            "The reusable recipe was not validated on this pull request (that needs the embedded runner: \
`backend: auto` or `embedded`).",
        )),
    }
}

/// Option `k` of the analysis, or a user-facing reason why it cannot be used.
pub(crate) fn choose_option(summary: &RunSummary, k: OptionId) -> Result<&OptionResult> {
    let option = summary.options.iter().find(|o| o.option == k).ok_or_else(|| {
        let made: Vec<String> = summary.options.iter().map(|o| o.option.to_string()).collect();
        user_facing(format!(
            "Option {k} was not produced in this run (options: {}), so there is nothing to apply.",
            if made.is_empty() { "none".to_string() } else { made.join(", ") }
        ))
    })?;
    if let Some(error) = &option.error {
        return Err(user_facing(format!(
            "Option {} could not run (`{}`: {}), so there is nothing to apply.",
            option.option,
            error.kind,
            escape(&error.detail)
        )));
    }
    Ok(option)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::user_message;
    use crate::github::verdict::tests::{ordinary_report, ready_report};

    /// The ready sample run with its recipe files in a temporary run directory.
    fn written(mut summary: RunSummary) -> (tempfile::TempDir, RunSummary) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("result")).unwrap();
        std::fs::write(dir.path().join(artifacts::REUSABLE_RECIPE), "name: reusable\n").unwrap();
        std::fs::write(dir.path().join("option-2-recipe.yaml"), "name: option2\n").unwrap();
        summary.artifacts_dir = dir.path().display().to_string();
        (dir, summary)
    }

    #[test]
    fn choices_read_and_print_as_commands_write_them() {
        for word in ["reusable", "1", "2", "3"] {
            assert_eq!(RecipeChoice::parse(word).unwrap().to_string(), word);
        }
        assert_eq!(RecipeChoice::parse("4"), Some(RecipeChoice::Reusable), "its option number");
        assert_eq!(RecipeChoice::parse("5"), None);
        assert_eq!(RecipeChoice::Reusable.option().number(), 4);
    }

    #[test]
    fn the_default_is_the_reusable_recipe_when_it_is_ready() {
        let (_dir, summary) = written(ready_report().summary);
        let chosen = choose(&summary, None).unwrap();
        assert_eq!((chosen.choice, chosen.yaml.as_str()), (RecipeChoice::Reusable, "name: reusable\n"));
        assert_eq!(chosen.run.option, OptionId::Reusable);
        let chosen = choose(&summary, Some(RecipeChoice::Two)).unwrap();
        assert_eq!((chosen.run.option, chosen.yaml.as_str()), (OptionId::Narrow, "name: option2\n"));
        let why = user_message(&choose(&summary, Some(RecipeChoice::Three)).unwrap_err()).unwrap();
        assert!(why.starts_with("Option 3 could not run (`unknown_recipe`"), "{why}");
    }

    #[test]
    fn without_a_ready_recipe_the_default_is_refused_with_what_to_ask_instead() {
        let (_dir, summary) = written(ordinary_report().summary);
        let why = user_message(&choose(&summary, None).unwrap_err()).unwrap();
        assert!(
            why.starts_with("This pull request is not a migration (the intent tree names no migration"),
            "{why}"
        );
        assert!(why.ends_with("To use an option's recipe anyway: `apply 1`, `apply 2`."), "{why}");
        let why = user_message(&choose(&summary, Some(RecipeChoice::Reusable)).unwrap_err()).unwrap();
        assert!(why.starts_with("This analysis made no reusable recipe"), "{why}");
        let mut unvalidated = ready_report().summary;
        unvalidated.verdict = Verdict::ReproducesThisPrOnly;
        unvalidated.reusable.as_mut().unwrap().result = None;
        let (_dir, unvalidated) = written(unvalidated);
        let why = user_message(&choose(&unvalidated, None).unwrap_err()).unwrap();
        assert!(why.contains("`/rewrite-assist apply reusable` (or `apply 1`, `apply 2`)"), "{why}");
        let why = user_message(&choose(&unvalidated, Some(RecipeChoice::Reusable)).unwrap_err()).unwrap();
        assert!(why.starts_with("The reusable recipe was not validated"), "{why}");
    }
}
