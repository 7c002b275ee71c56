use anyhow::Result;

use crate::github::action::{self, Settings};

/// No flags: everything comes from the workflow's environment (see `action.yml`).
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<u8> {
    let settings = Settings::from_env(&|name| std::env::var(name).ok())?;
    action::run(&settings)
}
