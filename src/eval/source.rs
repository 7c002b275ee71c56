//! Getting a case's repository and commits onto this machine: a local path is used as it is; a URL
//! is cloned (bare) into the clone cache when there is one (`--cache`), else once per run into a
//! temporary directory; a pull request is fetched from its repository (`refs/pull/N/head`, and
//! `refs/pull/N/merge` when the forge still has it). A commit already in the clone needs no
//! network; a missing one is fetched by its id.
//!
//! Network commands run in their own process group with a time limit, so an unreachable host
//! fails the case instead of hanging the batch; a failed clone is remembered and not retried.
//! What a remote cannot give (it is gone, or lacks the commit) is [`Unavailable`]: the case is
//! skipped, not failed, because nothing the tool does could change it.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Result, anyhow, bail};

use super::cache::CloneCache;
use super::suite::{Case, Location, Source};
use crate::error::bad_input;
use crate::process::{ProcessEnd, run_logged};
use crate::setup::git::{git_command, git_output};

/// A remote repository, or a commit of it, that cannot be had: carried inside `anyhow::Error`
/// and recognised by downcasting, like [`crate::error::BadInput`].
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Unavailable(pub String);

fn unavailable(message: String) -> anyhow::Error {
    anyhow::Error::new(Unavailable(message))
}

/// True when `error` says the case's repository or commits cannot be had.
pub(crate) fn is_unavailable(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| cause.is::<Unavailable>())
}

/// What `analyze` gets for a case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Prepared {
    pub repo: PathBuf,
    pub base: String,
    pub head: String,
}

/// The repositories of one `eval run`; temporary clones are removed when it is dropped.
pub(crate) struct Sources {
    dir: tempfile::TempDir,
    /// Remote URL → its bare clone, or why it could not be cloned.
    clones: HashMap<String, Result<PathBuf, Unavailable>>,
    timeout: Duration,
    commands: usize,
    cache: Option<CloneCache>,
    /// The network commands run so far (`clone URL`, `fetch URL REV`), for the progress lines
    /// and the tests.
    network_log: Vec<String>,
}

impl Sources {
    /// `timeout` limits each network command (clone or fetch); clones go to `cache` when given.
    pub(crate) fn new(timeout: Duration, cache: Option<CloneCache>) -> Result<Sources> {
        let dir = tempfile::Builder::new().prefix("rewrite-assist-eval-").tempdir()?;
        Ok(Sources { dir, clones: HashMap::new(), timeout, commands: 0, cache, network_log: Vec::new() })
    }

    /// The network commands run so far, in order.
    #[cfg(test)]
    pub(crate) fn network_log(&self) -> &[String] {
        &self.network_log
    }

    /// The repository and the two commits to analyze for `case`.
    pub(crate) fn prepare(&mut self, case: &Case) -> Result<Prepared> {
        match &case.source {
            Source::Repo { location: Location::Path(path), base, head, .. } => {
                Ok(Prepared { repo: path.clone(), base: base.clone(), head: head.clone() })
            }
            Source::Repo { location: Location::Url(url), base, head, .. } => {
                let repo = self.clone_of(url)?;
                let base = self.commit(&repo, url, base)?;
                let head = self.commit(&repo, url, head)?;
                Ok(Prepared { repo, base, head })
            }
            Source::Pr { remote, number, .. } => {
                let repo = self.clone_of(remote)?;
                let (base, head) = self.pull_request(&repo, remote, *number)?;
                Ok(Prepared { repo, base, head })
            }
        }
    }

    /// A bare clone of `url`: the cached one, or one made on first use.
    fn clone_of(&mut self, url: &str) -> Result<PathBuf> {
        if let Some(known) = self.clones.get(url) {
            return known.clone().map_err(anyhow::Error::new);
        }
        let outcome = match self.cache.clone() {
            Some(cache) => self.cached_clone(&cache, url),
            None => {
                let target = self.dir.path().join(format!("repo-{}.git", self.clones.len() + 1));
                self.clone_into(url, &target).map(|()| target)
            }
        };
        let outcome =
            outcome.map_err(|e| Unavailable(format!("cannot clone {url}: {}", crate::error::one_line(&e))));
        self.clones.insert(url.to_string(), outcome.clone());
        outcome.map_err(anyhow::Error::new)
    }

