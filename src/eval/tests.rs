//! Aggregation of synthetic shard outputs: real files in real directories, as `eval run` and the
//! artifact download leave them; only the analyses themselves are made up.

use std::path::{Path, PathBuf};

use super::aggregate::{self, SUITE_RESULTS, SUMMARY_MD};
use super::gate::Tolerances;
use super::run::{CASE_RESULT, SHARD_RESULTS, write_json};
use super::totals;
use crate::error::{exit, exit_code_of};
use crate::model::{
    Backend, CaseResult, CaseSource, CaseStatus, Commits, Confidence, IntentSummary, OptionId, OptionResult,
    Recommendation, RunStatus, Shard, ShardResults, Strategy, SuiteResults,
};

/// A case result as `eval run` writes it. `f1` None: no recommendation.
fn case(name: &str, status: CaseStatus, f1: Option<f64>, wall: f64) -> CaseResult {
    let option = |n: u8, strategy, f1: f64| OptionResult {
        option: n.try_into().unwrap(),
        strategy,
        recipe_name: format!("com.example.Option{n}"),
        recipes: 2,
        precision: f1,
        recall: f1,
        f1,
        perfect_match: f1 == 1.0,
        semantic_share: 1.0,
        catalog_share: 1.0,
        learned_share: 0.0,
        wall_seconds: wall / 3.0,
        attempts: 1,
        dropped: Vec::new(),
        tests_dropped: false,
        error: None,
        backend: Some(Backend::MavenPlugin),
        migration_precision: None,
        false_positive_classes: None,
        migration_recall: None,
        migration_f1: None,
        residual: None,
        unresolved: None,
    };
    let recommended = f1.map(|f1| Recommendation {
        option: OptionId::Narrow,
        precision: f1,
        recall: if f1 == 1.0 { 1.0 } else { f1 - 0.05 },
        f1,
        perfect_match: f1 == 1.0,
        semantic_share: 0.75,
        catalog_share: 0.75,
        learned_share: 0.0,
        confidence: Confidence::of(f1),
        migration_precision: None,
        why: None,
        migration_semantic_share: None,
    });
    CaseResult {
        suite_name: "nightly".into(),
        name: name.into(),
        status,
        reason: match status {
            CaseStatus::Passed => None,
            CaseStatus::Failed => Some("validate_candidates: every option failed | see build.log".into()),
            CaseStatus::Error => Some("the diff between main and migration is empty".into()),
            CaseStatus::Skipped => {
                Some(format!("cannot clone https://example.org/{name}: Could not resolve host"))
            }
        },
        source: CaseSource {
            repo: Some(format!("https://example.org/{name}")),
            base: Some("main".into()),
            head: Some("migration".into()),
            pr: None,
        },
        commits: f1.map(|_| Commits { base: "a".repeat(40), head: "b".repeat(40) }),
        run_status: match status {
            CaseStatus::Passed => Some(RunStatus::Success),
            CaseStatus::Failed => Some(RunStatus::Failed),
            CaseStatus::Error | CaseStatus::Skipped => None,
        },
        recommended,
        options: f1
            .map(|f1| vec![option(1, Strategy::Wide, 0.5), option(2, Strategy::Narrow, f1)])
            .unwrap_or_default(),
        intents: f1.map(|_| IntentSummary {
            coverage: 1.0,
            strategic: vec!["Upgrade".into()],
            tactical: 1,
            atomic: 2,
        }),
        backend: f1.map(|_| Backend::MavenPlugin),
        wall_seconds: wall,
        pr_kind: None,
        verdict: None,
    }
}

/// Writes a shard's output like `eval run --out DIR/shard-I` does.
fn write_shard(root: &Path, shard: Shard, cases: &[CaseResult], planned_extra: &[&str]) -> PathBuf {
    let dir = root.join(format!("shard-{}", shard.index));
    std::fs::create_dir_all(&dir).unwrap();
    for case in cases {
        write_json(&dir.join(&case.name).join(CASE_RESULT), case).unwrap();
    }
    let rows: Vec<_> = cases.iter().map(totals::row).collect();
    let mut planned: Vec<String> = cases.iter().map(|c| c.name.clone()).collect();
    planned.extend(planned_extra.iter().map(|s| s.to_string()));
    let results = ShardResults {
        suite_name: "nightly".into(),
        shard,
        planned,
        totals: totals::of(&rows),
        cases: rows,
        transfers: Vec::new(),
    };
    write_json(&dir.join(SHARD_RESULTS), &results).unwrap();
    dir
}

