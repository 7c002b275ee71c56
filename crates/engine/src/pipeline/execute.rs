//! Validating options: in parallel (at most `--jobs` executions at once), each with up to three
//! attempts — when a run fails because of one recipe (unknown, bad option, unresolvable artifact),
//! that recipe is dropped and the option runs again.

use std::sync::Mutex;
use std::time::Duration;

use anyhow::Result;

use super::artifacts::{RunDir, option_file_name, option_prefix};
use super::budget::Budget;
use super::context::Context;
use super::products::{Checkout, Validated};
use crate::model::residual::Measure;
use crate::model::{Backend, CandidateOption, ErrorKind, OptionResult, RunError};
use crate::openrewrite::RecipeStep;
use crate::process::interrupted;
use crate::validation::{Expected, Limits, Output, Recipe};

/// Attempts per option (the first run and two retries).
const MAX_ATTEMPTS: usize = 3;

/// What validating an option reads: the run's context, its budget (each attempt takes an
/// execution) and the checkout it runs on.
pub(super) struct OptionValidation<'r, 'a> {
    pub ctx: &'r Context<'a>,
    pub budget: &'r Budget,
    pub checkout: &'r Checkout,
    /// What each whole run measures: the migration's old library left, the compile check.
    pub measure: Option<&'r Measure>,
}

