use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;

use crate::error::{bad_input, exit};
use crate::model::{ErrorKind, ValidationStats};
use crate::openrewrite::Versions;
use crate::pipeline::{RecipeCheck, Truth};
use crate::process::json_out::{self, Failure};
use crate::validation;
use crate::validation::choice::{BACKEND_ENV, BackendChoice, TRUST_BUILD_CONFIG_ENV};
use crate::validation::trust::Trust;

#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("truth").required(true).args(["head", "expected"]))]
pub(crate) struct Args {
    /// The repository: a work tree or a bare git directory. It is never modified.
    #[arg(long, value_name = "PATH", value_parser = super::paths::absolute)]
    pub repo: PathBuf,
    /// The commit the recipe runs on (any commit-ish).
    #[arg(long, value_name = "REF")]
    pub base: String,
    /// The PR's head commit: the ground truth is `git diff BASE HEAD`.
    #[arg(long, value_name = "REF")]
    pub head: Option<String>,
    /// The ground truth as a diff file instead of a head commit.
    #[arg(long, value_name = "PR.diff", value_parser = super::paths::absolute)]
    pub expected: Option<PathBuf>,
    /// The recipe YAML (rewrite.yml format).
    #[arg(long, value_name = "RECIPE.yml", value_parser = super::paths::absolute)]
    pub recipe: PathBuf,
    /// Which recipe of the file to run (default: the only one no other recipe of the file runs).
    #[arg(long, value_name = "NAME")]
    pub recipe_name: Option<String>,
    /// Where recipe.diff, stats.json and build.log go [default: rewrite-assist-output/validate-<time>]
    #[arg(long, value_name = "DIR", value_parser = super::paths::absolute)]
    pub out: Option<PathBuf>,
    /// Stop the recipe run after this many seconds.
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..), default_value_t = validation::DEFAULT_TIMEOUT.as_secs())]
    pub timeout: u64,
    #[command(flatten)]
    pub backend: BackendArgs,
    #[command(flatten)]
    pub versions: VersionArgs,
    /// Print the stats as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// The validation backend, shared by the commands that run recipes.
#[derive(Debug, Clone, Copy, clap::Args)]
pub(crate) struct BackendArgs {
    /// What runs the recipes: `embedded` (our OpenRewrite runner: parses once, needs no build of
    /// the project, runs none of its code), `plugin` (the project's Maven/Gradle build with the
    /// rewrite plugin), or `auto` (embedded, then the result confirmed once with the plugin)
    #[arg(long, value_name = "BACKEND", value_enum, default_value_t = BackendChoice::default(), env = BACKEND_ENV)]
    pub backend: BackendChoice,
    /// Trust the repository's build: let `auto` run it to confirm (`./gradlew`, Maven build
    /// extensions), and honour its .mvn/jvm.config, .mvn/maven.config and .mvn/extensions.xml (by
    /// default none of it runs: it is the repository's code)
    #[arg(long, env = TRUST_BUILD_CONFIG_ENV)]
    pub trust_build_config: bool,
}

impl BackendArgs {
    pub(crate) fn trust(&self) -> Trust {
        Trust::of_run(self.trust_build_config, self.backend)
    }
}

/// Version overrides shared by the commands that run recipes.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct VersionArgs {
    /// rewrite-maven-plugin version [env: REWRITE_ASSIST_MAVEN_PLUGIN_VERSION; default: pinned]
    #[arg(long, value_name = "VERSION")]
    pub maven_plugin_version: Option<String>,
    /// Gradle plugin (org.openrewrite.rewrite) version [env: REWRITE_ASSIST_GRADLE_PLUGIN_VERSION]
    #[arg(long, value_name = "VERSION")]
    pub gradle_plugin_version: Option<String>,
    /// Extra or replacement recipe artifacts, comma-separated g:a:v [env: REWRITE_ASSIST_RECIPE_ARTIFACTS]
    #[arg(long, value_name = "G:A:V,...")]
    pub recipe_artifacts: Option<String>,
}

