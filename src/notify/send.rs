//! Sending alerts to every configured webhook, each on a task of its own.
//!
//! Retries: a webhook POST is not idempotent, but a duplicate alert in a chat is harmless and
//! a lost one may cost a night of GPU time, so sends go out as `Repeat::Safe`: a timeout, a
//! 429, a 5xx or a service's throttling code is tried again (`[notify] retries` times, with
//! backoff and jitter). Any other answer is final.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use jiff::Timestamp;
use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

use super::limit::{Limited, RateLimiter};
use super::{Alert, payload, sign};
use crate::config::{MinLevel, NotifyConfig, WebhookConfig, WebhookKind};
use crate::provider::http::{Http, HttpPolicy, Repeat};

/// A webhook as it may be printed: `webhook slack #1 (hooks.slack.com)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookId {
    pub kind: WebhookKind,
    /// 1-based, in the order of the config file.
    pub number: usize,
    pub host: String,
}

impl fmt::Display for HookId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "webhook {} #{} ({})",
            self.kind.name(),
            self.number,
            self.host
        )
    }
}

/// What became of one alert at one webhook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Sent {
        hook: HookId,
        key: String,
    },
    /// Rate limited: not sent.
    Held {
        hook: HookId,
        key: String,
        why: Limited,
    },
    /// The error names the hook's host only.
    Failed {
        hook: HookId,
        key: String,
        error: String,
    },
}

impl Outcome {
    pub fn hook(&self) -> &HookId {
        match self {
            Outcome::Sent { hook, .. }
            | Outcome::Held { hook, .. }
            | Outcome::Failed { hook, .. } => hook,
        }
    }

    pub fn is_failure(&self) -> bool {
        matches!(self, Outcome::Failed { .. })
    }
}

impl Outcome {
    /// The line as the user reads it, in their language; the hook is named as configured.
    pub fn shown(&self) -> String {
        match self {
            Outcome::Sent { hook, key } => {
                crate::t!("webhook-sent", hook = hook.to_string(), key = key.as_str())
            }
            Outcome::Held { hook, key, why } => crate::t!(
                "webhook-held",
                hook = hook.to_string(),
                key = key.as_str(),
                why = why.shown()
            ),
            Outcome::Failed { hook, error, .. } => crate::t!(
                "webhook-failed",
                hook = hook.to_string(),
                error = error.as_str()
            ),
        }
    }
}

/// [`Outcome::shown`] in English.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::i18n::scoped(crate::i18n::Lang::En, || self.shown()))
    }
}

struct Hook {
    id: HookId,
    config: WebhookConfig,
}

/// Sends alerts to the configured webhooks. Cheap to share: clone it.
#[derive(Clone)]
pub struct Notifier {
    hooks: Arc<[Hook]>,
    http: Arc<Http>,
    limiter: Arc<Mutex<RateLimiter>>,
    min_level: MinLevel,
    instance: Option<String>,
    bound: Duration,
}

impl fmt::Debug for Notifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hooks: Vec<String> = self.hooks.iter().map(|h| h.id.to_string()).collect();
        f.debug_struct("Notifier")
            .field("hooks", &hooks)
            .finish_non_exhaustive()
    }
}

/// The HTTP policy `[notify]` asks for: its timeout per attempt and its retries.
pub fn policy(config: &NotifyConfig) -> HttpPolicy {
    HttpPolicy {
        timeout: config.timeout,
        connect_timeout: config.timeout.min(Duration::from_secs(5)),
        retries: config.retries,
        throttled_retries: config.retries,
        backoff_base: Duration::from_millis(500),
        backoff_max: Duration::from_secs(5),
    }
}

/// Every attempt's timeout, the backoff before each retry, and a second for the rest.
fn bound(policy: &HttpPolicy) -> Duration {
    let attempts = policy.retries.saturating_add(1);
    policy
        .timeout
        .saturating_add(policy.backoff_max)
        .saturating_mul(attempts)
        .saturating_add(Duration::from_secs(1))
}

