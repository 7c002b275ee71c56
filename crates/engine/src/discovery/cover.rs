//! Choosing by evidence: a greedy weighted set cover over the recipes that ran. Each round takes
//! the clean recipe (true positives, no false positive) that adds the most PR lines not covered
//! yet; on a tie a composite wins over a single recipe (the composite names the migration), and
//! of two composites the smaller (the tightest fit: an umbrella that explains the same lines does
//! more on the next repository than this PR shows), then the earlier one. Recipes with false
//! positives are never chosen here: a composite that over-applies was split into its sub-recipes,
//! which compete like any other recipe.

use std::collections::HashMap;

use super::{Chosen, Tried};
use crate::diff::ChangeKind;
use crate::model::ChangeLine;

/// A changed line by what it is: path, kind and content.
pub(super) type LineKey<'a> = (&'a str, ChangeKind, &'a str);

pub(super) fn key(line: &ChangeLine) -> LineKey<'_> {
    (&line.path, line.kind, &line.content)
}

/// The chosen recipes, in the order they were chosen.
pub(crate) fn choose(tried: &[Tried]) -> Vec<Chosen> {
    choose_covering(tried).0
}

/// How many occurrences of each PR line the recipes [`choose`] chooses make.
pub(super) fn covered(tried: &[Tried]) -> HashMap<LineKey<'_>, usize> {
    choose_covering(tried).1
}

/// The chosen recipes, and the PR line occurrences they make.
fn choose_covering(tried: &[Tried]) -> (Vec<Chosen>, HashMap<LineKey<'_>, usize>) {
    // How many occurrences of each PR line the chosen recipes produce. Recipes run on the same
    // trees, so two recipes producing one line produce the same occurrence: the maximum counts.
    let mut covered: HashMap<LineKey<'_>, usize> = HashMap::new();
    let mut chosen: Vec<Chosen> = Vec::new();
    loop {
        let best = tried
            .iter()
            .enumerate()
            .filter(|(i, t)| t.clean() && !chosen.iter().any(|c| c.tried == *i))
            .map(|(i, t)| (i, fresh(t, &covered), t.members))
            .filter(|(_, fresh, _)| *fresh > 0)
            .max_by(|a, b| {
                a.1.cmp(&b.1).then((a.2 > 0).cmp(&(b.2 > 0))).then(b.2.cmp(&a.2)).then(b.0.cmp(&a.0))
            });
        let Some((index, fresh, _)) = best else { break };
        for (k, n) in counts(&tried[index].tp_lines) {
            let entry = covered.entry(k).or_default();
            *entry = (*entry).max(n);
        }
        chosen.push(Chosen { tried: index, fresh });
    }
    (chosen, covered)
}

fn counts(lines: &[ChangeLine]) -> HashMap<LineKey<'_>, usize> {
    let mut out: HashMap<LineKey<'_>, usize> = HashMap::new();
    for line in lines {
        *out.entry(key(line)).or_default() += 1;
    }
    out
}

/// PR line occurrences `t` produces that the chosen recipes do not.
fn fresh(t: &Tried, covered: &HashMap<LineKey<'_>, usize>) -> usize {
    counts(&t.tp_lines)
        .into_iter()
        .map(|(k, n)| n.saturating_sub(covered.get(&k).copied().unwrap_or(0)))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(path: &str, content: &str) -> ChangeLine {
        ChangeLine { path: path.into(), kind: ChangeKind::Added, line: 1, content: content.into() }
    }

    fn tried(name: &str, members: usize, tp: &[(&str, &str)], fp: usize) -> Tried {
        let tp = tp.iter().map(|(p, c)| line(p, c)).collect();
        Tried::for_test(name, members, tp, (0..fp).map(|i| line("X.java", &format!("wrong {i}"))).collect())
    }

    fn names(tried: &[Tried], chosen: &[Chosen]) -> Vec<String> {
        chosen.iter().map(|c| tried[c.tried].step.name.clone()).collect()
    }

    #[test]
    fn one_composite_that_explains_the_same_lines_beats_its_parts() {
        let all = vec![
            tried("a.Part1", 0, &[("A.java", "x")], 0),
            tried("a.Part2", 0, &[("B.java", "y")], 0),
            tried("a.Whole", 2, &[("A.java", "x"), ("B.java", "y")], 0),
        ];
        let chosen = choose(&all);
        assert_eq!(names(&all, &chosen), vec!["a.Whole"]);
        assert_eq!(chosen[0].fresh, 2);
    }

    #[test]
    fn on_a_tie_the_composite_wins_and_recipes_with_false_positives_never_do() {
        let all = vec![
            tried("a.Small", 0, &[("A.java", "x")], 0),
            tried("a.Migration", 5, &[("A.java", "x")], 0),
            tried("a.Greedy", 9, &[("A.java", "x"), ("B.java", "y"), ("C.java", "z")], 1),
        ];
        assert_eq!(names(&all, &choose(&all)), vec!["a.Migration"]);
    }

    #[test]
    fn of_two_composites_that_explain_the_same_lines_the_smaller_wins() {
        let all = vec![
            tried("a.Platform", 40, &[("A.java", "x")], 0),
            tried("a.Persistence", 3, &[("A.java", "x")], 0),
            tried("a.ChangePackage", 0, &[("A.java", "x")], 0),
        ];
        assert_eq!(names(&all, &choose(&all)), vec!["a.Persistence"]);
    }

    #[test]
    fn recipes_that_add_nothing_new_are_left_out_and_the_rest_is_covered_greedily() {
        let all = vec![
            tried("a.One", 0, &[("A.java", "x"), ("A.java", "y")], 0),
            tried("a.Two", 0, &[("A.java", "y"), ("B.java", "z"), ("B.java", "w")], 0),
            tried("a.Three", 0, &[("A.java", "x")], 0),
        ];
        let chosen = choose(&all);
        assert_eq!(names(&all, &chosen), vec!["a.Two", "a.One"]);
        assert_eq!(chosen.iter().map(|c| c.fresh).collect::<Vec<_>>(), vec![3, 1]);
    }

    #[test]
    fn a_line_the_pr_changes_twice_needs_both_occurrences() {
        let all = vec![
            tried("a.Once", 0, &[("A.java", "x")], 0),
            tried("a.Twice", 0, &[("A.java", "x"), ("A.java", "x")], 0),
        ];
        assert_eq!(names(&all, &choose(&all)), vec!["a.Twice"]);
    }
}
