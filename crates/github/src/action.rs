//! `rewrite-assist action`: the container's entry point. Reads the workflow's environment and the
//! event, then walks the [`conversation`] table, performing each effect it names: reactions,
//! replies, the permission check, the analysis, the results comment, the job summary and outputs,
//! and migration PRs.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};

use super::command::{self, Command};
use super::comment;
use super::conversation::{self, Effect, Event, Reaction, Reply, State};
use super::event::{self, PullRequest};
use super::permissions::{self, Permission};
use super::pulls;
use super::remote::{self, Remote};
use super::report::{Links, Report};
use super::{GitHub, summary, user_message};
use crate::error::{bad_input, exit};
use crate::model::{PrKind, RunSummary, Verdict};
use crate::openrewrite::Versions;
use crate::pipeline::{self, Budgets, NoProgress};

/// Every environment variable the action reads. `action.yml` passes exactly these into the
/// container (a test checks that the two agree).
pub const ENV_VARS: &[&str] = &[
    "GITHUB_EVENT_NAME",
    "GITHUB_EVENT_PATH",
    "GITHUB_REPOSITORY",
    "GITHUB_API_URL",
    "GITHUB_TOKEN",
    "GITHUB_WORKSPACE",
    "GITHUB_STEP_SUMMARY",
    "GITHUB_OUTPUT",
    "GITHUB_SERVER_URL",
    "GITHUB_RUN_ID",
    "RUNNER_TEMP",
    "INPUT_MODE",
    "INPUT_TIMEOUT",
    "INPUT_RECIPE_ARTIFACTS",
    "INPUT_BACKEND",
    "INPUT_FAIL_UNDER",
    "INPUT_TRUST_BUILD_CONFIG",
    "INPUT_DEFAULT_TOKEN",
    "INPUT_WORKING_DIRECTORY",
    "INPUT_COMMENT",
    "INPUT_ENV",
    "INPUT_CREDENTIAL_URLS",
];

/// What automatic (pull_request, workflow_dispatch) runs publish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The results comment (default).
    Comment,
    /// The results comment, and the reusable recipe proposed as `rewrite.yml` when the verdict is
    /// ready to roll out.
    Pr,
    /// Nothing on the PR: job summary, outputs and artifacts only.
    None,
}

impl Mode {
    fn parse(text: &str) -> Result<Mode> {
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "comment" => Ok(Mode::Comment),
            "pr" => Ok(Mode::Pr),
            "none" => Ok(Mode::None),
            other => Err(bad_input(format!("input `mode` must be comment, pr or none, not `{other}`"))),
        }
    }
}

/// The action's configuration, from the workflow's environment.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `GITHUB_EVENT_NAME`: the event that started the workflow (`pull_request`, `issue_comment`,
    /// …).
    pub event_name: String,
    /// `GITHUB_EVENT_PATH`: the file holding the event's JSON payload.
    pub event_path: PathBuf,
    /// `GITHUB_REPOSITORY`.
    pub repository: Option<String>,
    /// `GITHUB_WORKSPACE`: the checked-out repository, used when it holds the PR (`.` when unset).
    pub workspace: PathBuf,
    /// `GITHUB_STEP_SUMMARY`: the file the job summary is appended to; None: no summary.
    pub step_summary: Option<PathBuf>,
    /// `GITHUB_OUTPUT`: the file the step outputs are written to; None: no outputs.
    pub output: Option<PathBuf>,
    /// `GITHUB_SERVER_URL`: the server's web address, for links and git
    /// ([`super::remote::DEFAULT_SERVER_URL`] when unset).
    pub server_url: String,
    /// `GITHUB_RUN_ID`: the workflow run, for links to it; None outside Actions.
    pub run_id: Option<String>,
    /// Where run directories go (`RUNNER_TEMP/rewrite-assist`).
    pub out_root: PathBuf,
    /// Input `mode`: what automatic runs publish.
    pub mode: Mode,
    /// The analysis's limits: the defaults, with input `timeout` (seconds) as the wall-time limit.
    pub budgets: Budgets,
    /// Input `fail-under`: the job fails when the recommended recipe's F1 (0 to 1; no recipe counts
    /// as 0) is below it; None: never.
    pub fail_under: Option<f64>,
    /// The OpenRewrite versions: the pins, with input `recipe-artifacts` overriding recipe modules.
    pub versions: Versions,
    /// Input `backend`: what validates the recipes.
    pub backend: crate::validation::choice::BackendChoice,
    /// Inputs `trust-build-config` and `backend`: how far a repository's build is trusted (the
    /// analysis of the action's own repository may run its build: see [`Bot::analyze`]).
    pub trust: crate::validation::trust::Trust,
    /// Whose token pushes: the workflow's own starts no checks on what it pushes.
    pub token: super::propose::PushToken,
    /// Input `comment`: when the results comment is written.
    pub comment: super::policy::CommentPolicy,
    /// Input `working-directory`: the build's directory in a monorepo.
    pub project_dir: Option<crate::setup::ProjectDir>,
    /// Input `env`: the variables the build tools and the embedded runner may see besides the
    /// allow-list (action.yml passes the same into the container).
    pub pass_env: Vec<String>,
    /// Where settings servers' credentials may go besides the URLs the settings name (input
    /// `credential-urls`).
    pub credential_urls: crate::validation::maven_settings::CredentialUrls,
    /// The REST client's configuration: `GITHUB_API_URL` and `GITHUB_TOKEN`.
    pub github: super::Config,
}

