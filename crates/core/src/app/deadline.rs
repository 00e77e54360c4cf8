//! The release countdown: time left, the warnings at 30, 10 and 1 minutes, and extending it.

use jiff::{SignedDuration, Timestamp};

use crate::guard::OnExpiry;

/// An extension longer than this is asked about once more: a typo (`10000h`) would otherwise
/// turn off the release for a year.
pub const ASK_ABOVE: SignedDuration = SignedDuration::from_hours(24);

/// Where extending `current` (or a new deadline from `now`) by `by` puts it: a deadline
/// already past is extended from now, so `e` always buys time.
pub fn extended_at(current: Option<Timestamp>, by: SignedDuration, now: Timestamp) -> Timestamp {
    let base = current.filter(|at| *at >= now).unwrap_or(now);
    base.saturating_add(by).unwrap_or(base)
}

/// `01:16` on `now`'s local day, `2028-02-03 01:16` on any other: a deadline read as a time
/// alone must be today's.
pub fn when(at: Timestamp, now: Timestamp, tz: &jiff::tz::TimeZone) -> String {
    let zoned = at.to_zoned_datetime(tz.clone());
    let today = now.to_zoned_datetime(tz.clone()).date() == zoned.date();
    let format = if today { "%H:%M" } else { "%Y-%m-%d %H:%M" };
    zoned.strftime(format).to_string()
}

/// Minutes before the deadline at which the cockpit warns.
pub const WARN_AT_MINUTES: [i64; 3] = [30, 10, 1];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    pub at: Timestamp,
    pub on_expiry: OnExpiry,
    /// The provider holds this deadline itself and reported it back.
    pub held_by_provider: bool,
    /// The thresholds of [`WARN_AT_MINUTES`] already announced, and whether zero was.
    warned: [bool; 3],
    expired: bool,
}

/// Something the countdown has to say at a tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Countdown {
    /// This many minutes left (one of [`WARN_AT_MINUTES`]).
    Warn(i64),
    Expired,
}

impl Deadline {
    /// A deadline at `at`; thresholds already behind us at `now` are not announced again.
    pub fn new(at: Timestamp, on_expiry: OnExpiry, now: Timestamp) -> Self {
        let mut d = Deadline {
            at,
            on_expiry,
            held_by_provider: false,
            warned: [false; 3],
            expired: false,
        };
        d.rearm(now);
        d
    }

    pub fn remaining(&self, now: Timestamp) -> SignedDuration {
        self.at.duration_since(now)
    }

    /// Moves the deadline by `by` and re-arms the warnings that are ahead again.
    pub fn extend(&mut self, by: SignedDuration, now: Timestamp) {
        self.at = extended_at(Some(self.at), by, now);
        self.rearm(now);
    }

    fn rearm(&mut self, now: Timestamp) {
        let left = self.remaining(now);
        for (i, minutes) in WARN_AT_MINUTES.iter().enumerate() {
            self.warned[i] = left <= SignedDuration::from_mins(*minutes);
        }
        self.expired = left <= SignedDuration::ZERO;
    }

    /// The warnings crossed since the last call, most urgent last.
    pub fn tick(&mut self, now: Timestamp) -> Vec<Countdown> {
        let left = self.remaining(now);
        let mut out = Vec::new();
        let mut crossed = None;
        for (i, minutes) in WARN_AT_MINUTES.iter().enumerate() {
            if !self.warned[i] && left <= SignedDuration::from_mins(*minutes) {
                self.warned[i] = true;
                crossed = Some(*minutes);
            }
        }
        // After a long pause only the most urgent threshold is worth saying.
        if let Some(minutes) = crossed
            && left > SignedDuration::ZERO
        {
            out.push(Countdown::Warn(minutes));
        }
        if !self.expired && left <= SignedDuration::ZERO {
            self.expired = true;
            out.push(Countdown::Expired);
        }
        out
    }
}

/// `h:mm:ss` for a countdown; negative durations read as overdue.
pub fn format_remaining(left: SignedDuration) -> String {
    let secs = left.as_secs().unsigned_abs();
    let sign = if left.is_negative() { "-" } else { "" };
    format!(
        "{sign}{}:{:02}:{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// The header's banner once the provider has announced a spot reclaim at `at`: time left
/// while there is some, never a negative count once the moment has passed.
pub fn spot_banner(at: Timestamp, now: Timestamp) -> String {
    let left = at.duration_since(now);
    if left <= SignedDuration::ZERO {
        return format!(" {} ", crate::t!("spot-due-now"));
    }
    let left = format_remaining(left);
    format!(" {} ", crate::t!("spot-reclaimed-in", left = left))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: i64) -> Timestamp {
        Timestamp::from_second(s).unwrap()
    }

    #[test]
    fn warns_once_at_30_10_and_1_minutes_then_expires() {
        let mut d = Deadline::new(ts(3600), OnExpiry::Alert, ts(0));
        assert!(d.tick(ts(1000)).is_empty());
        assert_eq!(d.tick(ts(1800)), vec![Countdown::Warn(30)]);
        assert!(d.tick(ts(1801)).is_empty());
        assert_eq!(d.tick(ts(3000)), vec![Countdown::Warn(10)]);
        assert_eq!(d.tick(ts(3540)), vec![Countdown::Warn(1)]);
        assert_eq!(d.tick(ts(3600)), vec![Countdown::Expired]);
        assert!(d.tick(ts(3700)).is_empty());
        assert!(d.expired);
    }

    #[test]
    fn a_late_tick_says_only_the_most_urgent_warning() {
        let mut d = Deadline::new(ts(3600), OnExpiry::Alert, ts(0));
        assert_eq!(d.tick(ts(3550)), vec![Countdown::Warn(1)]);
    }

    #[test]
    fn extending_rearms_warnings_and_an_overdue_deadline_extends_from_now() {
        let mut d = Deadline::new(ts(600), OnExpiry::Release, ts(0));
        assert_eq!(d.tick(ts(700)), vec![Countdown::Expired]);
        d.extend(SignedDuration::from_hours(1), ts(700));
        assert_eq!(d.at, ts(4300));
        assert!(!d.expired);
        assert_eq!(d.tick(ts(4300 - 1800)), vec![Countdown::Warn(30)]);
    }

    #[test]
    fn remaining_formats_as_a_clock() {
        assert_eq!(format_remaining(SignedDuration::from_secs(3723)), "1:02:03");
        assert_eq!(format_remaining(SignedDuration::from_secs(-61)), "-0:01:01");
    }

    #[test]
    fn the_spot_banner_never_counts_below_zero() {
        assert_eq!(
            spot_banner(ts(105), ts(0)),
            " ⚠ SPOT INTERRUPTION: reclaimed in 0:01:45 — checkpoint now "
        );
        for now in [100, 102, 5000] {
            let banner = spot_banner(ts(100), ts(now));
            assert!(!banner.contains('-'), "{banner}");
            assert!(banner.contains("reclaim due now"), "{banner}");
        }
    }
}
