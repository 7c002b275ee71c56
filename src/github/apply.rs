//! Migration pull requests: a branch with the recipe's changes applied (and, for a PR's own
//! migration, the recipe added to `rewrite.yml`), pushed with the token, and one PR for it that
//! later runs update instead of duplicating.

use std::fmt::Write;
use std::path::Path;

use anyhow::{Context, Result};

use super::event::PullRequest;
use super::pulls::{self, Opened};
use super::remote::Remote;
use super::report::{self, Doc};
use super::{GitHub, RepoId, user_facing};
use crate::model::{Confidence, OptionResult, RunSummary, ValidationStats};
use crate::openrewrite::{DeclarativeRecipe, RecipeFile, Versions};
use crate::pipeline::artifacts;

/// The file OpenRewrite's build plugins read recipes from by default.
pub(crate) const REWRITE_YML: &str = "rewrite.yml";

/// What goes into the branch on top of the base commit.
#[derive(Debug, Clone)]
pub(crate) struct Changes<'a> {
    /// A unified diff (`git diff` format) applied with `git apply`; may be empty.
    pub diff: &'a str,
    /// Recipe YAML merged into `rewrite.yml` (a same-named recipe is replaced).
    pub recipe_yaml: Option<&'a str>,
    pub message: &'a str,
}

/// Commits `changes` on top of `base` (a commit in the repository at `source`) in a temporary
/// clone, and force-pushes it to `branch` of `repo`. Returns the new commit id.
pub(crate) fn publish_branch(
    source: &Path,
    base: &str,
    changes: &Changes<'_>,
    remote: &Remote,
    repo: &RepoId,
    branch: &str,
) -> Result<String> {
    let clone = crate::setup::git::clone_at(source, base)?;
    let dir = clone.path();
    if !changes.diff.trim().is_empty() {
        let patch = clone.scratch().join("rewrite-assist.changes.diff");
        std::fs::write(&patch, changes.diff)?;
        crate::setup::git::git_output(
            dir,
            ["apply".as_ref(), "--whitespace=nowarn".as_ref(), patch.as_os_str()],
        )
        .map_err(|e| {
            user_facing(format!(
                "The recipe's changes do not apply to `{}`: {}",
                crate::setup::git::short_sha(base),
                crate::error::one_line(&e)
            ))
        })?;
    }
    if let Some(recipe) = changes.recipe_yaml {
        let path = dir.join(REWRITE_YML);
        let existing = std::fs::read_to_string(&path).ok();
        let merged = crate::openrewrite::rewrite_yml::merge(existing.as_deref(), recipe)
            .map_err(|e| user_facing(format!("I could not add the recipe to `{REWRITE_YML}`: {e}")))?;
        std::fs::write(&path, merged)?;
    }
    crate::setup::git::git_output(dir, ["add", "-A"])?;
    let staged = crate::setup::git::git_output(dir, ["diff", "--cached", "--name-only"])?;
    if staged.stdout.is_empty() {
        return Err(user_facing("There is nothing to change: the branch would equal the base commit."));
    }
    crate::setup::git::git_output(dir, ["commit", "--quiet", "-m", changes.message])?;
    remote.push_head(dir, repo, branch).context("pushing the migration branch")?;
    let head = crate::setup::git::git_output(dir, ["rev-parse", "HEAD"])?;
    Ok(String::from_utf8_lossy(&head.stdout).trim().to_string())
}

/// The branch of the migration PR for option `option` of PR `number`.
pub(crate) fn branch_name(number: u64, option: u8) -> String {
    format!("rewrite-assist/pr-{number}-option-{option}")
}

