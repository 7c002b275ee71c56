//! The environment a child process gets: an allow-list. Build tools run the project's code and
//! git may talk to remotes, so a child sees what the tools document they need (to find Java, use
//! a proxy, write their caches, speak the user's locale) and nothing else: no token, no API key,
//! no CI internals, whatever the variable is called.

use std::ffi::{OsStr, OsString};
use std::process::Command;

/// Variables a child may see, by exact name.
const PASSED: &[&str] = &[
    // Finding programs, the user, temporary files, the terminal and the time zone.
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "TMPDIR",
    "TMP",
    "TEMP",
    "TERM",
    "TZ",
    "LANG",
    "LANGUAGE",
    // Java, Maven and Gradle as their documentation describes them.
    "JAVA_HOME",
    "MAVEN_HOME",
    "M2_HOME",
    "MAVEN_OPTS",
    "MAVEN_ARGS",
    "GRADLE_HOME",
    "GRADLE_USER_HOME",
    "GRADLE_OPTS",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
    // Reaching the network from behind a proxy, with the organisation's certificates.
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
];

/// Variables a child may see, by prefix (the locale's categories).
const PASSED_PREFIXES: &[&str] = &["LC_"];

/// Whether a child may see the variable `name`.
pub(crate) fn passes(name: &OsStr) -> bool {
    let Some(name) = name.to_str() else { return false };
    PASSED.contains(&name) || PASSED_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// The variables of `parent` a child may see, in order.
pub(crate) fn passed(parent: impl IntoIterator<Item = (OsString, OsString)>) -> Vec<(OsString, OsString)> {
    parent.into_iter().filter(|(name, _)| passes(name)).collect()
}

/// Gives `cmd` only the allowed variables of our environment (set its own with `.env` after).
pub(crate) fn restrict(cmd: &mut Command) -> &mut Command {
    cmd.env_clear().envs(passed(std::env::vars_os()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_tools_variables_pass() {
        let parent = [
            ("PATH", "/usr/bin"),
            ("HOME", "/home/u"),
            ("JAVA_HOME", "/jdk"),
            ("LC_ALL", "C.UTF-8"),
            ("https_proxy", "http://proxy:3128"),
            ("GITHUB_TOKEN", "ghs_x"),
            ("GH_PAT", "ghp_x"),
            ("MY_API_KEY", "k"),
            ("NPM_AUTH", "n"),
            ("DEPLOY_CREDENTIALS", "d"),
            ("INPUT_TOKEN", "t"),
            ("ACTIONS_RUNTIME_TOKEN", "a"),
            ("JAVA_TOOL_OPTIONS", "-javaagent:/x.jar"),
            ("REWRITE_ASSIST_BACKEND", "plugin"),
        ]
        .map(|(k, v)| (OsString::from(k), OsString::from(v)));
        let names: Vec<String> =
            passed(parent).into_iter().map(|(k, _)| k.to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["PATH", "HOME", "JAVA_HOME", "LC_ALL", "https_proxy"]);
    }
}
