//! The run's summary: `workflow-metadata.json` and the text report of `analyze`.

use std::fmt::Write;

use anyhow::Result;

use super::artifacts;
use super::budget::Budget;
use super::context::Context;
use super::driver::Journal;
use super::metadata::{BudgetsUsed, EmbeddedRunner, OpenRewrite, Ref, WorkflowMetadata};
use super::products::Products;
use crate::model::intent::Level;
use crate::model::{IntentSummary, RunStatus, RunSummary};

/// The run's result (`--json`), from what the phases made and what the journal kept.
pub(super) fn summary(ctx: &Context, products: &Products, journal: &Journal) -> RunSummary {
    let status = match (&products.recommendation, journal.problems.is_empty() && journal.fatal.is_none()) {
        (Some(_), true) => RunStatus::Success,
        (Some(_), false) => RunStatus::Partial,
        (None, _) => RunStatus::Failed,
    };
    let reason = match &journal.fatal {
        Some(error) => Some(crate::error::one_line(error)),
        None if journal.problems.is_empty() => None,
        None => Some(journal.problems.join("; ")),
    };
    let intents = products
        .tree
        .as_ref()
        .map(|tree| {
            let all: Vec<&crate::model::intent::Intent> = tree.intents.iter().collect();
            IntentSummary {
                coverage: tree.coverage,
                strategic: all
                    .iter()
                    .filter(|i| i.level() == Level::Strategic)
                    .map(|i| i.title.clone())
                    .collect(),
                tactical: count(&tree.intents, Level::Tactical),
                atomic: tree.atomics().len(),
            }
        })
        .unwrap_or_default();
    // The gate reads what the phases produced; it decides nothing about what runs.
    let gate = crate::decision::pr_kind::classify(products.tree.as_ref(), products.reusable.as_ref());
    let verdict = crate::decision::verdict::verdict(
        gate.kind,
        products.recommendation.as_ref(),
        products.reusable.as_ref(),
    );
    RunSummary {
        status,
        reason,
        pr_kind: gate.kind,
        pr_kind_reason: gate.reason,
        verdict,
        recommended: products.recommendation.clone(),
        options: products.validated.values().map(|v| v.result.clone()).collect(),
        intents,
        artifacts_dir: ctx.dir.root().display().to_string(),
        wall_seconds: crate::metrics::round4(ctx.started.elapsed().as_secs_f64()),
        backend: Some(ctx.req.backend.label().to_string()),
        confirmation: products.confirmation.clone(),
        reusable: products.reusable.clone(),
        authors_way: authors_way(products),
    }
}

/// [`crate::discovery::authors_way`] for the recommended option.
fn authors_way(products: &Products) -> Vec<crate::model::AuthorsWay> {
    let Some(discovery) = &products.discovery else {
        return Vec::new();
    };
    let Some(chosen) = products.chosen() else { return Vec::new() };
    let Some(migration) = &chosen.stats.migration else { return Vec::new() };
    crate::discovery::authors_way::authors_way(
        &migration.lines,
        &chosen.stats.metrics.false_negative_lines,
        &discovery.tried,
    )
}

/// `workflow-metadata.json`: the summary with the run's inputs, versions, budgets and phases.
pub(super) fn write_metadata(
    ctx: &Context,
    budget: &Budget,
    products: &Products,
    journal: &Journal,
    summary: &RunSummary,
) -> Result<()> {
    let b = &ctx.req.budgets;
    let commits = products.commits.as_ref();
    let (base, head) = (commits.map_or("", |c| c.base.as_str()), commits.map_or("", |c| c.head.as_str()));
    let metadata = WorkflowMetadata {
        tool: "rewrite-assist",
        version: env!("CARGO_PKG_VERSION"),
        summary,
        repository: ctx.req.repo.display().to_string(),
        base: Ref { name: &ctx.req.base, commit: base },
        head: Ref { name: &ctx.req.head, commit: head },
        started_at: &ctx.started_at,
        finished_at: artifacts::now(),
        openrewrite: OpenRewrite {
            maven_plugin: &ctx.req.versions.maven_plugin,
            gradle_plugin: &ctx.req.versions.gradle_plugin,
            recipe_artifacts_override: ctx.req.versions.overrides.iter().map(ToString::to_string).collect(),
        },
        budgets: BudgetsUsed {
            max_wall_seconds: b.max_wall.as_secs(),
            per_execution_seconds: b.per_execution.as_secs(),
            max_executions: b.max_executions,
            max_rounds: b.max_rounds,
            executions_used: budget.executions_used(),
            rounds_used: budget.rounds,
        },
        phases: &journal.phases,
        embedded_runner: ctx.session.get().and_then(|s| match s {
            Ok(validator) => match (validator.session(), validator.unavailable()) {
                (Some(session), _) => {
                    // The session's directory goes away with the run: keep its log.
                    let kept = session.keep_log(&ctx.dir.path(artifacts::RUNNER_LOG));
                    Some(EmbeddedRunner::Ran { log: kept.then_some(artifacts::RUNNER_LOG) })
                }
                (None, Some(reason)) => Some(EmbeddedRunner::Unavailable { unavailable: reason.to_string() }),
                (None, None) => None,
            },
            Err(reason) => Some(EmbeddedRunner::Unavailable { unavailable: reason.to_string() }),
        }),
    };
    ctx.dir.write_json(artifacts::METADATA, &metadata)?;
    Ok(())
}

