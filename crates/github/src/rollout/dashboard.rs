//! The campaign's dashboard: one issue, in the repository the rollout is run from, that says per
//! repository where the campaign stands (would change, PR opened or updated, queued, closed as no
//! longer needed, failed and why), with links. Every run edits it (never a second issue), and only
//! the rows of the repositories it ran change: a run over one shard, or over the few repositories
//! left, keeps the others' rows as the last run that saw them left them.

use anyhow::Result;
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::table::{Report, result_and_detail};
use crate::github::report::cell;
use crate::github::{GitHub, RepoId};

/// One repository's row, as the dashboard keeps it between runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Row {
    repo: String,
    result: String,
    migration: String,
    left: String,
    detail: String,
    /// When a run last saw this repository (UTC date and time).
    seen: String,
}

/// The issue as the list gives it.
#[derive(Debug, Deserialize)]
struct Issue {
    number: u64,
    html_url: String,
    #[serde(default)]
    body: Option<String>,
    #[serde(default)]
    pull_request: Option<serde_json::Value>,
}

/// Creates or edits the dashboard issue of `report`'s campaign in `repo`; its address.
pub fn update(gh: &GitHub, repo: &RepoId, report: &Report, now: &str) -> Result<String> {
    let marker = marker(&report.recipe);
    let issues: Vec<Issue> = gh.get_all(&format!("{}/issues?state=open", repo.api()))?;
    // Pull requests are issues too in this list; the bot's dashboard starts with its marker.
    let existing = issues
        .into_iter()
        .find(|i| i.pull_request.is_none() && i.body.as_deref().is_some_and(|b| b.starts_with(&marker)));
    let mut rows = existing.as_ref().and_then(|i| i.body.as_deref()).map(rows_of).unwrap_or_default();
    for outcome in &report.results {
        let (result, detail) = result_and_detail(outcome);
        let row = Row {
            repo: outcome.repo.clone(),
            result: result.to_string(),
            migration: outcome.figures.completion.map(|c| c.label()).unwrap_or("-").to_string(),
            left: outcome.figures.residual_cell(),
            detail,
            seen: now.to_string(),
        };
        match rows.iter_mut().find(|r| r.repo.eq_ignore_ascii_case(&row.repo)) {
            Some(old) => *old = row,
            None => rows.push(row),
        }
    }
    rows.sort_by_key(|r| r.repo.to_ascii_lowercase());
    let body = render(&marker, &report.recipe, &rows, now);
    let title = format!("Rollout of {}", report.recipe);
    Ok(match existing {
        Some(issue) => {
            let _: serde_json::Value = gh.patch(
                &format!("{}/issues/{}", repo.api(), issue.number),
                &json!({ "title": title, "body": body }),
            )?;
            issue.html_url
        }
        None => {
            let created: Issue =
                gh.post(&format!("{}/issues", repo.api()), &json!({ "title": title, "body": body }))?;
            created.html_url
        }
    })
}

/// The first line of the campaign's dashboard: one per recipe.
fn marker(recipe: &str) -> String {
    format!("<!-- rewrite-assist:campaign {} -->", recipe.replace("--", "-"))
}

/// The rows the dashboard keeps, base64 JSON in a comment at its end (markdown and `--` in a
/// reason cannot break it).
const STATE: &str = "<!-- rewrite-assist:state ";

fn rows_of(body: &str) -> Vec<Row> {
    let Some(start) = body.rfind(STATE) else { return Vec::new() };
    let encoded = body[start + STATE.len()..].split(" -->").next().unwrap_or_default();
    base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

fn render(marker: &str, recipe: &str, rows: &[Row], now: &str) -> String {
    let mut out = format!(
        "{marker}\n## Rollout of `{}`\n\nrewrite-assist updates this issue on every run of the campaign (last: {now} UTC); \
a run changes the rows of the repositories it ran only.\n\n\
| repository | result | migration | old library left | last run | detail |\n|---|---|---|---:|---|---|\n",
        cell(recipe)
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            cell(&r.repo),
            r.result,
            r.migration,
            r.left,
            r.seen,
            r.detail
        ));
    }
    let mut counts: Vec<(String, usize)> = Vec::new();
    for r in rows {
        match counts.iter_mut().find(|(result, _)| *result == r.result) {
            Some((_, n)) => *n += 1,
            None => counts.push((r.result.clone(), 1)),
        }
    }
    let totals: Vec<String> =
        counts.iter().map(|(result, n)| format!("{n} {}", result.replace("**", ""))).collect();
    out.push_str(&format!("\n{} repositories: {}.\n", rows.len(), totals.join(", ")));
    let state =
        base64::engine::general_purpose::STANDARD.encode(serde_json::to_vec(rows).unwrap_or_default());
    out.push_str(&format!("\n{STATE}{state} -->\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(repo: &str, result: &str) -> Row {
        Row {
            repo: repo.into(),
            result: result.into(),
            migration: "complete".into(),
            left: "3 → 0".into(),
            detail: "reason with -- and | inside".into(),
            seen: "2026-11-29 07:00".into(),
        }
    }

    #[test]
    fn the_rows_survive_the_body_they_are_written_in() {
        let rows = vec![row("acme/a", "opened"), row("acme/b", "**failed**")];
        let body = render(&marker("com.acme.Rename"), "com.acme.Rename", &rows, "2026-11-29 07:00");
        assert!(body.starts_with("<!-- rewrite-assist:campaign com.acme.Rename -->\n"), "{body}");
        assert!(body.contains("| acme/a | opened | complete | 3 → 0 | 2026-11-29 07:00 |"), "{body}");
        assert!(body.contains("2 repositories: 1 opened, 1 failed."), "{body}");
        assert_eq!(rows_of(&body), rows);
        assert_eq!(rows_of("an issue someone wrote"), Vec::<Row>::new());
    }
}
