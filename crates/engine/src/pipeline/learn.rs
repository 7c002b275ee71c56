//! The learning phase (#39): where the option the decision would pick (or else option 3) still writes
//! Java lines as plain text, the runner learns Refaster templates from the PR's repeated edits of
//! those lines, compiles them into a recipe jar (`learned/`) and keeps those that change nothing the
//! PR left alone; where it writes a Gradle line as text that one of the runner's Gradle recipes makes
//! (`templates::gradle`), that recipe becomes a learned step and travels in the same jar. Option 3
//! with them before its text steps is validated and replaces option 3 when it is better by the
//! decision's rules (the same lines, more of them semantic).

use anyhow::Result;

use super::budget::Budget;
use super::context::Context;
use super::products::{Checkout, Report, Step, Validated};
use super::state::PhaseEnd;
use crate::model::intent::IntentTree;
use crate::model::residual::Measure;
use crate::templates;
use crate::validation::embedded::protocol::{LearnRequest, LearnResults, LearnedJars};

/// The directory of the run that holds what learning made: the template source, the jar and its
/// POM, `learned.json` and how to use them (`README.md`).
pub(crate) const LEARNED_DIR: &str = "learned";
/// What the runner learned and refused (`LearnedFile`); `apply` reads the jar and its libraries
/// from it ([`super::artifacts::learned`]).
pub(crate) const LEARNED_JSON: &str = super::artifacts::LEARNED_JSON;

pub(super) fn learn(
    ctx: &Context,
    budget: &mut Budget,
    (checkout, tree): (&Checkout, Option<&IntentTree>),
    candidates: &[&Validated],
    measure: Option<&Measure>,
) -> Result<Step<Validated>> {
    let ran: Vec<&Validated> = candidates.iter().copied().filter(|v| v.result.ran()).collect();
    if ran.is_empty() {
        return Ok(Report::bare(PhaseEnd::Skipped, "no option that ran to learn for").into());
    }
    // The first candidate with something to learn from: the option the decision would pick, else
    // option 3 (whose text may be what learning turns into the recommended recipe).
    let Some((current, edits, gradle)) = ran.into_iter().find_map(|v| material(checkout, tree, v)) else {
        return Ok(Report::bare(
            PhaseEnd::Skipped,
            "no Java edit the option makes as text repeats, and no Gradle line it writes as text has a learned recipe",
        )
        .into());
    };
    let Some(session) = ctx.session(checkout)? else {
        return Ok(Report::bare(PhaseEnd::Skipped, "needs the embedded runner (backend plugin)").into());
    };
    let Some(left) = budget.time_left() else {
        return Ok(Report::bare(PhaseEnd::OutOfBudget, super::budget::WALL_SPENT).into());
    };
    ctx.progress.message(&format!(
        "learning templates from {} Java edits, {} Gradle step(s)",
        edits.len(),
        gradle.len()
    ));
    let coordinates = templates::coordinates(&checkout.commits.head);
    let request = request(ctx, (checkout, &coordinates), edits, !gradle.is_empty());
    let results = match session.learn_templates(request, left.min(ctx.req.budgets.per_execution))? {
        Ok(results) => results,
        Err(stopped) => {
            return Ok(Report::bare(PhaseEnd::Failed, format!("the runner stopped: {stopped}")).into());
        }
    };
    ctx.dir.write_json(LEARNED_JSON, &LearnedFile::of(&results, &gradle, coordinates.clone()))?;
    let mut outputs = vec![LEARNED_JSON.to_string()];
    if let Some(source) = &results.source {
        let name = format!("{LEARNED_DIR}/src/{}", source.file);
        ctx.dir.write(&name, &source.text)?;
        outputs.push(name);
    }
    if !results.ok {
        let why = results.error.as_ref().map(|e| e.message.clone()).unwrap_or_default();
        return Ok(Report::new(PhaseEnd::Failed, format!("learning failed: {why}"), outputs).into());
    }
    let Some(jar) = results.jar.clone() else {
        let detail = format!("no template: {} shapes refused{}", results.refused.len(), refusals(&results));
        return Ok(Report::new(PhaseEnd::Skipped, detail, outputs).into());
    };
    let readme = format!("{LEARNED_DIR}/README.md");
    ctx.dir.write(
        &readme,
        templates::readme(&results, &gradle, (&coordinates, &ctx.req.versions.maven_plugin)),
    )?;
    outputs.push(readme);
    session.use_learned(LearnedJars { jars: vec![jar], libraries: results.libraries.clone() })?;
    let gradle_steps = gradle.len();
    let option = challenger(current, &results, gradle);
    let dir = ctx.dir.sub(&format!("{LEARNED_DIR}/validation"))?;
    let name = format!(
        "{} learned template(s) and {} learned Gradle step(s) in {:.1} s",
        results.templates.len(),
        gradle_steps,
        results.seconds
    );
    let mut step = super::validate::validate_challenger(
        ctx,
        budget,
        (checkout, measure),
        &option,
        Some(current),
        (dir, name),
    )?;
    step.report.outputs.extend(outputs);
    if step.product.is_none() && step.report.outcome == PhaseEnd::Ok {
        step.report.detail.push_str("; option 3 without them stays (as good or better)");
    }
    Ok(step)
}

