//! The watchdog's time: the wall clock read once at an anchor, then carried forward by the
//! monotonic clock. A wall clock can step (a fresh cloud machine's first NTP sync moves it by
//! hours; so can a person with `date -s`); the monotonic clock only counts the time that
//! passed. A deadline is stored as wall time, so it is placed on the watchdog's time once,
//! when it is first seen (armed), and counted down from there: a step after that neither
//! brings it nearer nor pushes it away.
//!
//! The edge passes both readings in: the wall clock as it reads it, the monotonic clock as
//! the time since an origin of its own choosing (an `Instant` it took at start).

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

/// A wall clock that moved this much more (or less) than the monotonic clock between two
/// readings stepped. NTP slews the clock by at most 0.5 ms a second, well under this even
/// for the longest interval a watchdog checks at.
pub const STEP_TOLERANCE: Duration = Duration::from_secs(5);

/// Both clocks, read together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    pub wall: Timestamp,
    /// Time since the edge's own origin on the monotonic clock.
    pub mono: Duration,
}

/// An instant on both scales: `now` is the watchdog's time, `wall` what the wall clock said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuardTime {
    pub now: Timestamp,
    pub wall: Timestamp,
}

impl GuardTime {
    /// An instant when the wall clock has not stepped since the anchor.
    pub fn unstepped(now: Timestamp) -> Self {
        GuardTime { now, wall: now }
    }

    /// How far the wall clock is ahead of the watchdog's time (negative: behind).
    pub fn offset(&self) -> SignedDuration {
        self.wall.duration_since(self.now)
    }

    /// A wall time (written by the cockpit or `extend` on this machine's clock) on the
    /// watchdog's scale.
    pub fn from_wall(&self, wall: Timestamp) -> Timestamp {
        wall.saturating_sub(self.offset()).unwrap_or(wall)
    }

    /// A time on the watchdog's scale as the wall clock reads it now, for the ledger.
    pub fn to_wall(&self, at: Timestamp) -> Timestamp {
        at.saturating_add(self.offset()).unwrap_or(at)
    }
}

/// A step of the wall clock between two readings, beyond what the monotonic clock saw pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockStep {
    /// Positive: the wall clock jumped forward.
    pub by: SignedDuration,
    /// The wall clock at the reading before, and at this one.
    pub from: Timestamp,
    pub to: Timestamp,
}

impl std::fmt::Display for ClockStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.by.is_negative() {
            "back"
        } else {
            "forward"
        };
        // To the nearest second: the two clocks are read a moment apart.
        let secs =
            u64::try_from((self.by.as_millis().unsigned_abs() + 500) / 1000).unwrap_or(u64::MAX);
        let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
        write!(
            f,
            "the wall clock stepped {sign} by {h}h {m:02}m {s:02}s (from {} to {}); the deadline \
             keeps counting on the monotonic clock",
            self.from.strftime("%H:%M:%S UTC"),
            self.to.strftime("%H:%M:%S UTC")
        )
    }
}

/// The watchdog's clock: anchored once, at start, and never moved by the wall clock after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuardClock {
    anchor: Reading,
    last: Reading,
}

impl GuardClock {
    pub fn new(anchor: Reading) -> Self {
        GuardClock {
            anchor,
            last: anchor,
        }
    }

    /// The instant `reading` stands for, and the step the wall clock took since the last
    /// reading, when it took one. A monotonic reading older than the last counts as the last.
    pub fn read(&mut self, reading: Reading) -> (GuardTime, Option<ClockStep>) {
        let mono = reading.mono.max(self.last.mono);
        let ran = signed(mono.saturating_sub(self.last.mono));
        let walked = reading.wall.duration_since(self.last.wall);
        let drift = walked.saturating_sub(ran);
        let step = (drift.unsigned_abs() > STEP_TOLERANCE).then_some(ClockStep {
            by: drift,
            from: self.last.wall,
            to: reading.wall,
        });
        self.last = Reading {
            wall: reading.wall,
            mono,
        };
        let since = signed(mono.saturating_sub(self.anchor.mono));
        let now = self
            .anchor
            .wall
            .saturating_add(since)
            .unwrap_or(Timestamp::MAX);
        (
            GuardTime {
                now,
                wall: reading.wall,
            },
            step,
        )
    }
}

fn signed(d: Duration) -> SignedDuration {
    SignedDuration::try_from(d).unwrap_or(SignedDuration::MAX)
}

/// A deadline as written (wall time) and where it falls on the watchdog's time, fixed when it
/// was first seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArmedDeadline {
    pub written: Timestamp,
    pub at: Timestamp,
}

impl ArmedDeadline {
    /// `written` armed at `t`: as far ahead of the watchdog's time as it is of the wall clock.
    pub fn arm(written: Timestamp, t: GuardTime) -> Self {
        ArmedDeadline {
            written,
            at: t.from_wall(written),
        }
    }