impl Settings {
    /// Reads the settings from `env` (`GITHUB_*` and action.yml's `INPUT_*`); a missing event or a
    /// bad input value is a bad input.
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<Settings> {
        let get = |name: &str| env(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        let event_name = get("GITHUB_EVENT_NAME").ok_or_else(|| {
            bad_input(
                "GITHUB_EVENT_NAME is not set: `rewrite-assist action` runs inside a GitHub Actions workflow",
            )
        })?;
        let event_path = get("GITHUB_EVENT_PATH")
            .map(PathBuf::from)
            .ok_or_else(|| bad_input("GITHUB_EVENT_PATH is not set"))?;
        let mut budgets = Budgets::default();
        if let Some(text) = get("INPUT_TIMEOUT") {
            let seconds: u64 = text.parse().ok().filter(|s| *s > 0).ok_or_else(|| {
                bad_input(format!("input `timeout` must be a number of seconds, not `{text}`"))
            })?;
            budgets.max_wall = Duration::from_secs(seconds);
            budgets.per_execution = budgets.per_execution.min(budgets.max_wall);
        }
        let fail_under = match get("INPUT_FAIL_UNDER") {
            None => None,
            Some(text) => {
                Some(text.parse::<f64>().ok().filter(|f| (0.0..=1.0).contains(f)).ok_or_else(|| {
                    bad_input(format!("input `fail-under` must be an F1 between 0 and 1, not `{text}`"))
                })?)
            }
        };
        let mut versions = Versions::from_env()?;
        if let Some(list) = get("INPUT_RECIPE_ARTIFACTS") {
            versions.overrides = crate::openrewrite::versions::parse_coordinates_list(&list)?;
        }
        let backend = match get("INPUT_BACKEND") {
            None => crate::validation::choice::BackendChoice::default(),
            Some(text) => {
                <crate::validation::choice::BackendChoice as clap::ValueEnum>::from_str(&text, true).map_err(
                    |_| bad_input(format!("input `backend` must be embedded, plugin or auto, not `{text}`")),
                )?
            }
        };
        let trusted = match get("INPUT_TRUST_BUILD_CONFIG").as_deref() {
            None | Some("false") => false,
            Some("true") => true,
            Some(text) => {
                return Err(bad_input(format!(
                    "input `trust-build-config` must be true or false, not `{text}`"
                )));
            }
        };
        // action.yml says whether GITHUB_TOKEN is the workflow's own token (it compares the
        // inputs with github.token); run outside the action, a token is someone's own.
        let token = match get("INPUT_DEFAULT_TOKEN").as_deref() {
            Some("true") => super::propose::PushToken::WorkflowDefault,
            _ => super::propose::PushToken::Own,
        };
        let out_root =
            get("RUNNER_TEMP").map(PathBuf::from).unwrap_or_else(std::env::temp_dir).join("rewrite-assist");
        Ok(Settings {
            event_name,
            event_path,
            repository: get("GITHUB_REPOSITORY"),
            workspace: get("GITHUB_WORKSPACE").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(".")),
            step_summary: get("GITHUB_STEP_SUMMARY").map(PathBuf::from),
            output: get("GITHUB_OUTPUT").map(PathBuf::from),
            server_url: get("GITHUB_SERVER_URL").unwrap_or_else(|| remote::DEFAULT_SERVER_URL.to_string()),
            run_id: get("GITHUB_RUN_ID"),
            out_root,
            mode: Mode::parse(&get("INPUT_MODE").unwrap_or_default())?,
            budgets,
            fail_under,
            versions,
            backend,
            trust: crate::validation::trust::Trust::of_run(trusted, backend),
            token,
            comment: super::policy::CommentPolicy::parse(&get("INPUT_COMMENT").unwrap_or_default())?,
            project_dir: match get("INPUT_WORKING_DIRECTORY") {
                Some(text) => crate::setup::ProjectDir::parse(&text)
                    .map_err(|e| bad_input(format!("input `working-directory`: {e}")))?,
                None => None,
            },
            pass_env: crate::process::env::parse_pass_through(&get("INPUT_ENV").unwrap_or_default())
                .map_err(|e| bad_input(format!("input `env`: {e}")))?,
            credential_urls: crate::validation::maven_settings::CredentialUrls::parse(
                &get("INPUT_CREDENTIAL_URLS").unwrap_or_default(),
            )
            .map_err(|e| bad_input(format!("input `credential-urls`: {e}")))?,
            github: super::Config::from_env(env),
        })
    }

