//! Phase 3, recipe mapping: two candidate recipes from the intent tree, option 1 (wide: broad
//! catalog recipes) and option 2 (narrow: one targeted recipe per atomic intent). Every step is
//! checked against the catalog (recipe exists, option names known, required options given), because
//! OpenRewrite silently ignores unknown option names.

pub(crate) mod narrow;
pub(crate) mod text;
pub(crate) mod wide;

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::catalog::Catalog;
use crate::diff::{Diff, FileDiff};
use crate::model::intent::{Intent, IntentTree, Level, label};
use crate::model::{CandidateOption, PlannedStep, Strategy};
use crate::openrewrite::RecipeStep;

// The catalog's check of a step, which validation runs too; at home in the catalog, below both.
pub use crate::catalog::options::check_step;

/// Reads a file's content at the base commit (None when it does not exist there).
pub(crate) type BaseFile<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Option 1: for each strategic intent (or, when none fits, each of its tactical intents) the best
/// broad recipe of the catalog.
pub(crate) fn compose_wide(tree: &IntentTree, catalog: &Catalog) -> CandidateOption {
    let mut option = CandidateOption::new(crate::model::OptionId::Wide, purpose(tree));
    for intent in &tree.intents {
        wide_for(intent, catalog, &mut option);
    }
    option
}

fn wide_for(intent: &Intent, catalog: &Catalog, option: &mut CandidateOption) {
    if intent.level() == Level::Atomic {
        return;
    }
    // Formatting edits (whitespace, import order) are local to the PR's lines: a broad formatter
    // would reformat whole files, so they are left to the narrow option.
    let atomics = intent.atomics();
    if !atomics.is_empty()
        && atomics.iter().all(|a| a.labels.iter().any(|l| l == label::WHITESPACE || l == label::IMPORT_ORDER))
    {
        option.notes.push(format!(
            "{} `{}` ({}): formatting only, left to the narrow option",
            level_name(intent.level()),
            intent.title,
            intent.id
        ));
        return;
    }
    match wide::find_recipe(catalog, intent) {
        Ok(recipe) => {
            let step = RecipeStep::new(&recipe.name);
            if let Some(existing) = option.steps.iter_mut().find(|s| s.signature() == step.signature()) {
                existing.intents.push(intent.id.clone());
                return;
            }
            option.steps.push(PlannedStep::new(
                step,
                true,
                vec![intent.id.clone()],
                format!(
                    "`{}` ({}) was the best catalog match for {} intent `{}` ({}).",
                    recipe.name,
                    recipe.display_name,
                    level_name(intent.level()),
                    intent.title,
                    intent.id
                ),
            ));
        }
        Err(why) => {
            option.notes.push(format!(
                "{} `{}` ({}): {why}",
                level_name(intent.level()),
                intent.title,
                intent.id
            ));
            for child in &intent.children {
                wide_for(child, catalog, option);
            }
        }
    }
}

fn level_name(level: Level) -> &'static str {
    match level {
        Level::Strategic => "strategic",
        Level::Tactical => "tactical",
        Level::Atomic => "atomic",
    }
}