/// The option `/rewrite-assist apply [k]` means, or a user-facing reason why there is none.
pub(crate) fn choose_option(summary: &RunSummary, asked: Option<u8>) -> Result<&OptionResult> {
    let option = match asked {
        Some(k) => summary.options.iter().find(|o| o.option == k).ok_or_else(|| {
            let made: Vec<String> = summary.options.iter().map(|o| o.option.to_string()).collect();
            user_facing(format!(
                "Option {k} was not produced in this run (options: {}), so there is nothing to apply.",
                if made.is_empty() { "none".to_string() } else { made.join(", ") }
            ))
        })?,
        None => {
            let Some(r) = &summary.recommended else {
                return Err(user_facing(
                    "No recipe could be validated for this pull request, so there is nothing to apply.",
                ));
            };
            if r.confidence == Confidence::NoReliableRecipe {
                return Err(user_facing(format!(
                    "The best option (option {}, F1 {:.4}) is too far from this pull request to apply on its own. \
If you want it anyway, comment `/rewrite-assist apply {}`.",
                    r.option, r.f1, r.option
                )));
            }
            summary
                .options
                .iter()
                .find(|o| o.option == r.option)
                .context("the recommended option is missing")?
        }
    };
    if let Some(error) = &option.error {
        return Err(user_facing(format!(
            "Option {} could not run (`{}`: {}), so there is nothing to apply.",
            option.option,
            error.kind,
            report::escape(&error.detail)
        )));
    }
    Ok(option)
}

/// Everything a migration PR for an analyzed PR needs.
pub struct Migration<'a> {
    pub pr: &'a PullRequest,
    /// A local repository holding `base_commit` (the action's workspace).
    pub source: &'a Path,
    /// The commit the analysis ran the recipes on (the merge base of the PR).
    pub base_commit: &'a str,
    pub summary: &'a RunSummary,
    /// The option asked for (None: the recommended one).
    pub option: Option<u8>,
    pub versions: &'a Versions,
    /// Whether the token may push changes to `.github/workflows/`.
    pub workflow_files: WorkflowFiles,
}

/// What a migration PR does with changes to GitHub Actions workflow files: pushing them needs the
/// `workflows` permission, which the default `GITHUB_TOKEN` never has (the push is refused).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkflowFiles {
    /// The token can push them (a personal access token or GitHub App token given as `token`).
    Include,
    /// The default token: they are left out of the branch and listed in the PR body.
    LeaveOut,
}

/// The directory whose files need the `workflows` permission to push.
const WORKFLOWS_DIR: &str = ".github/workflows/";

/// `diff` without the sections of workflow files, and those files' paths.
fn without_workflow_files(diff: &str) -> (String, Vec<String>) {
    let mut kept = String::with_capacity(diff.len());
    let mut left_out = Vec::new();
    let mut keep = true;
    for line in diff.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("diff --git a/") {
            let path = rest.split(" b/").next().unwrap_or_default().to_string();
            keep = !path.starts_with(WORKFLOWS_DIR);
            if !keep {
                left_out.push(path);
            }
        }
        if keep {
            kept.push_str(line);
        }
    }
    (kept, left_out)
}

