//! What the GPU clouds that take one key have in common (Lambda Cloud, RunPod, Vast.ai, AutoDL):
//! a snapshot of their environment variables, the key (never shown), a JSON client over the
//! shared [`Http`] layer that maps refusals to clear errors, read-back polling, and the states
//! an adapter has seen, which make the instance's history.

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Mutex;
use std::time::Duration;

use jiff::Timestamp;
use serde_json::Value;

use super::http::{Http, HttpError, HttpPolicy, Repeat, by_status};
pub use super::readback::Readback;
use super::seen::Sightings;
use super::{Action, ActionReport, Asked, ErrorKind, LinkedResource, ProviderError, ProviderKind};
use crate::meter::InstanceState;

/// Some variables of one environment, taken at one moment. Tests build it from pairs and never
/// touch the process environment. `Debug` shows the names set, never a value.
#[derive(Clone, Default)]
pub struct KeyEnv {
    vars: Vec<(String, String)>,
}

impl KeyEnv {
    /// The process environment's values of `names` (empty ones count as unset).
    pub fn from_process(names: &[&str]) -> Self {
        Self::from_pairs(super::env::process_vars(names))
    }

    pub fn from_pairs<K: AsRef<str>, V: Into<String>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        let vars = pairs
            .into_iter()
            .map(|(k, v)| (k.as_ref().to_string(), v.into()))
            .filter(|(_, v)| !v.trim().is_empty())
            .collect();
        KeyEnv { vars }
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim())
    }
}

impl fmt::Debug for KeyEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.vars.iter().map(|(k, _)| k.as_str()).collect();
        f.debug_struct("KeyEnv").field("set", &names).finish()
    }
}

/// An API key. `Debug` and every error built by [`Api`] keep it out.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }

    /// `text` with the key replaced, for anything shown or logged.
    pub fn redact(&self, text: &str) -> String {
        if self.0.len() >= 4 {
            text.replace(self.0.as_str(), "<redacted>")
        } else {
            text.to_string()
        }
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// What a 403 means at a provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Forbidden {
    /// The key is good but may not make this call (a key with restricted permissions).
    Permission,
    /// The key itself is refused: the provider answers an unknown or revoked key with 403.
    Key,
}

/// How the key goes in the `Authorization` header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// `Authorization: Bearer <key>`.
    Bearer,
    /// `Authorization: <key>`, the key alone (AutoDL's developer token).
    Bare,
}

/// Whose API it is, as its errors name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cloud {
    /// Which cloud: its id names the adapter in errors, its display name the provider.
    pub kind: ProviderKind,
    /// The variable that holds the key.
    pub key_var: &'static str,
    pub forbidden: Forbidden,
    pub scheme: Scheme,
    /// The variable that points the adapter at another endpoint (tests use a loopback
    /// server), and the endpoint without it.
    pub endpoint: (&'static str, &'static str),
}

impl Cloud {
    /// The key: the first of `from` set in `env`; with none set, the missing-key error that
    /// names them all.
    pub fn key(&self, env: &KeyEnv, from: &[&str]) -> Result<ApiKey, ProviderError> {
        from.iter()
            .find_map(|name| env.get(name))
            .map(ApiKey::new)
            .ok_or_else(|| ProviderError::missing(self.kind.id(), self.key_var, from))
    }

    /// The base URL: the endpoint variable's, else the cloud's own.
    pub fn base_url(&self, env: &KeyEnv) -> String {
        let (var, default) = self.endpoint;
        env.get(var).unwrap_or(default).to_string()
    }

    /// The settings of an adapter whose key is the first of `key_from` set in `env`, and whose
    /// instance is `given` (flags or config), else the one `id_var` names.
    pub fn settings(
        &self,
        env: &KeyEnv,
        key_from: &[&str],
        (given, id_var): (Option<String>, &str),
    ) -> Settings {
        Settings {
            key: self.key(env, key_from),
            endpoint: self.base_url(env),
            instance_id: given.or_else(|| env.get(id_var).map(str::to_string)),
        }
    }
}