fn two_shards(root: &Path) -> Vec<PathBuf> {
    vec![
        write_shard(
            root,
            Shard { index: 1, count: 2 },
            &[
                case("javax-to-jakarta", CaseStatus::Passed, Some(1.0), 41.25),
                case("spring-props", CaseStatus::Passed, Some(0.8), 35.0),
            ],
            &[],
        ),
        write_shard(
            root,
            Shard { index: 2, count: 2 },
            &[
                case("junit4-to-junit5", CaseStatus::Passed, Some(0.9), 52.5),
                case("broken-build", CaseStatus::Failed, None, 20.0),
                case("empty-diff", CaseStatus::Error, None, 0.05),
            ],
            &[],
        ),
    ]
}

#[test]
fn merges_two_shards_into_summary_and_suite_results() {
    let dir = tempfile::tempdir().unwrap();
    let shards = two_shards(dir.path());
    let results = aggregate::aggregate(&shards, None, Tolerances::default()).unwrap();
    let out = dir.path().join("aggregate");
    let history =
        super::trend::extend(None, &results.suite_name, super::trend::point(&results, "run 1"), 30).unwrap();
    aggregate::write(&out, &results, &history).unwrap();

    let names: Vec<&str> = results.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["broken-build", "empty-diff", "javax-to-jakarta", "junit4-to-junit5", "spring-props"]);
    let t = &results.totals;
    assert_eq!((t.cases, t.passed, t.failed, t.errors, t.perfect_matches), (5, 3, 1, 1, 1));
    // (1.0 + 0.8 + 0.9 + 0 + 0) / 5
    assert_eq!(t.avg_f1, 0.54);
    assert_eq!(t.avg_precision, 0.54);
    // (1.0 + 0.75 + 0.85) / 5
    assert_eq!(t.avg_recall, 0.52);
    assert_eq!(t.total_wall_seconds, 148.8);
    assert_eq!(results.shards, [Shard { index: 1, count: 2 }, Shard { index: 2, count: 2 }]);
    assert!(results.missing_shards.is_empty());
    assert!(aggregate::passes(&results));

    let written: SuiteResults =
        serde_json::from_str(&std::fs::read_to_string(out.join(SUITE_RESULTS)).unwrap()).unwrap();
    assert_eq!(written, results);
    insta::assert_snapshot!("summary_two_shards", std::fs::read_to_string(out.join(SUMMARY_MD)).unwrap());
}

#[test]
fn finds_results_at_any_depth_as_an_artifact_download_leaves_them() {
    let dir = tempfile::tempdir().unwrap();
    let downloaded = dir.path().join("download");
    two_shards(&downloaded.join("eval-shard-1").join("eval-output"));
    // Only the root given, and a shard directory given twice: each file counts once.
    let shard = downloaded.join("eval-shard-1/eval-output/shard-1");
    let results = aggregate::aggregate(&[downloaded.clone(), shard], None, Tolerances::default()).unwrap();
    assert_eq!(results.totals.cases, 5);
}

#[test]
fn a_case_in_two_shard_directories_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut shards = two_shards(dir.path());
    let again = dir.path().join("again");
    write_json(&again.join("x").join(CASE_RESULT), &case("spring-props", CaseStatus::Passed, Some(0.8), 1.0))
        .unwrap();
    shards.push(again);
    let error = aggregate::aggregate(&shards, None, Tolerances::default()).unwrap_err();
    assert_eq!(exit_code_of(&error), exit::BAD_INPUT);
    let message = error.to_string();
    assert!(message.starts_with("case `spring-props` has two results: "), "{message}");
}

#[test]
fn unusable_inputs_are_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let bad = |dirs: &[PathBuf]| {
        let error = aggregate::aggregate(dirs, None, Tolerances::default()).unwrap_err();
        assert_eq!(exit_code_of(&error), exit::BAD_INPUT, "{error}");
        error.to_string()
    };
    assert!(bad(std::slice::from_ref(&empty)).starts_with("no case-result.json or shard-results.json under"));
    assert!(bad(&[dir.path().join("nope")]).ends_with("nope: no such directory"));

    std::fs::write(empty.join(CASE_RESULT), "{not json").unwrap();
    assert!(bad(std::slice::from_ref(&empty)).contains("case-result.json: "));

    let mixed = dir.path().join("mixed");
    let mut other = case("other", CaseStatus::Passed, Some(1.0), 1.0);
    other.suite_name = "weekly".into();
    write_json(&mixed.join("a").join(CASE_RESULT), &case("a", CaseStatus::Passed, Some(1.0), 1.0)).unwrap();
    write_json(&mixed.join("b").join(CASE_RESULT), &other).unwrap();
    assert_eq!(bad(std::slice::from_ref(&mixed)), "results of more than one suite: nightly, weekly");
}

