//! Discovery's follow-up round. Some catalog recipes only apply to code that is already migrated:
//! JUnit 5's best practices (`TestsShouldNotBePublic`) need Jupiter's `@Test`, AssertJ's need
//! AssertJ's assertions, Spring Boot 3's cleanups need Boot 3. On the base commit they change
//! nothing, so the first round cannot find them. They run again here on the trees the migration
//! recipes found so far make (the runner's `after`), and what each changes of those trees is
//! compared with the PR like any other recipe's diff. A recipe found here runs after the other
//! semantic steps of option 3 ([`crate::model::PlannedStep::after_migration`]).

use std::time::Instant;

use anyhow::Result;

use super::pool::Candidate;
use super::run::{BATCH, Inputs, STEP_GRACE, record, split_round};
use super::{Discovery, Tried};
use crate::openrewrite::RecipeStep;
use crate::openrewrite::recipe_names::{LAMBDA_BLOCK_TO_EXPRESSION, REMOVE_UNUSED_IMPORTS};
use crate::openrewrite::recipe_yaml::DeclarativeRecipe;

/// The recipe the follow-up round runs first: the migration as discovery found it.
pub(crate) const MIGRATION: &str = "rewriteassist.DiscoveryMigration";
/// The follow-up round's recipes, each run on its own after [`MIGRATION`].
const FOLLOW_UPS: &str = "rewriteassist.DiscoveryFollowUps";
/// Both, in the run directory.
pub(crate) const FOLLOW_UPS_YAML: &str = "discovery-follow-ups.yaml";
/// Recipes in the follow-up round, at most: the pool's most promising that did not already
/// explain the PR on the base commit.
const MAX_FOLLOW_UPS: usize = BATCH;

/// Tidy-ups an author often makes by hand after a migration tool ran (a block lambda made an
/// expression, the imports the migration left unused removed): each gets its chance on the
/// migrated Java code, and the cover keeps it only where it writes the PR's lines.
const TIDY_UPS: [&str; 2] = [LAMBDA_BLOCK_TO_EXPRESSION, REMOVE_UNUSED_IMPORTS];

/// [`TIDY_UPS`] the catalog has, when the PR changes Java code and they are not already among the
/// follow-ups or the migration.
fn tidy_ups(
    pr: &crate::diff::Diff,
    catalog: &crate::catalog::Catalog,
    follow_ups: &[Candidate],
    migration: &[RecipeStep],
) -> Vec<Candidate> {
    let java = pr.files.iter().any(|f| f.new_path.as_deref().is_some_and(|p| p.ends_with(".java")));
    if !java {
        return Vec::new();
    }
    TIDY_UPS
        .iter()
        .filter(|name| catalog.get(name).is_some())
        .filter(|name| {
            !follow_ups.iter().any(|c| c.name == **name) && !migration.iter().any(|s| s.name == **name)
        })
        .map(|name| Candidate {
            name: name.to_string(),
            score: 0.0,
            why: "a tidy-up an author often makes after a migration".into(),
        })
        .collect()
}