/// What `current` writes as text that learning may make semantic: the PR's Java edits of those
/// lines (none when too few to learn from) and the learned Gradle steps; None when neither.
fn material<'a>(
    checkout: &Checkout,
    tree: Option<&IntentTree>,
    current: &'a Validated,
) -> Option<(
    &'a Validated,
    Vec<crate::validation::embedded::protocol::TemplateEdit>,
    Vec<crate::model::PlannedStep>,
)> {
    let text_steps: Vec<&crate::model::PlannedStep> =
        current.option.steps.iter().filter(|s| !s.semantic).collect();
    let mut edits = templates::edits(&checkout.pr, |line| {
        text_steps.iter().any(|s| crate::decision::text_step_explains(s, line))
    });
    if edits.len() < templates::MIN_OCCURRENCES {
        edits.clear();
    }
    let gradle = tree.map(|t| templates::gradle::steps(t, &text_steps)).unwrap_or_default();
    (!edits.is_empty() || !gradle.is_empty()).then_some((current, edits, gradle))
}

/// The runner's request: the Java `edits` (none when too few), and the Gradle recipes in the jar
/// when a learned Gradle step needs them.
fn request(
    ctx: &Context,
    (checkout, coordinates): (&Checkout, &str),
    edits: Vec<crate::validation::embedded::protocol::TemplateEdit>,
    gradle_recipes: bool,
) -> LearnRequest {
    LearnRequest {
        head_files: head_files(checkout, &edits),
        edits,
        libraries: Vec::new(),
        package: templates::PACKAGE.into(),
        class: templates::CLASS.into(),
        directory: ctx.dir.path(LEARNED_DIR),
        coordinates: coordinates.to_string(),
        min_occurrences: templates::MIN_OCCURRENCES,
        gradle_recipes,
    }
}

/// The edited files' head texts (the after side's imports), and those of the POMs the PR changed:
/// the templates compile against the classpath the PR's build gives (AssertJ the PR adds).
fn head_files(
    checkout: &Checkout,
    edits: &[crate::validation::embedded::protocol::TemplateEdit],
) -> std::collections::BTreeMap<String, String> {
    let mut head_files: std::collections::BTreeMap<String, String> = edits
        .iter()
        .filter_map(|e| Some((e.path.clone(), checkout.pr_view.head.get(&e.path)?.clone())))
        .collect();
    for (path, text) in &checkout.pr_view.head {
        if path == "pom.xml" || path.ends_with("/pom.xml") {
            head_files.insert(path.clone(), text.clone());
        }
    }
    head_files
}

