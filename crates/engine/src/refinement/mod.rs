//! Phase 5, refinement: option 3 synthesized from what validation showed. Recipes whose changes
//! were true positives are kept, recipes that only produced false positives (or nothing) are
//! dropped, over-applying ones are narrowed to the files where they were right or replaced by
//! cleaner steps, and narrow recipes are added for the PR changes still missing.

pub(crate) mod effects;
mod touch_ups;

pub(crate) use effects::{EffectKind, StepEffect, effects};

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::catalog::Catalog;
use crate::diff::{ChangeKind, Diff};
use crate::mapping::{self, BaseFile};
use crate::model::intent::IntentTree;
use crate::model::{CandidateOption, ChangeLine, PlannedStep, ValidationStats};
use crate::openrewrite::RecipeStep;

/// A validated option: what it ran and what it did.
pub(crate) struct Evaluated<'a> {
    pub option: &'a CandidateOption,
    pub stats: &'a ValidationStats,
}

type LineKey = (String, ChangeKind, String);

fn key(line: &ChangeLine) -> LineKey {
    (line.path.clone(), line.kind, line.content.clone())
}

/// [`LineKey`] borrowed: for sets of lines looked up once per line (no copy of each line).
type KeyRef<'a> = (&'a str, ChangeKind, &'a str);

fn key_ref(line: &ChangeLine) -> KeyRef<'_> {
    (&line.path, line.kind, &line.content)
}

/// How option 3 treats a semantic recipe that makes the PR's change its own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// As the recipe writes it: its variants and layout stay ([`crate::metrics::classes`]), the
    /// option is the migration as OpenRewrite makes it. The first round.
    Migration,
    /// Touched up to the PR's text where a few literal replacements make it so: the option
    /// reproduces this PR more closely, at the cost of text steps. The next round; the decision
    /// weighs the two.
    Faithful,
}

