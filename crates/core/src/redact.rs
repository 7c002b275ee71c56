//! Credentials never reach what rewrite-assist writes or prints. A password can come back to us
//! in text we did not write: a repository URL with `user:password@` quoted in a rewrite-maven or
//! Maven message, a value of a variable passed with `--pass-env` echoed by a build, a `<password>`
//! of the user's settings.xml. Such text lands in `--json`, `stats.json`, `build.log`, the analyses,
//! the runner's log — and in the action's artifact, which anyone can download on a public
//! repository. So every such text passes [`redact`] where it enters (the runner's results and log,
//! the build's log) and where it leaves (stdout, stderr, the artifacts).
//!
//! [`redact`] replaces the password of every `scheme://user:password@` and every known secret value
//! (registered with [`remember`]: the values passed through, the settings' resolved passwords)
//! with `***`.

use std::borrow::Cow;
use std::sync::{LazyLock, RwLock};

use regex::Regex;

/// What replaces a secret.
pub(crate) const MASK: &str = "***";

/// Secrets shorter than this are not masked: they would mask ordinary words (and are no secret).
const MIN_SECRET_CHARS: usize = 4;

static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// `scheme://user:password@`: the password is everything up to the `@` that ends the authority.
static USER_INFO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?P<head>\b[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@'\x22<>]*:)(?P<password>[^/\s@'\x22<>]+)@")
        .expect("a valid regex")
});

/// From now on, `value` is masked wherever it appears (with its JSON-escaped form).
pub fn remember(value: &str) {
    let value = value.trim();
    if value.chars().count() < MIN_SECRET_CHARS {
        return;
    }
    let Ok(mut secrets) = SECRETS.write() else { return };
    let escaped = serde_json::to_string(value).unwrap_or_default();
    let escaped = escaped.trim_matches('"').to_string();
    for form in [value.to_string(), escaped] {
        if !secrets.contains(&form) {
            secrets.push(form);
        }
    }
    // The longest first: a secret that contains another is masked whole.
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
}

/// `text` with the passwords of URLs and every remembered secret masked.
pub fn redact(text: &str) -> Cow<'_, str> {
    let mut out = url_user_info_cow(text);
    if let Ok(secrets) = SECRETS.read() {
        for secret in secrets.iter() {
            if out.contains(secret.as_str()) {
                out = Cow::Owned(out.replace(secret.as_str(), MASK));
            }
        }
    }
    out
}

/// `text` with the password of every `scheme://user:password@` masked (the user stays: it says
/// which account, and is no secret).
pub fn url_user_info(text: &str) -> String {
    url_user_info_cow(text).into_owned()
}

fn url_user_info_cow(text: &str) -> Cow<'_, str> {
    USER_INFO.replace_all(text, |c: &regex::Captures<'_>| format!("{}{MASK}@", &c["head"]))
}

/// Rewrites the text file at `path` with the secrets masked: a build's log can quote a repository
/// URL with its password, or echo a variable passed through.
pub fn redact_file(path: &std::path::Path) {
    let Ok(bytes) = std::fs::read(path) else { return };
    let text = String::from_utf8_lossy(&bytes);
    if let Cow::Owned(masked) = redact(&text) {
        let _ = std::fs::write(path, masked);
    }
}

/// Masks every string of `value`, except the values of the fields named in `keep` (a diff: the
/// repository's own text, which computations compare).
pub fn redact_json(value: &mut serde_json::Value, keep: &[&str]) {
    match value {
        serde_json::Value::String(text) => {
            if let Cow::Owned(masked) = redact(text) {
                *text = masked;
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|item| redact_json(item, keep)),
        serde_json::Value::Object(fields) => {
            for (key, field) in fields.iter_mut() {
                if !keep.contains(&key.as_str()) {
                    redact_json(field, keep);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_in_urls_are_masked_and_users_and_hosts_stay() {
        assert_eq!(
            url_user_info(
                "Unable to download from http://deployer:s3cr%40t@nexus.acme.example:8081/repo/x.pom: 401"
            ),
            "Unable to download from http://deployer:***@nexus.acme.example:8081/repo/x.pom: 401"
        );
        assert_eq!(url_user_info("\"https://u:p4ss@h/x\""), "\"https://u:***@h/x\"");
        assert_eq!(url_user_info("<url>https://u:p4ss@h/x</url>"), "<url>https://u:***@h/x</url>");
        // No password, a port, an e-mail address: nothing to mask.
        for plain in ["https://u@h/x", "http://h:8080/x", "mail me: a@b.example", "at 10:30@home"] {
            assert_eq!(url_user_info(plain), plain);
        }
    }

    #[test]
    fn json_strings_are_masked_but_the_kept_fields() {
        let mut value = serde_json::json!({
            "warnings": ["refused https://u:pw1234@h/x"],
            "runs": [{"diff": "+url=https://u:pw1234@h/x", "error": {"message": "at https://u:pw1234@h"}}]
        });
        redact_json(&mut value, &["diff"]);
        assert_eq!(value["warnings"][0], "refused https://u:***@h/x");
        assert_eq!(value["runs"][0]["diff"], "+url=https://u:pw1234@h/x");
        assert_eq!(value["runs"][0]["error"]["message"], "at https://u:***@h");
    }

    #[test]
    fn remembered_secrets_are_masked_also_as_json_escapes_them() {
        remember("canary-\"quoted\"-4711");
        remember("abc");
        let text = r#"{"detail":"refused canary-\"quoted\"-4711"} and canary-"quoted"-4711, abc"#;
        assert_eq!(redact(text), r#"{"detail":"refused ***"} and ***, abc"#);
    }
}