/// Everything a bearer adapter needs before its first call.
#[derive(Debug, Clone)]
pub struct Settings {
    pub key: Result<ApiKey, ProviderError>,
    pub endpoint: String,
    pub instance_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    #[error("{}", key_rejected(.provider, *.status, .var))]
    Auth {
        provider: &'static str,
        status: u16,
        var: &'static str,
        call: String,
        /// The provider's own words, without the key.
        detail: String,
    },
    #[error("{call}: HTTP {status}: {detail}")]
    Status {
        call: String,
        status: u16,
        detail: String,
        /// What the answer's `Retry-After` asked for, if anything.
        retry_after: Option<Duration>,
    },
    #[error("{call}: {source}")]
    Transport { call: String, source: HttpError },
    /// A 2xx answer whose own code says the provider refused the request (AutoDL answers
    /// `200` with `code` other than `Success`).
    #[error("{call}: {code}: {detail}")]
    Refused {
        call: String,
        code: String,
        detail: String,
    },
    #[error("{}", crate::t!("prov-api-malformed-call", call = .call.as_str(), what = .what.as_str()))]
    Malformed { call: String, what: String },
    /// The provider does not list the instance and this data directory has never seen it
    /// ([`crate::provider::Seen::absent`]).
    #[error("{0}")]
    Unseen(ProviderError),
}

fn key_rejected(provider: &str, status: u16, var: &str) -> String {
    crate::t!(
        "prov-api-key-rejected",
        provider = provider,
        status = status.to_string(),
        var = var
    )
}

impl ApiError {
    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Status { status, .. } | ApiError::Auth { status, .. } => Some(*status),
            _ => None,
        }
    }

    pub fn malformed(call: &str, what: impl Into<String>) -> Self {
        ApiError::Malformed {
            call: call.to_string(),
            what: what.into(),
        }
    }
}

impl Readback {
    /// Reads the resource back after `verb` was accepted until `seen` breaks with the summary
    /// that confirms it; while the effect is not there yet, `seen` continues with what the read
    /// showed. Unconfirmed with that once the attempts run out, or at once when a read fails.
    pub async fn confirm<T, Fut>(
        &self,
        verb: &str,
        read: impl FnMut() -> Fut,
        seen: impl Fn(Option<&T>) -> ControlFlow<String, String>,
    ) -> (bool, String)
    where
        Fut: Future<Output = Result<Option<T>, ApiError>>,
    {
        // Gone only when several reads in a row agree: one empty answer proves nothing.
        let done = |found: Option<&T>| seen(found).is_break();
        match self.poll_listed(self.attempts, read, done, |_| true).await {
            Ok(found) => match seen(found.as_ref()) {
                ControlFlow::Break(summary) => (true, summary),
                ControlFlow::Continue(state) => (false, state),
            },
            Err(e) => (
                false,
                crate::t!("prov-read-back-failed", verb = verb, error = e.to_string()),
            ),
        }
    }
}

/// One provider's JSON API behind a bearer key.
pub struct Api {
    cloud: Cloud,
    base: String,
    key: ApiKey,
    http: Http,
}

impl Api {
    pub fn new(
        cloud: Cloud,
        base: &str,
        key: ApiKey,
        policy: HttpPolicy,
    ) -> Result<Api, ProviderError> {
        let http =
            Http::new(policy).map_err(|e| ProviderError::state(cloud.kind.id(), e.to_string()))?;
        Ok(Api {
            cloud,
            base: base.trim_end_matches('/').to_string(),
            key,
            http,
        })
    }

    pub fn redact(&self, text: &str) -> String {
        self.key.redact(text)
    }

    /// The endpoint the calls go to.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The core's rule for instance `id` when the provider does not list it (a 404 too, which
    /// a wrong endpoint or a proxy also answers): `Ok` when `sightings` has it, so it counts as
    /// released; else the state error naming the endpoint asked.
    /// Instance `id` was just read: where it is `listed` (in `region`, where the API says) the
    /// provider knows it; where it is not, the core's rule for an absent instance decides.
    pub fn listed_or_absent(
        &self,
        sightings: &Sightings,
        id: &str,
        listed: bool,
        region: Option<&str>,
    ) -> Result<(), ProviderError> {
        if listed {
            sightings.saw(self.cloud.kind.id(), region, id);
            Ok(())
        } else {
            self.absent(sightings, id)
        }
    }

    pub fn absent(&self, sightings: &Sightings, id: &str) -> Result<(), ProviderError> {
        sightings.absent(&Asked {
            provider: self.cloud.kind.id(),
            instance: id,
            region: None,
            endpoint: &self.base,
        })
    }

