//! Which phase runs next: a transition table, plain data, so the routing is reproducible,
//! reviewable at a glance and unit-tested. No phase decides what runs after it.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Resolve the repository and commits, write `pr.diff`.
    Setup,
    /// Extract the intent tree.
    Intents,
    /// Option 1: broad catalog recipes for the strategic and tactical intents.
    ComposeWide,
    /// Option 2: one targeted recipe per atomic intent.
    ComposeNarrow,
    /// Run options 1 and 2 (in parallel), retrying without recipes that fail to run.
    ValidateCandidates,
    /// Run a pool of catalog recipes one by one and choose those that explain the PR.
    Discover,
    /// Synthesize option 3 from what validation showed.
    Refine,
    /// Run option 3.
    ValidateRefined,
    /// Learn Refaster templates from the PR's repeated edits that option 3 makes as text, and
    /// run option 3 with them.
    Learn,
    /// Pick the best option and its confidence.
    Decide,
    /// Generalize the recommended recipe for other repositories and run it here.
    Generalize,
    /// With `--backend auto`: run the recommended option once with the project's build tool.
    Confirm,
    /// Write `result/`.
    Publish,
    Done,
    Failed,
}

impl Phase {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Intents => "intents",
            Phase::ComposeWide => "compose_wide",
            Phase::ComposeNarrow => "compose_narrow",
            Phase::ValidateCandidates => "validate_candidates",
            Phase::Discover => "discover",
            Phase::Refine => "refine",
            Phase::ValidateRefined => "validate_refined",
            Phase::Learn => "learn",
            Phase::Decide => "decide",
            Phase::Generalize => "generalize",
            Phase::Confirm => "confirm",
            Phase::Publish => "publish",
            Phase::Done => "done",
            Phase::Failed => "failed",
        }
    }

    pub(crate) fn is_terminal(self) -> bool {
        matches!(self, Phase::Done | Phase::Failed)
    }
}

/// How a phase ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum PhaseEnd {
    Ok,
    /// Nothing to do (no intents for this option, nothing left to refine).
    Skipped,
    Failed,
    /// Refinement produced a recipe set that was already tried.
    Stuck,
    /// A budget (wall time, executions, rounds) is spent.
    OutOfBudget,
}

impl PhaseEnd {
    pub(crate) fn name(self) -> &'static str {
        match self {
            PhaseEnd::Ok => "ok",
            PhaseEnd::Skipped => "skipped",
            PhaseEnd::Failed => "failed",
            PhaseEnd::Stuck => "stuck",
            PhaseEnd::OutOfBudget => "out_of_budget",
        }
    }
}

use Phase::*;
use PhaseEnd::*;

/// (phase, outcome) → next phase. A pair missing from the table ends the run as failed.
pub(crate) const TRANSITIONS: &[(Phase, PhaseEnd, Phase)] = &[
    (Setup, Ok, Intents),
    (Setup, PhaseEnd::Failed, Phase::Failed),
    // Past the wall limit (the driver checks it before every phase) the run stops: with no
    // intent tree there is nothing to decide; from the options on, the decision takes what there is.
    (Setup, OutOfBudget, Phase::Failed),
    (Intents, Ok, ComposeWide),
    (Intents, PhaseEnd::Failed, Phase::Failed),
    (Intents, OutOfBudget, Phase::Failed),
    // Options are independent: one that cannot be composed does not stop the other.
    (ComposeWide, Ok, ComposeNarrow),
    (ComposeWide, Skipped, ComposeNarrow),
    (ComposeWide, PhaseEnd::Failed, ComposeNarrow),
    (ComposeWide, OutOfBudget, Decide),
    (ComposeNarrow, Ok, ValidateCandidates),
    (ComposeNarrow, Skipped, ValidateCandidates),
    (ComposeNarrow, PhaseEnd::Failed, ValidateCandidates),
    (ComposeNarrow, OutOfBudget, Decide),
    // Even when no candidate ran, discovery and refinement may still explain the open changes.
    (ValidateCandidates, Ok, Discover),
    (ValidateCandidates, PhaseEnd::Failed, Discover),
    (ValidateCandidates, OutOfBudget, Decide),
    // Discovery only adds evidence: refinement runs whatever became of it.
    (Discover, Ok, Refine),
    (Discover, Skipped, Refine),
    (Discover, PhaseEnd::Failed, Refine),
    (Discover, OutOfBudget, Refine),
    (Refine, Ok, ValidateRefined),
    // Refinement has done what it can: what option 3 still writes as text may be learned.
    (Refine, Skipped, Learn),
    (Refine, Stuck, Learn),
    (Refine, OutOfBudget, Decide),
    (ValidateRefined, Ok, Refine),
    (ValidateRefined, PhaseEnd::Failed, Refine),
    (ValidateRefined, OutOfBudget, Decide),
    // Learning only adds a challenger for option 3: whatever became of it, the decision follows.
    (Learn, Ok, Decide),
    (Learn, Skipped, Decide),
    (Learn, PhaseEnd::Failed, Decide),
    (Learn, OutOfBudget, Decide),
    (Decide, Ok, Generalize),
    // The reusable recipe is a second result: whatever became of it, the recommendation stands.
    (Generalize, Ok, Confirm),
    (Generalize, Skipped, Confirm),
    (Generalize, PhaseEnd::Failed, Confirm),
    (Generalize, OutOfBudget, Confirm),
    (Decide, PhaseEnd::Failed, Publish),
    // A confirmation that could not run still publishes the embedded result (and says why).
    (Confirm, Ok, Publish),
    (Confirm, Skipped, Publish),
    (Confirm, PhaseEnd::Failed, Publish),
    (Confirm, OutOfBudget, Publish),
    (Publish, Ok, Done),
    (Publish, PhaseEnd::Failed, Phase::Failed),
];