    /// The trust of an analysis of a pull request of `repo`: the workflow's own repository's base
    /// commit is what its CI builds anyway, so its build may run (`auto`'s confirmation); another
    /// repository's (a `pr_url` elsewhere) only with `trust-build-config`.
    pub(crate) fn trust_for(&self, repo: &super::RepoId) -> crate::validation::trust::Trust {
        let own = self.repository.as_deref() == Some(repo.to_string().as_str());
        if own { self.trust.on_own_repository() } else { self.trust }
    }

    fn run_url(&self) -> Option<String> {
        Some(format!(
            "{}/{}/actions/runs/{}",
            self.server_url.trim_end_matches('/'),
            self.repository.as_ref()?,
            self.run_id.as_ref()?
        ))
    }
}

/// A finished analysis.
struct Analysis {
    summary: RunSummary,
    /// The commit the recipes ran on (the PR's merge base).
    base_commit: String,
    /// The repository holding the PR's commits.
    repo_path: PathBuf,
}

/// The bot's working memory while it walks the conversation.
struct Bot<'a> {
    settings: &'a Settings,
    gh: GitHub,
    remote: Remote,
    comment: Option<event::Comment>,
    command: Option<Command>,
    pr: Option<PullRequest>,
    analysis: Option<Analysis>,
    /// The run directory of the analysis, once it started (artifacts exist even when it failed).
    run_dir: Option<PathBuf>,
    /// The error of the last step that failed (for the reply).
    error: Option<anyhow::Error>,
    proposed: Option<super::propose::Proposed>,
    /// A temporary repository when the workspace does not hold the PR.
    scratch: Option<tempfile::TempDir>,
    /// A reply could not be posted: the user got no answer, so the job fails.
    undelivered: bool,
    /// The results comment, once written.
    comment_url: Option<String>,
    /// The job summary was written (the step outputs go with it).
    summarized: bool,
}

/// Runs the action; returns the exit code (1 when the work failed or `fail-under` tripped).
pub fn run(settings: &Settings) -> Result<u8> {
    if settings.github.token.is_none() {
        tracing::warn!("GITHUB_TOKEN is not set: API calls are unauthenticated");
    }
    let gh = GitHub::new(settings.github.clone())?;
    let remote = Remote::new(&settings.server_url, settings.github.token.clone());
    let mut bot = Bot {
        settings,
        gh,
        remote,
        comment: None,
        command: None,
        pr: None,
        analysis: None,
        run_dir: None,
        error: None,
        proposed: None,
        scratch: None,
        undelivered: false,
        comment_url: None,
        summarized: false,
    };
    let first = match bot.read_event().and_then(|event| bot.first_event(event)) {
        Ok(first) => first,
        Err(error) => {
            // Say so where the workflow's reader looks (the job summary), not only in the log.
            bot.error = Some(error);
            if let Err(e) = bot.write_summary().and_then(|()| bot.write_outputs()) {
                tracing::warn!("could not write the job summary: {}", crate::error::one_line(&e));
            }
            return Err(bot
                .error
                .take()
                .unwrap_or_else(|| anyhow::anyhow!("the event could not be handled")));
        }
    };
    let end = bot.converse(first)?;
    if let Err(e) = bot.write_outputs() {
        error_line(&format!("could not write the step outputs: {}", crate::error::one_line(&e)));
        return Ok(exit::FAILURE);
    }
    Ok(bot.exit_code(end))
}

