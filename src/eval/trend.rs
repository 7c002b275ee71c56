//! The trend of a suite's last runs: `history.json`, one point per `eval aggregate` (its label,
//! whether the gate failed, and every average the results carry), and its charts in `summary.md`.
//!
//! The history is a small file the nightly workflow keeps in the Actions cache (restored from the
//! newest entry of its suite, saved again under a new key each run): `eval aggregate --history FILE`
//! reads it, appends this run and writes the last [`DEFAULT_KEEP`] points to `--out/history.json`.
//! Metrics are read from the results by name, not by field, so a metric added to the totals later
//! (a migration precision, say) is charted from the first run that has it.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::bad_input;
use crate::model::SuiteResults;

/// The file in the aggregate's output directory.
pub(crate) const HISTORY_JSON: &str = "history.json";

/// How many runs a history keeps by default: a month of nights.
pub(crate) const DEFAULT_KEEP: usize = 30;

/// `history.json`: a suite's figures over its last runs, for the trend in `summary.md`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct History {
    pub suite_name: String,
    /// Oldest first.
    pub points: Vec<TrendPoint>,
}

/// One run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct TrendPoint {
    /// What the chart's x axis shows, e.g. the run's date.
    pub label: String,
    #[serde(default)]
    pub regressed: bool,
    /// `avg_f1`, `avg_semantic_share`, `transfer_avg_f1`, `avg_wall_seconds`, …
    pub metrics: BTreeMap<String, f64>,
}

/// The run as a point: the totals' averages, the transfer totals' averages (prefixed `transfer_`),
/// and any number whose name says `migration`, wherever the results keep it.
pub(crate) fn point(results: &SuiteResults, label: &str) -> TrendPoint {
    let value = serde_json::to_value(results).unwrap_or(Value::Null);
    let mut metrics = BTreeMap::new();
    let numbers = |object: &Value| -> Vec<(String, f64)> {
        object
            .as_object()
            .map(|o| o.iter().filter_map(|(k, v)| Some((k.clone(), v.as_f64()?))).collect())
            .unwrap_or_default()
    };
    // Averages only: counts (cases, migrations) have no 0..1 axis.
    for (key, number) in numbers(&value["totals"]) {
        if key.starts_with("avg_") {
            metrics.insert(key, number);
        }
    }
    for (key, number) in numbers(&value["transfer_totals"]) {
        if key.starts_with("avg_") {
            metrics.insert(format!("transfer_{key}"), number);
        }
    }
    for (key, number) in numbers(&value) {
        if key.contains("migration") {
            metrics.insert(key, number);
        }
    }
    let regressed = results.comparison.as_ref().is_some_and(|c| c.regressed);
    TrendPoint { label: label.to_string(), regressed, metrics }
}

/// The history at `path` (none yet when the file does not exist), with `point` appended and cut
/// to the last `keep` points.
pub(crate) fn extend(
    path: Option<&Path>,
    suite_name: &str,
    point: TrendPoint,
    keep: usize,
) -> Result<History> {
    let mut history = match path.filter(|p| p.exists()) {
        None => History { suite_name: suite_name.to_string(), points: Vec::new() },
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| bad_input(format!("cannot read the history {}: {e}", path.display())))?;
            let history: History = serde_json::from_str(&text)
                .map_err(|e| bad_input(format!("{} is not a history.json: {e}", path.display())))?;
            if history.suite_name != suite_name {
                return Err(bad_input(format!(
                    "the history {} is for suite `{}`, the results are for suite `{suite_name}`",
                    path.display(),
                    history.suite_name
                )));
            }
            history
        }
    };
    history.points.push(point);
    let excess = history.points.len().saturating_sub(keep.max(1));
    history.points.drain(..excess);
    Ok(history)
}

/// The charts we draw, in order: (metric, title, whether it is a share from 0 to 1). Metrics with
/// `migration` in their name come after the semantic share, whatever they are called.
fn charted(history: &History) -> Vec<(String, String, bool)> {
    let present = |key: &str| history.points.iter().any(|p| p.metrics.contains_key(key));
    let mut charts = Vec::new();
    for (key, title) in [("avg_f1", "Average F1"), ("avg_semantic_share", "Average semantic share")] {
        if present(key) {
            charts.push((key.to_string(), title.to_string(), true));
        }
    }
    let migration: std::collections::BTreeSet<&String> =
        history.points.iter().flat_map(|p| p.metrics.keys()).filter(|k| k.contains("migration")).collect();
    for key in migration {
        let title = key.trim_start_matches("avg_").replace('_', " ");
        let mut title = title.clone();
        title[..1].make_ascii_uppercase();
        charts.push((key.clone(), title, true));
    }
    for (key, title, share) in [
        ("transfer_avg_f1", "Transfer F1 (reusable recipes on the other PR of their pair)", true),
        ("avg_wall_seconds", "Time per case (s)", false),
    ] {
        if present(key) {
            charts.push((key.to_string(), title.to_string(), share));
        }
    }
    charts
}

