//! What users read about a run, rendered as GitHub markdown: the pieces shared by the results
//! comment ([`super::comment`]), the job summary ([`super::summary`]) and migration PR bodies,
//! and [`Doc`], which keeps a body under GitHub's size limit by shortening its long sections.

use std::fmt::Write;
use std::path::Path;

use crate::model::{ChangeLine, Confidence, RunSummary, ValidationStats, plural};
use crate::pipeline::artifacts;

/// Everything the markdown is made from: the run's summary and a few of its artifacts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Report {
    pub summary: RunSummary,
    /// `result/recommended-recipe.yaml`.
    pub recipe_yaml: Option<String>,
    /// `result/reusable-recipe.yaml`.
    pub reusable_yaml: Option<String>,
    /// `intent-tree.md`.
    pub intent_tree: Option<String>,
    /// Lines the recommended recipe changed that the PR did not, and the reverse.
    pub false_positives: Vec<ChangeLine>,
    pub false_negatives: Vec<ChangeLine>,
    /// What OpenRewrite (or the run) warned about while validating the recommended recipe.
    pub warnings: Vec<String>,
}

impl Report {
    /// Reads the artifacts named in `summary` (missing ones are simply left out).
    pub(crate) fn load(summary: RunSummary) -> Report {
        let dir = Path::new(&summary.artifacts_dir);
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok().filter(|t| !t.trim().is_empty());
        let stats_of = |option| -> Option<ValidationStats> {
            let text = read(&artifacts::option_file_name(option, "stats.json"))?;
            serde_json::from_str(&text).ok()
        };
        let stats = summary.recommended.as_ref().and_then(|r| stats_of(r.option));
        let (false_positives, false_negatives, warnings) = match stats {
            Some(s) => (s.metrics.false_positive_lines, s.metrics.false_negative_lines, s.warnings),
            // Without a recommendation, a repository that refused access may be why: every option
            // resolved through it, so its warning is the run's, never only an artifact's.
            None => {
                let all = summary.options.iter().filter_map(|o| stats_of(o.option)).flat_map(|s| s.warnings);
                (Vec::new(), Vec::new(), access_warnings(all))
            }
        };
        Report {
            recipe_yaml: summary.recommended.as_ref().and(read(artifacts::RECOMMENDED_RECIPE)),
            reusable_yaml: summary.reusable.as_ref().and(read(artifacts::REUSABLE_RECIPE)),
            intent_tree: read(artifacts::INTENT_TREE_MD),
            false_positives,
            false_negatives,
            warnings,
            summary,
        }
    }
}

/// The runner's "refused access" warnings (a private repository without credentials), each once.
fn access_warnings(warnings: impl Iterator<Item = String>) -> Vec<String> {
    let mut seen = Vec::new();
    for warning in warnings.filter(|w| w.contains(crate::validation::embedded::protocol::ACCESS_REFUSED)) {
        if !seen.contains(&warning) {
            seen.push(warning);
        }
    }
    seen
}

/// Where the run is, for links.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Links {
    /// `GITHUB_SERVER_URL/GITHUB_REPOSITORY/actions/runs/GITHUB_RUN_ID`.
    pub run_url: Option<String>,
    /// The PR head the analysis saw.
    pub head_sha: Option<String>,
}

impl Links {
    pub(crate) fn run_link(&self) -> String {
        match &self.run_url {
            Some(url) => format!("[workflow run]({url})"),
            None => "workflow run".to_string(),
        }
    }
}

