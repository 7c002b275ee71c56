use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;

use super::pr_args::PrArgs;
use super::validate::{BackendArgs, VersionArgs};
use crate::error::exit;
use crate::model::RunStatus;
use crate::pipeline::{self, AnalysisRequest, Budgets, NoProgress, Progress};

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub pr: PrArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

/// Output and budgets, shared by `analyze`, `demo` and the action.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct RunArgs {
    /// Where the artifacts go [default: rewrite-assist-output/<command>-<time>]
    #[arg(long, value_name = "DIR", value_parser = super::paths::absolute)]
    pub out: Option<PathBuf>,
    /// Recipe executions at once [default: number of CPUs]
    #[arg(long, value_name = "N", value_parser = super::at_least_one())]
    pub jobs: Option<usize>,
    /// Limit of one recipe execution, in seconds.
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..), default_value_t = Budgets::default().per_execution.as_secs())]
    pub timeout: u64,
    /// Limit of the whole run, in seconds.
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..), default_value_t = Budgets::default().max_wall.as_secs())]
    pub max_wall: u64,
    /// Recipe executions in all (retries and refinement included).
    #[arg(long, value_name = "N", default_value_t = Budgets::default().max_executions)]
    pub max_executions: usize,
    /// Refinement rounds for option 3.
    #[arg(long, value_name = "N", default_value_t = Budgets::default().max_rounds)]
    pub max_rounds: usize,
    #[command(flatten)]
    pub backend: BackendArgs,
    #[command(flatten)]
    pub versions: VersionArgs,
    /// The build's directory inside the repository (a monorepo): the PR's changes elsewhere are
    /// left out, and recipes run from there [default: the repository root]
    #[arg(long, value_name = "DIR")]
    pub working_directory: Option<String>,
    /// Print the summary as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

impl RunArgs {
    pub(crate) fn request(
        &self,
        repo: PathBuf,
        base: String,
        head: String,
        command: &str,
    ) -> Result<AnalysisRequest> {
        Ok(AnalysisRequest {
            repo,
            base,
            head,
            out_dir: self.out.clone().unwrap_or_else(|| super::default_out_dir(command)),
            jobs: self
                .jobs
                .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2)),
            budgets: Budgets {
                max_wall: Duration::from_secs(self.max_wall.max(1)),
                per_execution: Duration::from_secs(self.timeout.max(1)),
                max_executions: self.max_executions,
                max_rounds: self.max_rounds,
            },
            versions: self.versions.resolve()?,
            backend: self.backend.backend,
            trust: self.backend.trust(),
            project_dir: match &self.working_directory {
                Some(text) => crate::setup::ProjectDir::parse(text)?,
                None => None,
            },
        })
    }
}

pub(crate) fn run(args: Args) -> Result<u8> {
    let request = args.run.request(args.pr.repo, args.pr.base, args.pr.head, "analyze")?;
    execute(&request, args.run.json)
}

/// Runs the pipeline with a spinner on a terminal and prints the summary.
pub(crate) fn execute(request: &AnalysisRequest, json: bool) -> Result<u8> {
    let spinner = pipeline::progress::Spinner::on_terminal();
    let progress: &dyn Progress = match &spinner {
        Some(s) => s,
        None => &NoProgress,
    };
    // Not even a run directory (or an interrupt in a long phase): `--json` still prints
    // `{"status": "failed", "reason": …}`, as `cli::main` promised.
    let (summary, fatal) = pipeline::analyze_to_end(request, progress)?;
    if json {
        super::print_json(&summary)?;
    } else if fatal.is_none() {
        print!("{}", pipeline::render_text(&summary));
    }
    if let Some(error) = fatal {
        return Err(error);
    }
    Ok(match summary.status {
        RunStatus::Success | RunStatus::Partial => exit::OK,
        RunStatus::Failed => exit::FAILURE,
    })
}
