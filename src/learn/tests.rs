use super::*;
use crate::openrewrite::RecipeStep;

fn option(steps: &[&str]) -> CandidateOption {
    let mut option = CandidateOption::new(crate::model::OptionId::Reusable, Strategy::Reusable, "Migrate");
    option.steps =
        steps.iter().map(|s| PlannedStep::new(RecipeStep::new(*s), true, vec![], "why.")).collect();
    option
}

#[test]
fn specs_are_path_at_base_dot_dot_head() {
    let spec = PrSpec::parse("/repos/a@b/c@main..migration").unwrap();
    assert_eq!(
        (spec.repo.to_str().unwrap(), spec.base.as_str(), spec.head.as_str()),
        ("/repos/a@b/c", "main", "migration")
    );
    for bad in ["/repos/a", "/repos/a@main", "@a..b", "/r@..b", "/r@a.."] {
        let error = PrSpec::parse(bad).unwrap_err();
        assert_eq!(crate::error::exit_code_of(&error), crate::error::exit::BAD_INPUT, "{bad}");
    }
}

#[test]
fn the_candidates_are_each_prs_recipe_and_their_union() {
    let all = candidates(&[Some(option(&["a.A", "a.B"])), None, Some(option(&["a.B", "a.C"]))]);
    let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["pr-1", "pr-3", "union"]);
    let union: Vec<String> = all[2].1.steps.iter().map(|s| s.step.name.clone()).collect();
    assert_eq!(union, ["a.A", "a.B", "a.C"]);
    // A union no different from one PR's recipe is not a candidate of its own.
    assert_eq!(candidates(&[Some(option(&["a.A", "a.B"])), Some(option(&["a.B"]))]).len(), 2);
}

#[test]
fn the_best_mean_migration_f1_wins_then_f1_then_fewer_steps() {
    let cell = |pr, f1, mf1| Cell {
        pr,
        f1,
        recall: f1,
        migration_precision: Some(1.0),
        migration_f1: mf1,
        error: None,
    };
    let a = score("pr-1", 2, vec![cell(1, 1.0, 1.0), cell(2, 0.0, 0.0)]);
    let b = score("pr-2", 2, vec![cell(1, 0.0, 0.0), cell(2, 1.0, 1.0)]);
    let union = score("union", 3, vec![cell(1, 0.9, 1.0), cell(2, 0.9, 1.0)]);
    assert_eq!(choose(&[a.clone(), b.clone(), union]).unwrap().name, "union");
    assert_eq!(choose(&[a.clone(), b]).unwrap().name, "pr-1", "a full tie keeps the earlier");
    let bigger = score("pr-2", 5, a.cells.clone());
    assert_eq!(choose(&[bigger, a]).unwrap().name, "pr-1");
}
