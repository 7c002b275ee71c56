//! `discovery.md`: what discovery ran, what each recipe did to the PR's lines, and what it chose.

use std::fmt::Write;

use super::Discovery;

/// The pool's recipe file in the run directory (one recipe per batch).
pub const POOL_YAML: &str = "discovery-pool.yaml";
/// The discovery report users read, in the run directory ([`render_markdown`]).
pub const DISCOVERY_MD: &str = "discovery.md";
/// Everything discovery ran and chose ([`crate::discovery::Discovery`]), in the run directory.
pub const DISCOVERY_JSON: &str = "discovery.json";

/// Recipes listed in the table, at most (the JSON has all).
const MAX_ROWS: usize = 60;

/// `discovery.md`: the pool, each recipe's right and wrong lines on the PR, and the cover it chose.
pub fn render_markdown(d: &Discovery) -> String {
    let mut out = String::from("# Recipe discovery\n\n");
    let _ = writeln!(
        out,
        "A pool of {} catalog recipes, and {} sub-recipes of composites that over-applied, ran on their own \
         on the base commit's trees in {:.1} s; each one's diff was compared line by line with the PR's.\n",
        d.pool,
        d.runs.saturating_sub(d.pool),
        d.seconds
    );
    let follow_ups = d.tried.iter().filter(|t| t.on_migration && t.round == 1).count();
    if follow_ups > 0 {
        let _ = writeln!(
            out,
            "{follow_ups} of them ran again after the migration recipes found on the base commit (the follow-up \
             round: recipes that only apply to migrated code).\n"
        );
    }
    if d.not_run > 0 {
        let _ = writeln!(
            out,
            "{} recipes did not run: discovery's time was up (the least promising are last).\n",
            d.not_run
        );
    }
    if let Some(why) = &d.stopped {
        let _ = writeln!(out, "Discovery ended early: {why}.\n");
    }
    out.push_str("## Chosen\n\n");
    if d.chosen.is_empty() {
        out.push_str("No recipe reproduced PR lines without false positives.\n\n");
    }
    for c in &d.chosen {
        let t = &d.tried[c.tried];
        let _ = writeln!(
            out,
            "- `{}`: {} true positives ({} not produced by a recipe chosen before it), {}; {}.",
            t.step.signature(),
            t.tp(),
            c.fresh,
            layout_note(t.fp()),
            t.why
        );
    }
    let mut useful: Vec<&super::Tried> = d.tried.iter().filter(|t| t.tp() > 0 || t.error.is_some()).collect();
    useful.sort_by(|a, b| b.tp().cmp(&a.tp()).then(a.fp().cmp(&b.fp())));
    out.push_str("\n## Recipes that touched the PR's lines, or failed\n\n| recipe | TP | FP | round | s | note |\n|---|---|---|---|---|---|\n");
    for t in useful.iter().take(MAX_ROWS) {
        let note = t.error.clone().unwrap_or_else(|| t.why.clone()).replace('|', "\\|");
        let round =
            if t.on_migration { format!("{} (after the migration)", t.round) } else { t.round.to_string() };
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {:.2} | {} |",
            t.step.name,
            t.tp(),
            t.fp(),
            round,
            t.seconds,
            note.chars().take(160).collect::<String>()
        );
    }
    let silent =
        d.runs.saturating_sub(d.tried.iter().filter(|t| t.tp() + t.fp() > 0 || t.error.is_some()).count());
    let wrong = d.tried.iter().filter(|t| t.tp() == 0 && t.fp() > 0).count();
    let _ = writeln!(
        out,
        "\n{silent} recipes changed nothing; {wrong} changed only lines the PR does not change."
    );
    out
}

/// A chosen recipe's false positives are blank lines of layout, if any.
fn layout_note(blank: usize) -> String {
    match blank {
        0 => "no false positives".to_string(),
        n => format!("no false positives but {n} blank lines of layout"),
    }
}