/// The sentence under the headline: what the PR does and how well the best option reproduces it.
pub(crate) fn lead(summary: &RunSummary) -> String {
    let mut out = String::new();
    if !summary.intents.strategic.is_empty() {
        let _ = write!(out, "**{}**: ", escape(&summary.intents.strategic.join("; ")));
    }
    match &summary.recommended {
        Some(r) => {
            let strategy = summary
                .options
                .iter()
                .find(|o| o.option == r.option)
                .map(|o| format!(" ({})", o.strategy.label()))
                .unwrap_or_default();
            let _ = write!(
                out,
                "option {}{strategy} reproduces this pull request with F1 **{:.4}** (precision {:.4}, recall {:.4})",
                r.option, r.f1, r.precision, r.recall
            );
            out.push_str(if r.perfect_match { ", a perfect match" } else { "" });
            if let Some(mp) = r.migration_precision.filter(|mp| *mp > r.precision) {
                // The lines it writes differently from the author that are not wrong (layout,
                // variants, completions) do not count against it as a migration.
                let _ = write!(out, "; migration precision {mp:.4}");
            }
            let _ = write!(out, "; confidence: {}.", r.confidence.label());
            if let Some(why) = &r.why {
                let _ = write!(out, " Chosen over a higher F1: {}.", escape(why));
            }
            match r.confidence {
                Confidence::Recommended => {}
                Confidence::NeedsReview => out.push_str(" Review the differences below before reusing it."),
                Confidence::NoReliableRecipe => out.push_str(
                    " That is too far from the PR to reuse; the intent tree below says what it does.",
                ),
            }
        }
        None => out.push_str("no candidate recipe could be run against this pull request."),
    }
    if let Some(reason) = &summary.reason {
        let _ = write!(out, "\n\n> **Note:** {}", escape(reason));
    }
    out.push('\n');
    out
}

/// The options table: P / R / F1, migration precision, semantic share, number of recipes, time.
pub(crate) fn options_table(summary: &RunSummary) -> String {
    if summary.options.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "| option | strategy | precision | recall | F1 | migration precision | semantic | recipes | time |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let best = summary.recommended.as_ref().map(|r| r.option);
    for o in &summary.options {
        let number =
            if Some(o.option) == best { format!("**{}** ⭐", o.option) } else { o.option.to_string() };
        match &o.error {
            None => {
                let _ = writeln!(
                    out,
                    "| {number} | {} | {:.4} | {:.4} | {:.4} | {} | {:.0}% | {} | {:.0} s |",
                    o.strategy.label(),
                    o.precision,
                    o.recall,
                    o.f1,
                    o.migration_precision.map_or("–".to_string(), |mp| format!("{mp:.4}")),
                    o.semantic_share * 100.0,
                    o.recipes,
                    o.wall_seconds
                );
            }
            Some(e) => {
                let _ = writeln!(
                    out,
                    "| {number} | {} | could not run: `{}` {} | | | | | {} | {:.0} s |",
                    o.strategy.label(),
                    e.kind,
                    cell(&e.detail),
                    o.recipes,
                    o.wall_seconds
                );
            }
        }
        if o.tests_dropped {
            let _ = writeln!(out, "| | | ⚠️ option {} removes test methods | | | | | | |", o.option);
        }
    }
    out
}

/// The intent tree's headline numbers.
pub(crate) fn intents_line(summary: &RunSummary) -> String {
    let i = &summary.intents;
    format!(
        "{} strategic, {} tactical, {} atomic intents; {:.0}% of the changed lines explained",
        i.strategic.len(),
        i.tactical,
        i.atomic,
        i.coverage * 100.0
    )
}

/// The main false positives / negatives as diff lines, at most `max` of each: per list its title
/// and the diff-shaped body (without fences, which the caller keeps out of shortening).
pub(crate) fn differences(report: &Report, max: usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (title, lines) in [
        ("Changed by the recipe but not by the PR (false positives)", &report.false_positives),
        ("Changed by the PR but not by the recipe (false negatives)", &report.false_negatives),
    ] {
        if lines.is_empty() {
            continue;
        }
        // Diff-shaped, so GitHub colours it: a hunk-like header whenever the file changes.
        let mut body = String::new();
        let mut last_path = None;
        for line in lines.iter().take(max) {
            if last_path != Some(&line.path) {
                let _ = writeln!(body, "@@ {}:{} @@", line.path, line.line);
                last_path = Some(&line.path);
            }
            let _ = writeln!(body, "{}{}", line.kind.sign(), line.content);
        }
        body.pop();
        if lines.len() > max {
            let _ = write!(body, "\n… {} more", lines.len() - max);
        }
        out.push((format!("{title}: {}", lines.len()), body));
    }
    out
}

