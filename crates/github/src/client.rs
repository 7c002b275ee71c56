//! The one GitHub REST client. Every API call of the action, the bot and the rollout goes through
//! [`GitHub::request`], which adds the token (as a sensitive header), bounds each attempt by a
//! timeout, retries server errors and rate limits with backoff, and puts the response body into
//! the error when a call finally fails.
//!
//! ureq is the transport (a blocking agent: connection pool, rustls with the platform's roots, the
//! `HTTPS_PROXY` / `NO_PROXY` variables, one deadline per attempt); requests are built here so the
//! retry policy and the token handling are ours, explicit and tested. The bot's flows are
//! sequential and call the blocking pipeline in between, so a blocking client is all they need.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};
use secrecy::{ExposeSecret, SecretString};
use serde::de::DeserializeOwned;
use ureq::http::Method;
use ureq::http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue};

pub(crate) const DEFAULT_API_URL: &str = "https://api.github.com";
/// GitHub rejects larger comment and PR bodies.
pub(crate) const BODY_LIMIT: usize = 65_536;

/// Where the API is and who we are. `Debug` never shows the token.
#[derive(Clone)]
pub struct Config {
    /// The REST API's base URL (`GITHUB_API_URL`; `https://api.github.com` by default).
    pub api_url: String,
    /// The token every request carries (`GITHUB_TOKEN`); None: anonymous requests.
    pub token: Option<SecretString>,
    /// How failed and rate-limited requests are retried.
    pub retry: RetryPolicy,
    /// Limit of one attempt (connect, send, read the whole body).
    pub timeout: Duration,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("api_url", &self.api_url)
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .field("retry", &self.retry)
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl Config {
    /// `GITHUB_API_URL` (default api.github.com) and `GITHUB_TOKEN`, read through `env` so callers
    /// and tests decide where variables come from.
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Config {
        let api_url = env("GITHUB_API_URL")
            .filter(|v| !v.trim().is_empty())
            .unwrap_or_else(|| DEFAULT_API_URL.to_string());
        let token = env("GITHUB_TOKEN").map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
        Config {
            api_url,
            token: token.map(SecretString::from),
            retry: RetryPolicy::default(),
            timeout: Duration::from_secs(30),
        }
    }
}

/// How often and how long to retry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Attempts in all, the first one included.
    pub attempts: u32,
    /// Wait before the second attempt; doubled for each further one.
    pub base_delay: Duration,
    /// Longest wait for one backoff step.
    pub max_delay: Duration,
    /// Longest wait for a rate limit to reset; a later reset fails the call instead.
    pub max_rate_limit_wait: Duration,
    /// Wait for a rate limit that names no time: GitHub asks for at least a minute.
    pub unhinted_rate_limit_wait: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            attempts: 4,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(30),
            max_rate_limit_wait: Duration::from_secs(300),
            unhinted_rate_limit_wait: Duration::from_secs(60),
        }
    }
}

/// What a failed attempt means for the next one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NextAttempt {
    /// Wait this long, then try again.
    RetryAfter(Duration),
    /// Do not retry: the answer is final (a 4xx) or the rate limit resets too late.
    Stop,
}

impl RetryPolicy {
    fn backoff(&self, attempt: u32) -> Duration {
        let factor = 2u32.saturating_pow(attempt.saturating_sub(1));
        self.base_delay.saturating_mul(factor).min(self.max_delay)
    }

    /// Whether and when to retry after attempt number `attempt` (1-based) answered `status`.
    /// Rate limits (429, or 403 with rate-limit headers) wait for `Retry-After` or until
    /// `x-ratelimit-reset`; server errors back off exponentially.
    pub(crate) fn after_status(
        &self,
        attempt: u32,
        status: u16,
        headers: &HeaderMap,
        now_epoch: u64,
    ) -> NextAttempt {
        if attempt >= self.attempts {
            return NextAttempt::Stop;
        }
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
        let retry_after = header("retry-after").and_then(|v| v.parse::<u64>().ok());
        let exhausted = header("x-ratelimit-remaining") == Some("0");
        let reset = header("x-ratelimit-reset").and_then(|v| v.parse::<u64>().ok());
        let rate_limited = status == 429 || (status == 403 && (retry_after.is_some() || exhausted));
        if rate_limited {
            let wait = match (retry_after, exhausted, reset) {
                (Some(seconds), _, _) => Duration::from_secs(seconds),
                (None, true, Some(reset)) => Duration::from_secs(reset.saturating_sub(now_epoch) + 1),
                _ => self.unhinted_rate_limit_wait.max(self.backoff(attempt)),
            };
            return if wait <= self.max_rate_limit_wait {
                NextAttempt::RetryAfter(wait)
            } else {
                NextAttempt::Stop
            };
        }
        if (500..600).contains(&status) {
            NextAttempt::RetryAfter(self.backoff(attempt))
        } else {
            NextAttempt::Stop
        }
    }