/// Option 2: each atomic intent's most specific semantic recipe, checked against the catalog;
/// plain-text replacements (ordered last) for what no semantic recipe covers.
pub(crate) fn compose_narrow(
    tree: &IntentTree,
    pr: &Diff,
    catalog: &Catalog,
    base_file: BaseFile<'_>,
) -> CandidateOption {
    let mut option = CandidateOption::new(crate::model::OptionId::Narrow, purpose(tree));
    let mut text_steps: Vec<PlannedStep> = Vec::new();
    let semantic_evidence: Vec<&crate::model::ChangeLine> = tree
        .atomics()
        .into_iter()
        .filter(|i| narrow::semantic_steps(i).is_some())
        .flat_map(|i| i.evidence.iter())
        .collect();
    for intent in tree.atomics() {
        let semantic = narrow::semantic_steps(intent).and_then(|steps| {
            let problems: Vec<String> =
                steps.iter().filter_map(|s| check_step(catalog, s).err()).map(|p| p.to_string()).collect();
            if problems.is_empty() {
                Some(steps)
            } else {
                option.notes.push(format!(
                    "`{}` ({}): {}; using a text replacement instead.",
                    intent.title,
                    intent.id,
                    problems.join("; ")
                ));
                None
            }
        });
        match semantic {
            Some(steps) => {
                for (index, step) in steps.into_iter().enumerate() {
                    let reason = narrow::reason(intent, &step);
                    let before = option.steps.len();
                    add_step(&mut option.steps, step, true, &intent.id, reason);
                    // A change mapped to a chain: the later steps work on the first one's result.
                    if option.steps.len() > before {
                        option.steps[before].after_previous = index > 0;
                        option.steps[before].scope = narrow::scope(intent);
                    }
                }
            }
            None if beside_semantic_lines(intent, &semantic_evidence) => option.notes.push(format!(
                "`{}` ({}): left to the semantic recipes changing the lines next to it (a text \
                 replacement of the block would repeat their lines).",
                intent.title, intent.id
            )),
            None => {
                for step in text_for(&intent.evidence, pr, base_file, &mut option.notes) {
                    let reason = format!(
                        "No semantic recipe covers {} `{}` ({}): a literal replacement of exactly the PR's lines.",
                        intent.kind(),
                        intent.title,
                        intent.id
                    );
                    add_step(&mut text_steps, step, false, &intent.id, reason);
                }
            }
        }
    }
    for step in text_steps {
        add_step(
            &mut option.steps,
            step.step,
            false,
            step.intents.first().map(String::as_str).unwrap_or(""),
            step.reason,
        );
    }
    if !tree.unexplained.is_empty() {
        for step in text_for(&tree.unexplained, pr, base_file, &mut option.notes) {
            add_step(
                &mut option.steps,
                step,
                false,
                "",
                "Lines no intent explains, reproduced literally.".into(),
            );
        }
    }
    option
}

/// A whitespace-only change right next to lines a semantic recipe changes (a newline added at the
/// end of the file before an appended property): the recipe makes it as it writes its own lines.
pub(crate) fn beside_semantic_lines(intent: &Intent, semantic: &[&crate::model::ChangeLine]) -> bool {
    matches!(intent.change(), Some(crate::model::Change::Whitespace {}))
        && !intent.evidence.is_empty()
        && intent
            .evidence
            .iter()
            .all(|l| semantic.iter().any(|s| s.path == l.path && s.line.abs_diff(l.line) <= 1))
}

/// The PR's purpose for recipe display names: its top-level intents' titles.
pub(crate) fn purpose(tree: &IntentTree) -> String {
    let titles: Vec<&str> = tree.intents.iter().map(|i| i.title.as_str()).take(4).collect();
    titles.join("; ")
}

/// Adds a step, or records one more intent on an identical step already there.
pub(crate) fn add_step(
    steps: &mut Vec<PlannedStep>,
    step: RecipeStep,
    semantic: bool,
    intent: &str,
    reason: String,
) {
    if let Some(existing) = steps.iter_mut().find(|s| s.signature() == step.signature()) {
        if !intent.is_empty() && !existing.intents.iter().any(|i| i == intent) {
            existing.intents.push(intent.to_string());
        }
        return;
    }
    let intents = if intent.is_empty() { Vec::new() } else { vec![intent.to_string()] };
    steps.push(PlannedStep::new(step, semantic, intents, reason));
}

/// Text replacements for the PR's change blocks that contain any of `lines`.
pub(crate) fn text_for(
    lines: &[crate::model::ChangeLine],
    pr: &Diff,
    base_file: BaseFile<'_>,
    notes: &mut Vec<String>,
) -> Vec<RecipeStep> {
    text_for_avoiding(lines, &[], pr, base_file, notes)
}