impl OptionValidation<'_, '_> {
    /// Validates `options` concurrently; results in option order, and one line per option whose
    /// validation broke (e.g. a clone that failed) — the other options' results are kept.
    /// Interruptions and bad input end the whole run.
    pub(super) fn validate_all(
        &self,
        options: Vec<CandidateOption>,
        dir: Option<&RunDir>,
    ) -> Result<(Vec<Validated>, Vec<String>)> {
        let dir = dir.unwrap_or(&self.ctx.dir);
        let numbers: Vec<crate::model::OptionId> = options.iter().map(|o| o.number).collect();
        let queue = Mutex::new(options.into_iter().enumerate().collect::<Vec<_>>());
        let done: Mutex<Vec<(usize, Result<Option<Validated>>)>> = Mutex::new(Vec::new());
        let workers = self.ctx.req.jobs.max(1);
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    while !interrupted() {
                        let next = queue
                            .lock()
                            .ok()
                            .and_then(|mut q| if q.is_empty() { None } else { Some(q.remove(0)) });
                        let Some((index, option)) = next else { break };
                        let outcome = self.validate_option(option, dir);
                        if let Ok(mut d) = done.lock() {
                            d.push((index, outcome));
                        }
                    }
                });
            }
        });
        let mut done = done.into_inner().unwrap_or_default();
        done.sort_by_key(|(index, _)| *index);
        if interrupted() {
            return Err(anyhow::anyhow!("interrupted"));
        }
        let mut validated = Vec::new();
        let mut broken = Vec::new();
        for (index, outcome) in done {
            match outcome {
                Ok(Some(v)) => {
                    write_validation_analysis(dir, &v)?;
                    validated.push(v);
                }
                Ok(None) => {}
                Err(e) if e.chain().any(|c| c.is::<crate::error::BadInput>()) => return Err(e),
                Err(e) => broken.push(format!("option {}: {}", numbers[index], crate::error::one_line(&e))),
            }
        }
        Ok((validated, broken))
    }

    /// Runs one option, retrying without the recipe at fault. None when the budget allowed no run.
    fn validate_option(&self, option: CandidateOption, dir: &RunDir) -> Result<Option<Validated>> {
        let mut current = option;
        let mut dropped = Vec::new();
        let mut attempts = 0;
        let mut seconds = 0.0;
        let number = current.number;
        let prefix = option_prefix(number);
        let lookup = |name: &str| self.ctx.catalog.artifact_for(name);
        // A recipe learned from this PR is in no catalog: the runner checks it, in its jar.
        let learned: std::collections::BTreeSet<String> =
            current.steps.iter().filter(|s| s.learned).map(|s| s.step.name.clone()).collect();
        let check = |step: &RecipeStep| {
            if learned.contains(&step.name) {
                Ok(())
            } else {
                crate::mapping::check_step(self.ctx.catalog, step)
            }
        };
        // The last run, and the option exactly as it ran then.
        let mut last: Option<(crate::validation::RunOutput, CandidateOption)> = None;
        while let Some(left) = self.budget.time_left() {
            if interrupted() {
                return Err(anyhow::anyhow!("interrupted"));
            }
            // Before the budget is touched: a runner that cannot start runs nothing.
            let validator = self.ctx.validator(self.checkout)?;
            if !self.budget.take_execution() {
                break;
            }
            attempts += 1;
            self.ctx.progress.message(&format!("validating option {number} (attempt {attempts})"));
            let yaml = current.to_yaml();
            dir.write(&option_file_name(number, "recipe.yaml"), &yaml)?;
            let recipe_name = current.recipe_name();
            let recipe = Recipe {
                yaml: &yaml,
                name: Some(&recipe_name),
                artifacts_for: &lookup,
                option_check: Some(&check),
            };
            let expected =
                Expected { diff: &self.checkout.pr, pr: Some(&self.checkout.pr_view), measure: self.measure };
            let output = Output { dir: dir.root(), prefix: &prefix, ledger: Some(dir.ledger()) };
            let limits =
                Limits { timeout: self.ctx.req.budgets.per_execution.min(left).max(Duration::from_secs(1)) };
            let outcome = validator.run(&recipe, &expected, &output, limits)?;
            if outcome.stats.error.is_none() && !outcome.stats.left_out.is_empty() {
                // The embedded runner ran the option without the steps that failed on their own:
                // the option is what ran.
                drop_left_out(&mut current, &outcome.stats.left_out, &mut dropped);
                dir.write(&option_file_name(number, "recipe.yaml"), current.to_yaml())?;
            }
            seconds += outcome.stats.timings.total_seconds;
            if outcome.stats.error.as_ref().is_some_and(|e| e.kind == ErrorKind::Interrupted) {
                return Err(anyhow::anyhow!("interrupted"));
            }
            let blamed = match &outcome.stats.error {
                Some(error) if attempts < MAX_ATTEMPTS && self.budget.can_run_again() => {
                    offending_step(&current, error, self.ctx.catalog)
                }
                _ => None,
            };
            let detail = outcome.stats.error.as_ref().map(|e| e.detail.clone()).unwrap_or_default();
            last = Some((outcome, current.clone()));
            match blamed {
                Some(index) if current.steps.len() > 1 => {
                    let step = current.steps.remove(index);
                    tracing::info!("option {number}: dropping {} and running again", step.step.name);
                    dropped.push(step.signature());
                    current
                        .notes
                        .push(format!("`{}` was dropped after it failed to run: {detail}", step.step.name));
                }
                _ => break,
            }
        }
        let Some((outcome, ran)) = last else { return Ok(None) };
        if ran.signature() != current.signature() {
            // A recipe was dropped but the budget allowed no run without it: report the last run.
            dropped.pop();
        }
        let current = ran;
        let result = option_result(&current, &outcome, seconds, attempts, dropped);
        dir.write(
            &option_file_name(number, "creation-analysis.md"),
            crate::mapping::creation_analysis(&current),
        )?;
        Ok(Some(Validated { option: current, result, stats: outcome.stats, diff: outcome.diff }))
    }
}

/// `option-N-validation-analysis.md`: the run's numbers and how the option got there.
fn write_validation_analysis(dir: &RunDir, v: &Validated) -> Result<()> {
    let mut notes = Vec::new();
    if v.result.attempts > 1 {
        notes.push(format!(
            "{} attempts; dropped recipes that failed to run: {}",
            v.result.attempts,
            v.result.dropped.join(", ")
        ));
    }
    notes.push(format!("semantic share of true positives: {:.2}", v.result.semantic_share));
    let title = format!("Option {}: {} recipe — validation", v.option.number, v.option.strategy.label());
    dir.write(
        &option_file_name(v.option.number, "validation-analysis.md"),
        crate::validation::report::render_markdown(&title, &v.stats, &notes),
    )?;
    Ok(())
}

/// Removes the steps the run left out (last first, so indexes stay right) and says why.
fn drop_left_out(
    option: &mut CandidateOption,
    left_out: &[crate::model::LeftOut],
    dropped: &mut Vec<String>,
) {
    let mut left_out: Vec<&crate::model::LeftOut> = left_out.iter().collect();
    left_out.sort_by_key(|l| std::cmp::Reverse(l.step));
    let steps = option.steps.len();
    for l in left_out.into_iter().filter(|l| l.step < steps) {
        let step = option.steps.remove(l.step);
        dropped.push(step.signature());
        option.notes.push(format!(
            "`{}` was left out: it failed on its own ({}: {})",
            step.step.name, l.error.kind, l.error.detail
        ));
    }
}

