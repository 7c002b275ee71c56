//! Git access. Objects are read in-process with git2; diffs and clones go through the `git` CLI so
//! that every diff has exactly the format `git diff` writes (the metric's reference format).
//!
//! Every `git` process runs without the user's global and system configuration, so settings such as
//! `core.autocrlf`, `diff.noprefix` or an external diff tool cannot change what we measure.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use anyhow::{Context, Result, bail};

use crate::error::bad_input;

/// A repository given by the user: a work tree or a bare git directory. Read only.
pub struct Repo {
    path: PathBuf,
    inner: git2::Repository,
}

impl std::fmt::Debug for Repo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Repo").field("path", &self.path).finish()
    }
}

impl Repo {
    /// Opens `path`: the top of a work tree, or a bare repository.
    pub fn open(path: &Path) -> Result<Repo> {
        if !path.exists() {
            return Err(bad_input(format!("{}: no such directory", path.display())));
        }
        let inner = git2::Repository::open(path).map_err(|_| {
            bad_input(format!("{}: not a git repository (work tree or bare)", path.display()))
        })?;
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        Ok(Repo { path, inner })
    }

    /// The repository's directory, canonicalized.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Resolves any commit-ish (branch, tag, `HEAD~2`, abbreviated sha) to a full commit id.
    pub fn resolve(&self, rev: &str) -> Result<String> {
        not_an_option("the ref", rev)?;
        let object = self
            .inner
            .revparse_single(rev)
            .map_err(|_| bad_input(format!("unknown ref `{rev}` in {}", self.path.display())))?;
        let commit = object
            .peel_to_commit()
            .map_err(|_| bad_input(format!("`{rev}` does not name a commit in {}", self.path.display())))?;
        Ok(commit.id().to_string())
    }

    /// The unified diff `git diff BASE HEAD` in the fixed format of [`DIFF_FORMAT`].
    pub fn diff(&self, base: &str, head: &str) -> Result<String> {
        let out = git_output(
            &self.path,
            ["diff"].iter().chain(DIFF_FORMAT).chain(&["--end-of-options", base, head]),
        )?;
        if out.stdout.len() > super::input::MAX_DIFF_BYTES {
            return Err(bad_input(format!(
                "the diff between {} and {} is {} MiB, larger than the {} MiB limit for diffs",
                short_sha(base),
                short_sha(head),
                out.stdout.len() >> 20,
                super::input::MAX_DIFF_BYTES >> 20
            )));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// The content of `path` at `commit`, or `None` when it does not exist there or is not a file
    /// (a directory, a submodule).
    pub fn read_file(&self, commit: &str, path: &str) -> Result<Option<Vec<u8>>> {
        let oid = git2::Oid::from_str(commit).with_context(|| format!("bad commit id {commit}"))?;
        let tree = self.inner.find_commit(oid)?.tree()?;
        let entry = match tree.get_path(Path::new(path)) {
            Ok(entry) => entry,
            Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        // A submodule's entry names a commit of another repository, which is not here: it has no
        // content in this one (nor has a directory).
        if entry.kind() != Some(git2::ObjectType::Blob) {
            return Ok(None);
        }
        let object = entry.to_object(&self.inner)?;
        Ok(object.as_blob().map(|blob| blob.content().to_vec()))
    }
}

/// Refuses a ref, commit id or URL that git would read as an option. Such values come from a
/// suite, an event or the command line, and `--upload-pack=…` in a ref's place runs a command.
/// Every git call that takes one also puts `--end-of-options` before it (where git accepts it);
/// this check is the first line, and the one error the user sees.
pub fn not_an_option<'a>(what: &str, value: &'a str) -> Result<&'a str> {
    if value.starts_with('-') {
        return Err(bad_input(format!(
            "{what} `{value}` begins with `-`: git would read it as an option, so it is refused"
        )));
    }
    if value.chars().any(char::is_control) {
        return Err(bad_input(format!("{what} contains a control character")));
    }
    Ok(value)
}

/// A commit id as people write it: its first 7 characters (git's default abbreviation).
pub fn short_sha(sha: &str) -> &str {
    sha.get(..7).unwrap_or(sha)
}

/// Clones the repository at `source` (a work tree or a bare directory, as opened by [`Repo::open`])
/// into a fresh temporary directory with `commit` checked out (detached). The directory is removed
/// when the returned [`Clone`] is dropped. Needs no open [`Repo`], so threads can clone at once.
pub fn clone_at(source: &Path, commit: &str) -> Result<Clone> {
    let dir = tempfile::Builder::new().prefix("rewrite-assist-clone-").tempdir()?;
    let target = dir.path().join("repo");
    // --shared borrows the source's objects instead of copying them: fast for big repositories,
    // and the source is never written to.
    git_output(
        dir.path(),
        [
            OsStr::new("clone"),
            "--quiet".as_ref(),
            "--shared".as_ref(),
            "--no-checkout".as_ref(),
            "--end-of-options".as_ref(),
            source.as_os_str(),
            target.as_os_str(),
        ],
    )
    .context("cloning the repository")?;
    // The clone's origin is the repository's own (e.g. its GitHub URL) rather than the local path
    // it was cloned from: OpenRewrite's GitProvenance marker reports it, as for the build plugins.
    if let Ok(out) = git_output(source, ["config", "--get", "remote.origin.url"]) {
        let origin = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !origin.is_empty() {
            git_output(&target, ["remote", "set-url", "--end-of-options", "origin", &origin])
                .context("setting the clone's origin")?;
        }
    }
    // `checkout` takes no `--end-of-options` (git 2.39): the commit is checked instead.
    not_an_option("the commit", commit)?;
    git_output(&target, ["checkout", "--quiet", "--detach", commit])
        .context("checking out the base commit")?;
    Ok(Clone { dir, path: target })
}

/// A temporary clone; deleted on drop (success, error or panic unwinding alike).
pub struct Clone {
    dir: tempfile::TempDir,
    path: PathBuf,
}

impl Clone {
    /// The clone's work tree.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary directory holding the clone; siblings of the clone may be created in it.
    pub fn scratch(&self) -> &Path {
        self.dir.path()
    }

