//! Git access to repositories on the server (clone, fetch, push) with the token.
//!
//! The token never goes into a URL or an argument, which git and our errors might print: it is
//! handed to git as an `http.<server>/.extraheader` through the `GIT_CONFIG_*` environment of the
//! one git process that needs it, scoped to the server's URL, like actions/checkout does. The
//! server may also be a local directory or a `file://` URL holding `owner/name.git` bare
//! repositories (tests, mirrors), where no header is sent.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

use anyhow::Result;
use base64::Engine;
use secrecy::{ExposeSecret, SecretString};

use super::RepoId;
use crate::setup::git::{git_command, run_git};

/// The server when `GITHUB_SERVER_URL` is not set.
pub const DEFAULT_SERVER_URL: &str = "https://github.com";

/// Git over HTTPS (or a local directory of bare repositories) to one server's repositories, with
/// the token kept out of URLs and arguments.
#[derive(Clone)]
pub struct Remote {
    /// `https://github.com`, a GHE URL, `file:///srv/git` or `/srv/git`, without a trailing slash.
    server: String,
    token: Option<SecretString>,
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Remote").field("server", &self.server).finish_non_exhaustive()
    }
}

impl Remote {
    /// A remote for `server` (a URL, or a directory of `owner/name.git` bare repositories) that
    /// authenticates with `token` over HTTP(S).
    pub fn new(server: &str, token: Option<SecretString>) -> Remote {
        Remote { server: server.trim().trim_end_matches('/').to_string(), token }
    }

    /// The clone URL of `repo`.
    pub(crate) fn url(&self, repo: &RepoId) -> String {
        format!("{}/{}/{}.git", self.server, repo.owner, repo.name)
    }

    fn is_http(&self) -> bool {
        self.server.starts_with("https://") || self.server.starts_with("http://")
    }

    /// A git command in `dir` that authenticates to the server with the token.
    pub(crate) fn command(&self, dir: &Path) -> Command {
        let mut cmd = git_command(dir);
        if let (Some(token), true) = (&self.token, self.is_http()) {
            let credentials = base64::engine::general_purpose::STANDARD
                .encode(format!("x-access-token:{}", token.expose_secret()));
            cmd.env("GIT_CONFIG_COUNT", "1")
                .env("GIT_CONFIG_KEY_0", format!("http.{}/.extraheader", self.server))
                .env("GIT_CONFIG_VALUE_0", format!("AUTHORIZATION: basic {credentials}"));
        }
        cmd
    }

    pub(crate) fn git<I, S>(&self, dir: &Path, args: I) -> Result<Output>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        run_git(self.command(dir), args)
    }

    /// Clones `repo` into `target` (which must not exist).
    pub(crate) fn clone_into(&self, repo: &RepoId, target: &Path) -> Result<()> {
        let parent = target.parent().unwrap_or(Path::new("."));
        self.git(
            parent,
            [
                OsStr::new("clone"),
                "--quiet".as_ref(),
                "--no-tags".as_ref(),
                "--end-of-options".as_ref(),
                self.url(repo).as_ref(),
                target.as_os_str(),
            ],
        )?;
        Ok(())
    }

    /// Fetches `refspecs` of `repo` into the repository at `dir`.
    pub(crate) fn fetch(&self, dir: &Path, repo: &RepoId, refspecs: &[String]) -> Result<()> {
        let mut args = vec![
            "fetch".to_string(),
            "--quiet".into(),
            "--no-tags".into(),
            "--end-of-options".into(),
            self.url(repo),
        ];
        args.extend(refspecs.iter().cloned());
        self.git(dir, &args)?;
        Ok(())
    }

    /// Pushes HEAD of `dir` to `branch` of `repo` (a branch of the bot's, [`super::branch`]) with a
    /// lease: the push succeeds only while the branch is at `expected` (None: while it does not
    /// exist), so what someone pushed after the bot looked is never overwritten.
    pub(crate) fn push_head(
        &self,
        dir: &Path,
        repo: &RepoId,
        branch: &str,
        expected: Option<&str>,
    ) -> Result<()> {
        let lease = format!("--force-with-lease=refs/heads/{branch}:{}", expected.unwrap_or(""));
        self.git(
            dir,
            ["push", "--quiet", &lease, "--end-of-options", &self.url(repo), &format!("HEAD:refs/heads/{branch}")],
        )
            .map_err(|e| {
                if !refused_workflow_push(&format!("{e:#}")) {
                    return e;
                }
                super::user_facing(format!(
                    "GitHub refused to push the branch `{branch}`: it changes files under `.github/workflows/`, and \
the token may not. Give it that right (a GitHub App with *Workflows: write*, or a personal access token with the \
`workflow` scope), or use the workflow's own token, with which workflow files are left out of the pull request."
                ))
            })?;
        Ok(())
    }
}

