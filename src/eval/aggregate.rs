//! `eval aggregate`: merges the outputs of `eval run` (one directory per shard, or the folders the
//! artifact download made — `case-result.json` files are found at any depth) into one result,
//! compared against a baseline when one is given.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::run::{CASE_RESULT, SHARD_RESULTS, write_json};
use super::{gate, summary, totals};
use crate::error::bad_input;
use crate::model::{
    CaseResult, CaseRow, CaseStatus, Shard, ShardResults, SuiteResults, TransferResult, TransferStatus,
};

/// File names of the aggregate output.
pub(crate) const SUMMARY_MD: &str = "summary.md";
pub(crate) const SUITE_RESULTS: &str = "suite-results.json";

/// Merges the results under `dirs`; compares them with `baseline` when given.
pub(crate) fn aggregate(
    dirs: &[PathBuf],
    baseline: Option<&SuiteResults>,
    tolerances: gate::Tolerances,
) -> Result<SuiteResults> {
    let found = collect(dirs)?;
    let suite_name = suite_name(&found)?;
    let mut rows: BTreeMap<String, CaseRow> =
        found.cases.iter().map(|(_, result)| (result.name.clone(), totals::row(result))).collect();
    // A case a shard planned but never finished (the job was killed or timed out) is an error.
    for (_, shard) in &found.shards {
        for name in &shard.planned {
            rows.entry(name.clone()).or_insert_with(|| {
                let reason =
                    format!("no {CASE_RESULT}: shard {} stopped before this case finished", shard.shard);
                totals::row_without_recommendation(name, CaseStatus::Error, reason)
            });
        }
    }
    let (shards, missing_shards) = shard_coverage(&found.shards)?;
    let cases: Vec<CaseRow> = rows.into_values().collect();
    if let Some(baseline) = baseline
        && baseline.suite_name != suite_name
    {
        return Err(bad_input(format!(
            "the baseline is for suite `{}`, the results are for suite `{suite_name}`",
            baseline.suite_name
        )));
    }
    let transfers = merged_transfers(&found.shards);
    let comparison = baseline.map(|b| {
        let mut comparison = gate::compare(&cases, &b.cases, tolerances);
        super::transfer_gate::apply(&mut comparison, &transfers, &b.transfers, tolerances.max_transfer_drop);
        comparison
    });
    Ok(SuiteResults {
        suite_name,
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        shards,
        missing_shards,
        totals: totals::of(&cases),
        cases,
        transfer_totals: super::transfer::totals(&transfers),
        transfers,
        comparison,
    })
}

/// Every shard lists every pair; a pair is tried only in the shard that has both its cases, so
/// for each pair the result of the shard that tried it wins over the others' "skipped".
fn merged_transfers(shards: &[(PathBuf, ShardResults)]) -> Vec<TransferResult> {
    let mut merged: Vec<TransferResult> = Vec::new();
    for pair in shards.iter().flat_map(|(_, shard)| &shard.transfers) {
        match merged.iter_mut().find(|m| m.from == pair.from && m.to == pair.to) {
            Some(known)
                if known.status == TransferStatus::Skipped && pair.status != TransferStatus::Skipped =>
            {
                *known = pair.clone();
            }
            Some(_) => {}
            None => merged.push(pair.clone()),
        }
    }
    merged
}

/// True when the results are complete and did not regress.
pub(crate) fn passes(results: &SuiteResults) -> bool {
    results.missing_shards.is_empty() && !results.comparison.as_ref().is_some_and(|c| c.regressed)
}

/// Writes `summary.md` (with the trend of `history`), `suite-results.json` and `history.json` into
/// `out`.
pub(crate) fn write(out: &Path, results: &SuiteResults, history: &super::trend::History) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    std::fs::write(out.join(SUMMARY_MD), summary::render(results, Some(history)))
        .with_context(|| format!("writing {}", out.join(SUMMARY_MD).display()))?;
    write_json(&out.join(super::trend::HISTORY_JSON), history)?;
    write_json(&out.join(SUITE_RESULTS), results)
}

