//! The bot's branches, and who else has written to them. A branch is the bot's when every commit
//! on it beyond the base carries the bot's trailer ([`TRAILER`]); the bot recreates only such a
//! branch, and only with a lease on the tip it saw (`--force-with-lease`), so a push that races
//! with someone else's fails instead of overwriting it. It never pushes to the repository's
//! default branch, nor to a branch someone else made or has pushed to, as Renovate does: that
//! branch is left as it is, unless its pull request's checkbox ([`RECREATE_BOX`]) asks for it back.

use std::path::Path;

use anyhow::{Context as _, Result};

use super::RepoId;
use super::remote::Remote;
use crate::setup::git::git_output;

/// The trailer on every commit the bot makes on a branch of its own; its value is the branch.
pub(crate) const TRAILER: &str = "Rewrite-Assist-Branch";

/// The checkbox of a pull request's body that lets the bot recreate its branch although others
/// have pushed to it. Ticked, it reads `- [x] <!-- rewrite-assist:recreate -->`.
pub(crate) const RECREATE_BOX: &str = "<!-- rewrite-assist:recreate -->";

/// The line of a PR body with the unticked box.
pub(crate) fn recreate_box_line() -> String {
    format!(
        "- [ ] {RECREATE_BOX} Let rewrite-assist recreate this branch on its next run, although others have \
pushed to it (their commits are then dropped)"
    )
}

/// Whether a PR's body has the box ticked.
pub(crate) fn recreate_ticked(body: &str) -> bool {
    body.lines().any(|line| {
        let line = line.trim_start();
        (line.starts_with("- [x]") || line.starts_with("- [X]")) && line.contains(RECREATE_BOX)
    })
}

/// A commit message with the bot's trailer for `branch`.
pub(crate) fn with_trailer(message: &str, branch: &str) -> String {
    format!("{}\n\n{TRAILER}: {branch}\n", message.trim_end())
}

/// Who owns a branch of the remote repository, as far as its commits tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Owner {
    /// No such branch: a push creates it.
    Absent,
    /// Every commit on it beyond the base is the bot's; `tip` is where it stands.
    Bot { tip: String },
    /// Someone else made it or pushed to it: `why` says what was found.
    Others { tip: String, why: String },
}

/// Why the bot will not push to a branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The repository's default branch: the bot proposes changes, it never commits them there.
    DefaultBranch,
    /// Someone else's work is on it (see [`Owner::Others`]).
    NotTheBots(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::DefaultBranch => {
                f.write_str("it is the repository's default branch, which rewrite-assist never pushes to")
            }
            Refusal::NotTheBots(why) => f.write_str(why),
        }
    }
}

/// Where a push goes: a branch of `repo`, whose default branch is `default_branch`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PushTarget<'a> {
    pub repo: &'a RepoId,
    pub branch: &'a str,
    pub default_branch: &'a str,
}

/// Whether the bot may push `target.branch`, and the lease to push it with: the tip the push
/// expects (None: the branch must not exist yet). `take_over` is the PR's ticked box: someone
/// else's branch becomes the bot's again.
pub(crate) fn lease(
    remote: &Remote,
    dir: &Path,
    target: &PushTarget<'_>,
    base: &str,
    take_over: bool,
) -> Result<std::result::Result<Option<String>, Refusal>> {
    if target.branch == target.default_branch {
        return Ok(Err(Refusal::DefaultBranch));
    }
    Ok(match owner(remote, dir, target, base)? {
        Owner::Absent => Ok(None),
        Owner::Bot { tip } => Ok(Some(tip)),
        Owner::Others { tip, .. } if take_over => Ok(Some(tip)),
        Owner::Others { why, .. } => Err(Refusal::NotTheBots(why)),
    })
}

