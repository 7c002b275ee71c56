//! Logs go to stderr, one line each, so stdout stays clean for `--json` output.

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// `RUST_LOG` wins when set; otherwise `-v` raises the level step by step from `warn`.
pub(crate) fn init(verbosity: u8) {
    let default = match verbosity {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    // The GitHub transport logs each request's lines (headers included) at debug level; our client
    // logs its own single line per retry instead, with the token redacted.
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new(format!("{default},ureq=off,ureq_proto=off,rustls=off")));
    let color = use_color(&std::io::stderr());
    // A second call (tests that call `run` twice in one process) must not panic.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(|| Masked(std::io::stderr()))
        .with_ansi(color)
        .with_target(false)
        .try_init();
}

/// Colour only on a terminal, and never when `NO_COLOR` is set (https://no-color.org).
pub(crate) fn use_color(stream: &impl IsTerminal) -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && stream.is_terminal()
}

/// A log line with its secrets masked ([`crate::redact`]): the fmt layer writes each
/// event whole, with one `write_all`.
struct Masked<W>(W);

impl<W: std::io::Write> std::io::Write for Masked<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        self.0.write_all(crate::redact::redact(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}
