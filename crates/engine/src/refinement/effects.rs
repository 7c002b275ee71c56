//! What each step of a validated option did, from the run's attribution (which recipe changed which
//! file) and its metrics (which lines were right and wrong).

use std::collections::{BTreeMap, BTreeSet};

use crate::decision::text_step_explains;
use crate::model::intent::{Intent, IntentTree};
use crate::model::{Attribution, CandidateOption, ChangeLine, PlannedStep, ValidationStats};
use crate::openrewrite::text::file_pattern_matches;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EffectKind {
    /// True positives and no false positives in the files it changed.
    Clean,
    /// True positives, but false positives too.
    OverApplying,
    /// Only false positives.
    OnlyFalsePositives,
    /// It changed nothing.
    NoEffect,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StepEffect {
    pub kind: EffectKind,
    /// Files the step changed.
    pub files: BTreeSet<String>,
    /// Of those, the files with true positives.
    pub tp_files: BTreeSet<String>,
    pub tp: usize,
    /// False positives that count ([`crate::metrics::counted_false_positives`]).
    pub fp: usize,
    /// Blank lines of layout it changed where the PR did not, not counted in `fp`.
    pub layout_fp: usize,
    pub tp_lines: Vec<ChangeLine>,
    /// False positives per file (only files that have some).
    pub fp_per_file: BTreeMap<String, usize>,
    /// The step's own diff when it ran alone (discovery); empty when unknown.
    pub own_diff: String,
    /// Files it changed where the PR changed nothing it reproduced, and where all it did does not
    /// count against it (completions of the migration, layout): this PR is reproduced without
    /// them, the next repository is served by them.
    pub elsewhere: BTreeSet<String>,
}

impl StepEffect {
    /// Files where the step was right and nothing it did there was wrong.
    pub(crate) fn clean_files(&self) -> Vec<String> {
        self.tp_files.iter().filter(|f| !self.fp_per_file.contains_key(*f)).cloned().collect()
    }
}

/// One effect per step of `option`, in step order. The data table says which recipe changed which
/// file, not which line: a step's true positives are the lines of its files that its intents'
/// evidence names (all lines of its files when its intents carry none, as for broad recipes),
/// and plain-text steps' lines are known exactly. False positives are counted per file.
pub(crate) fn effects(
    option: &CandidateOption,
    stats: &ValidationStats,
    tree: Option<&IntentTree>,
) -> Vec<StepEffect> {
    let root = option.recipe_name();
    option
        .steps
        .iter()
        .enumerate()
        .map(|(index, step)| {
            let reported = option.reported_name(index);
            let files: BTreeSet<String> = stats
                .attribution
                .iter()
                .filter(|row| top_level(row, &stats.attribution, &root) == reported && options_fit(row, step))
                .flat_map(|row| [row.source_path.clone(), row.after_source_path.clone()])
                .filter(|path| !path.is_empty())
                .filter(|path| step.semantic || step_file_scope(step, path))
                .collect();
            let mine = |line: &&ChangeLine| {
                files.contains(&line.path) && (step.semantic || text_step_explains(step, line))
            };
            let evidence = tree.map(|t| evidence_of(t, &step.intents)).unwrap_or_default();
            let explained = |line: &&ChangeLine| {
                evidence.is_empty()
                    || evidence
                        .iter()
                        .any(|e| e.path == line.path && e.kind == line.kind && e.content == line.content)
            };
            // The embedded runner ran the step on its own: its lines are known exactly, and the
            // false positives other steps made in the same files are not its own.
            // A step the next one works on (a chain) shows only part of its change on its own.
            let chain_head = option.steps.get(index + 1).is_some_and(|next| next.after_previous);
            let own = stats.step_lines.iter().find(|s| s.step == index).filter(|_| !chain_head);
            let classes = own.and_then(|own| own.classes.as_ref());
            let (tp_lines, fp_lines): (Vec<ChangeLine>, Vec<ChangeLine>) = match own {
                Some(own) => (own.tp_lines.clone(), own.fp_lines.clone()),
                None => (
                    stats
                        .metrics
                        .true_positive_lines
                        .iter()
                        .filter(mine)
                        .filter(explained)
                        .cloned()
                        .collect(),
                    stats.metrics.false_positive_lines.iter().filter(mine).cloned().collect(),
                ),
            };
            // Layout is a semantic recipe's formatter speaking (and a variant or a completion its
            // way of making the migration); a text step writes what it is told.
            let counted: Vec<&ChangeLine> = if step.semantic {
                crate::metrics::counted(tp_lines.len(), &fp_lines, classes)
            } else {
                fp_lines.iter().collect()
            };
            let layout_fp = fp_lines.len() - counted.len();
            let mut fp_per_file: BTreeMap<String, usize> = BTreeMap::new();
            for line in counted {
                *fp_per_file.entry(line.path.clone()).or_default() += 1;
            }
            let fp = fp_per_file.values().sum();
            let tp_files: BTreeSet<String> = tp_lines.iter().map(|l| l.path.clone()).collect();
            let elsewhere = not_counted_elsewhere(&fp_lines, &fp_per_file, &tp_files);
            let tp = tp_lines.len();
            let kind = match (tp, fp) {
                (0, 0) => EffectKind::NoEffect,
                (0, _) => EffectKind::OnlyFalsePositives,
                (_, 0) => EffectKind::Clean,
                _ => EffectKind::OverApplying,
            };
            StepEffect {
                kind,
                files,
                tp_files,
                tp,
                fp,
                layout_fp,
                tp_lines,
                fp_per_file,
                own_diff: own.map(|o| o.diff.clone()).unwrap_or_default(),
                elsewhere,
            }
        })
        .collect()
}

/// The files with false positives of a step where it reproduced none of the PR's lines and none
/// of its false positives counts against it.
pub(crate) fn not_counted_elsewhere(
    fp_lines: &[ChangeLine],
    counted_per_file: &BTreeMap<String, usize>,
    tp_files: &BTreeSet<String>,
) -> BTreeSet<String> {
    fp_lines
        .iter()
        .map(|l| l.path.clone())
        .filter(|path| !tp_files.contains(path) && !counted_per_file.contains_key(path))
        .collect()
}

/// The option-level step a data-table row belongs to: climbs `parentRecipe` links up to the
/// option's own recipe.
fn top_level<'a>(row: &'a Attribution, all: &'a [Attribution], root: &str) -> &'a str {
    let mut current = row;
    for _ in 0..16 {
        if current.parent_recipe.is_empty() || current.parent_recipe == root {
            return &current.recipe;
        }
        match all.iter().find(|r| r.recipe == current.parent_recipe) {
            Some(parent) => current = parent,
            None => return &current.parent_recipe,
        }
    }
    &current.recipe
}

/// When the log printed the row's options, they must be the step's (two ChangePackage steps
/// differ only by options).
fn options_fit(row: &Attribution, step: &PlannedStep) -> bool {
    if row.options.is_empty() || row.recipe != step.step.name {
        return true;
    }
    step.step.options.iter().all(|(k, v)| {
        let value = v.as_text();
        // Long literal texts (FindAndReplace) are abbreviated or reformatted in logs, and a
        // multi-line one cuts the printed options short: only options the row shows are compared.
        value.len() > 60
            || value.contains('\n')
            || !row.options.contains(&format!("{k}="))
            || row.options.contains(&format!("{k}={value}"))
    })
}

fn step_file_scope(step: &PlannedStep, path: &str) -> bool {
    match step.step.options.get("filePattern") {
        Some(pattern) => file_pattern_matches(&pattern.as_text(), path),
        None => true,
    }
}

/// The evidence of the atomic intents below the given intent ids.
fn find<'a>(intents: &'a [Intent], id: &str) -> Option<&'a Intent> {
    intents.iter().find_map(|i| if i.id == id { Some(i) } else { find(&i.children, id) })
}

fn evidence_of(tree: &IntentTree, ids: &[String]) -> Vec<ChangeLine> {
    ids.iter()
        .filter_map(|id| find(&tree.intents, id))
        .flat_map(|i| i.atomics())
        .flat_map(|a| a.evidence.iter().cloned())
        .collect()
}