/// Option 3 whichever option `current` was, with the learned recipe (when templates were learned)
/// and the learned `gradle` steps ahead of its text steps; the template recipe for the intents of
/// those text steps.
fn challenger(
    current: &Validated,
    results: &LearnResults,
    gradle: Vec<crate::model::PlannedStep>,
) -> crate::model::CandidateOption {
    let mut intents: Vec<String> = Vec::new();
    for id in current.option.steps.iter().filter(|s| !s.semantic).flat_map(|s| s.intents.clone()) {
        if !intents.contains(&id) {
            intents.push(id);
        }
    }
    let mut option = current.option.clone();
    option.number = crate::model::OptionId::Synthesized;
    option.strategy = option.number.strategy();
    let mut learned = Vec::new();
    if let Some(recipe) = results.recipe.as_deref() {
        learned.push(templates::learned_step(recipe, results.templates.len(), intents));
        option.notes.push(format!(
            "{} template{} learned from the PR (learned/): {}",
            results.templates.len(),
            if results.templates.len() == 1 { "" } else { "s" },
            results.templates.iter().map(|t| t.after.trim().to_string()).collect::<Vec<_>>().join("; ")
        ));
    }
    for step in &gradle {
        option.notes.push(format!("learned Gradle step (learned/): {}", step.reason));
    }
    templates::gradle::without_replaced_text(&mut option.steps, &gradle);
    learned.extend(gradle);
    let first_text = option.steps.iter().position(|s| !s.semantic).unwrap_or(option.steps.len());
    option.steps.splice(first_text..first_text, learned);
    option
}

/// `, first: why` for a report line.
fn refusals(results: &LearnResults) -> String {
    results.refused.first().map(|r| format!(" (first: {})", r.reason)).unwrap_or_default()
}

/// `learned/learned.json`: what the runner learned and refused, for a reviewer and for tests.
#[derive(serde::Serialize)]
struct LearnedFile<'a> {
    seconds: f64,
    templates: Vec<serde_json::Value>,
    refused: Vec<serde_json::Value>,
    recipe: Option<&'a str>,
    jar: Option<String>,
    pom: Option<String>,
    /// The jar's Maven coordinates (`apply --backend plugin` installs it under them).
    coordinates: String,
    /// The jars the templates were compiled against: a run of the jar needs them (`apply`).
    libraries: &'a [std::path::PathBuf],
    warnings: &'a [String],
    /// The learned Gradle steps the jar's Gradle recipes are there for (`gradle_recipes`).
    gradle_steps: Vec<serde_json::Value>,
}

impl<'a> LearnedFile<'a> {
    fn of(results: &'a LearnResults, gradle: &[crate::model::PlannedStep], coordinates: String) -> Self {
        let place = |p: &crate::validation::embedded::protocol::Place| format!("{}:{}", p.path, p.line);
        let name = |path: &Option<std::path::PathBuf>| {
            path.as_ref().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned())
        };
        LearnedFile {
            seconds: results.seconds,
            templates: results
                .templates
                .iter()
                .map(|t| {
                    serde_json::json!({
                        "name": t.name, "recipe": t.recipe,
                        "parameters": t.parameters.iter().map(|p| format!("{} {}", p.java_type, p.name)).collect::<Vec<_>>(),
                        "before": t.before, "after": t.after,
                        "occurrences": t.occurrences.iter().map(place).collect::<Vec<_>>(),
                        "matches": t.matches.iter().map(place).collect::<Vec<_>>(),
                    })
                })
                .collect(),
            refused: results
                .refused
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "before": r.before, "after": r.after, "reason": r.reason,
                        "occurrences": r.occurrences.iter().map(place).collect::<Vec<_>>(),
                    })
                })
                .collect(),
            recipe: results.recipe.as_deref(),
            jar: name(&results.jar),
            pom: name(&results.pom),
            coordinates,
            libraries: &results.libraries,
            warnings: &results.warnings,
            gradle_steps: gradle
                .iter()
                .map(|s| serde_json::json!({"recipe": s.step.name, "options": s.step.options, "why": s.reason}))
                .collect(),
        }
    }
}
