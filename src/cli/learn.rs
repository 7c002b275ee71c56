use anyhow::Result;

use super::analyze::RunArgs;
use crate::error::{bad_input, exit};
use crate::learn::{self, PrSpec};

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A PR of the migration: `PATH@BASE..HEAD` (a work tree or bare repository, two commit-ishes);
    /// give two or more, from one repository or several
    #[arg(long = "pr", value_name = "PATH@BASE..HEAD", required = true)]
    pub prs: Vec<String>,
    #[command(flatten)]
    pub run: RunArgs,
}

pub(crate) fn run(args: Args) -> Result<u8> {
    let prs = args.prs.iter().map(|p| PrSpec::parse(p)).collect::<Result<Vec<_>>>()?;
    if prs.len() < 2 {
        return Err(bad_input("give at least two --pr: learning needs several PRs of one migration"));
    }
    let template =
        args.run.request(prs[0].repo.clone(), prs[0].base.clone(), prs[0].head.clone(), "learn")?;
    let learned = learn::learn(&prs, &template)?;
    if args.run.json {
        super::print_json(&learned)?;
    } else {
        print!("{}", std::fs::read_to_string(template.out_dir.join("learn.md"))?);
        println!("results in {}", template.out_dir.display());
    }
    eprintln!("rewrite-assist: artifacts: {}", template.out_dir.display());
    Ok(if learned.chosen.is_some() { exit::OK } else { exit::FAILURE })
}
