use anyhow::Result;

use super::analyze::RunArgs;
use crate::demo::DEMO;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub run: RunArgs,
}

/// Builds the example repository in a temporary directory and analyzes its migration PR.
pub(crate) fn run(args: Args) -> Result<u8> {
    let dir = tempfile::Builder::new().prefix("rewrite-assist-demo-").tempdir()?;
    let fixture = DEMO.build(&dir.path().join("shop"))?;
    eprintln!("demo: a small Maven project with one PR: \"{}\" (main..migration)", DEMO.title);
    let request = args.run.request(fixture.path.clone(), "main".into(), "migration".into(), "demo")?;
    super::analyze::execute(&request, args.run.json)
}
