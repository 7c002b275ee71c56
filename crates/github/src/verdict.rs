//! The verdict as users read it, first in the results comment and the job summary: its headline,
//! whether the PR is a migration and why, and what to do next. Ordinary PRs get one line instead.

use crate::decision::verdict::{READY_F1, READY_SEMANTIC_SHARE};
use crate::model::{PrKind, RunSummary, Verdict};

use super::report::{Links, escape};

/// The headline with its emoji.
pub(crate) fn headline(summary: &RunSummary) -> &'static str {
    match (summary.verdict, &summary.recommended) {
        (Verdict::ReadyToRollOut, _) => "✅ ready to roll out",
        (Verdict::ReproducesThisPrOnly, _) => "📝 reproduces this PR only",
        (Verdict::NoReliableRecipe, Some(_)) => "❌ no reliable recipe",
        (Verdict::NoReliableRecipe, None) => "❌ no recipe could be validated",
    }
}

/// Whether the PR is a migration, and why: one line.
pub(crate) fn kind_line(summary: &RunSummary) -> String {
    let kind = match summary.pr_kind {
        PrKind::Migration => "Migration",
        PrKind::Ordinary => "Not a migration",
    };
    format!("**{kind}**: {}.\n", escape(&summary.pr_kind_reason))
}

/// What the verdict means for this PR and what to do next.
pub(crate) fn next_steps(summary: &RunSummary) -> String {
    match summary.verdict {
        Verdict::ReadyToRollOut => ready(summary),
        Verdict::ReproducesThisPrOnly => format!(
            "**Reproduces this PR only**: {} The recommended recipe below documents this pull request; there is \
nothing to roll out.\n",
            why_only_here(summary)
        ),
        Verdict::NoReliableRecipe if summary.recommended.is_none() => {
            "**No reliable recipe**: no candidate recipe could run, so there is nothing to roll out.\n"
                .to_string()
        }
        Verdict::NoReliableRecipe => {
            "**No reliable recipe**: no option reproduces this pull request with F1 0.5 or more, so there is \
nothing to roll out.\n"
                .to_string()
        }
    }
}

fn ready(summary: &RunSummary) -> String {
    let reusable = summary.reusable.as_ref();
    let run = reusable.and_then(|r| r.result.as_ref());
    let (name, recipes) = reusable.map(|r| (r.recipe_name.as_str(), r.recipes)).unwrap_or_default();
    let (f1, semantic) = run.map(|r| (r.f1, r.semantic_share)).unwrap_or_default();
    format!(
        "**Ready to roll out**: the reusable recipe `{}` ({recipes} recipe{}, nothing pinned to this repository) \
reproduces this pull request with F1 {f1:.4}, {:.0}% of it with semantic recipes. `/rewrite-assist apply` adds it \
to `rewrite.yml` here; `rewrite-assist apply --recipe <this run's artifacts> --repos OWNER/A,OWNER/B` shows what it \
would change in other repositories (a dry run), and `--open-prs` then opens one pull request each.\n",
        escape(name),
        crate::model::plural(recipes),
        semantic * 100.0
    )
}

/// Why a recipe that reproduces the PR is not one to roll out.
fn why_only_here(summary: &RunSummary) -> String {
    if summary.pr_kind == PrKind::Ordinary {
        return "this pull request is ordinary work, not a migration, so its recipe would find nothing to do \
elsewhere."
            .to_string();
    }
    let Some(reusable) = &summary.reusable else {
        let semantic = summary.recommended.as_ref().map_or(0.0, |r| r.semantic_share);
        if semantic < READY_SEMANTIC_SHARE {
            return format!(
                "the recipe reproduces it mostly as plain text ({:.0}% semantic), so no reusable recipe could be made.",
                semantic * 100.0
            );
        }
        return "generalizing the recipe for other repositories left no step (what it does is pinned to this \
repository or beside the migration), so there is no reusable recipe."
            .to_string();
    };
    match reusable.result.as_ref().filter(|r| r.ran()) {
        None => "the reusable recipe could not be validated on this pull request (that needs the embedded runner, \
`backend: auto` or `embedded`)."
            .to_string(),
        Some(run) if run.f1 < READY_F1 => format!(
            "the reusable recipe reproduces it with F1 {:.4} only ({READY_F1} needed to roll it out).",
            run.f1
        ),
        Some(run) => format!(
            "the reusable recipe makes only {:.0}% of what it reproduces with semantic recipes ({:.0}% needed).",
            run.semantic_share * 100.0,
            READY_SEMANTIC_SHARE * 100.0
        ),
    }
}

/// The job summary of an ordinary PR: one line.
pub(crate) fn ordinary_summary(summary: &RunSummary, links: &Links, pr: &str) -> String {
    format!(
        "rewrite-assist: {pr} is not a migration: {}. Nothing to roll out (verdict: {}); the analysis is in the \
artifacts of the {}.\n",
        escape(&summary.pr_kind_reason),
        summary.verdict.label(),
        links.run_link()
    )
}

