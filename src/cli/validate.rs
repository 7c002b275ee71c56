use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::error::{bad_input, exit};
use crate::model::{ErrorKind, ValidationStats};
use crate::openrewrite::Versions;
use crate::process::json_out::{self, Failure};
use crate::setup::Repo;
use crate::validation::choice::{self, BACKEND_ENV, BackendChoice, TRUST_BUILD_CONFIG_ENV};
use crate::validation::trust::Trust;
use crate::validation::{self, RecipeRun};

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
    let repo = Repo::open(&args.repo)?;
    let base = repo.resolve(&args.base)?;
    let head = args.head.as_deref().map(|head| repo.resolve(head)).transpose()?;
    let expected_text = match (&head, &args.expected) {
        (Some(head), _) => repo.diff(&base, head)?,
        (None, Some(path)) => crate::diff::read_text(path)?,
        (None, None) => return Err(bad_input("give --head or --expected")),
    };
    let expected =
        crate::diff::parse_pr(&expected_text).map_err(|e| bad_input(format!("the expected diff: {e}")))?;
    // With the PR's head, its files say what each false positive is (layout, variant, …).
    let view = head
        .as_ref()
        .map(|head| crate::metrics::classes::PrView::from_repo(&repo, &base, head, expected.clone()))
        .transpose()?;
    let recipe_yaml = crate::openrewrite::yaml_limits::read_recipe_file(&args.recipe)?;
    let versions = args.versions.resolve()?;
    let out_dir = args.out.clone().unwrap_or_else(|| super::default_out_dir("validate"));
    // Like analyze: never mix with (or overwrite) files already there.
    crate::setup::out_dir::prepare(&out_dir)?;
    let lookup = super::artifact_lookup();
    let catalog = crate::catalog::Catalog::embedded();
    // Recipes the catalog does not know may come from the user's own artifacts: only the option
    // names of known recipes are checked (OpenRewrite silently ignores unknown ones).
    let check = |step: &crate::openrewrite::RecipeStep| match catalog.get(&step.name) {
        Some(_) => crate::mapping::check_step(catalog, step),
        None => Ok(()),
    };
    let target = choice::Base {
        repo: repo.path(),
        base: &base,
        versions: &versions,
        project: None,
        trust: args.backend.trust(),
        pr: view.as_ref(),
    };
    let validator = choice::start(args.backend.backend, &target)?;
    // What the PR's migration moves away from (with its head), else what the recipe moves away from.
    let old = match &head {
        Some(head) => crate::intents::old_library::of_pr(&repo, &base, head)?,
        None => crate::intents::old_library::of_recipe(&recipe_yaml, args.recipe_name.as_deref()),
    };
    let measure = crate::model::residual::Measure::of(&old);
    let request = RecipeRun {
        repo: repo.path(),
        base: &base,
        expected: &expected,
        recipe_yaml: &recipe_yaml,
        recipe_name: args.recipe_name.as_deref(),
        timeout: Duration::from_secs(args.timeout.max(1)),
        versions: &versions,
        artifacts_for: &lookup,
        option_check: Some(&check),
        out_dir: &out_dir,
        file_prefix: "",
        ledger: None,
        session: validator.session(),
        trust: target.trust,
        project_dir: None,
        pr: view.as_ref(),
        measure: Some(&measure),
    };
    let outcome = validation::run(&request).context("validation")?;
    let mut stats = outcome.stats.clone();
    if let Some(confirmation) = validator.confirm(&request, &outcome).context("confirming with the plugin")? {
        if crate::process::interrupted() {
            // Ctrl-C during the confirmation: the run as a whole was interrupted.
            stats.error =
                Some(crate::model::RunError::new(ErrorKind::Interrupted, "interrupted by the user"));
        }
        stats.confirmation = Some(confirmation);
        std::fs::write(out_dir.join("stats.json"), crate::document::to_json(&stats)?)?;
    }
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
