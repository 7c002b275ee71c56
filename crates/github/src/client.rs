//! The one GitHub REST client. Every API call of the action, the bot and the rollout goes through
//! [`GitHub::request`], which adds the token (as a sensitive header), bounds each attempt by a
//! timeout, retries server errors and rate limits with backoff, and puts the response body into
//! the error when a call finally fails.
//!
//! octocrab is the transport (connection pool, TLS, base URL joining); requests are built here so
//! the retry policy and the token handling are ours, explicit and tested.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};
use http::Method;
use http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue};
use octocrab::Octocrab;
use secrecy::{ExposeSecret, SecretString};
use serde::de::DeserializeOwned;

pub(crate) const DEFAULT_API_URL: &str = "https://api.github.com";
/// GitHub rejects larger comment and PR bodies.
pub(crate) const BODY_LIMIT: usize = 65_536;

/// Where the API is and who we are. `Debug` never shows the token.
#[derive(Clone)]
pub struct Config {
    pub api_url: String,
    pub token: Option<SecretString>,
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
pub(crate) enum Verdict {
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
    ) -> Verdict {
        if attempt >= self.attempts {
            return Verdict::Stop;
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
            return if wait <= self.max_rate_limit_wait { Verdict::RetryAfter(wait) } else { Verdict::Stop };
        }
        if (500..600).contains(&status) { Verdict::RetryAfter(self.backoff(attempt)) } else { Verdict::Stop }
    }

