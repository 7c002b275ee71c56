use anyhow::Result;

use crate::github::action::{self, Settings};

/// No flags: everything comes from the workflow's environment (see `action.yml`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

pub(crate) fn run(_args: Args) -> Result<u8> {
    let settings = Settings::from_env(&crate::process::secrets::var)?;
    if !settings.pass_env.is_empty() {
        crate::process::env::pass_through(settings.pass_env.clone());
    }
    if !settings.credential_urls.is_empty() {
        crate::validation::maven_settings::CredentialUrls::allow(settings.credential_urls.clone());
    }
    action::run(&settings)
}
