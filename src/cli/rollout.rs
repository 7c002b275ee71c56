use std::path::PathBuf;

use anyhow::Result;
use clap::Subcommand;

use crate::error::exit;
use crate::github::RepoId;
use crate::github::rollout::Status;
use crate::github::rollout::table::Report;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    pub command: RolloutCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum RolloutCommand {
    /// Join the reports of `apply --shard I/N` jobs into one table (rollout.md, rollout.json).
    Merge(MergeArgs),
}

#[derive(Debug, clap::Args)]
pub(crate) struct MergeArgs {
    /// The shards' `--out` directories, each with its rollout.json.
    #[arg(required = true, value_name = "DIR", value_parser = super::paths::absolute)]
    pub dirs: Vec<PathBuf>,
    /// Where the joined rollout.md and rollout.json go [default: rewrite-assist-output/rollout-<time>]
    #[arg(long, value_name = "DIR", value_parser = super::paths::absolute)]
    pub out: Option<PathBuf>,
    /// Print the joined report as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Create or edit the campaign's dashboard issue in this repository (needs GITHUB_TOKEN with
    /// issues write there)
    #[arg(long, value_name = "OWNER/NAME", value_parser = repo_id)]
    pub dashboard: Option<RepoId>,
}

/// `owner/name`.
pub(super) fn repo_id(text: &str) -> std::result::Result<RepoId, String> {
    RepoId::parse(text).map_err(|e| e.to_string())
}

impl Args {
    pub(crate) fn json(&self) -> bool {
        match &self.command {
            RolloutCommand::Merge(args) => args.json,
        }
    }
}

pub(crate) fn run(args: Args) -> Result<u8> {
    match args.command {
        RolloutCommand::Merge(args) => merge(args),
    }
}

fn merge(args: MergeArgs) -> Result<u8> {
    let shards = args.dirs.iter().map(|dir| Report::read(dir)).collect::<Result<Vec<_>>>()?;
    let out = args.out.unwrap_or_else(|| super::default_out_dir("rollout"));
    let report = Report::merge(shards, &out)?;
    if let Some(repo) = &args.dashboard {
        dashboard(&report, repo)?;
    }
    show(&report, args.json)
}

/// Creates or edits the campaign's dashboard issue in `repo` with `report`'s rows.
pub(super) fn dashboard(report: &Report, repo: &RepoId) -> Result<()> {
    let config = crate::github::Config::from_env(&crate::process::secrets::var);
    if config.token.is_none() {
        return Err(crate::error::bad_input("GITHUB_TOKEN is not set: the dashboard issue needs a token"));
    }
    let gh = crate::github::GitHub::new(config)?;
    let now = jiff::Timestamp::now().strftime("%Y-%m-%d %H:%M").to_string();
    let url = crate::github::rollout::dashboard::update(&gh, repo, report, &now)?;
    eprintln!("rewrite-assist: dashboard: {url}");
    Ok(())
}

/// Writes the report to its artifacts directory and prints it (the table, or the JSON object);
/// exit code 1 when a repository failed.
pub(super) fn show(report: &Report, json: bool) -> Result<u8> {
    let table = report.write()?;
    if json {
        super::print_json(report)?;
    } else {
        print!("{table}");
    }
    let failed = report.results.iter().any(|o| matches!(o.status, Status::Failed { .. }));
    Ok(if failed { exit::FAILURE } else { exit::OK })
}
