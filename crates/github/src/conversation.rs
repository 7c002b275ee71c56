//! What the bot does, as a transition table: (state, event) → (next state, effects). Plain data,
//! so the whole conversation can be read at a glance and every path is unit-tested. The driver
//! ([`super::action`]) performs the effects in order; the one that does work (checking permission,
//! analyzing, opening a PR) reports the next event. No effect decides what happens after it.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub(crate) enum State {
    /// Nothing happened yet.
    Idle,
    /// `run` received: whether the author may run it is being checked.
    RunRequested,
    /// `apply` received: whether the author may run it is being checked.
    ApplyRequested,
    /// A pull_request / workflow_dispatch run is analyzing.
    Analyzing,
    /// A slash `run` is analyzing.
    Running,
    /// A slash `apply` is analyzing first.
    Applying,
    /// A slash `apply` is proposing the recipe (a commit on the PR's branch, or a PR adding it).
    Proposing,
    /// Finished: the work was done.
    Done,
    /// Finished: the user was answered with something to fix (unknown command, bad input).
    Answered,
    /// Finished: the author may not run commands (or we could not verify that they may).
    Refused,
    /// Finished: an internal error; the job fails.
    Failed,
    /// Finished: the event was not for us.
    Ignored,
}

impl State {
    pub(crate) fn is_final(self) -> bool {
        matches!(self, State::Done | State::Answered | State::Refused | State::Failed | State::Ignored)
    }
}

/// Which command a comment holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub(crate) enum CommandKind {
    Run,
    Apply,
    Help,
    Unknown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub(crate) enum Event {
    /// A pull request was opened or updated.
    PullRequestChanged,
    /// A manual run for a pull request URL.
    Dispatched,
    /// A comment with a command.
    Command(CommandKind),
    /// A comment without a command, by a bot, or not on a pull request.
    NotForUs,
    PermissionGranted,
    PermissionDenied,
    /// The permission lookup failed: nobody knows, so nothing runs.
    PermissionUnknown,
    /// The analysis finished on a migration (whatever its verdict).
    Analyzed,
    /// The analysis finished on an ordinary PR: no migration to turn into a recipe.
    AnalyzedOrdinary,
    /// The recipe was proposed: committed to the PR's branch, or in a PR of its own.
    RecipeProposed,
    /// The work stopped on something the user can fix (a markdown message for them).
    UserError,
    /// The work stopped on our side.
    InternalError,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub(crate) enum Reaction {
    /// 👀 — seen, working on it.
    Eyes,
    /// 🚀 — done.
    Rocket,
    /// 😕 — could not do it.
    Confused,
}

impl Reaction {
    /// The `content` of the reactions API.
    pub(crate) fn content(self) -> &'static str {
        match self {
            Reaction::Eyes => "eyes",
            Reaction::Rocket => "rocket",
            Reaction::Confused => "confused",
        }
    }
}

/// A reply in the PR thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub(crate) enum Reply {
    Help,
    /// The command was not understood: say so, then the help.
    UnknownCommand,
    /// Running needs write access.
    NeedsWrite,
    /// The permission lookup failed.
    CouldNotVerify,
    /// The user-facing error of the last step.
    UserError,
    /// Something broke on our side: a generic message and a link to the run's log.
    InternalError,
    /// Where the recipe went: the commit on the PR's branch, or the PR that adds it.
    RecipeProposed,
    /// No migration in this PR, and why: nothing to make a recipe of.
    NoMigration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub(crate) enum Effect {
    React(Reaction),
    Reply(Reply),
    /// Reports PermissionGranted / PermissionDenied / PermissionUnknown.
    CheckPermission,
    /// Runs the pipeline on the PR; reports Analyzed / UserError / InternalError.
    Analyze,
    /// Job summary and step outputs of the analysis.
    WriteSummary,
    /// Creates or updates the one results comment of a migration (as `mode` and `comment` say).
    UpsertResults,
    /// The results comment of an ordinary PR: only with `comment: always`.
    UpsertOrdinary,
    /// The results comment says the analysis could not run, and why.
    UpsertFailure,
    /// Proposes the reusable recipe when the action's mode is `pr` and the verdict is ready to roll out.
    AutoProposeRecipe,
    /// Proposes the recipe asked for (default the reusable one); reports RecipeProposed / errors.
    ProposeRecipe,
}

use self::Reply as Say;
use Effect::*;
use Event::*;
use State::*;

const EYES: Effect = React(Reaction::Eyes);
const ROCKET: Effect = React(Reaction::Rocket);
const CONFUSED: Effect = React(Reaction::Confused);

