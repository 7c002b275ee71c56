//! The settings Maven gets from the plugin backend. Maven sends a `<server>`'s credentials to any
//! repository with its id, so a POM that declares `<repository><id>company</id>` at a host of its
//! own would receive the user's credentials for `company`. Before Maven runs, the project's POMs
//! are read for such repositories: one whose id has a server in the user's settings, at a URL the
//! settings do not name for that id (a mirror, a profile's repository) nor the user allows
//! (`--credential-url`), and that no mirror of the settings catches, gets a mirror of its own in a
//! copy of the settings — same URL, an id without a server — so Maven asks it without credentials.
//! A warning names each. Repositories that POMs downloaded during the build declare are Maven's
//! own business (the embedded runner holds those to the rule too).

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::CredentialUrls;
use crate::redact;
use crate::validation::xml::elements;

/// The settings for one plugin run, and what the guard did.
#[derive(Debug, Default)]
pub(crate) struct Guarded {
    /// The settings file to give Maven (the user's, or the copy with the guard's mirrors).
    pub settings: Option<PathBuf>,
    /// One line per repository that goes without credentials.
    pub warnings: Vec<String>,
}

/// A repository a POM of the project declares.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Declared {
    id: String,
    url: String,
    pom: String,
}

/// The settings Maven gets to run on the project at `root` (its POMs read, a few levels deep): the
/// user's `settings`, or a copy in `scratch` with a mirror for each repository that would receive
/// credentials it may not.
pub(crate) fn settings_for(
    settings: Option<&Path>,
    root: &Path,
    allowed: &CredentialUrls,
    scratch: &Path,
) -> Result<Guarded> {
    let Some(path) = settings else { return Ok(Guarded::default()) };
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(Guarded { settings: Some(path.to_path_buf()), warnings: Vec::new() });
    };
    let blocked = blocked(&text, &declared(root), allowed);
    if blocked.is_empty() {
        return Ok(Guarded { settings: Some(path.to_path_buf()), warnings: Vec::new() });
    }
    let Some(guarded) = with_mirrors(&text, &blocked) else {
        let warning = format!(
            "{} declares a repository under the id of a <server> of your Maven settings, which Maven would send its \
credentials; the settings could not be amended, so Maven runs without them",
            blocked[0].pom
        );
        return Ok(Guarded { settings: None, warnings: vec![warning] });
    };
    let file = scratch.join("maven-settings.xml");
    write_private(&file, &guarded)?;
    let warnings = blocked
        .iter()
        .map(|d| {
            format!(
                "{} declares the repository `{}` at {}, an id that has a <server> in your Maven settings, which do not \
name that URL for it: Maven asks it without those credentials. If that repository is yours, allow it with \
`--credential-url {}=URL` (action input `credential-urls`)",
                d.pom,
                d.id,
                redact::url_user_info(&d.url),
                d.id
            )
        })
        .collect();
    Ok(Guarded { settings: Some(file), warnings })
}

/// The repositories the POMs under `root` declare (`repositories`, `pluginRepositories`, in the
/// project and its profiles).
fn declared(root: &Path) -> Vec<Declared> {
    let mut poms = Vec::new();
    crate::validation::build::collect_files(root, &["pom.xml"], 0, &mut poms);
    poms.sort();
    let mut out = Vec::new();
    for pom in poms {
        let Ok(text) = std::fs::read_to_string(&pom) else { continue };
        let name = pom.strip_prefix(root).unwrap_or(&pom).display().to_string();
        for suffix in ["repositories/repository", "pluginRepositories/pluginRepository"] {
            for fields in elements(&text, suffix) {
                if let (Some(id), Some(url)) = (fields.get("id"), fields.get("url")) {
                    out.push(Declared { id: id.clone(), url: url.clone(), pom: name.clone() });
                }
            }
        }
    }
    out
}

/// The declared repositories that would get credentials they may not.
fn blocked(settings: &str, declared: &[Declared], allowed: &CredentialUrls) -> Vec<Declared> {
    let servers: Vec<String> =
        elements(settings, "servers/server").into_iter().filter_map(|s| s.get("id").cloned()).collect();
    let mirrors = elements(settings, "mirrors/mirror");
    let profile_repositories = elements(settings, "profile/repositories/repository");
    let mut out: Vec<Declared> = Vec::new();
    for repository in declared {
        if !servers.contains(&repository.id) || out.iter().any(|d| d.id == repository.id) {
            continue;
        }
        let caught = mirrors
            .iter()
            .any(|m| m.get("mirrorOf").is_some_and(|of| mirror_of(of, &repository.id, &repository.url)));
        let named = mirrors
            .iter()
            .chain(&profile_repositories)
            .filter(|e| e.get("id") == Some(&repository.id))
            .filter_map(|e| e.get("url"))
            .chain(allowed.for_id(&repository.id))
            .any(|prefix| under(&repository.url, prefix));
        if !caught && !named {
            out.push(repository.clone());
        }
    }
    out
}

/// Whether Maven's `<mirrorOf>` pattern catches the repository `id` at `url`: `*`, `external:*`,
/// `external:http:*`, ids, and `!id` exclusions, separated by commas.
fn mirror_of(pattern: &str, id: &str, url: &str) -> bool {
    let external =
        !(url.contains("://localhost") || url.contains("://127.0.0.1") || url.starts_with("file:"));
    let mut matched = false;
    for part in pattern.split(',').map(str::trim) {
        if let Some(excluded) = part.strip_prefix('!') {
            if excluded == id {
                return false;
            }
        } else if part == id
            || part == "*"
            || (part == "external:*" && external)
            || (part == "external:http:*" && external && url.starts_with("http:"))
        {
            matched = true;
        }
    }
    matched
}