/// The sections the results comment and the job summary share: the lead, the options table,
/// the recommended recipe, the intent tree and the differences from the PR.
pub(crate) fn push_sections(doc: &mut Doc, report: &Report) {
    let summary = &report.summary;
    doc.push(super::verdict::kind_line(summary)).push("\n");
    doc.push(super::verdict::next_steps(summary)).push("\n");
    doc.push(lead(summary)).push("\n");
    let table = options_table(summary);
    if !table.is_empty() {
        doc.push(table).push("\n");
    }
    if let (Some(yaml), Some(r)) = (&report.recipe_yaml, &summary.recommended) {
        let name = summary.options.iter().find(|o| o.option == r.option).map(|o| o.recipe_name.as_str());
        let title = match name {
            Some(name) => format!("Recommended recipe: option {} (<code>{}</code>)", r.option, escape(name)),
            None => format!("Recommended recipe: option {}", r.option),
        };
        doc.push_code_details(&title, "yaml", yaml);
    }
    if !summary.authors_way.is_empty() && summary.recommended.is_some() {
        let items: String = summary
            .authors_way
            .iter()
            .map(|way| format!("- {}\n", escape(&crate::pipeline::authors_way_line(way))))
            .collect();
        doc.push_long(
            format!(
                "<details><summary>Written another way than the author in {} file{}: the recipe that writes it the author's way</summary>\n\n",
                summary.authors_way.len(),
                plural(summary.authors_way.len())
            ),
            items,
            "\n</details>\n\n",
        );
    }
    if let (Some(yaml), Some(reusable)) = (&report.reusable_yaml, &summary.reusable) {
        let line = crate::pipeline::reusable_line(reusable);
        let title = format!(
            "Reusable recipe for other repositories (<code>{}</code>): {}",
            escape(&reusable.recipe_name),
            escape(line.trim_end().trim_start_matches("reusable: "))
        );
        let mut body = yaml.clone();
        if !reusable.generalized.is_empty() {
            body.push_str(&format!(
                "# Generalized from the recommended recipe:\n# - {}\n",
                reusable.generalized.join("\n# - ")
            ));
        }
        doc.push_code_details(&title, "yaml", &body);
    }
    if !report.warnings.is_empty() {
        let items: String = report.warnings.iter().map(|w| format!("- {}\n", escape(w))).collect();
        let what =
            if summary.recommended.is_some() { "validating the recommended recipe" } else { "validating" };
        doc.push_long(
            format!(
                "<details><summary>⚠️ {} warning{} while {what}</summary>\n\n",
                report.warnings.len(),
                plural(report.warnings.len())
            ),
            items,
            "\n</details>\n\n",
        );
    }
    if let Some(tree) = &report.intent_tree {
        let body = tree.strip_prefix("# Intent tree").unwrap_or(tree).trim();
        doc.push_long(
            format!("<details><summary>Intent tree: {}</summary>\n\n", intents_line(summary)),
            defuse(body) + "\n",
            "\n</details>\n\n",
        );
    }
    if !report.false_positives.is_empty() || !report.false_negatives.is_empty() {
        doc.push(format!(
            "<details><summary>Differences from the pull request: {} false positive{}, {} false negative{}</summary>\n\n",
            report.false_positives.len(),
            plural(report.false_positives.len()),
            report.false_negatives.len(),
            plural(report.false_negatives.len()),
        ));
        // The fences stay outside what shortening may cut, so a cut never leaves a block open.
        for (title, body) in differences(report, 20) {
            let fence = fenced("", &body);
            let fence = fence[..fence.find('\n').unwrap_or(0)].to_string();
            doc.push_long(format!("{title}\n\n{fence}diff\n"), body + "\n", format!("{fence}\n\n"));
        }
        doc.push("</details>\n\n");
    }
}

/// Neutralizes what could break the layout of the comment around a piece of rendered markdown: an
/// HTML comment opener would hide everything after it, a closing `</details>` would end ours.
pub(crate) fn defuse(markdown: &str) -> String {
    markdown.replace("<!--", "&lt;!--").replace("</details", "&lt;/details")
}

/// A fenced code block whose fence is longer than any backtick run inside `text`.
pub(crate) fn fenced(lang: &str, text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}{lang}\n{}\n{fence}\n", text.trim_end_matches('\n'))
}

/// Text safe inside a table cell: one line, pipes escaped.
pub(crate) fn cell(text: &str) -> String {
    escape(&text.split_whitespace().collect::<Vec<_>>().join(" ")).replace('|', "\\|")
}