impl Bot<'_> {
    fn first_event(&mut self, event: event::Event) -> Result<Event> {
        Ok(match event {
            event::Event::PullRequest(pr) => {
                self.pr = Some(pr);
                Event::PullRequestChanged
            }
            event::Event::Dispatch { pr_url } => {
                let (repo, number) = event::parse_pr_url(&pr_url)?;
                let pr = pulls::get(&self.gh, &repo, number).map_err(|e| {
                    let missing =
                        e.downcast_ref::<crate::github::client::ApiError>().and_then(|a| a.status())
                            == Some(404);
                    if missing {
                        bad_input(format!("{pr_url} was not found (or the token cannot see it)"))
                    } else {
                        e.context("reading the pull request")
                    }
                })?;
                self.pr = Some(pr);
                Event::Dispatched
            }
            event::Event::Comment(comment) => {
                let for_us =
                    comment.action == "created" && comment.on_pull_request && comment.author_type != "Bot";
                let command = if for_us { command::parse(&comment.body) } else { None };
                let event = match &command {
                    Some(c) => Event::Command(c.kind()),
                    None => Event::NotForUs,
                };
                self.comment = Some(comment);
                self.command = command;
                event
            }
            event::Event::Ignored(what) => {
                tracing::info!("nothing to do for {what}");
                Event::NotForUs
            }
        })
    }

    /// The workflow's event, from the file the runner wrote.
    fn read_event(&self) -> Result<event::Event> {
        let payload = event::read_payload(&self.settings.event_path)?;
        event::parse(&self.settings.event_name, &payload, self.settings.repository.as_deref())
    }

    /// Walks the table from `event` to a final state.
    fn converse(&mut self, mut event: Event) -> Result<State> {
        let mut state = State::Idle;
        loop {
            let (next, effects) = conversation::next(state, event)
                .with_context(|| format!("the conversation has no transition for {state:?} on {event:?}"))?;
            tracing::info!("{state:?} --{event:?}--> {next:?}");
            state = next;
            let mut reported = None;
            for effect in effects {
                if let Some(e) = self.perform(*effect)? {
                    reported = Some(e);
                }
            }
            match reported {
                Some(e) => event = e,
                None if state.is_final() => return Ok(state),
                None => bail!("{state:?} is waiting for an event no effect reported"),
            }
        }
    }

    fn perform(&mut self, effect: Effect) -> Result<Option<Event>> {
        match effect {
            Effect::React(reaction) => {
                // A 🚀 would tell the user the command worked while they got no answer.
                let reaction = match reaction {
                    Reaction::Rocket if self.undelivered => Reaction::Confused,
                    other => other,
                };
                if let Some(c) = &self.comment
                    && let Err(e) = comment::react(&self.gh, &c.repo, c.id, reaction)
                {
                    warn(&format!("could not react to the comment: {}", crate::error::one_line(&e)));
                }
                Ok(None)
            }
            Effect::Reply(kind) => {
                let text = self.reply_text(kind);
                if let Some(c) = &self.comment
                    && let Err(e) = comment::reply(&self.gh, &c.repo, c.issue, &text)
                {
                    error_line(&format!("could not reply: {}", crate::error::one_line(&e)));
                    self.undelivered = true;
                }
                Ok(None)
            }
            Effect::CheckPermission => Ok(Some(self.check_permission())),
            Effect::Analyze => {
                let event = self.outcome(|bot| bot.analyze(), Event::Analyzed);
                Ok(Some(match self.analysis.as_ref().map(|a| a.summary.pr_kind) {
                    Some(PrKind::Ordinary) if event == Event::Analyzed => Event::AnalyzedOrdinary,
                    _ => event,
                }))
            }
            // A summary or comment that cannot be written must not cut the conversation short:
            // the remaining effects (reply, reaction, migration PR) still happen, and the run
            // fails at the end.
            Effect::WriteSummary => {
                if let Err(e) = self.write_summary() {
                    error_line(&format!("could not write the job summary: {}", crate::error::one_line(&e)));
                    self.undelivered = true;
                }
                Ok(None)
            }
            Effect::UpsertResults | Effect::UpsertOrdinary | Effect::UpsertFailure => {
                if let Err(e) = self.upsert(effect) {
                    error_line(&crate::error::one_line(&e));
                    self.undelivered = true;
                }
                Ok(None)
            }
            Effect::AutoProposeRecipe => {
                self.auto_propose();
                Ok(None)
            }
            Effect::ProposeRecipe => {
                Ok(Some(self.outcome(|bot| bot.propose_recipe(), Event::RecipeProposed)))
            }
        }
    }

    /// Runs a step that reports an event: success, a user error, or an internal one.
    fn outcome(&mut self, step: impl FnOnce(&mut Self) -> Result<()>, success: Event) -> Event {
        match step(self) {
            Ok(()) => success,
            Err(error) => {
                let user = user_message(&error).is_some();
                if user {
                    tracing::warn!("{}", crate::error::one_line(&error));
                } else {
                    error_line(&crate::error::one_line(&error));
                }
                self.error = Some(error);
                if user { Event::UserError } else { Event::InternalError }
            }
        }
    }

    fn check_permission(&mut self) -> Event {
        let Some(c) = &self.comment else { return Event::PermissionUnknown };
        match permissions::check(&self.gh, &c.repo, &c.author, &c.author_association) {
            Permission::Write => Event::PermissionGranted,
            Permission::NoWrite(why) => {
                tracing::info!("@{} may not run commands ({why})", c.author);
                Event::PermissionDenied
            }
            Permission::CouldNotVerify(why) => {
                warn(&format!("could not verify the permission of @{}: {why}", c.author));
                Event::PermissionUnknown
            }
        }
    }

    /// The PR being worked on: from the event, or read from the API for a comment.
    fn pull_request(&mut self) -> Result<PullRequest> {
        if let Some(pr) = &self.pr {
            return Ok(pr.clone());
        }
        let c = self.comment.as_ref().context("no pull request in this event")?;
        let pr = pulls::get(&self.gh, &c.repo, c.issue).context("reading the pull request")?;
        self.pr = Some(pr.clone());
        Ok(pr)
    }

    fn analyze(&mut self) -> Result<()> {
        let pr = self.pull_request()?;
        let repo_path = self.prepare_repository(&pr)?;
        let base_commit = merge_base(&repo_path, &pr.base_sha, &pr.head_sha);
        let run = self.settings.run_id.as_deref().unwrap_or("local");
        let dir = self.settings.project_dir.as_ref();
        let out_dir = self.settings.out_root.join(format!(
            "run-{run}-pr-{}{}",
            pr.number,
            super::monorepo::suffix(dir)
        ));
        if out_dir.exists() {
            // Ours, from an earlier attempt of this run: start clean so no stale option lingers.
            std::fs::remove_dir_all(&out_dir).with_context(|| format!("clearing {}", out_dir.display()))?;
        }
        tracing::info!("analyzing {}#{} ({}..{})", pr.repo, pr.number, &base_commit, &pr.head_sha);
        self.run_dir = Some(out_dir.clone());
        let request = pipeline::AnalysisRequest {
            repo: repo_path.clone(),
            base: base_commit.clone(),
            head: pr.head_sha.clone(),
            out_dir,
            jobs: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2),
            budgets: self.settings.budgets,
            versions: self.settings.versions.clone(),
            backend: self.settings.backend,
            trust: self.settings.trust_for(&pr.repo),
            project_dir: self.settings.project_dir.clone(),
        };
        let summary = pipeline::analyze(&request, &NoProgress)?;
        print!("{}", pipeline::render_text(&summary));
        // On the PR's files, what the recipe leaves to do by hand.
        for notice in super::annotations::of_run(&summary) {
            println!("{notice}");
        }
        // Where the recipe came from, for a rollout from these artifacts.
        let source = super::source::SourcePr::of(&pr, &self.settings.server_url, dir);
        super::source::write(std::path::Path::new(&summary.artifacts_dir), &source)?;
        self.analysis = Some(Analysis { summary, base_commit, repo_path });
        Ok(())
    }

    /// A local repository holding the PR's base and head commits: the workspace (fetching what it
    /// lacks), or a temporary bare repository when the workspace is another repository.
    fn prepare_repository(&mut self, pr: &PullRequest) -> Result<PathBuf> {
        let workspace = &self.settings.workspace;
        let same_repo = self.settings.repository.as_deref() == Some(pr.repo.to_string().as_str());
        let path = if same_repo && crate::setup::Repo::open(workspace).is_ok() {
            workspace.clone()
        } else {
            let scratch = tempfile::Builder::new().prefix("rewrite-assist-pr-").tempdir()?;
            let bare = scratch.path().join("repo.git");
            crate::setup::git::git_output(scratch.path(), ["init", "--quiet", "--bare", "repo.git"])?;
            self.scratch = Some(scratch);
            bare
        };
        let has = |sha: &str| {
            crate::setup::git::git_output(
                &path,
                ["cat-file", "-e", "--end-of-options", &format!("{sha}^{{commit}}")],
            )
            .is_ok()
        };
        if !(has(&pr.base_sha) && has(&pr.head_sha)) {
            let refspecs = vec![
                format!("+refs/heads/{}:refs/remotes/rewrite-assist/base", pr.base_ref),
                format!("+refs/pull/{}/head:refs/remotes/rewrite-assist/pr-{}", pr.number, pr.number),
            ];
            self.remote.fetch(&path, &pr.repo, &refspecs).context("fetching the pull request's commits")?;
            for sha in [&pr.base_sha, &pr.head_sha] {
                if !has(sha) {
                    bail!("commit {sha} of {}#{} is not available, even after fetching", pr.repo, pr.number);
                }
            }
        }
        Ok(path)
    }

    fn links(&self) -> Links {
        Links { run_url: self.settings.run_url(), head_sha: self.pr.as_ref().map(|pr| pr.head_sha.clone()) }
    }

    fn pr_label(&self) -> String {
        self.pr
            .as_ref()
            .map(|pr| format!("{}#{}", pr.repo, pr.number))
            .unwrap_or_else(|| "the pull request".into())
    }

    fn error_markdown(&self) -> String {
        match self.error.as_ref().and_then(user_message) {
            Some(text) => text,
            None => format!(
                "Something went wrong on my side; nothing was changed. The details are in the log of the {}.",
                self.links().run_link()
            ),
        }
    }

    fn write_summary(&mut self) -> Result<()> {
        self.summarized = true;
        if let Some(path) = &self.settings.step_summary {
            let markdown = match &self.analysis {
                Some(a) if a.summary.pr_kind == PrKind::Ordinary => {
                    super::verdict::ordinary_summary(&a.summary, &self.links(), &self.pr_label())
                }
                Some(a) => summary::render(&Report::load(a.summary.clone()), &self.links(), &self.pr_label()),
                None => summary::render_failure(&self.error_markdown(), &self.pr_label()),
            };
            summary::append(path, &markdown)?;
        }
        Ok(())
    }

    /// The step outputs, once everything is published (the migration PR and the comment too). A
    /// run that wrote no summary (a comment not for the bot, a refused command) has none.
    fn write_outputs(&self) -> Result<()> {
        let Some(path) = &self.settings.output else { return Ok(()) };
        if !self.summarized {
            return Ok(());
        }
        let published = summary::Published {
            pr: self.proposed.as_ref().and_then(|p| p.pull_request()).map(|o| (o.url.clone(), o.number)),
            comment_url: self.comment_url.clone(),
        };
        let outputs =
            summary::outputs(self.analysis.as_ref().map(|a| &a.summary), &self.artifacts_dir(), &published);
        summary::write_outputs(path, &outputs)
    }

    /// Where the run's files are: the analysis's directory, else the run directory, else the root.
    fn artifacts_dir(&self) -> PathBuf {
        match (&self.analysis, &self.run_dir) {
            (Some(a), _) => PathBuf::from(&a.summary.artifacts_dir),
            (None, Some(dir)) if dir.exists() => dir.clone(),
            (None, _) => self.settings.out_root.clone(),
        }
    }

    fn upsert(&mut self, effect: Effect) -> Result<()> {
        use super::policy::{Trigger, posts_failure, posts_results};
        let trigger = if self.comment.is_some() { Trigger::Command } else { Trigger::Automatic };
        let (mode, policy) = (self.settings.mode, self.settings.comment);
        let wanted = match (&self.analysis, effect) {
            (Some(a), Effect::UpsertResults | Effect::UpsertOrdinary) => {
                posts_results(mode, policy, a.summary.pr_kind, trigger)
            }
            _ => trigger == Trigger::Command || posts_failure(mode, policy),
        };
        let Some(pr) = self.pr.as_ref().filter(|_| wanted) else { return Ok(()) };
        let marker = super::monorepo::marker(self.settings.project_dir.as_ref());
        let body = match (&self.analysis, effect) {
            (Some(a), Effect::UpsertResults | Effect::UpsertOrdinary) => {
                comment::render_results(&Report::load(a.summary.clone()), &self.links(), &marker)
            }
            _ => comment::render_failure(&self.error_markdown(), &self.links(), &marker),
        };
        match comment::upsert_results(&self.gh, &pr.repo, pr.number, &body) {
            Ok(upserted) => {
                tracing::info!("results comment {upserted:?}");
                self.comment_url = Some(upserted.url().to_string()).filter(|u| !u.is_empty());
            }
            // Fork PRs run with a read-only token: the job summary still has the results.
            Err(e) if pr.is_from_fork() && super::client::status_of(&e) == Some(403) => warn(
                "the token may not comment on this fork's pull request; the results are in the job summary",
            ),
            Err(e) => return Err(e.context("writing the results comment")),
        }
        Ok(())
    }

    /// `mode: pr`: the reusable recipe proposed when it is ready to roll out.
    fn auto_propose(&mut self) {
        let ready = self.analysis.as_ref().is_some_and(|a| a.summary.verdict == Verdict::ReadyToRollOut);
        if self.settings.mode != Mode::Pr || !ready {
            return;
        }
        match self.proposal(None) {
            Ok(proposed) => {
                tracing::info!("recipe proposed: {proposed:?}");
                self.proposed = Some(proposed);
            }
            Err(e) => warn(&format!("could not propose the recipe: {}", crate::error::one_line(&e))),
        }
    }

    fn propose_recipe(&mut self) -> Result<()> {
        let asked = match &self.command {
            Some(Command::Apply(choice)) => *choice,
            _ => None,
        };
        self.proposed = Some(self.proposal(asked)?);
        Ok(())
    }

    fn proposal(&self, choice: Option<super::choice::RecipeChoice>) -> Result<super::propose::Proposed> {
        let analysis = self.analysis.as_ref().context("no analysis to apply")?;
        let pr = self.pr.as_ref().context("no pull request")?;
        super::propose::propose(
            &self.gh,
            &self.remote,
            &super::propose::Proposal {
                pr,
                summary: &analysis.summary,
                source: &analysis.repo_path,
                base_commit: &analysis.base_commit,
                choice,
                versions: &self.settings.versions,
                project_dir: self.settings.project_dir.as_ref(),
                token: self.settings.token,
                server_url: &self.settings.server_url,
            },
        )
    }

    fn reply_text(&self, kind: Reply) -> String {
        let login = self.comment.as_ref().map(|c| c.author.as_str()).unwrap_or("there");
        match kind {
            Reply::Help => command::help(),
            Reply::UnknownCommand => {
                let said = match &self.command {
                    Some(Command::Unknown(text)) => {
                        format!("`{} {}`", command::PREFIX, text.replace('`', "'"))
                    }
                    _ => "that".to_string(),
                };
                format!("I did not understand {said}.\n\n{}", command::help())
            }
            Reply::NeedsWrite => permissions::needs_write_reply(login),
            Reply::CouldNotVerify => permissions::could_not_verify_reply(login),
            Reply::UserError | Reply::InternalError => self.error_markdown(),
            Reply::RecipeProposed => match (&self.proposed, &self.pr) {
                (Some(proposed), Some(pr)) => {
                    super::propose::reply(proposed, &self.settings.server_url, &pr.repo)
                }
                _ => "The recipe is proposed.".to_string(),
            },
            Reply::NoMigration => match &self.analysis {
                Some(a) => super::verdict::no_migration_reply(&a.summary),
                None => "No migration found in this pull request.".to_string(),
            },
        }
    }

    fn exit_code(&self, end: State) -> u8 {
        // The gate judges analyses: every automatic run, and slash runs that got to analyze.
        let judged = self.analysis.is_some() || self.comment.is_none() && end != State::Ignored;
        if let (Some(threshold), true) = (self.settings.fail_under, judged) {
            let f1 =
                self.analysis.as_ref().and_then(|a| a.summary.recommended.as_ref()).map_or(0.0, |r| r.f1);
            if f1 < threshold {
                error_line(&format!("the recommended recipe's F1 {f1:.4} is below fail-under {threshold}"));
                return exit::FAILURE;
            }
        }
        match end {
            State::Failed => exit::FAILURE,
            _ if self.undelivered => exit::FAILURE,
            _ => exit::OK,
        }
    }
}

