//! The phases themselves: each reads what earlier phases produced, writes its artifacts, and reports
//! an outcome. None of them decides what runs next.

use anyhow::{Context, Result};

use super::artifacts::{self, RunDir, option_file_name, option_prefix};
use super::state::Outcome;
use super::{Run, Validated};
use crate::error::bad_input;
use crate::model::{CandidateOption, plural};
use crate::refinement::{self, Evaluated};
use crate::setup::Repo;

type PhaseResult = Result<(Outcome, String, Vec<String>)>;

impl Run<'_> {
    pub(super) fn setup(&mut self) -> PhaseResult {
        let repo = Repo::open(&self.req.repo)?;
        self.base = repo.resolve(&self.req.base)?;
        self.head = repo.resolve(&self.req.head)?;
        let mut text = repo.diff(&self.base, &self.head)?;
        if let Some(dir) = &self.req.project_dir {
            // A monorepo's build: the PR's changes elsewhere are not this build's to reproduce.
            text = crate::diff::keep_sections(&text, &|path| dir.contains(path));
            if text.trim().is_empty() {
                return Err(bad_input(format!(
                    "the diff {}..{} changes nothing under the working directory {dir}",
                    self.req.base, self.req.head
                )));
            }
        }
        self.dir.write(artifacts::PR_DIFF, &text)?;
        self.dir.write(artifacts::RESULT_PR_DIFF, &text)?;
        self.pr = crate::diff::parse(&text).context("reading the PR's diff")?;
        self.pr_all = crate::diff::parse_all(&text).context("reading the PR's diff")?;
        self.pr_view =
            Some(crate::metrics::classes::PrView::from_repo(&repo, &self.base, &self.head, self.pr.clone())?);
        self.repo_path = Some(repo.path().to_path_buf());
        self.repo = Some(std::sync::Mutex::new(repo));
        if self.pr_all.files.is_empty() {
            return Err(bad_input(format!(
                "the diff {}..{} is empty: nothing to learn from",
                self.req.base, self.req.head
            )));
        }
        if self.pr.change_count() == 0 {
            return Err(bad_input(format!(
                "the diff {}..{} has no changed text lines (binary or build-output files only)",
                self.req.base, self.req.head
            )));
        }
        let detail = format!(
            "{} files, {} changed lines ({}..{})",
            self.pr.files.len(),
            self.pr.change_count(),
            crate::setup::git::short_sha(&self.base),
            crate::setup::git::short_sha(&self.head)
        );
        Ok((Outcome::Ok, detail, vec![artifacts::PR_DIFF.into(), artifacts::RESULT_PR_DIFF.into()]))
    }

    pub(super) fn intents(&mut self) -> PhaseResult {
        let repo = self.repo()?;
        let tree = crate::intents::extract(&repo, &self.base, &self.head, self.req.project_dir.as_ref())?;
        drop(repo);
        self.dir.write(artifacts::INTENT_TREE_MD, crate::intents::render_markdown(&tree))?;
        self.dir.write_json(artifacts::INTENT_TREE_JSON, &tree)?;
        let detail = format!(
            "{} strategic, {} atomic intents, coverage {:.0}%",
            tree.intents.iter().filter(|i| i.level() == crate::model::intent::Level::Strategic).count(),
            tree.atomics().len(),
            tree.coverage * 100.0
        );
        self.tree = Some(tree);
        Ok((Outcome::Ok, detail, vec![artifacts::INTENT_TREE_MD.into(), artifacts::INTENT_TREE_JSON.into()]))
    }

    /// Composes option 1 (wide) or 2 (narrow).
    pub(super) fn compose(&mut self, number: u8) -> PhaseResult {
        let tree = self.tree.as_ref().context("no intent tree")?;
        let option = match number {
            1 => crate::mapping::compose_wide(tree, self.catalog),
            _ => {
                let repo = self.repo()?;
                let read = base_reader(&repo, &self.base);
                crate::mapping::compose_narrow(tree, &self.pr_all, self.catalog, &read)
            }
        };
        let outputs = write_option(&self.dir, &option)?;
        let count = option.steps.len();
        let detail = format!("{count} recipe{} ({} semantic)", plural(count), option.semantic_steps());
        let outcome = if option.steps.is_empty() { Outcome::Skipped } else { Outcome::Ok };
        self.candidates.insert(number, option);
        Ok((outcome, detail, outputs))
    }

    pub(super) fn validate_candidates(&mut self) -> PhaseResult {
        let options: Vec<CandidateOption> =
            self.candidates.values().filter(|o| o.number <= 2 && !o.steps.is_empty()).cloned().collect();
        if options.is_empty() {
            return Ok((Outcome::Failed, "no candidate recipe to validate".into(), Vec::new()));
        }
        let (validated, broken) = self.validate_all(options, None)?;
        let ran = validated.iter().filter(|v| v.result.ran()).count();
        let mut detail = Vec::new();
        let mut outputs = Vec::new();
        for v in validated {
            detail.push(option_detail(&v));
            outputs.extend(option_outputs(v.option.number));
            self.tried.push(v.option.signature());
            self.results.insert(v.option.number, v);
        }
        let outcome = if ran > 0 {
            Outcome::Ok
        } else if broken.is_empty() && !self.can_run_again() {
            Outcome::OutOfBudget
        } else {
            Outcome::Failed
        };
        if !detail.is_empty() {
            self.problems.extend(broken.iter().map(|b| format!("validate_candidates: {b}")));
        } else if !broken.is_empty() {
            // Nothing ran because something failed first (the runner could not start, a clone):
            // that is the phase's story, not the budget.
            detail = broken;
        } else {
            detail.push(format!(
                "no option could run: the budget of {} recipe executions (--max-executions) or the wall time is spent",
                self.req.budgets.max_executions
            ));
        }
        Ok((outcome, detail.join("; "), outputs))
    }

    pub(super) fn refine(&mut self) -> PhaseResult {
        let (outcome, detail, mut outputs) = self.refine_round()?;
        // Option 3's creation analysis says why there is no option 3, so the layout stays whole.
        if outcome != Outcome::Ok && !self.results.contains_key(&3) {
            let name = option_file_name(3, "creation-analysis.md");
            let text = format!(
                "# Option 3: synthesized recipe\n\nNot synthesized: {detail}.\n\nOption 3 is built from what \
                 validating options 1 and 2 showed; see their validation analyses.\n"
            );
            std::fs::write(self.dir.path(&name), text)?;
            outputs.push(name);
        }
        Ok((outcome, detail, outputs))
    }

    fn refine_round(&mut self) -> PhaseResult {
        if let Some(perfect) = self.results.values().find(|v| v.result.perfect_match)
            && !self.discovery_may_improve(perfect)
        {
            return Ok((
                Outcome::Skipped,
                format!("option {} already reproduces the PR exactly", perfect.option.number),
                vec![],
            ));
        }
        if self.rounds >= self.req.budgets.max_rounds {
            // The planned number of rounds is the normal end of refinement, not a shortfall.
            return Ok((
                Outcome::Skipped,
                format!("{} refinement rounds done (--max-rounds)", self.rounds),
                vec![],
            ));
        }
        if self.time_left().is_none() {
            return Ok((Outcome::OutOfBudget, "the run's wall-time budget is spent".into(), vec![]));
        }
        let option = {
            let tree = self.tree.as_ref().context("no intent tree")?;
            let repo = self.repo()?;
            let read = base_reader(&repo, &self.base);
            let evaluated: Vec<Evaluated<'_>> =
                self.results.values().map(|v| Evaluated { option: &v.option, stats: &v.stats }).collect();
            let discovered = self.discovery.as_ref().map(|d| d.evidence(tree)).unwrap_or_default();
            // The migration as the recipes write it first; then, touched up to this PR's text.
            let form =
                if self.rounds == 0 { refinement::Form::Migration } else { refinement::Form::Faithful };
            refinement::synthesize(tree, &self.pr_all, self.catalog, &read, &evaluated, &discovered, form)
        };
        self.rounds += 1;
        if option.steps.is_empty() {
            return Ok((Outcome::Skipped, "nothing to synthesize".into(), vec![]));
        }
        if self.tried.contains(&option.signature()) {
            return Ok((
                Outcome::Stuck,
                format!("round {}: the synthesized recipe set was already validated", self.rounds),
                vec![],
            ));
        }
        let round_dir = self.round_dir()?;
        let outputs = write_option(&round_dir, &option)?;
        let count = option.steps.len();
        self.candidates.insert(3, option);
        Ok((Outcome::Ok, format!("round {}: {count} recipe{}", self.rounds, plural(count)), outputs))
    }

    /// Whether discovery's recipes may make a better recipe than a perfect option 1 or 2: one that
    /// is more semantic, or as semantic with fewer recipes (one composite for several narrow steps).
    fn discovery_may_improve(&self, perfect: &Validated) -> bool {
        let chosen = self.discovery.as_ref().map_or(0, |d| d.chosen.len());
        perfect.option.number != 3
            && !self.results.contains_key(&3)
            && chosen > 0
            && (perfect.result.semantic_share < 1.0 || chosen < perfect.result.recipes)
    }

    pub(super) fn validate_refined(&mut self) -> PhaseResult {
        let option = self.candidates.get(&3).cloned().context("no synthesized option")?;
        self.tried.push(option.signature());
        let round_dir = self.round_dir()?;
        let (mut validated, broken) = self.validate_all(vec![option], Some(&round_dir))?;
        let Some(v) = validated.pop() else {
            // Either something failed before the run (the cause is the detail) or no execution
            // was left.
            return Ok(if broken.is_empty() {
                (Outcome::OutOfBudget, "no execution left".into(), vec![])
            } else {
                (Outcome::Failed, broken.join("; "), vec![])
            });
        };
        self.problems.extend(broken.iter().map(|b| format!("validate_refined: {b}")));
        let detail = format!("round {}: {}", self.rounds, option_detail(&v));
        let outcome = if v.result.ran() { Outcome::Ok } else { Outcome::Failed };
        // Keep the best round as option 3, by the decision's own rules.
        let better = match self.results.get(&3) {
            Some(current) => {
                v.result.ran()
                    && (!current.result.ran() || crate::decision::better(&v.result, &current.result))
            }
            None => true,
        };
        let mut outputs = Vec::new();
        if better {
            for what in artifacts::OPTION_FILES {
                let name = option_file_name(3, what);
                let from = round_dir.path(&name);
                if from.exists() {
                    std::fs::copy(&from, self.dir.path(&name))?;
                    outputs.push(name);
                }
            }
            self.results.insert(3, v);
        }
        Ok((outcome, detail, outputs))
    }

    pub(super) fn decide(&mut self) -> PhaseResult {
        let results: Vec<_> = self.results.values().map(|v| v.result.clone()).collect();
        self.recommendation = crate::decision::choose(&results);
        if let (Some(recommendation), Some(tree)) = (self.recommendation.as_mut(), self.tree.as_ref())
            && let Some(chosen) = self.results.get(&recommendation.option)
        {
            let side_work = super::generalize::side_work_lines(tree);
            recommendation.migration_semantic_share = Some(crate::decision::semantic_share_among(
                &chosen.option.steps,
                &chosen.stats.metrics,
                super::execute::changed_files(&chosen.option, &chosen.stats).as_deref(),
                |l| !side_work.contains(&(l.path.clone(), l.kind, l.content.clone())),
            ));
        }
        match &self.recommendation {
            Some(r) => Ok((
                Outcome::Ok,
                format!("option {} (F1 {:.4}, {})", r.option, r.f1, r.confidence.label()),
                Vec::new(),
            )),
            None => Ok((Outcome::Failed, "no option could be validated".into(), Vec::new())),
        }
    }

    /// `--backend auto`: the recommended option, found with the embedded runner, runs once more with
    /// the project's build tool (what users will run). Both results are reported; a build that does
    /// not resolve makes the confirmation impossible, not the recommendation wrong.
    pub(super) fn confirm(&mut self) -> PhaseResult {
        let Some(recommendation) = &self.recommendation else {
            return Ok((Outcome::Skipped, "no recommendation".into(), Vec::new()));
        };
        if !self.req.backend.confirms() {
            return Ok((Outcome::Skipped, format!("backend {}", self.req.backend.label()), Vec::new()));
        }
        let chosen =
            self.results.get(&recommendation.option).context("recommended option without results")?;
        if chosen.result.backend != Some(crate::model::Backend::Embedded) {
            return Ok((Outcome::Skipped, "validated with the plugin already".into(), Vec::new()));
        }
        let Some(left) = self.time_left() else {
            return Ok((Outcome::OutOfBudget, "no time left to confirm".into(), Vec::new()));
        };
        let Some(repo) = self.repo_path.as_deref() else {
            return Ok((Outcome::Skipped, "no repository".into(), Vec::new()));
        };
        self.progress.message(&format!("confirming option {} with the plugin", recommendation.option));
        let lookup = |name: &str| self.catalog.artifact_for(name);
        let yaml = chosen.option.to_yaml();
        let prefix = option_prefix(chosen.option.number);
        let recipe_name = chosen.option.recipe_name();
        let request = crate::validation::Request {
            repo,
            base: &self.base,
            expected: &self.pr,
            recipe_yaml: &yaml,
            recipe_name: Some(&recipe_name),
            timeout: self.req.budgets.per_execution.min(left).max(std::time::Duration::from_secs(1)),
            versions: &self.req.versions,
            artifacts_for: &lookup,
            option_check: None,
            out_dir: self.dir.root(),
            file_prefix: &prefix,
            session: None,
            trust: self.req.trust,
            project_dir: self.req.project_dir.as_ref(),
            pr: self.pr_view.as_ref(),
        };
        let explored = crate::validation::Outcome { stats: chosen.stats.clone(), diff: chosen.diff.clone() };
        let confirmation = crate::validation::confirm(&request, &explored)?;
        let detail = crate::validation::report::confirmation_line(&confirmation).trim().to_string();
        let outputs = ["confirm-recipe.diff", "confirm-stats.json", "confirm-build.log"]
            .iter()
            .map(|f| format!("{prefix}{f}"))
            .filter(|f| self.dir.path(f).exists())
            .collect();
        // Impossible (the build does not resolve) or different, the embedded result stands and
        // the report says so: not a failure of the run.
        self.confirmation = Some(confirmation);
        Ok((Outcome::Ok, detail, outputs))
    }

    pub(super) fn publish(&mut self) -> PhaseResult {
        let Some(recommendation) = &self.recommendation else {
            return Ok((
                Outcome::Ok,
                "no recommendation: result/ holds the PR's diff only".into(),
                Vec::new(),
            ));
        };
        let chosen =
            self.results.get(&recommendation.option).context("recommended option without results")?;
        self.dir.write(artifacts::RECOMMENDED_RECIPE, chosen.option.to_yaml())?;
        self.dir.write(artifacts::RECOMMENDED_DIFF, &chosen.diff)?;
        Ok((
            Outcome::Ok,
            format!("option {}", recommendation.option),
            vec![artifacts::RECOMMENDED_RECIPE.into(), artifacts::RECOMMENDED_DIFF.into()],
        ))
    }

    fn repo(&self) -> Result<std::sync::MutexGuard<'_, crate::setup::Repo>> {
        let repo = self.repo.as_ref().context("no repository")?;
        repo.lock().map_err(|_| anyhow::anyhow!("the repository handle is poisoned"))
    }

    /// `refinement/round-N/` for the current round.
    fn round_dir(&self) -> Result<RunDir> {
        RunDir::create(&self.dir.path(&format!("refinement/round-{}", self.rounds)))
    }

    pub(super) fn write_validation_analysis(&self, dir: &RunDir, v: &Validated) -> Result<()> {
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
}