/// Opens (or updates) the migration PR for an analyzed PR.
pub fn open_for_pr(gh: &GitHub, remote: &Remote, m: &Migration<'_>) -> Result<Opened> {
    let option = choose_option(m.summary, m.option)?;
    let dir = Path::new(&m.summary.artifacts_dir);
    let read = |what: &str| {
        let path = dir.join(artifacts::option_file_name(option.option, what));
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))
    };
    let diff = read("recipe.diff")?;
    let (diff, left_out) = match m.workflow_files {
        WorkflowFiles::Include => (diff, Vec::new()),
        WorkflowFiles::LeaveOut => without_workflow_files(&diff),
    };
    if diff.trim().is_empty() && !left_out.is_empty() {
        return Err(user_facing(format!(
            "Option {} only changes workflow files ({}), and the workflow's default token may not push those: \
give the action a token with the `workflows` permission (a GitHub App token or a personal access token with the \
`workflow` scope) through its `token` input.",
            option.option,
            left_out.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
        )));
    }
    if diff.trim().is_empty() {
        return Err(user_facing(format!(
            "Option {} changes nothing, so there is nothing to apply.",
            option.option
        )));
    }
    let stats: ValidationStats =
        serde_json::from_str(&read("stats.json")?).context("reading the option's stats")?;
    let recipe = migration_recipe(m.pr, option, &read("recipe.yaml")?)?;
    let yaml = recipe.to_yaml();
    let branch = branch_name(m.pr.number, option.option);
    let message = format!(
        "Apply {} (rewrite-assist, from #{})\n\nAdds the recipe to {REWRITE_YML} and applies its changes.",
        recipe.name, m.pr.number
    );
    publish_branch(
        m.source,
        m.base_commit,
        &Changes { diff: &diff, recipe_yaml: Some(&yaml), message: &message },
        remote,
        &m.pr.repo,
        &branch,
    )?;
    let mut body = render_pr_body(&PrBody {
        origin: format!(
            "Opened by rewrite-assist from #{} (`/rewrite-assist apply {}`). It adds the OpenRewrite recipe `{}` to \
`{REWRITE_YML}` and applies it: the changes below are what the recipe produces on `{}` (`{}`), the commit #{} started from.",
            m.pr.number,
            option.option,
            recipe.name,
            m.pr.base_ref,
            crate::setup::git::short_sha(m.base_commit),
            m.pr.number
        ),
        option: Some(option),
        confidence: Confidence::of(option.f1),
        recipe_name: &recipe.name,
        recipe_yaml: &yaml,
        recipe_artifacts: &stats.recipe_artifacts,
        versions: m.versions,
        diff: &diff,
    });
    if !left_out.is_empty() {
        body.push_str(&format!(
            "\n### Left out: workflow files\n\nThe recipe also changes {}, but the workflow's default token may not \
push changes to `{WORKFLOWS_DIR}`. Run the recipe locally for those, or give the action a token with the \
`workflows` permission through its `token` input.\n",
            left_out.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
        ));
    }
    let title = format!("Apply the recipe of #{}: {}", m.pr.number, m.pr.title.trim());
    pulls::upsert(gh, &m.pr.repo, &branch, &m.pr.base_ref, &title, &body)
}

/// The option's recipe, renamed after the PR it came from so several PRs' recipes can live in one
/// `rewrite.yml`; the recipes it runs from the same file (wrappers that scope a step to some
/// files) travel with it, renamed alike.
pub(crate) struct MigrationRecipe {
    pub name: String,
    pub main: DeclarativeRecipe,
    pub wrappers: Vec<DeclarativeRecipe>,
}

impl MigrationRecipe {
    pub(crate) fn to_yaml(&self) -> String {
        std::iter::once(&self.main).chain(&self.wrappers).map(DeclarativeRecipe::to_yaml).collect()
    }
}

pub(crate) fn migration_recipe(
    pr: &PullRequest,
    option: &OptionResult,
    option_yaml: &str,
) -> Result<MigrationRecipe> {
    let file = RecipeFile::parse(option_yaml).context("reading the option's recipe")?;
    let main = file
        .get(&option.recipe_name)
        .or_else(|| file.recipes.first())
        .context("the option's recipe file defines no recipe")?;
    let strategy = option.strategy.label();
    let mut capitalized = strategy.to_string();
    capitalized[..1].make_ascii_uppercase();
    let name = format!("rewriteassist.Pr{}Option{}{capitalized}", pr.number, option.option);
    let rename = |old: &str| match old.strip_prefix(main.name.as_str()) {
        Some(rest) if rest.is_empty() || rest.starts_with('.') => format!("{name}{rest}"),
        _ => old.to_string(),
    };
    let renamed_steps = |steps: &[crate::openrewrite::RecipeStep]| -> Vec<crate::openrewrite::RecipeStep> {
        steps.iter().map(|s| crate::openrewrite::RecipeStep { name: rename(&s.name), ..s.clone() }).collect()
    };
    let wrappers = file
        .family(&main.name)
        .into_iter()
        .filter(|r| r.name != main.name)
        .map(|r| DeclarativeRecipe {
            name: rename(&r.name),
            recipe_list: renamed_steps(&r.steps),
            ..r.to_declarative()
        })
        .collect();
    let steps = renamed_steps(&main.steps);
    let main = DeclarativeRecipe {
        preconditions: main.preconditions.clone(),
        name: name.clone(),
        display_name: format!(
            "Migration of {}#{} (option {}, {strategy})",
            pr.repo, pr.number, option.option
        ),
        description: format!(
            "{} Generated by rewrite-assist from {}#{}; validated against it with F1 {:.4} (precision {:.4}, recall {:.4}).",
            sentence(&pr.title),
            pr.repo,
            pr.number,
            option.f1,
            option.precision,
            option.recall
        ),
        recipe_list: steps,
    };
    Ok(MigrationRecipe { name, main, wrappers })
}

