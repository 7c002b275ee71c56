//! One runner process for one repository at one commit: it parses the clone once and then runs
//! recipe after recipe on the same trees. Requests are serialized (one at a time; the pipeline's
//! parallel options wait their turn, which costs little next to a parse).
//!
//! The process runs in its own process group with a bounded heap. A request that outlives its time
//! limit kills the group; the next request starts a new process and parses again. An exit with
//! status 3 is the JVM's `-XX:+ExitOnOutOfMemoryError`: an out-of-memory, reported as such.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use crate::setup::ProjectDir;
use anyhow::{Context, Result, anyhow};
use serde::de::DeserializeOwned;

use super::protocol::{
    HeadFiles, LearnRequest, LearnResults, LearnedJars, Measure, PROTOCOL, ParseResults, Request, RunResults,
};
use super::runner::Runner;
use crate::process::{interrupted, kill_group, register, unregister};
use crate::setup::git::Clone;
use crate::validation::jdk::Jdk;
use crate::validation::maven_settings::CredentialUrls;

/// The heap limit when `REWRITE_ASSIST_RUNNER_XMX` does not say: half the machine's memory (shared
/// by a batch's runners that work at once), at least 1 GiB and at most 8 GiB (a mid-size
/// project's trees fit in 2–4 GiB).
pub(crate) const XMX_ENV: &str = "REWRITE_ASSIST_RUNNER_XMX";

/// How a request to the runner ended, when it did not produce results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stopped {
    /// The request ran past its time limit (the limit given) and the runner was stopped.
    TimedOut(Duration),
    /// The runner ran out of heap (`-Xmx`, see `REWRITE_ASSIST_RUNNER_XMX`).
    OutOfMemory,
    /// The process ended without answering: its exit status and the end of its log.
    Crashed(String),
    /// The user pressed Ctrl-C (or the process got SIGTERM).
    Interrupted,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopped::TimedOut(limit) => {
                write!(f, "the runner exceeded {} s and was stopped", limit.as_secs())
            }
            Stopped::OutOfMemory => {
                write!(f, "the runner ran out of memory (heap limit -Xmx; set {XMX_ENV})")
            }
            Stopped::Crashed(detail) => write!(f, "the runner stopped unexpectedly: {detail}"),
            Stopped::Interrupted => write!(f, "interrupted by the user"),
        }
    }
}

/// Settings of a session.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The built runner the session starts.
    pub runner: Runner,
    /// The JDK that runs it: 17 or newer, at least the project's language level when one is
    /// installed.
    pub jdk: Jdk,
    /// `-Xmx` value, e.g. `4g`.
    pub xmx: String,
    /// Maven's local repository, where the runner caches POMs and jars.
    pub local_repository: PathBuf,
    /// Where the runner keeps downloaded POMs and version metadata between processes; None: in
    /// memory only.
    pub pom_cache: Option<PathBuf>,
    /// Whether `file:` repositories that the repository's POMs or build scripts name may be read
    /// (`--trust-build-config`): they read whatever the machine has at that path.
    pub trust_file_repositories: bool,
    /// The user's settings.xml, as the builds get it (`~/.m2/settings.xml`; the action mounts its
    /// input `maven-settings` there).
    pub maven_settings: Option<PathBuf>,
    /// Where the settings' servers' credentials may go besides the URLs the settings name.
    pub credential_urls: CredentialUrls,
}

/// Overrides where downloaded POMs and version metadata are kept (`off`: not on disk).
pub(crate) const POM_CACHE_ENV: &str = "REWRITE_ASSIST_POM_CACHE";

impl Settings {
    pub(crate) fn new(runner: Runner, jdk: Jdk, trust: crate::validation::trust::Trust) -> Settings {
        let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/root"));
        Settings {
            runner,
            jdk,
            xmx: default_xmx(),
            local_repository: home.join(".m2/repository"),
            pom_cache: pom_cache(std::env::var_os(POM_CACHE_ENV)),
            trust_file_repositories: trust.honours_build_config(),
            maven_settings: crate::validation::maven_settings::user_settings(),
            credential_urls: CredentialUrls::allowed(),
        }
    }
}

