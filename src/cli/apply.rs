use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;

use super::validate::VersionArgs;
use crate::error::{bad_input, exit};
use crate::github::choice::RecipeChoice;
use crate::github::remote::{DEFAULT_SERVER_URL, Remote};
use crate::github::rollout::hygiene::PrHygiene;
use crate::github::rollout::table::Report;
use crate::github::rollout::targets::{OrgQuery, Targets};
use crate::github::rollout::{self, Mode, RepoOutcome, Rollout, Status};
use crate::github::{Config, GitHub, RepoId};
use crate::model::eval::Shard;
use crate::validation::choice::{BACKEND_ENV, BackendChoice};

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("targets").required(true).args(["repos", "repos_file", "org"])))]
pub(crate) struct Args {
    /// The recipe YAML (rewrite.yml format), or an `analyze` output directory (or the action's
    /// artifacts): its reusable recipe by default, nothing pinned to the analyzed repository.
    #[arg(long, value_name = "FILE|DIR", value_parser = super::paths::absolute)]
    pub recipe: PathBuf,
    /// With a directory: which of its recipes to roll out instead of the reusable one.
    #[arg(long, value_name = "reusable|1|2|3")]
    pub option: Option<RecipeChoice>,
    /// With a file: which of its recipes to run (default: the only one no other recipe of it runs).
    #[arg(long, value_name = "NAME")]
    pub recipe_name: Option<String>,
    /// The repositories, comma-separated owner/name.
    #[arg(long, value_name = "OWNER/NAME,...")]
    pub repos: Option<String>,
    /// A file of repositories: one owner/name a line (`#` starts a comment), or Moderne's
    /// repos.csv (its cloneUrl column, else its path column).
    #[arg(long, value_name = "FILE", value_parser = super::paths::absolute)]
    pub repos_file: Option<PathBuf>,
    /// Every repository of this organisation (or user) the token can see, sorted by name;
    /// archived repositories and forks are left out unless asked.
    #[arg(long, value_name = "ORG")]
    pub org: Option<String>,
    /// With --org: only repositories with all these topics (comma-separated).
    #[arg(long, value_name = "TOPIC,...", conflicts_with_all = ["repos", "repos_file"], value_delimiter = ',')]
    pub topic: Vec<String>,
    /// With --org: only repositories whose main language (as GitHub sees it) is one of these.
    #[arg(long, value_name = "LANGUAGE,...", conflicts_with_all = ["repos", "repos_file"], value_delimiter = ',')]
    pub language: Vec<String>,
    /// With --org: archived repositories too (a pull request cannot be opened there).
    #[arg(long, conflicts_with_all = ["repos", "repos_file"])]
    pub include_archived: bool,
    /// With --org: forks too.
    #[arg(long, conflicts_with_all = ["repos", "repos_file"])]
    pub include_forks: bool,
    /// Report what the recipe would change in each repository and push nothing (the default).
    #[arg(long, conflicts_with = "open_prs")]
    pub dry_run: bool,
    /// Push the changes and open one pull request per repository (an open one is updated).
    #[arg(long)]
    pub open_prs: bool,
    /// What runs the recipe on each repository: `embedded` (our runner: no code of the repository
    /// runs, and it says whether the migration is done there: uses of the old library left, symbols
    /// that no longer resolve) or `plugin` (the repository's own build with the rewrite plugin)
    #[arg(long, value_name = "BACKEND", value_enum, default_value_t = BackendChoice::APPLY_DEFAULT, env = BACKEND_ENV)]
    pub backend: BackendChoice,
    /// With --open-prs: open a pull request where the migration is partial too (uses of the old
    /// library left), as a draft that lists them. By default only complete migrations get one, and
    /// a recipe that breaks compilation never does
    #[arg(long)]
    pub include_partial: bool,
    /// With --open-prs: open pull requests that write CI or build configuration too (workflows,
    /// wrappers, build extensions, Gradle settings); by default such a change is flagged and not
    /// pushed: a workflow would run with the target repository's secrets
    #[arg(long)]
    pub allow_build_config_changes: bool,
    /// With --open-prs: the largest share of a repository's files a recipe may change and still
    /// get a pull request (1 allows any)
    #[arg(long, value_name = "SHARE", default_value_t = crate::github::rollout::flags::DEFAULT_MAX_CHANGED_SHARE, value_parser = share)]
    pub max_changed_share: f64,
    /// With --open-prs: at most this many of the campaign's pull requests open at once (those
    /// already open count; the other repositories are queued for a later run)
    #[arg(long, value_name = "N", default_value_t = crate::github::rollout::hygiene::DEFAULT_MAX_PRS, value_parser = super::at_least_one())]
    pub max_prs: usize,
    /// With --open-prs: labels for the pull requests (comma-separated)
    #[arg(long, value_name = "LABEL,...", value_delimiter = ',')]
    pub labels: Vec<String>,
    /// With --open-prs: reviewers asked on a new pull request (logins, or ORG/TEAM for a team)
    #[arg(long, value_name = "LOGIN,...", value_delimiter = ',')]
    pub reviewers: Vec<String>,
    /// With --open-prs: assignees of the pull requests
    #[arg(long, value_name = "LOGIN,...", value_delimiter = ',')]
    pub assignees: Vec<String>,
    /// With --open-prs: open every new pull request as a draft
    #[arg(long)]
    pub draft: bool,
    /// Leave alone the repositories that do not use the recipe's old library (counted on each
    /// clone before the recipe, with the embedded runner): their status is `not needed`
    #[arg(long)]
    pub needs_migration: bool,
    /// Create or edit the campaign's dashboard issue in this repository: a row per repository,
    /// changed only for those this run ran (needs GITHUB_TOKEN with issues write there)
    #[arg(long, value_name = "OWNER/NAME", value_parser = super::rollout::repo_id)]
    pub dashboard: Option<RepoId>,
    /// Repositories at once.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = super::at_least_one())]
    pub jobs: usize,
    /// Run only shard I of N (1-based) of the repositories: those at positions I-1, I-1+N, … of
    /// the list (for a matrix of jobs; `rollout merge` joins their reports). The open pull
    /// requests are counted over all of them, and the free places under --max-prs shared
    #[arg(long, value_name = "I/N", default_value_t = Shard::ALL)]
    pub shard: Shard,
    /// The branch of the pull requests [default: rewrite-assist/<recipe name>]
    #[arg(long, value_name = "BRANCH")]
    pub branch: Option<String>,
    /// Where repositories are cloned from: a URL, or a directory of OWNER/NAME.git repositories
    /// [env: GITHUB_SERVER_URL; default: https://github.com]
    #[arg(long, value_name = "URL", value_parser = super::paths::server)]
    pub server_url: Option<String>,
    /// Where each repository's recipe.diff, stats.json and build.log go, and rollout.md and
    /// rollout.json [default: rewrite-assist-output/apply-<time>]
    #[arg(long, value_name = "DIR", value_parser = super::paths::absolute)]
    pub out: Option<PathBuf>,
    /// Limit of one recipe run, in seconds.
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..), default_value_t = crate::validation::DEFAULT_TIMEOUT.as_secs())]
    pub timeout: u64,
    /// Trust each repository's build: run it where it would run the repository's own code
    /// (`./gradlew`, Maven build extensions), and honour its .mvn/jvm.config, .mvn/maven.config and
    /// .mvn/extensions.xml (by default a repository whose build runs its own code is left out)
    #[arg(long, env = crate::validation::choice::TRUST_BUILD_CONFIG_ENV)]
    pub trust_build_config: bool,
    #[command(flatten)]
    pub versions: VersionArgs,
    /// Print the results as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: Args) -> Result<u8> {
    let recipe = rollout::recipe::resolve(&args.recipe, args.option, args.recipe_name.as_deref())?;
    let targets = targets(&args);
    // Fail on a bad list before anything else (an organisation is listed once the client exists).
    let listed = match targets {
        Targets::Org(_) => None,
        _ => Some(targets.resolve(None)?),
    };
    let recipe_name = rollout::recipe_to_run(&recipe.yaml, recipe.name.as_deref())?;
    if let Some(out) = &args.out {
        crate::setup::out_dir::prepare(out)?;
    }
    let mode = if args.open_prs { Mode::OpenPrs } else { Mode::DryRun };
    let env = crate::process::secrets::var;
    let config = Config::from_env(&env);
    if mode == Mode::OpenPrs && config.token.is_none() {
        return Err(bad_input("GITHUB_TOKEN is not set: opening pull requests needs a token"));
    }
    let server = args
        .server_url
        .or_else(|| env("GITHUB_SERVER_URL").filter(|s| !s.trim().is_empty()))
        .map(|server| super::paths::server(&server).unwrap_or(server))
        .unwrap_or_else(|| DEFAULT_SERVER_URL.to_string());
    let remote = Remote::new(&server, config.token.clone());
    // Listing an organisation needs the API in a dry run too (a public one answers without a token).
    // So does `--needs-migration`'s code search, which needs a token.
    let gh = match (mode, &targets) {
        (Mode::OpenPrs, _) | (_, Targets::Org(_)) => Some(GitHub::new(config)?),
        (Mode::DryRun, _) if args.needs_migration && config.token.is_some() => Some(GitHub::new(config)?),
        (Mode::DryRun, _) => None,
    };
    let all = match listed {
        Some(repos) => repos,
        None => targets.resolve(gh.as_ref())?,
    };
    let repos = shard_of(&all, args.shard);
    let mut versions = args.versions.resolve()?;
    let learned = learned_for(&recipe, args.backend, &mut versions)?;
    let out_dir = args.out.clone().unwrap_or_else(|| super::default_out_dir("apply"));
    let lookup = super::artifact_lookup();
    let measure = crate::model::residual::Measure::of(&recipe.old_library);
    if args.needs_migration && (measure.residual.is_none() || !args.backend.measures()) {
        return Err(bad_input(if measure.residual.is_none() {
            "--needs-migration: the recipe names no old library to look for (it moves no package, type, dependency, key or Java version)"
        } else {
            "--needs-migration counts the old library with the embedded runner: use --backend embedded or auto"
        }));
    }
    let names =
        |list: &[String]| list.iter().map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect();
    let hygiene = PrHygiene {
        max_prs: args.max_prs,
        labels: names(&args.labels),
        reviewers: names(&args.reviewers),
        assignees: names(&args.assignees),
        draft: args.draft,
    };
    let rollout = Rollout {
        recipe_yaml: &recipe.yaml,
        recipe_name: recipe.name.as_deref(),
        repos: &repos,
        campaign: (&all, args.shard),
        branch: args.branch.as_deref(),
        versions: &versions,
        timeout: Duration::from_secs(args.timeout.max(1)),
        artifacts_for: &lookup,
        out_dir: &out_dir,
        trust: crate::validation::trust::Trust::from_flag(args.trust_build_config),
        mode,
        jobs: args.jobs,
        provenance: &recipe.provenance,
        backend: args.backend,
        learned,
        measure: Some(&measure),
        include_partial: args.include_partial,
        allow_build_config: args.allow_build_config_changes,
        max_changed_share: args.max_changed_share,
        hygiene: &hygiene,
        needs_migration: args.needs_migration,
    };
    // One line per repository as it is done, `[k/N]` outside a terminal too (a CI log).
    let (total, mut done) = (repos.len(), 0);
    let outcomes = rollout::run(gh.as_ref(), &remote, &rollout, &mut |o: &RepoOutcome| {
        done += 1;
        eprintln!("rewrite-assist: [{done}/{total}] {}: {}", o.repo, status_word(&o.status));
    })?;
    // The report stays with the artifacts, for the workflow to upload and a reviewer to read.
    let report = Report { recipe: recipe_name, mode, results: outcomes, artifacts_dir: out_dir };
    if let Some(repo) = &args.dashboard {
        super::rollout::dashboard(&report, repo)?;
    }
    let code = super::rollout::show(&report, args.json)?;
    eprintln!("rewrite-assist: artifacts: {}", report.artifacts_dir.display());
    Ok(if crate::process::interrupted() { exit::INTERRUPTED } else { code })
}

