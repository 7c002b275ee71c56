//! Phase 6, decision: the most semantic of the options within [`F1_TOLERANCE`] of the best F1
//! (ties: the higher F1, then fewer recipes, then the lower option number) and the confidence it
//! deserves. Further away, within [`MIGRATION_MARGIN`], a more semantic option still wins when
//! none of its false positives is wrong and some are layout, variants or completions (a migration
//! written another way, not another change, nor one that only misses lines), and the
//! recommendation says so.

pub(crate) mod own_changes;
pub(crate) mod pr_kind;
pub mod verdict;

use std::cmp::Ordering;

use crate::model::{ChangeLine, Confidence, Metrics, OptionResult, PlannedStep, Recommendation};
use crate::openrewrite::recipe_names::{CREATE_TEXT_FILE, DELETE_SOURCE_FILES};
use crate::openrewrite::text::file_pattern_matches;

/// How much F1 a more semantic option may give up: a recipe that describes the migration with
/// OpenRewrite's recipes works on the next repository, one that replays this PR's text does not,
/// and one line in a hundred is worth that. It bounds what the choice costs in F1 per PR.
pub(crate) const F1_TOLERANCE: f64 = 0.01;

/// How much line F1 a more semantic option may give up when none of its false positives is wrong:
/// the lines it writes differently are the same migration ([`crate::metrics::classes`]).
pub(crate) const MIGRATION_MARGIN: f64 = 0.05;

/// Picks the recommendation among the options that ran.
pub(crate) fn choose(results: &[OptionResult]) -> Option<Recommendation> {
    let ran: Vec<&OptionResult> = results.iter().filter(|r| r.ran()).collect();
    let (best, why) = best_of(&ran)?;
    Some(Recommendation {
        option: best.option,
        precision: best.precision,
        recall: best.recall,
        f1: best.f1,
        perfect_match: best.perfect_match,
        semantic_share: best.semantic_share,
        catalog_share: best.catalog_share,
        learned_share: best.learned_share,
        confidence: Confidence::of(best.f1),
        migration_precision: best.migration_precision,
        migration_semantic_share: None,
        why,
    })
}

/// The best of the options that ran, and why when it is not the one of the best F1. On a full
/// tie, the later of `ran`.
fn best_of<'a>(ran: &[&'a OptionResult]) -> Option<(&'a OptionResult, Option<String>)> {
    let top = ran.iter().map(|r| r.f1).fold(f64::NEG_INFINITY, f64::max);
    // Rounded F1s (4 places): compare with a hair of slack so 0.99 vs 1.0 is within 0.01.
    let by_f1 =
        ran.iter().copied().filter(|r| r.f1 >= top - F1_TOLERANCE - 1e-9).max_by(|a, b| rank(a, b))?;
    let migration = ran
        .iter()
        .copied()
        .filter(|r| r.f1 >= top - MIGRATION_MARGIN - 1e-9 && r.migration_precision == Some(1.0))
        // The margin pays for lines written another way; an option that wrote none only missed
        // lines, and missing part of the migration is not a way of writing it.
        .filter(|r| r.false_positive_classes.is_some_and(|c| c.layout + c.variant + c.completion > 0))
        .filter(|r| r.semantic_share > by_f1.semantic_share)
        .max_by(|a, b| rank(a, b));
    let (best, why) = match migration {
        Some(m) => (
            m,
            Some(format!(
                "option {} has a higher F1 ({:.4}), but option {} makes the migration with semantic recipes \
                 (semantic share {:.2} against {:.2}) and none of its false positives is wrong: \
                 they are layout, variants or completions of the migration",
                by_f1.option, by_f1.f1, m.option, m.semantic_share, by_f1.semantic_share
            )),
        ),
        None => (by_f1, None),
    };
    Some((best, why))
}

/// Whether `a` would be recommended over `b` (two versions of one option: on a full tie, `b`).
pub(crate) fn better(a: &OptionResult, b: &OptionResult) -> bool {
    // As one option: only what they did counts. `b` comes last, so a full tie keeps it.
    let challenger = OptionResult { option: b.option, ..a.clone() };
    let ran: Vec<&OptionResult> = [&challenger, b].into_iter().filter(|r| r.ran()).collect();
    best_of(&ran).is_some_and(|(best, _)| std::ptr::eq(best, &challenger))
}

/// Orders options close enough in F1 from worst to best.
fn rank(a: &OptionResult, b: &OptionResult) -> Ordering {
    a.semantic_share
        .total_cmp(&b.semantic_share)
        .then(a.f1.total_cmp(&b.f1))
        .then(b.recipes.cmp(&a.recipes))
        .then(b.option.cmp(&a.option))
}