    /// `e` as the cockpit shows it: its kind from the status (and Lambda's `error.code`), and
    /// nothing of the key.
    pub fn error(&self, e: ApiError) -> ProviderError {
        let id = self.cloud.kind.id();
        match e {
            ApiError::Auth {
                status,
                call,
                detail,
                ..
            } => ProviderError::refused(id, "the API key", &[self.cloud.key_var])
                .with_call(&call)
                .with_code(&format!("HTTP {status}"))
                .with_message(&self.redact(&detail)),
            ApiError::Status {
                call,
                status,
                detail,
                retry_after,
            } => {
                let error = match status {
                    403 => ProviderError::permission(id, None),
                    429 => ProviderError::throttled(id, retry_after),
                    500.. => ProviderError::new(id, ErrorKind::Unreachable),
                    _ => ProviderError::rejected(id),
                };
                error
                    .with_call(&call)
                    .with_code(&format!("HTTP {status}"))
                    .with_message(&self.redact(&detail))
            }
            ApiError::Refused { call, code, detail } => ProviderError::rejected(id)
                .with_call(&call)
                .with_code(&code)
                .with_message(&self.redact(&detail)),
            ApiError::Transport { call, source } => {
                ProviderError::unreachable(id, self.redact(&source.to_string())).with_call(&call)
            }
            ApiError::Malformed { call, what } => ProviderError::state(
                id,
                crate::t!("prov-api-malformed", what = self.redact(&what)),
            )
            .with_call(&call),
            ApiError::Unseen(e) => e,
        }
    }

    /// The report of `action` on instance `id` from what the adapter's call and read-back came
    /// to, with the key kept out of the summary and out of a failure.
    pub fn report(
        &self,
        action: &Action,
        id: &str,
        calls: Vec<String>,
        outcome: Result<(bool, String), ApiError>,
    ) -> Result<ActionReport, ProviderError> {
        let (confirmed, summary) = outcome.map_err(|e| self.error(e))?;
        Ok(ActionReport {
            action: action.clone(),
            confirmed,
            summary: format!("{id}: {}", self.redact(&summary)),
            calls,
        })
    }

    /// `method path`, as reports and `--dry-run` list the calls.
    pub fn describe(method: &str, path: &str) -> String {
        format!("{method} {path}")
    }

    /// Sends one call; a 2xx answer's body comes back. A refused key (401, Lambda's
    /// `global/invalid-api-key`, and 403 where [`Forbidden::Key`]) names the key's variable;
    /// other answers carry the provider's own words, without the key.
    pub async fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        repeat: Repeat,
    ) -> Result<String, ApiError> {
        let call = Self::describe(method, path);
        let url = format!("{}{path}", self.base);
        let method = reqwest::Method::from_bytes(method.as_bytes())
            .map_err(|e| ApiError::malformed(&call, e.to_string()))?;
        let payload = body.map(Value::to_string);
        let response = self
            .http
            .call(
                repeat,
                |c| {
                    let r = c.request(method.clone(), &url);
                    let mut r = match self.cloud.scheme {
                        Scheme::Bearer => r.bearer_auth(&self.key.0),
                        Scheme::Bare => r.header("authorization", &self.key.0),
                    }
                    .header("accept", "application/json");
                    if let Some(p) = &payload {
                        r = r.header("content-type", "application/json").body(p.clone());
                    }
                    r
                },
                by_status,
            )
            .await
            .map_err(|source| ApiError::Transport {
                call: call.clone(),
                source,
            })?;
        let refused_key = match response.status {
            401 => true,
            403 => self.cloud.forbidden == Forbidden::Key,
            _ => false,
        } || error_code(&response.body).as_deref()
            == Some("global/invalid-api-key");
        let said = self.redact(&detail(&response.body));
        match response.status {
            200..=299 => Ok(response.body),
            status if refused_key => Err(ApiError::Auth {
                provider: self.cloud.kind.display_name(),
                status,
                var: self.cloud.key_var,
                call,
                detail: said,
            }),
            status => Err(ApiError::Status {
                call,
                status,
                detail: said,
                retry_after: response.retry_after,
            }),
        }
    }

    /// Like [`Api::send`], with the answer parsed; an empty answer (204) is `null`.
    pub async fn json(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        repeat: Repeat,
    ) -> Result<Value, ApiError> {
        let text = self.send(method, path, body, repeat).await?;
        if text.trim().is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_str(&text)
            .map_err(|e| ApiError::malformed(&Self::describe(method, path), e.to_string()))
    }

    /// What a 404 (`not_found`) for instance `id` means. A wrong endpoint or a proxy in the way
    /// answers 404 too, so the instance is gone (`Ok(None)`) only when the provider's list of
    /// instances (`list`, its rows under `key`) answers in full without it; a failed list is
    /// its error, and a list that still holds it keeps the 404.
    pub async fn gone<T>(
        &self,
        not_found: ApiError,
        list: &str,
        key: &str,
        id: &str,
    ) -> Result<Option<T>, ApiError> {
        let call = Self::describe("GET", list);
        let v = self.json("GET", list, None, Repeat::Safe).await?;
        let rows = v
            .get(key)
            .and_then(Value::as_array)
            .ok_or_else(|| ApiError::malformed(&call, no_list(key)))?;
        let listed = rows.iter().any(|row| match row.get("id") {
            Some(Value::String(s)) => s == id,
            Some(Value::Number(n)) => n.to_string() == id,
            _ => false,
        });
        if listed { Err(not_found) } else { Ok(None) }
    }
}

