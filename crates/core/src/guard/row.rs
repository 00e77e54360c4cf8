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
    /// Whether a watchdog holds the instance's lock, the one it takes for its whole life, as
    /// the edge that read the row found it; `None` when nobody looked (or could).
    pub lock_held: Option<bool>,
}

impl Watchdog {
    /// A row as the ledger stores it, its lock not looked at.
    pub fn beat(pid: u32, heartbeat: Timestamp) -> Self {
        Watchdog {
            pid,
            heartbeat,
            lock_held: None,
        }
    }

    /// Alive when it holds its lock, however old its heartbeat (a wall clock that stepped, a
    /// ledger another process kept locked for a minute); dead when the lock is free (its
    /// process has ended, however fresh its heartbeat). Without a look at the lock, alive when
    /// its last heartbeat is younger than `stale_after`.
    pub fn alive(&self, now: Timestamp, stale_after: Duration) -> bool {
        if let Some(held) = self.lock_held {
            return held;
        }
        let age = now.as_second() - self.heartbeat.as_second();
        u64::try_from(age).map_or(true, |age| age < stale_after.as_secs())
    }
}

/// The shortest interval a watchdog may check at: below it, it would spin (and zero panics).
pub const MIN_WATCHDOG_INTERVAL: Duration = Duration::from_millis(100);
/// The longest: a guard that looks less often than hourly misses a deadline by that much.
pub const MAX_WATCHDOG_INTERVAL: Duration = Duration::from_secs(3600);

/// Why a watchdog may not check at an interval; the text follows the value as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IntervalError {
    #[error("is under {MIN_WATCHDOG_INTERVAL:?}, the shortest interval the watchdog checks at")]
    TooShort,
    #[error("is over {}h, the longest interval the watchdog checks at", MAX_WATCHDOG_INTERVAL.as_secs() / 3600)]
    TooLong,
}

/// `interval` when a watchdog may check at it, else why not, to follow the value as the user
/// wrote it (`` `0s` is under 100ms, ...``).
pub fn watchdog_interval(interval: Duration) -> Result<Duration, IntervalError> {
    if interval < MIN_WATCHDOG_INTERVAL {
        Err(IntervalError::TooShort)
    } else if interval > MAX_WATCHDOG_INTERVAL {
        Err(IntervalError::TooLong)
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
        assert!(e.to_string().contains("100ms"), "{e}");
    }

    #[test]
    fn a_held_lock_outweighs_the_heartbeat_either_way() {
        let now = Timestamp::from_second(1_780_000_000).unwrap();
        let stale = Duration::from_secs(20);
        let old = Watchdog::beat(7, now - jiff::SignedDuration::from_hours(3));
        let fresh = Watchdog::beat(7, now);
        assert!(!old.alive(now, stale));
        assert!(fresh.alive(now, stale));
        let held = Watchdog {
            lock_held: Some(true),
            ..old
        };
        assert!(
            held.alive(now, stale),
            "a late heartbeat of a live watchdog"
        );
        let free = Watchdog {
            lock_held: Some(false),
            ..fresh
        };
        assert!(
            !free.alive(now, stale),
            "a killed watchdog's fresh heartbeat"
        );
    }

    #[test]
    fn staleness_never_overflows() {
        assert_eq!(stale_after(Duration::from_secs(5)), Duration::from_secs(20));
        assert_eq!(stale_after(Duration::MAX), Duration::MAX);
    }
}
