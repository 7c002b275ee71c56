use super::*;
use crate::openrewrite::RecipeStep;

fn option(steps: &[&str]) -> CandidateOption {
    let mut option = CandidateOption::new(crate::model::OptionId::Reusable, "Migrate");
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
        residual_after: Some(0),
        unresolved_added: 0,
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

fn measured(pr: usize, mf1: f64, left: usize, broken: usize) -> Cell {
    Cell {
        pr,
        f1: mf1,
        recall: mf1,
        migration_precision: Some(1.0),
        migration_f1: mf1,
        residual_after: Some(left),
        unresolved_added: broken,
        error: None,
    }
}

#[test]
fn the_candidate_that_finishes_the_migration_on_every_pr_wins_over_a_closer_copy() {
    // The PRs' own narrow steps reproduce the authors' lines best and leave old uses; the
    // umbrella, precise enough, leaves none on either base.
    let narrow = score("pr-1", 2, vec![measured(1, 1.0, 3, 0), measured(2, 0.95, 2, 0)]);
    let umbrella = score("pr-2", 1, vec![measured(1, 0.9, 0, 0), measured(2, 0.85, 0, 0)]);
    assert_eq!(choose(&[narrow.clone(), umbrella.clone()]).unwrap().name, "pr-2");
    // One that finishes the job but breaks a symbol loses to one that breaks none.
    let breaking = score("union", 3, vec![measured(1, 1.0, 0, 1), measured(2, 1.0, 0, 0)]);
    assert_eq!(choose(&[breaking, umbrella.clone()]).unwrap().name, "pr-2");
    // Not precise enough: under the verdict's F1 when another reaches it.
    let sloppy = score("union", 5, vec![measured(1, 0.5, 0, 0), measured(2, 0.5, 0, 0)]);
    assert_eq!(choose(&[narrow.clone(), sloppy.clone()]).unwrap().name, "pr-1");
    // A candidate not measured on one PR counts as leaving the most.
    let mut unmeasured = umbrella;
    unmeasured.residual_after = None;
    assert_eq!(choose(&[unmeasured, narrow]).unwrap().name, "pr-1");
}
