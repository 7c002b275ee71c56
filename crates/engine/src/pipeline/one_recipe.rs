//! `validate`: one recipe run on a PR's base and measured against the PR, outside the phases, with
//! what an option of `analyze` gets: the backend choice (and `auto`'s confirmation), the option
//! check, the classes of its false positives and the old library's residual uses.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context as _, Result};

use crate::error::bad_input;
use crate::model::ValidationStats;
use crate::openrewrite::Versions;
use crate::setup::Repo;
use crate::validation::choice::{self, BackendChoice};
use crate::validation::trust::Trust;
use crate::validation::{Expected, Limits, Output, Recipe};

/// The ground truth a recipe is measured against.
pub enum Truth {
    /// The PR's head commit: the truth is `git diff BASE HEAD`, and the PR's files tell the
    /// false positives apart.
    Head(String),
    /// A diff file, the PR's files unknown.
    DiffFile(PathBuf),
}

/// One recipe to validate.
pub struct RecipeCheck {
    /// A work tree or a bare git directory; never modified.
    pub repo: PathBuf,
    /// The commit the recipe runs on (any commit-ish).
    pub base: String,
    /// What the recipe's diff is measured against.
    pub truth: Truth,
    /// The recipe file (rewrite.yml format).
    pub recipe: PathBuf,
    /// Which recipe of the file to run (None: its only one).
    pub recipe_name: Option<String>,
    /// Where `recipe.diff`, `stats.json` and `build.log` go; prepared here (never mixed with
    /// files already there).
    pub out_dir: PathBuf,
    /// The run's time limit (at least one second).
    pub timeout: Duration,
    /// What validates the recipe (`auto`: the embedded runner, then the plugin confirms).
    pub backend: BackendChoice,
    /// How far the repository's own build is trusted: whether it may run, and whether its `.mvn/`
    /// configuration is honoured.
    pub trust: Trust,
    /// The OpenRewrite versions to validate with: the pins with the user's overrides.
    pub versions: Versions,
}

/// Runs the recipe of `check` and returns its stats, as written to `stats.json`.
pub fn validate_recipe(check: &RecipeCheck) -> Result<ValidationStats> {
    let repo = Repo::open(&check.repo)?;
    let base = repo.resolve(&check.base)?;
    let (head, expected_text) = match &check.truth {
        Truth::Head(head) => {
            let head = repo.resolve(head)?;
            let text = repo.diff(&base, &head)?;
            (Some(head), text)
        }
        Truth::DiffFile(path) => (None, crate::diff::read_text(path)?),
    };
    let expected =
        crate::diff::parse_pr(&expected_text).map_err(|e| bad_input(format!("the expected diff: {e}")))?;
    // With the PR's head, its files say what each false positive is (layout, variant, …).
    let view = head
        .as_ref()
        .map(|head| crate::metrics::classes::PrView::from_repo(&repo, &base, head, expected.clone()))
        .transpose()?;
    let recipe_yaml = crate::openrewrite::yaml_limits::read_recipe_file(&check.recipe)?;
    // Like analyze: never mix with (or overwrite) files already there.
    crate::setup::out_dir::prepare(&check.out_dir)?;
    let catalog = crate::catalog::Catalog::embedded();
    let lookup = |name: &str| catalog.artifact_for(name);
    // Recipes the catalog does not know may come from the user's own artifacts: only the option
    // names of known recipes are checked (OpenRewrite silently ignores unknown ones).
    let option_check = |step: &crate::openrewrite::RecipeStep| match catalog.get(&step.name) {
        Some(_) => crate::mapping::check_step(catalog, step),
        None => Ok(()),
    };
    let on = choice::Base {
        repo: repo.path().to_path_buf(),
        commit: base.clone(),
        versions: check.versions.clone(),
        project: None,
        trust: check.trust,
    };
    let validator = choice::start(check.backend, on, view.as_ref())?;
    // What the PR's migration moves away from (with its head), else what the recipe moves away from.
    let old = match &head {
        Some(head) => crate::intents::old_library::of_pr(&repo, &base, head)?,
        None => crate::intents::old_library::of_recipe(&recipe_yaml, check.recipe_name.as_deref()),
    };
    let measure = crate::model::residual::Measure::of(&old);
    let recipe = Recipe {
        yaml: &recipe_yaml,
        name: check.recipe_name.as_deref(),
        artifacts_for: &lookup,
        option_check: Some(&option_check),
    };
    let expected = Expected { diff: &expected, pr: view.as_ref(), measure: Some(&measure) };
    let limits = Limits { timeout: check.timeout.max(Duration::from_secs(1)) };
    let outcome = validator
        .run_confirmed(&recipe, &expected, &Output::dir(&check.out_dir), limits)
        .context("validation")?;
    Ok(outcome.stats)
}