#[test]
fn a_missing_shard_and_an_unfinished_case_are_reported_and_fail() {
    let dir = tempfile::tempdir().unwrap();
    let only = write_shard(
        dir.path(),
        Shard { index: 1, count: 3 },
        &[case("a", CaseStatus::Passed, Some(1.0), 3.0)],
        &["killed-midway"],
    );
    let results = aggregate::aggregate(&[only], None, Tolerances::default()).unwrap();
    assert_eq!(results.missing_shards, [Shard { index: 2, count: 3 }, Shard { index: 3, count: 3 }]);
    let unfinished = results.cases.iter().find(|c| c.name == "killed-midway").unwrap();
    assert_eq!(unfinished.status, CaseStatus::Error);
    assert_eq!(
        unfinished.reason.as_deref(),
        Some("no case-result.json: shard 1/3 stopped before this case finished")
    );
    assert!(!aggregate::passes(&results));
    let summary = super::summary::render(&results, None);
    assert!(summary.contains("> **Incomplete:** no output from shard 2/3, 3/3;"), "{summary}");
}

#[test]
fn shards_of_different_splits_are_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let a = write_shard(&dir.path().join("x"), Shard { index: 1, count: 2 }, &[], &[]);
    let b = write_shard(&dir.path().join("y"), Shard { index: 2, count: 3 }, &[], &[]);
    let error = aggregate::aggregate(&[a.clone(), b], None, Tolerances::default()).unwrap_err();
    assert_eq!(error.to_string(), "shards of different splits: 1/2, 2/3");
    let twice = write_shard(&dir.path().join("z"), Shard { index: 1, count: 2 }, &[], &[]);
    let error = aggregate::aggregate(&[a, twice], None, Tolerances::default()).unwrap_err();
    assert!(error.to_string().starts_with("shard 1/2 appears twice: "), "{error}");
}

/// The baseline of the gate tests: the two-shard results, as a committed checkpoint.
fn baseline(root: &Path) -> SuiteResults {
    let shards = two_shards(&root.join("baseline-run"));
    aggregate::aggregate(&shards, None, Tolerances::default()).unwrap()
}

/// A later run: the baseline's cases with some changed.
fn later_run(root: &Path, changed: &[CaseResult]) -> Vec<PathBuf> {
    let dir = root.join("later");
    two_shards(&dir);
    for case in changed {
        let path = walkdir::WalkDir::new(&dir)
            .into_iter()
            .filter_map(Result::ok)
            .find(|e| e.path().parent().is_some_and(|p| p.ends_with(&case.name)))
            .map(|e| e.path().parent().unwrap().join(CASE_RESULT))
            .unwrap_or_else(|| dir.join("shard-2").join(&case.name).join(CASE_RESULT));
        write_json(&path, case).unwrap();
    }
    vec![dir]
}

#[test]
fn the_gate_passes_within_the_tolerance() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = baseline(dir.path());
    // 0.8 -> 0.75 on one of five cases: the average drops by 0.01.
    let run = later_run(dir.path(), &[case("spring-props", CaseStatus::Passed, Some(0.75), 30.0)]);
    let results = aggregate::aggregate(&run, Some(&baseline), Tolerances::default()).unwrap();
    let c = results.comparison.as_ref().unwrap();
    assert_eq!((c.baseline_avg_f1, c.avg_f1, c.f1_drop), (0.54, 0.53, 0.01));
    assert!(!c.regressed, "{c:#?}");
    assert!(aggregate::passes(&results));
}

#[test]
fn the_gate_fails_on_an_f1_drop_beyond_the_tolerance() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = baseline(dir.path());
    let run = later_run(dir.path(), &[case("javax-to-jakarta", CaseStatus::Passed, Some(0.8), 40.0)]);
    let results = aggregate::aggregate(&run, Some(&baseline), Tolerances::default()).unwrap();
    let c = results.comparison.as_ref().unwrap();
    assert_eq!(c.f1_drop, 0.04);
    assert!(c.regressed && !aggregate::passes(&results));
    insta::assert_snapshot!("summary_f1_regression", super::summary::render(&results, None));
}

