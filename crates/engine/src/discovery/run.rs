//! Running the pool on the embedded runner: the pool in batches (a batch that outlives the time
//! left is lost alone), each recipe on its own on the unchanged trees; then the composites that
//! were right somewhere and wrong elsewhere, split by the runner into their sub-recipes with the
//! options the composite gives them; then the follow-up round on the migrated trees
//! ([`super::follow_up`]).

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::pool::Candidate;
use super::{Discovery, MAX_SPLIT_RUNS, Tried};
use crate::catalog::Catalog;
use crate::diff::Diff;
use crate::openrewrite::RecipeStep;
use crate::openrewrite::recipe_yaml::{DeclarativeRecipe, OptionValue};
use crate::validation::embedded::Session;
use crate::validation::embedded::protocol::StepRun;

/// Recipes per runner request.
pub(crate) const BATCH: usize = 40;
/// Rounds of splitting composites that over-apply (sub-recipes of sub-recipes).
pub(crate) const SPLIT_ROUNDS: usize = 2;
/// Composites split per round, the ones with the most true positives first.
const SPLITS_PER_ROUND: usize = 4;
/// Time a step started just before discovery's time was up may take to finish.
pub(crate) const STEP_GRACE: Duration = Duration::from_secs(60);

/// What a discovery run needs.
pub(crate) struct Inputs<'a> {
    pub session: &'a Session,
    pub catalog: &'a Catalog,
    /// The PR's diff as the metric sees it.
    pub pr: &'a Diff,
    /// The PR's files, to tell a recipe's false positives apart; None when only the diff is known.
    pub view: Option<&'a crate::metrics::classes::PrView>,
    /// Where the pool's recipe file is written (the run directory).
    pub dir: &'a Path,
    /// Time for all of discovery.
    pub budget: Duration,
    /// The PR's lines outside its migration, given what discovery found (the follow-up round is
    /// skipped when the recipes chosen so far make all the others). None: every line counts.
    pub side_work: Option<&'a SideWork<'a>>,
}

/// The PR's lines outside its migration (path, kind, content), given discovery's runs so far.
pub(crate) type SideWork<'a> =
    dyn Fn(&Discovery) -> std::collections::HashSet<(String, crate::diff::ChangeKind, String)> + 'a;

/// Runs `pool`, then splits what over-applied; the cover is chosen by the caller.
pub(crate) fn run(inputs: &Inputs<'_>, pool: &[Candidate]) -> Result<Discovery> {
    let started = Instant::now();
    let mut discovery = Discovery { pool: pool.len(), ..Discovery::default() };
    let file = inputs.dir.join(super::report::POOL_YAML);
    std::fs::write(&file, pool_yaml(pool))?;
    // A quarter of the time is kept for the follow-up round: what the migration makes possible
    // explains more of the PR than the least promising of the pool.
    let pool_budget = inputs.budget.mul_f64(0.75);
    for (index, batch) in pool.chunks(BATCH).enumerate() {
        let Some(left) = pool_budget.checked_sub(started.elapsed()) else {
            discovery.not_run += batch.len();
            continue;
        };
        let name = batch_name(index);
        match inputs.session.run_steps(vec![file.clone()], &name, None, left, left + STEP_GRACE)? {
            Ok(results) => {
                discovery.not_run += results.not_run.len();
                for run in results.steps() {
                    let why =
                        batch.get(run.step.unwrap_or(usize::MAX)).map(|c| c.why.clone()).unwrap_or_default();
                    record(inputs, &mut discovery, run, why, 1, false);
                }
            }
            Err(stopped) => {
                discovery.stopped = Some(stopped.to_string());
                break;
            }
        }
    }
    for round in 2..2 + SPLIT_ROUNDS {
        split_round(inputs, &mut discovery, round, started, None)?;
    }
    super::follow_up::run(inputs, &mut discovery, pool, started)?;
    discovery.seconds = started.elapsed().as_secs_f64();
    Ok(discovery)
}