    /// After a transport failure or a timeout: back off like a server error.
    pub(crate) fn after_transport_error(&self, attempt: u32) -> NextAttempt {
        if attempt >= self.attempts {
            NextAttempt::Stop
        } else {
            NextAttempt::RetryAfter(self.backoff(attempt))
        }
    }
}

/// A failed API call, with what the server said.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ApiError {
    #[error("GitHub API {method} {path} answered {status}: {body}")]
    Status { method: Method, path: String, status: u16, body: String },
    #[error("GitHub API {method} {path} failed: {detail}")]
    Transport { method: Method, path: String, detail: String },
}

impl ApiError {
    pub(crate) fn status(&self) -> Option<u16> {
        match self {
            ApiError::Status { status, .. } => Some(*status),
            ApiError::Transport { .. } => None,
        }
    }
}

/// The status code of an API error anywhere in `error`'s chain.
pub(crate) fn status_of(error: &anyhow::Error) -> Option<u16> {
    error.chain().find_map(|c| c.downcast_ref::<ApiError>()).and_then(ApiError::status)
}

/// A successful response.
#[derive(Debug, Clone)]
pub(crate) struct Response {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: String,
}

impl Response {
    pub(crate) fn json<T: DeserializeOwned>(&self) -> Result<T> {
        serde_json::from_str(&self.body)
            .with_context(|| format!("unexpected response from GitHub: {}", shorten(&self.body, 300)))
    }
}

/// The most of a response body we read: the largest list pages and file contents stay far below.
const RESPONSE_LIMIT: u64 = 64 * 1024 * 1024;

/// A blocking GitHub client.
pub struct GitHub {
    agent: ureq::Agent,
    token: Option<SecretString>,
    retry: RetryPolicy,
    timeout: Duration,
    api_url: String,
}

impl std::fmt::Debug for GitHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GitHub").field("api_url", &self.api_url).finish_non_exhaustive()
    }
}

impl GitHub {
    /// A client for `config`; a token that cannot be an HTTP header value is a bad input.
    pub fn new(config: Config) -> Result<GitHub> {
        if let Some(token) = &config.token {
            // A header value must be visible ASCII; checked here so a pasted newline is a clear
            // error rather than a failure deep in the transport.
            if !token.expose_secret().bytes().all(|b| b.is_ascii_graphic()) {
                return Err(crate::error::bad_input("GITHUB_TOKEN contains characters a token cannot have"));
            }
        }
        let base = config.api_url.trim_end_matches('/').to_string();
        let parsed = ureq::http::Uri::try_from(base.as_str())
            .map_err(|e| crate::error::bad_input(format!("GITHUB_API_URL `{base}` is not a URL: {e}")))?;
        if !matches!(parsed.scheme_str(), Some("http" | "https")) || parsed.host().is_none() {
            return Err(crate::error::bad_input(format!("GITHUB_API_URL `{base}` is not an http(s) URL")));
        }
        let tls = ureq::tls::TlsConfig::builder()
            .provider(ureq::tls::TlsProvider::Rustls)
            .root_certs(ureq::tls::RootCerts::PlatformVerifier)
            .unversioned_rustls_crypto_provider(std::sync::Arc::new(rustls::crypto::ring::default_provider()))
            .build();
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            // A 4xx or 5xx is an answer the retry policy reads, not a transport error.
            .http_status_as_error(false)
            .user_agent(concat!("rewrite-assist/", env!("CARGO_PKG_VERSION")))
            .tls_config(tls)
            .build()
            .new_agent();
        Ok(GitHub { agent, token: config.token, retry: config.retry, timeout: config.timeout, api_url: base })
    }

    pub(crate) fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T> {
        self.request(Method::GET, path, None)?.json()
    }

    pub(crate) fn post<T: DeserializeOwned>(&self, path: &str, body: &serde_json::Value) -> Result<T> {
        self.request(Method::POST, path, Some(body))?.json()
    }

    pub(crate) fn patch<T: DeserializeOwned>(&self, path: &str, body: &serde_json::Value) -> Result<T> {
        self.request(Method::PATCH, path, Some(body))?.json()
    }

