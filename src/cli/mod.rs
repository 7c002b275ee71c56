//! Command-line parsing, and one module per subcommand that turns parsed flags into a library call
//! and prints the result.

mod action;
mod analyze;
mod apply;
pub(crate) mod catalog;
mod demo;
mod eval;
#[cfg(feature = "fixtures")]
mod fixture;
mod intents;
mod learn;
mod metrics;
mod paths;
mod pr_args;
mod rollout;
mod validate;

use std::ffi::OsString;
use std::io::Write;

use clap::{Parser, Subcommand};

use crate::document::{Failed, FailedStatus};
use crate::error::{self, exit};
use crate::process::json_out;
use crate::validation::maven_settings::{CREDENTIAL_URLS_ENV, CredentialUrls};

/// Turn one migration pull request into a validated, reusable OpenRewrite recipe.
#[derive(Debug, Parser)]
#[command(name = "rewrite-assist", version, about, long_about = None)]
pub(crate) struct Cli {
    /// More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides it.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,

    /// Environment variables the build tools and the embedded runner may see, comma-separated names
    /// (e.g. MAVEN_USERNAME,MAVEN_PASSWORD: credentials a settings.xml takes as ${env.X}). They see
    /// only an allow-list otherwise; the values are never logged
    #[arg(long, global = true, value_name = "NAMES", env = PASS_ENV_ENV)]
    pub pass_env: Option<String>,

    /// Maven servers' credentials go only to the URLs the user's settings name for the server's id
    /// (a mirror, a profile's repository); this allows more, comma-separated ID=URL (e.g. a
    /// repository the project's own POM declares: company=https://nexus.acme.example/repository/)
    #[arg(long, global = true, value_name = "ID=URL,...", env = CREDENTIAL_URLS_ENV)]
    pub credential_url: Option<String>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Turn a PR (base..head) into validated recipes: intents, wide/narrow/synthesized options, decision.
    Analyze(analyze::Args),
    /// Run `analyze` on a built-in example PR (a small Maven project, built in a temporary directory).
    Demo(demo::Args),
    /// The intent tree of a PR: what it meant to do, with the diff lines behind each intent.
    Intents(intents::Args),
    /// The recipe catalog: search it, show a recipe, or regenerate it from the recipe jars.
    Catalog(catalog::Args),
    /// Learn one reusable recipe from several PRs of the same migration: the one that does best on all of them.
    Learn(learn::Args),
    /// Run a recipe for real on a temporary clone of the base commit and measure it against the PR.
    Validate(validate::Args),
    /// Precision, recall and F1 of a recipe's diff against a PR's diff.
    Metrics(metrics::Args),
    /// Eval batches: run a suite of PRs (sharded), merge the results, gate against a baseline.
    Eval(eval::Args),
    /// The GitHub Action's entry point: reads the workflow's environment and event (see action.yml).
    Action(action::Args),
    /// Roll a recipe out: run it on each repository and open one pull request where it changes something.
    Apply(Box<apply::Args>),
    /// Fleet rollouts: join the reports of `apply --shard` jobs.
    Rollout(rollout::Args),
    /// Create an example repository with a realistic migration PR (base on `main`, PR on `migration`).
    // Builds with the `fixtures` feature only (tests, benchmarks, the fixtures eval suite).
    #[cfg(feature = "fixtures")]
    Fixture(fixture::Args),
}

/// The environment variable behind `--pass-env`.
pub(crate) const PASS_ENV_ENV: &str = "REWRITE_ASSIST_PASS_ENV";

