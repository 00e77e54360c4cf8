//! HTTP for every provider adapter: rustls, a timeout on every call, and retries with
//! exponential backoff and full jitter, but only for calls that are safe to repeat (reads, and
//! writes that carry the provider's idempotency token).
//!
//! Requests are built afresh for each attempt, since signatures carry a timestamp.

use std::sync::OnceLock;
use std::time::Duration;

/// How patient a provider call is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpPolicy {
    /// The whole call, connect to last byte.
    pub timeout: Duration,
    pub connect_timeout: Duration,
    /// Attempts after the first, for calls that may be repeated.
    pub retries: u32,
    /// Attempts after the first when the provider answers that the caller is over its rate
    /// limit: apart from `retries`, since an account listed page by page meets its limit as a
    /// matter of course, not as a failure.
    pub throttled_retries: u32,
    pub backoff_base: Duration,
    pub backoff_max: Duration,
}

impl Default for HttpPolicy {
    fn default() -> Self {
        HttpPolicy {
            timeout: Duration::from_secs(20),
            connect_timeout: Duration::from_secs(5),
            retries: 4,
            throttled_retries: 4,
            backoff_base: Duration::from_millis(250),
            backoff_max: Duration::from_secs(8),
        }
    }
}

impl HttpPolicy {
    /// For reading whole accounts (`fleet`): the same timeouts and retries, with patience
    /// enough to outwait an account's rate limit through hundreds of pages: twelve throttled
    /// answers in a row, up to 8 s apart.
    pub fn listing() -> Self {
        HttpPolicy {
            throttled_retries: 12,
            ..HttpPolicy::default()
        }
    }

    /// At most `timeout` a call (`connect` of it to connect), tried `retries` more times
    /// whether it failed or was throttled.
    pub fn bounded(timeout: Duration, connect: Duration, retries: u32) -> Self {
        HttpPolicy {
            timeout,
            connect_timeout: connect,
            retries,
            throttled_retries: retries,
            ..HttpPolicy::default()
        }
    }

    /// For a metadata service on the instance itself: quick to give up, since off the
    /// instance nothing answers there.
    pub fn metadata() -> Self {
        Self::bounded(Duration::from_secs(2), Duration::from_secs(1), 1)
    }
}

/// Whether a call may be sent again after a failure that leaves its effect unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeat {
    /// A read, or a write with an idempotency token: repeating it cannot do anything twice.
    Safe,
    /// A write without a token: sent once, whatever happens.
    Once,
}

/// A response with its body read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    pub status: u16,
    pub body: String,
    /// The `Retry-After` header, when it gave a number of seconds.
    pub retry_after: Option<Duration>,
}

impl HttpResponse {
    /// An answer with no `Retry-After`.
    pub fn new(status: u16, body: impl Into<String>) -> Self {
        HttpResponse {
            status,
            body: body.into(),
            retry_after: None,
        }
    }
}

/// `Retry-After` in its delta-seconds form; the HTTP-date form is left unread.
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let value = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    value.trim().parse::<u64>().ok().map(Duration::from_secs)
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HttpError {
    #[error("{}", crate::t!("prov-http-timeout", after = format!("{:?}", .0)))]
    Timeout(Duration),
    #[error("{}", crate::t!("prov-http-connect", error = .0.as_str()))]
    Connect(String),
    #[error("{}", crate::t!("prov-http-failed", error = .0.as_str()))]
    Other(String),
}

/// What to do with an answer: keep it, or (if the call may repeat) try again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Done,
    /// A server error: worth another try after a pause.
    Transient,
    /// Over the provider's rate limit: worth another try after a pause.
    Throttled,
}

/// The usual reading of a status: 429 is throttled, 5xx transient, everything else an answer.
pub fn by_status(response: &HttpResponse) -> Verdict {
    if response.status == 429 {
        Verdict::Throttled
    } else if (500..600).contains(&response.status) {
        Verdict::Transient
    } else {
        Verdict::Done
    }
}

pub struct Http {
    client: reqwest::Client,
    policy: HttpPolicy,
}

/// rustls with the ring provider, installed once for the process.
fn install_crypto() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        // Another part of the process may have installed one already; either is fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

