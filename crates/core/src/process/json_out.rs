//! `--json` prints exactly one object, whatever ends the command: its own object when it gets that
//! far, else the object it promised for a failure. The promise matters most where the command
//! does not get to say anything: an interrupt that finds the run in a long computation ends the
//! process from the signal handler's thread (see [`super::install_interrupt_handler`]), which
//! then prints the promised object on its way out.
//!
//! Printing and keeping the promise hold one lock, so the two can never both print, nor
//! interleave.

use std::io::Write;
use std::sync::Mutex;

/// Why a command ends without its own `--json` object.
pub enum Failure<'a> {
    /// Ctrl-C or SIGTERM.
    Interrupted,
    /// The command returned this error.
    Error(&'a anyhow::Error),
}

impl Failure<'_> {
    /// One line saying why.
    pub fn reason(&self) -> String {
        match self {
            Failure::Interrupted => "interrupted".into(),
            Failure::Error(error) => crate::error::one_line(error),
        }
    }
}

/// Builds the object a failed command prints.
pub(crate) type Promise = Box<dyn Fn(&Failure<'_>) -> serde_json::Value + Send>;

struct Stdout {
    promise: Option<Promise>,
    printed: bool,
}

static STDOUT: Mutex<Stdout> = Mutex::new(Stdout { promise: None, printed: false });

fn stdout() -> std::sync::MutexGuard<'static, Stdout> {
    // A panic while printing leaves nothing half-done that matters here.
    STDOUT.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// From now on, a failure prints `promise`'s object (replacing an earlier promise).
pub fn promise(promise: Promise) {
    stdout().promise = Some(promise);
}

/// Prints the command's own object, once: a promise kept by then has spoken already.
pub fn print(value: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut state = stdout();
    if state.printed {
        return Ok(());
    }
    write(value)?;
    state.printed = true;
    Ok(())
}

/// Prints the promised object for `failure`, unless an object was printed or none was promised.
/// Waits at most a second for a command that is printing right now (stdout a full pipe nobody
/// reads): an interrupted run must end all the same.
pub fn keep_promise(failure: &Failure<'_>) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
    let mut state = loop {
        match STDOUT.try_lock() {
            Ok(state) => break state,
            Err(std::sync::TryLockError::Poisoned(poisoned)) => break poisoned.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            Err(std::sync::TryLockError::WouldBlock) => return,
        }
    };
    if state.printed {
        return;
    }
    if let Some(promise) = &state.promise {
        let value = promise(failure);
        if write(&value).is_ok() {
            state.printed = true;
        }
    }
}

fn write(value: &impl serde::Serialize) -> anyhow::Result<()> {
    // Secrets masked in the text (a password in a quoted URL, say), which stays valid JSON.
    let text = serde_json::to_string_pretty(&crate::document::versioned(value))?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", crate::redact::redact(&text))?;
    out.flush()?;
    Ok(())
}