/// Runs the follow-up round (and splits what over-applies in it) when the first round found a
/// migration to run first.
pub(crate) fn run(
    inputs: &Inputs<'_>,
    discovery: &mut Discovery,
    pool: &[Candidate],
    started: Instant,
) -> Result<()> {
    let migration = migration(discovery);
    if migration.is_empty() || discovery.stopped.is_some() {
        return Ok(());
    }
    if nothing_left_to_win(inputs, discovery) {
        tracing::info!(
            "discovery: no follow-up round: the recipes chosen so far make every line of the migration"
        );
        return Ok(());
    }
    let mut candidates: Vec<Candidate> = pool
        .iter()
        .filter(|c| worth_again(discovery, c, &migration, inputs.catalog))
        .take(MAX_FOLLOW_UPS)
        .cloned()
        .collect();
    candidates.extend(tidy_ups(inputs.pr, inputs.catalog, &candidates, &migration));
    if candidates.is_empty() {
        return Ok(());
    }
    let Some(left) = inputs.budget.checked_sub(started.elapsed()) else {
        discovery.not_run += candidates.len();
        return Ok(());
    };
    let file = inputs.dir.join(FOLLOW_UPS_YAML);
    std::fs::write(&file, follow_ups_yaml(&migration, &candidates))?;
    match inputs.session.run_steps(
        vec![file.clone()],
        FOLLOW_UPS,
        Some(MIGRATION),
        left,
        left + STEP_GRACE,
    )? {
        Ok(results) if results.ok => {
            discovery.not_run += results.not_run.len();
            for run in results.steps() {
                let why = candidates
                    .get(run.step.unwrap_or(usize::MAX))
                    .map(|c| c.why.as_str())
                    .unwrap_or_default();
                record(inputs, discovery, run, format!("after the migration; {why}"), 1, true);
            }
        }
        Ok(results) => {
            // The migration itself did not run: nothing found on its result would be right.
            let why = results.error.map(|e| e.message).unwrap_or_default();
            tracing::info!("discovery: no follow-up round: {why}");
            return Ok(());
        }
        Err(stopped) => {
            discovery.stopped = Some(stopped.to_string());
            return Ok(());
        }
    }
    for round in 2..2 + super::run::SPLIT_ROUNDS {
        split_round(inputs, discovery, round, started, Some(&file))?;
    }
    Ok(())
}

/// Whether the recipes the cover chooses so far already make every line of the PR's migration
/// (as often as the PR has it): what the follow-up round finds could then only repeat them, and
/// its seconds (a migration run and dozens of recipes on its result) are spent for nothing. The
/// side work (lines outside the migration, [`Inputs::side_work`]) is left out.
fn nothing_left_to_win(inputs: &Inputs<'_>, discovery: &Discovery) -> bool {
    let side_work = inputs.side_work.map(|side_work| side_work(discovery)).unwrap_or_default();
    all_made(inputs.pr, &side_work, &discovery.tried)
}

/// Whether the recipes the cover chooses among `tried` make every line of `pr` outside
/// `side_work`, as often as `pr` has it (false when no line is left to make).
fn all_made(
    pr: &crate::diff::Diff,
    side_work: &std::collections::HashSet<(String, crate::diff::ChangeKind, String)>,
    tried: &[Tried],
) -> bool {
    let pr = crate::metrics::compare(pr, &crate::diff::Diff::default());
    let mut wanted: std::collections::HashMap<super::cover::LineKey<'_>, usize> = Default::default();
    let migration = pr
        .false_negative_lines
        .iter()
        .filter(|l| !side_work.contains(&(l.path.clone(), l.kind, l.content.clone())));
    for line in migration {
        *wanted.entry(super::cover::key(line)).or_default() += 1;
    }
    let made = super::cover::covered(tried);
    !wanted.is_empty() && wanted.iter().all(|(k, n)| made.get(k).copied().unwrap_or(0) >= *n)
}

/// The migration found on the base commit: the recipe that was right most often even though it
/// over-applied (the broad migration; what else it changes does not matter to what follows it),
/// then the recipes the cover chose so far.
fn migration(discovery: &Discovery) -> Vec<RecipeStep> {
    let on_base = |t: &&Tried| !t.on_migration && t.error.is_none();
    let broad = discovery
        .tried
        .iter()
        .filter(on_base)
        .filter(|t| t.over_applying())
        .max_by(|a, b| a.tp().cmp(&b.tp()).then(b.fp().cmp(&a.fp())));
    let chosen = super::cover::choose(&discovery.tried);
    let mut steps: Vec<RecipeStep> = Vec::new();
    for step in broad.into_iter().chain(chosen.iter().map(|c| &discovery.tried[c.tried])).map(|t| &t.step) {
        if !steps.iter().any(|s| s.signature() == step.signature()) {
            steps.push(step.clone());
        }
    }
    steps
}

