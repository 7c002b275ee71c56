//! The body of a rollout PR: where the recipe came from (the source PR, its F1 and semantic share
//! there), what each step does, what it changed here, and how to run it with the team's own build
//! and keep the code migrated.

use std::fmt::Write;

use super::one::Here;
use super::{Figures, Provenance};
use crate::github::apply::REWRITE_YML;
use crate::github::instructions::{self, RunIt};
use crate::github::pulls;
use crate::github::report::{Doc, escape};
use crate::model::residual::Completion;
use crate::openrewrite::Versions;

pub(crate) struct RolloutPr<'a> {
    pub recipe_name: &'a str,
    /// The recipe as it goes into `rewrite.yml`.
    pub recipe_yaml: &'a str,
    pub recipe_artifacts: &'a [String],
    pub versions: &'a Versions,
    pub provenance: &'a Provenance,
    pub here: &'a Here<'a>,
    pub figures: &'a Figures,
}

pub(crate) fn render(pr: &RolloutPr<'_>) -> String {
    let mut doc = Doc::new();
    let here = pr.here;
    doc.push(review_first(pr.figures));
    doc.push(format!(
        "Opened by `rewrite-assist apply --open-prs`: the OpenRewrite recipe `{}` run on `{}` (`{}`) of this \
repository. It changes {} line{} in {} file{} and adds the recipe to `{REWRITE_YML}`; review it like any other \
change.\n\n",
        pr.recipe_name,
        here.default_branch,
        crate::setup::git::short_sha(here.base),
        pr.figures.lines,
        crate::model::plural(pr.figures.lines),
        pr.figures.files,
        crate::model::plural(pr.figures.files)
    ));
    doc.push(origin(pr.provenance));
    doc.push(format!(
        "### What each step does\n\n{}\n",
        instructions::steps_table(pr.recipe_yaml, pr.recipe_name)
    ));
    doc.push(changed_here(pr.figures));
    doc.push(done_here(pr.figures));
    let files: Vec<String> = crate::diff::parse_all(here.diff)
        .map(|d| d.files.iter().map(|f| format!("- `{}`", f.path())).collect())
        .unwrap_or_default();
    if !files.is_empty() {
        doc.push_long(
            format!("<details><summary>Changed files ({})</summary>\n\n", files.len()),
            files.join("\n") + "\n",
            "\n</details>\n\n",
        );
    }
    doc.push_code_details(
        &format!("The recipe <code>{}</code>", escape(pr.recipe_name)),
        "yaml",
        pr.recipe_yaml,
    );
    doc.push(instructions::run_it_yourself(&RunIt {
        recipe_name: pr.recipe_name,
        recipe_path: REWRITE_YML,
        artifacts: pr.recipe_artifacts,
        versions: pr.versions,
    }));
    // Reruns leave the branch alone once others have pushed to it; the box hands it back.
    doc.push(format!("---\n\n{}\n", crate::github::branch::recreate_box_line()));
    doc.render(pulls::BODY_LIMIT)
}

fn origin(provenance: &Provenance) -> String {
    let mut out = String::from("### Where the recipe comes from\n\n");
    match &provenance.source {
        Some(source) => {
            let _ = write!(
                out,
                "rewrite-assist generalized it from {} (\"{}\")",
                source.link(),
                escape(&source.title)
            );
        }
        None => {
            let _ = write!(out, "It is the recipe of `{}`", escape(&provenance.file));
        }
    }
    match &provenance.run {
        Some(run) => {
            let _ = writeln!(
                out,
                ": there it reproduced the pull request with F1 {:.4} (precision {:.4}, recall {:.4}), {:.0}% of it with \
semantic recipes, in its own validated run.\n",
                run.f1,
                run.precision,
                run.recall,
                run.semantic_share * 100.0
            );
        }
        None => out.push_str(".\n\n"),
    }
    out
}

fn changed_here(figures: &Figures) -> String {
    let mut out = String::from("### What it changes here\n\n");
    if !figures.steps.is_empty() {
        let _ = writeln!(out, "By recipe: {}.\n", figures.steps_line());
    }
    if figures.warnings.is_empty() {
        out.push_str("OpenRewrite parsed and resolved everything without a warning.\n\n");
    } else {
        let _ = writeln!(out, "OpenRewrite warned while running it:\n");
        for warning in &figures.warnings {
            let _ = writeln!(out, "- {}", escape(warning));
        }
        out.push('\n');
    }
    out
}

/// CI or build configuration the recipe writes, said before anything else (empty when none).
fn review_first(figures: &Figures) -> String {
    let Some(flags) = figures.flags.as_ref().filter(|f| !f.build_config.is_empty()) else {
        return String::new();
    };
    let mut out = String::from(
        "> [!WARNING]\n> **Review first**: this pull request writes CI or build configuration, which runs code \
(in this repository's CI, with its secrets, or in every build):\n",
    );
    for line in &flags.build_config {
        let _ = writeln!(out, "> - `{}`", escape(line).replace('`', "'"));
    }
    out.push('\n');
    out
}

/// Why `n` uses were left where a recipe could not reach them.
pub(super) fn out_of_reach(n: usize) -> String {
    format!(
        "{n} of them {} in POMs that did not resolve (their parent or a BOM cannot be downloaded): Maven recipes \
skip such a POM, so give the rollout access to that repository.",
        if n == 1 { "is" } else { "are" }
    )
}