/// The POM cache folder: the environment's value, none for `off`, else the user's cache folder.
/// A first run on a Spring project makes about a thousand metadata requests; the cache makes the
/// next run on the same machine independent of the network's speed.
fn pom_cache(value: Option<std::ffi::OsString>) -> Option<PathBuf> {
    match value.filter(|v| !v.is_empty()) {
        Some(v) if v == "off" => None,
        Some(v) => Some(PathBuf::from(v)),
        None => crate::process::user_cache::dir().map(|dir| dir.join("pom-cache")),
    }
}

/// The CI variables OpenRewrite's `BuildEnvironment` reads for GitHub Actions (the CI the action
/// runs in), passed to the runner in the parse request: with them, its trees carry the marker the
/// build plugins add there. An explicit list of descriptions of the run — never a token.
const BUILD_ENVIRONMENT: &[&str] = &[
    "CI",
    "GITHUB_ACTION",
    "GITHUB_API_URL",
    "GITHUB_HEAD_REF",
    "GITHUB_REF",
    "GITHUB_REPOSITORY",
    "GITHUB_RUN_ID",
    "GITHUB_RUN_NUMBER",
    "GITHUB_SERVER_URL",
    "GITHUB_SHA",
];

fn build_environment(var: impl Fn(&str) -> Option<String>) -> std::collections::BTreeMap<String, String> {
    BUILD_ENVIRONMENT.iter().filter_map(|name| var(name).map(|value| (name.to_string(), value))).collect()
}

/// Extra JVM options for the runner (e.g. a trust store for a proxy), split at whitespace.
pub(crate) const JAVA_OPTIONS_ENV: &str = "REWRITE_ASSIST_RUNNER_JAVA_OPTIONS";

fn java_options() -> Vec<String> {
    std::env::var(JAVA_OPTIONS_ENV).unwrap_or_default().split_whitespace().map(str::to_string).collect()
}

/// The locale variable the runner gets when the environment's locale is not UTF-8 (or there is
/// none): Java names files in the locale's character set, and with ASCII a file name that is not
/// ASCII fails the whole parse (OpenRewrite's file walk cannot make a path of it). `C.UTF-8` sets
/// the character set only; LC_ALL is replaced only when it is set, since it wins over LC_CTYPE.
fn utf8_locale(var: impl Fn(&str) -> Option<String>) -> Option<(&'static str, &'static str)> {
    let set = |name: &str| var(name).filter(|value| !value.is_empty());
    let effective = set("LC_ALL").or_else(|| set("LC_CTYPE")).or_else(|| set("LANG")).unwrap_or_default();
    let charset = effective.to_ascii_lowercase();
    if charset.contains("utf-8") || charset.contains("utf8") {
        return None;
    }
    Some((if set("LC_ALL").is_some() { "LC_ALL" } else { "LC_CTYPE" }, "C.UTF-8"))
}

/// The `-Xmx` to use: the environment's, else from the machine's memory.
pub(crate) fn default_xmx() -> String {
    if let Some(value) = std::env::var(XMX_ENV).ok().filter(|v| !v.trim().is_empty()) {
        return value.trim().to_string();
    }
    let total_mib = total_memory_mib().unwrap_or(4096);
    // A batch's runners share the half ([`super::pool`]).
    format!("{}m", (total_mib / 2 / super::pool::workers() as u64).clamp(1024, 8192))
}

/// The file, in the built runner's folder, where the runner keeps which of its classpath's YAML
/// files defines each recipe (made by the first runner, read by the next while the classpath is
/// the same): a runner reads only the recipe files of the recipes it runs.
const RECIPE_INDEX: &str = "recipe-index.json";

/// The Java property that tells the runner how many threads a request's independent recipe runs
/// (its steps and its whole run) share.
const THREADS_PROPERTY: &str = "rewriteassist.runner.threads";

/// The threads a runner's recipe runs share: the CPUs, divided among a batch's runners
/// ([`super::pool`]); one when there is a CPU per runner or fewer.
pub(crate) fn recipe_threads() -> usize {
    let cpus = std::thread::available_parallelism().map(usize::from).unwrap_or(1);
    (cpus / super::pool::workers()).max(1)
}

/// The machine's memory in MiB (`/proc/meminfo`'s `MemTotal`); None when it cannot be read.
pub(crate) fn total_memory_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 =
        text.lines().find_map(|l| l.strip_prefix("MemTotal:"))?.split_whitespace().next()?.parse().ok()?;
    Some(kib / 1024)
}

