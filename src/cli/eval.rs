use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Subcommand;

use super::validate::VersionArgs;
use crate::error::exit;
use crate::eval::run::{self as eval_run, Event, Options};
use crate::eval::suite::{self, Defaults};
use crate::model::{CaseStatus, Shard, ShardResults};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: EvalCommand,
}

#[derive(Debug, Subcommand)]
pub enum EvalCommand {
    /// Run every case of a suite (or of one shard of it) through `analyze`.
    Run(RunArgs),
}

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The suite file (YAML: suite_name, defaults, cases).
    #[arg(long, value_name = "FILE")]
    pub suite: PathBuf,
    /// Run only shard I of N (1-based): the cases at positions I-1, I-1+N, I-1+2N, …
    #[arg(long, value_name = "I/N", default_value_t = Shard::ALL)]
    pub shard: Shard,
    /// Where the results go: one directory per case and shard-results.json. Must be new or empty
    /// [default: rewrite-assist-output/eval-<time>]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Recipe executions at once, per case [default: the suite's, else the number of CPUs]
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Limit of one recipe execution, in seconds [default: the suite's, else 900]
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<u64>,
    /// Limit of one case's analysis, in seconds [default: the suite's, else 2700]
    #[arg(long, value_name = "SECS")]
    pub max_wall: Option<u64>,
    /// Recipe executions per case, retries included [default: the suite's, else 10]
    #[arg(long, value_name = "N")]
    pub max_executions: Option<usize>,
    /// Refinement rounds per case [default: the suite's, else 2]
    #[arg(long, value_name = "N")]
    pub max_rounds: Option<usize>,
    /// Limit of each clone or fetch of a remote repository, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 600)]
    pub fetch_timeout: u64,
    #[command(flatten)]
    pub versions: VersionArgs,
    /// Print shard-results.json on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<u8> {
    match args.command {
        EvalCommand::Run(args) => run_suite(args),
    }
}

fn run_suite(args: RunArgs) -> Result<u8> {
    let suite = suite::load(&args.suite)?;
    let options = Options {
        shard: args.shard,
        out: args.out.unwrap_or_else(|| super::default_out_dir("eval")),
        overrides: Defaults {
            timeout: args.timeout.map(|v| v.max(1)),
            max_wall: args.max_wall.map(|v| v.max(1)),
            max_executions: args.max_executions,
            max_rounds: args.max_rounds,
            jobs: args.jobs.map(|v| v.max(1)),
        },
        versions: args.versions.resolve()?,
        network_timeout: Duration::from_secs(args.fetch_timeout.max(1)),
    };
    eprintln!(
        "eval: suite `{}`, shard {}: {} of {} cases, results in {}",
        suite.name,
        options.shard,
        options.shard.select(&suite.cases).len(),
        suite.cases.len(),
        options.out.display()
    );
    let shard = eval_run::run_suite(&suite, &options, &mut |event| match event {
        Event::Start { position, total, case } => eprintln!("eval: [{position}/{total}] {} …", case.name),
        Event::Done { position, total, result } => {
            let outcome = match &result.recommended {
                Some(r) => format!("F1 {:.4} (option {})", r.f1, r.option),
                None => result.reason.clone().unwrap_or_default(),
            };
            eprintln!(
                "eval: [{position}/{total}] {}: {} in {:.1} s: {outcome}",
                result.name,
                result.status.label(),
                result.wall_seconds
            );
        }
    })?;
    if args.json {
        super::print_json(&shard)?;
    } else {
        print!("{}", render_text(&shard, &options.out));
    }
    Ok(exit::OK)
}

/// The shard's table for the terminal.
fn render_text(shard: &ShardResults, out: &std::path::Path) -> String {
    let t = &shard.totals;
    let mut text = format!(
        "suite {} shard {}: {} cases, {} passed, {} failed, {} errors; average F1 {:.4}; {:.1} s\n",
        shard.suite_name, shard.shard, t.cases, t.passed, t.failed, t.errors, t.avg_f1, t.total_wall_seconds
    );
    let width = shard.cases.iter().map(|c| c.name.len()).max().unwrap_or(0);
    for case in &shard.cases {
        let detail = match case.status {
            CaseStatus::Passed => format!("F1 {:.4}  P {:.4}  R {:.4}", case.f1, case.precision, case.recall),
            _ => case.reason.clone().unwrap_or_default(),
        };
        text.push_str(&format!(
            "  {:<width$}  {:<6}  {:>7.1} s  {detail}\n",
            case.name,
            case.status.label(),
            case.wall_seconds
        ));
    }
    text.push_str(&format!("results in {}\n", out.display()));
    text
}
