//! The environment a child process gets: an allow-list. Build tools run the project's code and
//! git may talk to remotes, so a child sees what the tools document they need (to find Java, use
//! a proxy, write their caches, speak the user's locale) and nothing else: no token, no API key,
//! no CI internals, whatever the variable is called.
//!
//! One exception, by name and on request: the variables the user passes through (`--pass-env`,
//! action input `env`) reach the build tools and the embedded runner, never git. They are the
//! credentials a `settings.xml` takes as `${env.X}`; their values are never logged.

use std::ffi::{OsStr, OsString};
use std::process::Command;
use std::sync::RwLock;

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
/// For git: it gets nothing the user passes through.
pub(crate) fn restrict(cmd: &mut Command) -> &mut Command {
    cmd.env_clear().envs(passed(std::env::vars_os()))
}

/// [`restrict`], plus the variables the user passes through ([`pass_through`]): for Maven,
/// Gradle and the embedded runner, which read them from a settings.xml's `${env.X}`.
pub fn restrict_for_build_tool(cmd: &mut Command) -> &mut Command {
    let names = PASSED_THROUGH.read().map(|names| names.clone()).unwrap_or_default();
    cmd.env_clear().envs(passed_with(std::env::vars_os(), &names))
}

/// `cmd`'s program and arguments for a log line. Not `{cmd:?}`: that prints the environment,
/// and with it the values of the variables passed through.
pub fn command_line(cmd: &Command) -> String {
    std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| format!("{:?}", a.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// [`passed`], plus the variables named in `through`.
pub(crate) fn passed_with(
    parent: impl IntoIterator<Item = (OsString, OsString)>,
    through: &[String],
) -> Vec<(OsString, OsString)> {
    parent
        .into_iter()
        .filter(|(name, _)| passes(name) || through.iter().any(|t| name == t.as_str()))
        .collect()
}

/// The names the user passes through, set once at start from `--pass-env` or the action's `env`.
static PASSED_THROUGH: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Passes the variables `names` (checked by [`parse_pass_through`]) to the build tools and the
/// runner from now on.
pub fn pass_through(names: Vec<String>) {
    if !names.is_empty() {
        // Names only: the values stay out of every log, and out of everything written (a build
        // may echo one).
        tracing::info!("passing through to the build tools and the runner: {}", names.join(", "));
    }
    for name in &names {
        if let Some(value) = std::env::var_os(name) {
            crate::redact::remember(&value.to_string_lossy());
        }
    }
    if let Ok(mut through) = PASSED_THROUGH.write() {
        *through = names;
    }
}

/// Variables that may not be passed through, by prefix: the action's and rewrite-assist's own
/// (`GITHUB_TOKEN` among them, kept from every child). action.yml refuses these and the two lists
/// below before they reach the container (a test checks that they agree).
pub const RESERVED_PREFIXES: &[&str] = &["GITHUB_", "ACTIONS_", "RUNNER_", "INPUT_", "REWRITE_ASSIST_"];

/// Variables that make a program run other code at start, by prefix (the dynamic loader's)...
pub const STARTUP_PREFIXES: &[&str] = &["LD_", "DYLD_"];

/// ... and by name (the JVM's and the shell's).
pub const STARTUP: &[&str] = &["JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "BASH_ENV", "ENV"];

/// Why the variable `name` may not be passed through, or None.
pub(crate) fn pass_through_refusal(name: &str) -> Option<&'static str> {
    let mut chars = name.chars();
    let well_formed = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !well_formed {
        Some("is not the name of an environment variable")
    } else if RESERVED_PREFIXES.iter().any(|p| name.starts_with(p)) {
        Some(
            "is the action's or rewrite-assist's own and never passes (a credential goes under a name of its own, e.g. MAVEN_PASSWORD)",
        )
    } else if STARTUP_PREFIXES.iter().any(|p| name.starts_with(p)) || STARTUP.contains(&name) {
        Some("makes programs run other code at start and never passes")
    } else if passes(OsStr::new(name)) {
        Some("passes already (the tools need it)")
    } else {
        None
    }
}

/// The names in `list` (separated by commas, spaces or newlines), each checked: the first
/// refused one is the error.
pub fn parse_pass_through(list: &str) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = Vec::new();
    for name in list.split(|c: char| c == ',' || c.is_whitespace()).filter(|n| !n.is_empty()) {
        if let Some(why) = pass_through_refusal(name) {
            return Err(format!("`{name}` {why}"));
        }
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    Ok(names)
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

    #[test]
    fn the_names_passed_through_pass_and_nothing_else() {
        let parent =
            [("PATH", "/usr/bin"), ("MAVEN_PASSWORD", "p"), ("OTHER_SECRET", "s"), ("MAVEN_USERNAME", "u")]
                .map(|(k, v)| (OsString::from(k), OsString::from(v)));
        let through = parse_pass_through("MAVEN_USERNAME, MAVEN_PASSWORD\nMAVEN_USERNAME").unwrap();
        assert_eq!(through, ["MAVEN_USERNAME", "MAVEN_PASSWORD"]);
        let names: Vec<String> = passed_with(parent, &through)
            .into_iter()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["PATH", "MAVEN_PASSWORD", "MAVEN_USERNAME"]);
    }

    #[test]
    fn a_logged_command_line_has_no_environment() {
        let mut cmd = Command::new("mvn");
        cmd.env_clear().env("MAVEN_PASSWORD", "hunter2").args(["-B", "a b"]);
        assert!(format!("{cmd:?}").contains("hunter2"), "the reason for command_line");
        assert_eq!(command_line(&cmd), r#""mvn" "-B" "a b""#);
    }

    #[test]
    fn tokens_loaders_and_malformed_names_are_refused() {
        for (list, refused) in [
            ("MAVEN_PASSWORD,GITHUB_TOKEN", "`GITHUB_TOKEN` is the action's"),
            ("ACTIONS_ID_TOKEN_REQUEST_TOKEN", "is the action's"),
            ("INPUT_TOKEN", "is the action's"),
            ("REWRITE_ASSIST_BACKEND", "is the action's"),
            ("LD_PRELOAD", "run other code"),
            ("JAVA_TOOL_OPTIONS", "run other code"),
            ("BASH_ENV", "run other code"),
            ("JAVA_HOME", "passes already"),
            ("LC_ALL", "passes already"),
            ("MY-VAR", "is not the name"),
            ("1PASSWORD", "is not the name"),
            ("A=B", "is not the name"),
        ] {
            let error = parse_pass_through(list).unwrap_err();
            assert!(error.contains(refused), "{list}: {error}");
        }
        assert_eq!(parse_pass_through(" , ").unwrap(), Vec::<String>::new());
    }
}
