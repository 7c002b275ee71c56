//! Phase 4b, discovery: which catalog recipes explain the PR, found by running them. A pool of
//! candidates ([`pool`]) runs on the embedded runner's trees, each recipe on its own ([`run`]);
//! each one's diff is compared line by line with the PR's (true and false positives per recipe);
//! composites that over-apply are split into their sub-recipes, which run too. A weighted set cover
//! ([`cover`]) then chooses the recipes that explain the most lines without false positives, and
//! refinement builds option 3 on them: narrow parameterized recipes and plain text only fill what
//! no discovered recipe explains.
//!
//! Discovery needs the embedded runner (one parse for hundreds of recipe runs); with the plugin
//! backend it is skipped and option 3 is synthesized from options 1 and 2 alone.

pub(crate) mod authors_way;
pub(crate) mod cover;
pub(crate) mod follow_up;
pub(crate) mod pool;
mod report;
pub(crate) mod run;

pub use report::{DISCOVERY_JSON, DISCOVERY_MD, POOL_YAML, render_markdown};

use serde::Serialize;

use crate::model::ChangeLine;
use crate::model::intent::IntentTree;
use crate::model::{Intent, PlannedStep};
use crate::openrewrite::RecipeStep;
use crate::refinement::{EffectKind, StepEffect};

/// Recipes in the first round's pool, at most.
pub(crate) const MAX_POOL: usize = 150;
/// Seconds discovery may take (bounded further by a third of the run's time left). A safety net:
/// the pool's size is bounded by counts, so on a healthy machine discovery ends well before; when
/// it does not, what is cut is the least promising (the pool is ranked) and the report says so.
pub(crate) const DEFAULT_SECONDS: u64 = 120;
/// Sub-recipe runs of split composites, at most (a property migration has hundreds of members,
/// each a fraction of a millisecond on a small file).
pub(crate) const MAX_SPLIT_RUNS: usize = 1000;

/// One recipe the runner ran on its own, and what it did to the PR's lines.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Tried {
    /// The recipe and the options it ran with (a composite's sub-recipe keeps the composite's).
    pub step: RecipeStep,
    /// Why it is in the pool: the search that found it, the hit it is a relative of, or the
    /// composite it was split from.
    pub why: String,
    /// 1 for the pool; 2 and 3 for sub-recipes of composites that over-applied.
    pub round: usize,
    /// It ran on the trees the migration recipes found first made ([`follow_up`]), not on the
    /// base commit's: its lines are what it changes of the migrated code.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_migration: bool,
    /// Sub-recipes per the catalog (0 for a single recipe).
    pub members: usize,
    /// The run's wall time in the runner, in seconds.
    pub seconds: f64,
    /// Why it did not run (bad options, an exception), if it did not.
    pub error: Option<String>,
    /// Changed lines that the PR changes too (true positives).
    pub tp_lines: Vec<ChangeLine>,
    /// Changed lines that the PR does not change (false positives, whatever their class).
    pub fp_lines: Vec<ChangeLine>,
    /// Its false positives by class (layout, variant, completion, wrong), when the PR's files
    /// were known.
    pub classes: Option<crate::metrics::classes::Classes>,
    /// Its diff, kept for a single recipe that was right and wrong (refinement may keep it with
    /// touch-ups of its formatting); empty otherwise.
    #[serde(skip)]
    pub diff: String,
}

impl Tried {
    /// A single run of the pool's first round on the base commit, for tests: `name` with
    /// `members` sub-recipes, these right and wrong lines, and nothing else.
    #[cfg(test)]
    pub(crate) fn for_test(
        name: &str,
        members: usize,
        tp_lines: Vec<ChangeLine>,
        fp_lines: Vec<ChangeLine>,
    ) -> Tried {
        Tried {
            step: RecipeStep::new(name),
            why: String::new(),
            round: 1,
            on_migration: false,
            members,
            seconds: 0.0,
            error: None,
            tp_lines,
            fp_lines,
            classes: None,
            diff: String::new(),
        }
    }

    pub(crate) fn tp(&self) -> usize {
        self.tp_lines.len()
    }

    pub(crate) fn fp(&self) -> usize {
        self.fp_lines.len()
    }

    /// The false positives that count against it: the wrong ones ([`crate::metrics::classes`];
    /// layout, variants and completions do not count).
    pub(crate) fn counted_fp(&self) -> Vec<&ChangeLine> {
        crate::metrics::counted(self.tp(), &self.fp_lines, self.classes.as_ref())
    }

    /// Ran, was right somewhere and wrong nowhere (layout, variants and completions aside).
    pub(crate) fn clean(&self) -> bool {
        self.error.is_none() && self.tp() > 0 && self.counted_fp().is_empty()
    }