    /// Everything the run changed, as `git add -A && git diff --cached` writes it.
    pub fn staged_diff(&self) -> Result<String> {
        git_output(&self.path, ["add", "-A"])?;
        let out = git_output(&self.path, ["diff", "--cached"].iter().chain(DIFF_FORMAT))?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// The one diff format every diff we measure is written in, whatever the repository's own
/// configuration says (`diff.noprefix`, `diff.context`, `diff.relative`, `diff.algorithm`, an
/// external diff or textconv driver): `a/`/`b/` prefixes, 3 lines of context, renames detected.
pub(crate) const DIFF_FORMAT: &[&str] = &[
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--unified=3",
    "--no-relative",
    "--diff-algorithm=myers",
    "-M",
];

/// A `git` command with the user's global/system configuration switched off.
pub fn git_command(dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    crate::process::env::restrict(&mut cmd);
    cmd.current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_AUTHOR_NAME", "rewrite-assist")
        .env("GIT_AUTHOR_EMAIL", "rewrite-assist@users.noreply.github.com")
        .env("GIT_COMMITTER_NAME", "rewrite-assist")
        .env("GIT_COMMITTER_EMAIL", "rewrite-assist@users.noreply.github.com")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .stdin(Stdio::null());
    cmd
}

/// Runs git in `dir`; a non-zero exit becomes an error carrying git's stderr.
pub fn git_output<I, S>(dir: &Path, args: I) -> Result<Output>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_git(git_command(dir), args)
}

/// Runs a prepared `git` command (see [`git_command`]) with `args`; a non-zero exit becomes an
/// error carrying the arguments and git's stderr (never the environment, which may hold secrets).
pub fn run_git<I, S>(mut cmd: Command, args: I) -> Result<Output>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let args: Vec<_> = args.into_iter().map(|a| a.as_ref().to_os_string()).collect();
    let out = cmd.args(&args).output().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            bad_input("`git` is not installed or not on PATH")
        } else {
            anyhow::Error::new(e).context("running git")
        }
    })?;
    if !out.status.success() {
        let shown: Vec<_> = args.iter().map(|a| a.to_string_lossy()).collect();
        bail!("git {} failed: {}", shown.join(" "), String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::RepoBuilder;

    #[test]
    fn the_repository_own_diff_settings_do_not_change_the_diff() {
        let dir = tempfile::tempdir().unwrap();
        let repo = RepoBuilder::init(dir.path()).unwrap();
        repo.write("a.txt", "1\n2\n3\n4\n5\n6\n7\n").unwrap();
        let base = repo.commit("base").unwrap();
        repo.write("a.txt", "1\n2\n3\nfour\n5\n6\n7\n").unwrap();
        let head = repo.commit("head").unwrap();
        for setting in [["diff.noprefix", "true"], ["diff.context", "0"], ["diff.mnemonicPrefix", "true"]] {
            git_output(dir.path(), ["config", setting[0], setting[1]]).unwrap();
        }
        let diff = Repo::open(dir.path()).unwrap().diff(&base, &head).unwrap();
        assert!(diff.contains("--- a/a.txt\n+++ b/a.txt\n"), "{diff}");
        assert!(diff.contains("@@ -1,7 +1,7 @@\n 1\n 2\n 3\n-4\n+four\n"), "{diff}");
    }
}
