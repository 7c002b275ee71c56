//! Child processes and Ctrl-C, for every phase (validation, eval, rollout, the CLI): a build tool
//! or runner in its own process group (so a timeout or Ctrl-C kills Maven/Gradle and every JVM
//! they forked), output captured to a log file, a wall-clock limit, and the interrupted flag.

pub mod env;
pub mod file_lock;
pub mod json_out;
pub mod maven;
pub mod secrets;
pub mod user_cache;

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// How a child process ended.
#[derive(Debug)]
pub enum ProcessEnd {
    /// The child exited (or a signal ended it) with this status.
    Exited(ExitStatus),
    /// The time limit passed; the child's process group was killed.
    TimedOut,
    /// The user pressed Ctrl-C; the child's process group was killed.
    Interrupted,
}

/// Process groups of running children, killed when the user presses Ctrl-C.
static CHILDREN: Mutex<Vec<i32>> = Mutex::new(Vec::new());
/// This process's own temporary directory (see [`TempRoot`]).
static TEMP_ROOT: OnceLock<PathBuf> = OnceLock::new();
/// How long an interrupted run may take to unwind before it is ended.
const UNWIND_LIMIT: Duration = Duration::from_secs(1);
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static HANDLER: Once = Once::new();

/// True once Ctrl-C (or SIGTERM) was received; long loops check it and unwind, so temporary
/// clones are removed by their destructors before the process exits.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Installs the Ctrl-C / SIGTERM handler once per process. From then on the signal no longer kills
/// us: running children are killed and loops notice [`interrupted`], so temporary clones are
/// removed on the way out.
pub fn install_interrupt_handler() {
    HANDLER.call_once(|| {
        let result = ctrlc::set_handler(|| {
            INTERRUPTED.store(true, Ordering::SeqCst);
            if let Ok(groups) = CHILDREN.lock() {
                for &group in groups.iter() {
                    let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
                }
            }
            // Loops notice the flag between steps; a step that computes for long (a huge diff)
            // would not. Whatever is still running after the limit ends here, with the
            // temporary directories removed as on the way out.
            std::thread::spawn(|| {
                std::thread::sleep(UNWIND_LIMIT);
                if let Some(root) = TEMP_ROOT.get() {
                    let _ = std::fs::remove_dir_all(root);
                }
                // `--json` still prints its one object.
                json_out::keep_promise(&json_out::Failure::Interrupted);
                let _ = writeln!(std::io::stderr(), "interrupted");
                std::process::exit(i32::from(crate::error::exit::INTERRUPTED));
            });
        });
        if let Err(e) = result {
            tracing::debug!("no Ctrl-C handler installed: {e}");
        }
    });
}

/// The process's own temporary directory: everything `tempfile` creates from then on (clones,
/// scratch directories) goes inside it, so an interrupted run that must end at once removes them
/// all with it. Removed when dropped (at the end of `main`).
pub struct TempRoot {
    _dir: tempfile::TempDir,
}

impl TempRoot {
    /// Call once, early in `main`. None when it cannot be made (then temporary directories go to
    /// the system's as before). The interrupt handler, which removes it, is installed with it: a
    /// signal before any child process starts (reading an input, waiting for a server) would
    /// otherwise end the process at once and leave the directory behind.
    pub fn create() -> Option<TempRoot> {
        let dir = tempfile::Builder::new().prefix("rewrite-assist-").tempdir().ok()?;
        tempfile::env::override_temp_dir(dir.path()).ok()?;
        TEMP_ROOT.set(dir.path().to_path_buf()).ok()?;
        install_interrupt_handler();
        Some(TempRoot { _dir: dir })
    }
}