/// Splits the previous round's over-applying composites; `migrated`: those of the follow-up round,
/// on the migrated trees (the file holds [`super::follow_up::MIGRATION`]).
pub(crate) fn split_round(
    inputs: &Inputs<'_>,
    discovery: &mut Discovery,
    round: usize,
    started: Instant,
    migrated: Option<&Path>,
) -> Result<()> {
    // An umbrella's members include the previous version's umbrella: split once, not down the
    // whole version ladder.
    let mut over: Vec<&Tried> = discovery
        .tried
        .iter()
        .filter(|t| t.on_migration == migrated.is_some())
        .filter(|t| t.round == round - 1 && t.members > 0 && t.over_applying())
        .filter(|t| round == 2 || !super::pool::is_umbrella(inputs.catalog, &t.step.name))
        .collect();
    over.sort_by(|a, b| b.tp().cmp(&a.tp()).then(a.fp().cmp(&b.fp())));
    let composites: Vec<String> = over.iter().take(SPLITS_PER_ROUND).map(|t| t.step.name.clone()).collect();
    for composite in composites {
        if discovery.stopped.is_some() || discovery.runs.saturating_sub(discovery.pool) >= MAX_SPLIT_RUNS {
            return Ok(());
        }
        let Some(left) = inputs.budget.checked_sub(started.elapsed()) else {
            return Ok(());
        };
        let files: Vec<std::path::PathBuf> = migrated.iter().map(|f| f.to_path_buf()).collect();
        let after = migrated.map(|_| super::follow_up::MIGRATION);
        match inputs.session.run_steps(files, &composite, after, left, left + STEP_GRACE)? {
            Ok(results) if results.ok => {
                discovery.not_run += results.not_run.len();
                for run in results.steps() {
                    let why = format!("sub-recipe of `{composite}`");
                    record(inputs, discovery, run, why, round, migrated.is_some());
                }
            }
            Ok(results) => {
                let why = results.error.map(|e| e.message).unwrap_or_default();
                tracing::info!("discovery: `{composite}` could not be split: {why}");
            }
            Err(stopped) => discovery.stopped = Some(stopped.to_string()),
        }
    }
    Ok(())
}

/// Scores one run against the PR and keeps it, unless the same recipe with the same options ran
/// already on the same trees, or it is a sub-recipe that changed nothing and failed in nothing.
pub(crate) fn record(
    inputs: &Inputs<'_>,
    discovery: &mut Discovery,
    run: &StepRun,
    why: String,
    round: usize,
    on_migration: bool,
) {
    discovery.runs += 1;
    let Some(step) = step_of(run) else { return };
    if round > 1 && run.diff.trim().is_empty() && run.error.is_none() {
        return;
    }
    if discovery
        .tried
        .iter()
        .any(|t| t.step.signature() == step.signature() && t.on_migration == on_migration)
    {
        return;
    }
    let crate::metrics::Scored { tp_lines, fp_lines, classes } =
        crate::metrics::score(inputs.pr, inputs.view, &run.diff, Some(&run.types));
    let members = inputs.catalog.get(&step.name).map_or(0, |r| r.members.len());
    let diff = if !tp_lines.is_empty() && !fp_lines.is_empty() { run.diff.clone() } else { String::new() };
    discovery.tried.push(Tried {
        step,
        why,
        round,
        on_migration,
        members,
        seconds: run.seconds,
        error: run.error.as_ref().map(|e| e.message.clone()),
        tp_lines,
        fp_lines,
        classes,
        diff,
    });
}