    pub(crate) fn over_applying(&self) -> bool {
        self.error.is_none() && self.tp() > 0 && !self.counted_fp().is_empty()
    }
}

/// A recipe the cover chose: an index into [`Discovery::tried`], and the PR lines only it added.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Chosen {
    /// The index of the recipe in [`Discovery::tried`].
    pub tried: usize,
    /// PR line occurrences it added that the recipes chosen before it did not.
    pub fresh: usize,
}

/// What discovery ran and chose.
#[derive(Debug, Clone, PartialEq, Default, Serialize, schemars::JsonSchema)]
pub struct Discovery {
    /// Recipes in the first round's pool.
    pub pool: usize,
    /// Recipe runs in all rounds; sub-recipes that changed nothing are counted here only.
    pub runs: usize,
    /// Recipes of the pool (and sub-recipes) that did not start: discovery's time was up.
    pub not_run: usize,
    /// Wall time of the whole discovery phase, in seconds.
    pub seconds: f64,
    /// Every recipe run kept, in the order they ran (sub-recipes that changed nothing are left
    /// out).
    pub tried: Vec<Tried>,
    /// The recipes the set cover chose, in the order it chose them.
    pub chosen: Vec<Chosen>,
    /// Why discovery ended early (a time limit, the runner stopped), if it did.
    pub stopped: Option<String>,
}

impl Discovery {
    /// The evidence refinement builds option 3 on: the chosen recipes (clean) and the single
    /// recipes that were right in some files and wrong in others (refinement may restrict them to
    /// the files where they were right). Every effect is exact: each recipe ran on its own.
    pub(crate) fn evidence(&self, tree: &IntentTree) -> Vec<(PlannedStep, StepEffect)> {
        let chosen = self.chosen.iter().map(|c| &self.tried[c.tried]);
        let over = self.tried.iter().filter(|t| t.over_applying() && t.members == 0);
        chosen
            .chain(over)
            .map(|t| {
                let intents = intents_of(tree, &t.tp_lines);
                let counted = t.counted_fp().len();
                let reason = format!(
                    "Discovery ran it on its own{}: {} true positives, {counted} false positives{} ({}).",
                    if t.on_migration { " after the migration's recipes" } else { "" },
                    t.tp(),
                    not_counted(t),
                    t.why
                );
                let mut planned = PlannedStep::new(t.step.clone(), true, intents, reason);
                planned.after_migration = t.on_migration;
                (planned, effect(t))
            })
            .collect()
    }
}

/// What of a recipe's false positives did not count against it, for its reason.
pub(crate) fn not_counted(t: &Tried) -> String {
    match &t.classes {
        Some(c) if c.layout.len() + c.variant.len() + c.completion.len() > 0 => format!(
            " and {} that do not count ({} layout, {} variant, {} completion)",
            c.layout.len() + c.variant.len() + c.completion.len(),
            c.layout.len(),
            c.variant.len(),
            c.completion.len()
        ),
        Some(_) => String::new(),
        None => match t.fp() - t.counted_fp().len() {
            0 => String::new(),
            n => format!(" and {n} blank lines of layout"),
        },
    }
}

fn effect(t: &Tried) -> StepEffect {
    let counted = t.counted_fp();
    let mut fp_per_file = std::collections::BTreeMap::new();
    for line in &counted {
        *fp_per_file.entry(line.path.clone()).or_insert(0) += 1;
    }
    let tp_files: std::collections::BTreeSet<String> = t.tp_lines.iter().map(|l| l.path.clone()).collect();
    let files = tp_files.iter().cloned().chain(fp_per_file.keys().cloned()).collect();
    let elsewhere = crate::refinement::effects::not_counted_elsewhere(&t.fp_lines, &fp_per_file, &tp_files);
    StepEffect {
        kind: if counted.is_empty() { EffectKind::Clean } else { EffectKind::OverApplying },
        files,
        tp_files,
        tp: t.tp(),
        fp: counted.len(),
        layout_fp: t.fp() - counted.len(),
        tp_lines: t.tp_lines.clone(),
        elsewhere,
        fp_per_file,
        own_diff: t.diff.clone(),
    }
}

/// The atomic intents whose evidence includes one of `lines`.
fn intents_of(tree: &IntentTree, lines: &[ChangeLine]) -> Vec<String> {
    let same =
        |a: &ChangeLine, b: &ChangeLine| a.path == b.path && a.kind == b.kind && a.content == b.content;
    tree.atomics()
        .into_iter()
        .filter(|i: &&Intent| i.evidence.iter().any(|e| lines.iter().any(|l| same(e, l))))
        .map(|i| i.id.clone())
        .collect()
}