/// The true positives by who made them, as shares of them all (0 when there are none).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Shares {
    /// Made by semantic recipes, catalog and learned: a true-positive line is plain-text work when a
    /// non-semantic step of the option targets its file, carries its text and, when the run said
    /// which step changed which file (`changed[i]`: the files of step `i`), changed that file (a
    /// text step whose `find` no longer matched after the semantic steps produced nothing).
    pub semantic: f64,
    /// Made by catalog recipes.
    pub catalog: f64,
    /// Made by recipes learned from the PR.
    pub learned: f64,
}

/// [`Shares`] of an option's run. A true positive a learned step wrote in its own run (`own`, the
/// embedded runner's step lines; none: no learned lines) is learned: the learned step runs ahead
/// of the option's text steps, so a text step that carries the same line found its old text gone.
/// The other lines are text or catalog ([`Shares::semantic`]). Lines are matched by file, kind
/// and text (the numbers of added lines move with the other steps' changes).
pub(crate) fn shares(
    steps: &[PlannedStep],
    metrics: &Metrics,
    changed: Option<&[std::collections::BTreeSet<String>]>,
    own: &[crate::model::StepLines],
) -> Shares {
    shares_among(steps, metrics, (changed, own), |_| true)
}

/// [`shares`] over the true positives `counted` keeps: with the side work of a migration PR left
/// out, the shares of the *migration*.
pub(crate) fn shares_among(
    steps: &[PlannedStep],
    metrics: &Metrics,
    (changed, own): (Option<&[std::collections::BTreeSet<String>]>, &[crate::model::StepLines]),
    counted: impl Fn(&ChangeLine) -> bool,
) -> Shares {
    let tp: Vec<&ChangeLine> = metrics.true_positive_lines.iter().filter(|l| counted(l)).collect();
    if tp.is_empty() {
        return Shares::default();
    }
    let learned: std::collections::BTreeSet<(&str, crate::diff::ChangeKind, &str)> = own
        .iter()
        .filter(|lines| steps.get(lines.step).is_some_and(|s| s.learned))
        .flat_map(|lines| &lines.tp_lines)
        .map(|l| (l.path.as_str(), l.kind, l.content.as_str()))
        .collect();
    let is_learned =
        |line: &ChangeLine| learned.contains(&(line.path.as_str(), line.kind, line.content.as_str()));
    let text_steps: Vec<(usize, &PlannedStep)> =
        steps.iter().enumerate().filter(|(_, s)| !s.semantic).collect();
    let ran_on = |index: usize, path: &str| {
        changed.is_none_or(|files| files.get(index).is_some_and(|f| f.contains(path)))
    };
    let by_learned = tp.iter().filter(|line| is_learned(line)).count();
    let by_text = tp
        .iter()
        .filter(|line| !is_learned(line))
        .filter(|line| text_steps.iter().any(|(i, s)| ran_on(*i, &line.path) && text_step_explains(s, line)))
        .count();
    let share = |count: usize| crate::metrics::round4(count as f64 / tp.len() as f64);
    let semantic = share(tp.len() - by_text);
    let learned = share(by_learned);
    Shares { semantic, catalog: crate::metrics::round4((semantic - learned).max(0.0)), learned }
}