/// Builds option 3 from discovery's evidence and the evaluated options (in the order they ran;
/// later evaluations of the same step win). Decisions are recorded in the option's notes.
///
/// Discovery's recipes come first and replace an evaluation of the same step: each ran on its own
/// and its lines were compared one by one, while an option's steps are judged from which files
/// they changed.
pub(crate) fn synthesize(
    tree: &IntentTree,
    pr: &Diff,
    catalog: &Catalog,
    base_file: BaseFile<'_>,
    evaluated: &[Evaluated<'_>],
    discovered: &[(PlannedStep, StepEffect)],
    form: Form,
) -> CandidateOption {
    let mut pool = latest_effects(tree, evaluated);
    pool.retain(|(s, _)| !discovered.iter().any(|(d, _)| d.signature() == s.signature()));
    let exact = discovered.len();
    let all: Vec<(PlannedStep, StepEffect)> = discovered.iter().cloned().chain(pool).collect();
    // A step that works on the previous one's result is judged with it, not by itself.
    let pool: Vec<(PlannedStep, StepEffect)> =
        all.iter().filter(|(s, _)| !s.after_previous).cloned().collect();
    let mut synthesis = Synthesis {
        option: CandidateOption::new(crate::model::OptionId::Synthesized, mapping::purpose(tree)),
        known_bad: pool
            .iter()
            .filter(|(_, e)| matches!(e.kind, EffectKind::OnlyFalsePositives | EffectKind::NoEffect))
            .map(|(s, _)| s.signature())
            .collect(),
        covered: HashMap::new(),
        semantic_lines: HashMap::new(),
        pr_counts: pr.changes().fold(HashMap::new(), |mut counts, c| {
            *counts.entry((c.path.to_string(), c.kind, c.content.to_string())).or_default() += 1;
            counts
        }),
        selected: Vec::new(),
    };
    // 1. Clean steps: true positives and no false positives; semantic ones first, so that a text
    //    step that would repeat their lines is known as such.
    synthesis.keep_clean(&pool, exact, true);
    if form == Form::Faithful {
        synthesis.touch_up_clean(&pool, pr, base_file);
    }
    // 2. Over-applying steps: only for what the clean ones do not already do, narrowed to the files
    //    where everything they did was right or a few touch-ups make it so; the steps that did
    //    only harm or nothing are dropped.
    synthesis.narrow_over_applying(&pool, pr, base_file);
    synthesis.keep_clean(&pool, exact, false);
    synthesis.note_dropped(&pool);
    synthesis.follow_chains(&all);
    // 3. The PR's changes nothing covers yet: their intents' narrow recipes, or literal text.
    let open = synthesis.open_lines(pr);
    let text_lines = synthesis.add_narrow_recipes(tree, catalog, &open);
    synthesis.finish(pr, base_file, text_lines)
}

/// The latest effect per step signature.
fn latest_effects(tree: &IntentTree, evaluated: &[Evaluated<'_>]) -> Vec<(PlannedStep, StepEffect)> {
    let mut pool: Vec<(PlannedStep, StepEffect)> = Vec::new();
    for e in evaluated.iter().filter(|e| e.stats.error.is_none()) {
        for (step, effect) in e.option.steps.iter().zip(effects(e.option, e.stats, Some(tree))) {
            let sig = step.signature();
            pool.retain(|(s, _)| s.signature() != sig);
            pool.push((step.clone(), effect));
        }
    }
    pool
}

/// Option 3 while it is being built.
struct Synthesis {
    option: CandidateOption,
    /// Signatures of steps that must not come back (only harm, no effect, superseded).
    known_bad: Vec<String>,
    /// How many times each PR line is produced by the selected steps.
    covered: HashMap<LineKey, usize>,
    /// How many times each PR line is produced by the selected semantic steps.
    semantic_lines: HashMap<LineKey, usize>,
    /// How many times the PR changes each line.
    pr_counts: HashMap<LineKey, usize>,
    selected: Vec<PlannedStep>,
}

impl Synthesis {
    fn cover(&mut self, lines: &[ChangeLine], semantic: bool) {
        for line in lines {
            *self.covered.entry(key(line)).or_default() += 1;
        }
        if semantic {
            for line in lines {
                *self.semantic_lines.entry(key(line)).or_default() += 1;
            }
        }
    }

    /// A PR line the semantic steps already write as often as the PR has it: a text replacement
    /// that writes it too would write it once more (or, its `find` gone, nothing at all).
    fn written_by_semantic_steps(&self, line: &LineKey) -> bool {
        self.semantic_lines.get(line).is_some_and(|n| *n >= self.pr_counts.get(line).copied().unwrap_or(0))
    }

    /// Keeps the clean steps. The first `exact` come from discovery; a later step whose lines they
    /// all produce already is left out (it would only repeat them).
    fn keep_clean(&mut self, pool: &[(PlannedStep, StepEffect)], exact: usize, semantic: bool) {
        let discovered: std::collections::HashSet<LineKey> = pool[..exact.min(pool.len())]
            .iter()
            .filter(|(_, e)| e.kind == EffectKind::Clean)
            .flat_map(|(_, e)| e.tp_lines.iter().map(key))
            .collect();
        for (index, (step, effect)) in pool
            .iter()
            .enumerate()
            .filter(|(_, (s, e))| e.kind == EffectKind::Clean && s.semantic == semantic)
        {
            if !step.semantic && effect.tp_lines.iter().any(|l| self.written_by_semantic_steps(&key(l))) {
                self.option.notes.push(format!(
                    "left out `{}`: it also writes lines the semantic recipes write; its other lines stay missing.",
                    describe(&step.step)
                ));
                continue;
            }
            if index >= exact && exact > 0 && effect.tp_lines.iter().all(|l| discovered.contains(&key(l))) {
                self.option.notes.push(format!(
                    "left out `{}`: the recipes discovery found produce its {} true positives.",
                    describe(&step.step),
                    effect.tp
                ));
                continue;
            }
            let mut kept = step.clone();
            if step.semantic && !effect.elsewhere.is_empty() && kept.scope.is_empty() {
                // It also completes the migration where the author had not: this PR is
                // reproduced without that; the reusable recipe drops the scope and keeps it.
                kept.scope =
                    effect.tp_files.iter().map(|f| crate::openrewrite::text::glob_escape(f)).collect();
                kept.reason = format!(
                    "{} Restricted to the files where it reproduces the PR: in {} it also makes the migration the author did not (completions; the reusable recipe keeps them).",
                    step.reason,
                    effect.elsewhere.iter().cloned().collect::<Vec<_>>().join(", ")
                );
            }
            if add(&mut self.selected, kept) {
                self.cover(&effect.tp_lines, step.semantic);
                let layout = match effect.layout_fp {
                    0 => String::new(),
                    n => format!(" ({n} blank lines of layout differ from the PR)"),
                };
                self.option.notes.push(format!(
                    "kept `{}`: {} true positives, no false positives{layout}.",
                    describe(&step.step),
                    effect.tp
                ));
            }
        }
    }

    /// Touch-ups after the kept semantic steps that wrote some of the PR's lines their own way
    /// (variants, layout): literal replacements of what they wrote by what the PR wrote.
    fn touch_up_clean(&mut self, pool: &[(PlannedStep, StepEffect)], pr: &Diff, base_file: BaseFile<'_>) {
        // A follow-up's own diff is of the migrated trees, not of the base commit's.
        for (step, effect) in
            pool.iter().filter(|(s, e)| e.kind == EffectKind::Clean && s.semantic && !s.after_migration)
        {
            if !self.selected.iter().any(|s| s.step.signature() == step.step.signature()) {
                continue;
            }
            let touch = touch_ups::plan(&effect.own_diff, pr, base_file);
            let touched_tp = effect.tp_lines.iter().filter(|l| touch.files.contains(&l.path)).count();
            // This form is for reproducing the PR: a touch-up may write as many lines as the recipe
            // gets right there (the migration form keeps the recipe's own writing).
            if touch.steps.is_empty() || touch.writes.len() > touched_tp {
                continue;
            }
            self.option.notes.push(format!(
                "touched up `{}` in {}: {} literal replacements write the PR's text where it wrote the same change its own way ({} lines).",
                describe(&step.step),
                touch.files.iter().cloned().collect::<Vec<_>>().join(", "),
                touch.steps.len(),
                touch.writes.len()
            ));
            self.cover(&touch.writes, false);
            let reason = format!(
                "Touch-up after `{}`: it makes the PR's change but writes it differently here; a literal replacement of what it wrote.",
                crate::openrewrite::simple_name(&step.step.name)
            );
            for fix in touch.steps {
                add(&mut self.selected, PlannedStep::new(fix, false, step.intents.clone(), reason.clone()));
            }
        }
    }

    /// A file with false positives would keep them, so an over-applying step is restricted to the
    /// files where everything it did was right, and kept only for what cleaner steps do not do.
    fn narrow_over_applying(
        &mut self,
        pool: &[(PlannedStep, StepEffect)],
        pr: &Diff,
        base_file: BaseFile<'_>,
    ) {
        // Touched-up recipes go first: the touch-ups expect exactly what each wrote on its own.
        let mut front = 0;
        for (step, effect) in pool.iter().filter(|(_, e)| e.kind == EffectKind::OverApplying) {
            let mut clean_files = effect.clean_files();
            let touch = if step.semantic && !step.after_migration {
                touch_ups::plan(&effect.own_diff, pr, base_file)
            } else {
                touch_ups::TouchUps::default()
            };
            // Worth it when the recipe writes more of the PR's lines there than the touch-ups do.
            let touched_tp = effect.tp_lines.iter().filter(|l| touch.files.contains(&l.path)).count();
            let touched = !touch.files.is_empty() && touch.writes.len() < touched_tp;
            if touched {
                clean_files.extend(touch.files.iter().cloned());
                clean_files.sort();
                clean_files.dedup();
            }
            let in_clean_file = |l: &&ChangeLine| clean_files.contains(&l.path);
            let fresh =
                effect.tp_lines.iter().filter(in_clean_file).any(|l| !self.covered.contains_key(&key(l)));
            if !fresh {
                self.known_bad.push(step.signature());
                let why = if clean_files.is_empty() {
                    "every file it got right also got false positives from it".to_string()
                } else {
                    "its true positives are produced by cleaner recipes".to_string()
                };
                self.option.notes.push(format!(
                    "dropped `{}`: {why} ({} true positives, {} false positives); narrow recipes replace it.",
                    describe(&step.step),
                    effect.tp,
                    effect.fp
                ));
                continue;
            }
            let mut narrowed = step.clone();
            // A precondition keeps the recipe to the files where it matched the PR cleanly.
            narrowed.scope = clean_files.iter().map(|f| crate::openrewrite::text::glob_escape(f)).collect();
            narrowed.reason = if touched {
                format!(
                    "{} Restricted to the files where it matched the PR, after touch-ups of how it wrote some lines.",
                    step.reason
                )
            } else {
                format!(
                    "{} Restricted to the files where it matched the PR without false positives.",
                    step.reason
                )
            };
            self.option.notes.push(format!(
                "restricted `{}` to {} (false positives elsewhere).",
                describe(&step.step),
                clean_files.join(", ")
            ));
            if self.selected.iter().any(|s| s.signature() == narrowed.signature()) {
                continue;
            }
            let kept: Vec<ChangeLine> = effect.tp_lines.iter().filter(in_clean_file).cloned().collect();
            self.cover(&kept, step.semantic);
            if !touched {
                self.selected.push(narrowed);
                continue;
            }
            self.selected.insert(front, narrowed);
            front += 1;
            self.option.notes.push(format!(
                "touched up `{}` in {}: {} literal replacements turn what it wrote into the PR's text ({} lines).",
                describe(&step.step),
                touch.files.iter().cloned().collect::<Vec<_>>().join(", "),
                touch.steps.len(),
                touch.writes.len()
            ));
            self.cover(&touch.writes, false);
            let reason = format!(
                "Touch-up after `{}`: it makes the PR's change but writes it differently here; a literal replacement of what it wrote.",
                crate::openrewrite::simple_name(&step.step.name)
            );
            for fix in touch.steps {
                add(&mut self.selected, PlannedStep::new(fix, false, step.intents.clone(), reason.clone()));
            }
        }
    }

    /// Steps that work on the previous step's result follow it: right after it, with its scope,
    /// when it was kept; dropped with it otherwise.
    fn follow_chains(&mut self, pool: &[(PlannedStep, StepEffect)]) {
        for (index, (step, _)) in pool.iter().enumerate().filter(|(_, (s, _))| s.after_previous) {
            let Some((previous, _)) = pool[..index].iter().rev().find(|(p, _)| p.intents == step.intents)
            else {
                continue;
            };
            let Some(at) = self.selected.iter().position(|s| s.step.signature() == previous.step.signature())
            else {
                self.option.notes.push(format!(
                    "dropped `{}` with `{}`, whose result it works on.",
                    describe(&step.step),
                    describe(&previous.step)
                ));
                continue;
            };
            let mut follower = step.clone();
            follower.scope = self.selected[at].scope.clone();
            if self.selected.iter().any(|s| s.signature() == follower.signature()) {
                continue;
            }
            self.option.notes.push(format!(
                "kept `{}` after `{}`: it works on that step's result.",
                describe(&step.step),
                describe(&previous.step)
            ));
            self.selected.insert(at + 1, follower);
        }
    }

    fn note_dropped(&mut self, pool: &[(PlannedStep, StepEffect)]) {
        for (step, effect) in pool {
            match effect.kind {
                EffectKind::OnlyFalsePositives => self.option.notes.push(format!(
                    "dropped `{}`: it only produced {} false positives.",
                    describe(&step.step),
                    effect.fp
                )),
                EffectKind::NoEffect => {
                    self.option.notes.push(format!("dropped `{}`: it changed nothing.", describe(&step.step)))
                }
                _ => {}
            }
        }
    }

    /// The PR's changed lines the selected steps do not produce (counted: a line the PR changes
    /// twice needs two).
    fn open_lines(&mut self, pr: &Diff) -> Vec<ChangeLine> {
        let mut open: Vec<ChangeLine> = Vec::new();
        for change in pr.changes() {
            let k: LineKey = (change.path.to_string(), change.kind, change.content.to_string());
            match self.covered.get_mut(&k) {
                Some(n) if *n > 0 => *n -= 1,
                _ => open.push(ChangeLine {
                    path: change.path.to_string(),
                    kind: change.kind,
                    line: change.line,
                    content: change.content.to_string(),
                }),
            }
        }
        if !open.is_empty() {
            self.option.notes.push(format!("{} changed lines of the PR were still missing.", open.len()));
        }
        open
    }

    /// Narrow semantic recipes for the intents behind the open lines; what none reproduces is
    /// returned as text work, per intent id ("" for lines no intent explains).
    fn add_narrow_recipes(
        &mut self,
        tree: &IntentTree,
        catalog: &Catalog,
        open: &[ChangeLine],
    ) -> BTreeMap<String, Vec<ChangeLine>> {
        let mut text_lines: BTreeMap<String, Vec<ChangeLine>> = BTreeMap::new();
        let semantic_ids: Vec<&String> =
            self.selected.iter().filter(|s| s.semantic).flat_map(|s| s.intents.iter()).collect();
        let atomics = tree.atomics();
        let semantic_evidence: Vec<&ChangeLine> = atomics
            .iter()
            .filter(|i| semantic_ids.contains(&&i.id))
            .flat_map(|i| i.evidence.iter())
            .collect();
        // Linear in the lines, not in open lines times evidence: a PR's text file of thousands of
        // lines is one intent with thousands of lines of evidence.
        let open_keys: HashSet<KeyRef<'_>> = open.iter().map(key_ref).collect();
        for intent in tree.atomics() {
            let evidence: HashSet<KeyRef<'_>> =
                intent.evidence.iter().map(key_ref).filter(|k| open_keys.contains(k)).collect();
            if evidence.is_empty() {
                continue;
            }
            let mine: Vec<ChangeLine> =
                open.iter().filter(|l| evidence.contains(&key_ref(l))).cloned().collect();
            if mine.is_empty() {
                continue;
            }
            if mapping::beside_semantic_lines(intent, &semantic_evidence) {
                self.option.notes.push(format!(
                    "left `{}` ({}) to the semantic recipes changing the lines next to it.",
                    intent.title, intent.id
                ));
                continue;
            }
            let semantic: Option<Vec<RecipeStep>> = mapping::narrow::semantic_steps(intent).filter(|steps| {
                steps.iter().all(|s| {
                    mapping::check_step(catalog, s).is_ok()
                        && !self.known_bad.contains(&s.signature())
                        && !self.selected.iter().any(|p| p.signature() == s.signature())
                })
            });
            let Some(steps) = semantic else {
                text_lines.entry(intent.id.clone()).or_default().extend(mine);
                continue;
            };
            for (index, step) in steps.into_iter().enumerate() {
                self.option.notes.push(format!(
                    "added `{}` for intent {} ({}).",
                    describe(&step),
                    intent.id,
                    intent.title
                ));
                let reason = mapping::narrow::reason(intent, &step);
                let before = self.selected.len();
                mapping::add_step(&mut self.selected, step, true, &intent.id, reason);
                if self.selected.len() > before {
                    self.selected[before].after_previous = index > 0;
                    self.selected[before].scope = mapping::narrow::scope(intent);
                }
            }
        }
        let claimed: HashSet<KeyRef<'_>> = text_lines.values().flatten().map(key_ref).collect();
        let atomics = tree.atomics();
        let explained: HashSet<KeyRef<'_>> =
            atomics.iter().flat_map(|i| i.evidence.iter()).map(key_ref).collect();
        let orphans: Vec<ChangeLine> = open
            .iter()
            .filter(|l| !claimed.contains(&key_ref(l)) && !explained.contains(&key_ref(l)))
            .cloned()
            .collect();
        if !orphans.is_empty() {
            text_lines.entry(String::new()).or_default().extend(orphans);
        }
        text_lines
    }

    /// The option: semantic steps first (those found on the migrated trees after the others), then
    /// text replacements (a file they touch becomes plain text for later recipes).
    fn finish(
        mut self,
        pr: &Diff,
        base_file: BaseFile<'_>,
        text_lines: BTreeMap<String, Vec<ChangeLine>>,
    ) -> CandidateOption {
        let mut text_steps: Vec<PlannedStep> = Vec::new();
        // The PR's lines (its own numbering) the semantic steps write: a block holding one is not
        // replaced as text.
        let written: Vec<ChangeLine> = pr
            .changes()
            .filter(|c| self.written_by_semantic_steps(&(c.path.to_string(), c.kind, c.content.to_string())))
            .map(|c| ChangeLine {
                path: c.path.to_string(),
                kind: c.kind,
                line: c.line,
                content: c.content.to_string(),
            })
            .collect();
        for (intent, lines) in text_lines {
            for step in mapping::text_for_avoiding(&lines, &written, pr, base_file, &mut self.option.notes) {
                let reason =
                    "The semantic recipes left these PR lines unchanged: a literal replacement of exactly them."
                        .to_string();
                mapping::add_step(&mut text_steps, step, false, &intent, reason);
            }
        }
        let (semantic, text): (Vec<PlannedStep>, Vec<PlannedStep>) =
            self.selected.into_iter().partition(|s| s.semantic);
        // Recipes that apply to migrated code run once the migration is made.
        let (migration, follow_ups): (Vec<PlannedStep>, Vec<PlannedStep>) =
            semantic.into_iter().partition(|s| !s.after_migration);
        let mut option = self.option;
        option.steps = migration.into_iter().chain(follow_ups).collect();
        for step in text.into_iter().chain(text_steps) {
            let intent = step.intents.first().cloned().unwrap_or_default();
            mapping::add_step(&mut option.steps, step.step, false, &intent, step.reason);
        }
        option
    }
}

/// Adds `step` unless an identical one is there; true when added.
fn add(selected: &mut Vec<PlannedStep>, step: PlannedStep) -> bool {
    if selected.iter().any(|s| s.signature() == step.signature()) {
        return false;
    }
    selected.push(step);
    true
}

fn describe(step: &RecipeStep) -> String {
    let short = crate::openrewrite::simple_name(&step.name);
    let options: Vec<String> = step
        .options
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "find" | "replace"))
        .map(|(k, v)| format!("{k}={}", v.as_text()))
        .collect();
    if options.is_empty() { short.to_string() } else { format!("{short} {}", options.join(", ")) }
}

#[cfg(test)]
mod tests;