#[test]
fn the_gate_fails_when_a_baseline_pass_now_fails_and_reports_new_and_removed_cases() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = baseline(dir.path());
    let run = later_run(
        dir.path(),
        &[
            case("junit4-to-junit5", CaseStatus::Error, None, 0.1),
            case("broken-build", CaseStatus::Passed, Some(0.9), 25.0),
            case("brand-new", CaseStatus::Passed, Some(1.0), 12.0),
        ],
    );
    std::fs::remove_dir_all(run[0].join("shard-2").join("empty-diff")).unwrap();
    // The shard no longer plans the removed case either.
    let shard_file = run[0].join("shard-2").join(SHARD_RESULTS);
    let mut shard: ShardResults =
        serde_json::from_str(&std::fs::read_to_string(&shard_file).unwrap()).unwrap();
    shard.planned.retain(|n| n != "empty-diff");
    write_json(&shard_file, &shard).unwrap();

    let results = aggregate::aggregate(&run, Some(&baseline), Tolerances::default()).unwrap();
    let c = results.comparison.as_ref().unwrap();
    assert_eq!(c.newly_failing, ["junit4-to-junit5"]);
    assert_eq!(c.newly_passing, ["broken-build"]);
    assert_eq!(c.new_cases, ["brand-new"]);
    assert_eq!(c.removed_cases, ["empty-diff"]);
    // F1 over the four common cases is unchanged on average (0.9 lost, 0.9 gained): only the
    // newly failing case trips the gate.
    assert_eq!(c.f1_drop, 0.0);
    assert_eq!(c.reasons, ["passed in the baseline, no longer passing: junit4-to-junit5"]);
    assert!(!aggregate::passes(&results));
    insta::assert_snapshot!("summary_newly_failing", super::summary::render(&results, None));
}

#[test]
fn a_baseline_of_another_suite_or_unreadable_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let mut other = baseline(dir.path());
    other.suite_name = "weekly".into();
    let run = later_run(dir.path(), &[]);
    let error = aggregate::aggregate(&run, Some(&other), Tolerances::default()).unwrap_err();
    assert_eq!(exit_code_of(&error), exit::BAD_INPUT);
    assert_eq!(error.to_string(), "the baseline is for suite `weekly`, the results are for suite `nightly`");

    let path = dir.path().join("baseline.json");
    std::fs::write(&path, "[]").unwrap();
    let error = aggregate::load_baseline(&path).unwrap_err();
    assert_eq!(exit_code_of(&error), exit::BAD_INPUT);
    assert!(error.to_string().contains("is not a suite-results.json"), "{error}");
}

/// The nightly job summary: the gate's verdict first, then the overview and the trend of the last
/// runs — F1, semantic share, a migration precision that only the latest runs have, transfer and
/// time — as Mermaid charts, then the tables. The history file the next night reads is written too.
#[test]
fn nightly_summary_with_its_chart() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = baseline(dir.path());
    let run = later_run(dir.path(), &[case("spring-props", CaseStatus::Passed, Some(0.75), 30.0)]);
    let results = aggregate::aggregate(&run, Some(&baseline), Tolerances::default()).unwrap();
    let earlier = |label: &str, f1: f64, migration: Option<f64>| {
        let mut metrics: std::collections::BTreeMap<String, f64> = [
            ("avg_f1", f1),
            ("avg_semantic_share", 0.45),
            ("avg_precision", f1),
            ("transfer_avg_f1", 0.6),
            ("avg_wall_seconds", 31.0),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        if let Some(m) = migration {
            metrics.insert("avg_migration_precision".into(), m);
        }
        super::trend::TrendPoint { label: label.into(), regressed: f1 < 0.5, metrics }
    };
    let history = super::trend::History {
        suite_name: "nightly".into(),
        points: vec![
            earlier("05-01", 0.52, None),
            earlier("05-02", 0.48, None),
            earlier("05-03", 0.54, Some(0.9)),
        ],
    };
    let file = dir.path().join("history.json");
    write_json(&file, &history).unwrap();
    let point = super::trend::point(&results, "05-04");
    assert_eq!(point.metrics["avg_f1"], 0.53);
    let history = super::trend::extend(Some(&file), "nightly", point, 30).unwrap();
    let out = dir.path().join("aggregate");
    aggregate::write(&out, &results, &history).unwrap();
    let summary = std::fs::read_to_string(out.join(SUMMARY_MD)).unwrap();
    assert!(summary.starts_with("# Eval: nightly\n\n**Regression gate: passed**"), "{summary}");
    let written: super::trend::History =
        serde_json::from_str(&std::fs::read_to_string(out.join(super::trend::HISTORY_JSON)).unwrap())
            .unwrap();
    assert_eq!(written.points.len(), 4);
    insta::assert_snapshot!("nightly_summary_with_its_chart", summary);
}