/// What an answer lacks when it holds no `key` list (`no data list`).
pub fn no_list(key: &str) -> String {
    crate::t!("prov-answer-no-list", key = key)
}

/// What an answer lacks when it holds no `key` (`no volumes`).
pub fn no_field(key: &str) -> String {
    crate::t!("prov-answer-no-field", key = key)
}

/// Lambda's `error.code` (`global/invalid-api-key`), from its OpenAPI error schema.
fn error_code(body: &str) -> Option<String> {
    let parsed: Value = serde_json::from_str(body).ok()?;
    parsed
        .get("error")?
        .get("code")?
        .as_str()
        .map(str::to_string)
}

/// The provider's own words from an error body: Lambda's `error.message`, RunPod's `detail`,
/// Vast's `msg`, or the start of the body.
fn detail(body: &str) -> String {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let field = |v: &Value, path: &[&str]| {
        path.iter()
            .try_fold(v, |v, k| v.get(k))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    parsed
        .as_ref()
        .and_then(|v| {
            let code = field(v, &["error", "code"]);
            field(v, &["error", "message"])
                .map(|m| code.map_or(m.clone(), |c| format!("{c}: {m}")))
                .or_else(|| field(v, &["detail"]))
                .or_else(|| field(v, &["title"]))
                .or_else(|| field(v, &["msg"]))
                .or_else(|| field(v, &["error"]))
        })
        .unwrap_or_else(|| {
            body.chars()
                .take(200)
                .collect::<String>()
                .trim()
                .to_string()
        })
}

/// The states an adapter has seen its instance in, which make [`InstanceInfo::history`].
///
/// [`InstanceInfo::history`]: super::InstanceInfo::history
#[derive(Debug, Default)]
pub struct StateLog(Mutex<Vec<(Timestamp, InstanceState)>>);

impl StateLog {
    /// Records `state` seen at `now`. The first sighting starts the history at creation,
    /// running; an instance first seen stopped stopped at `since` when the provider dates it,
    /// else at creation (running time nobody can date is not counted).
    pub fn saw(
        &self,
        created: Timestamp,
        state: InstanceState,
        since: Option<Timestamp>,
        now: Timestamp,
    ) -> Vec<(Timestamp, InstanceState)> {
        let Ok(mut log) = self.0.lock() else {
            return vec![(created, state)];
        };
        if log.is_empty() {
            log.push((created, InstanceState::Running));
            if state != InstanceState::Running {
                log.push((since.unwrap_or(created).max(created), state));
            }
        } else if log.last().is_some_and(|(_, last)| *last != state) {
            log.push((now, state));
        }
        log.clone()
    }
}

/// A number the API sends as a JSON number or a string, as an exact decimal.
pub fn decimal(v: &Value) -> Option<rust_decimal::Decimal> {
    use std::str::FromStr as _;
    let text = match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.trim().to_string(),
        _ => return None,
    };
    rust_decimal::Decimal::from_str(&text)
        .or_else(|_| rust_decimal::Decimal::from_scientific(&text))
        .ok()
}