/// The conversation. A pair missing from the table is a bug in the driver (it fails the job).
#[rustfmt::skip]
pub(crate) const TRANSITIONS: &[(State, Event, State, &[Effect])] = &[
    (Idle,           PullRequestChanged,             Analyzing,      &[Analyze]),
    (Idle,           Dispatched,                     Analyzing,      &[Analyze]),
    (Idle,           NotForUs,                       Ignored,        &[]),
    (Idle,           Command(CommandKind::Help),     Done,           &[EYES, Reply(Say::Help), ROCKET]),
    (Idle,           Command(CommandKind::Unknown),  Answered,       &[EYES, Reply(Say::UnknownCommand), CONFUSED]),
    (Idle,           Command(CommandKind::Run),      RunRequested,   &[EYES, CheckPermission]),
    (Idle,           Command(CommandKind::Apply),    ApplyRequested, &[EYES, CheckPermission]),
    // Only writers get work done; a failed lookup is not a silent deny but its own answer.
    (RunRequested,   PermissionGranted,              Running,        &[Analyze]),
    (ApplyRequested, PermissionGranted,              Applying,       &[Analyze]),
    (RunRequested,   PermissionDenied,               Refused,        &[Reply(Say::NeedsWrite), CONFUSED]),
    (ApplyRequested, PermissionDenied,               Refused,        &[Reply(Say::NeedsWrite), CONFUSED]),
    (RunRequested,   PermissionUnknown,              Refused,        &[Reply(Say::CouldNotVerify), CONFUSED]),
    (ApplyRequested, PermissionUnknown,              Refused,        &[Reply(Say::CouldNotVerify), CONFUSED]),
    // Automatic runs talk through the results comment only; an ordinary PR gets a line in the job
    // summary and, by default, nothing on the PR.
    (Analyzing,      Analyzed,                       Done,           &[WriteSummary, UpsertResults, AutoProposeRecipe]),
    (Analyzing,      AnalyzedOrdinary,               Done,           &[WriteSummary, UpsertOrdinary]),
    (Analyzing,      UserError,                      Answered,       &[WriteSummary, UpsertFailure]),
    (Analyzing,      InternalError,                  Failed,         &[WriteSummary, UpsertFailure]),
    // Slash commands also answer in the thread and close with a reaction.
    (Running,        Analyzed,                       Done,           &[WriteSummary, UpsertResults, ROCKET]),
    (Running,        AnalyzedOrdinary,               Done,           &[WriteSummary, UpsertOrdinary, Reply(Say::NoMigration), ROCKET]),
    (Running,        UserError,                      Answered,       &[WriteSummary, Reply(Say::UserError), CONFUSED]),
    (Running,        InternalError,                  Failed,         &[WriteSummary, Reply(Say::InternalError), CONFUSED]),
    (Applying,       Analyzed,                       Proposing,      &[WriteSummary, UpsertResults, ProposeRecipe]),
    (Applying,       AnalyzedOrdinary,               Answered,       &[WriteSummary, UpsertOrdinary, Reply(Say::NoMigration), CONFUSED]),
    (Applying,       UserError,                      Answered,       &[WriteSummary, Reply(Say::UserError), CONFUSED]),
    (Applying,       InternalError,                  Failed,         &[WriteSummary, Reply(Say::InternalError), CONFUSED]),
    (Proposing,      RecipeProposed,                 Done,           &[Reply(Say::RecipeProposed), ROCKET]),
    (Proposing,      UserError,                      Answered,       &[Reply(Say::UserError), CONFUSED]),
    (Proposing,      InternalError,                  Failed,         &[Reply(Say::InternalError), CONFUSED]),
];

/// The next state and the effects to perform; None when the table has no such pair.
pub(crate) fn next(state: State, event: Event) -> Option<(State, &'static [Effect])> {
    TRANSITIONS
        .iter()
        .find(|(s, e, _, _)| *s == state && *e == event)
        .map(|(_, _, to, effects)| (*to, *effects))
}