/// The recipe as a step of a recipe list, when its options can be written in YAML (strings,
/// numbers, booleans, lists of strings).
fn step_of(run: &StepRun) -> Option<RecipeStep> {
    let mut step = RecipeStep::new(run.name.clone());
    for (key, value) in &run.options {
        let value = match value {
            serde_json::Value::Null => continue,
            serde_json::Value::Bool(b) => OptionValue::Bool(*b),
            serde_json::Value::String(s) => OptionValue::Text(s.clone()),
            serde_json::Value::Number(n) => OptionValue::Text(n.to_string()),
            serde_json::Value::Array(items) => OptionValue::List(
                items.iter().map(|i| i.as_str().map(str::to_string)).collect::<Option<Vec<_>>>()?,
            ),
            serde_json::Value::Object(_) => return None,
        };
        step.options.insert(key.clone(), value);
    }
    Some(step)
}

fn batch_name(index: usize) -> String {
    format!("rewriteassist.Discovery{}", index + 1)
}

/// One recipe document per batch, each recipe by name without options.
fn pool_yaml(pool: &[Candidate]) -> String {
    let docs: Vec<String> = pool
        .chunks(BATCH)
        .enumerate()
        .map(|(index, batch)| {
            DeclarativeRecipe {
                name: batch_name(index),
                display_name: format!("Discovery pool, batch {}", index + 1),
                description: "Candidate recipes, each run on its own by rewrite-assist's discovery.".into(),
                preconditions: Vec::new(),
                recipe_list: batch.iter().map(|c| RecipeStep::new(c.name.clone())).collect(),
            }
            .to_yaml()
        })
        .collect();
    docs.join("---\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_diff_is_scored_line_by_line_against_the_pr() {
        let pr = crate::diff::parse(
            "diff --git a/A.java b/A.java\n--- a/A.java\n+++ b/A.java\n@@ -1,2 +1,2 @@\n-import a.B;\n+import c.B;\n x\n",
        )
        .unwrap();
        let step = "diff --git a/A.java b/A.java\n--- a/A.java\n+++ b/A.java\n@@ -1,3 +1,3 @@\n-import a.B;\n+import c.B;\n x\n-y\n+z\n";
        let (tp, fp) = crate::metrics::score_lines(&pr, step);
        assert_eq!(tp.len(), 2);
        assert_eq!(fp.iter().map(|l| l.content.as_str()).collect::<Vec<_>>(), vec!["y", "z"]);
        assert_eq!(crate::metrics::score_lines(&pr, ""), (vec![], vec![]));
    }

    #[test]
    fn options_the_runner_reports_become_yaml_options_unless_they_are_objects() {
        let run: StepRun = serde_json::from_value(serde_json::json!({
            "step": 0, "name": "org.openrewrite.maven.UpgradeParentVersion",
            "options": {"groupId": "org.springframework.boot", "newVersion": "3.1.x", "retainVersions": ["a", "b"],
                "onlyIfUsing": null, "keep": true, "limit": 3}
        }))
        .unwrap();
        let step = step_of(&run).unwrap();
        assert_eq!(
            step.signature(),
            "org.openrewrite.maven.UpgradeParentVersion groupId=org.springframework.boot keep=true limit=3 newVersion=3.1.x retainVersions=a,b"
        );
        let odd: StepRun = serde_json::from_value(
            serde_json::json!({"step": 0, "name": "x.Y", "options": {"m": {"k": "v"}}}),
        )
        .unwrap();
        assert_eq!(step_of(&odd), None);
    }

    #[test]
    fn the_pool_file_has_one_recipe_per_batch() {
        let pool: Vec<Candidate> = (0..BATCH + 3)
            .map(|i| Candidate { name: format!("a.R{i}"), score: 1.0, why: String::new() })
            .collect();
        let yaml = pool_yaml(&pool);
        assert!(
            yaml.contains("name: \"rewriteassist.Discovery1\"")
                || yaml.contains("name: rewriteassist.Discovery1"),
            "{yaml}"
        );
        assert!(yaml.contains("rewriteassist.Discovery2"));
        assert_eq!(yaml.matches("  - a.R").count(), BATCH + 3, "{yaml}");
    }
}
