//! What the deadline asks for at an instant: nothing yet, the grace period (any key in the
//! cockpit or `gpumeter extend` cancels), or the policy now.

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use serde::Deserialize;

/// What happens when the release countdown reaches zero (after the grace period).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnExpiry {
    #[default]
    Alert,
    Stop,
    Release,
}

impl OnExpiry {
    /// `alert`, `stop` or `release`, as the config and JSON write it.
    pub fn as_str(self) -> &'static str {
        match self {
            OnExpiry::Alert => "alert",
            OnExpiry::Stop => "stop",
            OnExpiry::Release => "release",
        }
    }
}

/// How long after the deadline the policy waits, unless the config sets another grace.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(2 * 60);

/// Whether moving the deadline moves one at the provider too: only where the provider holds
/// one already, or the policy at expiry is release. A provider-held deadline releases the
/// instance (Alibaba and Tencent delete it), so "alert only" or "stop" must never create one.
pub fn provider_holds_after_extend(can_hold: bool, held: bool, on_expiry: OnExpiry) -> bool {
    can_hold && (held || on_expiry == OnExpiry::Release)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expiry {
    /// The deadline is ahead.
    Ahead(SignedDuration),
    /// Past the deadline, inside the grace period that ends at the instant given.
    Grace(Timestamp),
    /// Past the deadline and its grace: run the policy.
    Due,
}

/// Where `now` stands against a deadline at `at` with `grace` after it.
pub fn expiry(at: Timestamp, grace: Duration, now: Timestamp) -> Expiry {
    if now < at {
        return Expiry::Ahead(at.duration_since(now));
    }
    let grace = SignedDuration::try_from(grace).unwrap_or(SignedDuration::MAX);
    let grace_end = at.saturating_add(grace).unwrap_or(at);
    if now < grace_end {
        Expiry::Grace(grace_end)
    } else {
        Expiry::Due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: i64) -> Timestamp {
        Timestamp::from_second(s).unwrap()
    }

    #[test]
    fn ahead_then_grace_then_due() {
        let grace = Duration::from_secs(120);
        assert_eq!(
            expiry(ts(100), grace, ts(40)),
            Expiry::Ahead(SignedDuration::from_secs(60))
        );
        assert_eq!(expiry(ts(100), grace, ts(100)), Expiry::Grace(ts(220)));
        assert_eq!(expiry(ts(100), grace, ts(219)), Expiry::Grace(ts(220)));
        assert_eq!(expiry(ts(100), grace, ts(220)), Expiry::Due);
        assert_eq!(expiry(ts(100), Duration::ZERO, ts(100)), Expiry::Due);
    }
}