/// A pool recipe that ran on the base commit without failing and did not already reproduce the PR
/// cleanly there, and is not part of the migration itself: neither one of its steps nor among their
/// members (`UpgradeSpringBoot_3_0` inside a migration of `UpgradeSpringBoot_3_1` already ran on
/// the trees it would run on again, and such composites take seconds).
fn worth_again(
    discovery: &Discovery,
    candidate: &Candidate,
    migration: &[RecipeStep],
    catalog: &crate::catalog::Catalog,
) -> bool {
    if migration.iter().any(|s| catalog.runs(&s.name, &candidate.name)) {
        return false;
    }
    discovery
        .tried
        .iter()
        .find(|t| !t.on_migration && t.round == 1 && t.step.name == candidate.name)
        .is_some_and(|t| t.error.is_none() && !t.clean())
}

fn follow_ups_yaml(migration: &[RecipeStep], candidates: &[Candidate]) -> String {
    let first = DeclarativeRecipe {
        name: MIGRATION.into(),
        display_name: "Discovery: the migration found on the base commit".into(),
        description: "Runs first; the follow-up round's recipes run on its result.".into(),
        preconditions: Vec::new(),
        recipe_list: migration.to_vec(),
    };
    let follow_ups = DeclarativeRecipe {
        name: FOLLOW_UPS.into(),
        display_name: "Discovery: follow-up recipes".into(),
        description:
            "Candidate recipes, each run on its own on the migrated trees by rewrite-assist's discovery."
                .into(),
        preconditions: Vec::new(),
        recipe_list: candidates.iter().map(|c| RecipeStep::new(c.name.clone())).collect(),
    };
    format!("{}---\n{}", first.to_yaml(), follow_ups.to_yaml())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::ChangeKind;
    use crate::model::ChangeLine;

    fn line(content: &str) -> ChangeLine {
        ChangeLine { path: "A.java".into(), kind: ChangeKind::Added, line: 1, content: content.into() }
    }

    fn tried(name: &str, tp: &[&str], fp: &[&str]) -> Tried {
        Tried::for_test(name, 0, tp.iter().map(|c| line(c)).collect(), fp.iter().map(|c| line(c)).collect())
    }

    fn candidate(name: &str) -> Candidate {
        Candidate { name: name.into(), score: 1.0, why: String::new() }
    }

    /// The follow-up round has something to win while a line of the migration is not made by the
    /// chosen recipes, as often as the PR has it; the side work does not count.
    #[test]
    fn the_follow_up_round_is_skipped_once_the_chosen_recipes_make_every_migration_line() {
        let pr = crate::diff::parse(
            "diff --git a/A.java b/A.java\n--- a/A.java\n+++ b/A.java\n@@ -1,2 +1,4 @@\n-old\n+x\n+x\n+y\n+tidy\n keep\n",
        )
        .unwrap();
        let tidy: std::collections::HashSet<(String, ChangeKind, String)> =
            [("A.java".to_string(), ChangeKind::Added, "tidy".to_string())].into();
        let none = std::collections::HashSet::new();
        let removed = ChangeLine { kind: ChangeKind::Removed, ..line("old") };
        let all = Tried::for_test("a.All", 0, vec![line("x"), line("x"), line("y"), removed.clone()], vec![]);
        let once = Tried::for_test("a.Once", 0, vec![line("x"), line("y"), removed], vec![]);
        assert!(all_made(&pr, &tidy, std::slice::from_ref(&all)));
        assert!(!all_made(&pr, &none, std::slice::from_ref(&all)), "the side work counts without it");
        assert!(!all_made(&pr, &tidy, &[once]), "one of the two `x` lines is not made");
        assert!(!all_made(&pr, &tidy, &[]));
    }

    #[test]
    fn the_migration_is_the_broadest_over_applying_recipe_then_the_chosen_ones() {
        let discovery = Discovery {
            tried: vec![
                tried("a.Narrow", &["x"], &[]),
                tried("a.Broad", &["x", "y", "z"], &["w"]),
                tried("a.Smaller", &["y"], &["v"]),
                tried("a.Nothing", &[], &[]),
            ],
            ..Discovery::default()
        };
        let names: Vec<String> = migration(&discovery).into_iter().map(|s| s.name).collect();
        assert_eq!(names, vec!["a.Broad", "a.Narrow"]);
    }

    #[test]
    fn follow_ups_are_the_pool_recipes_that_ran_and_did_not_already_explain_the_pr() {
        let mut failed = tried("a.Failed", &[], &[]);
        failed.error = Some("boom".into());
        let discovery = Discovery {
            tried: vec![
                tried("a.Clean", &["x"], &[]),
                tried("a.Broad", &["x", "y"], &["w"]),
                tried("a.Nothing", &[], &[]),
                tried("a.Over", &["y"], &["v"]),
                failed,
            ],
            ..Discovery::default()
        };
        let migration = migration(&discovery);
        let pool: Vec<Candidate> =
            ["a.Clean", "a.Broad", "a.Nothing", "a.Over", "a.Failed", "a.NeverRan"].map(candidate).to_vec();
        let catalog = crate::catalog::Catalog::enriched();
        let again: Vec<&str> = pool
            .iter()
            .filter(|c| worth_again(&discovery, c, &migration, catalog))
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(again, vec!["a.Nothing", "a.Over"]);
        let yaml = follow_ups_yaml(
            &migration,
            &pool.iter().filter(|c| c.name == "a.Nothing").cloned().collect::<Vec<_>>(),
        );
        assert!(yaml.contains(MIGRATION) && yaml.contains(FOLLOW_UPS), "{yaml}");
        assert_eq!(yaml.matches("  - a.").count(), 3, "{yaml}");
    }

    #[test]
    fn a_member_of_the_migration_does_not_run_again_but_a_composite_around_it_does() {
        let boot = |minor: u8| format!("org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_{minor}");
        let discovery = Discovery {
            tried: vec![
                tried(&boot(1), &["x", "y"], &["w"]),
                tried(&boot(0), &["x"], &["w"]),
                tried(&boot(2), &["x", "y"], &["w", "v"]),
            ],
            ..Discovery::default()
        };
        let migration = migration(&discovery);
        assert_eq!(migration[0].name, boot(1), "{migration:?}");
        let catalog = crate::catalog::Catalog::enriched();
        assert!(catalog.runs(&boot(1), &boot(0)), "Boot 3.1's upgrade runs 3.0's");
        let again: Vec<String> = [0, 2]
            .map(|minor| candidate(&boot(minor)))
            .into_iter()
            .filter(|c| worth_again(&discovery, c, &migration, catalog))
            .map(|c| c.name)
            .collect();
        assert_eq!(again, vec![boot(2)]);
    }

    #[test]
    fn tidy_ups_follow_a_java_migration_once() {
        let catalog = crate::catalog::Catalog::enriched();
        let java = crate::diff::parse(
            "diff --git a/src/A.java b/src/A.java\n--- a/src/A.java\n+++ b/src/A.java\n@@ -1 +1 @@\n-import a.B;\n+import c.B;\n",
        )
        .unwrap();
        let names = |c: Vec<Candidate>| c.into_iter().map(|c| c.name).collect::<Vec<_>>();
        assert_eq!(names(tidy_ups(&java, catalog, &[], &[])), TIDY_UPS);
        // Not twice: already a follow-up, or part of the migration.
        let already = [candidate(TIDY_UPS[0])];
        let migration = [RecipeStep::new(TIDY_UPS[1])];
        assert!(tidy_ups(&java, catalog, &already, &migration).is_empty());
        // No Java changed: nothing to tidy.
        let pom = crate::diff::parse(
            "diff --git a/pom.xml b/pom.xml\n--- a/pom.xml\n+++ b/pom.xml\n@@ -1 +1 @@\n-<a/>\n+<b/>\n",
        )
        .unwrap();
        assert!(tidy_ups(&pom, catalog, &[], &[]).is_empty());
    }
}
