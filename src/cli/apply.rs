use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;

use super::validate::VersionArgs;
use crate::error::{bad_input, exit};
use crate::github::remote::{DEFAULT_SERVER_URL, Remote};
use crate::github::rollout::{self, RepoOutcome, Rollout, Status};
use crate::github::{Config, GitHub};

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The recipe YAML (rewrite.yml format), or an `analyze` output directory: its reusable recipe
    /// (`result/reusable-recipe.yaml`, nothing pinned to the analyzed repository), else its
    /// recommended one.
    #[arg(long, value_name = "FILE|DIR")]
    pub recipe: PathBuf,
    /// Which recipe of the file to run (default: the only one it defines).
    #[arg(long, value_name = "NAME")]
    pub recipe_name: Option<String>,
    /// The repositories, comma-separated owner/name.
    #[arg(long, value_name = "OWNER/NAME,...")]
    pub repos: String,
    /// The branch of the pull requests [default: rewrite-assist/<recipe name>]
    #[arg(long, value_name = "BRANCH")]
    pub branch: Option<String>,
    /// Where repositories are cloned from: a URL, or a directory of OWNER/NAME.git repositories
    /// [env: GITHUB_SERVER_URL; default: https://github.com]
    #[arg(long, value_name = "URL")]
    pub server_url: Option<String>,
    /// Where each repository's recipe.diff, stats.json and build.log go
    /// [default: rewrite-assist-output/apply-<time>]
    #[arg(long, value_name = "DIR")]
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
    let recipe_file = recipe_file(&args.recipe);
    let recipe_yaml = crate::openrewrite::yaml_limits::read_recipe_file(&recipe_file)?;
    let repos = rollout::parse_repos(&args.repos)?;
    // Fail on a bad recipe before cloning anything.
    rollout::recipe_to_run(&recipe_yaml, args.recipe_name.as_deref())?;
    if let Some(out) = &args.out {
        crate::setup::out_dir::prepare(out)?;
    }
    let env = crate::process::secrets::var;
    let config = Config::from_env(&env);
    if config.token.is_none() {
        return Err(bad_input("GITHUB_TOKEN is not set: opening pull requests needs a token"));
    }
    let server = args
        .server_url
        .or_else(|| env("GITHUB_SERVER_URL").filter(|s| !s.trim().is_empty()))
        .unwrap_or_else(|| DEFAULT_SERVER_URL.to_string());
    let remote = Remote::new(&server, config.token.clone());
    let gh = GitHub::new(config)?;
    let versions = args.versions.resolve()?;
    let out_dir = args.out.clone().unwrap_or_else(|| super::default_out_dir("apply"));
    let lookup = super::artifact_lookup();
    let rollout = Rollout {
        recipe_yaml: &recipe_yaml,
        recipe_name: args.recipe_name.as_deref(),
        repos: &repos,
        branch: args.branch.as_deref(),
        versions: &versions,
        timeout: Duration::from_secs(args.timeout.max(1)),
        artifacts_for: &lookup,
        out_dir: &out_dir,
        trust: crate::validation::trust::Trust::from_flag(args.trust_build_config),
    };
    let json = args.json;
    let outcomes = rollout::run(&gh, &remote, &rollout, &mut |o: &RepoOutcome| {
        if !json {
            eprintln!("{}: {}", o.repo, status_word(&o.status));
        }
    })?;
    if json {
        super::print_json(&serde_json::json!({ "results": outcomes, "artifacts_dir": out_dir }))?;
    } else {
        print!("{}", rollout::render_table(&outcomes));
    }
    let failed = outcomes.iter().any(|o| matches!(o.status, Status::Failed { .. }));
    Ok(if failed { exit::FAILURE } else { exit::OK })
}

fn status_word(status: &Status) -> String {
    match status {
        Status::Opened { url } => format!("opened {url}"),
        Status::Updated { url } => format!("updated {url}"),
        Status::NoChanges => "no changes".into(),
        Status::Failed { error } => format!("failed: {error}"),
    }
}

/// The recipe file `--recipe` names: the file itself, or in an `analyze` output directory the
/// reusable recipe (what a rollout to other repositories wants), else the recommended one.
fn recipe_file(given: &std::path::Path) -> PathBuf {
    use crate::pipeline::artifacts::{RECOMMENDED_RECIPE, REUSABLE_RECIPE};
    if !given.is_dir() {
        return given.to_path_buf();
    }
    let reusable = given.join(REUSABLE_RECIPE);
    if reusable.is_file() {
        return reusable;
    }
    eprintln!("rewrite-assist: {} has no reusable recipe; rolling out the recommended one", given.display());
    given.join(RECOMMENDED_RECIPE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::artifacts::{RECOMMENDED_RECIPE, REUSABLE_RECIPE};

    #[test]
    fn an_output_directory_gives_its_reusable_recipe_then_its_recommended_one() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("result")).unwrap();
        std::fs::write(dir.path().join(RECOMMENDED_RECIPE), "r").unwrap();
        assert_eq!(recipe_file(dir.path()), dir.path().join(RECOMMENDED_RECIPE));
        std::fs::write(dir.path().join(REUSABLE_RECIPE), "u").unwrap();
        assert_eq!(recipe_file(dir.path()), dir.path().join(REUSABLE_RECIPE));
        let file = dir.path().join("mine.yml");
        assert_eq!(recipe_file(&file), file);
    }
}