fn sentence(title: &str) -> String {
    let title = title.trim();
    if title.is_empty() || title.ends_with('.') { title.to_string() } else { format!("{title}.") }
}

/// The parts of a migration PR's body.
pub(crate) struct PrBody<'a> {
    /// The first paragraph: where the PR comes from and what it does.
    pub origin: String,
    /// The validated option, when the recipe was measured against a PR.
    pub option: Option<&'a OptionResult>,
    pub confidence: Confidence,
    pub recipe_name: &'a str,
    pub recipe_yaml: &'a str,
    /// `g:a:v` of the recipe modules the recipe needs besides the plugins' bundled ones.
    pub recipe_artifacts: &'a [String],
    pub versions: &'a Versions,
    /// The changes, for the list of files.
    pub diff: &'a str,
}

/// The body of a migration PR, under GitHub's limit.
pub(crate) fn render_pr_body(body: &PrBody<'_>) -> String {
    let mut doc = Doc::new();
    doc.push(format!("{}\n\n", body.origin));
    if let Some(o) = body.option {
        doc.push(format!(
            "### How well it reproduces the original pull request\n\n\
| precision | recall | F1 | semantic | recipes | confidence |\n|---:|---:|---:|---:|---:|---|\n\
| {:.4} | {:.4} | {:.4} | {:.0}% | {} | {}{} |\n\n",
            o.precision,
            o.recall,
            o.f1,
            o.semantic_share * 100.0,
            o.recipes,
            body.confidence.label(),
            if o.perfect_match { " (perfect match)" } else { "" }
        ));
    }
    doc.push_code_details(
        &format!("The recipe <code>{}</code>", report::escape(body.recipe_name)),
        "yaml",
        body.recipe_yaml,
    );
    doc.push(how_to_run(body.recipe_name, body.recipe_artifacts, body.versions));
    let files: Vec<String> = crate::diff::parse_all(body.diff)
        .map(|d| d.files.iter().map(|f| format!("- `{}`", f.path())).collect())
        .unwrap_or_default();
    if !files.is_empty() {
        doc.push_long(
            format!("<details><summary>Changed files ({})</summary>\n\n", files.len()),
            files.join("\n") + "\n",
            "\n</details>\n",
        );
    }
    doc.render(pulls::BODY_LIMIT)
}

