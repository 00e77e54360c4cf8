//! What an instance metadata service says about the instance it runs on: its id, region and
//! type. Each cloud's client fills it from its own paths.

use std::time::Duration;

use super::http::HttpPolicy;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineIdentity {
    pub instance_id: String,
    /// `None` when the service has no answer for it (404).
    pub region: Option<String>,
    pub instance_type: Option<String>,
}

/// For asking a metadata service whether it is there at all: one try, a second at most, since
/// off the cloud nothing answers and the program must not wait on it.
#[must_use]
pub fn probe_policy() -> HttpPolicy {
    HttpPolicy {
        timeout: Duration::from_secs(1),
        connect_timeout: Duration::from_secs(1),
        retries: 0,
        throttled_retries: 0,
        backoff_base: Duration::from_millis(100),
        backoff_max: Duration::from_millis(100),
    }
}

/// A metadata answer as a value: one clean line, `None` when empty or implausibly long.
#[must_use]
pub fn value(text: Option<String>) -> Option<String> {
    let text = gpumeter_core::text::one_line(&text?, 128);
    (!text.is_empty() && !text.ends_with('…')).then_some(text)
}
