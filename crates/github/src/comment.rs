//! The results comment: ONE per pull request, found again by a hidden marker and edited in place;
//! plus replies and reactions in the thread.

use anyhow::Result;
use serde::Deserialize;
use serde_json::json;

use super::client::BODY_LIMIT;
use super::conversation::Reaction;
use super::report::{self, Doc, Links, Report};
use super::{GitHub, RepoId};

/// First line of the results comment; how the bot finds its comment again. A monorepo's build has
/// its own ([`super::monorepo::marker`]), so each build keeps one comment.
pub(crate) const MARKER: &str = "<!-- rewrite-assist:results -->";
/// A margin below GitHub's limit.
pub(crate) const LIMIT: usize = BODY_LIMIT - 1_024;

/// The results comment for a finished analysis; `marker` is its build's ([`super::monorepo::marker`]).
pub(crate) fn render_results(report: &Report, links: &Links, marker: &str) -> String {
    let mut doc = Doc::new();
    doc.push(format!("{marker}\n## rewrite-assist: {}\n\n", super::verdict::headline(&report.summary)));
    report::push_sections(&mut doc, report);
    let ready = report.summary.verdict == crate::model::Verdict::ReadyToRollOut;
    doc.push(footer(links, Some(report.summary.wall_seconds), ready));
    doc.render(LIMIT)
}

/// The results comment when the analysis could not run: `message` is markdown for the user.
pub(crate) fn render_failure(message: &str, links: &Links, marker: &str) -> String {
    let mut doc = Doc::new();
    doc.push(format!("{marker}\n## rewrite-assist: could not analyze this pull request\n\n"));
    doc.push_long("", format!("{}\n\n", message.trim()), "");
    doc.push(footer(links, None, false));
    doc.render(LIMIT)
}

fn footer(links: &Links, seconds: Option<f64>, can_apply: bool) -> String {
    let mut parts = Vec::new();
    if let Some(sha) = &links.head_sha {
        let short = crate::setup::git::short_sha(sha);
        parts.push(match seconds {
            Some(s) => format!("analyzed `{short}` in {s:.0} s"),
            None => format!("head `{short}`"),
        });
    }
    parts.push(format!("artifacts and logs: {}", links.run_link()));
    let commands = if can_apply {
        "`/rewrite-assist apply` adds the reusable recipe to `rewrite.yml`; `/rewrite-assist help` lists the commands"
    } else {
        "`/rewrite-assist run` analyzes again; `/rewrite-assist help` lists the commands"
    };
    parts.push(commands.to_string());
    format!("---\n<sub>{}</sub>\n", parts.join(" · "))
}

/// A comment as the issues API returns it (the fields we use).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct IssueComment {
    pub id: u64,
    #[serde(default)]
    pub html_url: String,
    #[serde(default)]
    pub body: Option<String>,
    #[serde(default)]
    pub user: Option<CommentAuthor>,
    #[serde(default)]
    pub author_association: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct CommentAuthor {
    #[serde(default, rename = "type")]
    pub kind: String,
}

impl IssueComment {
    /// Written by a bot (the action's token) or by someone with write access to the repository
    /// (a personal token): anyone else could plant the marker to have the results written into,
    /// or blocked by, their comment.
    pub(crate) fn by_trusted_author(&self) -> bool {
        let bot = self.user.as_ref().is_some_and(|u| u.kind == "Bot");
        let writer = matches!(self.author_association.as_deref(), Some("OWNER" | "MEMBER" | "COLLABORATOR"));
        bot || writer
    }
}

/// What [`upsert_results`] did, and the comment's web address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Upserted {
    /// No results comment was there: a new one was posted.
    Created {
        /// The comment's id in the API.
        id: u64,
        /// Its web address.
        url: String,
    },
    /// The bot's results comment was there and was edited in place.
    Updated {
        /// The comment's id in the API.
        id: u64,
        /// Its web address.
        url: String,
    },
}

impl Upserted {
    /// The comment's web address.
    pub fn url(&self) -> &str {
        match self {
            Upserted::Created { url, .. } | Upserted::Updated { url, .. } => url,
        }
    }
}

/// The bot's results comment on `issue` with `marker`, if there is one: the first whose first line
/// is the marker (a person quoting it would not copy the hidden marker) and whose author is trusted.
pub(crate) fn find_results(
    gh: &GitHub,
    repo: &RepoId,
    issue: u64,
    marker: &str,
) -> Result<Option<IssueComment>> {
    let comments: Vec<IssueComment> = gh.get_all(&format!("{}/issues/{issue}/comments", repo.api()))?;
    Ok(comments.into_iter().find(|c| {
        c.by_trusted_author() && c.body.as_deref().and_then(|b| b.trim_start().lines().next()) == Some(marker)
    }))
}