/// This shard's repositories (positions I-1, I-1+N, … of `all`), said on stderr.
fn shard_of(all: &[RepoId], shard: Shard) -> Vec<RepoId> {
    let repos: Vec<RepoId> = all.iter().skip(shard.index - 1).step_by(shard.count).cloned().collect();
    let of_all =
        if shard == Shard::ALL { String::new() } else { format!(" (shard {shard} of {} in all)", all.len()) };
    let plural = if repos.len() == 1 { "y" } else { "ies" };
    eprintln!("rewrite-assist: {} repositor{plural} to run on{of_all}", repos.len());
    repos
}

/// Where the repositories come from (clap makes sure exactly one is given).
fn targets(args: &Args) -> Targets {
    if let Some(org) = &args.org {
        return Targets::Org(OrgQuery {
            org: org.trim().to_string(),
            topics: args.topic.iter().map(|t| t.trim().to_string()).filter(|t| !t.is_empty()).collect(),
            languages: args.language.iter().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect(),
            include_archived: args.include_archived,
            include_forks: args.include_forks,
        });
    }
    match &args.repos_file {
        Some(file) => Targets::File(file.clone()),
        None => Targets::List(args.repos.clone().unwrap_or_default()),
    }
}

/// A share between 0 and 1.
fn share(text: &str) -> std::result::Result<f64, String> {
    let value: f64 = text.parse().map_err(|_| format!("`{text}` is not a number"))?;
    if (0.0..=1.0).contains(&value) { Ok(value) } else { Err(format!("{value} is not between 0 and 1")) }
}