impl Remote {
    /// Pushes HEAD of `dir` onto `branch` of `repo` only if that is a fast-forward: the branch is
    /// someone's (a PR's), and what they pushed meanwhile is never overwritten.
    pub(crate) fn push_head_fast_forward(&self, dir: &Path, repo: &RepoId, branch: &str) -> Result<()> {
        self.git(
            dir,
            ["push", "--quiet", "--end-of-options", &self.url(repo), &format!("HEAD:refs/heads/{branch}")],
        )?;
        Ok(())
    }
}

/// GitHub's answer to a push of workflow files without the right to: "refusing to allow a GitHub
/// App (or an OAuth App, or a Personal Access Token) to create or update workflow … without
/// `workflows` permission (or `workflow` scope)".
fn refused_workflow_push(git_error: &str) -> bool {
    git_error.contains("refusing to allow") && git_error.contains("workflow")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(cmd: &Command, key: &str) -> Option<String> {
        cmd.get_envs()
            .find(|(k, _)| *k == OsStr::new(key))
            .and_then(|(_, v)| v.map(|v| v.to_string_lossy().into_owned()))
    }

    #[test]
    fn a_refused_workflow_push_is_recognised() {
        assert!(refused_workflow_push(
            "git push failed: ! [remote rejected] HEAD -> x (refusing to allow a GitHub App to create or update \
workflow `.github/workflows/ci.yml` without `workflows` permission)"
        ));
        assert!(refused_workflow_push(
            "refusing to allow an OAuth App to create or update workflow `.github/workflows/a.yml` without `workflow` scope"
        ));
        assert!(!refused_workflow_push("git push failed: Permission denied"));
    }

    #[test]
    fn the_token_goes_into_a_scoped_header_never_into_the_url_or_arguments() {
        let remote = Remote::new("https://github.com/", Some(SecretString::from("ghs_secret")));
        let repo = RepoId::parse("acme/shop").unwrap();
        assert_eq!(remote.url(&repo), "https://github.com/acme/shop.git");
        let cmd = remote.command(Path::new("."));
        assert_eq!(env_of(&cmd, "GIT_CONFIG_KEY_0").as_deref(), Some("http.https://github.com/.extraheader"));
        let header = env_of(&cmd, "GIT_CONFIG_VALUE_0").unwrap();
        let encoded = header.strip_prefix("AUTHORIZATION: basic ").unwrap();
        let decoded = base64::engine::general_purpose::STANDARD.decode(encoded).unwrap();
        assert_eq!(decoded, b"x-access-token:ghs_secret");
        assert!(cmd.get_args().all(|a| !a.to_string_lossy().contains("ghs_secret")));
        assert!(!format!("{remote:?}").contains("ghs_secret"));
    }

    #[test]
    fn local_servers_get_no_header() {
        let remote = Remote::new("/srv/git", Some(SecretString::from("t")));
        assert_eq!(remote.url(&RepoId::parse("a/b").unwrap()), "/srv/git/a/b.git");
        assert_eq!(env_of(&remote.command(Path::new(".")), "GIT_CONFIG_COUNT"), None);
    }
}
