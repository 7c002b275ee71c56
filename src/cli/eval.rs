use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Subcommand;

use super::validate::{BackendArgs, VersionArgs};
use crate::error::{bad_input, exit};
use crate::eval::cache::{self, CACHE_ENV, CloneCache};
use crate::eval::gate::{
    DEFAULT_MAX_F1_DROP, DEFAULT_MAX_SEMANTIC_DROP, DEFAULT_MAX_TRANSFER_DROP, Tolerances,
};
use crate::eval::run::{Event, Options};
use crate::eval::suite::{self, Defaults};
use crate::eval::{aggregate, run as eval_run};
use crate::model::{CaseStatus, Shard, ShardResults};

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    pub command: EvalCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum EvalCommand {
    /// Run every case of a suite (or of one shard of it) through `analyze`.
    Run(RunArgs),
    /// Merge `eval run` outputs into summary.md and suite-results.json; gate against a baseline.
    Aggregate(AggregateArgs),
    /// The clone cache of `eval run --cache`: fill it from local repositories, list it.
    #[command(subcommand)]
    Cache(CacheCommand),
}

#[derive(Debug, Subcommand)]
pub(crate) enum CacheCommand {
    /// Put a local repository (bare or work tree) into the cache as the clone of URL, so cases of
    /// URL run offline; an entry that exists already fetches what PATH has and it lacks.
    Add(CacheAddArgs),
    /// The cached clones: key, remote URL, path.
    List(CacheListArgs),
}

#[derive(Debug, clap::Args)]
pub(crate) struct CacheDir {
    /// The cache directory (bare clones at <host>/<owner>/<name>.git).
    #[arg(long, value_name = "DIR", env = CACHE_ENV, value_parser = super::paths::absolute)]
    pub cache: PathBuf,
}

#[derive(Debug, clap::Args)]
pub(crate) struct CacheAddArgs {
    #[command(flatten)]
    pub dir: CacheDir,
    /// The repository URL as the suite writes it (https://github.com/OWNER/NAME.git).
    #[arg(value_name = "URL")]
    pub url: String,
    /// A local git repository holding that repository's commits.
    #[arg(value_name = "PATH", value_parser = super::paths::absolute)]
    pub path: PathBuf,
}

#[derive(Debug, clap::Args)]
pub(crate) struct CacheListArgs {
    #[command(flatten)]
    pub dir: CacheDir,
    /// Print a JSON array instead of the table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub(crate) struct RunArgs {
    /// The suite file (YAML: suite_name, defaults, cases).
    #[arg(long, value_name = "FILE", value_parser = super::paths::absolute)]
    pub suite: PathBuf,
    /// Run only shard I of N (1-based): the cases at positions I-1, I-1+N, I-1+2N, …
    #[arg(long, value_name = "I/N", default_value_t = Shard::ALL)]
    pub shard: Shard,
    /// Where the results go: one directory per case and shard-results.json. Must be new or empty
    /// [default: rewrite-assist-output/eval-<time>]
    #[arg(long, value_name = "DIR", value_parser = super::paths::absolute)]
    pub out: Option<PathBuf>,
    /// Recipe executions at once, per case [default: the suite's, else the number of CPUs]
    #[arg(long, value_name = "N", value_parser = super::at_least_one())]
    pub jobs: Option<usize>,
    /// Cases analyzed at once, each worker with one embedded runner that serves case after case
    /// (the runners share half the machine's memory as heap) [default: one per CPU, at most one
    /// per 6 GiB of memory]
    #[arg(long, value_name = "N", value_parser = super::at_least_one())]
    pub workers: Option<usize>,
    /// Limit of one recipe execution, in seconds [default: the suite's, else 900]
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: Option<u64>,
    /// Limit of one case's analysis, in seconds [default: the suite's, else 2700]
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_wall: Option<u64>,
    /// Recipe executions per case, retries included [default: the suite's, else 10]
    #[arg(long, value_name = "N")]
    pub max_executions: Option<usize>,
    /// Refinement rounds per case [default: the suite's, else 2]
    #[arg(long, value_name = "N")]
    pub max_rounds: Option<usize>,
    /// Limit of each clone or fetch of a remote repository, in seconds.
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..), default_value_t = 600)]
    pub fetch_timeout: u64,
    /// Keep bare clones of remote repositories here between runs (<host>/<owner>/<name>.git) and
    /// fetch only commits they lack; without it, clones are temporary.
    #[arg(long, value_name = "DIR", env = CACHE_ENV, value_parser = super::paths::absolute)]
    pub cache: Option<PathBuf>,
    #[command(flatten)]
    pub backend: BackendArgs,
    #[command(flatten)]
    pub versions: VersionArgs,
    /// Print shard-results.json on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub(crate) struct AggregateArgs {
    /// `eval run` output directories (searched recursively for case-result.json).
    #[arg(required = true, value_name = "DIR", value_parser = super::paths::absolute)]
    pub dirs: Vec<PathBuf>,
    /// Where summary.md and suite-results.json go.
    #[arg(long, value_name = "DIR", value_parser = super::paths::absolute)]
    pub out: PathBuf,
    /// A suite-results.json to compare with (e.g. evals/checkpoints/<suite>.json).
    #[arg(long, value_name = "FILE", value_parser = super::paths::absolute)]
    pub baseline: Option<PathBuf>,
    /// Largest tolerated drop of the average F1 against the baseline.
    #[arg(long, value_name = "F1", default_value_t = DEFAULT_MAX_F1_DROP)]
    pub max_f1_drop: f64,
    /// Largest tolerated drop of the average semantic share against the baseline.
    #[arg(long, value_name = "SHARE", default_value_t = DEFAULT_MAX_SEMANTIC_DROP)]
    pub max_semantic_drop: f64,
    /// Largest tolerated drop of the average transfer F1 against the baseline.
    #[arg(long, value_name = "F1", default_value_t = DEFAULT_MAX_TRANSFER_DROP)]
    pub max_transfer_drop: f64,
    /// The history of the last runs (a history.json): this run is appended, the result written to
    /// --out/history.json and charted in summary.md. A file that does not exist starts one.
    #[arg(long, value_name = "FILE", value_parser = super::paths::absolute)]
    pub history: Option<PathBuf>,
    /// This run's label on the charts [default: today's UTC date]
    #[arg(long, value_name = "LABEL")]
    pub history_label: Option<String>,
    /// How many runs the history keeps.
    #[arg(long, value_name = "N", default_value_t = crate::eval::trend::DEFAULT_KEEP, value_parser = super::at_least_one())]
    pub history_keep: usize,
    /// Print suite-results.json on stdout instead of summary.md.
    #[arg(long)]
    pub json: bool,
}