/// The PR's merge base (what GitHub diffs against); the base commit when there is none.
fn merge_base(repo: &Path, base: &str, head: &str) -> String {
    crate::setup::git::git_output(repo, ["merge-base", "--end-of-options", base, head])
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| base.to_string())
}

/// A warning in the log and as a workflow annotation.
fn warn(message: &str) {
    tracing::warn!("{message}");
    println!("::warning::{}", super::annotations::escape_data(message));
}

fn error_line(message: &str) {
    tracing::error!("{message}");
    println!("::error::{}", super::annotations::escape_data(message));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: std::collections::HashMap<String, String> =
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |name| map.get(name).cloned()
    }

    const BASE: &[(&str, &str)] =
        &[("GITHUB_EVENT_NAME", "pull_request"), ("GITHUB_EVENT_PATH", "/tmp/e.json")];

    #[test]
    fn settings_from_the_environment() {
        let mut pairs = BASE.to_vec();
        pairs.extend([
            ("INPUT_MODE", "PR"),
            ("INPUT_TIMEOUT", "600"),
            ("INPUT_FAIL_UNDER", "0.8"),
            ("INPUT_RECIPE_ARTIFACTS", "org.example:recipes:1.0"),
            ("INPUT_BACKEND", "Plugin"),
            ("INPUT_TRUST_BUILD_CONFIG", "true"),
            ("INPUT_ENV", "MAVEN_USERNAME,\nMAVEN_PASSWORD"),
            ("GITHUB_REPOSITORY", "acme/shop"),
            ("GITHUB_RUN_ID", "42"),
            ("RUNNER_TEMP", "/runner/tmp"),
        ]);
        let s = Settings::from_env(&env(&pairs)).unwrap();
        assert_eq!(s.mode, Mode::Pr);
        assert_eq!(s.budgets.max_wall, Duration::from_secs(600));
        assert_eq!(s.budgets.per_execution, Duration::from_secs(600));
        assert_eq!(s.fail_under, Some(0.8));
        assert_eq!(s.versions.overrides.len(), 1);
        assert_eq!(s.backend, crate::validation::choice::BackendChoice::Plugin);
        assert_eq!(s.trust, crate::validation::trust::Trust::Trusted);
        assert_eq!(s.out_root, PathBuf::from("/runner/tmp/rewrite-assist"));
        assert_eq!(s.run_url().as_deref(), Some("https://github.com/acme/shop/actions/runs/42"));
        assert_eq!(s.github.api_url, "https://api.github.com");
        assert_eq!(s.pass_env, ["MAVEN_USERNAME", "MAVEN_PASSWORD"]);
    }

    #[test]
    fn only_the_workflows_own_repository_may_run_its_build_untrusted() {
        use crate::validation::trust::{Trust, Voucher};
        let mut pairs = BASE.to_vec();
        pairs.push(("GITHUB_REPOSITORY", "acme/shop"));
        let s = Settings::from_env(&env(&pairs)).unwrap();
        let own = super::super::RepoId::parse("acme/shop").unwrap();
        let other = super::super::RepoId::parse("someone/else").unwrap();
        assert_eq!(s.trust_for(&own), Trust::BuildRuns(Voucher::OwnRepository));
        assert_eq!(s.trust_for(&other), Trust::Untrusted);
        pairs.push(("INPUT_TRUST_BUILD_CONFIG", "true"));
        let trusted = Settings::from_env(&env(&pairs)).unwrap();
        assert_eq!(trusted.trust_for(&other), Trust::Trusted);
    }

    #[test]
    fn defaults_and_bad_inputs() {
        let s = Settings::from_env(&env(BASE)).unwrap();
        assert_eq!((s.mode, s.fail_under), (Mode::Comment, None));
        assert_eq!(s.budgets, Budgets::default());
        assert_eq!(s.backend, crate::validation::choice::BackendChoice::Auto);
        assert_eq!(s.trust, crate::validation::trust::Trust::Untrusted);
        for (name, value) in [
            ("INPUT_TRUST_BUILD_CONFIG", "yes"),
            ("INPUT_MODE", "loud"),
            ("INPUT_TIMEOUT", "soon"),
            ("INPUT_FAIL_UNDER", "1.5"),
            ("INPUT_BACKEND", "gradle"),
            ("INPUT_ENV", "GITHUB_TOKEN"),
        ] {
            let mut pairs = BASE.to_vec();
            pairs.push((name, value));
            let error = Settings::from_env(&env(&pairs)).unwrap_err();
            assert_eq!(crate::error::exit_code_of(&error), exit::BAD_INPUT, "{name}");
        }
        assert!(Settings::from_env(&env(&[])).is_err(), "outside a workflow");
    }

    #[test]
    fn the_env_list_has_no_duplicates() {
        for (i, name) in ENV_VARS.iter().enumerate() {
            assert!(!ENV_VARS[i + 1..].contains(name), "{name}");
        }
    }
}
