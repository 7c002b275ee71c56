//! Commits that bring a recipe to a repository: the recipe merged into `rewrite.yml` at the build's
//! root (where the build plugins read it) and, for a rollout, the changes it makes, on top of a
//! commit, pushed with the token. Also the recipe renamed after the pull request it came from, so
//! several PRs' recipes can live in one `rewrite.yml`.

use std::path::Path;

use anyhow::{Context, Result};

use super::branch::{self, PushTarget, Refusal};
use super::choice::{ChosenRecipe, RecipeChoice};
use super::remote::Remote;
use super::source::SourcePr;
use super::user_facing;
use crate::openrewrite::{DeclarativeRecipe, RecipeFile};

/// The file OpenRewrite's build plugins read recipes from by default.
pub(crate) const REWRITE_YML: &str = "rewrite.yml";

/// What goes into a commit.
#[derive(Debug, Clone)]
pub(crate) struct Changes<'a> {
    /// A unified diff (`git diff` format) applied with `git apply`; may be empty.
    pub diff: &'a str,
    /// Recipe YAML merged into the recipe file (a same-named recipe is replaced).
    pub recipe_yaml: Option<&'a str>,
    /// The recipe file, relative to the repository root: `rewrite.yml` at the build's root.
    pub recipe_path: &'a str,
    pub message: &'a str,
}

/// Applies `changes` to the checkout at `dir` and commits them; false when they change nothing.
pub(crate) fn commit(dir: &Path, changes: &Changes<'_>) -> Result<bool> {
    if !changes.diff.trim().is_empty() {
        let patch = dir.with_extension("changes.diff");
        std::fs::write(&patch, changes.diff)?;
        crate::setup::git::git_output(
            dir,
            ["apply".as_ref(), "--whitespace=nowarn".as_ref(), patch.as_os_str()],
        )
        .map_err(|e| {
            user_facing(format!("The recipe's changes do not apply: {}", crate::error::one_line(&e)))
        })?;
    }
    if let Some(recipe) = changes.recipe_yaml {
        let path = dir.join(changes.recipe_path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let existing = std::fs::read_to_string(&path).ok();
        let merged = crate::openrewrite::rewrite_yml::merge(existing.as_deref(), recipe).map_err(|e| {
            user_facing(format!("I could not add the recipe to `{}`: {e}", changes.recipe_path))
        })?;
        std::fs::write(&path, merged)?;
    }
    crate::setup::git::git_output(dir, ["add", "-A"])?;
    let staged = crate::setup::git::git_output(dir, ["diff", "--cached", "--name-only"])?;
    if staged.stdout.is_empty() {
        return Ok(false);
    }
    crate::setup::git::git_output(dir, ["commit", "--quiet", "-m", changes.message])?;
    Ok(true)
}

/// What [`publish_branch`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Published {
    /// The branch now holds `commit` (created, recreated, or already there).
    Pushed { commit: String },
    /// The branch was left as it is, for this reason.
    Refused(Refusal),
}

/// Commits `changes` on top of `base` (a commit in the repository at `source`) in a temporary
/// clone, with the bot's trailer, and pushes it to a branch of the bot's ([`branch`]): created,
/// or recreated with a lease on the tip it holds; left alone when it is the default branch or
/// someone else's, unless `take_over` (the PR's box is ticked).
pub(crate) fn publish_branch(
    source: &Path,
    base: &str,
    changes: &Changes<'_>,
    remote: &Remote,
    target: &PushTarget<'_>,
    take_over: bool,
) -> Result<Published> {
    let clone = crate::setup::git::clone_at(source, base)?;
    let dir = clone.path();
    let lease = match branch::lease(remote, dir, target, base, take_over)? {
        Ok(lease) => lease,
        Err(refusal) => return Ok(Published::Refused(refusal)),
    };
    let message = branch::with_trailer(changes.message, target.branch);
    if !commit(dir, &Changes { message: &message, ..changes.clone() })? {
        return Err(user_facing("There is nothing to change: the branch would equal the base commit."));
    }
    let commit = head(dir)?;
    if let Some(tip) = &lease
        && same_change(dir, tip, &commit)?
    {
        return Ok(Published::Pushed { commit: tip.clone() });
    }
    remote.push_head(dir, target.repo, target.branch, lease.as_deref()).context("pushing the branch")?;
    Ok(Published::Pushed { commit })
}