    /// Every item of a paginated list (`per_page=100`), following pages until a short one.
    pub(crate) fn get_all<T: DeserializeOwned>(&self, path: &str) -> Result<Vec<T>> {
        const PER_PAGE: usize = 100;
        const MAX_PAGES: usize = 50;
        let separator = if path.contains('?') { '&' } else { '?' };
        let mut all = Vec::new();
        for page in 1..=MAX_PAGES {
            let items: Vec<T> = self.get(&format!("{path}{separator}per_page={PER_PAGE}&page={page}"))?;
            let short = items.len() < PER_PAGE;
            all.extend(items);
            if short {
                break;
            }
        }
        Ok(all)
    }

    /// One API call with retries. `path` is relative to the API URL (`/repos/o/r/...`).
    pub(crate) fn request(
        &self,
        method: Method,
        path: &str,
        body: Option<&serde_json::Value>,
    ) -> Result<Response> {
        let payload = body.map(serde_json::to_string).transpose()?;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let next = match self.attempt(&method, path, payload.as_deref()) {
                Ok(response) if (200..300).contains(&response.status) => return Ok(response),
                Ok(response) => {
                    // A secondary rate limit may come as a bare 403 that only its message explains.
                    let status =
                        if response.status == 403 && response.body.to_lowercase().contains("rate limit") {
                            429
                        } else {
                            response.status
                        };
                    let next = self.retry.after_status(attempt, status, &response.headers, now());
                    if next == NextAttempt::Stop {
                        return Err(ApiError::Status {
                            method: method.clone(),
                            path: path.to_string(),
                            status: response.status,
                            body: shorten(&self.redact(&response.body), 1000),
                        }
                        .into());
                    }
                    tracing::warn!("GitHub API {method} {path} answered {}; retrying", response.status);
                    next
                }
                Err(TransportFailure(detail)) => {
                    self.after_transport_failure(attempt, &method, path, self.redact(&detail))?
                }
            };
            if let NextAttempt::RetryAfter(wait) = next {
                tracing::info!(
                    "waiting {:.1} s before attempt {} of {method} {path}",
                    wait.as_secs_f64(),
                    attempt + 1
                );
                std::thread::sleep(wait);
            }
        }
    }

    fn after_transport_failure(
        &self,
        attempt: u32,
        method: &Method,
        path: &str,
        detail: String,
    ) -> Result<NextAttempt> {
        match self.retry.after_transport_error(attempt) {
            NextAttempt::Stop => {
                Err(ApiError::Transport { method: method.clone(), path: path.to_string(), detail }.into())
            }
            next => {
                tracing::warn!("GitHub API {method} {path} failed ({detail}); retrying");
                Ok(next)
            }
        }
    }

    /// `text` with the token replaced: an error body or message may echo what we sent (a server
    /// or proxy that repeats the request's headers), and it is printed and written to logs.
    fn redact(&self, text: &str) -> String {
        match &self.token {
            Some(token) if !token.expose_secret().is_empty() => text.replace(token.expose_secret(), "***"),
            _ => text.to_string(),
        }
    }

    fn attempt(
        &self,
        method: &Method,
        path: &str,
        payload: Option<&str>,
    ) -> Result<Response, TransportFailure> {
        let mut builder = ureq::http::Request::builder()
            .method(method.clone())
            .uri(format!("{}{path}", self.api_url))
            .header(ACCEPT, "application/vnd.github+json")
            .header("x-github-api-version", "2022-11-28");
        if let Some(token) = &self.token {
            let mut value = HeaderValue::from_str(&format!("Bearer {}", token.expose_secret()))
                .map_err(|_| TransportFailure("the token is not a valid header value".to_string()))?;
            value.set_sensitive(true);
            builder = builder.header(AUTHORIZATION, value);
        }
        let building = |e: ureq::http::Error| TransportFailure(format!("building the request: {e}"));
        let answer = match payload {
            Some(json) => {
                let request =
                    builder.header(CONTENT_TYPE, "application/json").body(json).map_err(building)?;
                self.agent.run(request)
            }
            None => self.agent.run(builder.body(()).map_err(building)?),
        };
        let mut response = answer.map_err(|e| self.transport_failure(e))?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = response
            .body_mut()
            .with_config()
            .limit(RESPONSE_LIMIT)
            .read_to_string()
            .map_err(|e| self.transport_failure(e))?;
        Ok(Response { status, headers, body })
    }

    fn transport_failure(&self, error: ureq::Error) -> TransportFailure {
        match error {
            ureq::Error::Timeout(_) => {
                TransportFailure(format!("no complete answer within {} s", self.timeout.as_secs()))
            }
            other => TransportFailure(one_line(&other.to_string())),
        }
    }
}