    /// The cache's clone of `url`, cloned into the cache when it is not there yet.
    fn cached_clone(&mut self, cache: &CloneCache, url: &str) -> Result<PathBuf> {
        let _lock = cache.lock(url)?;
        if cache.has(url) {
            return cache.entry(url);
        }
        cache.create_with(url, |target| self.clone_into(url, target))
    }

    fn clone_into(&mut self, url: &str, target: &Path) -> Result<()> {
        self.network_log.push(format!("clone {url}"));
        let args: Vec<OsString> = vec![
            "clone".into(),
            "--bare".into(),
            "--quiet".into(),
            "--end-of-options".into(),
            url.into(),
            target.into(),
        ];
        self.network(self.dir.path().to_path_buf(), &args)
    }

    /// `rev` as a commit id. A full commit id already in the clone is used as it is (no network);
    /// anything else is fetched by name — a commit no branch holds, a branch that may have moved
    /// since the clone was cached — and falls back to the clone's own ref when the fetch fails.
    fn commit(&mut self, repo: &Path, url: &str, rev: &str) -> Result<String> {
        let full_id = rev.len() == 40 && rev.chars().all(|c| c.is_ascii_hexdigit());
        if full_id && let Some(id) = resolve(repo, rev) {
            return Ok(id);
        }
        if !full_id
            && self.cache.is_none()
            && let Some(id) = resolve(repo, rev)
        {
            // A clone made by this run is as fresh as a fetch.
            return Ok(id);
        }
        let _lock = match &self.cache {
            Some(cache) => Some(cache.lock(url)?),
            None => None,
        };
        self.network_log.push(format!("fetch {url} {rev}"));
        let fetched = self.network(
            repo.to_path_buf(),
            &["fetch".into(), "--quiet".into(), "--end-of-options".into(), "origin".into(), rev.into()],
        );
        let got = fetched.as_ref().ok().and_then(|()| resolve(repo, "FETCH_HEAD"));
        match got {
            Some(id) if !full_id || id.eq_ignore_ascii_case(rev) => return Ok(id),
            _ => {}
        }
        match resolve(repo, rev) {
            // Offline, or the name is gone upstream: the cached clone's own ref still says it.
            Some(id) if !full_id => Ok(id),
            _ => {
                let why =
                    fetched.err().map(|e| format!(" ({})", crate::error::one_line(&e))).unwrap_or_default();
                Err(unavailable(format!("`{rev}` is not in {url}{why}")))
            }
        }
    }

    /// Base and head of pull request `number`. Head is `refs/pull/N/head`. Base is where the PR
    /// branched off its target: the merge base of the head with the first parent of
    /// `refs/pull/N/merge` (the target branch's tip, while the PR is open and mergeable); else with
    /// the default branch; and for a PR already merged with a merge commit, with the first parent
    /// of that merge commit.
    fn pull_request(&mut self, repo: &Path, remote: &str, number: u64) -> Result<(String, String)> {
        let head_ref = format!("refs/pull/{number}/head");
        let merge_ref = format!("refs/pull/{number}/merge");
        let fetch = |r: &str| -> Vec<OsString> {
            vec![
                "fetch".into(),
                "--quiet".into(),
                "--end-of-options".into(),
                "origin".into(),
                format!("+{r}:{r}").into(),
            ]
        };
        self.network_log.push(format!("fetch {remote} {head_ref}"));
        self.network(repo.to_path_buf(), &fetch(&head_ref)).map_err(|e| {
            unavailable(format!(
                "cannot fetch pull request #{number} from {remote}: {}",
                crate::error::one_line(&e)
            ))
        })?;
        // Closed and merged PRs have no merge ref any more: not an error.
        let has_merge_ref = self.network(repo.to_path_buf(), &fetch(&merge_ref)).is_ok();
        let head =
            resolve(repo, &head_ref).ok_or_else(|| anyhow!("{head_ref} is not a commit in {remote}"))?;
        let base = if has_merge_ref {
            let target = resolve(repo, &format!("{merge_ref}^1"))
                .ok_or_else(|| anyhow!("{merge_ref} has no parent in {remote}"))?;
            merge_base(repo, &target, &head)?
        } else {
            base_without_merge_ref(repo, &head)
                .map_err(|e| anyhow!("pull request #{number} of {remote}: {e}"))?
        };
        if base == head {
            return Err(bad_input(format!("pull request #{number} of {remote} changes nothing")));
        }
        Ok((base, head))
    }