/// Whether the migration is done here: the old library left, and the compile check. Empty when the
/// run measured neither.
fn done_here(figures: &Figures) -> String {
    let (Some(completion), Some(residual)) = (figures.completion, &figures.residual) else {
        return String::new();
    };
    let mut out = String::from("### Is the migration done here?\n\n");
    match completion {
        Completion::Complete => {
            let _ =
                write!(out, "**Complete**: no use of the old library is left ({} before)", residual.before);
        }
        Completion::Partial | Completion::BreaksCompilation => {
            let _ = writeln!(
                out,
                "**{}**: {} use{} of the old library left in {} file{} ({} before), to finish by hand:\n",
                if completion == Completion::Partial { "Partial" } else { "Breaks compilation" },
                residual.after,
                crate::model::plural(residual.after),
                residual.files_after,
                crate::model::plural(residual.files_after),
                residual.before
            );
            for sample in &residual.samples {
                let _ = writeln!(out, "- `{}`", sample.replace('`', "'"));
            }
            if residual.out_of_reach > 0 {
                let _ = writeln!(out, "\n{}", out_of_reach(residual.out_of_reach));
            }
        }
    }
    let separator = if completion == Completion::Complete { ". " } else { "\n" };
    match &figures.unresolved {
        Some(unresolved) if unresolved.checked_files == 0 => {
            let _ = write!(out, "{separator}No Java file changed, so none was re-attributed");
        }
        Some(unresolved) => {
            let _ = write!(
                out,
                "{separator}{} changed Java file{} re-attributed against the classpath after the recipe: ",
                unresolved.checked_files,
                crate::model::plural(unresolved.checked_files)
            );
            if unresolved.added() == 0 {
                out.push_str("every symbol that resolved before still does");
            } else {
                let _ = writeln!(out, "{} symbols no longer resolve:\n", unresolved.added());
                for sample in &unresolved.samples {
                    let _ = writeln!(out, "- `{}`", sample.replace('`', "'"));
                }
            }
        }
        None => {}
    }
    out.push_str(" (a build of this branch runs the tests and catches what re-attribution does not).\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::source::SourcePr;
    use crate::github::verdict::tests::ready_report;

    #[test]
    fn rollout_pr_body() {
        let outcomes = super::super::table::tests::outcomes(super::super::Status::WouldChange);
        let diff = "diff --git a/pom.xml b/pom.xml\n--- a/pom.xml\n+++ b/pom.xml\n@@ -1 +1 @@\n-a\n+b\n\
diff --git a/src/main/java/A.java b/src/main/java/A.java\n--- a/src/main/java/A.java\n+++ b/src/main/java/A.java\n@@ -1 +1 @@\n-a\n+b\n";
        let repo = crate::github::RepoId::parse("acme/a").unwrap();
        let here = Here {
            repo: &repo,
            default_branch: "main",
            base: "2c957fcc08aefb885e415d9c62856887e25185a6",
            diff,
        };
        let provenance = Provenance {
            source: Some(SourcePr {
                repository: "acme/shop".into(),
                number: 7,
                title: "Migrate JPA entities to jakarta.persistence".into(),
                url: "https://github.com/acme/shop/pull/7".into(),
                working_directory: None,
            }),
            run: ready_report().summary.reusable.unwrap().result,
            file: "result/reusable-recipe.yaml".into(),
        };
        let versions = Versions::default();
        let yaml = ready_report().reusable_yaml.unwrap().replace("Option4Reusable", "Pr7Reusable");
        let artifacts = vec!["org.openrewrite.recipe:rewrite-migrate-java:<version>".to_string()];
        let body = render(&RolloutPr {
            recipe_name: "rewriteassist.Pr7Reusable",
            recipe_yaml: &yaml,
            recipe_artifacts: &artifacts,
            versions: &versions,
            provenance: &provenance,
            here: &here,
            figures: &outcomes[0].figures,
        });
        assert!(body.len() <= pulls::BODY_LIMIT);
        let body = body
            .replace(&versions.maven_plugin, "<maven-plugin>")
            .replace(&versions.gradle_plugin, "<gradle-plugin>");
        insta::assert_snapshot!(body);
        // Without a source PR, the recipe file is named instead.
        let local = Provenance { source: None, run: None, file: "recipes/rewrite.yml".into() };
        assert!(
            origin(&local).contains("It is the recipe of `recipes/rewrite.yml`.\n"),
            "{}",
            origin(&local)
        );
    }

    #[test]
    fn what_is_left_in_a_pom_that_did_not_resolve_is_said_to_be_out_of_reach() {
        let outcomes = super::super::table::tests::outcomes(super::super::Status::WouldChange);
        let mut figures = outcomes[0].figures.clone();
        figures.residual = Some(crate::model::residual::Residual {
            before: 6,
            after: 2,
            files_after: 2,
            out_of_reach: 1,
            samples: vec!["legacy/pom.xml:13: <dependency>".into(), "src/A.java:3: import javax.a.B;".into()],
        });
        figures.completion = Some(Completion::Partial);
        let done = done_here(&figures);
        assert!(done.contains("**Partial**: 2 uses of the old library left in 2 files (6 before)"), "{done}");
        assert!(done.contains("\n1 of them is in POMs that did not resolve (their parent"), "{done}");
        figures.residual.as_mut().unwrap().out_of_reach = 0;
        assert!(!done_here(&figures).contains("did not resolve"));
    }
}