fn count(intents: &[crate::model::intent::Intent], level: Level) -> usize {
    intents.iter().map(|i| usize::from(i.level() == level) + count(&i.children, level)).sum()
}

/// The text report of `analyze` / `demo`.
pub fn render_text(summary: &RunSummary) -> String {
    let mut out = String::new();
    if !summary.intents.strategic.is_empty() {
        let _ = writeln!(out, "PR: {}", summary.intents.strategic.join("; "));
    }
    let _ = writeln!(
        out,
        "intents: {} atomic, {} tactical; coverage {:.0}%",
        summary.intents.atomic,
        summary.intents.tactical,
        summary.intents.coverage * 100.0
    );
    options_table(&mut out, summary);
    recommendation(&mut out, summary);
    if let Some(reason) = &summary.reason {
        let _ = writeln!(out, "note: {reason}");
    }
    let _ = writeln!(
        out,
        "verdict: {} ({}: {})",
        summary.verdict.label(),
        summary.pr_kind.as_str(),
        summary.pr_kind_reason
    );
    let _ = writeln!(out, "artifacts: {}\ntime: {:.0} s", summary.artifacts_dir, summary.wall_seconds);
    out
}

/// The options table of the text report: columns aligned by a table library (an option's number
/// ignores a format width), numbers right-aligned.
fn options_table(out: &mut String, summary: &RunSummary) {
    if summary.options.is_empty() {
        return;
    }
    let mut table = comfy_table::Table::new();
    table.load_style(comfy_table::TableStyle::new()).set_header([
        "option",
        "strategy",
        "precision",
        "recall",
        "F1",
        "migration",
        "semantic",
        "recipes",
        "time",
    ]);
    for o in &summary.options {
        let mut row = vec![o.option.to_string(), o.strategy.label().to_string()];
        match &o.error {
            None => row.extend([
                format!("{:.4}", o.precision),
                format!("{:.4}", o.recall),
                format!("{:.4}", o.f1),
                o.migration_precision.map_or("–".to_string(), |p| format!("{p:.4}")),
                format!("{:.2}", o.semantic_share),
                o.recipes.to_string(),
                format!("{:.0} s", o.wall_seconds),
            ]),
            // The reason goes below the table: it would stretch a column of numbers.
            Some(_) => row.push("could not run".to_string()),
        }
        table.add_row(row);
    }
    for column in 2..9 {
        if let Some(c) = table.column_mut(column) {
            c.set_cell_alignment(comfy_table::CellAlignment::Right);
        }
    }
    // The preset pads each cell with a space on both sides; the report's lines start at column 0.
    let _ = writeln!(out);
    for line in table.lines() {
        let _ = writeln!(out, "{}", line.strip_prefix(' ').unwrap_or(&line).trim_end());
    }
    for o in &summary.options {
        if let Some(e) = &o.error {
            let _ = writeln!(out, "option {} could not run: {} ({})", o.option, e.kind, e.detail);
        }
    }
}