/// Runs `command` in its own process group with stdout and stderr appended to `log`, killing the
/// whole group after `timeout`.
pub fn run_logged(mut command: Command, log: &Path, timeout: Duration) -> Result<ProcessEnd> {
    use std::os::unix::process::CommandExt;

    install_interrupt_handler();
    let file = File::create(log).with_context(|| format!("creating {}", log.display()))?;
    let err_file = file.try_clone()?;
    command.stdin(Stdio::null()).stdout(file).stderr(err_file).process_group(0);
    let program = command.get_program().to_string_lossy().into_owned();
    let mut child = command.spawn().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            crate::error::bad_input(format!("`{program}` is not installed or not on PATH"))
        } else {
            anyhow::Error::new(e).context(format!("starting {program}"))
        }
    })?;
    let group = child.id() as i32;
    register(group);
    let start = Instant::now();
    let outcome = loop {
        if has_exited(group) {
            // Processes the tool left behind (daemons, forked JVMs) are part of the run: kill the
            // group while the unreaped leader still holds its id, then reap the leader.
            kill_group(group);
            let status = child.wait()?;
            // The handler may have killed the child already: that exit is the interruption.
            break if interrupted() { ProcessEnd::Interrupted } else { ProcessEnd::Exited(status) };
        }
        if interrupted() {
            kill_group(group);
            let _ = child.wait();
            break ProcessEnd::Interrupted;
        }
        if start.elapsed() >= timeout {
            kill_group(group);
            let _ = child.wait();
            break ProcessEnd::TimedOut;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    unregister(group);
    crate::redact::redact_file(log);
    Ok(outcome)
}

/// Whether the child has exited, without reaping it (a reaped leader's group id could be reused).
fn has_exited(pid: i32) -> bool {
    use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
    match waitid(Id::Pid(Pid::from_raw(pid)), flags) {
        Ok(WaitStatus::StillAlive) => false,
        Ok(_) => true,
        // No such child (already reaped): nothing to wait for.
        Err(_) => true,
    }
}

/// Sends SIGKILL to process group `group` (errors ignored: it may be gone already).
pub fn kill_group(group: i32) {
    let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
}

/// Adds process group `group` to those killed on Ctrl-C.
pub fn register(group: i32) {
    if let Ok(mut groups) = CHILDREN.lock() {
        groups.push(group);
    }
}

/// Removes process group `group` from those killed on Ctrl-C.
pub fn unregister(group: i32) {
    if let Ok(mut groups) = CHILDREN.lock() {
        groups.retain(|&g| g != group);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_output_and_exit_status() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("out.log");
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo out; echo err >&2; exit 3"]);
        let outcome = run_logged(cmd, &log, Duration::from_secs(10)).unwrap();
        assert!(matches!(outcome, ProcessEnd::Exited(s) if s.code() == Some(3)));
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.contains("out") && text.contains("err"));
    }

    /// A fifo the test reads: a script's processes that open it for writing keep it open until
    /// they end, so its end of file is the event "every one of them is gone".
    struct Witness {
        path: PathBuf,
        reader: File,
    }

    impl Witness {
        fn new(dir: &Path) -> Witness {
            use std::os::unix::fs::OpenOptionsExt;
            let path = dir.join("witness");
            nix::unistd::mkfifo(&path, nix::sys::stat::Mode::S_IRWXU).unwrap();
            // Non-blocking: opening does not wait for a writer, and neither do reads.
            let reader = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
                .open(&path)
                .unwrap();
            Witness { path, reader }
        }

        /// Shell text that opens the fifo as fd 3 (inherited by every process forked after it)
        /// and says so.
        fn open_in_shell(&self) -> String {
            format!("exec 3>{}; echo up >&3", self.path.display())
        }

        /// Whether every writer closed the fifo within `limit`, after one said it was up.
        fn closed_within(&mut self, limit: Duration) -> bool {
            use std::io::Read;
            let deadline = Instant::now() + limit;
            let mut seen = String::new();
            let mut buffer = [0u8; 64];
            while Instant::now() < deadline {
                match self.reader.read(&mut buffer) {
                    // End of file: no writer, and one was there (before its first write, no
                    // writer means it has not opened the fifo yet).
                    Ok(0) if seen.contains("up") => return true,
                    Ok(n) => seen.push_str(&String::from_utf8_lossy(&buffer[..n])),
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                    Err(e) => panic!("reading the witness fifo: {e}"),
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            false
        }
    }

    #[test]
    fn timeout_kills_the_whole_process_group() {
        let dir = tempfile::tempdir().unwrap();
        let mut witness = Witness::new(dir.path());
        // A grandchild holding the fifo open for as long as it lives, unless it is killed with its
        // group. The limit leaves the shell ample time to start even on a loaded machine.
        let script = format!("{}; (exec sleep 30) & exec sleep 30", witness.open_in_shell());
        let mut cmd = Command::new("sh");
        cmd.args(["-c", &script]);
        let start = Instant::now();
        let outcome = run_logged(cmd, &dir.path().join("out.log"), Duration::from_secs(2)).unwrap();
        assert!(matches!(outcome, ProcessEnd::TimedOut));
        assert!(start.elapsed() < Duration::from_secs(10));
        assert!(
            witness.closed_within(Duration::from_secs(10)),
            "a process of the group survived the timeout"
        );
    }

    #[test]
    fn processes_left_behind_by_a_finished_tool_are_killed() {
        let dir = tempfile::tempdir().unwrap();
        let mut witness = Witness::new(dir.path());
        let script = format!("{}; (exec sleep 30) & exit 0", witness.open_in_shell());
        let mut cmd = Command::new("sh");
        cmd.args(["-c", &script]);
        let outcome = run_logged(cmd, &dir.path().join("out.log"), Duration::from_secs(10)).unwrap();
        assert!(matches!(outcome, ProcessEnd::Exited(s) if s.success()));
        assert!(
            witness.closed_within(Duration::from_secs(10)),
            "a background process of the run outlived it"
        );
    }

    #[test]
    fn a_missing_program_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let err =
            run_logged(Command::new("no-such-tool-xyz"), &dir.path().join("log"), Duration::from_secs(1))
                .unwrap_err();
        assert!(err.to_string().contains("`no-such-tool-xyz` is not installed"), "{err}");
    }
}