pub(crate) fn next(from: Phase, outcome: PhaseEnd) -> Phase {
    TRANSITIONS
        .iter()
        .find(|(f, o, _)| *f == from && *o == outcome)
        .map(|(_, _, to)| *to)
        .unwrap_or(Phase::Failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_PHASES: &[Phase] = &[
        Setup,
        Intents,
        ComposeWide,
        ComposeNarrow,
        ValidateCandidates,
        Discover,
        Refine,
        ValidateRefined,
        Learn,
        Decide,
        Generalize,
        Confirm,
        Publish,
    ];

    #[test]
    fn the_happy_path_runs_every_phase_once_then_refines_until_stuck() {
        let mut phase = Setup;
        let mut seen = vec![phase];
        let mut refinements = 0;
        while !phase.is_terminal() {
            let outcome = if phase == Refine {
                refinements += 1;
                if refinements > 2 { Stuck } else { Ok }
            } else {
                Ok
            };
            phase = next(phase, outcome);
            seen.push(phase);
        }
        assert_eq!(
            seen,
            vec![
                Setup,
                Intents,
                ComposeWide,
                ComposeNarrow,
                ValidateCandidates,
                Discover,
                Refine,
                ValidateRefined,
                Refine,
                ValidateRefined,
                Refine,
                Learn,
                Decide,
                Generalize,
                Confirm,
                Publish,
                Done
            ]
        );
    }

    #[test]
    fn failures_before_composition_end_the_run_later_ones_do_not() {
        assert_eq!(next(Setup, PhaseEnd::Failed), Phase::Failed);
        assert_eq!(next(Intents, PhaseEnd::Failed), Phase::Failed);
        assert_eq!(next(ComposeWide, PhaseEnd::Failed), ComposeNarrow);
        assert_eq!(next(ComposeNarrow, Skipped), ValidateCandidates);
        assert_eq!(next(ValidateCandidates, PhaseEnd::Failed), Discover);
        assert_eq!(next(Discover, PhaseEnd::Failed), Refine);
        assert_eq!(next(ValidateRefined, PhaseEnd::Failed), Refine);
        assert_eq!(next(Decide, PhaseEnd::Failed), Publish);
    }

    #[test]
    fn budgets_and_stuck_detection_go_straight_to_the_decision() {
        assert_eq!(next(ValidateCandidates, OutOfBudget), Decide);
        assert_eq!(next(Refine, OutOfBudget), Decide);
        assert_eq!(next(ValidateRefined, OutOfBudget), Decide);
        assert_eq!(next(Learn, OutOfBudget), Decide);
    }

    #[test]
    fn when_refinement_is_done_learning_runs_once_then_the_decision() {
        assert_eq!(next(Refine, Stuck), Learn);
        assert_eq!(next(Refine, Skipped), Learn);
        for outcome in [Ok, Skipped, PhaseEnd::Failed, OutOfBudget] {
            assert_eq!(next(Learn, outcome), Decide);
        }
    }

    #[test]
    fn past_the_wall_every_phase_leads_to_the_result_or_ends_the_run() {
        // The driver makes every phase but decide and publish `out_of_budget` past the wall.
        for phase in ALL_PHASES.iter().filter(|p| !matches!(p, Decide | Publish)) {
            let mut at = *phase;
            let mut steps = 0;
            while !at.is_terminal() && !matches!(at, Decide | Publish) {
                at = next(at, OutOfBudget);
                steps += 1;
                assert!(steps < ALL_PHASES.len(), "{phase:?} loops past the wall");
            }
            let expected = match phase {
                Setup | Intents => Phase::Failed,
                Generalize | Confirm => Publish,
                _ => Decide,
            };
            assert_eq!(at, expected, "{phase:?}");
        }
    }

    #[test]
    fn every_non_terminal_phase_has_a_way_out_and_unknown_pairs_fail() {
        for phase in ALL_PHASES {
            assert!(TRANSITIONS.iter().any(|(f, _, _)| f == phase), "{phase:?} has no transition");
        }
        assert_eq!(next(Setup, Stuck), Phase::Failed);
        // No pair appears twice.
        for (i, (f, o, _)) in TRANSITIONS.iter().enumerate() {
            assert!(!TRANSITIONS[i + 1..].iter().any(|(g, p, _)| g == f && p == o), "{f:?} {o:?} twice");
        }
    }
}