/// Reads a file's text at the base commit (None: absent there), for text replacements.
fn base_reader<'a>(repo: &'a crate::setup::Repo, base: &'a str) -> impl Fn(&str) -> Option<String> + 'a {
    move |path| repo.read_file(base, path).ok().flatten().map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// Writes `option-N-recipe.yaml` and `option-N-creation-analysis.md`.
pub(super) fn write_option(dir: &RunDir, option: &CandidateOption) -> Result<Vec<String>> {
    let yaml = option_file_name(option.number, "recipe.yaml");
    let analysis = option_file_name(option.number, "creation-analysis.md");
    if !option.steps.is_empty() {
        dir.write(&yaml, option.to_yaml())?;
    }
    dir.write(&analysis, crate::mapping::creation_analysis(option))?;
    Ok([yaml, analysis].into_iter().filter(|f| dir.path(f).exists()).collect())
}

fn option_outputs(number: u8) -> Vec<String> {
    ["recipe.diff", "stats.json", "validation-analysis.md"]
        .iter()
        .map(|w| option_file_name(number, w))
        .collect()
}

fn option_detail(v: &Validated) -> String {
    match &v.result.error {
        None => format!("option {}: F1 {:.4}", v.option.number, v.result.f1),
        Some(e) => format!("option {}: {} ({})", v.option.number, e.kind, e.detail),
    }
}
