//! What each kind of webhook is sent, and how its answer is read.
//!
//! The chat services answer 200 to some failures and say so in the body: Slack with a bare
//! error word (`invalid_token`), Feishu with `{"code": non-zero}`, DingTalk and WeCom with
//! `{"errcode": non-zero}`. Those are failures here, and their throttling codes are worth a
//! retry like a 429.

use serde_json::{Value, json};

use super::terminal::sanitize;
use super::{Alert, level_name};
use crate::config::WebhookKind;
use crate::provider::http::{HttpResponse, Verdict, by_status};

/// The alert as chat text: a header line that names gpumeter (DingTalk bots with a keyword
/// filter can use "gpumeter"), the level in the user's language and the instance, then the
/// title and the body.
pub fn text(alert: &Alert, instance: Option<&str>) -> String {
    let level = crate::t!("notify-level", level = level_name(alert.level));
    let mut header = format!("[gpumeter] {level}");
    if let Some(instance) = instance {
        header.push_str(" · ");
        header.push_str(instance);
    }
    let mut out = format!("{header}\n{}", alert.title);
    if !alert.body.is_empty() {
        out.push('\n');
        out.push_str(&alert.body);
    }
    out
}

/// The JSON body for `kind`. Feishu's signature fields are added at send time.
pub fn payload(kind: WebhookKind, alert: &Alert, instance: Option<&str>) -> Value {
    match kind {
        WebhookKind::Slack => json!({ "text": text(alert, instance) }),
        WebhookKind::Feishu => json!({
            "msg_type": "text",
            "content": { "text": text(alert, instance) },
        }),
        WebhookKind::Dingtalk | WebhookKind::Wecom => json!({
            "msgtype": "text",
            "text": { "content": text(alert, instance) },
        }),
        WebhookKind::Json => json!({
            "source": "gpumeter",
            "level": level_name(alert.level),
            "title": alert.title,
            "body": alert.body,
            "at": alert.at.to_string(),
            "key": alert.key,
            "instance": instance,
        }),
    }
}

/// DingTalk 130101 "send too fast", WeCom 45009 "api freq out of limit", Feishu 11232
/// "frequency limited".
fn throttled(kind: WebhookKind, code: i64) -> bool {
    matches!(
        (kind, code),
        (WebhookKind::Dingtalk, 130_101)
            | (WebhookKind::Wecom, 45009)
            | (WebhookKind::Feishu, 11232)
    )
}

/// The service's own error code and message in a 2xx body, when it reports one.
fn body_error(kind: WebhookKind, body: &str) -> Option<(i64, String)> {
    let json: Value = serde_json::from_str(body).ok()?;
    let field = |name: &str| json.get(name).and_then(Value::as_i64).filter(|c| *c != 0);
    let message = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| json.get(*n).and_then(Value::as_str))
            .map(sanitize)
            .unwrap_or_default()
    };
    match kind {
        WebhookKind::Dingtalk | WebhookKind::Wecom => {
            field("errcode").map(|c| (c, message(&["errmsg"])))
        }
        WebhookKind::Feishu => field("code")
            .or_else(|| field("StatusCode"))
            .map(|c| (c, message(&["msg", "StatusMessage"]))),
        WebhookKind::Slack => {
            (json.get("ok") == Some(&Value::Bool(false))).then(|| (0, message(&["error"])))
        }
        WebhookKind::Json => None,
    }
}

/// Slack answers `ok`, or an error word such as `invalid_token` or `channel_is_archived`.
fn slack_error_word(body: &str) -> Option<&str> {
    let word = body.trim();
    let is_word = !word.is_empty()
        && word != "ok"
        && word.chars().all(|c| c.is_ascii_lowercase() || c == '_');
    is_word.then_some(word)
}

/// For [`crate::provider::http::Http::call`]: 429, 5xx and the services' throttling codes are
/// worth another try.
pub fn judge(kind: WebhookKind, response: &HttpResponse) -> Verdict {
    let by_status = by_status(response);
    if by_status != Verdict::Done {
        return by_status;
    }
    match body_error(kind, &response.body) {
        Some((code, _)) if (200..300).contains(&response.status) && throttled(kind, code) => {
            Verdict::Throttled
        }
        _ => Verdict::Done,
    }
}

/// Whether the service took the alert; the failure in a few words when it did not. The text
/// quotes only the service's error code and message, never the request.
pub fn accepted(kind: WebhookKind, response: &HttpResponse) -> Result<(), Refused> {
    let status = response.status;
    if !(200..300).contains(&status) {
        return Err(match body_error(kind, &response.body) {
            Some((code, message)) => Refused::StatusCoded {
                status,
                code,
                message,
            },
            None => Refused::Status(status),
        });
    }
    if kind == WebhookKind::Slack
        && let Some(word) = slack_error_word(&response.body)
    {
        return Err(Refused::Said {
            status,
            message: word.to_owned(),
        });
    }
    match body_error(kind, &response.body) {
        Some((0, message)) => Err(Refused::Said { status, message }),
        Some((code, message)) => Err(Refused::Coded {
            status,
            code,
            message,
        }),
        None => Ok(()),
    }
}

/// How a service refused an alert: its status, and its own error code and message if any.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("HTTP {0}")]
    Status(u16),
    #[error("HTTP {status}: {code} {message}")]
    StatusCoded {
        status: u16,
        code: i64,
        message: String,
    },
    #[error("HTTP {status}: {message}")]
    Said { status: u16, message: String },
    #[error("HTTP {status}: error {code} {message}")]
    Coded {
        status: u16,
        code: i64,
        message: String,
    },
}

#[cfg(test)]
#[path = "payload_tests.rs"]
mod tests;