/// What a run of a recipe as a whole does besides its diff.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct WholeRun<'a> {
    /// The old library's residual uses, the compile check (None: nothing).
    pub measure: Option<&'a Measure>,
    /// Where it writes OpenRewrite's data tables (None: nowhere).
    pub datatables: Option<&'a Path>,
}

/// A runner for one clone.
pub struct Session {
    settings: Settings,
    /// Kept for the session's life: dropping it removes the clone.
    _clone: Clone,
    /// The build's directory in the clone (a monorepo's `--working-directory`): the runner parses
    /// from there, and its paths get this prefix back.
    project: Option<ProjectDir>,
    /// Where the runner parses: the clone, or the project directory in it (checked to be inside).
    root: PathBuf,
    /// Request and results files, and the runner's log.
    scratch: tempfile::TempDir,
    state: Mutex<State>,
    /// The PR's head versions of its changed files, parsed beside the base (set before the first
    /// parse, see [`Session::set_head`]).
    head: std::sync::OnceLock<HeadFiles>,
}

#[derive(Default)]
struct State {
    process: Option<Process>,
    /// Where the session's part of the process's log starts (the process may have served others).
    log_from: u64,
    /// The trees the running process holds; None until parsed (again).
    parsed: Option<ParseResults>,
    requests: usize,
    /// Learned recipe jars every later run may name ([`Session::use_learned`]).
    learned: Option<LearnedJars>,
}

/// How a runner process is started: a batch's idle runner serves a session that would start it
/// the same way ([`super::pool`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Launch {
    java: PathBuf,
    xmx: String,
    /// The threads its recipe runs share ([`recipe_threads`]).
    threads: usize,
    classpath: String,
    /// Where the runner keeps the index of its classpath's recipe files, next to the built runner.
    recipe_index: PathBuf,
    pom_cache: Option<PathBuf>,
}

/// A running runner: its process group, its protocol streams, and its own folder (its working
/// directory and its log, which outlive any one session).
pub(crate) struct Process {
    child: Child,
    group: i32,
    stdin: ChildStdin,
    lines: Receiver<String>,
    launch: Launch,
    /// The sessions it has served, this one included.
    sessions: usize,
    home: tempfile::TempDir,
}

impl Process {
    pub(crate) fn launch(&self) -> &Launch {
        &self.launch
    }

    pub(crate) fn sessions(&self) -> usize {
        self.sessions
    }

    pub(crate) fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    fn log(&self) -> PathBuf {
        self.home.path().join("runner.log")
    }

    /// Whether its resident memory is past twice its heap limit: memory outside the heap (classes
    /// of learned jars, native buffers) that a new process would not have.
    pub(crate) fn grown_past_its_heap(&self) -> bool {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        let rss_kib = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok());
        match (rss_kib, heap_mib(&self.launch.xmx)) {
            (Some(rss), Some(heap)) => rss / 1024 > 2 * heap,
            _ => false,
        }
    }
}

/// `-Xmx`'s value in MiB (`4g`, `2048m`, `1048576k`); None when it does not read as one.
fn heap_mib(xmx: &str) -> Option<u64> {
    let xmx = xmx.trim().to_ascii_lowercase();
    let (digits, unit) = xmx.split_at(xmx.find(|c: char| !c.is_ascii_digit()).unwrap_or(xmx.len()));
    let n: u64 = digits.parse().ok()?;
    match unit {
        "g" => Some(n * 1024),
        "m" => Some(n),
        "k" => Some(n / 1024),
        "" => Some(n / (1024 * 1024)),
        _ => None,
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        kill_group(self.group);
        let _ = self.child.wait();
        unregister(self.group);
    }
}

/// `diff` with `prefix` put before every path of its file headers (not in hunk bodies, where a
/// removed line may look like a header).
fn prefix_paths(diff: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(diff.len());
    let mut in_header = false;
    for line in diff.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("diff --git a/") {
            in_header = true;
            out.push_str(&format!(
                "diff --git a/{prefix}{}",
                rest.replacen(" b/", &format!(" b/{prefix}"), 1)
            ));
            continue;
        }
        if line.starts_with("@@") {
            in_header = false;
        }
        let rewritten = in_header
            .then(|| {
                [
                    ("--- a/", "--- a/"),
                    ("+++ b/", "+++ b/"),
                    ("rename from ", "rename from "),
                    ("rename to ", "rename to "),
                ]
                .iter()
                .find_map(|(start, keep)| {
                    line.strip_prefix(start).map(|rest| format!("{keep}{prefix}{rest}"))
                })
            })
            .flatten();
        out.push_str(rewritten.as_deref().unwrap_or(line));
    }
    out
}