    /// Runs a network git command with the time limit; the error carries git's last message.
    fn network(&mut self, dir: PathBuf, args: &[OsString]) -> Result<()> {
        self.commands += 1;
        let log = self.dir.path().join(format!("git-{}.log", self.commands));
        let mut command = git_command(&dir);
        command.args(args);
        let shown = args.iter().take(2).map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" ");
        match run_logged(command, &log, self.timeout)? {
            ProcessEnd::Exited(status) if status.success() => Ok(()),
            ProcessEnd::Exited(_) => {
                let text = std::fs::read_to_string(&log).unwrap_or_default();
                let last = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no output").trim();
                bail!("{last}")
            }
            ProcessEnd::TimedOut => bail!("git {shown} timed out after {} s", self.timeout.as_secs()),
            ProcessEnd::Interrupted => bail!("interrupted"),
        }
    }
}

/// The base of a PR when the forge offers no merge ref.
fn base_without_merge_ref(repo: &Path, head: &str) -> Result<String> {
    let default = resolve(repo, "HEAD").ok_or_else(|| anyhow!("the repository has no default branch"))?;
    if !is_ancestor(repo, head, &default) {
        // Open, or merged by squash or rebase: it branched off where it meets the default branch.
        return merge_base(repo, &default, head);
    }
    // Merged with a merge commit: the oldest first-parent commit of the default branch that
    // contains the head is that merge; the PR's base is where the head meets its first parent.
    let out = git_output(
        repo,
        [
            "rev-list",
            "--first-parent",
            "--ancestry-path",
            "--reverse",
            "--end-of-options",
            &format!("{head}..{default}"),
        ],
    )?;
    let merge = String::from_utf8_lossy(&out.stdout).lines().next().map(str::to_string);
    let target = merge.and_then(|m| resolve(repo, &format!("{m}^1")));
    match target {
        Some(target) if !is_ancestor(repo, head, &target) => merge_base(repo, &target, head),
        _ => bail!(
            "its head is already on the default branch's history (fast-forward merge), so its base cannot be told; list it as repo, base and head instead"
        ),
    }
}

/// The full commit id of `rev`, if it names a commit.
fn resolve(repo: &Path, rev: &str) -> Option<String> {
    let out = git_output(
        repo,
        ["rev-parse", "--verify", "--quiet", "--end-of-options", &format!("{rev}^{{commit}}")],
    )
    .ok()?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string()).filter(|id| !id.is_empty())
}

