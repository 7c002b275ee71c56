use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::error::exit;
use crate::setup::Repo;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Md,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The repository: a work tree or a bare git directory.
    #[arg(long, value_name = "PATH")]
    pub repo: PathBuf,
    /// The PR's base (any commit-ish: branch, tag, sha).
    #[arg(long, value_name = "REF")]
    pub base: String,
    /// The PR's head.
    #[arg(long, value_name = "REF")]
    pub head: String,
    /// What to print on stdout.
    #[arg(long, value_enum, default_value = "md")]
    pub format: Format,
    /// Also write DIR/intent-tree.md and DIR/intent-tree.json.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<u8> {
    let repo = Repo::open(&args.repo)?;
    let tree = crate::intents::extract(&repo, &args.base, &args.head)?;
    let markdown = crate::intents::render_markdown(&tree);
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let json = serde_json::to_string_pretty(&tree)? + "\n";
        std::fs::write(dir.join("intent-tree.json"), json).context("writing intent-tree.json")?;
        std::fs::write(dir.join("intent-tree.md"), &markdown).context("writing intent-tree.md")?;
    }
    match args.format {
        Format::Json => super::print_json(&tree)?,
        Format::Md => print!("{markdown}"),
    }
    Ok(exit::OK)
}
