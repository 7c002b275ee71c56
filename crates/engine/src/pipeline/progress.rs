//! Progress on a terminal: a spinner with the current phase on stderr, nothing when stderr is not a
//! terminal (logs and CI output stay clean).

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use super::state::Phase;

/// Where the pipeline reports what it is doing: a spinner on a terminal, or nothing.
pub trait Progress: Sync {
    /// The pipeline enters `phase`.
    fn phase(&self, phase: Phase);
    /// What the current phase is doing now (e.g. which option it validates).
    fn message(&self, message: &str);
    /// The run is over: clear the display.
    fn finish(&self);
}

/// Reports nothing.
pub struct NoProgress;

impl Progress for NoProgress {
    fn phase(&self, _: Phase) {}
    fn message(&self, _: &str) {}
    fn finish(&self) {}
}

/// A spinner on stderr.
pub struct Spinner {
    bar: ProgressBar,
}

impl Spinner {
    /// A spinner when stderr is a terminal, else None.
    pub fn on_terminal() -> Option<Spinner> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let bar = ProgressBar::new_spinner();
        let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {prefix:.bold} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        bar.set_style(style);
        bar.enable_steady_tick(Duration::from_millis(120));
        Some(Spinner { bar })
    }
}

impl Progress for Spinner {
    fn phase(&self, phase: Phase) {
        self.bar.set_prefix(phase.name());
        self.bar.set_message("");
    }

    fn message(&self, message: &str) {
        self.bar.set_message(message.to_string());
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