/// Reads a baseline (a `suite-results.json`).
pub(crate) fn load_baseline(path: &Path) -> Result<SuiteResults> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| bad_input(format!("cannot read baseline {}: {e}", path.display())))?;
    serde_json::from_str(&text)
        .map_err(|e| bad_input(format!("baseline {} is not a suite-results.json: {e}", path.display())))
}

/// Everything `eval run` wrote under some directories.
#[derive(Debug, Default)]
struct Found {
    cases: Vec<(PathBuf, CaseResult)>,
    shards: Vec<(PathBuf, ShardResults)>,
}

fn collect(dirs: &[PathBuf]) -> Result<Found> {
    let mut files = std::collections::BTreeSet::new();
    for dir in dirs {
        if !dir.is_dir() {
            return Err(bad_input(format!("{}: no such directory", dir.display())));
        }
        for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
            let entry = entry.map_err(|e| bad_input(format!("reading {}: {e}", dir.display())))?;
            let name = entry.file_name();
            if entry.file_type().is_file() && (name == CASE_RESULT || name == SHARD_RESULTS) {
                // The same file reached through two overlapping arguments counts once.
                files.insert(entry.path().canonicalize().unwrap_or_else(|_| entry.path().to_path_buf()));
            }
        }
    }
    let mut found = Found::default();
    let mut seen: BTreeMap<String, PathBuf> = BTreeMap::new();
    for path in files {
        if path.file_name().is_some_and(|n| n == SHARD_RESULTS) {
            found.shards.push((path.clone(), read_json(&path)?));
            continue;
        }
        let result: CaseResult = read_json(&path)?;
        if let Some(first) = seen.insert(result.name.clone(), path.clone()) {
            return Err(bad_input(format!(
                "case `{}` has two results: {} and {}",
                result.name,
                first.display(),
                path.display()
            )));
        }
        found.cases.push((path, result));
    }
    if found.cases.is_empty() && found.shards.is_empty() {
        let shown: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        return Err(bad_input(format!("no {CASE_RESULT} or {SHARD_RESULTS} under {}", shown.join(", "))));
    }
    Ok(found)
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let text = std::fs::read_to_string(path).map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| bad_input(format!("{}: {e}", path.display())))
}

/// The one suite every result belongs to.
fn suite_name(found: &Found) -> Result<String> {
    let names: std::collections::BTreeSet<&str> = found
        .cases
        .iter()
        .map(|(_, c)| c.suite_name.as_str())
        .chain(found.shards.iter().map(|(_, s)| s.suite_name.as_str()))
        .collect();
    match names.len() {
        1 => Ok(names.into_iter().next().unwrap_or_default().to_string()),
        _ => Err(bad_input(format!(
            "results of more than one suite: {}",
            names.into_iter().collect::<Vec<_>>().join(", ")
        ))),
    }
}

/// The shards found, and those of the same split that are missing.
fn shard_coverage(shards: &[(PathBuf, ShardResults)]) -> Result<(Vec<Shard>, Vec<Shard>)> {
    let mut found: BTreeMap<Shard, &Path> = BTreeMap::new();
    for (path, shard) in shards {
        if let Some(first) = found.insert(shard.shard, path) {
            return Err(bad_input(format!(
                "shard {} appears twice: {} and {}",
                shard.shard,
                first.display(),
                path.display()
            )));
        }
    }
    let counts: std::collections::BTreeSet<usize> = found.keys().map(|s| s.count).collect();
    if counts.len() > 1 {
        let shown: Vec<String> = found.keys().map(Shard::to_string).collect();
        return Err(bad_input(format!("shards of different splits: {}", shown.join(", "))));
    }
    let missing = match found.keys().next() {
        Some(first) => first.siblings().filter(|s| !found.contains_key(s)).collect(),
        None => Vec::new(),
    };
    Ok((found.into_keys().collect(), missing))
}