    /// The same deadline still armed, or `written` armed afresh at `t` (a new or moved one).
    pub fn keep_or_arm(this: Option<Self>, written: Timestamp, t: GuardTime) -> Self {
        match this {
            Some(armed) if armed.written == written => armed,
            _ => ArmedDeadline::arm(written, t),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn ts(s: i64) -> Timestamp {
        Timestamp::from_second(1_780_000_000 + s).unwrap()
    }

    fn at(wall: i64, mono: u64) -> Reading {
        Reading {
            wall: ts(wall),
            mono: Duration::from_secs(mono),
        }
    }

    #[test]
    fn a_forward_step_is_seen_and_time_runs_on_monotonically() {
        let mut clock = GuardClock::new(at(0, 100));
        let (t, step) = clock.read(at(5, 105));
        assert_eq!((t.now, step), (ts(5), None));
        // NTP's first sync: three hours forward between two checks five seconds apart.
        let (t, step) = clock.read(at(10_810, 110));
        assert_eq!(t.now, ts(10));
        assert_eq!(t.offset(), SignedDuration::from_hours(3));
        let step = step.unwrap();
        assert_eq!(step.by, SignedDuration::from_secs(10_800));
        assert!(
            step.to_string().starts_with(
                "the wall clock stepped forward by 3h 00m 00s (from 20:26:45 UTC to 23:26:50 UTC)"
            ),
            "{step}"
        );
        // Said once: the next reading walks with the monotonic clock.
        assert_eq!(
            clock.read(at(10_815, 115)),
            (
                GuardTime {
                    now: ts(15),
                    wall: ts(10_815)
                },
                None
            )
        );
    }

    #[test]
    fn a_backward_step_is_seen_and_small_drift_is_not() {
        let mut clock = GuardClock::new(at(0, 0));
        let (t, step) = clock.read(at(-3590, 10));
        assert_eq!(t.now, ts(10));
        assert_eq!(step.unwrap().by, SignedDuration::from_secs(-3600));
        assert!(
            step.unwrap()
                .to_string()
                .contains("stepped back by 1h 00m 00s")
        );
        let nearly = ClockStep {
            by: SignedDuration::from_millis(-3_599_600),
            ..step.unwrap()
        };
        let said = nearly.to_string();
        assert!(said.contains("stepped back by 1h 00m 00s"), "{said}");
        // Five seconds of difference is within the tolerance; six is not.
        assert_eq!(clock.read(at(-3580 + 5, 20)).1, None);
        assert!(clock.read(at(-3570 + 5 + 6, 30)).1.is_some());
    }

    #[test]
    fn a_deadline_armed_before_a_step_stays_where_monotonic_time_puts_it() {
        let mut clock = GuardClock::new(at(0, 0));
        let (t, _) = clock.read(at(0, 0));
        // Written as wall time one hour ahead.
        let armed = ArmedDeadline::arm(ts(3600), t);
        assert_eq!(armed.at, ts(3600));
        let (t, _) = clock.read(at(10_800 + 60, 60));
        assert_eq!(ArmedDeadline::keep_or_arm(Some(armed), ts(3600), t), armed);
        // A deadline written after the step, in the stepped wall clock, is armed where it
        // means: 30 minutes from the reading it was written at.
        let moved = ArmedDeadline::keep_or_arm(Some(armed), ts(10_860 + 1800), t);
        assert_eq!(moved.at, ts(60 + 1800));
        assert_eq!(t.to_wall(moved.at), ts(10_860 + 1800));
    }

    proptest! {
        /// Whatever the wall clock does, the watchdog's time is the anchor plus the monotonic
        /// time since, and an armed deadline is reached after exactly the time it was ahead.
        #[test]
        fn the_wall_clock_never_moves_the_watchdogs_time(
            steps in proptest::collection::vec((-20_000i64..20_000, 0u64..400), 1..40),
            ahead in 0i64..10_000,
        ) {
            let mut clock = GuardClock::new(at(0, 0));
            let armed = ArmedDeadline::arm(ts(ahead), clock.read(at(0, 0)).0);
            let (mut wall, mut mono) = (0i64, 0u64);
            for (jump, ran) in steps {
                mono += ran;
                wall += i64::try_from(ran).unwrap() + jump;
                let (t, step) = clock.read(at(wall, mono));
                prop_assert_eq!(t.now, ts(i64::try_from(mono).unwrap()));
                prop_assert_eq!(step.is_some(), jump.unsigned_abs() > STEP_TOLERANCE.as_secs());
                prop_assert_eq!(armed.at <= t.now, i64::try_from(mono).unwrap() >= ahead);
            }
        }
    }
}
