use std::path::PathBuf;

use anyhow::Result;
use clap::Subcommand;

use crate::error::exit;
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
    show(&Report::merge(shards, &out)?, args.json)
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
