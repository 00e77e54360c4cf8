//! The guard row the cockpit and the watchdog share through the ledger: the deadline, what
//! happens at it, the grace period, a snooze, the deadline the provider holds, and the
//! watchdog's pid, heartbeat and the idle rule it enforces. The ledger stores it; this is the plain data.

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
    /// The idle rule the row's watchdog enforces, as it published it; `None` when none does.
    pub idle: Option<IdleArmed>,
    /// Bumped by every change except heartbeats.
    pub revision: i64,
    pub updated: Timestamp,
    /// Who made the last change (`cockpit`, `watchdog`, `extend`).
    pub updated_by: String,
}

/// The idle rule a watchdog enforces and since when the machine has been idle, as it sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdleArmed {
    pub after: Duration,
    pub on_idle: OnExpiry,
    pub since: Option<Timestamp>,
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

/// The shortest interval a watchdog may check at: below it, it would spin (and zero panics).
pub const MIN_WATCHDOG_INTERVAL: Duration = Duration::from_millis(100);
/// The longest: a guard that looks less often than hourly misses a deadline by that much.
pub const MAX_WATCHDOG_INTERVAL: Duration = Duration::from_secs(3600);

/// `interval` when a watchdog may check at it, else why not, to follow the value as the user
/// wrote it (`` `0s` is under 100ms, ...``).
pub fn watchdog_interval(interval: Duration) -> Result<Duration, String> {
    if interval < MIN_WATCHDOG_INTERVAL {
        Err(format!(
            "is under {MIN_WATCHDOG_INTERVAL:?}, the shortest interval the watchdog checks at"
        ))
    } else if interval > MAX_WATCHDOG_INTERVAL {
        Err(format!(
            "is over {}h, the longest interval the watchdog checks at",
            MAX_WATCHDOG_INTERVAL.as_secs() / 3600
        ))
    } else {
        Ok(interval)
    }
}

/// A watchdog checking every `interval` whose heart has not beaten for this long is taken for
/// dead: three missed beats and five seconds for a slow disk.
pub fn stale_after(interval: Duration) -> Duration {
    interval
        .saturating_mul(3)
        .saturating_add(Duration::from_secs(5))
}

/// The policy the cockpit, `extend` or the config sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuardPolicy {
    pub deadline: Option<Timestamp>,
    pub on_expiry: OnExpiry,
    pub grace: Duration,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interval_is_held_between_its_bounds() {
        assert!(watchdog_interval(Duration::ZERO).is_err());
        assert!(watchdog_interval(Duration::from_nanos(1)).is_err());
        assert!(watchdog_interval(Duration::from_millis(99)).is_err());
        assert_eq!(
            watchdog_interval(MIN_WATCHDOG_INTERVAL),
            Ok(MIN_WATCHDOG_INTERVAL)
        );
        assert_eq!(
            watchdog_interval(Duration::from_secs(5)),
            Ok(Duration::from_secs(5))
        );
        assert!(watchdog_interval(Duration::from_secs(3601)).is_err());
        assert!(watchdog_interval(Duration::MAX).is_err());
        let e = watchdog_interval(Duration::ZERO).unwrap_err();
        assert!(e.contains("100ms"), "{e}");
    }

    #[test]
    fn staleness_never_overflows() {
        assert_eq!(stale_after(Duration::from_secs(5)), Duration::from_secs(20));
        assert_eq!(stale_after(Duration::MAX), Duration::MAX);
    }
}