/// The trend section of `summary.md`: one Mermaid `xychart-beta` per metric (GitHub renders them),
/// over the runs that have it.
pub(crate) fn render(history: &History) -> String {
    let mut md = format!("## Trend of the last {} runs\n\n", history.points.len());
    let failed: Vec<&str> = history.points.iter().filter(|p| p.regressed).map(|p| p.label.as_str()).collect();
    if !failed.is_empty() {
        let _ = writeln!(md, "The regression gate failed on: {}.\n", failed.join(", "));
    }
    for (key, title, share) in charted(history) {
        let points: Vec<(&str, f64)> =
            history.points.iter().filter_map(|p| Some((p.label.as_str(), *p.metrics.get(&key)?))).collect();
        let labels: Vec<String> =
            points.iter().map(|(l, _)| format!("\"{}\"", l.replace('"', "'"))).collect();
        let values: Vec<String> = points.iter().map(|(_, v)| format!("{v:.4}")).collect();
        let top = if share {
            1.0
        } else {
            let max = points.iter().map(|(_, v)| *v).fold(0.0, f64::max);
            (max * 1.2).ceil().max(1.0)
        };
        let _ = writeln!(
            md,
            "```mermaid\nxychart-beta\n    title \"{title}\"\n    x-axis [{}]\n    y-axis 0 --> {top}\n    line [{}]\n```\n",
            labels.join(", "),
            values.join(", ")
        );
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history(points: &[(&str, &[(&str, f64)])]) -> History {
        History {
            suite_name: "nightly".into(),
            points: points
                .iter()
                .map(|(label, metrics)| TrendPoint {
                    label: label.to_string(),
                    regressed: false,
                    metrics: metrics.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
                })
                .collect(),
        }
    }

    #[test]
    fn a_metric_that_appears_later_is_charted_over_the_runs_that_have_it() {
        let h = history(&[
            ("05-01", &[("avg_f1", 0.9), ("avg_wall_seconds", 40.0)]),
            ("05-02", &[("avg_f1", 0.92), ("avg_wall_seconds", 42.5), ("avg_migration_precision", 1.0)]),
        ]);
        let titles: Vec<String> = charted(&h).into_iter().map(|(_, t, _)| t).collect();
        assert_eq!(titles, ["Average F1", "Migration precision", "Time per case (s)"]);
        let md = render(&h);
        assert!(md.contains("    x-axis [\"05-02\"]\n    y-axis 0 --> 1\n    line [1.0000]\n"), "{md}");
        assert!(md.contains("    y-axis 0 --> 51\n    line [40.0000, 42.5000]\n"), "{md}");
    }

    #[test]
    fn the_history_keeps_the_last_runs_of_its_suite() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("history.json");
        let point =
            |label: &str| TrendPoint { label: label.into(), regressed: false, metrics: BTreeMap::new() };
        let first = extend(Some(&file), "nightly", point("1"), 2).unwrap();
        assert_eq!(first.points.len(), 1, "no file yet: a new history");
        std::fs::write(&file, serde_json::to_string(&first).unwrap()).unwrap();
        let second = extend(Some(&file), "nightly", point("2"), 2).unwrap();
        std::fs::write(&file, serde_json::to_string(&second).unwrap()).unwrap();
        let third = extend(Some(&file), "nightly", point("3"), 2).unwrap();
        let labels: Vec<&str> = third.points.iter().map(|p| p.label.as_str()).collect();
        assert_eq!(labels, ["2", "3"]);
        let other = extend(Some(&file), "real-maven", point("4"), 2).unwrap_err();
        assert_eq!(crate::error::exit_code_of(&other), crate::error::exit::BAD_INPUT);
        std::fs::write(&file, "{").unwrap();
        assert!(
            extend(Some(&file), "nightly", point("5"), 2)
                .unwrap_err()
                .to_string()
                .contains("not a history.json")
        );
    }
}