/// The reply to `/rewrite-assist run` or `apply` on an ordinary PR.
pub(crate) fn no_migration_reply(summary: &RunSummary) -> String {
    format!(
        "No migration found in this pull request: {}. There is no recipe to roll out (verdict: {}). The analysis is \
in the job summary and the run's artifacts; `comment: always` in the workflow posts the full results here.",
        escape(&summary.pr_kind_reason),
        summary.verdict.label()
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::github::report::Report;
    use crate::github::report::tests::sample_report;
    use crate::model::{Confidence, PrKind, ReusableRecipe, Strategy};

    /// The sample run as a migration whose reusable recipe holds up: ready to roll out.
    pub(crate) fn ready_report() -> Report {
        let mut report = sample_report();
        let mut run = report.summary.options[1].clone();
        run.option = crate::model::OptionId::Reusable;
        run.strategy = Strategy::Reusable;
        run.recipe_name = "rewriteassist.Option4Reusable".into();
        report.summary.reusable = Some(ReusableRecipe {
            recipe_name: "rewriteassist.Option4Reusable".into(),
            recipes: 1,
            generalized: vec![
                "`ChangePackage` runs on every file, not only src/main/java/com/acme/shop/Customer.java"
                    .into(),
            ],
            result: Some(run),
        });
        report.reusable_yaml = Some(
            "---\ntype: specs.openrewrite.org/v1beta/recipe\nname: \"rewriteassist.Option4Reusable\"\nrecipeList:\n  - org.openrewrite.java.ChangePackage:\n      newPackageName: \"jakarta.persistence\"\n      oldPackageName: \"javax.persistence\"\n".into(),
        );
        report.summary.verdict = Verdict::ReadyToRollOut;
        report
    }

    /// A refactoring of the repository's own code that a recipe replays exactly.
    pub(crate) fn ordinary_report() -> Report {
        let mut report = sample_report();
        report.summary.pr_kind = PrKind::Ordinary;
        report.summary.pr_kind_reason = "the intent tree names no migration, and its reusable recipe reproduces 0% of \
its changed lines beyond renames of the repository's own code and values of its own configuration (50% needed)"
            .into();
        report.summary.intents.strategic.clear();
        report.summary.verdict = Verdict::ReproducesThisPrOnly;
        report
    }

    /// The sample run with a best option too far from the PR.
    pub(crate) fn unreliable_report() -> Report {
        let mut report = sample_report();
        let recommended = report.summary.recommended.as_mut().unwrap();
        recommended.option = crate::model::OptionId::Wide;
        (recommended.precision, recommended.recall, recommended.f1) = (0.5, 0.3, 0.375);
        recommended.confidence = Confidence::NoReliableRecipe;
        report.summary.options[0].f1 = 0.375;
        report.summary.verdict = Verdict::NoReliableRecipe;
        report
    }

    #[test]
    fn why_a_recipe_is_for_this_pr_only() {
        let mut summary = sample_report().summary;
        assert!(
            why_only_here(&summary).contains("generalizing the recipe for other repositories left no step")
        );
        summary.recommended.as_mut().unwrap().semantic_share = 0.25;
        assert!(
            why_only_here(&summary).contains("mostly as plain text (25% semantic)"),
            "no reusable recipe"
        );
        let mut reusable = ready_report().summary.reusable.unwrap();
        summary.reusable = Some(reusable.clone());
        reusable.result.as_mut().unwrap().f1 = 0.7;
        summary.reusable = Some(reusable.clone());
        assert!(
            why_only_here(&summary).contains("F1 0.7000 only (0.8 needed"),
            "{}",
            why_only_here(&summary)
        );
        reusable.result.as_mut().unwrap().f1 = 0.9;
        reusable.result.as_mut().unwrap().semantic_share = 0.3;
        summary.reusable = Some(reusable.clone());
        assert!(why_only_here(&summary).contains("only 30% of what it reproduces"));
        reusable.result = None;
        summary.reusable = Some(reusable);
        assert!(why_only_here(&summary).contains("could not be validated"));
        assert!(why_only_here(&ordinary_report().summary).contains("ordinary work, not a migration"));
    }

    #[test]
    fn headlines() {
        assert_eq!(headline(&ready_report().summary), "✅ ready to roll out");
        assert_eq!(headline(&ordinary_report().summary), "📝 reproduces this PR only");
        assert_eq!(headline(&unreliable_report().summary), "❌ no reliable recipe");
        let mut failed = unreliable_report().summary;
        failed.recommended = None;
        assert_eq!(headline(&failed), "❌ no recipe could be validated");
    }

    #[test]
    fn the_reply_on_an_ordinary_pr_says_why_there_is_no_migration() {
        let reply = no_migration_reply(&ordinary_report().summary);
        assert!(
            reply.starts_with("No migration found in this pull request: the intent tree names no migration")
        );
        assert!(reply.contains("(verdict: reproduces this PR only)"), "{reply}");
    }
}