/// Creates the results comment, or edits the existing one in place. The body's first line is its
/// marker.
pub fn upsert_results(gh: &GitHub, repo: &RepoId, issue: u64, body: &str) -> Result<Upserted> {
    let marker = body.trim_start().lines().next().unwrap_or(MARKER);
    match find_results(gh, repo, issue, marker)? {
        Some(existing) => {
            let updated: IssueComment = gh.patch(
                &format!("{}/issues/comments/{}", repo.api(), existing.id),
                &json!({ "body": body }),
            )?;
            Ok(Upserted::Updated { id: existing.id, url: updated.html_url })
        }
        None => {
            let created = reply(gh, repo, issue, body)?;
            Ok(Upserted::Created { id: created.id, url: created.html_url })
        }
    }
}

/// A new comment in the thread.
pub(crate) fn reply(gh: &GitHub, repo: &RepoId, issue: u64, body: &str) -> Result<IssueComment> {
    let body = report::Doc::new().push(body).render(LIMIT);
    gh.post(&format!("{}/issues/{issue}/comments", repo.api()), &json!({ "body": body }))
}

/// Reacts to a comment (👀, 🚀, 😕).
pub(crate) fn react(gh: &GitHub, repo: &RepoId, comment_id: u64, reaction: Reaction) -> Result<()> {
    let _: serde_json::Value = gh.post(
        &format!("{}/issues/comments/{comment_id}/reactions", repo.api()),
        &json!({ "content": reaction.content() }),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::report::tests::sample_report;

    fn links() -> Links {
        Links {
            run_url: Some("https://github.com/acme/shop/actions/runs/42".into()),
            head_sha: Some("f449d6bb24e560ac503646f27221dfe9b89aedea".into()),
        }
    }

    #[test]
    fn results_comment_ready_to_roll_out() {
        let body = render_results(&crate::github::verdict::tests::ready_report(), &links(), MARKER);
        assert!(body.starts_with(MARKER));
        insta::assert_snapshot!(body);
    }

    #[test]
    fn results_comment_reproduces_this_pr_only() {
        let body = render_results(&crate::github::verdict::tests::ordinary_report(), &links(), MARKER);
        assert!(body.contains("## rewrite-assist: 📝 reproduces this PR only"), "{body}");
        insta::assert_snapshot!(body);
    }

    #[test]
    fn results_comment_no_reliable_recipe() {
        let body = render_results(&crate::github::verdict::tests::unreliable_report(), &links(), MARKER);
        assert!(body.contains("## rewrite-assist: ❌ no reliable recipe"), "{body}");
        insta::assert_snapshot!(body);
    }

    #[test]
    fn results_comment_without_a_recipe() {
        let mut report = sample_report();
        report.summary.recommended = None;
        report.summary.verdict = crate::model::Verdict::NoReliableRecipe;
        report.summary.status = crate::model::RunStatus::Failed;
        report.summary.reason = Some("validate_candidates: no option could run".into());
        report.recipe_yaml = None;
        report.false_positives.clear();
        // What `Report::load` keeps without a recommendation: why the options may have failed.
        report.warnings = vec![
            "repository `corp` (https://repo.example/maven) refused access (HTTP 401) to com.acme:lib:1.0, so its artifacts are missing: set MAVEN_PASSWORD".into(),
        ];
        insta::assert_snapshot!(render_results(&report, &links(), MARKER));
    }

    #[test]
    fn failure_comment() {
        let body = render_failure(
            "I could not analyze this pull request: no build file (pom.xml) at the base commit.",
            &Links::default(),
            MARKER,
        );
        insta::assert_snapshot!(body);
    }

    #[test]
    fn a_huge_report_stays_under_the_limit_and_keeps_marker_and_footer() {
        let mut report = sample_report();
        report.recipe_yaml =
            Some("  - org.openrewrite.text.FindAndReplace: {find: \"x\", replace: \"y\"}\n".repeat(3_000));
        report.intent_tree = Some("- an intent with a long title that goes on and on\n".repeat(3_000));
        let body = render_results(&report, &links(), MARKER);
        assert!(body.len() <= LIMIT, "{}", body.len());
        assert!(body.starts_with(MARKER));
        assert!(body.contains("actions/runs/42"), "the footer survives");
        assert!(body.contains(report::TRUNCATED_NOTE));
        assert!(body.matches("</details>").count() >= 2);
    }

    #[test]
    fn user_text_cannot_hide_the_rest_of_the_comment() {
        let mut report = sample_report();
        report.intent_tree = Some("- Rename <!-- sneaky </details>\n".into());
        let body = render_results(&report, &links(), MARKER);
        assert_eq!(body.matches("<!--").count(), 1, "only the marker: {body}");
    }
}
