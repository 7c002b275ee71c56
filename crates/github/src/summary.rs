//! The job summary (markdown appended to `GITHUB_STEP_SUMMARY`) and the step outputs (written to
//! `GITHUB_OUTPUT`), which `action.yml` passes on as the action's outputs.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

use super::report::{self, Doc, Links, Report};
use crate::model::RunSummary;
use crate::pipeline::artifacts;

/// The step outputs, in the order they are written; `action.yml` declares exactly these.
pub const OUTPUTS: &[&str] = &[
    "recommended-option",
    "f1",
    "precision",
    "recall",
    "recipe-path",
    "artifacts-dir",
    "pr-url",
    "pr-number",
    "comment-url",
    "pr_kind",
    "pr_kind_reason",
    "verdict",
];

/// What the run published on GitHub, for the outputs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Published {
    /// The migration pull request opened or updated: its URL and number.
    pub pr: Option<(String, u64)>,
    /// The results comment created or updated.
    pub comment_url: Option<String>,
}

/// GitHub shows at most 1 MiB of summary per step.
const LIMIT: usize = 1_000_000;

/// The job summary of a finished analysis of `pr` (e.g. `acme/shop#7`).
pub(crate) fn render(report: &Report, links: &Links, pr: &str) -> String {
    let mut doc = Doc::new();
    doc.push(format!("# rewrite-assist: {}\n\n", super::verdict::headline(&report.summary)));
    doc.push(format!("Pull request {pr}.\n\n"));
    report::push_sections(&mut doc, report);
    doc.push(format!(
        "Artifacts (every option's recipe, diff, stats and build log; `result/recommended-recipe.yaml`): {}. Analysis time {:.0} s.\n",
        links.run_link(),
        report.summary.wall_seconds
    ));
    doc.render(LIMIT)
}

/// The job summary when the analysis could not run.
pub(crate) fn render_failure(message: &str, pr: &str) -> String {
    format!("# rewrite-assist: could not analyze {pr}\n\n{}\n", message.trim())
}

/// The step outputs of a run: empty values when there is no recommendation.
pub(crate) fn outputs(
    summary: Option<&RunSummary>,
    artifacts_dir: &Path,
    published: &Published,
) -> Vec<(&'static str, String)> {
    let recommended = summary.and_then(|s| s.recommended.as_ref());
    let recipe = artifacts_dir.join(artifacts::RECOMMENDED_RECIPE);
    let values = [
        recommended.map(|r| r.option.to_string()).unwrap_or_default(),
        recommended.map(|r| format!("{:.4}", r.f1)).unwrap_or_default(),
        recommended.map(|r| format!("{:.4}", r.precision)).unwrap_or_default(),
        recommended.map(|r| format!("{:.4}", r.recall)).unwrap_or_default(),
        if recommended.is_some() && recipe.is_file() { recipe.display().to_string() } else { String::new() },
        artifacts_dir.display().to_string(),
        published.pr.as_ref().map(|(url, _)| url.clone()).unwrap_or_default(),
        published.pr.as_ref().map(|(_, number)| number.to_string()).unwrap_or_default(),
        published.comment_url.clone().unwrap_or_default(),
        summary.map(|s| s.pr_kind.as_str().to_string()).unwrap_or_default(),
        summary.map(|s| s.pr_kind_reason.clone()).unwrap_or_default(),
        summary.map(|s| s.verdict.as_str().to_string()).unwrap_or_default(),
    ];
    OUTPUTS.iter().copied().zip(values).collect()
}

/// Appends markdown to the step summary file.
pub(crate) fn append(path: &Path, markdown: &str) -> Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening the job summary {}", path.display()))?;
    file.write_all(markdown.as_bytes())?;
    if !markdown.ends_with('\n') {
        file.write_all(b"\n")?;
    }
    Ok(())
}

/// Appends `name=value` lines to the step output file (the multi-line form for values that need it).
pub(crate) fn write_outputs(path: &Path, outputs: &[(&str, String)]) -> Result<()> {
    let mut text = String::new();
    for (name, value) in outputs {
        if value.contains('\n') || value.contains('\r') {
            let delimiter = format!("rewrite_assist_eof_{}", std::process::id());
            text.push_str(&format!("{name}<<{delimiter}\n{value}\n{delimiter}\n"));
        } else {
            text.push_str(&format!("{name}={value}\n"));
        }
    }
    append(path, &text).with_context(|| format!("writing the step outputs to {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::report::tests::sample_report;

    #[test]
    fn job_summary() {
        let links =
            Links { run_url: Some("https://github.com/acme/shop/actions/runs/42".into()), head_sha: None };
        insta::assert_snapshot!(render(&sample_report(), &links, "acme/shop#7"));
    }

    #[test]
    fn job_summary_of_an_ordinary_pr_is_one_line() {
        let links =
            Links { run_url: Some("https://github.com/acme/shop/actions/runs/42".into()), head_sha: None };
        let report = crate::github::verdict::tests::ordinary_report();
        let line = crate::github::verdict::ordinary_summary(&report.summary, &links, "acme/shop#7");
        assert_eq!(line.lines().count(), 1, "{line}");
        insta::assert_snapshot!(line);
    }

    #[test]
    fn outputs_with_and_without_a_recommendation() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("result")).unwrap();
        std::fs::write(dir.path().join(artifacts::RECOMMENDED_RECIPE), "x").unwrap();
        let report = sample_report();
        let published = Published {
            pr: Some(("https://github.com/acme/shop/pull/8".into(), 8)),
            comment_url: Some("https://github.com/acme/shop/pull/7#issuecomment-1".into()),
        };
        let out = outputs(Some(&report.summary), dir.path(), &published);
        let names: Vec<_> = out.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, OUTPUTS);
        assert_eq!(out[0].1, "2");
        assert_eq!(out[1].1, "0.9565");
        assert!(out[4].1.ends_with("result/recommended-recipe.yaml"));
        assert_eq!(
            out[6..].iter().map(|(_, v)| v.as_str()).collect::<Vec<_>>(),
            [
                "https://github.com/acme/shop/pull/8",
                "8",
                "https://github.com/acme/shop/pull/7#issuecomment-1",
                "migration",
                "the intent tree names a migration: Migrate javax -> jakarta",
                "reproduces_this_pr_only",
            ]
        );
        let none = outputs(None, dir.path(), &Published::default());
        assert!(none[..5].iter().all(|(_, v)| v.is_empty()));
        assert_eq!(none[5].1, dir.path().display().to_string());
        assert!(none[6..].iter().all(|(_, v)| v.is_empty()), "no analysis, no kind and no verdict");
    }

    #[test]
    fn output_file_format() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("out");
        write_outputs(&file, &[("f1", "0.9".into()), ("note", "a\nb".into())]).unwrap();
        append(&dir.path().join("summary.md"), "# hi").unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.starts_with("f1=0.9\nnote<<rewrite_assist_eof_"), "{text}");
        assert!(text.contains("\na\nb\nrewrite_assist_eof_"), "{text}");
        assert_eq!(std::fs::read_to_string(dir.path().join("summary.md")).unwrap(), "# hi\n");
    }
}