/// Whether `url` is under `prefix`: the same host and port (`http` and `https` alike) and path.
fn under(url: &str, prefix: &str) -> bool {
    let normal = |u: &str| -> String {
        let lower = u.trim().to_ascii_lowercase();
        let rest = lower.split_once("://").map(|(_, r)| r.to_string()).unwrap_or(lower);
        let rest = rest.rsplit_once('@').map(|(_, r)| r.to_string()).unwrap_or(rest);
        if rest.ends_with('/') { rest } else { rest + "/" }
    };
    normal(url).starts_with(&normal(prefix))
}

/// `settings` with a mirror for each of `blocked` (its URL, an id no server has), or None when the
/// file has no `</settings>` to add them to.
fn with_mirrors(settings: &str, blocked: &[Declared]) -> Option<String> {
    let mirrors: String = blocked
        .iter()
        .enumerate()
        .map(|(n, d)| {
            format!(
                "\n    <mirror><id>rewrite-assist-no-credentials-{n}</id><mirrorOf>{}</mirrorOf><url>{}</url></mirror>",
                escape(&d.id),
                escape(&d.url)
            )
        })
        .collect();
    if let Some(start) = settings.find("<mirrors/>") {
        let end = start + "<mirrors/>".len();
        return Some(format!("{}<mirrors>{mirrors}\n  </mirrors>{}", &settings[..start], &settings[end..]));
    }
    if let Some(end) = settings.rfind("</mirrors>") {
        return Some(format!("{}{mirrors}\n  {}", &settings[..end], &settings[end..]));
    }
    let end = settings.rfind("</settings>")?;
    Some(format!("{}  <mirrors>{mirrors}\n  </mirrors>\n{}", &settings[..end], &settings[end..]))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The settings hold the user's credentials: the copy is readable by its owner only.
fn write_private(path: &Path, text: &str) -> Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)?;
    file.write_all(text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTINGS: &str = "<settings>\n  <servers><server><id>company</id><username>u</username>\
<password>p</password></server><server><id>releases</id><username>u</username><password>p</password></server>\
</servers>\n  <profiles><profile><id>p</id><repositories><repository><id>company</id>\
<url>https://nexus.acme.example/repository/all</url></repository></repositories></profile></profiles>\n</settings>\n";

    fn declared(id: &str, url: &str) -> Declared {
        Declared { id: id.into(), url: url.into(), pom: "pom.xml".into() }
    }

    #[test]
    fn a_repository_under_a_servers_id_elsewhere_is_blocked_and_the_named_one_is_not() {
        let none = CredentialUrls::default();
        let repos = [
            declared("company", "https://nexus.acme.example/repository/all/"),
            declared("company", "http://nexus.acme.example/repository/all/sub"),
            declared("releases", "http://attacker.example/repo"),
            declared("other", "http://attacker.example/other"),
        ];
        assert_eq!(blocked(SETTINGS, &repos, &none), vec![repos[2].clone()]);
        let allowed = CredentialUrls::parse("releases=https://attacker.example/repo").unwrap();
        assert_eq!(blocked(SETTINGS, &repos, &allowed), vec![]);
        let elsewhere = [declared("company", "https://nexus.acme.example.evil/repository/all")];
        assert_eq!(blocked(SETTINGS, &elsewhere, &none), elsewhere.to_vec());
        // A mirror of the settings that catches the id takes the request to the user's own host.
        let mirrored = SETTINGS.replace(
            "<profiles>",
            "<mirrors><mirror><id>company</id><url>https://nexus.acme.example/all</url><mirrorOf>*,!x</mirrorOf></mirror></mirrors><profiles>",
        );
        assert_eq!(blocked(&mirrored, &repos, &none), vec![]);
    }

    #[test]
    fn mirror_of_patterns() {
        assert!(mirror_of("*", "a", "https://h/"));
        assert!(!mirror_of("*,!a", "a", "https://h/"));
        assert!(mirror_of("a,b", "b", "https://h/"));
        assert!(mirror_of("external:*", "a", "https://h/"));
        assert!(!mirror_of("external:*", "a", "http://localhost:8081/"));
        assert!(mirror_of("external:http:*", "a", "http://h/"));
        assert!(!mirror_of("external:http:*", "a", "https://h/"));
        assert!(!mirror_of("central", "a", "https://h/"));
    }

    #[test]
    fn the_guard_mirrors_go_into_the_mirrors_or_a_new_section() {
        let blocked = [declared("releases", "http://attacker.example/repo?a=1&b=<2>")];
        let added = with_mirrors(SETTINGS, &blocked).unwrap();
        assert!(added.contains(
            "<mirror><id>rewrite-assist-no-credentials-0</id><mirrorOf>releases</mirrorOf><url>http://attacker.example/repo?a=1&amp;b=&lt;2&gt;</url></mirror>"
        ));
        assert_eq!(elements(&added, "mirrors/mirror")[0]["url"], "http://attacker.example/repo?a=1&b=<2>");
        assert_eq!(elements(&added, "servers/server").len(), 2);
        let existing = SETTINGS.replace("<profiles>", "<mirrors><mirror><id>m</id><url>https://m</url><mirrorOf>central</mirrorOf></mirror></mirrors><profiles>");
        assert_eq!(elements(&with_mirrors(&existing, &blocked).unwrap(), "mirrors/mirror").len(), 2);
        assert_eq!(with_mirrors("<notsettings/>", &blocked), None);
        let empty = with_mirrors("<settings><mirrors/></settings>", &blocked).unwrap();
        assert_eq!(elements(&empty, "mirrors/mirror").len(), 1, "{empty}");
    }
}