/// Parses `args` and runs the command; returns the process exit code.
pub(crate) fn main<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { exit::BAD_INPUT } else { exit::OK };
        }
    };
    crate::logging::init(cli.verbose);
    if wants_json(&cli.command) {
        // Replaced by the commands whose failure object has more to say (validate, analyze).
        json_out::promise(Box::new(|failure| {
            let failed = Failed { status: FailedStatus::Failed, reason: failure.reason() };
            serde_json::to_value(failed).unwrap_or_default()
        }));
    }
    let passed = match cli.pass_env.as_deref().map(crate::process::env::parse_pass_through) {
        Some(Err(e)) => Err(error::bad_input(format!("--pass-env: {e}"))),
        Some(Ok(names)) => {
            crate::process::env::pass_through(names);
            Ok(())
        }
        None => Ok(()),
    };
    crate::validation::maven_settings::remember_secrets();
    let passed = passed.and_then(|()| match cli.credential_url.as_deref().map(CredentialUrls::parse) {
        Some(Err(e)) => Err(error::bad_input(format!("--credential-url: {e}"))),
        Some(Ok(urls)) => {
            CredentialUrls::allow(urls);
            Ok(())
        }
        None => Ok(()),
    });
    let result = passed.and_then(|()| match cli.command {
        Command::Metrics(args) => metrics::run(args),
        Command::Validate(args) => validate::run(args),
        #[cfg(feature = "fixtures")]
        Command::Fixture(args) => fixture::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Learn(args) => learn::run(args),
        Command::Demo(args) => demo::run(args),
        Command::Intents(args) => intents::run(args),
        Command::Catalog(args) => catalog::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Action(args) => action::run(args),
        Command::Apply(args) => apply::run(*args),
        Command::Rollout(args) => rollout::run(args),
    });
    match result {
        // Whatever the command made of it, an interrupted run ends as one.
        Ok(_) | Err(_) if crate::process::interrupted() => {
            json_out::keep_promise(&json_out::Failure::Interrupted);
            let _ = writeln!(std::io::stderr(), "interrupted");
            exit::INTERRUPTED
        }
        Ok(code) => code,
        Err(e) => {
            json_out::keep_promise(&json_out::Failure::Error(&e));
            let _ = writeln!(std::io::stderr(), "error: {}", error::one_line(&e));
            error::exit_code_of(&e)
        }
    }
}

/// Whether the command prints one JSON object on stdout (`--json`): then it does so on every
/// path, its failures included.
fn wants_json(command: &Command) -> bool {
    match command {
        Command::Analyze(args) => args.run.json,
        Command::Demo(args) => args.run.json,
        Command::Intents(args) => args.json || args.format == intents::Format::Json,
        Command::Catalog(args) => args.json(),
        Command::Validate(args) => args.json,
        Command::Metrics(args) => args.json,
        Command::Eval(args) => args.json(),
        Command::Apply(args) => args.json,
        Command::Rollout(args) => args.json(),
        #[cfg(feature = "fixtures")]
        Command::Fixture(args) => args.json,
        Command::Learn(args) => args.run.json,
        Command::Action(_) => false,
    }
}

/// Writes `value` as one JSON document on stdout (once: see [`json_out`]).
pub(crate) fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    json_out::print(value)
}

/// `rewrite-assist-output/<command>-<UTC time>` under the current directory, as an absolute path
/// (see [`paths`]).
pub(crate) fn default_out_dir(command: &str) -> std::path::PathBuf {
    let now = jiff::Timestamp::now().strftime("%Y%m%d-%H%M%S");
    let relative = std::path::PathBuf::from("rewrite-assist-output").join(format!("{command}-{now}"));
    let base = std::path::absolute(&relative).unwrap_or(relative);
    // Reserved by creating it, so runs started in the same second never share a directory.
    if let Some(parent) = base.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    for n in 1..1000 {
        let candidate =
            if n == 1 { base.clone() } else { base.with_file_name(format!("{command}-{now}-{n}")) };
        match std::fs::create_dir(&candidate) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            // Other problems surface, with context, when the run writes there.
            _ => return candidate,
        }
    }
    base
}

/// Which recipe module ships a recipe, from the catalog (None: bundled with the plugins, or unknown).
pub(crate) fn artifact_lookup() -> impl Fn(&str) -> Option<crate::openrewrite::Coordinates> + Sync {
    |name: &str| crate::catalog::Catalog::embedded().artifact_for(name)
}

/// A count flag that must be at least 1 (`--jobs 0` would run nothing).
fn at_least_one() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
}