impl Session {
    /// A session on `clone` (checked out at the base commit; the session owns and removes it),
    /// parsing `project` in it (None: all of it).
    pub(crate) fn new(settings: Settings, clone: Clone, project: Option<ProjectDir>) -> Result<Session> {
        let scratch = tempfile::Builder::new().prefix("rewrite-assist-runner-").tempdir()?;
        let root = crate::setup::project_dir::project_root(clone.path(), project.as_ref())?;
        Ok(Session {
            settings,
            _clone: clone,
            project,
            root,
            scratch,
            state: Mutex::new(State::default()),
            head: std::sync::OnceLock::new(),
        })
    }

    /// The PR's head versions of the files it changes (repository paths → text): written under
    /// the session's scratch directory and parsed beside the base, so the parse says which types
    /// the base and the head use. Files outside the project directory are left out. Only the
    /// first call counts, and only before the first parse.
    pub(crate) fn set_head(&self, texts: &std::collections::BTreeMap<String, String>) -> Result<()> {
        let root = self.scratch.path().join("head");
        let prefix = self.project.as_ref().map(ProjectDir::prefix).unwrap_or_default();
        let mut files = Vec::new();
        for (path, text) in texts {
            let Some(relative) = path.strip_prefix(&prefix) else { continue };
            let target = root.join(relative);
            if !target.starts_with(&root) || relative.split('/').any(|part| part == "..") {
                continue;
            }
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&target, text)?;
            files.push(relative.to_string());
        }
        let _ = self.head.set(HeadFiles { root, files });
        Ok(())
    }

    /// Where the runner parses: the clone, or the project directory in it.
    pub(crate) fn root(&self) -> PathBuf {
        self.root.clone()
    }

    /// The runner's log (its stderr), across processes.
    pub(crate) fn log_path(&self) -> PathBuf {
        self.scratch.path().join("runner.log")
    }

    /// Copies the runner's log to `to`, its secrets masked; false when there is none to copy.
    /// Only this session's part: a batch's runner may have served other sessions before.
    pub fn keep_log(&self, to: &Path) -> bool {
        let mut text = std::fs::read(self.log_path()).unwrap_or_default();
        if let Ok(state) = self.state.lock()
            && let Some(process) = &state.process
        {
            text.extend(log_since(&process.log(), state.log_from));
        }
        let kept = !text.is_empty() && std::fs::write(to, text).is_ok();
        crate::redact::redact_file(to);
        kept
    }

    /// The trees' parse results, parsing first when needed (within `timeout`).
    pub fn parsed(&self, timeout: Duration) -> Result<Result<ParseResults, Stopped>> {
        let mut state = self.state.lock().map_err(|_| anyhow!("the runner session is poisoned"))?;
        self.ensure_parsed(&mut state, timeout)
    }

    /// Runs `recipe` from `recipe_file` (each step on its own, then the whole, doing what `whole`
    /// asks) on the parsed trees; parses first when the process is new. `timeout` covers both.
    pub(crate) fn run(
        &self,
        recipe_file: &Path,
        recipe: &str,
        whole: WholeRun<'_>,
        timeout: Duration,
    ) -> Result<Result<RunResults, Stopped>> {
        self.run_request(vec![recipe_file.to_path_buf()], recipe, (None, None, Some(whole)), timeout)
    }

    /// Runs each step of `recipe` (from `recipe_files`, else the runner's classpath) on its own on
    /// the parsed trees, and not the whole (discovery: the steps are alternatives, not a recipe).
    /// No step starts after `stop_after`; `timeout` still ends a step that does not finish.
    /// `after`: a recipe of `recipe_files` that runs once first; the steps then run on its result
    /// and their diffs are what they change of it.
    pub fn run_steps(
        &self,
        recipe_files: Vec<PathBuf>,
        recipe: &str,
        after: Option<&str>,
        stop_after: Duration,
        timeout: Duration,
    ) -> Result<Result<RunResults, Stopped>> {
        self.run_request(recipe_files, recipe, (after, Some(stop_after), None), timeout)
    }

    /// `steps_until`: only each step on its own, none started after that time; None: each step,
    /// then the whole (doing what `whole` asks).
    fn run_request(
        &self,
        recipe_files: Vec<PathBuf>,
        recipe: &str,
        (after, steps_until, whole): (Option<&str>, Option<Duration>, Option<WholeRun<'_>>),
        timeout: Duration,
    ) -> Result<Result<RunResults, Stopped>> {
        let started = Instant::now();
        let mut state = self.state.lock().map_err(|_| anyhow!("the runner session is poisoned"))?;
        if let Err(stopped) = self.ensure_parsed(&mut state, timeout)? {
            return Ok(Err(stopped));
        }
        let left = timeout.saturating_sub(started.elapsed()).max(Duration::from_secs(1));
        let id = self.next_id(&mut state, "run");
        let recipe_files = self.project_relative(&id, recipe_files)?;
        let request = Request::Run {
            protocol: PROTOCOL,
            output: self.scratch.path().join(format!("{id}.json")),
            id,
            recipe_files,
            recipe: recipe.to_string(),
            each_step: true,
            whole: steps_until.is_none(),
            stop_after_seconds: steps_until.map(|d| d.as_secs_f64().max(0.001)),
            after: after.map(str::to_string),
            measure: whole.and_then(|w| w.measure).cloned(),
            datatables: whole.and_then(|w| w.datatables).map(Path::to_path_buf),
            learned: state.learned.clone(),
        };
        let mut outcome: Result<RunResults, Stopped> = self.exchange(&mut state, &request, left)?;
        if let Ok(results) = &mut outcome {
            for run in &mut results.runs {
                // The runner's paths are relative to where it parsed; the PR's to the repository.
                if let Some(dir) = &self.project {
                    run.diff = prefix_paths(&run.diff, &dir.prefix());
                    for file in &mut run.files {
                        *file = format!("{}{file}", dir.prefix());
                    }
                    run.steps_by_file = std::mem::take(&mut run.steps_by_file)
                        .into_iter()
                        .map(|(file, steps)| (format!("{}{file}", dir.prefix()), steps))
                        .collect();
                }
                run.diff = super::paths::restore_backslashes(&run.diff, &run.files);
            }
        }
        Ok(outcome)
    }

    /// The recipe files as the runner sees paths: from the project directory, when there is one.
    /// A file whose paths change is written again to the scratch directory (the caller's stays).
    fn project_relative(&self, id: &str, files: Vec<PathBuf>) -> Result<Vec<PathBuf>> {
        let Some(dir) = &self.project else { return Ok(files) };
        let mut out = Vec::with_capacity(files.len());
        for (index, file) in files.into_iter().enumerate() {
            let text =
                std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
            match crate::openrewrite::project_paths::relative_to(&text, &dir.prefix()) {
                Some(relative) => {
                    let path = self.scratch.path().join(format!("{id}-recipe-{index}.yml"));
                    std::fs::write(&path, relative)?;
                    out.push(path);
                }
                None => out.push(file),
            }
        }
        Ok(out)
    }

    /// Learns Refaster templates from the PR's Java edits (`request`, with repository paths) on
    /// the parsed base trees, parsing first when needed; the places in the results are repository
    /// paths again. The jar is not used by later runs until [`Session::use_learned`] says so.
    pub fn learn_templates(
        &self,
        mut request: LearnRequest,
        timeout: Duration,
    ) -> Result<Result<LearnResults, Stopped>> {
        let started = Instant::now();
        let mut state = self.state.lock().map_err(|_| anyhow!("the runner session is poisoned"))?;
        if let Err(stopped) = self.ensure_parsed(&mut state, timeout)? {
            return Ok(Err(stopped));
        }
        let prefix = self.project.as_ref().map(ProjectDir::prefix).unwrap_or_default();
        // Edits outside the project directory are not in the trees.
        request.edits.retain_mut(|edit| match edit.path.strip_prefix(&prefix) {
            Some(relative) => {
                edit.path = relative.to_string();
                true
            }
            None => false,
        });
        request.head_files = std::mem::take(&mut request.head_files)
            .into_iter()
            .filter_map(|(path, text)| Some((path.strip_prefix(&prefix)?.to_string(), text)))
            .collect();
        let left = timeout.saturating_sub(started.elapsed()).max(Duration::from_secs(1));
        let id = self.next_id(&mut state, "learn");
        let request = Request::LearnTemplates {
            protocol: PROTOCOL,
            output: self.scratch.path().join(format!("{id}.json")),
            id,
            request,
        };
        let mut outcome: Result<LearnResults, Stopped> = self.exchange(&mut state, &request, left)?;
        if let Ok(results) = &mut outcome {
            let places =
                results.templates.iter_mut().flat_map(|t| t.occurrences.iter_mut().chain(&mut t.matches));
            for place in places.chain(results.refused.iter_mut().flat_map(|r| &mut r.occurrences)) {
                place.path = format!("{prefix}{}", place.path);
            }
        }
        Ok(outcome)
    }

    /// Every later run may name the recipes of these learned jars.
    pub fn use_learned(&self, jars: LearnedJars) -> Result<()> {
        let mut state = self.state.lock().map_err(|_| anyhow!("the runner session is poisoned"))?;
        state.learned = Some(jars);
        Ok(())
    }

    fn ensure_parsed(&self, state: &mut State, timeout: Duration) -> Result<Result<ParseResults, Stopped>> {
        if let (Some(parsed), Some(_)) = (&state.parsed, &state.process) {
            return Ok(Ok(parsed.clone()));
        }
        let id = self.next_id(state, "parse");
        let request = Request::Parse {
            protocol: PROTOCOL,
            output: self.scratch.path().join(format!("{id}.json")),
            id,
            root: self.root(),
            local_repository: self.settings.local_repository.clone(),
            trust_file_repositories: self.settings.trust_file_repositories,
            maven_settings: self.settings.maven_settings.clone(),
            credential_urls: self.settings.credential_urls.clone(),
            build_environment: build_environment(|name| std::env::var(name).ok()),
            head: self.head.get().cloned(),
        };
        let outcome: Result<ParseResults, Stopped> = self.exchange(state, &request, timeout)?;
        if let Ok(parsed) = &outcome
            && parsed.ok
        {
            state.parsed = Some(parsed.clone());
        }
        Ok(outcome)
    }

    fn next_id(&self, state: &mut State, kind: &str) -> String {
        state.requests += 1;
        format!("{kind}-{}", state.requests)
    }

    /// Sends one request and waits for its `done` line; reads its results file.
    fn exchange<T: DeserializeOwned>(
        &self,
        state: &mut State,
        request: &Request,
        timeout: Duration,
    ) -> Result<Result<T, Stopped>> {
        if state.process.is_none() {
            state.parsed = None;
            self.take_process(state)?;
        }
        let path = self.scratch.path().join(format!("{}.request.json", request.id()));
        std::fs::write(&path, serde_json::to_vec_pretty(request)?)?;
        let process = state.process.as_mut().expect("started above");
        let sent = writeln!(process.stdin, "{}", path.display()).and_then(|()| process.stdin.flush());
        let started = Instant::now();
        let outcome = if sent.is_err() {
            Err(self.ended(state))
        } else {
            loop {
                if interrupted() {
                    break Err(Stopped::Interrupted);
                }
                let Some(process) = state.process.as_mut() else { break Err(self.ended(state)) };
                let left = timeout.saturating_sub(started.elapsed());
                if left.is_zero() {
                    break Err(Stopped::TimedOut(timeout));
                }
                match process.lines.recv_timeout(left.min(Duration::from_millis(200))) {
                    Ok(line) if line.trim() == format!("done {}", request.id()) => break Ok(()),
                    Ok(line) => tracing::debug!("runner: unexpected line on stdout: {line}"),
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => break Err(self.ended(state)),
                }
            }
        };
        match outcome {
            Ok(()) => {
                let text = std::fs::read_to_string(request.output()).with_context(|| {
                    format!("reading the runner's results {}", request.output().display())
                })?;
                let unreadable =
                    || format!("the runner's results {} are not readable", request.output().display());
                let mut value: serde_json::Value = serde_json::from_str(&text).with_context(unreadable)?;
                // The runner quotes servers' and rewrite-maven's words: masked before anything
                // reads them. The diffs are the repository's own text, and stay as they are.
                crate::redact::redact_json(&mut value, &["diff"]);
                let results = serde_json::from_value(value).with_context(unreadable)?;
                Ok(Ok(results))
            }
            Err(stopped) => {
                // The process is of no use any more: the next request starts a new one.
                self.let_go(state, false);
                state.parsed = None;
                Ok(Err(stopped))
            }
        }
    }

    /// Why the process ended: an interrupt, out of memory (status 3) or a crash, with the end of
    /// its log.
    fn ended(&self, state: &mut State) -> Stopped {
        let status = state.process.as_mut().and_then(|p| p.child.wait().ok());
        self.let_go(state, false);
        // Ctrl-C kills the runner's process group from the signal handler: its end is the
        // interrupt, not a crash, however the request loop learned of it first.
        if interrupted() {
            return Stopped::Interrupted;
        }
        let log = std::fs::read_to_string(self.log_path()).unwrap_or_default();
        if status.and_then(|s| s.code()) == Some(3) || log.contains("java.lang.OutOfMemoryError") {
            return Stopped::OutOfMemory;
        }
        let tail: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).rev().take(3).collect();
        let status = status.map(|s| s.to_string()).unwrap_or_else(|| "unknown status".into());
        Stopped::Crashed(format!("{status}: {}", tail.into_iter().rev().collect::<Vec<_>>().join(" | ")))
    }

    /// How this session's runner is started.
    fn launch(&self) -> Launch {
        Launch {
            java: self.settings.jdk.home.join("bin/java"),
            xmx: self.settings.xmx.clone(),
            threads: recipe_threads(),
            classpath: self.settings.runner.classpath.clone(),
            recipe_index: self.settings.runner.dir.join(RECIPE_INDEX),
            pom_cache: self.settings.pom_cache.clone(),
        }
    }

    /// Gives the session a runner: a batch's idle one started the same way, else a new one. Its
    /// log from here on is the session's.
    fn take_process(&self, state: &mut State) -> Result<()> {
        let launch = self.launch();
        let (mut process, reused) = match super::pool::take(&launch) {
            Some(process) => (process, true),
            None => (self.start(launch)?, false),
        };
        process.sessions += 1;
        state.log_from = std::fs::metadata(process.log()).map(|m| m.len()).unwrap_or(0);
        if reused {
            let line = format!(
                "rewrite-assist: runner process {} reused (session {} it serves)\n",
                process.child.id(),
                process.sessions
            );
            append(&self.log_path(), line.as_bytes());
        }
        state.process = Some(process);
        Ok(())
    }

    /// Ends the session's use of its runner: its part of the runner's log is kept with the
    /// session, and a `healthy` runner goes back to the batch (else it ends).
    fn let_go(&self, state: &mut State, healthy: bool) {
        let Some(process) = state.process.take() else { return };
        append(&self.log_path(), &log_since(&process.log(), state.log_from));
        if healthy {
            super::pool::give_back(process);
        }
    }

    fn start(&self, launch: Launch) -> Result<Process> {
        use std::os::unix::process::CommandExt;
        crate::process::install_interrupt_handler();
        let home = tempfile::Builder::new().prefix("rewrite-assist-runner-process-").tempdir()?;
        let log_path = home.path().join("runner.log");
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log_path)
            .with_context(|| format!("opening {}", log_path.display()))?;
        let mut command = Command::new(&launch.java);
        crate::process::env::restrict_for_build_tool(&mut command)
            .envs(utf8_locale(|name| std::env::var(name).ok()))
            .arg(format!("-Xmx{}", launch.xmx))
            .arg("-XX:+ExitOnOutOfMemoryError")
            // The client compiler only: a runner lives for seconds to minutes and runs mostly
            // code it sees once (parsers, recipe loading), where the optimizing compiler only
            // competes for the CPU. Measured on real repositories with a 2-core machine: the
            // parse is about twice as fast, a whole analyze 30–40% faster. The user's options
            // come after and can override it (`-XX:TieredStopAtLevel=4`).
            .arg("-XX:TieredStopAtLevel=1")
            .arg(format!("-D{THREADS_PROPERTY}={}", launch.threads))
            .args(java_options())
            .arg("-cp")
            .arg(&launch.classpath)
            .arg("rewriteassist.runner.Main")
            .args(
                launch
                    .pom_cache
                    .iter()
                    .flat_map(|dir| [std::ffi::OsStr::new("--pom-cache"), dir.as_os_str()]),
            )
            .arg("--recipe-index")
            .arg(&launch.recipe_index)
            .arg("--serve")
            // Its own folder is its working directory: it may serve several clones in turn.
            .current_dir(home.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log)
            .process_group(0);
        let mut child = command.spawn().context("starting the embedded runner (java)")?;
        let group = child.id() as i32;
        register(group);
        let stdin = child.stdin.take().ok_or_else(|| anyhow!("the runner has no stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| anyhow!("the runner has no stdout"))?;
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process { child, group, stdin, lines, launch, sessions: 0, home })
    }
}

