//! The body of the pull request that adds a PR's recipe to its own repository (when it cannot be a
//! commit on the PR's branch): where it came from, how well it did there, what each step does, and
//! how to run it and keep the code migrated.

use super::choice::ChosenRecipe;
use super::instructions::{self, RunIt};
use super::pulls;
use super::report::{Doc, escape};
use super::source::SourcePr;
use crate::openrewrite::Versions;

pub(crate) struct RecipePr<'a> {
    pub source: &'a SourcePr,
    pub chosen: &'a ChosenRecipe,
    pub recipe_name: &'a str,
    pub recipe_yaml: &'a str,
    /// Where it goes, e.g. `services/api/rewrite.yml`.
    pub recipe_path: &'a str,
    pub versions: &'a Versions,
}

pub(crate) fn body(r: &RecipePr<'_>) -> String {
    let link = r.source.link();
    let run = &r.chosen.run;
    let mut doc = Doc::new();
    doc.push(format!(
        "Adds the OpenRewrite recipe `{}` to `{}`, where the build plugins find it. rewrite-assist generated it \
from {link} (\"{}\"), and it changes no code: {link} makes the migration; this keeps the recipe next to the code, \
to run it on other branches, roll it out to other repositories and check in CI that the code stays migrated.\n\n",
        r.recipe_name,
        r.recipe_path,
        escape(&r.source.title)
    ));
    doc.push(format!(
        "### How well it reproduces {link}\n\n| precision | recall | F1 | semantic share | recipes |\n\
|---:|---:|---:|---:|---:|\n| {:.4} | {:.4} | {:.4} | {:.0}% | {} |\n\n",
        run.precision,
        run.recall,
        run.f1,
        run.semantic_share * 100.0,
        run.recipes
    ));
    doc.push(format!(
        "### What each step does\n\n{}\n",
        instructions::steps_table(r.recipe_yaml, r.recipe_name)
    ));
    doc.push_code_details(
        &format!("The recipe <code>{}</code>", escape(r.recipe_name)),
        "yaml",
        r.recipe_yaml,
    );
    let artifacts = instructions::recipe_artifacts(r.recipe_yaml, r.recipe_name, r.versions);
    doc.push(instructions::run_it_yourself(&RunIt {
        recipe_name: r.recipe_name,
        recipe_path: r.recipe_path,
        artifacts: &artifacts,
        versions: r.versions,
    }));
    doc.push(
        "### Other repositories\n\n`rewrite-assist apply --recipe <the analysis's artifacts> --repos OWNER/A,OWNER/B` \
runs it on each repository's default branch and reports what it would change (a dry run); `--open-prs` then opens \
one pull request each.\n",
    );
    doc.render(pulls::BODY_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::choice::RecipeChoice;
    use crate::github::verdict::tests::ready_report;

    #[test]
    fn recipe_pr_body() {
        let report = ready_report();
        let chosen = ChosenRecipe {
            choice: RecipeChoice::Reusable,
            yaml: report.reusable_yaml.clone().unwrap(),
            run: report.summary.reusable.unwrap().result.unwrap(),
        };
        let source = SourcePr {
            repository: "acme/shop".into(),
            number: 7,
            title: "Migrate JPA entities to jakarta.persistence".into(),
            url: "https://github.com/acme/shop/pull/7".into(),
            working_directory: Some("service".into()),
        };
        let versions = Versions::default();
        let yaml = chosen.yaml.replace("rewriteassist.Option4Reusable", "rewriteassist.Pr7Reusable");
        let body = body(&RecipePr {
            source: &source,
            chosen: &chosen,
            recipe_name: "rewriteassist.Pr7Reusable",
            recipe_yaml: &yaml,
            recipe_path: "service/rewrite.yml",
            versions: &versions,
        });
        assert!(body.len() <= pulls::BODY_LIMIT);
        let body = body
            .replace(&versions.maven_plugin, "<maven-plugin>")
            .replace(&versions.gradle_plugin, "<gradle-plugin>");
        insta::assert_snapshot!(body);
    }
}
