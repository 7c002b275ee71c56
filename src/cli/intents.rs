use std::path::PathBuf;

use anyhow::{Context, Result};

use super::pr_args::PrArgs;
use crate::error::exit;
use crate::setup::Repo;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    Md,
    Json,
}

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub pr: PrArgs,
    /// Print the tree as JSON (intent-tree.json) instead of markdown, like the other commands.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// What to print on stdout (`--json` is the same as `--format json`).
    #[arg(long, value_enum, default_value = "md")]
    pub format: Format,
    /// Also write DIR/intent-tree.md and DIR/intent-tree.json.
    #[arg(long, value_name = "DIR", value_parser = super::paths::absolute)]
    pub out: Option<PathBuf>,
}

pub(crate) fn run(args: Args) -> Result<u8> {
    if let Some(dir) = &args.out {
        crate::setup::out_dir::prepare(dir)?;
    }
    let repo = Repo::open(&args.pr.repo)?;
    let tree = crate::intents::extract(&repo, &args.pr.base, &args.pr.head, None)?;
    let markdown = crate::intents::render_markdown(&tree);
    if let Some(dir) = &args.out {
        let json = crate::document::to_json(&tree)?;
        std::fs::write(dir.join("intent-tree.json"), json).context("writing intent-tree.json")?;
        std::fs::write(dir.join("intent-tree.md"), &markdown).context("writing intent-tree.md")?;
    }
    match if args.json { Format::Json } else { args.format } {
        Format::Json => super::print_json(&tree)?,
        Format::Md => print!("{markdown}"),
    }
    Ok(exit::OK)
}
