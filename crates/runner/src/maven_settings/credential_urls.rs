//! The URLs the user allows a Maven server's credentials to go to besides those their settings
//! name for its id (`--credential-url ID=URL`, the action input `credential-urls`): a repository
//! the project's own POM declares, say. Set once at start, like the variables passed through.

use std::collections::BTreeMap;
use std::sync::RwLock;

use serde::Serialize;

/// The environment variable behind `--credential-url`.
pub const CREDENTIAL_URLS_ENV: &str = "REWRITE_ASSIST_CREDENTIAL_URLS";

/// Per server id, the URLs (prefixes) its credentials may go to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct CredentialUrls(BTreeMap<String, Vec<String>>);

static ALLOWED: RwLock<CredentialUrls> = RwLock::new(CredentialUrls(BTreeMap::new()));

impl CredentialUrls {
    /// `ID=URL` items, separated by commas, spaces or new lines; a URL is `http(s)://…`.
    pub fn parse(list: &str) -> Result<CredentialUrls, String> {
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for item in list.split([',', ' ', '\n', '\t']).filter(|s| !s.trim().is_empty()) {
            let Some((id, url)) = item.trim().split_once('=') else {
                return Err(format!("`{item}` is not ID=URL"));
            };
            let (id, url) = (id.trim(), url.trim());
            if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
                return Err(format!("`{id}` is not a server id"));
            }
            let lower = url.to_ascii_lowercase();
            let rest = lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://"));
            if rest.is_none_or(|r| r.is_empty() || r.starts_with('/')) {
                return Err(format!("`{url}` is not an http(s) URL"));
            }
            if url.contains('@') {
                return Err(format!(
                    "`{}`: a URL here takes no user or password",
                    crate::redact::url_user_info(url)
                ));
            }
            out.entry(id.to_string()).or_default().push(url.to_string());
        }
        Ok(CredentialUrls(out))
    }

    /// The URLs allowed for `id`.
    pub(crate) fn for_id(&self, id: &str) -> &[String] {
        self.0.get(id).map(Vec::as_slice).unwrap_or_default()
    }

    /// Whether no server id has extra URLs (the `--credential-url` default).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// From now on, the credentials may also go to these URLs.
    pub fn allow(urls: CredentialUrls) {
        if let Ok(mut allowed) = ALLOWED.write() {
            *allowed = urls;
        }
    }

    /// What [`Self::allow`] set (none by default).
    pub(crate) fn allowed() -> CredentialUrls {
        ALLOWED.read().map(|a| a.clone()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_url_pairs() {
        let urls = CredentialUrls::parse("company=https://nexus.acme.example/repository/, company=http://b.example\nother=https://c.example/x").unwrap();
        assert_eq!(urls.for_id("company"), ["https://nexus.acme.example/repository/", "http://b.example"]);
        assert_eq!(urls.for_id("other"), ["https://c.example/x"]);
        assert!(urls.for_id("none").is_empty());
        assert!(CredentialUrls::parse("").unwrap().is_empty());
        for bad in [
            "company",
            "=https://a.example",
            "company=ftp://a.example",
            "company=https://",
            "a b=https://x.example",
            "c=https://u:p@x.example",
        ] {
            assert!(CredentialUrls::parse(bad).is_err(), "{bad}");
        }
        assert!(!CredentialUrls::parse("c=https://u:secret@x.example").unwrap_err().contains("secret"));
    }
}