/// Whether `tip` already is `commit`'s change: the same files on the same parent (a rerun that
/// found nothing new pushes nothing).
fn same_change(dir: &Path, tip: &str, commit: &str) -> Result<bool> {
    let of = |rev: String| -> Result<String> {
        let out = crate::setup::git::git_output(
            dir,
            ["rev-parse", "--verify", "--quiet", "--end-of-options", &rev],
        );
        Ok(out.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_default())
    };
    Ok(of(format!("{tip}^{{tree}}"))? == of(format!("{commit}^{{tree}}"))?
        && of(format!("{tip}^"))? == of(format!("{commit}^"))?)
}

/// The commit checked out at `dir`.
pub(crate) fn head(dir: &Path) -> Result<String> {
    let head = crate::setup::git::git_output(dir, ["rev-parse", "HEAD"])?;
    Ok(String::from_utf8_lossy(&head.stdout).trim().to_string())
}

/// The chosen recipe renamed after the PR it came from; the recipes it runs from the same file
/// (wrappers that scope a step to some files) travel with it, renamed alike.
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

/// `rewriteassist.Pr7Reusable`, `rewriteassist.Pr7Option2Narrow`.
pub(crate) fn recipe_name(source: &SourcePr, chosen: &ChosenRecipe) -> String {
    match chosen.choice {
        RecipeChoice::Reusable => format!("rewriteassist.Pr{}Reusable", source.number),
        option => {
            let mut strategy = chosen.run.strategy.label().to_string();
            strategy[..1].make_ascii_uppercase();
            format!("rewriteassist.Pr{}Option{option}{strategy}", source.number)
        }
    }
}

pub(crate) fn migration_recipe(source: &SourcePr, chosen: &ChosenRecipe) -> Result<MigrationRecipe> {
    let file = RecipeFile::parse(&chosen.yaml).context("reading the chosen recipe")?;
    let main = file
        .get(&chosen.run.recipe_name)
        .or_else(|| file.recipes.first())
        .context("the recipe file defines no recipe")?;
    let name = recipe_name(source, chosen);
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
    let run = &chosen.run;
    let main = DeclarativeRecipe {
        preconditions: main.preconditions.clone(),
        name: name.clone(),
        display_name: format!(
            "Migration of {}#{} ({})",
            source.repository,
            source.number,
            what(chosen.choice)
        ),
        description: format!(
            "{} Generated by rewrite-assist from {}#{}; validated against it with F1 {:.4} (precision {:.4}, recall {:.4}).",
            sentence(&source.title),
            source.repository,
            source.number,
            run.f1,
            run.precision,
            run.recall
        ),
        recipe_list: renamed_steps(&main.steps),
    };
    Ok(MigrationRecipe { name, main, wrappers })
}

fn what(choice: RecipeChoice) -> String {
    match choice {
        RecipeChoice::Reusable => "reusable".to_string(),
        option => format!("option {option}"),
    }
}