/// The webhooks' HTTP client could not be built.
#[derive(Debug, thiserror::Error)]
#[error("webhooks: {0}")]
pub struct NoWebhooks(#[from] crate::provider::http::HttpError);

impl Notifier {
    /// `instance` names the instance in every message (its id, or a name of the user's).
    pub fn new(config: &NotifyConfig, instance: Option<String>) -> Result<Notifier, NoWebhooks> {
        Notifier::with_policy(config, instance, policy(config))
    }

    pub fn with_policy(
        config: &NotifyConfig,
        instance: Option<String>,
        policy: HttpPolicy,
    ) -> Result<Notifier, NoWebhooks> {
        let http = Http::new(policy)?;
        let hooks = config
            .webhook
            .iter()
            .enumerate()
            .map(|(i, c)| Hook {
                id: HookId {
                    kind: c.kind,
                    number: i + 1,
                    host: c.url.host(),
                },
                config: c.clone(),
            })
            .collect();
        Ok(Notifier {
            hooks,
            http: Arc::new(http),
            limiter: Arc::new(Mutex::new(RateLimiter::new(
                config.repeat_after,
                config.max_per_minute,
            ))),
            min_level: config.min_level,
            instance,
            bound: bound(&policy),
        })
    }

    /// The longest one alert's sends take: every attempt, each backoff, and a second more.
    pub fn bound(&self) -> Duration {
        self.bound
    }

    pub fn hooks(&self) -> impl Iterator<Item = &HookId> {
        self.hooks.iter().map(|h| &h.id)
    }

    /// Sends `alert` to every hook whose level admits it and whose limits allow it at `now`.
    /// Returns at once: the sends run on tasks of the current tokio runtime. Outside a runtime
    /// every send fails (and says so) rather than panicking.
    pub fn send(&self, alert: &Alert, now: Timestamp) -> Sending {
        let mut sending = Sending::default();
        let runtime = tokio::runtime::Handle::try_current();
        for (index, hook) in self.hooks.iter().enumerate() {
            let level = hook.config.min_level.unwrap_or(self.min_level);
            if !level.admits(alert.level) {
                continue;
            }
            let key = alert.key.clone();
            let admitted = self
                .limiter
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .admit(index, &key, now);
            if let Err(why) = admitted {
                let hook = hook.id.clone();
                sending.held.push(Outcome::Held { hook, key, why });
                continue;
            }
            let Ok(runtime) = &runtime else {
                sending.held.push(Outcome::Failed {
                    hook: hook.id.clone(),
                    key,
                    error: crate::t!("webhook-not-sent-no-runtime").into_owned(),
                });
                continue;
            };
            let this = self.clone();
            let body = payload::payload(hook.config.kind, alert, self.instance.as_deref());
            let task = runtime.spawn(async move { this.deliver(index, key, now, body).await });
            sending
                .tasks
                .push((hook.id.clone(), alert.key.clone(), task));
        }
        sending
    }

    async fn deliver(self, index: usize, key: String, admitted: Timestamp, body: Value) -> Outcome {
        let hook = &self.hooks[index];
        let kind = hook.config.kind;
        let result = self
            .http
            .call(
                Repeat::Safe,
                |client| request(client, &hook.config, &body),
                |r| payload::judge(kind, r),
            )
            .await
            .map_err(|e| e.to_string())
            .and_then(|response| payload::accepted(kind, &response).map_err(|e| e.to_string()));
        let id = hook.id.clone();
        match result {
            Ok(()) => Outcome::Sent { hook: id, key },
            Err(error) => {
                self.limiter
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .forget(index, &key, admitted);
                let error = scrub(&error, &hook.config);
                Outcome::Failed {
                    hook: id,
                    key,
                    error,
                }
            }
        }
    }
}

/// The POST for one attempt. Signatures carry the time of the attempt, so they are made here.
fn request(
    client: &reqwest::Client,
    hook: &WebhookConfig,
    body: &Value,
) -> reqwest::RequestBuilder {
    let mut url = hook.url.expose().clone();
    let mut body = body.clone();
    if let Some(secret) = &hook.secret {
        let now = Timestamp::now();
        match hook.kind {
            WebhookKind::Dingtalk => {
                let ms = now.as_millisecond();
                url.query_pairs_mut()
                    .append_pair("timestamp", &ms.to_string())
                    .append_pair("sign", &sign::dingtalk(secret.expose(), ms));
            }
            WebhookKind::Feishu => {
                let s = now.as_second();
                if let Value::Object(fields) = &mut body {
                    fields.insert("timestamp".into(), Value::String(s.to_string()));
                    fields.insert(
                        "sign".into(),
                        Value::String(sign::feishu(secret.expose(), s)),
                    );
                }
            }
            _ => {}
        }
    }
    client
        .post(url)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(body.to_string())
}

/// `text` without the hook's address, path, query values or secret, in case anything below
/// quoted them.
fn scrub(text: &str, hook: &WebhookConfig) -> String {
    let url = hook.url.expose();
    let mut secrets: Vec<String> = vec![url.as_str().to_string()];
    if url.path().len() > 1 {
        secrets.push(url.path().to_string());
    }
    secrets.extend(url.query_pairs().map(|(_, v)| v.into_owned()));
    secrets.extend(hook.secret.as_ref().map(|s| s.expose().to_string()));
    secrets.retain(|s| s.len() >= 4);
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    secrets.iter().fold(text.to_string(), |text, secret| {
        text.replace(secret.as_str(), "…")
    })
}

/// The sends of one alert, under way.
#[derive(Debug, Default)]
pub struct Sending {
    held: Vec<Outcome>,
    tasks: Vec<(HookId, String, JoinHandle<Outcome>)>,
}

impl Sending {
    /// Whether nothing was sent or held (no hook, or the level admitted none).
    pub fn is_empty(&self) -> bool {
        self.held.is_empty() && self.tasks.is_empty()
    }

    /// What was decided at once: the rate-limited hooks.
    pub fn held(&self) -> &[Outcome] {
        &self.held
    }

    /// Waits for every send. Each is bounded by the timeout times the attempts, plus backoff.
    pub async fn outcomes(self) -> Vec<Outcome> {
        let mut out = self.held;
        for (hook, key, task) in self.tasks {
            out.push(finished(hook, key, task).await);
        }
        out
    }

    /// Like [`Sending::outcomes`], but a send still unanswered `limit` after the call is
    /// stopped and reported as failed.
    pub async fn outcomes_within(self, limit: Duration) -> Vec<Outcome> {
        let now = tokio::time::Instant::now();
        // A limit past what the clock can count waits a year, which is as good as forever.
        let until = now
            .checked_add(limit)
            .unwrap_or(now + Duration::from_secs(365 * 86_400));
        let mut out = self.held;
        for (hook, key, mut task) in self.tasks {
            if let Ok(done) = tokio::time::timeout_at(until, &mut task).await {
                out.push(done.unwrap_or_else(|e| Outcome::Failed {
                    hook,
                    key,
                    error: crate::t!("webhook-send-stopped", error = e.to_string()),
                }));
            } else {
                task.abort();
                let error = crate::t!("webhook-no-answer", seconds = limit.as_secs());
                out.push(Outcome::Failed { hook, key, error });
            }
        }
        out
    }

    /// Hands each outcome to `tx` as it is known (the held ones at once), from a task of its
    /// own, so a loop that cannot wait reads them from its channel.
    pub fn report_to(self, tx: UnboundedSender<Outcome>) {
        for outcome in self.held {
            let _ = tx.send(outcome);
        }
        // A task exists only where a runtime does.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                for (hook, key, task) in self.tasks {
                    let _ = tx.send(finished(hook, key, task).await);
                }
            });
        }
    }
}

async fn finished(hook: HookId, key: String, task: JoinHandle<Outcome>) -> Outcome {
    task.await.unwrap_or_else(|e| Outcome::Failed {
        hook,
        key,
        error: crate::t!("webhook-send-stopped", error = e.to_string()),
    })
}
