//! A suite file: a name, optional run defaults, and the cases — each a repository with base and
//! head, or a pull-request URL.
//!
//! ```yaml
//! suite_name: fixtures
//! defaults: { timeout: 600, max_wall: 1800, jobs: 2 }
//! cases:
//!   - { name: javax-to-jakarta, repo: ../.fixtures/javax-to-jakarta, base: main, head: migration }
//!   - { name: petclinic-boot3, pr: "https://github.com/acme/petclinic/pull/42" }
//! # Optional: the reusable recipe learned from one case, run on another case's base and scored
//! # against that case's own PR (the transfer score).
//! pairs:
//!   - { from: javax-to-jakarta, to: petclinic-boot3 }
//!   - { from: javax-to-jakarta, to: orders-service }   # a target: a rollout, no PR
//! # Optional: repositories at a commit, with no PR, for rollout pairs: the recipe runs there and is
//! # scored by what it leaves of the old library and whether everything still resolves.
//! targets:
//!   - { name: orders-service, repo: https://github.com/acme/orders.git, base: 5f0c2e1 }
//! ```

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use serde::Deserialize;

use crate::error::bad_input;
use crate::model::CaseSource;
use crate::pipeline::Budgets;
use crate::setup::PrUrl;

/// A parsed, validated suite.
#[derive(Debug, Clone, PartialEq)]
pub struct Suite {
    pub name: String,
    pub defaults: Defaults,
    /// In file order (the order shards are cut in).
    pub cases: Vec<Case>,
    /// Transfer pairs, in file order.
    pub pairs: Vec<Pair>,
    /// Rollout targets (a repository at a commit, no PR; as cases whose head is their base).
    pub targets: Vec<Case>,
}

impl Suite {
    /// The rollout target named `name`.
    pub(crate) fn target(&self, name: &str) -> Option<&Case> {
        self.targets.iter().find(|t| t.name == name)
    }
}

/// Case `from`'s reusable recipe, run on case `to`'s base and scored against `to`'s PR.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    pub from: String,
    pub to: String,
}

/// Run settings: the suite's `defaults`, or the command line's overrides of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defaults {
    /// Limit of one recipe execution, in seconds.
    pub timeout: Option<u64>,
    /// Limit of one case's analysis, in seconds.
    pub max_wall: Option<u64>,
    /// Recipe executions in all, per case.
    pub max_executions: Option<usize>,
    /// Refinement rounds, per case.
    pub max_rounds: Option<usize>,
    /// Recipe executions at once.
    pub jobs: Option<usize>,
}

impl Defaults {
    /// `self`, with every setting `overrides` has replaced.
    pub(crate) fn overridden_by(self, overrides: Defaults) -> Defaults {
        Defaults {
            timeout: overrides.timeout.or(self.timeout),
            max_wall: overrides.max_wall.or(self.max_wall),
            max_executions: overrides.max_executions.or(self.max_executions),
            max_rounds: overrides.max_rounds.or(self.max_rounds),
            jobs: overrides.jobs.or(self.jobs),
        }
    }

    /// The budgets of one case: these settings over `analyze`'s defaults.
    pub(crate) fn budgets(self) -> Budgets {
        let default = Budgets::default();
        Budgets {
            max_wall: self.max_wall.map(Duration::from_secs).unwrap_or(default.max_wall),
            per_execution: self.timeout.map(Duration::from_secs).unwrap_or(default.per_execution),
            max_executions: self.max_executions.unwrap_or(default.max_executions),
            max_rounds: self.max_rounds.unwrap_or(default.max_rounds),
        }
    }

    /// Recipe executions at once: the setting, or the number of CPUs.
    pub(crate) fn jobs(self) -> usize {
        self.jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2))
    }

    fn check(self) -> Result<(), SuiteError> {
        let positive = [
            ("timeout", self.timeout.map(|v| v as usize)),
            ("max_wall", self.max_wall.map(|v| v as usize)),
            ("max_executions", self.max_executions),
            ("jobs", self.jobs),
        ];
        match positive.iter().find(|(_, value)| *value == Some(0)) {
            Some((key, _)) => Err(SuiteError(format!("defaults.{key} must be at least 1"))),
            None => Ok(()),
        }
    }
}

