//! The `[notify]` section: how alerts reach the user (terminal bell, OSC notifications,
//! webhooks), and how often.
//!
//! A webhook URL is a credential (whoever has it can post to the channel), and so is a signing
//! secret: both print redacted, in `Debug` as well as `Display`, and no error quotes them.

use std::fmt;
use std::time::Duration;

use serde::Deserialize;
use serde::de::{self, Deserializer};

use super::values;
use crate::app::Level;

/// The least serious alert that is passed on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MinLevel {
    Info,
    #[default]
    Warn,
    Error,
}

impl MinLevel {
    /// Whether an alert at `level` passes. An action the provider confirmed (`Done`) counts
    /// as a warning: a release done by the watchdog is news, not chatter.
    pub fn admits(self, level: Level) -> bool {
        let rank = match level {
            Level::Info => MinLevel::Info,
            Level::Warn | Level::Done => MinLevel::Warn,
            Level::Error => MinLevel::Error,
        };
        rank >= self
    }
}

/// Which desktop-notification escape the terminal is sent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum OscStyle {
    #[serde(rename = "off")]
    Off,
    /// `OSC 9`: iTerm2, WezTerm, kitty, Ghostty, ConEmu.
    #[default]
    #[serde(rename = "9")]
    Osc9,
    /// `OSC 777;notify`: foot, rxvt-unicode, WezTerm, Ghostty, some VTE builds.
    #[serde(rename = "777")]
    Osc777,
    /// Both; a terminal that knows both may show the alert twice.
    #[serde(rename = "both")]
    Both,
}

/// The chat service a webhook posts to, which fixes the payload's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WebhookKind {
    Slack,
    /// Feishu, or Lark outside China: the same custom-bot API.
    #[serde(alias = "lark")]
    Feishu,
    Dingtalk,
    Wecom,
    /// A plain JSON object with the alert's fields, for a receiver of your own.
    Json,
}

impl WebhookKind {
    pub fn name(self) -> &'static str {
        match self {
            WebhookKind::Slack => "slack",
            WebhookKind::Feishu => "feishu",
            WebhookKind::Dingtalk => "dingtalk",
            WebhookKind::Wecom => "wecom",
            WebhookKind::Json => "json",
        }
    }

    /// Whether the service signs requests with a shared secret.
    pub fn signs(self) -> bool {
        matches!(self, WebhookKind::Feishu | WebhookKind::Dingtalk)
    }
}

/// Why a webhook's address or secret was refused. None quotes the address: it holds the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebhookError {
    #[error("not a web address: write it like https://hooks.slack.com/…")]
    NotAnAddress,
    #[error("a webhook address starts with https:// and names a host")]
    NotWeb,
    #[error("{0} webhooks are not signed: drop `secret` (only dingtalk and feishu use one)")]
    Unsigned(&'static str),
    #[error("the secret is empty: paste it, or drop `secret`")]
    EmptySecret,
}

/// A webhook address. Prints as `https://hooks.slack.com/…`: the path and query hold the
/// token.
#[derive(Clone, PartialEq, Eq)]
pub struct WebhookUrl(reqwest::Url);

impl WebhookUrl {
    /// Only `http` and `https` addresses with a host. The error never quotes the address.
    pub fn parse(s: &str) -> Result<WebhookUrl, WebhookError> {
        let url = reqwest::Url::parse(s.trim()).map_err(|_| WebhookError::NotAnAddress)?;
        if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
            return Err(WebhookError::NotWeb);
        }
        Ok(WebhookUrl(url))
    }

    /// The full address, credentials and all: only for sending.
    pub fn expose(&self) -> &reqwest::Url {
        &self.0
    }

    /// The host (and port, when not the scheme's own), which is safe to print.
    pub fn host(&self) -> String {
        let host = self.0.host_str().unwrap_or("?");
        match self.0.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_string(),
        }
    }
}

impl fmt::Display for WebhookUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}/…", self.0.scheme(), self.host())
    }
}

impl fmt::Debug for WebhookUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WebhookUrl({self})")
    }
}

impl<'de> Deserialize<'de> for WebhookUrl {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        WebhookUrl::parse(&String::deserialize(d)?).map_err(de::Error::custom)
    }
}

/// A signing secret. Prints as `<secret>`.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: impl Into<String>) -> Secret {
        Secret(s.into())
    }

    /// The secret itself: only for signing.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<secret>")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<secret>")
    }
}

/// One `[[notify.webhook]]` entry.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "RawWebhook")]
pub struct WebhookConfig {
    pub kind: WebhookKind,
    pub url: WebhookUrl,
    /// The signing secret (DingTalk "SEC…", Feishu signature verification).
    pub secret: Option<Secret>,
    /// This hook's own threshold; `[notify] min_level` when unset.
    pub min_level: Option<MinLevel>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWebhook {
    kind: WebhookKind,
    url: WebhookUrl,
    secret: Option<Secret>,
    min_level: Option<MinLevel>,
}

impl TryFrom<RawWebhook> for WebhookConfig {
    type Error = WebhookError;

    fn try_from(raw: RawWebhook) -> Result<Self, WebhookError> {
        if raw.secret.is_some() && !raw.kind.signs() {
            return Err(WebhookError::Unsigned(raw.kind.name()));
        }
        if raw.secret.as_ref().is_some_and(|s| s.0.trim().is_empty()) {
            return Err(WebhookError::EmptySecret);
        }
        Ok(WebhookConfig {
            kind: raw.kind,
            url: raw.url,
            secret: raw.secret,
            min_level: raw.min_level,
        })
    }
}

pub const DEFAULT_REPEAT_AFTER: Duration = Duration::from_secs(15 * 60);
pub const DEFAULT_MAX_PER_MINUTE: u32 = 6;
pub const DEFAULT_WEBHOOK_TIMEOUT: Duration = Duration::from_secs(10);
pub const DEFAULT_WEBHOOK_RETRIES: u32 = 2;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NotifyConfig {
    /// Ring the terminal bell on an alert.
    pub bell: bool,
    /// Desktop notifications through the terminal (they travel over ssh).
    pub osc: OscStyle,
    /// The least serious alert that reaches the terminal and the webhooks.
    pub min_level: MinLevel,
    /// The same alert (same key) goes to a hook again only after this long.
    #[serde(deserialize_with = "values::positive_duration")]
    pub repeat_after: Duration,
    /// At most this many alerts per hook per minute.
    #[serde(deserialize_with = "positive_count")]
    pub max_per_minute: u32,
    /// How long one webhook attempt may take.
    #[serde(deserialize_with = "values::positive_duration")]
    pub timeout: Duration,
    /// Further attempts after a 429, a 5xx, a throttling answer or a timeout.
    pub retries: u32,
    pub webhook: Vec<WebhookConfig>,
}

impl Default for NotifyConfig {
    fn default() -> Self {
        NotifyConfig {
            bell: true,
            osc: OscStyle::default(),
            min_level: MinLevel::default(),
            repeat_after: DEFAULT_REPEAT_AFTER,
            max_per_minute: DEFAULT_MAX_PER_MINUTE,
            timeout: DEFAULT_WEBHOOK_TIMEOUT,
            retries: DEFAULT_WEBHOOK_RETRIES,
            webhook: Vec::new(),
        }
    }
}

fn positive_count<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    match u32::deserialize(d)? {
        0 => Err(de::Error::custom(crate::t!("err-config-hooks-zero"))),
        n => Ok(n),
    }
}

#[cfg(test)]
#[path = "notify_tests.rs"]
mod tests;