/// [`text_for`], except for blocks holding any of `avoid` (PR lines other recipes write already:
/// replacing the block would write them again); those lines are named in `notes`.
pub(crate) fn text_for_avoiding(
    lines: &[crate::model::ChangeLine],
    avoid: &[crate::model::ChangeLine],
    pr: &Diff,
    base_file: BaseFile<'_>,
    notes: &mut Vec<String>,
) -> Vec<RecipeStep> {
    let mut by_file: BTreeMap<&str, Vec<&crate::model::ChangeLine>> = BTreeMap::new();
    for line in lines {
        by_file.entry(line.path.as_str()).or_default().push(line);
    }
    let mut steps = Vec::new();
    for (path, lines) in by_file {
        let Some(file) = file_of(pr, path) else { continue };
        if let Some(reason) = file.unreproducible() {
            notes.push(format!("`{path}` is {}; no recipe can make its change.", reason.describe()));
            continue;
        }
        if file.is_new() {
            match text::create_file(file) {
                Some(step) if writes_undecodable_bytes(&step) => notes.push(format!(
                    "`{path}` is new in the PR with {}; no literal recipe can write it.",
                    crate::diff::Unreproducible::NotUtf8.describe()
                )),
                Some(step) => steps.push(step),
                None => {
                    notes.push(format!("`{path}` is new in the PR but its contents are not all in the diff."))
                }
            }
            continue;
        }
        if file.is_deleted() {
            steps.push(text::delete_file(path));
            continue;
        }
        let Some(base) = base_file(file.old_path.as_deref().unwrap_or(path)) else {
            notes.push(format!("`{path}` could not be read at the base commit: no literal replacement."));
            continue;
        };
        for (block, new_start) in text::blocks(file) {
            let wanted = lines.iter().any(|l| {
                let removed = l.kind == crate::diff::ChangeKind::Removed;
                block.contains(removed, l.line, new_start)
            });
            if !wanted {
                continue;
            }
            let held = |l: &&crate::model::ChangeLine| {
                l.path == path
                    && block.contains(l.kind == crate::diff::ChangeKind::Removed, l.line, new_start)
            };
            if let Some(line) = avoid.iter().find(held) {
                notes.push(format!(
                    "`{path}` line {}: no literal replacement, the block holds `{}`, which a semantic recipe writes; its other lines stay missing.",
                    block.old_start,
                    line.content.trim()
                ));
                continue;
            }
            match text::find_and_replace(&block, &base) {
                Some(step) if writes_undecodable_bytes(&step) => notes.push(not_utf8_note(path, &block)),
                Some(step) => steps.push(step),
                None => notes.push(format!(
                    "`{path}` line {}: the text to replace is not unique in the file, no literal replacement is possible.",
                    block.old_start
                )),
            }
        }
    }
    steps
}

/// Whether a literal step holds U+FFFD, the character the diff's undecodable bytes became: it
/// could never find the file's real bytes, nor write them.
fn writes_undecodable_bytes(step: &RecipeStep) -> bool {
    step.options.values().any(|value| crate::diff::not_utf8(&value.as_text()))
}

fn not_utf8_note(path: &str, block: &text::Block) -> String {
    format!(
        "`{path}` line {}: {}; no literal replacement.",
        block.old_start,
        crate::diff::Unreproducible::NotUtf8.describe()
    )
}

fn file_of<'a>(pr: &'a Diff, path: &str) -> Option<&'a FileDiff> {
    pr.files.iter().find(|f| f.new_path.as_deref() == Some(path) || f.old_path.as_deref() == Some(path))
}

/// `option-N-creation-analysis.md`: why each recipe is in the option.
pub(crate) fn creation_analysis(option: &CandidateOption) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Option {}: {} recipe\n", option.number, option.strategy.label());
    let _ = writeln!(out, "{}\n", strategy_text(option.strategy));
    if option.steps.is_empty() {
        let _ = writeln!(out, "No recipe could be composed for this option.");
    } else {
        let _ = writeln!(
            out,
            "{} recipe{}, {} semantic, {} plain-text.\n",
            option.steps.len(),
            crate::model::plural(option.steps.len()),
            option.semantic_steps(),
            option.steps.len() - option.semantic_steps()
        );
        for (i, step) in option.steps.iter().enumerate() {
            let kind = if step.semantic { "" } else { " *(plain text, non-semantic)*" };
            let _ = writeln!(out, "{}. `{}`{kind} — {}", i + 1, step.step.name, step.reason);
        }
    }
    if !option.notes.is_empty() {
        let _ = writeln!(out, "\n## Notes\n");
        for note in &option.notes {
            let _ = writeln!(out, "- {note}");
        }
    }
    out
}

fn strategy_text(strategy: Strategy) -> &'static str {
    match strategy {
        Strategy::Wide => {
            "Broad catalog recipes for the PR's strategic and tactical intents, found by searching the recipe catalog with several phrasings of each intent (reciprocal rank fusion). They may change more than the PR did."
        }
        Strategy::Narrow => {
            "One targeted recipe per atomic intent, with the exact options the PR's diff shows. Plain-text replacements only where no semantic recipe covers a change; they run last."
        }
        Strategy::Synthesized => {
            "Built from what validation showed: recipes with true positives kept, recipes that only produced false positives dropped, over-applying ones replaced or narrowed, and narrow recipes added for the changes still missing."
        }
        Strategy::Reusable => {
            "The recommended recipe generalized for other repositories: its semantic recipes only, none restricted to this repository's files, without options that pin it to this PR's starting point."
        }
    }
}

#[cfg(test)]
mod tests;