/// A plain-text step explains a line when it targets the line's file and its literal text carries
/// the line.
pub(crate) fn text_step_explains(step: &PlannedStep, line: &ChangeLine) -> bool {
    let option = |key: &str| step.step.text(key);
    match step.step.name.as_str() {
        CREATE_TEXT_FILE => {
            return line.kind == crate::diff::ChangeKind::Added
                && option("relativeFileName") == line.path
                && option("fileContents").lines().any(|l| l == line.content);
        }
        DELETE_SOURCE_FILES => {
            return line.kind == crate::diff::ChangeKind::Removed
                && file_pattern_matches(&option("filePattern"), &line.path);
        }
        _ => {}
    }
    let pattern = option("filePattern");
    let in_scope = pattern.is_empty() || file_pattern_matches(&pattern, &line.path);
    let content = line.content.trim();
    in_scope
        && !content.is_empty()
        && (option("find").contains(content) || option("replace").contains(content))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::ChangeKind;
    use crate::model::Strategy;
    use crate::openrewrite::RecipeStep;
    use crate::openrewrite::recipe_names::{CHANGE_PACKAGE, FIND_AND_REPLACE};

    fn result(option: u8, f1: f64, semantic_share: f64, recipes: usize) -> OptionResult {
        OptionResult {
            option: option.try_into().unwrap(),
            strategy: Strategy::Narrow,
            recipe_name: format!("o{option}"),
            recipes,
            precision: f1,
            recall: f1,
            f1,
            perfect_match: f1 == 1.0,
            semantic_share,
            catalog_share: semantic_share,
            learned_share: 0.0,
            wall_seconds: 1.0,
            attempts: 1,
            dropped: vec![],
            tests_dropped: false,
            error: None,
            backend: Some(crate::model::Backend::MavenPlugin),
            migration_precision: None,
            false_positive_classes: None,
            migration_recall: None,
            migration_f1: None,
            residual: None,
            unresolved: None,
        }
    }

    #[test]
    fn best_f1_wins_then_semantic_share_then_fewer_recipes() {
        let r = choose(&[result(1, 0.7, 1.0, 1), result(2, 0.9, 0.5, 5), result(3, 0.9, 0.5, 4)]).unwrap();
        assert_eq!(r.option.number(), 3);
        // Within 0.01 of the best F1, the more semantic option wins; further away, F1 does.
        let r = choose(&[result(2, 0.9814, 0.33, 9), result(3, 0.9875, 0.23, 30)]).unwrap();
        assert_eq!(r.option.number(), 2);
        let r = choose(&[result(2, 0.99, 0.9, 9), result(3, 1.0, 0.1, 30)]).unwrap();
        assert_eq!(r.option.number(), 2, "exactly the tolerance");
        let r = choose(&[result(2, 0.9383, 0.26, 9), result(3, 0.9877, 0.2, 8)]).unwrap();
        assert_eq!(r.option.number(), 3);
        // Among the close ones, equal semantic share: the higher F1.
        let r = choose(&[result(2, 0.995, 1.0, 3), result(3, 1.0, 1.0, 3)]).unwrap();
        assert_eq!(r.option.number(), 3);
        let r = choose(&[result(1, 0.9, 0.5, 1), result(2, 0.9, 1.0, 5)]).unwrap();
        assert_eq!(r.option.number(), 2);
        let r = choose(&[result(1, 0.9, 1.0, 3), result(2, 0.9, 1.0, 3)]).unwrap();
        assert_eq!(r.option.number(), 1, "a full tie keeps the lower option");
    }

    #[test]
    fn a_semantic_option_whose_extra_lines_are_the_migration_wins_within_the_margin() {
        let mut semantic = result(3, 0.96, 1.0, 2);
        let text = result(2, 1.0, 0.1, 40);
        semantic.migration_precision = Some(1.0);
        let written_another_way =
            crate::model::classes::ClassCounts { layout: 1, variant: 2, completion: 0, wrong: 0 };
        // Precise but short of lines, with nothing written another way: it only missed some.
        semantic.false_positive_classes = Some(crate::model::classes::ClassCounts::default());
        assert_eq!(choose(&[text.clone(), semantic.clone()]).unwrap().option.number(), 2);
        semantic.false_positive_classes = Some(written_another_way);
        let r = choose(&[text.clone(), semantic.clone()]).unwrap();
        assert_eq!(r.option.number(), 3);
        assert!(
            r.why.as_deref().is_some_and(|w| w.contains("none of its false positives is wrong")),
            "{r:?}"
        );
        // One wrong line, or further than the margin: F1 decides.
        semantic.migration_precision = Some(0.97);
        assert_eq!(choose(&[text.clone(), semantic.clone()]).unwrap().option.number(), 2);
        semantic.migration_precision = Some(1.0);
        semantic.f1 = 0.94;
        let r = choose(&[text, semantic]).unwrap();
        assert_eq!((r.option.number(), r.why), (2, None));
    }

    #[test]
    fn options_that_did_not_run_are_never_chosen() {
        let mut failed = result(2, 1.0, 1.0, 1);
        failed.error = Some(crate::model::RunError::new(crate::model::ErrorKind::Timeout, "slow"));
        assert_eq!(choose(&[result(1, 0.3, 1.0, 1), failed.clone()]).unwrap().option.number(), 1);
        assert!(choose(&[failed]).is_none());
    }

    #[test]
    fn confidence_thresholds() {
        assert_eq!(Confidence::of(0.8), Confidence::Recommended);
        assert_eq!(Confidence::of(0.79), Confidence::NeedsReview);
        assert_eq!(Confidence::of(0.5), Confidence::NeedsReview);
        assert_eq!(Confidence::of(0.49), Confidence::NoReliableRecipe);
    }

    #[test]
    fn the_learned_share_is_the_lines_a_learned_step_wrote_on_its_own() {
        let line = |path: &str, kind, content: &str| ChangeLine {
            path: path.into(),
            kind,
            line: 7,
            content: content.into(),
        };
        let old = line("src/ATest.java", ChangeKind::Removed, "assertThat(a, is(b));");
        let new = line("src/ATest.java", ChangeKind::Added, "assertThat(a).isEqualTo(b);");
        let import = line("src/ATest.java", ChangeKind::Added, "import jakarta.persistence.Id;");
        let metrics = Metrics {
            true_positive_lines: vec![old.clone(), new.clone(), import.clone()],
            ..Metrics::default()
        };
        let catalog = PlannedStep::new(RecipeStep::new(CHANGE_PACKAGE), true, vec![], "");
        let mut learned = PlannedStep::new(
            RecipeStep::new("rewriteassist.learned.LearnedTemplatesRecipes"),
            true,
            vec![],
            "",
        );
        learned.learned = true;
        // The learned step's own run wrote the assertion (its added line at another number: the
        // other steps move lines), the catalog step the import.
        let own = |step: usize, lines: Vec<ChangeLine>| crate::model::StepLines {
            step,
            tp_lines: lines,
            fp_lines: vec![],
            classes: None,
            diff: String::new(),
        };
        let moved = ChangeLine { line: 9, ..new.clone() };
        let step_lines = [own(0, vec![import.clone()]), own(1, vec![old.clone(), moved])];
        let steps = [catalog.clone(), learned.clone()];
        let split = shares(&steps, &metrics, None, &step_lines);
        assert_eq!((split.semantic, split.catalog, split.learned), (1.0, 0.3333, 0.6667));
        // The same lines from a step that is not learned, or no step lines (the plugin): none.
        assert_eq!(shares(&[catalog.clone(), catalog.clone()], &metrics, None, &step_lines).learned, 0.0);
        assert_eq!(shares(&steps, &metrics, None, &[]).learned, 0.0);
        // A text step that carries a line the learned step wrote in its own run found its old text
        // gone (the learned step runs first): the line is learned, and semantic.
        let text = PlannedStep::new(
            RecipeStep::new(FIND_AND_REPLACE).with("find", "assertThat(a, is(b));").with("replace", "x"),
            false,
            vec![],
            "",
        );
        let steps = [catalog, learned, text];
        let split = shares(&steps, &metrics, None, &step_lines);
        assert_eq!((split.semantic, split.learned), (1.0, 0.6667));
        // Without the learned step's own lines (the plugin), the text step has it.
        assert_eq!(shares(&steps, &metrics, None, &[]).semantic, 0.6667);
    }

    #[test]
    fn semantic_share_counts_lines_a_text_step_carries() {
        let text = PlannedStep::new(
            RecipeStep::new(FIND_AND_REPLACE)
                .with("find", "FROM eclipse-temurin:11-jre")
                .with("replace", "FROM eclipse-temurin:17-jre")
                .with("filePattern", "Dockerfile"),
            false,
            vec![],
            "",
        );
        let semantic = PlannedStep::new(RecipeStep::new(CHANGE_PACKAGE), true, vec![], "");
        let line = |path: &str, kind, content: &str| ChangeLine {
            path: path.into(),
            kind,
            line: 1,
            content: content.into(),
        };
        let metrics = Metrics {
            true_positive_lines: vec![
                line("Dockerfile", ChangeKind::Removed, "FROM eclipse-temurin:11-jre"),
                line("Dockerfile", ChangeKind::Added, "FROM eclipse-temurin:17-jre"),
                line("src/A.java", ChangeKind::Added, "import jakarta.persistence.Id;"),
                line("src/B.java", ChangeKind::Added, "import jakarta.persistence.Id;"),
            ],
            ..Metrics::default()
        };
        let steps = [semantic.clone(), text];
        assert_eq!(shares(&steps, &metrics, None, &[]).semantic, 0.5);
        assert_eq!(shares(&[semantic], &metrics, None, &[]).semantic, 1.0);
        assert_eq!(shares(&[], &Metrics::default(), None, &[]).semantic, 0.0);
        // The run says what each step changed: the text step changed the Dockerfile, so its lines
        // are its own; had it changed nothing (its `find` gone after an earlier step), they are not.
        let files = |paths: &[&str]| paths.iter().map(|p| p.to_string()).collect();
        let changed = [files(&["src/A.java", "src/B.java"]), files(&["Dockerfile"])];
        assert_eq!(shares(&steps, &metrics, Some(&changed), &[]).semantic, 0.5);
        let changed = [files(&["src/A.java", "src/B.java", "Dockerfile"]), files(&[])];
        assert_eq!(shares(&steps, &metrics, Some(&changed), &[]).semantic, 1.0);
        // Over the migration's lines: the Dockerfile as side work leaves only semantic lines; the
        // Java files as side work leave only text ones; nothing kept is 0.
        let not_docker = |l: &ChangeLine| l.path != "Dockerfile";
        assert_eq!(shares_among(&steps, &metrics, (None, &[]), not_docker).semantic, 1.0);
        assert_eq!(shares_among(&steps, &metrics, (None, &[]), |l| !not_docker(l)).semantic, 0.0);
        assert_eq!(shares_among(&steps, &metrics, (None, &[]), |l| l.path == "src/A.java").semantic, 1.0);
        assert_eq!(shares_among(&steps, &metrics, (None, &[]), |_| false).semantic, 0.0);
    }
}