/// How to run the recipe with Maven or Gradle, and across repositories.
pub(crate) fn how_to_run(recipe_name: &str, recipe_artifacts: &[String], versions: &Versions) -> String {
    let mut out = String::from("### Run it yourself\n\nWith `rewrite.yml` at the project root, Maven:\n\n");
    let mut maven = format!(
        "mvn -U org.openrewrite.maven:rewrite-maven-plugin:{}:run \\\n  -Drewrite.activeRecipes={recipe_name}",
        versions.maven_plugin
    );
    if !recipe_artifacts.is_empty() {
        let _ = write!(maven, " \\\n  -Drewrite.recipeArtifactCoordinates={}", recipe_artifacts.join(","));
    }
    out.push_str(&report::fenced("sh", &maven));
    out.push_str("\nGradle (`build.gradle`), then `./gradlew rewriteRun`:\n\n");
    let mut gradle = format!(
        "plugins {{\n    id(\"org.openrewrite.rewrite\") version(\"{}\")\n}}\nrepositories {{\n    mavenCentral()\n}}\nrewrite {{\n    activeRecipe(\"{recipe_name}\")\n}}\n",
        versions.gradle_plugin
    );
    if !recipe_artifacts.is_empty() {
        gradle.push_str("dependencies {\n");
        for artifact in recipe_artifacts {
            let _ = writeln!(gradle, "    rewrite(\"{artifact}\")");
        }
        gradle.push_str("}\n");
    }
    out.push_str(&report::fenced("groovy", &gradle));
    out.push_str(
        "\nOn other repositories, one pull request each: \
`rewrite-assist apply --recipe rewrite.yml --recipe-name ",
    );
    let _ = writeln!(out, "{recipe_name} --repos owner/a,owner/b`.\n");
    out
}

#[cfg(test)]
mod workflow_tests {
    use super::*;