impl Args {
    /// Whether the command prints JSON (`--json`).
    pub(crate) fn json(&self) -> bool {
        match &self.command {
            EvalCommand::Run(args) => args.json,
            EvalCommand::Aggregate(args) => args.json,
            EvalCommand::Cache(CacheCommand::List(args)) => args.json,
            EvalCommand::Cache(CacheCommand::Add(_)) => false,
        }
    }
}

pub(crate) fn run(args: Args) -> Result<u8> {
    match args.command {
        EvalCommand::Run(args) => run_suite(args),
        EvalCommand::Aggregate(args) => aggregate_results(args),
        EvalCommand::Cache(CacheCommand::Add(args)) => cache_add(args),
        EvalCommand::Cache(CacheCommand::List(args)) => cache_list(args),
    }
}

fn cache_add(args: CacheAddArgs) -> Result<u8> {
    let cache = CloneCache::open(&args.dir.cache)?;
    cache::key(&args.url).map_err(|e| bad_input(e.to_string()))?;
    let entry = cache.add(&args.url, &args.path)?;
    println!("{} -> {}", args.url, entry.display());
    Ok(exit::OK)
}

fn cache_list(args: CacheListArgs) -> Result<u8> {
    let cache = CloneCache::open(&args.dir.cache)?;
    let entries = cache.list()?;
    if args.json {
        super::print_json(&cache::Listing { entries })?;
        return Ok(exit::OK);
    }
    for entry in &entries {
        println!(
            "{}  {}  {}",
            entry.key,
            entry.url.as_deref().unwrap_or("(no remote)"),
            entry.path.display()
        );
    }
    eprintln!(
        "{} cached clone{} in {}",
        entries.len(),
        crate::model::plural(entries.len()),
        cache.root().display()
    );
    Ok(exit::OK)
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
        cache: cache::from_option(args.cache.as_deref())?,
        backend: args.backend.backend,
        trust: args.backend.trust(),
        workers: args.workers.unwrap_or_else(crate::validation::embedded::pool::default_workers),
    };
    eprintln!(
        "eval: suite `{}`, shard {}: {} of {} cases, {} at once, results in {}{}",
        suite.name,
        options.shard,
        crate::eval::shard::cases(options.shard, &suite).len(),
        suite.cases.len(),
        options.workers,
        options.out.display(),
        options.cache.as_ref().map(|c| format!(", clone cache {}", c.root().display())).unwrap_or_default()
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
        Event::Transfers { pairs } => {
            eprintln!("eval: transfer: {pairs} pairs, each case's reusable recipe on another case's PR …")
        }
    })?;
    if args.json {
        super::print_json(&shard)?;
    } else {
        print!("{}", render_text(&shard, &options.out));
    }
    eprintln!("rewrite-assist: artifacts: {}", options.out.display());
    Ok(exit::OK)
}

