//! The rules that take a recipe's false positives out of the wrong ones, as a table: each rule
//! has a name (recorded on every line it takes, in `stats.json`), what it matches and the class it
//! gives. They run in the table's order, each on the lines the rules before it left, so where two
//! rules would match the same line the earlier one decides. Adding a rule is adding a row (and its
//! function, in the module of its class).

use super::index::Index;
use super::{PrView, ResultTypes, completion, layout, variant};
use crate::model::ChangeLine;
use crate::model::classes::{Classes, Classified};

/// The class a rule gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// The same code laid out differently.
    Layout,
    /// The PR's lines written another way.
    Variant,
    /// The PR's change made where the author had not.
    Completion,
}

/// One rule of the table.
pub struct Rule {
    /// Its name in `stats.json` (`rule` of each classified line).
    pub name: &'static str,
    /// What it matches, in a sentence.
    pub matches: &'static str,
    /// The class it gives the lines it matches.
    pub class: Class,
    /// Moves the lines it matches out of [`Work::pending`], in order.
    pub(super) take: fn(&mut Work<'_>) -> Vec<ChangeLine>,
}

/// What the rules read and use up.
pub(crate) struct Work<'a> {
    /// The recipe's false positives no rule has taken yet.
    pub(crate) pending: Vec<ChangeLine>,
    /// The PR's lines the recipe missed; a rule that matches a recipe line to one of them uses it
    /// up (None), so that one PR line explains one recipe line.
    pub(crate) misses: Vec<Option<ChangeLine>>,
    pub(crate) run: &'a Index<'a>,
    pub(crate) pr_index: &'a Index<'a>,
    pub(crate) pr: &'a PrView,
    /// The types each changed Java file of the recipe's result uses (embedded runner).
    pub(crate) types: Option<&'a ResultTypes>,
    pub(crate) true_positives: &'a [ChangeLine],
}

/// The rules, in the order they run.
pub const RULES: &[Rule] = &[
    Rule {
        name: "blank_line",
        matches: "a blank line placed elsewhere (an import group separator, the gap between two members)",
        class: Class::Layout,
        take: layout::blank_line,
    },
    Rule {
        name: "same_code",
        matches: "a line the PR wrote, with other whitespace or a qualified name for an imported type",
        class: Class::Layout,
        take: layout::same_code,
    },
    Rule {
        name: "import_for_a_qualified_name",
        matches: "an import the recipe adds (or removes) where the PR names the type fully qualified (or the recipe does)",
        class: Class::Layout,
        take: layout::import_for_a_qualified_name,
    },
    Rule {
        name: "import_in_the_other_style",
        matches: "an import of a member where the PR imports its owner on demand (`.*`), or the reverse",
        class: Class::Layout,
        take: layout::import_in_the_other_style,
    },
    Rule {
        name: "wrapped_otherwise",
        matches: "consecutive lines of a hunk that join to the same code as a run of the PR's lines",
        class: Class::Layout,
        take: layout::wrapped_otherwise,
    },
    Rule {
        name: "relaid_in_a_changed_file",
        matches: "a line the PR left alone in a file it changed, removed and added again with other whitespace in one hunk",
        class: Class::Layout,
        take: layout::relaid_in_a_changed_file,
    },
    Rule {
        name: "newer_version",
        matches: "a version line the PR also wrote for the same artifact, with a newer version",
        class: Class::Variant,
        take: variant::newer_version,
    },
    Rule {
        name: "same_lines_replaced",
        matches: "a line added where the recipe replaces exactly the base lines the PR replaces (hunk or block), with no version of its own, not keeping the old library",
        class: Class::Variant,
        take: variant::same_lines_replaced,
    },
    Rule {
        name: "same_change_elsewhere",
        matches: "a change with the shape of one the recipe got right, or a line it got right, where the PR did not make it",
        class: Class::Completion,
        take: completion::same_change_elsewhere,
    },
];

/// Runs `rules` in order on `work`; what none of them takes is wrong.
pub(super) fn apply(rules: &[Rule], mut work: Work<'_>) -> Classes {
    let mut classes = Classes::default();
    for rule in rules {
        let taken = (rule.take)(&mut work);
        let class = match rule.class {
            Class::Layout => &mut classes.layout,
            Class::Variant => &mut classes.variant,
            Class::Completion => &mut classes.completion,
        };
        class.extend(taken.into_iter().map(|line| Classified { line, rule: rule.name.to_string() }));
    }
    classes.wrong = work.pending;
    classes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_names_are_unique_and_say_what_they_match() {
        let mut names: Vec<&str> = RULES.iter().map(|r| r.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), RULES.len(), "two rules share a name");
        assert!(RULES.iter().all(|r| !r.matches.is_empty()));
        assert!(
            RULES.iter().all(|r| r.name.chars().all(|c| c.is_ascii_lowercase() || c == '_')),
            "names are snake_case"
        );
    }
}