fn status_word(status: &Status) -> String {
    match status {
        Status::WouldChange => "would change".into(),
        Status::Opened { url, draft } => format!("opened {url}{}", if *draft { " (draft)" } else { "" }),
        Status::NotOpened { reason } => format!("not opened: {reason}"),
        Status::Updated { url, ci } => {
            format!("updated {url}{}", ci.map(|ci| format!(" ({})", ci.label())).unwrap_or_default())
        }
        Status::Merged { url } => format!("merged {url}"),
        Status::NoChanges => "no changes".into(),
        Status::LeftAlone { reason, .. } => format!("left alone: {reason}"),
        Status::Failed { error } => format!("failed: {error}"),
        Status::NotStarted => "not started".into(),
        Status::Queued { reason } => format!("queued: {reason}"),
        Status::NotNeeded { reason } => format!("not needed: {reason}"),
        Status::Closed { url } => format!("closed {url}: the recipe changes nothing here any more"),
    }
}

/// The learned jars the rollout's runs load: the embedded runner loads them from the analyze's
/// directory; for the plugin, which loads recipe jars from a repository only, they are installed
/// into the local repository and their coordinates go among `versions`' recipe artifacts (None then).
fn learned_for<'a>(
    recipe: &'a crate::github::rollout::recipe::RolloutRecipe,
    backend: BackendChoice,
    versions: &mut crate::openrewrite::Versions,
) -> Result<Option<&'a crate::validation::embedded::protocol::LearnedJars>> {
    let Some(jars) = recipe.learned.as_ref() else { return Ok(None) };
    if !backend.measures_with_the_plugin() {
        return Ok(Some(jars));
    }
    let coordinates =
        recipe.learned_coordinates.as_deref().and_then(crate::openrewrite::Coordinates::parse).ok_or_else(
            || bad_input("the analyze's learned/learned.json names no coordinates for its jar"),
        )?;
    for jar in &jars.jars {
        crate::validation::install_learned_for_plugin(jar)?;
    }
    versions.overrides.push(coordinates);
    Ok(None)
}
