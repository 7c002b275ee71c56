//! The token in our own environment. Child processes never get it (see [`super::env`]), but a
//! process's environment stays readable by every process of the same user through
//! `/proc/<pid>/environ` for as long as it lives, and removing a variable does not erase it there:
//! the kernel shows the environment the process started with. So a process that starts with a
//! secret replaces itself (exec: same pid, same arguments) with a copy started without it, and
//! hands the values over through a pipe, which is empty once the copy has read it.

use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The variables we read secrets from.
pub(crate) const SECRET_VARS: &[&str] = &["GITHUB_TOKEN"];
/// Set on the copy: the descriptor of the pipe holding the secrets.
const HANDOVER_ENV: &str = "REWRITE_ASSIST_SECRETS_FD";

static SECRETS: OnceLock<BTreeMap<String, String>> = OnceLock::new();

/// Call first thing in `main`, while the process has one thread. Returns once the environment
/// holds no secret: either there was none, this is the copy, or the exec failed (then the secrets
/// stay where they are, as before).
pub fn hide_from_environment() {
    if let Some(received) = std::env::var(HANDOVER_ENV).ok().and_then(|fd| receive(&fd)) {
        let _ = SECRETS.set(received);
        return;
    }
    let present: BTreeMap<String, String> = SECRET_VARS
        .iter()
        .filter_map(|name| std::env::var(name).ok().map(|value| (name.to_string(), value)))
        .filter(|(_, value)| !value.is_empty())
        .collect();
    if !present.is_empty() {
        // Returns only when the exec failed.
        let _error = hand_over(&present);
    }
}

/// An environment variable, secrets included (they may have left the real environment).
pub fn var(name: &str) -> Option<String> {
    SECRETS.get().and_then(|secrets| secrets.get(name).cloned()).or_else(|| std::env::var(name).ok())
}

#[cfg(target_os = "linux")]
fn hand_over(secrets: &BTreeMap<String, String>) -> std::io::Error {
    use std::io::Write;
    use std::os::fd::AsRawFd;
    use std::os::unix::process::CommandExt;

    let run = || -> std::io::Result<std::io::Error> {
        let exe = std::env::current_exe()?;
        let payload = serde_json::to_vec(secrets)?;
        // The copy reads only after the exec: all of it must fit in the pipe's buffer (64 KiB).
        if payload.len() > 16 << 10 {
            return Ok(std::io::Error::other("secrets too large to hand over"));
        }
        let (reader, mut writer) = std::io::pipe()?;
        writer.write_all(&payload)?;
        drop(writer);
        nix::fcntl::fcntl(&reader, nix::fcntl::FcntlArg::F_SETFD(nix::fcntl::FdFlag::empty()))?;
        let mut args = std::env::args_os();
        let mut copy = std::process::Command::new(exe);
        if let Some(arg0) = args.next() {
            copy.arg0(arg0);
        }
        copy.args(args).env(HANDOVER_ENV, reader.as_raw_fd().to_string());
        for name in SECRET_VARS {
            copy.env_remove(name);
        }
        Ok(copy.exec())
    };
    run().unwrap_or_else(|e| e)
}

#[cfg(not(target_os = "linux"))]
fn hand_over(_secrets: &BTreeMap<String, String>) -> std::io::Error {
    std::io::Error::other("handing secrets over needs /proc")
}

/// The copy's side: reads the pipe named by `fd` to its end and closes it. None when `fd` is not
/// a pipe this process holds (the variable set by hand), so nothing else is ever read.
fn receive(fd: &str) -> Option<BTreeMap<String, String>> {
    let fd: i32 = fd.parse().ok().filter(|fd| *fd > 2)?;
    let path = format!("/proc/self/fd/{fd}");
    let target = std::fs::read_link(&path).ok()?;
    if !target.to_string_lossy().starts_with("pipe:") {
        return None;
    }
    let bytes = std::fs::read(&path).ok();
    let _ = nix::unistd::close(fd);
    serde_json::from_slice(&bytes?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_pipe_this_process_holds_is_read() {
        for fd in ["", "x", "-1", "0", "2", "999999"] {
            assert_eq!(receive(fd), None, "{fd:?}");
        }
        let file = tempfile::tempfile().unwrap();
        use std::os::fd::AsRawFd;
        assert_eq!(receive(&file.as_raw_fd().to_string()), None, "a file, not a pipe");
    }

    #[test]
    fn a_handed_over_pipe_is_read_to_its_end() {
        use std::io::Write;
        use std::os::fd::IntoRawFd;
        let (reader, mut writer) = std::io::pipe().unwrap();
        writer.write_all(br#"{"GITHUB_TOKEN":"ghs_x"}"#).unwrap();
        drop(writer);
        // As the copy gets it: a bare descriptor number, closed by `receive`.
        let fd = reader.into_raw_fd();
        let received = receive(&fd.to_string()).unwrap();
        assert_eq!(received.get("GITHUB_TOKEN").map(String::as_str), Some("ghs_x"));
    }
}