/// Keeps user-controlled text from opening HTML (a stray `<!--` would hide the rest of a comment);
/// `&lt;` shows as `<`.
pub(crate) fn escape(text: &str) -> String {
    text.replace('<', "&lt;")
}

/// A markdown body made of fixed parts and long parts that may be shortened to fit a limit.
#[derive(Debug, Default)]
pub(crate) struct Doc {
    parts: Vec<Part>,
}

#[derive(Debug)]
enum Part {
    Fixed(String),
    /// `open` + `body` + `close`; `body` may be cut at a line boundary.
    Long {
        open: String,
        body: String,
        close: String,
    },
}

/// Said after a section that was cut.
pub(crate) const TRUNCATED_NOTE: &str =
    "\n_Shortened to fit GitHub's size limit: the full text is in the run's artifacts._\n";

const ELLIPSIS: &str = "…\n";

impl Doc {
    pub(crate) fn new() -> Doc {
        Doc::default()
    }

    pub(crate) fn push(&mut self, text: impl Into<String>) -> &mut Doc {
        self.parts.push(Part::Fixed(text.into()));
        self
    }

    /// A section whose `body` may be shortened (`open`/`close` stay, e.g. a fence or `<details>`).
    pub(crate) fn push_long(
        &mut self,
        open: impl Into<String>,
        body: impl Into<String>,
        close: impl Into<String>,
    ) -> &mut Doc {
        self.parts.push(Part::Long { open: open.into(), body: body.into(), close: close.into() });
        self
    }

    /// A `<details>` block around a fenced code block; the code may be shortened.
    pub(crate) fn push_code_details(&mut self, summary: &str, lang: &str, code: &str) -> &mut Doc {
        let fence = fenced("", code);
        let fence = &fence[..fence.find('\n').unwrap_or(0)];
        self.push_long(
            format!("<details><summary>{summary}</summary>\n\n{fence}{lang}\n"),
            code.trim_end_matches('\n').to_string() + "\n",
            format!("{fence}\n\n</details>\n\n"),
        )
    }

    /// The body, at most `limit` bytes: the longest sections are cut first (with a note).
    pub(crate) fn render(&self, limit: usize) -> String {
        let originals: Vec<Option<&str>> = self
            .parts
            .iter()
            .map(|p| match p {
                Part::Fixed(_) => None,
                Part::Long { body, .. } => Some(body.as_str()),
            })
            .collect();
        let mut kept: Vec<Option<String>> = originals.iter().map(|b| b.map(str::to_string)).collect();
        let mut cut = vec![false; self.parts.len()];
        loop {
            let text = self.assemble(&kept, &cut);
            if text.len() <= limit {
                return text;
            }
            let excess = text.len() - limit;
            // The longest section not yet emptied gives up what is needed (or all it has).
            let Some(index) = (0..kept.len())
                .filter(|i| kept[*i].as_ref().is_some_and(|b| !b.is_empty()))
                .max_by_key(|i| kept[*i].as_ref().map_or(0, String::len))
            else {
                // Only fixed text is left: cut it hard, at a line boundary, and close a code block
                // the cut left open (the rest of the comment would render as code).
                const ROOM: usize = 16; // for the closing fence
                let mut hard = cut_at(&text, limit.saturating_sub(TRUNCATED_NOTE.len() + ROOM));
                hard.truncate(hard.rfind('\n').map(|i| i + 1).unwrap_or(0));
                if let Some(fence) = open_fence(&hard) {
                    hard.push_str(&fence);
                    hard.push('\n');
                }
                return hard + TRUNCATED_NOTE;
            };
            let current = kept[index].as_ref().map_or(0, String::len);
            let overhead = ELLIPSIS.len() + if cut[index] { 0 } else { TRUNCATED_NOTE.len() };
            let allowed = current.saturating_sub(excess + overhead);
            // Cut at a line boundary, so a diff or YAML line is never half shown. The new length is
            // at most `allowed + ELLIPSIS`, strictly less than before: the loop ends.
            let mut prefix = cut_at(originals[index].unwrap_or(""), allowed);
            prefix.truncate(prefix.rfind('\n').map(|i| i + 1).unwrap_or(0));
            if !prefix.is_empty() {
                prefix.push_str(ELLIPSIS);
            }
            kept[index] = Some(prefix);
            cut[index] = true;
        }
    }

