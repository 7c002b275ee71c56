//! Maven as this crate runs it for its own Java programs (the embedded runner's build, the catalog
//! generator): which executable, with which environment and which settings.

use std::path::PathBuf;
use std::process::Command;

/// The Maven executable (default `mvn`).
pub(crate) const MVN_ENV: &str = "REWRITE_ASSIST_MVN";

/// `$REWRITE_ASSIST_MVN`, else `mvn`.
pub fn executable() -> String {
    std::env::var(MVN_ENV).ok().filter(|v| !v.is_empty()).unwrap_or_else(|| "mvn".into())
}

/// `$HOME/.m2/settings.xml`, when there is one. Passed to Maven explicitly: Maven looks in the
/// home directory of the user's passwd entry, which a container run under another uid (the
/// action's `docker run --user`) may not have, while `HOME` is set and is where action.yml mounts
/// `maven-settings`.
pub fn user_settings() -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var_os("HOME")?).join(".m2/settings.xml");
    path.is_file().then_some(path)
}

/// `mvn` with the build tools' environment ([`super::env::restrict_for_build_tool`]) and the
/// user's settings, so that our own builds download through the same mirrors as the user's.
pub fn command(mvn: &str) -> Command {
    let mut command = Command::new(mvn);
    super::env::restrict_for_build_tool(&mut command);
    if let Some(settings) = user_settings() {
        command.arg("--settings").arg(settings);
    }
    command
}