/// Which events an effect may report (the tests walk the table with it).
#[cfg(test)]
pub(crate) fn reports(effect: Effect) -> &'static [Event] {
    match effect {
        CheckPermission => &[PermissionGranted, PermissionDenied, PermissionUnknown],
        Analyze => &[Analyzed, AnalyzedOrdinary, UserError, InternalError],
        ProposeRecipe => &[RecipeProposed, UserError, InternalError],
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every path through the table from `start`: the effects in order and the final state.
    fn paths(start: Event) -> Vec<(Vec<Effect>, State)> {
        fn walk(state: State, event: Event, done: Vec<Effect>, out: &mut Vec<(Vec<Effect>, State)>) {
            let (to, effects) =
                next(state, event).unwrap_or_else(|| panic!("no transition for {state:?} {event:?}"));
            let mut done = done;
            done.extend_from_slice(effects);
            let reporter = effects.iter().copied().find(|e| !reports(*e).is_empty());
            match reporter {
                None => {
                    assert!(to.is_final(), "{to:?} waits for an event nothing reports");
                    out.push((done, to));
                }
                Some(effect) => {
                    assert!(!to.is_final(), "{to:?} is final but {effect:?} reports an event");
                    for event in reports(effect) {
                        walk(to, *event, done.clone(), out);
                    }
                }
            }
        }
        let mut out = Vec::new();
        walk(Idle, start, Vec::new(), &mut out);
        out
    }

    fn commands() -> [Event; 4] {
        [CommandKind::Run, CommandKind::Apply, CommandKind::Help, CommandKind::Unknown].map(Command)
    }

    #[test]
    fn every_path_ends_in_a_final_state() {
        for start in [PullRequestChanged, Dispatched, NotForUs].into_iter().chain(commands()) {
            assert!(!paths(start).is_empty());
        }
    }

    #[test]
    fn every_command_is_seen_first_and_closed_with_rocket_or_confused() {
        for start in commands() {
            for (effects, end) in paths(start) {
                assert_eq!(effects.first(), Some(&React(Reaction::Eyes)), "{start:?}: {effects:?}");
                let last = effects.last().copied();
                let expected = if end == Done { React(Reaction::Rocket) } else { React(Reaction::Confused) };
                assert_eq!(last, Some(expected), "{start:?} → {end:?}: {effects:?}");
            }
        }
    }

    #[test]
    fn nothing_runs_unless_permission_was_granted() {
        for start in [Command(CommandKind::Run), Command(CommandKind::Apply)] {
            for event in [PermissionDenied, PermissionUnknown] {
                let (state, first) = next(Idle, start).unwrap();
                assert_eq!(first, &[React(Reaction::Eyes), CheckPermission]);
                let (end, effects) = next(state, event).unwrap();
                assert_eq!(end, Refused);
                assert!(!effects.contains(&Analyze) && !effects.contains(&ProposeRecipe), "{effects:?}");
            }
        }
        assert_eq!(next(RunRequested, PermissionDenied).unwrap().1[0], Reply(Say::NeedsWrite));
        assert_eq!(next(RunRequested, PermissionUnknown).unwrap().1[0], Reply(Say::CouldNotVerify));
        // Help and unknown commands need no permission and run nothing.
        for kind in [CommandKind::Help, CommandKind::Unknown] {
            for (effects, _) in paths(Command(kind)) {
                assert!(!effects.contains(&CheckPermission) && !effects.contains(&Analyze), "{effects:?}");
            }
        }
    }

    #[test]
    fn the_happy_paths() {
        let run = paths(Command(CommandKind::Run));
        assert!(run.contains(&(
            vec![
                React(Reaction::Eyes),
                CheckPermission,
                Analyze,
                WriteSummary,
                UpsertResults,
                React(Reaction::Rocket)
            ],
            Done
        )));
        let apply = paths(Command(CommandKind::Apply));
        assert!(apply.contains(&(
            vec![
                React(Reaction::Eyes),
                CheckPermission,
                Analyze,
                WriteSummary,
                UpsertResults,
                ProposeRecipe,
                Reply(Say::RecipeProposed),
                React(Reaction::Rocket)
            ],
            Done
        )));
        assert_eq!(
            paths(PullRequestChanged),
            vec![
                (vec![Analyze, WriteSummary, UpsertResults, AutoProposeRecipe], Done),
                (vec![Analyze, WriteSummary, UpsertOrdinary], Done),
                (vec![Analyze, WriteSummary, UpsertFailure], Answered),
                (vec![Analyze, WriteSummary, UpsertFailure], Failed),
            ]
        );
        assert_eq!(paths(NotForUs), vec![(vec![], Ignored)]);
    }

    #[test]
    fn an_ordinary_pr_gets_no_recipe_proposed_and_commands_on_it_are_answered() {
        for start in [PullRequestChanged, Dispatched].into_iter().chain(commands()) {
            for (effects, _) in paths(start) {
                let ordinary = effects.contains(&UpsertOrdinary);
                assert!(
                    !(ordinary && (effects.contains(&AutoProposeRecipe) || effects.contains(&ProposeRecipe))),
                    "{start:?}: {effects:?}"
                );
            }
        }
        let (end, effects) = next(Running, AnalyzedOrdinary).unwrap();
        assert_eq!((end, effects[2]), (Done, Reply(Say::NoMigration)));
        let (end, effects) = next(Applying, AnalyzedOrdinary).unwrap();
        assert_eq!((end, effects[2]), (Answered, Reply(Say::NoMigration)));
    }

    #[test]
    fn no_pair_appears_twice_and_unknown_pairs_are_none() {
        for (i, (s, e, _, _)) in TRANSITIONS.iter().enumerate() {
            assert!(!TRANSITIONS[i + 1..].iter().any(|(t, f, _, _)| t == s && f == e), "{s:?} {e:?} twice");
        }
        assert_eq!(next(Done, Analyzed), None);
        assert_eq!(next(Idle, PermissionGranted), None);
    }
}