/// One PR of the suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// Unique in the suite; names the case's output directory.
    pub name: String,
    pub source: Source,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A repository and two commit-ishes.
    Repo { repo: String, location: Location, base: String, head: String },
    /// A pull request: `<repository URL>/pull/<number>`.
    Pr { url: String, remote: String, number: u64 },
}

/// Where a repository is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A work tree or bare directory on this machine (relative paths already resolved against the
    /// suite file's directory).
    Path(PathBuf),
    /// Anything `git clone` takes that is not a local path: `https://…`, `ssh://…`, `file://…`,
    /// `git@host:owner/repo.git`.
    Url(String),
}

impl Case {
    /// The source as the suite file wrote it, for the results.
    pub fn written_source(&self) -> CaseSource {
        match &self.source {
            Source::Repo { repo, base, head, .. } => CaseSource {
                repo: Some(repo.clone()),
                base: Some(base.clone()),
                head: Some(head.clone()),
                pr: None,
            },
            Source::Pr { url, .. } => CaseSource { pr: Some(url.clone()), ..CaseSource::default() },
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SuiteFile {
    suite_name: String,
    #[serde(default)]
    defaults: Defaults,
    cases: Vec<CaseFile>,
    #[serde(default)]
    pairs: Vec<Pair>,
    #[serde(default)]
    targets: Vec<TargetFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetFile {
    name: String,
    repo: String,
    base: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    name: String,
    repo: Option<String>,
    base: Option<String>,
    head: Option<String>,
    pr: Option<String>,
}

/// Reads and validates a suite file. Every problem is bad input with a one-line message that
/// starts with the file's path.
pub fn load(path: &Path) -> Result<Suite> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| bad_input(format!("cannot read suite {}: {e}", path.display())))?;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    parse(&text, dir).map_err(|message| bad_input(format!("suite {}: {message}", path.display())))
}

/// Parses a suite; relative repository paths are resolved against `dir`.
/// Why a suite file (or a PR URL in it) is not usable, in one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SuiteError(pub String);

pub fn parse(text: &str, dir: &Path) -> Result<Suite, SuiteError> {
    if text.trim().is_empty() {
        return Err(SuiteError("the file is empty".into()));
    }
    let file: SuiteFile = crate::openrewrite::yaml::from_str(text).map_err(SuiteError)?;
    let name = file.suite_name.trim().to_string();
    if name.is_empty() {
        return Err(SuiteError("suite_name is empty".into()));
    }
    file.defaults.check()?;
    if file.cases.is_empty() {
        return Err(SuiteError("the suite has no cases".into()));
    }
    let mut seen = BTreeSet::new();
    let mut cases = Vec::new();
    for (index, case) in file.cases.into_iter().enumerate() {
        let case =
            parse_case(case, dir).map_err(|message| SuiteError(format!("cases[{index}]: {message}")))?;
        if !seen.insert(case.name.clone()) {
            return Err(SuiteError(format!("cases[{index}]: the name `{}` is used twice", case.name)));
        }
        cases.push(case);
    }
    let mut targets = Vec::new();
    for (index, target) in file.targets.into_iter().enumerate() {
        let case = CaseFile {
            name: target.name,
            repo: Some(target.repo),
            head: Some(target.base.clone()),
            base: Some(target.base),
            pr: None,
        };
        let case =
            parse_case(case, dir).map_err(|message| SuiteError(format!("targets[{index}]: {message}")))?;
        if !seen.insert(case.name.clone()) {
            return Err(SuiteError(format!("targets[{index}]: the name `{}` is used twice", case.name)));
        }
        targets.push(case);
    }
    let mut pairs: Vec<Pair> = Vec::new();
    for (index, pair) in file.pairs.into_iter().enumerate() {
        let context = |message: String| SuiteError(format!("pairs[{index}]: {message}"));
        if !cases.iter().any(|c| c.name == pair.from) {
            return Err(context(format!("`{}` is not a case of the suite", pair.from)));
        }
        if !seen.contains(&pair.to) {
            return Err(context(format!("`{}` is neither a case nor a target of the suite", pair.to)));
        }
        if pair.from == pair.to {
            return Err(context(format!("`{}` is paired with itself", pair.from)));
        }
        if pairs.contains(&pair) {
            return Err(context(format!("the pair `{}` -> `{}` is listed twice", pair.from, pair.to)));
        }
        pairs.push(pair);
    }
    Ok(Suite { name, defaults: file.defaults, cases, pairs, targets })
}

fn parse_case(case: CaseFile, dir: &Path) -> Result<Case, SuiteError> {
    let name = case.name.trim().to_string();
    check_name(&name)?;
    let context = |message: String| SuiteError(format!("`{name}`: {message}"));
    let non_empty = |value: Option<String>| value.map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
    let source = match (non_empty(case.repo), non_empty(case.base), non_empty(case.head), non_empty(case.pr))
    {
        (Some(repo), Some(base), Some(head), None) => {
            for (key, value) in [("repo", &repo), ("base", &base), ("head", &head)] {
                crate::setup::git::not_an_option(key, value).map_err(|e| context(e.to_string()))?;
            }
            let location = locate(&repo, dir);
            Source::Repo { repo, location, base, head }
        }
        (None, None, None, Some(url)) => {
            let pr = PrUrl::parse(&url).map_err(|e| context(e.to_string()))?;
            Source::Pr { url, remote: pr.repository(), number: pr.number() }
        }
        (_, _, _, Some(_)) => {
            return Err(context("give either `pr` alone or `repo`, `base` and `head`".into()));
        }
        (repo, base, head, None) => {
            let missing: Vec<&str> =
                [("repo", repo.is_none()), ("base", base.is_none()), ("head", head.is_none())]
                    .into_iter()
                    .filter(|(_, missing)| *missing)
                    .map(|(key, _)| key)
                    .collect();
            return Err(context(format!("missing `{}` (or give `pr: URL`)", missing.join("`, `"))));
        }
    };
    Ok(Case { name, source })
}

/// Case names become directory names and table rows: letters, digits, `.`, `_` and `-`.
fn check_name(name: &str) -> Result<(), SuiteError> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    let starts_well = name.chars().next().is_some_and(|c| c.is_ascii_alphanumeric());
    if starts_well && name.chars().all(allowed) {
        Ok(())
    } else {
        Err(SuiteError(format!(
            "the case name `{name}` must start with a letter or digit and use only letters, digits, `.`, `_` and `-`"
        )))
    }
}

/// A URL when git would read it as one (a scheme, or scp-like `host:path` with no slash before the
/// first colon), else a path relative to the suite's directory.
fn locate(repo: &str, dir: &Path) -> Location {
    let scp_like = repo.split_once(':').is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'));
    if repo.contains("://") || scp_like {
        Location::Url(repo.to_string())
    } else {
        Location::Path(dir.join(repo))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> Suite {
        parse(text, Path::new("/suites")).unwrap_or_else(|e| panic!("{e}"))
    }

    fn parse_err(text: &str) -> String {
        parse(text, Path::new("/suites")).unwrap_err().to_string()
    }

    #[test]
    fn parses_repository_and_pr_cases() {
        let suite = parse_ok(
            "suite_name: nightly
defaults:
  timeout: 600
  jobs: 2
cases:
  - name: local
    repo: ../.fixtures/javax-to-jakarta
    base: main
    head: migration
  - name: absolute
    repo: /srv/repos/shop.git
    base: v1.0
    head: 0123abc
  - name: remote
    repo: https://example.org/acme/shop.git
    base: main
    head: boot-3
  - name: scp
    repo: git@example.org:acme/shop.git
    base: main
    head: boot-3
  - name: pr
    pr: https://github.com/acme/shop/pull/42
",
        );
        assert_eq!(suite.name, "nightly");
        assert_eq!(suite.defaults, Defaults { timeout: Some(600), jobs: Some(2), ..Defaults::default() });
        let locations: Vec<&Source> = suite.cases.iter().map(|c| &c.source).collect();
        assert_eq!(
            locations[0],
            &Source::Repo {
                repo: "../.fixtures/javax-to-jakarta".into(),
                location: Location::Path(PathBuf::from("/suites/../.fixtures/javax-to-jakarta")),
                base: "main".into(),
                head: "migration".into(),
            }
        );
        assert!(
            matches!(locations[1], Source::Repo { location: Location::Path(p), .. } if p == Path::new("/srv/repos/shop.git"))
        );
        assert!(
            matches!(locations[2], Source::Repo { location: Location::Url(u), .. } if u == "https://example.org/acme/shop.git")
        );
        assert!(
            matches!(locations[3], Source::Repo { location: Location::Url(u), .. } if u == "git@example.org:acme/shop.git")
        );
        assert_eq!(
            locations[4],
            &Source::Pr {
                url: "https://github.com/acme/shop/pull/42".into(),
                remote: "https://github.com/acme/shop".into(),
                number: 42
            }
        );
        assert_eq!(
            suite.cases[4].written_source().pr.as_deref(),
            Some("https://github.com/acme/shop/pull/42")
        );
        assert_eq!(suite.cases[0].written_source().repo.as_deref(), Some("../.fixtures/javax-to-jakarta"));
    }

    #[test]
    fn defaults_fill_budgets_and_the_command_line_overrides_them() {
        let suite = Defaults { timeout: Some(60), max_wall: Some(600), ..Defaults::default() };
        let cli = Defaults { max_wall: Some(120), jobs: Some(3), ..Defaults::default() };
        let merged = suite.overridden_by(cli);
        let budgets = merged.budgets();
        assert_eq!(budgets.per_execution, Duration::from_secs(60));
        assert_eq!(budgets.max_wall, Duration::from_secs(120));
        assert_eq!(budgets.max_executions, Budgets::default().max_executions);
        assert_eq!(merged.jobs(), 3);
    }

    #[test]
    fn bad_suites_say_what_is_wrong() {
        for (text, expected) in [
            ("", "empty"),
            ("cases: []\n", "missing field `suite_name`"),
            ("suite_name: x\ncases: []\n", "no cases"),
            ("suite_name: ' '\ncases: []\n", "suite_name is empty"),
            ("suite_name: x\nextra: 1\ncases: []\n", "unknown field `extra`"),
            ("suite_name: x\ndefaults: {timout: 5}\ncases: []\n", "unknown field `timout`"),
            (
                "suite_name: x\ndefaults: {timeout: 0}\ncases: [{name: a, pr: 'https://h/o/r/pull/1'}]\n",
                "defaults.timeout must be at least 1",
            ),
            (
                "suite_name: x\ncases:\n  - {name: a, repo: r, base: b, head: h, bse: c}\n",
                "unknown field `bse`",
            ),
            ("suite_name: x\ncases:\n  - {name: a, repo: r, base: b}\n", "cases[0]: `a`: missing `head`"),
            ("suite_name: x\ncases:\n  - {name: a}\n", "missing `repo`, `base`, `head`"),
            (
                "suite_name: x\ncases:\n  - {name: a, repo: r, pr: 'https://h/o/r/pull/1'}\n",
                "either `pr` alone",
            ),
            (
                "suite_name: x\ncases:\n  - {name: a, pr: 'https://h/o/r/issues/1'}\n",
                "not a pull-request URL",
            ),
            (
                "suite_name: x\ncases:\n  - {name: ../up, repo: r, base: b, head: h}\n",
                "must start with a letter",
            ),
            ("suite_name: x\ncases:\n  - {name: 'a b', repo: r, base: b, head: h}\n", "only letters"),
            (
                "suite_name: x\ncases:\n  - {name: a, repo: r, base: b, head: h}\n  - {name: a, repo: s, base: b, head: h}\n",
                "cases[1]: the name `a` is used twice",
            ),
            (
                "suite_name: x\ncases: {name: a}\n",
                "line 2 column 8: expected sequence start (in `cases: {name: a}`)",
            ),
            (
                "suite_name: x\ncases:\n  - {name: a, repo: r, base: b, head: h}\npairs:\n  - {from: a, to: z}\n",
                "pairs[0]: `z` is neither a case nor a target of the suite",
            ),
            (
                "suite_name: x\ncases:\n  - {name: a, repo: r, base: b, head: h}\ntargets:\n  - {name: t, repo: r, base: b}\npairs:\n  - {from: t, to: a}\n",
                "pairs[0]: `t` is not a case of the suite",
            ),
            (
                "suite_name: x\ncases:\n  - {name: a, repo: r, base: b, head: h}\ntargets:\n  - {name: a, repo: r, base: b}\n",
                "targets[0]: the name `a` is used twice",
            ),
            (
                "suite_name: x\ncases:\n  - {name: a, repo: r, base: b, head: h}\ntargets:\n  - {name: t, repo: r}\n",
                "missing field `base`",
            ),
            (
                "suite_name: x\ncases:\n  - {name: a, repo: r, base: b, head: h}\npairs:\n  - {from: a, to: a}\n",
                "pairs[0]: `a` is paired with itself",
            ),
            (
                "suite_name: x\ncases:\n  - {name: a, repo: r, base: b, head: h}\n  - {name: b, repo: r, base: b, head: h}\npairs:\n  - {from: a, to: b}\n  - {from: a, to: b}\n",
                "pairs[1]: the pair `a` -> `b` is listed twice",
            ),
            (
                "suite_name: x\ncases:\n  - {name: a, repo: r, base: b, head: h}\npairs:\n  - {from: a, into: b}\n",
                "unknown field `into`",
            ),
            ("- just\n- a list\n", "expected mapping start"),
        ] {
            let error = parse_err(text);
            assert!(error.contains(expected), "{text:?}: `{error}` lacks `{expected}`");
            assert!(!error.contains('\n') || error.lines().count() == 1, "{error}");
        }
    }

    #[test]
    fn load_prefixes_the_path_and_resolves_relative_to_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("suite.yaml");
        std::fs::write(&path, "suite_name: s\ncases:\n  - {name: a, repo: repos/a, base: main, head: pr}\n")
            .unwrap();
        let suite = load(&path).unwrap();
        assert_eq!(
            suite.cases[0].source,
            Source::Repo {
                repo: "repos/a".into(),
                location: Location::Path(dir.path().join("repos/a")),
                base: "main".into(),
                head: "pr".into(),
            }
        );
        std::fs::write(&path, "suite_name: s\ncases: 3\n").unwrap();
        let error = crate::error::one_line(&load(&path).unwrap_err());
        assert!(error.starts_with(&format!("suite {}: ", path.display())), "{error}");
        let missing = load(&dir.path().join("nope.yaml")).unwrap_err();
        assert_eq!(crate::error::exit_code_of(&missing), crate::error::exit::BAD_INPUT);
        assert!(missing.to_string().contains("cannot read suite"));
    }

    /// The committed fixtures suite lists every fixture scenario, each by its built path.
    #[test]
    fn the_fixtures_suite_matches_the_fixture_builders() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("evals/suites/fixtures.yaml");
        let suite = load(&path).unwrap();
        let names: Vec<&str> = suite.cases.iter().map(|c| c.name.as_str()).collect();
        let scenarios: Vec<&str> = crate::fixtures::scenarios::ALL
            .iter()
            .chain(std::iter::once(&crate::fixtures::scenarios::DEMO))
            .map(|s| s.name)
            .collect();
        assert_eq!(names, scenarios);
        for case in &suite.cases {
            let Source::Repo { repo, base, head, .. } = &case.source else { panic!("{case:?}") };
            assert_eq!(repo, &format!("../.fixtures/{}", case.name));
            assert_eq!((base.as_str(), head.as_str()), ("main", "migration"));
        }
    }
}