impl Drop for Session {
    /// A batch's next session may use the runner ([`super::pool`]); otherwise it ends here.
    fn drop(&mut self) {
        if let Ok(mut state) = self.state.lock() {
            self.let_go(&mut state, true);
        }
    }
}

/// The bytes of the log at `path` from `from` on.
fn log_since(path: &Path, from: u64) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap_or_default();
    bytes.get(from as usize..).map(<[u8]>::to_vec).unwrap_or_default()
}

fn append(path: &Path, bytes: &[u8]) {
    use std::io::Write as _;
    if bytes.is_empty() {
        return;
    }
    let file = std::fs::OpenOptions::new().create(true).append(true).open(path);
    if let Err(e) = file.and_then(|mut f| f.write_all(bytes)) {
        tracing::debug!("runner log {}: {e}", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_get_the_project_prefix_in_headers_only() {
        let diff = "diff --git a/pom.xml b/pom.xml\nindex 1..2 100644\n--- a/pom.xml\n+++ b/pom.xml\n@@ -1,2 +1,2 @@\n--- a/not-a-header\n+++ b/not-a-header\n\
diff --git a/a.txt b/b.txt\nsimilarity index 90%\nrename from a.txt\nrename to b.txt\n\
diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+x\n";
        let expected = "diff --git a/service/pom.xml b/service/pom.xml\nindex 1..2 100644\n--- a/service/pom.xml\n+++ b/service/pom.xml\n@@ -1,2 +1,2 @@\n--- a/not-a-header\n+++ b/not-a-header\n\
diff --git a/service/a.txt b/service/b.txt\nsimilarity index 90%\nrename from service/a.txt\nrename to service/b.txt\n\
diff --git a/service/new.txt b/service/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/service/new.txt\n@@ -0,0 +1 @@\n+x\n";
        assert_eq!(prefix_paths(diff, "service/"), expected);
    }

    #[test]
    fn the_build_environment_names_the_ci_run_and_never_a_secret() {
        let env = |name: &str| match name {
            "GITHUB_RUN_ID" => Some("42".to_string()),
            "GITHUB_TOKEN" | "ACTIONS_RUNTIME_TOKEN" => Some("secret".to_string()),
            _ => None,
        };
        let passed = build_environment(env);
        assert_eq!(passed.get("GITHUB_RUN_ID").map(String::as_str), Some("42"));
        assert!(passed.values().all(|v| v != "secret"), "{passed:?}");
    }

    #[test]
    fn the_runner_gets_a_utf8_locale_when_the_environment_has_none() {
        let locale = |vars: &[(&str, &str)]| {
            let vars: Vec<(String, String)> =
                vars.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
            utf8_locale(move |name| vars.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()))
        };
        assert_eq!(locale(&[]), Some(("LC_CTYPE", "C.UTF-8")));
        assert_eq!(locale(&[("LANG", "C")]), Some(("LC_CTYPE", "C.UTF-8")));
        assert_eq!(locale(&[("LC_ALL", "POSIX"), ("LANG", "en_US.UTF-8")]), Some(("LC_ALL", "C.UTF-8")));
        assert_eq!(locale(&[("LANG", "de_DE.utf8")]), None);
        assert_eq!(locale(&[("LC_ALL", ""), ("LC_CTYPE", "en_US.UTF-8"), ("LANG", "C")]), None);
    }

    #[test]
    fn the_heap_limit_comes_from_the_machine_within_bounds() {
        let xmx = default_xmx();
        let mib: u64 = xmx.trim_end_matches('m').parse().unwrap_or(0);
        if std::env::var(XMX_ENV).is_err() {
            assert!((1024..=8192).contains(&mib), "{xmx}");
        }
    }

    #[test]
    fn the_pom_cache_is_the_environments_folder_off_or_the_users_cache() {
        assert_eq!(pom_cache(Some("/tmp/poms".into())), Some(PathBuf::from("/tmp/poms")));
        assert_eq!(pom_cache(Some("off".into())), None);
        let default = pom_cache(None);
        if let Some(dir) = crate::process::user_cache::dir() {
            assert_eq!(default, Some(dir.join("pom-cache")));
        }
    }
}