/// The shard's table for the terminal.
fn render_text(shard: &ShardResults, out: &std::path::Path) -> String {
    let t = &shard.totals;
    let mut text = format!(
        "suite {} shard {}: {} cases, {} passed, {} failed, {} errors, {} skipped; average F1 {:.4}, semantic share {:.4}; {:.1} s\n",
        shard.suite_name,
        shard.shard,
        t.cases,
        t.passed,
        t.failed,
        t.errors,
        t.skipped,
        t.avg_f1,
        t.avg_semantic_share,
        t.total_wall_seconds
    );
    let width = shard.cases.iter().map(|c| c.name.len()).max().unwrap_or(0);
    for case in &shard.cases {
        let detail = match case.status {
            CaseStatus::Passed => format!(
                "F1 {:.4}  P {:.4}  R {:.4}  semantic {:.2}  option {}",
                case.f1,
                case.precision,
                case.recall,
                case.semantic_share,
                case.option.map_or(0, |o| o.number())
            ),
            _ => case.reason.clone().unwrap_or_default(),
        };
        text.push_str(&format!(
            "  {:<width$}  {:<6}  {:>7.1} s  {detail}\n",
            case.name,
            case.status.label(),
            case.wall_seconds
        ));
    }
    if let Some(t) = crate::eval::transfer::totals(&shard.transfers) {
        text.push_str(&format!(
            "transfer: {} pairs, {} ran; average precision {:.4} ({} changed something), recall {:.4}\n",
            t.pairs, t.ran, t.avg_precision, t.with_changes, t.avg_recall
        ));
        for p in &shard.transfers {
            let detail = match p.status {
                crate::model::TransferStatus::Ran => {
                    format!("P {:.4}  R {:.4}  F1 {:.4}", p.precision, p.recall, p.f1)
                }
                _ => p.reason.clone().unwrap_or_default(),
            };
            text.push_str(&format!("  {} -> {}  {:<9}  {detail}\n", p.from, p.to, p.status.label()));
        }
    }
    text.push_str(&format!("results in {}\n", out.display()));
    text
}

fn aggregate_results(args: AggregateArgs) -> Result<u8> {
    for (flag, value) in [
        ("--max-f1-drop", args.max_f1_drop),
        ("--max-semantic-drop", args.max_semantic_drop),
        ("--max-transfer-drop", args.max_transfer_drop),
    ] {
        if !(0.0..=1.0).contains(&value) {
            return Err(bad_input(format!("{flag} {value} is not between 0 and 1")));
        }
    }
    crate::setup::out_dir::prepare(&args.out)?;
    let baseline = args.baseline.as_deref().map(aggregate::load_baseline).transpose()?;
    let tolerances = Tolerances {
        max_f1_drop: args.max_f1_drop,
        max_semantic_drop: args.max_semantic_drop,
        max_transfer_drop: args.max_transfer_drop,
    };
    let results = aggregate::aggregate(&args.dirs, baseline.as_ref(), tolerances)?;
    let label = args.history_label.unwrap_or_else(|| jiff::Timestamp::now().strftime("%Y-%m-%d").to_string());
    let point = crate::eval::trend::point(&results, &label);
    let history =
        crate::eval::trend::extend(args.history.as_deref(), &results.suite_name, point, args.history_keep)?;
    aggregate::write(&args.out, &results, &history)?;
    if args.json {
        super::print_json(&results)?;
    } else {
        print!("{}", crate::eval::summary::render(&results, Some(&history)));
    }
    if aggregate::passes(&results) {
        return Ok(exit::OK);
    }
    let mut reasons: Vec<String> = Vec::new();
    if !results.missing_shards.is_empty() {
        let shown: Vec<String> = results.missing_shards.iter().map(ToString::to_string).collect();
        reasons.push(format!("no output from shard {}", shown.join(", ")));
    }
    if let Some(comparison) = &results.comparison {
        reasons.extend(comparison.reasons.iter().cloned());
    }
    eprintln!("eval: failed: {}", reasons.join("; "));
    Ok(exit::FAILURE)
}