fn sentence(title: &str) -> String {
    let title = title.trim();
    if title.is_empty() || title.ends_with('.') { title.to_string() } else { format!("{title}.") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::verdict::tests::ready_report;

    fn source() -> SourcePr {
        SourcePr {
            repository: "acme/shop".into(),
            number: 7,
            title: "Migrate JPA entities to jakarta.persistence".into(),
            url: "https://github.com/acme/shop/pull/7".into(),
            working_directory: None,
        }
    }

    fn chosen(choice: RecipeChoice, yaml: &str) -> ChosenRecipe {
        let summary = ready_report().summary;
        let run = match choice {
            RecipeChoice::Reusable => summary.reusable.unwrap().result.unwrap(),
            _ => summary.options[1].clone(),
        };
        ChosenRecipe { choice, yaml: yaml.into(), run }
    }

    #[test]
    fn the_recipe_is_renamed_after_its_pr() {
        let yaml = "type: specs.openrewrite.org/v1beta/recipe\nname: rewriteassist.Option4Reusable\nrecipeList:\n  - org.openrewrite.java.ChangePackage:\n      oldPackageName: javax.persistence\n      newPackageName: jakarta.persistence\n";
        let recipe = migration_recipe(&source(), &chosen(RecipeChoice::Reusable, yaml)).unwrap();
        assert_eq!(recipe.name, "rewriteassist.Pr7Reusable");
        assert_eq!(recipe.main.display_name, "Migration of acme/shop#7 (reusable)");
        assert_eq!(recipe.main.recipe_list.len(), 1);
        assert!(recipe.wrappers.is_empty());
        assert!(
            recipe.main.description.starts_with("Migrate JPA entities to jakarta.persistence. Generated"),
            "{}",
            recipe.main.description
        );
        let option = chosen(RecipeChoice::Two, yaml);
        assert_eq!(recipe_name(&source(), &option), "rewriteassist.Pr7Option2Narrow");
    }

    #[test]
    fn scoping_wrappers_travel_with_the_recipe_renamed_alike() {
        let mut option = chosen(RecipeChoice::Three, "");
        option.run.recipe_name = "rewriteassist.Option3Synthesized".into();
        option.run.strategy = crate::model::Strategy::Synthesized;
        option.yaml = "type: specs.openrewrite.org/v1beta/recipe\nname: rewriteassist.Option3Synthesized\nrecipeList:\n  - rewriteassist.Option3Synthesized.Scoped1\n---\ntype: specs.openrewrite.org/v1beta/recipe\nname: rewriteassist.Option3Synthesized.Scoped1\npreconditions:\n  - org.openrewrite.FindSourceFiles:\n      filePattern: src/A.java\nrecipeList:\n  - org.openrewrite.java.ChangeType:\n      oldFullyQualifiedTypeName: java.util.List\n      newFullyQualifiedTypeName: java.util.Set\n".into();
        let recipe = migration_recipe(&source(), &option).unwrap();
        assert_eq!(recipe.name, "rewriteassist.Pr7Option3Synthesized");
        let written = recipe.to_yaml();
        let file = RecipeFile::parse(&written).unwrap();
        assert_eq!(file.names(), vec![recipe.name.as_str(), &format!("{}.Scoped1", recipe.name)]);
        let steps = file.external_steps(&recipe.name);
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0].name, "org.openrewrite.java.ChangeType");
        assert!(written.contains("org.openrewrite.FindSourceFiles"), "{written}");
        assert!(!written.contains("rewriteassist.Option3Synthesized"), "{written}");
    }

    #[test]
    fn a_commit_merges_the_recipe_into_the_builds_rewrite_yml() {
        let dir = tempfile::tempdir().unwrap();
        let repo = crate::fixtures::RepoBuilder::init(&dir.path().join("repo")).unwrap();
        repo.write("api/rewrite.yml", "---\ntype: specs.openrewrite.org/v1beta/recipe\nname: com.acme.Existing\nrecipeList:\n  - org.openrewrite.java.OrderImports\n").unwrap();
        repo.commit("base").unwrap();
        let yaml = "---\ntype: specs.openrewrite.org/v1beta/recipe\nname: com.acme.New\nrecipeList:\n  - org.openrewrite.java.RemoveUnusedImports\n";
        let changes =
            Changes { diff: "", recipe_yaml: Some(yaml), recipe_path: "api/rewrite.yml", message: "add" };
        assert!(commit(repo.path(), &changes).unwrap());
        let merged = std::fs::read_to_string(repo.path().join("api/rewrite.yml")).unwrap();
        assert!(merged.contains("com.acme.Existing") && merged.contains("com.acme.New"), "{merged}");
        assert!(!commit(repo.path(), &changes).unwrap(), "the same recipe again changes nothing");
    }
}