/// Who owns `target.branch`: fetched into the clone at `dir` (which holds `base`) and read.
pub(crate) fn owner(remote: &Remote, dir: &Path, target: &PushTarget<'_>, base: &str) -> Result<Owner> {
    let branch = target.branch;
    let listed = remote
        .git(
            dir,
            [
                "ls-remote",
                "--heads",
                "--end-of-options",
                &remote.url(target.repo),
                &format!("refs/heads/{branch}"),
            ],
        )
        .with_context(|| format!("looking for the branch `{branch}`"))?;
    let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
    let Some(tip) = listed.split_whitespace().next().map(str::to_string) else { return Ok(Owner::Absent) };
    let seen = "refs/rewrite-assist/existing";
    remote
        .fetch(dir, target.repo, &[format!("+refs/heads/{branch}:{seen}")])
        .with_context(|| format!("fetching the branch `{branch}`"))?;
    let format = format!("--format=%h%x09%an%x09%(trailers:key={TRAILER},valueonly,separator=%x2C)");
    let log = git_output(dir, ["log", format.as_str(), seen, "--not", base, "--"])?;
    let log = String::from_utf8_lossy(&log.stdout).into_owned();
    let commits: Vec<(&str, &str, &str)> = log
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let mut parts = l.splitn(3, '\t');
            (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or("").trim())
        })
        .collect();
    if commits.is_empty() {
        let why = format!("the branch `{branch}` exists and has no commit of rewrite-assist's");
        return Ok(Owner::Others { tip, why });
    }
    let others: Vec<String> = commits
        .iter()
        .filter(|(_, _, trailer)| *trailer != branch)
        .map(|(sha, author, _)| format!("{sha} by {author}"))
        .collect();
    if others.is_empty() {
        return Ok(Owner::Bot { tip });
    }
    let why = format!(
        "others have pushed to the branch `{branch}` ({}{})",
        others.iter().take(3).cloned().collect::<Vec<_>>().join(", "),
        if others.len() > 3 { format!(" and {} more", others.len() - 3) } else { String::new() }
    );
    Ok(Owner::Others { tip, why })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recreate_box() {
        let body = format!("text\n\n{}\n", recreate_box_line());
        assert!(!recreate_ticked(&body));
        assert!(recreate_ticked(&body.replace("- [ ]", "- [x]")));
        assert!(recreate_ticked(&body.replace("- [ ]", "  - [X]")));
        assert!(!recreate_ticked("- [x] something else"));
    }

    use crate::fixtures::RepoBuilder;
    use crate::github::apply::{Changes, Published, publish_branch};

    /// A repository `acme/app` on a local server (bare repositories under `server`) with one commit
    /// on `main`, and a work tree of it to push from.
    struct Server {
        dir: tempfile::TempDir,
        remote: Remote,
        repo: RepoId,
        base: String,
    }

    impl Server {
        fn new() -> Server {
            let dir = tempfile::tempdir().unwrap();
            let work = RepoBuilder::init(&dir.path().join("work")).unwrap();
            work.write("a.txt", "one\n").unwrap();
            let base = work.commit("base").unwrap();
            let bare = dir.path().join("server/acme/app.git");
            std::fs::create_dir_all(bare.parent().unwrap()).unwrap();
            git_output(dir.path(), ["clone", "--quiet", "--bare", "work", bare.to_str().unwrap()]).unwrap();
            let remote = Remote::new(dir.path().join("server").to_str().unwrap(), None);
            Server { dir, remote, repo: RepoId::parse("acme/app").unwrap(), base }
        }

        fn work(&self) -> std::path::PathBuf {
            self.dir.path().join("work")
        }

        fn target<'a>(&'a self, branch: &'a str) -> PushTarget<'a> {
            PushTarget { repo: &self.repo, branch, default_branch: "main" }
        }

        /// Publishes `text` as a.txt on `branch`.
        fn publish(&self, branch: &str, text: &str, take_over: bool) -> Published {
            let diff = format!("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+{text}\n");
            let changes =
                Changes { diff: &diff, recipe_yaml: None, recipe_path: "rewrite.yml", message: "Apply" };
            publish_branch(&self.work(), &self.base, &changes, &self.remote, &self.target(branch), take_over)
                .unwrap()
        }

        /// The file at the tip of `branch` on the server.
        fn show(&self, branch: &str) -> String {
            let bare = self.dir.path().join("server/acme/app.git");
            let out = git_output(&bare, ["show", &format!("{branch}:a.txt")]).unwrap();
            String::from_utf8_lossy(&out.stdout).into_owned()
        }

        /// Someone pushes a commit of their own onto `branch`.
        fn push_by_someone(&self, branch: &str, file: &str) {
            let theirs = self.dir.path().join(format!("theirs-{file}"));
            let url = self.remote.url(&self.repo);
            git_output(
                self.dir.path(),
                ["clone", "--quiet", "--branch", branch, &url, theirs.to_str().unwrap()],
            )
            .unwrap();
            std::fs::write(theirs.join(file), "mine\n").unwrap();
            git_output(&theirs, ["add", "-A"]).unwrap();
            let mut someone = crate::setup::git::git_command(&theirs);
            someone.env("GIT_AUTHOR_NAME", "Reviewer").env("GIT_COMMITTER_NAME", "Reviewer");
            crate::setup::git::run_git(someone, ["commit", "-qm", "review"]).unwrap();
            git_output(&theirs, ["push", "--quiet", "origin", branch]).unwrap();
        }
    }

    #[test]
    fn a_new_branch_is_created_with_the_trailer_and_recreated_while_it_is_the_bots() {
        let s = Server::new();
        let Published::Pushed { commit: first } = s.publish("rewrite-assist/x", "two", false) else {
            panic!()
        };
        assert_eq!(s.show("rewrite-assist/x"), "two\n");
        let bare = s.dir.path().join("server/acme/app.git");
        let message = git_output(&bare, ["log", "-1", "--format=%B", "rewrite-assist/x"]).unwrap();
        assert!(String::from_utf8_lossy(&message.stdout).contains("Rewrite-Assist-Branch: rewrite-assist/x"));
        // The same change again pushes nothing new; another one recreates the branch.
        assert_eq!(s.publish("rewrite-assist/x", "two", false), Published::Pushed { commit: first.clone() });
        let Published::Pushed { commit: second } = s.publish("rewrite-assist/x", "three", false) else {
            panic!()
        };
        assert_ne!(first, second);
        assert_eq!(s.show("rewrite-assist/x"), "three\n");
    }

    #[test]
    fn a_branch_someone_pushed_to_is_left_alone_until_the_box_hands_it_back() {
        let s = Server::new();
        s.publish("rewrite-assist/x", "two", false);
        s.push_by_someone("rewrite-assist/x", "b.txt");
        let before = s.show("rewrite-assist/x");
        let Published::Refused(Refusal::NotTheBots(why)) = s.publish("rewrite-assist/x", "three", false)
        else {
            panic!()
        };
        assert!(
            why.contains("others have pushed to the branch `rewrite-assist/x`")
                && why.contains("by Reviewer"),
            "{why}"
        );
        assert_eq!(s.show("rewrite-assist/x"), before, "the reviewer's branch is as they left it");
        let bare = s.dir.path().join("server/acme/app.git");
        assert!(git_output(&bare, ["cat-file", "-e", "rewrite-assist/x:b.txt"]).is_ok());
        // Ticked: the bot takes it back.
        assert!(matches!(s.publish("rewrite-assist/x", "three", true), Published::Pushed { .. }));
        assert_eq!(s.show("rewrite-assist/x"), "three\n");
        assert!(git_output(&bare, ["cat-file", "-e", "rewrite-assist/x:b.txt"]).is_err());
    }

    #[test]
    fn the_default_branch_and_branches_the_bot_did_not_make_are_never_pushed() {
        let s = Server::new();
        assert_eq!(s.publish("main", "two", false), Published::Refused(Refusal::DefaultBranch));
        assert_eq!(s.show("main"), "one\n");
        // Someone's own branch of that name, made without the bot.
        let work = s.work();
        git_output(&work, ["branch", "feature"]).unwrap();
        git_output(&work, ["push", "--quiet", &s.remote.url(&s.repo), "feature"]).unwrap();
        s.push_by_someone("feature", "c.txt");
        let Published::Refused(Refusal::NotTheBots(why)) = s.publish("feature", "two", false) else {
            panic!()
        };
        assert!(why.contains("others have pushed"), "{why}");
        assert_eq!(s.show("feature"), "one\n");
        // A branch at the base itself, with no commit at all, is not the bot's either.
        git_output(&work, ["push", "--quiet", &s.remote.url(&s.repo), "HEAD:refs/heads/empty"]).unwrap();
        let Published::Refused(Refusal::NotTheBots(why)) = s.publish("empty", "two", false) else { panic!() };
        assert!(why.contains("has no commit of rewrite-assist's"), "{why}");
    }

    #[test]
    fn a_push_after_someone_moved_the_branch_fails_instead_of_overwriting_it() {
        let s = Server::new();
        let Published::Pushed { commit } = s.publish("rewrite-assist/x", "two", false) else { panic!() };
        s.push_by_someone("rewrite-assist/x", "b.txt");
        // The lease the bot took before someone pushed.
        let clone = crate::setup::git::clone_at(&s.work(), &s.base).unwrap();
        git_output(clone.path(), ["checkout", "--quiet", "--detach"]).unwrap();
        let error = s.remote.push_head(clone.path(), &s.repo, "rewrite-assist/x", Some(&commit)).unwrap_err();
        assert!(
            format!("{error:#}").contains("stale info") || format!("{error:#}").contains("rejected"),
            "{error:#}"
        );
        let bare = s.dir.path().join("server/acme/app.git");
        assert!(git_output(&bare, ["cat-file", "-e", "rewrite-assist/x:b.txt"]).is_ok());
    }

    #[test]
    fn the_trailer_closes_the_message() {
        assert_eq!(
            with_trailer("Apply X\n\nwhy\n", "rewrite-assist/x"),
            "Apply X\n\nwhy\n\nRewrite-Assist-Branch: rewrite-assist/x\n"
        );
    }
}