impl Http {
    pub fn new(policy: HttpPolicy) -> Result<Http, HttpError> {
        install_crypto();
        let client = reqwest::Client::builder()
            .timeout(policy.timeout)
            .connect_timeout(policy.connect_timeout)
            .user_agent(concat!("gpumeter/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| HttpError::Other(e.to_string()))?;
        Ok(Http { client, policy })
    }

    pub fn client(&self) -> &reqwest::Client {
        &self.client
    }

    /// Sends the request `build` makes, retrying transient failures when `repeat` allows.
    /// `judge` reads provider-specific throttling (some answer 200 or 400 with a code).
    pub async fn call<B, J>(
        &self,
        repeat: Repeat,
        build: B,
        judge: J,
    ) -> Result<HttpResponse, HttpError>
    where
        B: Fn(&reqwest::Client) -> reqwest::RequestBuilder,
        J: Fn(&HttpResponse) -> Verdict,
    {
        let (retries, throttled_retries) = match repeat {
            Repeat::Safe => (self.policy.retries, self.policy.throttled_retries),
            Repeat::Once => (0, 0),
        };
        let (mut failed, mut throttled) = (0, 0);
        for attempt in 0u32.. {
            if attempt > 0 {
                tokio::time::sleep(backoff(attempt, &self.policy, fastrand::f64())).await;
            }
            match self.send_once(build(&self.client)).await {
                Ok(response) => match judge(&response) {
                    Verdict::Throttled if throttled < throttled_retries => throttled += 1,
                    Verdict::Transient if failed < retries => failed += 1,
                    _ => return Ok(response),
                },
                Err(_) if failed < retries => failed += 1,
                Err(e) => return Err(e),
            }
        }
        Err(HttpError::Other(
            crate::t!("prov-http-no-attempt").into_owned(),
        ))
    }

    async fn send_once(&self, request: reqwest::RequestBuilder) -> Result<HttpResponse, HttpError> {
        let classify = |e: reqwest::Error| {
            if e.is_timeout() {
                HttpError::Timeout(self.policy.timeout)
            } else if e.is_connect() {
                HttpError::Connect(without_url(&e))
            } else {
                HttpError::Other(without_url(&e))
            }
        };
        let response = request.send().await.map_err(classify)?;
        let status = response.status().as_u16();
        let retry_after = retry_after(response.headers());
        let body = response.text().await.map_err(classify)?;
        Ok(HttpResponse {
            status,
            body,
            retry_after,
        })
    }
}

/// reqwest's messages include the URL, and query-signed URLs carry credentials: drop it.
fn without_url(e: &reqwest::Error) -> String {
    let mut text = e.to_string();
    if let Some(url) = e.url() {
        text = text.replace(url.as_str(), "<url>");
    }
    text
}

/// Full jitter: a uniform pause in `[0, min(max, base * 2^attempt))`; `unit` is in `[0, 1)`.
pub fn backoff(attempt: u32, policy: &HttpPolicy, unit: f64) -> Duration {
    let ceiling = policy
        .backoff_base
        .saturating_mul(1u32.checked_shl(attempt).unwrap_or(u32::MAX))
        .min(policy.backoff_max);
    ceiling.mul_f64(unit.clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_exponentially_up_to_the_cap() {
        let p = HttpPolicy::default();
        assert_eq!(
            backoff(1, &p, 0.999_999),
            Duration::from_millis(500).mul_f64(0.999_999)
        );
        assert_eq!(backoff(3, &p, 0.5), Duration::from_secs(1));
        assert_eq!(backoff(30, &p, 1.0), p.backoff_max);
        assert_eq!(backoff(2, &p, 0.0), Duration::ZERO);
    }

    #[test]
    fn throttling_and_server_errors_are_transient() {
        let r = |status| HttpResponse::new(status, "");
        assert_eq!(by_status(&r(429)), Verdict::Throttled);
        assert_eq!(by_status(&r(503)), Verdict::Transient);
        assert_eq!(by_status(&r(400)), Verdict::Done);
        assert_eq!(by_status(&r(200)), Verdict::Done);
    }

    #[test]
    fn retry_after_is_read_in_seconds_only() {
        let mut headers = reqwest::header::HeaderMap::new();
        assert_eq!(retry_after(&headers), None);
        headers.insert(reqwest::header::RETRY_AFTER, " 7 ".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(7)));
        headers.insert(
            reqwest::header::RETRY_AFTER,
            "Wed, 21 Oct 2026 07:28:00 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&headers), None);
    }
}