impl VersionArgs {
    pub(crate) fn resolve(&self) -> Result<Versions> {
        let mut versions = Versions::from_env()?;
        if let Some(v) = &self.maven_plugin_version {
            versions.maven_plugin = v.clone();
        }
        if let Some(v) = &self.gradle_plugin_version {
            versions.gradle_plugin = v.clone();
        }
        if let Some(list) = &self.recipe_artifacts {
            versions.overrides = crate::openrewrite::versions::parse_coordinates_list(list)?;
        }
        Ok(versions)
    }
}

pub(crate) fn run(args: Args) -> Result<u8> {
    if args.json {
        let recipe_name = args.recipe_name.clone().unwrap_or_default();
        json_out::promise(Box::new(move |failure| failure_stats(&recipe_name, failure)));
    }
    let truth = match (&args.head, &args.expected) {
        (Some(head), _) => Truth::Head(head.clone()),
        (None, Some(path)) => Truth::DiffFile(path.clone()),
        (None, None) => return Err(bad_input("give --head or --expected")),
    };
    let out_dir = args.out.clone().unwrap_or_else(|| super::default_out_dir("validate"));
    let stats = crate::pipeline::validate_recipe(&RecipeCheck {
        repo: args.repo,
        base: args.base,
        truth,
        recipe: args.recipe,
        recipe_name: args.recipe_name,
        out_dir: out_dir.clone(),
        timeout: Duration::from_secs(args.timeout),
        backend: args.backend.backend,
        trust: args.backend.trust(),
        versions: args.versions.resolve()?,
    })?;
    if args.json {
        super::print_json(&stats)?;
    } else {
        print!("{}", render_text(&stats, &out_dir));
    }
    // The report on stdout may go to a file or a pipe; the failure is said where errors go too.
    if let Some(error) = &stats.error {
        let detail = error.detail.split_whitespace().collect::<Vec<_>>().join(" ");
        eprintln!("error: {detail} ({})", error.kind);
    }
    Ok(match &stats.error {
        None => exit::OK,
        Some(e) if e.kind == ErrorKind::Interrupted => exit::INTERRUPTED,
        Some(_) => exit::FAILURE,
    })
}

/// What `--json` prints when validation could not run at all: the stats of a run that did not
/// happen, with the reason as its `error`.
fn failure_stats(recipe_name: &str, failure: &Failure<'_>) -> serde_json::Value {
    let kind = match failure {
        Failure::Interrupted => ErrorKind::Interrupted,
        Failure::Error(e) if e.chain().any(|c| c.is::<crate::error::BadInput>()) => ErrorKind::BadInput,
        Failure::Error(e) if e.downcast_ref::<validation::embedded::CannotStart>().is_some() => {
            ErrorKind::RunnerFailure
        }
        Failure::Error(_) => ErrorKind::SetupFailure,
    };
    let mut stats = validation::empty_stats(recipe_name, &crate::diff::Diff::default());
    stats.error = Some(crate::model::RunError::new(kind, failure.reason()));
    serde_json::to_value(stats).unwrap_or_default()
}

fn render_text(stats: &ValidationStats, out_dir: &std::path::Path) -> String {
    let mut out = String::new();
    out.push_str(&format!("recipe {}\n", stats.recipe_name));
    if let Some(error) = &stats.error {
        out.push_str(&format!("error ({}): {}\n", error.kind, error.detail));
    }
    out.push_str(&crate::metrics::render_text(&stats.metrics));
    if let Some(backend) = stats.backend {
        out.push_str(&format!("\nbackend: {}\n", backend.label()));
    }
    if let Some(c) = &stats.confirmation {
        out.push_str(&crate::validation::report::confirmation_line(c));
    }
    out.push_str(&format!(
        "\ntests: {} before, {} after{}\n",
        stats.tests.before,
        stats.tests.after,
        if stats.tests.dropped { "  (TESTS REMOVED)" } else { "" }
    ));
    for warning in &stats.warnings {
        out.push_str(&format!("warning: {warning}\n"));
    }
    out.push_str(&format!(
        "time: {:.1} s (run {:.1} s)\nartifacts: {}\n",
        stats.timings.total_seconds,
        stats.timings.run_seconds,
        out_dir.display()
    ));
    out
}
