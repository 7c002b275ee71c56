use std::path::PathBuf;

use anyhow::Result;

use crate::error::exit;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The PR's diff (ground truth), e.g. from `git diff BASE HEAD`; a file whose diff is over 1 MiB
    /// or 10,000 changed lines is left out of the metric, as `analyze` leaves it out.
    #[arg(long, value_name = "PR.diff", value_parser = super::paths::absolute)]
    pub expected: PathBuf,
    /// The recipe's diff, e.g. `git diff` after a recipe run or OpenRewrite's rewrite.patch.
    #[arg(long, value_name = "RECIPE.diff", value_parser = super::paths::absolute)]
    pub actual: PathBuf,
    /// Print one JSON object on stdout instead of the text report.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: Args) -> Result<u8> {
    // The PR's side, bounded as `analyze` bounds it: files too large to analyze are left out.
    let expected = crate::diff::read_pr_file(&args.expected)?;
    let actual = crate::diff::read_file(&args.actual)?;
    let metrics = crate::metrics::compare(&expected, &actual);
    if args.json {
        super::print_json(&metrics)?;
    } else {
        print!("{}", crate::metrics::render_text(&metrics));
    }
    Ok(exit::OK)
}
