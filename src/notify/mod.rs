//! Alerts that reach the user wherever they are: the terminal bell and OSC 9 / OSC 777
//! desktop notifications (escape sequences that travel through ssh to the user's own
//! terminal), and webhooks for Slack, Feishu/Lark, DingTalk, WeCom or any JSON receiver.
//!
//! The terminal half is pure: [`terminal::output`] returns the bytes to write, and the caller
//! writes them. The webhook half, [`Notifier`], sends each alert to every configured hook on
//! tasks of its own, and [`Queue`] feeds it from a bounded queue of its own, so a receiver that
//! hangs never holds up the caller; rate limits take the time as an argument.
//!
//! A webhook address is a credential. It prints as `https://host/…`, and every error is
//! scrubbed of it and of the signing secret before it leaves this module.

pub mod limit;
pub mod payload;
pub mod queue;
pub mod send;
pub mod sign;
pub mod terminal;

use jiff::Timestamp;

use crate::app::Level;

pub use limit::{Limited, RateLimiter};
pub use queue::{QUEUE_LEN, Queue, Report};
pub use send::{HookId, Notifier, Outcome, Sending};

/// Something worth telling the user about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alert {
    pub level: Level,
    /// One line: "Release in 10 minutes".
    pub title: String,
    /// The detail, which may be empty.
    pub body: String,
    pub at: Timestamp,
    /// What the alert is about, for rate limiting: the same key is not repeated within
    /// `[notify] repeat_after`. For example `deadline:10m`, `idle`, `budget:80`.
    pub key: String,
}

impl Alert {
    pub fn new(
        level: Level,
        key: impl Into<String>,
        title: impl Into<String>,
        body: impl Into<String>,
        at: Timestamp,
    ) -> Alert {
        Alert {
            level,
            title: title.into(),
            body: body.into(),
            at,
            key: key.into(),
        }
    }
}

/// The level as a lowercase word, as the JSON payload carries it.
pub fn level_name(level: Level) -> &'static str {
    match level {
        Level::Info => "info",
        Level::Warn => "warn",
        Level::Error => "error",
        Level::Done => "done",
    }
}