/// Which step of `option` changed which files in its run, when the run said so: in the whole run
/// where the runner told (a step on its own may change a file the whole run left to an earlier
/// step: a text step whose `find` a learned or catalog step already rewrote), else by the
/// attribution.
pub(super) fn changed_files(
    option: &CandidateOption,
    stats: &crate::model::ValidationStats,
) -> Option<Vec<std::collections::BTreeSet<String>>> {
    whole_run_files(option, stats).or_else(|| {
        (!stats.attribution.is_empty())
            .then(|| crate::refinement::effects(option, stats, None).into_iter().map(|e| e.files).collect())
    })
}

/// For each step of `option`, the files it changed in the whole run (embedded runner); None when
/// the run did not say.
fn whole_run_files(
    option: &CandidateOption,
    stats: &crate::model::ValidationStats,
) -> Option<Vec<std::collections::BTreeSet<String>>> {
    if stats.whole_steps_by_file.is_empty() {
        return None;
    }
    let mut files = vec![std::collections::BTreeSet::new(); option.steps.len()];
    for (file, steps) in &stats.whole_steps_by_file {
        for step in steps {
            if let Some(changed) = files.get_mut(*step) {
                changed.insert(file.clone());
            }
        }
    }
    Some(files)
}

/// What an option's last run scored.
fn option_result(
    option: &CandidateOption,
    outcome: &crate::validation::RunOutput,
    seconds: f64,
    attempts: usize,
    dropped: Vec<String>,
) -> OptionResult {
    let m = &outcome.stats.metrics;
    let changed = changed_files(option, &outcome.stats);
    let shares = crate::decision::shares(&option.steps, m, changed.as_deref(), &outcome.stats.step_lines);
    OptionResult {
        option: option.number,
        strategy: option.strategy,
        recipe_name: option.recipe_name(),
        recipes: option.steps.len(),
        precision: m.precision,
        recall: m.recall,
        f1: m.f1,
        perfect_match: m.perfect_match && outcome.stats.error.is_none(),
        semantic_share: shares.semantic,
        catalog_share: shares.catalog,
        learned_share: shares.learned,
        wall_seconds: seconds,
        attempts,
        dropped,
        tests_dropped: outcome.stats.tests.dropped,
        error: outcome.stats.error.clone(),
        backend: outcome
            .stats
            .backend
            .or_else(|| outcome.stats.build_tool.as_deref().and_then(Backend::of_build_tool)),
        migration_precision: outcome.stats.migration.as_ref().map(|m| m.precision),
        false_positive_classes: outcome.stats.migration.as_ref().map(|m| m.counts),
        migration_recall: None,
        migration_f1: None,
        residual: outcome.stats.residual.clone(),
        unresolved: outcome.stats.unresolved.clone(),
    }
}

/// The step a classified error blames, if it can be told.
fn offending_step(
    option: &CandidateOption,
    error: &RunError,
    catalog: &crate::catalog::Catalog,
) -> Option<usize> {
    let by_name = |name: &str| option.steps.iter().position(|s| s.step.name == name);
    match error.kind {
        ErrorKind::UnknownRecipe => error.recipe.as_deref().and_then(by_name),
        ErrorKind::InvalidOption => {
            if let Some(index) = error.recipe.as_deref().and_then(by_name) {
                return Some(index);
            }
            // "Recipe validation error in <option recipe> for property <p>": the step that has, or
            // needs, that option.
            let property = error.property.as_deref()?;
            option.steps.iter().position(|s| {
                s.step.options.contains_key(property)
                    || catalog.get(&s.step.name).is_some_and(|d| d.options.iter().any(|o| o.name == property))
            })
        }
        ErrorKind::DependencyResolution => {
            let text = format!("{} {}", error.detail, error.excerpt);
            option
                .steps
                .iter()
                .position(|s| catalog.artifact_for(&s.step.name).is_some_and(|c| text.contains(&c.artifact)))
        }
        _ => None,
    }
}