    fn assemble(&self, bodies: &[Option<String>], cut: &[bool]) -> String {
        let mut out = String::new();
        for ((part, body), was_cut) in self.parts.iter().zip(bodies).zip(cut) {
            match part {
                Part::Fixed(text) => out.push_str(text),
                Part::Long { open, close, .. } => {
                    out.push_str(open);
                    out.push_str(body.as_deref().unwrap_or(""));
                    out.push_str(close);
                    if *was_cut {
                        out.push_str(TRUNCATED_NOTE);
                    }
                }
            }
        }
        out
    }
}

/// The fence of a code block `text` leaves open (backticks only, as we write them), if any.
fn open_fence(text: &str) -> Option<String> {
    let mut open: Option<usize> = None;
    for line in text.lines() {
        let ticks = line.trim_start().chars().take_while(|c| *c == '`').count();
        if ticks < 3 {
            continue;
        }
        open = match open {
            None => Some(ticks),
            Some(opened) if ticks >= opened && line.trim().len() == ticks => None,
            still => still,
        };
    }
    open.map(|ticks| "`".repeat(ticks))
}

/// At most `max` bytes of `text`, cut on a character boundary.
fn cut_at(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::diff::ChangeKind;
    use crate::model::{OptionId, Strategy};

    /// A fixed run: three options, the narrow one recommended, a failed synthesized one.
    pub(crate) fn sample_report() -> Report {
        let summary = crate::fixtures::summary::sample_summary();
        Report {
            summary,
            reusable_yaml: None,
            recipe_yaml: Some(
                "---\ntype: specs.openrewrite.org/v1beta/recipe\nname: \"rewriteassist.Option2Narrow\"\nrecipeList:\n  - org.openrewrite.java.ChangePackage:\n      newPackageName: \"jakarta.persistence\"\n      oldPackageName: \"javax.persistence\"\n".into(),
            ),
            intent_tree: Some(
                "# Intent tree\n\n**Coverage 100.0%**: 22 of 22 changed lines explained, 0 unexplained.\n\n- **1 Migrate javax -> jakarta** (`migrate_javax_to_jakarta`)\n  - **1.1 Move packages** (`move_packages`)\n".into(),
            ),
            false_positives: vec![ChangeLine {
                path: "src/main/java/com/acme/shop/Order.java".into(),
                kind: ChangeKind::Added,
                line: 3,
                content: "import jakarta.persistence.Transient;".into(),
            }],
            false_negatives: vec![
                ChangeLine {
                    path: "pom.xml".into(),
                    kind: ChangeKind::Removed,
                    line: 18,
                    content: "      <version>2.2</version>".into(),
                },
                ChangeLine {
                    path: "pom.xml".into(),
                    kind: ChangeKind::Added,
                    line: 18,
                    content: "      <version>3.1.0</version>".into(),
                },
            ],
            warnings: vec![
                "OpenRewrite: the recipe produced 1 warning (a step failed on some file and was skipped there; `--backend embedded` names the step)".into(),
            ],
        }
    }

    #[test]
    fn shortened_differences_never_leave_a_code_block_open() {
        let mut report = sample_report();
        let line = report.false_positives[0].clone();
        report.false_positives = (0..400)
            .map(|i| ChangeLine {
                content: format!("{} {i} {}", line.content, "x".repeat(200)),
                ..line.clone()
            })
            .collect();
        let mut doc = Doc::default();
        push_sections(&mut doc, &report);
        for limit in [2_000, 5_000, 20_000] {
            let text = doc.render(limit);
            assert!(text.len() <= limit, "{} > {limit}", text.len());
            let fences = text.lines().filter(|l| l.trim_start().starts_with("```")).count();
            assert_eq!(fences % 2, 0, "an unclosed fence at limit {limit}:\n{text}");
        }
    }

    #[test]
    fn the_reusable_recipe_is_shown_with_its_score_and_what_was_generalized() {
        let mut report = sample_report();
        let mut result = report.summary.options[1].clone();
        result.option = crate::model::OptionId::Reusable;
        result.strategy = Strategy::Reusable;
        report.summary.reusable = Some(crate::model::ReusableRecipe {
            recipe_name: "rewriteassist.Option4Reusable".into(),
            recipes: 1,
            generalized: vec!["left out `FindAndReplace`: plain text pinned to this repository".into()],
            result: Some(result),
        });
        report.reusable_yaml = Some("---\nname: \"rewriteassist.Option4Reusable\"\n".into());
        let mut doc = Doc::default();
        push_sections(&mut doc, &report);
        let text = doc.render(60_000);
        assert!(
            text.contains("Reusable recipe for other repositories (<code>rewriteassist.Option4Reusable</code>): 1 recipe, semantic only — on this PR F1 0.9565"),
            "{text}"
        );
        assert!(
            text.contains("# - left out `FindAndReplace`: plain text pinned to this repository"),
            "{text}"
        );
        let without = sample_report();
        let mut doc = Doc::default();
        push_sections(&mut doc, &without);
        assert!(!doc.render(60_000).contains("Reusable recipe"));
    }

    #[test]
    fn without_a_recommendation_a_refused_repository_is_still_named() {
        let dir = tempfile::tempdir().unwrap();
        let refused = "repository `corp` (https://repo.example/maven) refused access (HTTP 401) to com.acme:lib:1.0, so its artifacts are missing: add a <server> with id `corp`";
        for (option, warnings) in
            [(OptionId::Wide, vec![refused, "1 file not parsed"]), (OptionId::Narrow, vec![refused])]
        {
            let mut stats =
                crate::validation::empty_stats("rewriteassist.Option", &crate::diff::Diff::default());
            stats.warnings = warnings.into_iter().map(String::from).collect();
            let name = artifacts::option_file_name(option, "stats.json");
            std::fs::write(dir.path().join(name), serde_json::to_string(&stats).unwrap()).unwrap();
        }
        let mut summary = sample_report().summary;
        summary.recommended = None;
        summary.artifacts_dir = dir.path().display().to_string();
        let report = Report::load(summary);
        assert_eq!(report.warnings, vec![refused.to_string()], "once, and only the access warning");
        let mut doc = Doc::default();
        push_sections(&mut doc, &report);
        let text = doc.render(60_000);
        assert!(text.contains("1 warning while validating</summary>"), "{text}");
        assert!(text.contains("refused access (HTTP 401)"), "{text}");
    }

    #[test]
    fn fences_outgrow_the_backticks_inside() {
        assert_eq!(fenced("yaml", "a: 1\n"), "```yaml\na: 1\n```\n");
        assert_eq!(fenced("", "x ```` y"), "`````\nx ```` y\n`````\n");
    }

    #[test]
    fn cells_and_escaping() {
        assert_eq!(cell("a | b\n c"), "a \\| b c");
        assert_eq!(escape("<!-- x -> y"), "&lt;!-- x -> y");
    }

    #[test]
    fn a_long_doc_is_cut_to_the_limit_at_line_boundaries_with_a_note() {
        let mut doc = Doc::new();
        doc.push("# Title\n");
        let long: String = (0..2000).map(|i| format!("line {i}\n")).collect();
        doc.push_code_details("Recipe", "yaml", &long);
        doc.push("footer\n");
        let full = doc.render(usize::MAX);
        assert!(!full.contains(TRUNCATED_NOTE));
        let short = doc.render(5_000);
        assert!(short.len() <= 5_000, "{}", short.len());
        assert!(short.starts_with("# Title\n") && short.ends_with("footer\n"), "{short}");
        assert!(short.contains(TRUNCATED_NOTE));
        assert!(short.contains("</details>"), "the closing tags survive");
        // Every kept line is a whole line of the original.
        for line in short.lines().filter(|l| l.starts_with("line ")) {
            assert!(long.lines().any(|l| l == line), "{line}");
        }
    }

    #[test]
    fn the_largest_section_gives_way_first() {
        let mut doc = Doc::new();
        doc.push_long("<a>\n", "small\n".repeat(10), "</a>\n");
        doc.push_long("<b>\n", "big\n".repeat(1000), "</b>\n");
        let text = doc.render(1_000);
        assert!(text.len() <= 1_000);
        assert!(text.contains(&"small\n".repeat(10)), "{text}");
    }

    #[test]
    fn fixed_text_alone_is_cut_hard() {
        let mut doc = Doc::new();
        doc.push("é".repeat(1000));
        let text = doc.render(500);
        assert!(text.len() <= 500 && text.ends_with(TRUNCATED_NOTE));
    }
}
