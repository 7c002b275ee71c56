//! Whether a Gradle build can run here, decided without running anything of the repository: the
//! wrapper's distribution is already unpacked in the Gradle user home, or its download host
//! answers, or (no wrapper) a `gradle` is on PATH. Where none holds (air-gapped runners, this
//! project's own machines), Gradle projects are validated with the embedded runner alone and the
//! report says why the plugin confirmation did not run.

use std::net::{TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long the download host may take to accept a connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// Why no Gradle can run for the project at `root`, or None when one can.
pub(crate) fn why_not(root: &Path) -> Option<String> {
    why_not_with(root, user_home().as_deref())
}

/// [`why_not`] with the Gradle user home given (`$GRADLE_USER_HOME`, else `~/.gradle`).
fn why_not_with(root: &Path, user_home: Option<&Path>) -> Option<String> {
    let properties = root.join("gradle/wrapper/gradle-wrapper.properties");
    if root.join("gradlew").is_file() {
        if !properties.is_file() {
            // A wrapper script of its own making: only running it tells.
            return None;
        }
        let text = std::fs::read_to_string(&properties).unwrap_or_default();
        let Some(url) = distribution_url(&text) else {
            return Some("the wrapper names no distributionUrl".into());
        };
        let name = url.rsplit('/').next().unwrap_or(&url).trim_end_matches(".zip").to_string();
        if user_home.is_some_and(|home| unpacked(&home.join("wrapper/dists").join(&name))) {
            return None;
        }
        let host = host_and_port(&url)?;
        if reachable(&host) {
            return None;
        }
        return Some(format!(
            "the wrapper's {name} is not in the Gradle user home and {} cannot be reached to download it",
            host.0
        ));
    }
    if on_path("gradle") {
        return None;
    }
    Some("the project has no Gradle wrapper and no `gradle` is on PATH".into())
}

/// `distributionUrl` of `gradle-wrapper.properties`, unescaped (`https\://` -> `https://`).
fn distribution_url(properties: &str) -> Option<String> {
    properties
        .lines()
        .find_map(|line| line.trim().strip_prefix("distributionUrl")?.trim_start().strip_prefix('='))
        .map(|value| value.trim().replace("\\:", ":").replace("\\=", "="))
        .filter(|url| !url.is_empty())
}

fn user_home() -> Option<PathBuf> {
    std::env::var_os("GRADLE_USER_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".gradle")))
}

/// A distribution the wrapper unpacked: `<dists>/<name>/<hash>/gradle-*/bin/gradle`.
fn unpacked(dists: &Path) -> bool {
    let Ok(hashes) = std::fs::read_dir(dists) else { return false };
    hashes.flatten().any(|hash| {
        std::fs::read_dir(hash.path())
            .map(|dirs| dirs.flatten().any(|dir| dir.path().join("bin/gradle").is_file()))
            .unwrap_or(false)
    })
}

/// `(host, port)` of an http(s) URL.
fn host_and_port(url: &str) -> Option<(String, u16)> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split('/').next()?;
    let default = if scheme == "http" { 80 } else { 443 };
    match authority.rsplit_once(':') {
        Some((host, port)) => Some((host.to_string(), port.parse().ok()?)),
        None => Some((authority.to_string(), default)),
    }
}

fn reachable((host, port): &(String, u16)) -> bool {
    let Ok(addresses) = (host.as_str(), *port).to_socket_addrs() else { return false };
    addresses.into_iter().any(|address| TcpStream::connect_timeout(&address, CONNECT_TIMEOUT).is_ok())
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wrappers_distribution_url_and_its_host() {
        let text = "distributionBase=GRADLE_USER_HOME\ndistributionUrl=https\\://services.gradle.org/distributions/gradle-8.5-bin.zip\n";
        let url = distribution_url(text).unwrap();
        assert_eq!(url, "https://services.gradle.org/distributions/gradle-8.5-bin.zip");
        assert_eq!(host_and_port(&url), Some(("services.gradle.org".into(), 443)));
        assert_eq!(host_and_port("http://mirror.acme:8081/g.zip"), Some(("mirror.acme".into(), 8081)));
        assert_eq!(distribution_url("zipStorePath=x\n"), None);
    }

    #[test]
    fn an_unpacked_distribution_runs_and_an_unreachable_one_does_not() {
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(project.path().join("gradle/wrapper")).unwrap();
        std::fs::write(project.path().join("gradlew"), "#!/bin/sh\n").unwrap();
        // A host that never answers: a reserved TEST-NET address on a closed port.
        std::fs::write(
            project.path().join("gradle/wrapper/gradle-wrapper.properties"),
            "distributionUrl=http\\://192.0.2.1\\:9/gradle-8.5-bin.zip\n",
        )
        .unwrap();
        let home = tempfile::tempdir().unwrap();
        let why = why_not_with(project.path(), Some(home.path()));
        assert!(
            why.as_deref().is_some_and(|w| w.contains("gradle-8.5-bin is not in the Gradle user home")),
            "{why:?}"
        );
        let bin = home.path().join("wrapper/dists/gradle-8.5-bin/abc123/gradle-8.5/bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(bin.join("gradle"), "").unwrap();
        assert_eq!(why_not_with(project.path(), Some(home.path())), None);
    }
}