/// A string field, or a number field as text (ids come both ways).
pub fn text(v: &Value, key: &str) -> Option<String> {
    match v.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The report of deleting one piece of account storage (a file system, a volume) whose delete
/// call `call` made (a refusal is the caller's error, before this): the account's list is read
/// through `listed` (`Some` while it still holds `resource`) until it no longer does, and the
/// delete is confirmed only then. `list` is that read as the calls name it.
pub async fn read_back_removal<Fut>(
    api: &Api,
    readback: &Readback,
    resource: &LinkedResource,
    call: String,
    list: &str,
    listed: impl FnMut() -> Fut,
) -> ActionReport
where
    Fut: Future<Output = Result<Option<()>, ApiError>>,
{
    let id = &resource.id;
    let what = resource.kind.shown();
    let provider = api.cloud.kind.display_name();
    // Not listed counts only when several reads in a row agree: one empty list proves nothing.
    let gone = |found: Option<&()>| found.is_none();
    let read = readback
        .poll_listed(readback.attempts, listed, gone, |_| true)
        .await;
    let (confirmed, summary) = match read {
        Ok(None) => (
            true,
            crate::t!("prov-removal-gone", provider = provider, what = what),
        ),
        Ok(Some(())) => (
            false,
            crate::t!(
                "prov-removal-still-listed",
                provider = provider,
                what = what
            ),
        ),
        Err(e) => (
            false,
            crate::t!("prov-removal-read-back-failed", error = e.to_string()),
        ),
    };
    ActionReport {
        action: Action::Cleanup {
            delete: vec![resource.clone()],
        },
        confirmed,
        summary: format!("{id}: {}", api.redact(&summary)),
        calls: vec![call, removal_read_back(list, id)],
    }
}

/// `call` as the read-back after an action, as reports and `--dry-run` list it.
pub fn read_back_call(call: &str) -> String {
    crate::t!("prov-call-read-back", call = call)
}

/// The read-back call of a delete, as reports and `--dry-run` list it.
pub fn removal_read_back(list: &str, id: &str) -> String {
    crate::t!("prov-call-read-back-until", call = list, id = id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_release_is_confirmed_gone_only_when_reads_in_a_row_agree() {
        let answers = std::cell::RefCell::new(vec![None, Some("running"), None, None, None]);
        let reads = std::cell::Cell::new(0);
        let read = || {
            reads.set(reads.get() + 1);
            let next = answers.borrow_mut().remove(0);
            std::future::ready(Ok::<Option<&str>, ApiError>(next))
        };
        let readback = Readback {
            attempts: 10,
            interval: std::time::Duration::ZERO,
        };
        let seen = |found: Option<&&str>| match found {
            None => ControlFlow::Break("gone".to_string()),
            Some(s) => ControlFlow::Continue((*s).to_string()),
        };
        let (confirmed, summary) = readback.confirm("release", read, seen).await;
        assert_eq!((confirmed, summary.as_str()), (true, "gone"));
        // One empty answer, then a listing, then three empty ones in a row.
        assert_eq!(reads.get(), 5);
    }

    #[test]
    fn env_and_key_debug_never_show_values() {
        let env = KeyEnv::from_pairs([("LAMBDA_API_KEY", "secret_abcdef"), ("EMPTY", " ")]);
        assert_eq!(env.get("LAMBDA_API_KEY"), Some("secret_abcdef"));
        assert_eq!(env.get("EMPTY"), None);
        let key = ApiKey::new("secret_abcdef");
        let shown = format!("{env:?} {key:?}");
        assert!(!shown.contains("secret_abcdef"), "{shown}");
        assert_eq!(key.redact("x secret_abcdef y"), "x <redacted> y");
    }

    #[test]
    fn error_details_come_from_each_providers_shape() {
        let lambda = r#"{"error":{"code":"global/object-does-not-exist","message":"gone"}}"#;
        assert_eq!(detail(lambda), "global/object-does-not-exist: gone");
        assert_eq!(
            detail(r#"{"title":"Conflict","detail":"bad state"}"#),
            "bad state"
        );
        assert_eq!(detail(r#"{"success":false,"msg":"no such"}"#), "no such");
        assert_eq!(detail("<html>oops</html>"), "<html>oops</html>");
    }

    #[test]
    fn a_first_sighting_of_a_stopped_instance_counts_no_undated_running_time() {
        let log = StateLog::default();
        let t = |s| Timestamp::from_second(s).unwrap();
        let h = log.saw(t(100), InstanceState::Stopped, None, t(500));
        assert_eq!(
            h,
            vec![
                (t(100), InstanceState::Running),
                (t(100), InstanceState::Stopped)
            ]
        );
        let h = log.saw(t(100), InstanceState::Running, None, t(600));
        assert_eq!(h.last(), Some(&(t(600), InstanceState::Running)));
        let fresh = StateLog::default();
        let h = fresh.saw(t(100), InstanceState::Stopped, Some(t(300)), t(500));
        assert_eq!(h[1], (t(300), InstanceState::Stopped));
    }

    fn api(forbidden: Forbidden) -> Api {
        let cloud = Cloud {
            kind: ProviderKind::Runpod,
            key_var: "RUNPOD_API_KEY",
            forbidden,
            scheme: Scheme::Bearer,
            endpoint: ("GPUMETER_RUNPOD_ENDPOINT", "https://api.runpod.io"),
        };
        Api::new(
            cloud,
            "http://127.0.0.1:9",
            ApiKey::new("k-secret-1"),
            HttpPolicy::default(),
        )
        .unwrap()
    }

    fn status(status: u16) -> ApiError {
        ApiError::Status {
            call: "POST /v2/pods/p/stop".into(),
            status,
            detail: "no".into(),
            retry_after: Some(Duration::from_secs(9)),
        }
    }

    #[test]
    fn each_status_has_its_kind() {
        use crate::provider::Auth;
        let api = api(Forbidden::Permission);
        let refused = api.error(ApiError::Auth {
            provider: "RunPod",
            status: 401,
            var: "RUNPOD_API_KEY",
            call: "GET /v2/pods/p".into(),
            detail: "invalid key".into(),
        });
        assert!(matches!(
            refused.kind(),
            ErrorKind::Auth(Auth::Refused { check, .. }) if *check == ["RUNPOD_API_KEY"]
        ));
        assert!(
            refused
                .to_string()
                .contains("RunPod rejected the API key (HTTP 401)"),
            "{refused}"
        );
        assert_eq!(
            api.error(status(403)).kind(),
            &ErrorKind::Permission { action: None }
        );
        assert!(
            api.error(status(403))
                .fix()
                .contains("POST /v2/pods/p/stop")
        );
        assert_eq!(
            api.error(status(429)).kind(),
            &ErrorKind::Throttled {
                retry_after: Some(Duration::from_secs(9))
            }
        );
        assert_eq!(api.error(status(503)).kind(), &ErrorKind::Unreachable);
        assert_eq!(api.error(status(400)).kind(), &ErrorKind::Rejected);
        assert_eq!(api.error(status(409)).kind(), &ErrorKind::Rejected);
        let timeout = api.error(ApiError::Transport {
            call: "GET /v2/pods/p".into(),
            source: HttpError::Timeout(Duration::from_secs(1)),
        });
        assert_eq!(timeout.kind(), &ErrorKind::Unreachable);
        let garbled = api.error(ApiError::malformed("GET /v2/pods/p", "k-secret-1 <html>"));
        assert!(matches!(garbled.kind(), ErrorKind::State { .. }));
        assert!(!garbled.to_string().contains("k-secret-1"), "{garbled}");
    }

    #[test]
    fn a_garbled_answer_and_a_refused_key_are_said_in_chinese() {
        use crate::i18n::{self, Lang};
        let api = api(Forbidden::Permission);
        let refused = ApiError::Auth {
            provider: "RunPod",
            status: 401,
            var: "RUNPOD_API_KEY",
            call: "GET /v2/pods/p".into(),
            detail: "invalid key".into(),
        };
        let (garbled, refused) = i18n::scoped(Lang::ZhCn, || {
            let garbled = api.error(ApiError::malformed("GET /v2/pods", no_list("pods")));
            (garbled.shown(), refused.to_string())
        });
        assert!(
            garbled.contains("响应不是文档所述的 JSON（没有 pods 列表）"),
            "{garbled}"
        );
        assert_eq!(
            refused,
            "RunPod 拒绝了 API 密钥（HTTP 401）：请检查 RUNPOD_API_KEY"
        );
    }

    #[test]
    fn lambdas_error_code_is_read_apart_from_its_message() {
        let body = r#"{"error":{"code":"global/invalid-api-key","message":"API key was invalid"}}"#;
        assert_eq!(error_code(body).as_deref(), Some("global/invalid-api-key"));
        assert_eq!(error_code(r#"{"detail":"x"}"#), None);
        assert_eq!(error_code("<html>"), None);
    }
}
