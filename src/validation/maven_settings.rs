//! The user's Maven settings, for both backends: the plugin's `mvn` and the Maven that builds the
//! embedded runner (whose downloads follow the same mirrors).

use std::path::PathBuf;

/// `$HOME/.m2/settings.xml`, when there is one. Passed to Maven explicitly: Maven looks in the
/// home directory of the user's passwd entry, which a container run under another uid (the
/// action's `docker run --user`) may not have, while `HOME` is set and is where action.yml mounts
/// `maven-settings`.
pub(crate) fn user_settings() -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var_os("HOME")?).join(".m2/settings.xml");
    path.is_file().then_some(path)
}