    #[test]
    fn workflow_sections_are_split_off() {
        let diff = "diff --git a/pom.xml b/pom.xml\n--- a/pom.xml\n+++ b/pom.xml\n@@ -1 +1 @@\n-a\n+b\n\
diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml\n--- a/.github/workflows/ci.yml\n+++ b/.github/workflows/ci.yml\n@@ -1 +1 @@\n-java: 11\n+java: 17\n\
diff --git a/.github/dependabot.yml b/.github/dependabot.yml\n--- a/.github/dependabot.yml\n+++ b/.github/dependabot.yml\n@@ -1 +1 @@\n-x\n+y\n";
        let (kept, left_out) = without_workflow_files(diff);
        assert_eq!(left_out, vec![".github/workflows/ci.yml"]);
        assert!(kept.contains("pom.xml") && kept.contains("dependabot.yml") && !kept.contains("java: 17"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::report::tests::sample_report;
    use crate::model::Recommendation;

    fn pr() -> PullRequest {
        PullRequest {
            repo: RepoId::parse("acme/shop").unwrap(),
            number: 7,
            title: "Migrate JPA entities to jakarta.persistence".into(),
            base_ref: "main".into(),
            base_sha: "2c957fcc08aefb885e415d9c62856887e25185a6".into(),
            head_ref: "migration".into(),
            head_sha: "f449d6bb24e560ac503646f27221dfe9b89aedea".into(),
            head_repo: Some("acme/shop".into()),
        }
    }

    #[test]
    fn the_option_to_apply() {
        let report = sample_report();
        let s = &report.summary;
        assert_eq!(choose_option(s, None).unwrap().option, 2);
        assert_eq!(choose_option(s, Some(1)).unwrap().option, 1);
        let why = |asked| crate::github::user_message(&choose_option(s, asked).unwrap_err()).unwrap();
        assert!(why(Some(3)).contains("Option 3 could not run (`unknown_recipe`"), "{}", why(Some(3)));
        let mut s = s.clone();
        s.options.truncate(2);
        assert!(
            crate::github::user_message(&choose_option(&s, Some(3)).unwrap_err())
                .unwrap()
                .contains("options: 1, 2")
        );
        s.recommended = Some(Recommendation {
            confidence: Confidence::NoReliableRecipe,
            f1: 0.3,
            ..s.recommended.clone().unwrap()
        });
        let text = crate::github::user_message(&choose_option(&s, None).unwrap_err()).unwrap();
        assert!(text.contains("`/rewrite-assist apply 2`"), "{text}");
        s.recommended = None;
        assert!(choose_option(&s, None).is_err());
    }

    #[test]
    fn the_recipe_is_renamed_after_its_pr() {
        let report = sample_report();
        let option = &report.summary.options[1];
        let yaml = "type: specs.openrewrite.org/v1beta/recipe\nname: rewriteassist.Option2\nrecipeList:\n  - org.openrewrite.java.ChangePackage:\n      oldPackageName: javax.persistence\n      newPackageName: jakarta.persistence\n";
        let recipe = migration_recipe(&pr(), option, yaml).unwrap();
        assert_eq!(recipe.name, "rewriteassist.Pr7Option2Narrow");
        assert_eq!(recipe.main.recipe_list.len(), 1);
        assert!(recipe.wrappers.is_empty());
        assert!(
            recipe.main.description.starts_with("Migrate JPA entities to jakarta.persistence. Generated"),
            "{}",
            recipe.main.description
        );
        assert_eq!(branch_name(7, 2), "rewrite-assist/pr-7-option-2");
    }

    #[test]
    fn scoping_wrappers_travel_with_the_recipe_renamed_alike() {
        let report = sample_report();
        let mut option = report.summary.options[1].clone();
        option.recipe_name = "rewriteassist.Option3Synthesized".into();
        let yaml = "type: specs.openrewrite.org/v1beta/recipe\nname: rewriteassist.Option3Synthesized\nrecipeList:\n  - rewriteassist.Option3Synthesized.Scoped1\n---\ntype: specs.openrewrite.org/v1beta/recipe\nname: rewriteassist.Option3Synthesized.Scoped1\npreconditions:\n  - org.openrewrite.FindSourceFiles:\n      filePattern: src/A.java\nrecipeList:\n  - org.openrewrite.java.ChangeType:\n      oldFullyQualifiedTypeName: java.util.List\n      newFullyQualifiedTypeName: java.util.Set\n";
        let recipe = migration_recipe(&pr(), &option, yaml).unwrap();
        let written = recipe.to_yaml();
        let file = RecipeFile::parse(&written).unwrap();
        assert_eq!(file.names(), vec![recipe.name.as_str(), &format!("{}.Scoped1", recipe.name)]);
        let steps = file.external_steps(&recipe.name);
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0].name, "org.openrewrite.java.ChangeType");
        assert!(written.contains("org.openrewrite.FindSourceFiles"), "{written}");
        assert!(!written.contains("Option3Synthesized"), "{written}");
    }

    #[test]
    fn migration_pr_body() {
        let report = sample_report();
        let option = &report.summary.options[1];
        let versions = Versions::default();
        let diff = "diff --git a/pom.xml b/pom.xml\n--- a/pom.xml\n+++ b/pom.xml\n@@ -1 +1 @@\n-a\n+b\n";
        let body = render_pr_body(&PrBody {
            origin: "Opened by rewrite-assist from #7.".into(),
            option: Some(option),
            confidence: Confidence::of(option.f1),
            recipe_name: "rewriteassist.Pr7Option2Narrow",
            recipe_yaml: report.recipe_yaml.as_deref().unwrap(),
            recipe_artifacts: &["org.openrewrite.recipe:rewrite-migrate-java:3.42.0".to_string()],
            versions: &versions,
            diff,
        });
        let body = body
            .replace(&versions.maven_plugin, "<maven-plugin>")
            .replace(&versions.gradle_plugin, "<gradle-plugin>");
        insta::assert_snapshot!(body);
    }

    #[test]
    fn a_huge_change_list_is_cut_under_the_limit() {
        let report = sample_report();
        let diff: String = (0..5_000)
            .map(|i| format!("diff --git a/src/F{i}.java b/src/F{i}.java\n--- a/src/F{i}.java\n+++ b/src/F{i}.java\n@@ -1 +1 @@\n-a\n+b\n"))
            .collect();
        let body = render_pr_body(&PrBody {
            origin: "x".into(),
            option: None,
            confidence: Confidence::Recommended,
            recipe_name: "r",
            recipe_yaml: report.recipe_yaml.as_deref().unwrap(),
            recipe_artifacts: &[],
            versions: &Versions::default(),
            diff: &diff,
        });
        assert!(body.len() <= pulls::BODY_LIMIT, "{}", body.len());
        assert!(body.contains("Changed files (5000)") && body.contains(report::TRUNCATED_NOTE));
    }
}