    /// After a transport failure or a timeout: back off like a server error.
    pub(crate) fn after_transport_error(&self, attempt: u32) -> Verdict {
        if attempt >= self.attempts { Verdict::Stop } else { Verdict::RetryAfter(self.backoff(attempt)) }
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

/// A blocking GitHub client: the bot's flows are sequential and call the (blocking) pipeline in
/// between, so the async transport runs on a small private runtime.
pub struct GitHub {
    runtime: tokio::runtime::Runtime,
    octocrab: Octocrab,
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
    pub fn new(config: Config) -> Result<GitHub> {
        if let Some(token) = &config.token {
            // A header value must be visible ASCII; checked here so a pasted newline is a clear
            // error rather than a failure deep in the transport.
            if !token.expose_secret().bytes().all(|b| b.is_ascii_graphic()) {
                return Err(crate::error::bad_input("GITHUB_TOKEN contains characters a token cannot have"));
            }
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("starting the HTTP runtime")?;
        let base = config.api_url.trim_end_matches('/').to_string();
        let octocrab = {
            // octocrab spawns its request buffer on the current runtime.
            let _guard = runtime.enter();
            Octocrab::builder()
                .base_uri(base.as_str())
                .map_err(|e| crate::error::bad_input(format!("GITHUB_API_URL `{base}` is not a URL: {e}")))?
                .set_connect_timeout(Some(config.timeout))
                .set_read_timeout(Some(config.timeout))
                .build()
                .context("building the GitHub client")?
        };
        Ok(GitHub {
            runtime,
            octocrab,
            token: config.token,
            retry: config.retry,
            timeout: config.timeout,
            api_url: base,
        })
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
            let outcome = self.runtime.block_on(async {
                tokio::time::timeout(self.timeout, self.attempt(&method, path, payload.as_deref())).await
            });
            let verdict = match outcome {
                Ok(Ok(response)) if (200..300).contains(&response.status) => return Ok(response),
                Ok(Ok(response)) => {
                    // A secondary rate limit may come as a bare 403 that only its message explains.
                    let status =
                        if response.status == 403 && response.body.to_lowercase().contains("rate limit") {
                            429
                        } else {
                            response.status
                        };
                    let verdict = self.retry.after_status(attempt, status, &response.headers, now());
                    if verdict == Verdict::Stop {
                        return Err(ApiError::Status {
                            method: method.clone(),
                            path: path.to_string(),
                            status: response.status,
                            body: shorten(&self.redact(&response.body), 1000),
                        }
                        .into());
                    }
                    tracing::warn!("GitHub API {method} {path} answered {}; retrying", response.status);
                    verdict
                }
                Ok(Err(TransportFailure(detail))) => {
                    self.transport_verdict(attempt, &method, path, self.redact(&detail))?
                }
                Err(_) => self.transport_verdict(
                    attempt,
                    &method,
                    path,
                    format!("no complete answer within {} s", self.timeout.as_secs()),
                )?,
            };
            if let Verdict::RetryAfter(wait) = verdict {
                tracing::info!(
                    "waiting {:.1} s before attempt {} of {method} {path}",
                    wait.as_secs_f64(),
                    attempt + 1
                );
                std::thread::sleep(wait);
            }
        }
    }

    fn transport_verdict(
        &self,
        attempt: u32,
        method: &Method,
        path: &str,
        detail: String,
    ) -> Result<Verdict> {
        match self.retry.after_transport_error(attempt) {
            Verdict::Stop => {
                Err(ApiError::Transport { method: method.clone(), path: path.to_string(), detail }.into())
            }
            verdict => {
                tracing::warn!("GitHub API {method} {path} failed ({detail}); retrying");
                Ok(verdict)
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

    async fn attempt(
        &self,
        method: &Method,
        path: &str,
        payload: Option<&str>,
    ) -> Result<Response, TransportFailure> {
        let mut builder = http::Request::builder()
            .method(method.clone())
            .uri(path)
            .header(ACCEPT, "application/vnd.github+json")
            .header("x-github-api-version", "2022-11-28");
        if let Some(token) = &self.token {
            let mut value = HeaderValue::from_str(&format!("Bearer {}", token.expose_secret()))
                .map_err(|_| TransportFailure("the token is not a valid header value".to_string()))?;
            value.set_sensitive(true);
            builder = builder.header(AUTHORIZATION, value);
        }
        let request = match payload {
            Some(json) => builder.header(CONTENT_TYPE, "application/json").body(json.to_string()),
            None => builder.body(String::new()),
        }
        .map_err(|e| TransportFailure(format!("building the request: {e}")))?;
        let response =
            self.octocrab.execute(request).await.map_err(|e| TransportFailure(one_line(&e.to_string())))?;
        let status = response.status();
        let headers = response.headers().clone();
        let body = self
            .octocrab
            .body_to_string(response)
            .await
            .map_err(|e| TransportFailure(one_line(&e.to_string())))?;
        Ok(Response { status: status.as_u16(), headers, body })
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
    // octocrab appends a backtrace ("Found at ...") to some errors: keep the first line only.
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
        assert_eq!(policy.after_status(1, 502, &none, NOW), Verdict::RetryAfter(Duration::from_secs(1)));
        assert_eq!(policy.after_status(2, 500, &none, NOW), Verdict::RetryAfter(Duration::from_secs(2)));
        assert_eq!(policy.after_status(3, 503, &none, NOW), Verdict::RetryAfter(Duration::from_secs(4)));
        assert_eq!(policy.after_status(4, 503, &none, NOW), Verdict::Stop);
        assert_eq!(policy.after_transport_error(1), Verdict::RetryAfter(Duration::from_secs(1)));
        assert_eq!(policy.after_transport_error(4), Verdict::Stop);
    }

    #[test]
    fn client_errors_are_final() {
        let policy = RetryPolicy::default();
        for status in [400, 401, 403, 404, 422] {
            assert_eq!(policy.after_status(1, status, &HeaderMap::new(), NOW), Verdict::Stop, "{status}");
        }
    }

    #[test]
    fn rate_limits_honour_retry_after_and_the_reset_time() {
        let policy = RetryPolicy::default();
        let secondary = headers(&[("retry-after", "7")]);
        assert_eq!(policy.after_status(1, 403, &secondary, NOW), Verdict::RetryAfter(Duration::from_secs(7)));
        assert_eq!(policy.after_status(1, 429, &secondary, NOW), Verdict::RetryAfter(Duration::from_secs(7)));
        let primary =
            headers(&[("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", &(NOW + 20).to_string())]);
        assert_eq!(policy.after_status(1, 403, &primary, NOW), Verdict::RetryAfter(Duration::from_secs(21)));
        // A reset too far away fails now rather than stalling the job for an hour.
        let far =
            headers(&[("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", &(NOW + 3600).to_string())]);
        assert_eq!(policy.after_status(1, 403, &far, NOW), Verdict::Stop);
        // 429 without headers still waits, a minute as GitHub asks.
        assert_eq!(
            policy.after_status(2, 429, &HeaderMap::new(), NOW),
            Verdict::RetryAfter(Duration::from_secs(60))
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
