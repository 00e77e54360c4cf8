//! The guard row the cockpit and the watchdog share through the ledger: the deadline, what
//! happens at it, the grace period, a snooze, the deadline the provider holds, and the
//! watchdog's pid and heartbeat. The ledger stores it; this is the plain data.

use std::time::Duration;

use jiff::Timestamp;

use super::expiry::OnExpiry;

/// The row as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardState {
    pub instance: String,
    pub deadline: Option<Timestamp>,
    pub on_expiry: OnExpiry,
    pub grace: Duration,
    /// The deadline the provider holds itself, as last read back from it.
    pub provider_held: Option<Timestamp>,
    /// Idle and deadline actions wait until then.
    pub snooze_until: Option<Timestamp>,
    pub watchdog: Option<Watchdog>,
    /// Bumped by every change except heartbeats.
    pub revision: i64,
    pub updated: Timestamp,
    /// Who made the last change (`cockpit`, `watchdog`, `extend`).
    pub updated_by: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Watchdog {
    pub pid: u32,
    pub heartbeat: Timestamp,
}

impl Watchdog {
    /// Alive when its last heartbeat is younger than `stale_after`.
    pub fn alive(&self, now: Timestamp, stale_after: Duration) -> bool {
        let age = now.as_second() - self.heartbeat.as_second();
        u64::try_from(age).map_or(true, |age| age < stale_after.as_secs())
    }
}

/// The policy the cockpit, `extend` or the config sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuardPolicy {
    pub deadline: Option<Timestamp>,
    pub on_expiry: OnExpiry,
    pub grace: Duration,
}
