//! The user's Maven settings, for both backends: the plugin's `mvn` and the Maven that builds the
//! embedded runner (whose downloads follow the same mirrors), and where their servers' credentials
//! may go: only to the URLs the settings name for a server's id, or that the user allows by name
//! ([`CredentialUrls`]). The embedded runner holds every request to that rule; for Maven itself,
//! which sends a server's credentials to any repository with its id, [`guard`] writes the settings
//! it gets.

mod credential_urls;
pub(crate) mod guard;

pub use credential_urls::{CREDENTIAL_URLS_ENV, CredentialUrls};

pub(crate) use crate::process::maven::user_settings;

/// Masks, in everything written or printed from now on, the secrets of the user's settings: each
/// server's password, passphrase and header values, each proxy's password, as Maven resolves them
/// (`${env.X}` from the environment).
pub fn remember_secrets() {
    let Some(text) = user_settings().and_then(|path| std::fs::read_to_string(path).ok()) else { return };
    let mut values = Vec::new();
    for server in crate::validation::xml::elements(&text, "servers/server") {
        values.extend(["password", "passphrase"].iter().filter_map(|k| server.get(*k).cloned()));
    }
    values.extend(
        crate::validation::xml::elements(&text, "httpHeaders/property")
            .into_iter()
            .filter_map(|p| p.get("value").cloned()),
    );
    values.extend(
        crate::validation::xml::elements(&text, "proxies/proxy")
            .into_iter()
            .filter_map(|p| p.get("password").cloned()),
    );
    for value in values {
        crate::redact::remember(&interpolate(&value));
    }
}

/// `${env.X}` replaced by the variable's value, as Maven reads settings (unset: left as written).
fn interpolate(value: &str) -> String {
    static ENV: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}").expect("a valid regex")
    });
    ENV.replace_all(value, |c: &regex::Captures<'_>| {
        std::env::var(&c[1]).unwrap_or_else(|_| c[0].to_string())
    })
    .into_owned()
}
