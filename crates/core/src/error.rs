//! Two kinds of failure: bad input from the user (exit 2, one line, their fault and fixable) and
//! everything else (exit 1). Both are reported as a single line on stderr, never as a panic.

/// Exit codes of the binary. Kept in one place so README, `--help` and tests agree.
pub mod exit {
    /// The command succeeded.
    pub const OK: u8 = 0;
    /// The command ran but its outcome is a failure (a recipe could not run, a regression gate tripped).
    pub const FAILURE: u8 = 1;
    /// The input was unusable: missing file, not a diff, unknown ref, no build file, bad flags.
    pub const BAD_INPUT: u8 = 2;
    /// Interrupted by Ctrl-C (128 + SIGINT), after cleaning up.
    pub const INTERRUPTED: u8 = 130;
}

/// An error caused by the user's input. Carried inside `anyhow::Error` and recognised at the top
/// level by downcasting, so any layer can raise it without threading a custom result type around.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// Builds a bad-input error: `return Err(bad_input(format!("...")))`.
pub fn bad_input(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(BadInput(message.into()))
}

/// The exit code an error deserves.
pub fn exit_code_of(error: &anyhow::Error) -> u8 {
    if error.chain().any(|cause| cause.is::<BadInput>()) { exit::BAD_INPUT } else { exit::FAILURE }
}

/// One line: the error and its causes joined by ": ", newlines flattened.
pub fn one_line(error: &anyhow::Error) -> String {
    let text = format!("{error:#}");
    // An error may quote a build's or a server's words, with a URL's password in them.
    crate::redact::redact(&text.split_whitespace().collect::<Vec<_>>().join(" ")).into_owned()
}
