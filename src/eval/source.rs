//! Getting a case's repository and commits onto this machine: a local path is used as it is; a URL
//! is cloned (bare, once per run, into a temporary directory); a pull request is fetched from its
//! repository (`refs/pull/N/head`, and `refs/pull/N/merge` when the forge still has it).
//!
//! Network commands run in their own process group with a time limit, so an unreachable host
//! fails the case instead of hanging the batch; a failed clone is remembered and not retried.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Result, anyhow, bail};

use super::suite::{Case, Location, Source};
use crate::error::bad_input;
use crate::setup::git::{git_command, git_output};
use crate::validation::process::{Outcome, run_logged};

/// What `analyze` gets for a case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    pub repo: PathBuf,
    pub base: String,
    pub head: String,
}

/// The repositories of one `eval run`; temporary clones are removed when it is dropped.
pub struct Sources {
    dir: tempfile::TempDir,
    /// Remote URL → its bare clone, or why it could not be cloned.
    clones: HashMap<String, Result<PathBuf, String>>,
    timeout: Duration,
    commands: usize,
}

impl Sources {
    /// `timeout` limits each network command (clone or fetch).
    pub fn new(timeout: Duration) -> Result<Sources> {
        let dir = tempfile::Builder::new().prefix("rewrite-assist-eval-").tempdir()?;
        Ok(Sources { dir, clones: HashMap::new(), timeout, commands: 0 })
    }

    /// The repository and the two commits to analyze for `case`.
    pub fn prepare(&mut self, case: &Case) -> Result<Prepared> {
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

    /// A bare clone of `url`, made on first use.
    fn clone_of(&mut self, url: &str) -> Result<PathBuf> {
        if let Some(known) = self.clones.get(url) {
            return known.clone().map_err(|reason| anyhow!(reason));
        }
        let target = self.dir.path().join(format!("repo-{}.git", self.clones.len() + 1));
        let args: Vec<OsString> =
            vec!["clone".into(), "--bare".into(), "--quiet".into(), url.into(), target.clone().into()];
        let outcome = self.network(self.dir.path().to_path_buf(), &args).map(|()| target);
        let outcome = outcome.map_err(|e| format!("cannot clone {url}: {}", crate::error::one_line(&e)));
        self.clones.insert(url.to_string(), outcome.clone());
        outcome.map_err(|reason| anyhow!(reason))
    }

    /// `rev` as a commit id: resolved in the clone, or fetched by name (a commit no branch holds).
    fn commit(&mut self, repo: &Path, url: &str, rev: &str) -> Result<String> {
        if let Some(id) = resolve(repo, rev) {
            return Ok(id);
        }
        let fetched = self
            .network(repo.to_path_buf(), &["fetch".into(), "--quiet".into(), "origin".into(), rev.into()]);
        match fetched.ok().and_then(|()| resolve(repo, "FETCH_HEAD")) {
            Some(id) => Ok(id),
            None => Err(bad_input(format!("unknown ref `{rev}` in {url}"))),
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
            vec!["fetch".into(), "--quiet".into(), "origin".into(), format!("+{r}:{r}").into()]
        };
        self.network(repo.to_path_buf(), &fetch(&head_ref)).map_err(|e| {
            anyhow!("cannot fetch pull request #{number} from {remote}: {}", crate::error::one_line(&e))
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
            Outcome::Exited(status) if status.success() => Ok(()),
            Outcome::Exited(_) => {
                let text = std::fs::read_to_string(&log).unwrap_or_default();
                let last = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no output").trim();
                bail!("{last}")
            }
            Outcome::TimedOut => bail!("git {shown} timed out after {} s", self.timeout.as_secs()),
            Outcome::Interrupted => bail!("interrupted"),
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
        ["rev-list", "--first-parent", "--ancestry-path", "--reverse", &format!("{head}..{default}")],
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
    let out = git_output(repo, ["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")]).ok()?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string()).filter(|id| !id.is_empty())
}

fn merge_base(repo: &Path, a: &str, b: &str) -> Result<String> {
    let out = git_output(repo, ["merge-base", a, b]).map_err(|_| anyhow!("{a} and {b} share no history"))?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn is_ancestor(repo: &Path, ancestor: &str, of: &str) -> bool {
    git_command(repo)
        .args(["merge-base", "--is-ancestor", ancestor, of])
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
            let (remote, number) = super::super::suite::parse_pr_url(&url).unwrap();
            Case { name: format!("pr-{number}"), source: Source::Pr { url, remote, number } }
        }
    }

    fn sources() -> Sources {
        Sources::new(Duration::from_secs(60)).unwrap()
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
        assert_eq!(crate::error::exit_code_of(&error), crate::error::exit::BAD_INPUT);
        assert!(error.to_string().contains("unknown ref `no-such-branch` in file://"), "{error}");
    }
}
