use std::path::PathBuf;

use anyhow::Result;

use crate::error::{bad_input, exit};
use crate::fixtures::scenarios;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Which example: a scenario name, or `all`. Run with `--list` to see them.
    #[arg(required_unless_present = "list")]
    pub name: Option<String>,
    /// Directory to create the repository in (for `all`: one sub-directory per example).
    #[arg(long, value_name = "DIR", required_unless_present = "list", value_parser = super::paths::absolute)]
    pub out: Option<PathBuf>,
    /// List the examples.
    #[arg(long)]
    pub list: bool,
    /// Print what was built as JSON (path, base and head commits).
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: Args) -> Result<u8> {
    let all: Vec<&scenarios::Scenario> = scenarios::every().collect();
    if args.list {
        for s in &all {
            println!("{:<24} {}", s.name, s.title);
        }
        return Ok(exit::OK);
    }
    let (Some(name), Some(out)) = (args.name, args.out) else {
        return Err(bad_input("give an example name and --out DIR"));
    };
    crate::setup::out_dir::prepare(&out)?;
    let chosen: Vec<&scenarios::Scenario> = if name == "all" {
        all
    } else {
        vec![
            scenarios::by_name(&name)
                .ok_or_else(|| bad_input(format!("no example named `{name}` (see --list)")))?,
        ]
    };
    let mut built = Vec::new();
    for scenario in chosen {
        let dir = if name == "all" { out.join(scenario.name) } else { out.clone() };
        let fixture = scenario.build(&dir)?;
        built.push(serde_json::json!({
            "name": scenario.name,
            "title": scenario.title,
            "path": fixture.path,
            "base": fixture.base,
            "head": fixture.head,
        }));
    }
    if args.json {
        super::print_json(&built)?;
    } else {
        for b in &built {
            println!(
                "{}  {}  base {}  head {}",
                b["name"].as_str().unwrap_or(""),
                b["path"].as_str().unwrap_or(""),
                b["base"].as_str().unwrap_or(""),
                b["head"].as_str().unwrap_or("")
            );
        }
    }
    Ok(exit::OK)
}