/// A request that got no HTTP answer (or could not be sent), in one line.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct TransportFailure(String);

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

fn one_line(text: &str) -> String {
    // A transport error may carry its source's lines: keep the first.
    text.lines().next().unwrap_or_default().trim().to_string()
}

/// At most `max` bytes of `text` (on a character boundary), with an ellipsis when cut.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// Fails with a readable message when `value` is not a plausible `owner/name`.
pub(crate) fn check_slug(value: &str) -> Result<()> {
    let mut parts = value.split('/');
    let ok = matches!((parts.next(), parts.next(), parts.next()), (Some(o), Some(n), None)
        if !o.is_empty() && !n.is_empty()
            && ![o, n].iter().any(|part| part.chars().all(|c| c == '.'))
            && value.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/')));
    if !ok {
        bail!(crate::error::BadInput(format!("`{value}` is not a repository (owner/name)")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        map
    }

    const NOW: u64 = 1_700_000_000;

    #[test]
    fn server_errors_back_off_exponentially_until_the_attempts_are_spent() {
        let policy = RetryPolicy::default();
        let none = HeaderMap::new();
        assert_eq!(policy.after_status(1, 502, &none, NOW), NextAttempt::RetryAfter(Duration::from_secs(1)));
        assert_eq!(policy.after_status(2, 500, &none, NOW), NextAttempt::RetryAfter(Duration::from_secs(2)));
        assert_eq!(policy.after_status(3, 503, &none, NOW), NextAttempt::RetryAfter(Duration::from_secs(4)));
        assert_eq!(policy.after_status(4, 503, &none, NOW), NextAttempt::Stop);
        assert_eq!(policy.after_transport_error(1), NextAttempt::RetryAfter(Duration::from_secs(1)));
        assert_eq!(policy.after_transport_error(4), NextAttempt::Stop);
    }

    #[test]
    fn client_errors_are_final() {
        let policy = RetryPolicy::default();
        for status in [400, 401, 403, 404, 422] {
            assert_eq!(policy.after_status(1, status, &HeaderMap::new(), NOW), NextAttempt::Stop, "{status}");
        }
    }

    #[test]
    fn rate_limits_honour_retry_after_and_the_reset_time() {
        let policy = RetryPolicy::default();
        let secondary = headers(&[("retry-after", "7")]);
        assert_eq!(
            policy.after_status(1, 403, &secondary, NOW),
            NextAttempt::RetryAfter(Duration::from_secs(7))
        );
        assert_eq!(
            policy.after_status(1, 429, &secondary, NOW),
            NextAttempt::RetryAfter(Duration::from_secs(7))
        );
        let primary =
            headers(&[("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", &(NOW + 20).to_string())]);
        assert_eq!(
            policy.after_status(1, 403, &primary, NOW),
            NextAttempt::RetryAfter(Duration::from_secs(21))
        );
        // A reset too far away fails now rather than stalling the job for an hour.
        let far =
            headers(&[("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", &(NOW + 3600).to_string())]);
        assert_eq!(policy.after_status(1, 403, &far, NOW), NextAttempt::Stop);
        // 429 without headers still waits, a minute as GitHub asks.
        assert_eq!(
            policy.after_status(2, 429, &HeaderMap::new(), NOW),
            NextAttempt::RetryAfter(Duration::from_secs(60))
        );
    }

    #[test]
    fn the_token_never_shows_in_debug_output() {
        let config = Config::from_env(&|name| match name {
            "GITHUB_TOKEN" => Some("ghs_very_secret".into()),
            _ => None,
        });
        assert_eq!(config.api_url, DEFAULT_API_URL);
        let shown = format!("{config:?}");
        assert!(!shown.contains("ghs_very_secret"), "{shown}");
        assert!(shown.contains("<redacted>"));
    }

    #[test]
    fn slugs_and_shortening() {
        assert!(check_slug("acme/shop").is_ok() && check_slug("acme/shop.js").is_ok());
        for bad in ["acme", "acme/", "/shop", "a/b/c", "acme/sh op", "../etc", "acme/..", "./x"] {
            assert!(check_slug(bad).is_err(), "{bad}");
        }
        assert_eq!(shorten("héllo", 2), "h…");
        assert_eq!(shorten("hello", 10), "hello");
    }
}