fn merge_base(repo: &Path, a: &str, b: &str) -> Result<String> {
    let out = git_output(repo, ["merge-base", "--end-of-options", a, b])
        .map_err(|_| anyhow!("{a} and {b} share no history"))?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn is_ancestor(repo: &Path, ancestor: &str, of: &str) -> bool {
    git_command(repo)
        .args(["merge-base", "--is-ancestor", "--end-of-options", ancestor, of])
        .status()
        .is_ok_and(|status| status.success())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::RepoBuilder;
    use crate::setup::git::git_output;

    /// A forge stand-in: a bare repository with `main`, and PR refs the way GitHub publishes them.
    struct Forge {
        _dir: tempfile::TempDir,
        work: RepoBuilder,
        bare: PathBuf,
    }

    impl Forge {
        fn new() -> Forge {
            let dir = tempfile::tempdir().unwrap();
            let work = RepoBuilder::init(&dir.path().join("shop")).unwrap();
            work.write("pom.xml", "<project/>\n").unwrap();
            work.commit("base").unwrap();
            let bare = work.bare_clone().unwrap();
            Forge { _dir: dir, work, bare }
        }

        fn url(&self) -> String {
            format!("file://{}", self.bare.display())
        }

        fn commit(&self, file: &str) -> String {
            self.work.write(file, file).unwrap();
            self.work.commit(file).unwrap()
        }

        /// Publishes the current work-tree commit as `ref` on the forge.
        fn push(&self, refspec: &str) {
            git_output(
                self.work.path(),
                ["push", "--quiet", "--force", self.bare.to_str().unwrap(), refspec],
            )
            .unwrap();
        }

        fn case(&self, number: u64) -> Case {
            let url = format!("{}/pull/{number}", self.url());
            let pr = crate::setup::PrUrl::parse(&url).unwrap();
            let (remote, number) = (pr.repository(), pr.number());
            Case { name: format!("pr-{number}"), source: Source::Pr { url, remote, number } }
        }
    }

    fn sources() -> Sources {
        Sources::new(Duration::from_secs(60), None).unwrap()
    }

    impl Forge {
        /// PR `number`: a `feature` branch off `main` with one commit, published as
        /// `refs/pull/N/head`; then `main` moves on by one commit. Returns (base, head) and
        /// leaves `main` checked out.
        fn feature_pr(&self, number: u64) -> (String, String) {
            let base = self.commit("a.txt");
            self.work.branch("feature").unwrap();
            let head = self.commit("b.txt");
            self.push(&format!("HEAD:refs/pull/{number}/head"));
            self.work.checkout("main").unwrap();
            self.commit("c.txt");
            (base, head)
        }

        fn merge_feature(&self) {
            git_output(self.work.path(), ["merge", "--quiet", "--no-ff", "-m", "merge", "feature"]).unwrap();
        }

        fn prepare(&self, number: u64) -> (String, String) {
            let prepared = sources().prepare(&self.case(number)).unwrap();
            (prepared.base, prepared.head)
        }
    }

    /// A case whose base is a git option (`--upload-pack=…` ran a command, and the case then
    /// "passed" on another commit): the suite refuses it, and even a case made without the suite
    /// never gets the value read as an option (`--end-of-options`), so nothing runs.
    #[test]
    fn a_ref_that_is_an_option_runs_nothing_and_fails_the_case() {
        let forge = Forge::new();
        let marker = forge._dir.path().join("pwned");
        let hostile = format!("--upload-pack=touch {}", marker.display());
        let suite = format!(
            "suite_name: s\ncases:\n  - name: c\n    repo: {}\n    base: \"{hostile}\"\n    head: main\n",
            forge.url()
        );
        let error = super::super::suite::parse(&suite, Path::new(".")).unwrap_err();
        assert!(error.0.contains("begins with `-`"), "{}", error.0);

        let case = Case {
            name: "c".into(),
            source: Source::Repo {
                repo: forge.url(),
                location: Location::Url(forge.url()),
                base: hostile.clone(),
                head: "main".into(),
            },
        };
        let error = sources().prepare(&case).unwrap_err();
        assert!(is_unavailable(&error), "{error:#}");
        assert!(!marker.exists(), "the option ran");
    }

    #[test]
    fn open_pr_with_a_merge_ref() {
        let forge = Forge::new();
        let expected = forge.feature_pr(7);
        forge.push("main:main");
        // The merge ref merges the PR into the target branch as it is now.
        forge.merge_feature();
        forge.push("HEAD:refs/pull/7/merge");
        assert_eq!(forge.prepare(7), expected);
    }

    #[test]
    fn pr_merged_with_a_merge_commit_has_no_merge_ref() {
        let forge = Forge::new();
        let expected = forge.feature_pr(3);
        forge.merge_feature();
        forge.commit("d.txt");
        forge.push("main:main");
        assert_eq!(forge.prepare(3), expected);
    }

    #[test]
    fn squash_merged_or_open_pr_without_a_merge_ref() {
        let forge = Forge::new();
        // `c.txt` on main stands for the squashed PR, or for work after the PR branched off.
        let expected = forge.feature_pr(5);
        forge.push("main:main");
        assert_eq!(forge.prepare(5), expected);
    }

    #[test]
    fn unknown_pr_and_unreachable_remote_fail_with_a_reason() {
        let forge = Forge::new();
        let mut sources = sources();
        let error = crate::error::one_line(&sources.prepare(&forge.case(99)).unwrap_err());
        assert!(error.contains("cannot fetch pull request #99"), "{error}");
        assert!(error.contains("refs/pull/99/head"), "{error}");

        let gone = Case {
            name: "gone".into(),
            source: Source::Pr {
                url: "file:///nonexistent/shop.git/pull/1".into(),
                remote: "file:///nonexistent/shop.git".into(),
                number: 1,
            },
        };
        let error = crate::error::one_line(&sources.prepare(&gone).unwrap_err());
        assert!(error.starts_with("cannot clone file:///nonexistent/shop.git: "), "{error}");
        // Remembered: the second case of the same repository fails the same way without a retry.
        let again = crate::error::one_line(&sources.prepare(&gone).unwrap_err());
        assert_eq!(error, again);
    }

    #[test]
    fn url_cases_are_cloned_once_and_refs_resolved() {
        let forge = Forge::new();
        let base = forge.commit("a.txt");
        forge.work.branch("migration").unwrap();
        let head = forge.commit("b.txt");
        forge.push("migration:migration");
        forge.push("main:main");
        // A commit no branch holds, published only under a custom ref.
        let loose = forge.commit("c.txt");
        forge.push("HEAD:refs/custom/loose");

        let mut sources = sources();
        let case = |name: &str, base: &str, head: &str| Case {
            name: name.into(),
            source: Source::Repo {
                repo: forge.url(),
                location: Location::Url(forge.url()),
                base: base.into(),
                head: head.into(),
            },
        };
        let first = sources.prepare(&case("a", "main", "migration")).unwrap();
        assert_eq!((first.base.as_str(), first.head.as_str()), (base.as_str(), head.as_str()));
        let second = sources.prepare(&case("b", "main", "refs/custom/loose")).unwrap();
        assert_eq!(second.repo, first.repo, "one clone per URL");
        assert_eq!(second.head, loose);
        let error = sources.prepare(&case("c", "main", "no-such-branch")).unwrap_err();
        assert!(is_unavailable(&error), "{error}");
        assert!(error.to_string().starts_with("`no-such-branch` is not in file://"), "{error}");
    }

    /// A case of `url` at two commit ids.
    fn url_case(url: &str, base: &str, head: &str) -> Case {
        Case {
            name: "cached".into(),
            source: Source::Repo {
                repo: url.into(),
                location: Location::Url(url.into()),
                base: base.into(),
                head: head.into(),
            },
        }
    }

    fn cached_sources(cache: &Path) -> Sources {
        Sources::new(Duration::from_secs(60), Some(CloneCache::open(cache).unwrap())).unwrap()
    }

    #[test]
    fn a_cache_miss_clones_into_the_cache_and_a_hit_needs_no_network() {
        let forge = Forge::new();
        let base = forge.commit("a.txt");
        let head = forge.commit("b.txt");
        forge.push("main:main");
        let cache = tempfile::tempdir().unwrap();

        let mut first = cached_sources(cache.path());
        let prepared = first.prepare(&url_case(&forge.url(), &base, &head)).unwrap();
        assert_eq!(first.network_log(), [format!("clone {}", forge.url())]);
        let entry = CloneCache::open(cache.path()).unwrap().entry(&forge.url()).unwrap();
        assert_eq!(prepared.repo, entry);
        assert!(entry.ends_with(format!("{}.git", forge.bare.file_stem().unwrap().to_string_lossy())));
        assert_eq!((prepared.base.as_str(), prepared.head.as_str()), (base.as_str(), head.as_str()));

        // The forge goes away: the next run still has everything it needs, offline.
        std::fs::rename(&forge.bare, forge.bare.with_extension("gone")).unwrap();
        let mut second = cached_sources(cache.path());
        let again = second.prepare(&url_case(&forge.url(), &base, &head)).unwrap();
        assert_eq!(again, prepared);
        assert!(second.network_log().is_empty(), "{:?}", second.network_log());
    }

    #[test]
    fn a_commit_the_cached_clone_lacks_is_fetched_alone() {
        let forge = Forge::new();
        let base = forge.commit("a.txt");
        forge.push("main:main");
        let cache = tempfile::tempdir().unwrap();
        cached_sources(cache.path()).prepare(&url_case(&forge.url(), &base, &base)).unwrap();

        // The PR's head arrives later, under a ref no clone copies (as GitHub's refs/pull/N/head).
        let head = forge.commit("b.txt");
        forge.push("HEAD:refs/pull/9/head");
        let mut sources = cached_sources(cache.path());
        let prepared = sources.prepare(&url_case(&forge.url(), &base, &head)).unwrap();
        assert_eq!(prepared.head, head);
        assert_eq!(sources.network_log(), [format!("fetch {} {head}", forge.url())]);
        // Kept: a third run needs no network.
        let mut third = cached_sources(cache.path());
        third.prepare(&url_case(&forge.url(), &base, &head)).unwrap();
        assert!(third.network_log().is_empty(), "{:?}", third.network_log());
    }

    #[test]
    fn a_commit_the_remote_does_not_have_makes_the_case_unavailable() {
        let forge = Forge::new();
        let base = forge.commit("a.txt");
        forge.push("main:main");
        let cache = tempfile::tempdir().unwrap();
        let missing = "0123456789abcdef0123456789abcdef01234567";
        let mut sources = cached_sources(cache.path());
        let error = sources.prepare(&url_case(&forge.url(), &base, missing)).unwrap_err();
        assert!(is_unavailable(&error), "{error}");
        let text = crate::error::one_line(&error);
        assert!(text.starts_with(&format!("`{missing}` is not in {}", forge.url())), "{text}");

        // And a remote that does not answer at all, with nothing cached.
        let gone = "file:///nonexistent/acme/gone.git";
        let error = sources.prepare(&url_case(gone, &base, &base)).unwrap_err();
        assert!(is_unavailable(&error), "{error}");
        assert!(error.to_string().starts_with("cannot clone file:///nonexistent/acme/gone.git: "), "{error}");
        assert!(!CloneCache::open(cache.path()).unwrap().has(gone));
    }

    #[test]
    fn a_cache_filled_from_a_local_repository_runs_offline() {
        let forge = Forge::new();
        let base = forge.commit("a.txt");
        let head = forge.commit("b.txt");
        forge.push("main:main");
        let dir = tempfile::tempdir().unwrap();
        let cache = CloneCache::open(dir.path()).unwrap();
        // A URL nothing answers for: every commit must come from the cache.
        let url = "https://forge.invalid/acme/shop.git";
        let entry = cache.add(url, &forge.bare).unwrap();
        assert!(entry.ends_with("forge.invalid/acme/shop.git"), "{}", entry.display());
        let listed = cache.list().unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(
            (listed[0].key.as_str(), listed[0].url.as_deref()),
            ("forge.invalid/acme/shop.git", Some(url))
        );

        let mut sources = cached_sources(cache.root());
        let prepared = sources.prepare(&url_case(url, &base, &head)).unwrap();
        assert_eq!((prepared.base, prepared.head), (base, head.clone()));
        assert!(sources.network_log().is_empty());

        // Adding again fetches what the local repository has gained.
        let newer = forge.commit("c.txt");
        forge.push("main:main");
        cache.add(url, &forge.bare).unwrap();
        let mut sources = cached_sources(cache.root());
        assert_eq!(sources.prepare(&url_case(url, &head, &newer)).unwrap().head, newer);
        assert!(sources.network_log().is_empty());
    }
}