/// The recommendation of the text report, with its recipe, backend and the reusable recipe.
fn recommendation(out: &mut String, summary: &RunSummary) {
    match &summary.recommended {
        Some(r) => {
            let _ = writeln!(
                out,
                "\nrecommended: option {} — F1 {:.4}{} — {}",
                r.option,
                r.f1,
                if r.perfect_match { " (perfect match)" } else { "" },
                r.confidence.label()
            );
            if let Some(p) = r.migration_precision {
                let _ = writeln!(
                    out,
                    "migration precision {p:.4}: false positives that are layout, variants or completions of the migration do not count"
                );
            }
            if let Some(share) = r.migration_semantic_share {
                let _ = writeln!(
                    out,
                    "semantic share {:.2}; over the migration's lines (side work left out) {share:.2}",
                    r.semantic_share
                );
            }
            if r.learned_share > 0.0 {
                let _ = writeln!(
                    out,
                    "semantic share {:.2}: catalog recipes {:.2}, recipes learned from this PR {:.2} (learned/README.md)",
                    r.semantic_share, r.catalog_share, r.learned_share
                );
            }
            if let Some(why) = &r.why {
                let _ = writeln!(out, "why: {why}");
            }
            for way in &summary.authors_way {
                let _ = writeln!(out, "the author's way: {}", authors_way_line(way));
            }
            let _ = writeln!(out, "recipe: {}/{}", summary.artifacts_dir, artifacts::RECOMMENDED_RECIPE);
            if let Some(backend) =
                summary.options.iter().find(|o| o.option == r.option).and_then(|o| o.backend)
            {
                let _ = writeln!(out, "validated with: {}", backend.label());
            }
            if let Some(c) = &summary.confirmation {
                out.push_str(&crate::validation::report::confirmation_line(c));
            }
            if let Some(reusable) = &summary.reusable {
                out.push_str(&reusable_line(reusable));
                let _ = writeln!(
                    out,
                    "reusable recipe: {}/{}",
                    summary.artifacts_dir,
                    artifacts::REUSABLE_RECIPE
                );
            }
        }
        None => {
            let _ = writeln!(out, "\nno recipe could be validated");
        }
    }
}

/// One line on the reusable recipe: its size and how it did on this PR.
/// One file where the recommended recipe wrote the migration another way, and the recipe that
/// writes the author's lines there.
pub fn authors_way_line(way: &crate::model::AuthorsWay) -> String {
    format!(
        "{}: the recipe writes {} line{} another way; `{}` writes {} of the {} line{} the author wrote there{}",
        way.path,
        way.lines_differing,
        crate::model::plural(way.lines_differing),
        way.recipe,
        way.lines_written,
        way.lines_missed,
        crate::model::plural(way.lines_missed),
        if way.on_migration { " (run after the migration)" } else { "" }
    )
}

/// The text summary's line about the reusable recipe: its recipe count and how it did on this PR.
pub fn reusable_line(reusable: &crate::model::ReusableRecipe) -> String {
    let recipes = format!("{} recipe{}", reusable.recipes, crate::model::plural(reusable.recipes));
    match &reusable.result {
        Some(r) if r.ran() => format!(
            "reusable: {recipes}, semantic only — on this PR F1 {:.4} (P {:.4}, R {:.4}){}, semantic share {:.2}{}\n",
            r.f1,
            r.precision,
            r.recall,
            r.migration_precision.map(|p| format!(", migration precision {p:.4}")).unwrap_or_default(),
            r.semantic_share,
            if r.learned_share > 0.0 { format!(" (learned {:.2})", r.learned_share) } else { String::new() }
        ),
        Some(r) => format!(
            "reusable: {recipes}, semantic only — its run here failed: {}\n",
            r.error.as_ref().map(|e| e.detail.as_str()).unwrap_or("")
        ),
        None => format!("reusable: {recipes}, semantic only — not run here (needs the embedded runner)\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The options' columns line up whatever their values' widths, with an option that could not
    /// run among them (an option's number ignores a format width, so hand padding misaligned it).
    #[test]
    fn the_options_table_is_aligned() {
        let mut summary = crate::fixtures::summary::sample_summary();
        summary.options[0].wall_seconds = 1234.0;
        summary.options[1].recipes = 120;
        let mut failed = summary.options[1].clone();
        failed.option = crate::model::OptionId::Synthesized;
        failed.error = Some(crate::model::RunError::new(crate::model::ErrorKind::Timeout, "over 900 s"));
        summary.options.push(failed);
        let mut out = String::new();
        options_table(&mut out, &summary);
        insta::assert_snapshot!(out);
        let lines: Vec<&str> = out.lines().skip(2).take(2).collect();
        let f1_column = |line: &str| line.find("0.").unwrap();
        assert!(lines.iter().all(|l| l.chars().count() == lines[0].chars().count()), "{out}");
        assert_eq!(f1_column(lines[0]), f1_column(lines[1]), "{out}");
    }
}
