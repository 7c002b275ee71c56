//! `learn.md`: each PR's own analysis, every candidate on every PR, and the choice.

use std::fmt::Write;

use super::Learned;

pub(crate) fn render(learned: &Learned) -> String {
    let mut out = String::from("# One reusable recipe learned from several PRs\n\n## The PRs\n\n");
    let _ = writeln!(
        out,
        "| PR | repository | base..head | recommended F1 | semantic share | its reusable recipe's F1 |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for (index, (pr, summary)) in learned.prs.iter().zip(&learned.analyses).enumerate() {
        let recommended = summary.recommended.as_ref();
        let reusable = summary.reusable.as_ref().and_then(|r| r.result.as_ref());
        let _ = writeln!(
            out,
            "| {} | `{}` | `{}..{}` | {} | {} | {} |",
            index + 1,
            pr.repo.display(),
            short(&pr.base),
            short(&pr.head),
            recommended.map_or("–".into(), |r| format!("{:.4}", r.f1)),
            recommended.map_or("–".into(), |r| format!("{:.2}", r.semantic_share)),
            reusable.map_or("none".into(), |r| format!("{:.4}", r.f1)),
        );
    }
    let _ = writeln!(out, "\n## Every candidate on every PR\n");
    let _ = writeln!(
        out,
        "The chosen candidate breaks no symbol on any PR's base (a compile check without a build) and leaves the fewest uses of the old library across them, among those whose mean migration F1 keeps the verdict the best one earns; then the higher mean migration F1. Migration F1: the harmonic mean of migration precision (layout, variants and completions do not count against the recipe) and recall.\n"
    );
    let _ = writeln!(
        out,
        "| candidate | steps | old uses left | broken symbols | mean migration F1 | mean F1 | per PR: F1 / migration precision / recall |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|");
    for candidate in &learned.candidates {
        let cells: Vec<String> = candidate
            .cells
            .iter()
            .map(|c| match &c.error {
                Some(e) => format!("PR {}: failed ({e})", c.pr),
                None => format!(
                    "PR {}: {:.4} / {} / {:.4}",
                    c.pr,
                    c.f1,
                    c.migration_precision.map_or("–".into(), |p| format!("{p:.4}")),
                    c.recall
                ),
            })
            .collect();
        let chosen =
            if learned.chosen.as_deref() == Some(candidate.name.as_str()) { " **(chosen)**" } else { "" };
        let _ = writeln!(
            out,
            "| `{}`{chosen} | {} | {} | {} | {:.4} | {:.4} | {} |",
            candidate.name,
            candidate.steps,
            candidate.residual_after.map_or("–".into(), |n| n.to_string()),
            candidate.unresolved_added,
            candidate.mean_migration_f1,
            candidate.mean_f1,
            cells.join("; ")
        );
    }
    let _ = writeln!(
        out,
        "\n{}",
        match &learned.chosen {
            Some(name) => format!("`result/reusable-recipe.yaml` is `{name}`."),
            None => "No PR gave a reusable recipe: nothing was learned.".into(),
        }
    );
    out
}

fn short(rev: &str) -> &str {
    rev.get(..7).unwrap_or(rev)
}
