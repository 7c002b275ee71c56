//! The run's budget ledger: what the phases have spent of `--max-executions`, `--max-rounds` and the
//! wall time, and the recipe sets already validated (stuck detection). Passed to the phases that
//! spend it; validation threads share it, hence the atomic counter.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::Budgets;

/// Why a phase did not run, or stopped: the outcome `out_of_budget` says which budget.
pub(crate) const WALL_SPENT: &str = "the run's wall-time budget (--max-wall) is spent";

pub(crate) struct Budget {
    limits: Budgets,
    started: Instant,
    executions: AtomicUsize,
    /// Refinement rounds run so far.
    pub rounds: usize,
    /// Signatures of every recipe set validated so far.
    pub tried: Vec<Vec<String>>,
}

impl Budget {
    pub(crate) fn new(limits: Budgets, started: Instant) -> Self {
        Budget { limits, started, executions: AtomicUsize::new(0), rounds: 0, tried: Vec::new() }
    }

    /// Takes one execution from the budget; false when none is left.
    pub(crate) fn take_execution(&self) -> bool {
        self.executions.fetch_add(1, Ordering::SeqCst) < self.limits.max_executions
    }

    /// Executions taken, at most the budget (a refused one is not spent).
    pub(crate) fn executions_used(&self) -> usize {
        self.executions.load(Ordering::SeqCst).min(self.limits.max_executions)
    }

    /// Whether one more execution fits the budgets (without taking it).
    pub(crate) fn can_run_again(&self) -> bool {
        self.time_left().is_some() && self.executions.load(Ordering::SeqCst) < self.limits.max_executions
    }

    /// Whether the run is past `--max-wall`: the driver starts no phase then but the decision
    /// and publication of what the run found ([`super::driver`]).
    pub(crate) fn wall_spent(&self) -> bool {
        self.started.elapsed() >= self.limits.max_wall
    }

    /// Wall time left, or None when the run's budget is spent.
    pub(crate) fn time_left(&self) -> Option<Duration> {
        let left = self.limits.max_wall.checked_sub(self.started.elapsed())?;
        (left > Duration::from_secs(5)).then_some(left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn executions_are_counted_until_the_budget_is_spent() {
        let limits = Budgets { max_executions: 2, ..Budgets::default() };
        let budget = Budget::new(limits, Instant::now());
        assert!(budget.can_run_again());
        assert!(budget.take_execution());
        assert!(budget.take_execution());
        assert!(!budget.can_run_again());
        assert!(!budget.take_execution(), "the third is refused");
        assert_eq!(budget.executions_used(), 2);
        let spent = Budget::new(Budgets { max_wall: Duration::from_secs(3), ..limits }, Instant::now());
        assert_eq!(spent.time_left(), None, "less than 5 s left counts as spent");
        assert!(!spent.wall_spent(), "but the run is not past its limit yet");
        let past = Instant::now().checked_sub(Duration::from_secs(4)).unwrap();
        assert!(Budget::new(Budgets { max_wall: Duration::from_secs(3), ..limits }, past).wall_spent());
    }
}
