//! The idle rule: every GPU below a utilisation (or power-weighted load) threshold and the host
//! CPU below its threshold, without a break, for a whole window. A reading that failed counts
//! as active: gpumeter never releases an instance because it could not see it working.

use std::time::Duration;

use jiff::Timestamp;

use crate::telemetry::{GpuRound, HostSample};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IdleRule {
    /// A GPU under this utilisation (percent) counts as idle.
    pub gpu_below_pct: f64,
    /// Judge GPUs by power-weighted load (utilisation × power ÷ limit) instead of utilisation.
    pub power_weighted: bool,
    /// The host counts as idle under this CPU percentage.
    pub cpu_below_pct: f64,
    /// How long everything must stay idle before the rule fires.
    pub window: Duration,
}

impl Default for IdleRule {
    fn default() -> Self {
        IdleRule {
            gpu_below_pct: 3.0,
            power_weighted: false,
            cpu_below_pct: 5.0,
            window: Duration::from_secs(30 * 60),
        }
    }
}

/// What the rule says after a sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdleState {
    Active,
    /// Idle since this instant, not yet for the whole window.
    IdleSince(Timestamp),
    /// Idle for the whole window: this is the first sample to say so.
    Fired(Timestamp),
    /// Still idle after firing (or while snoozed): nothing new to do.
    StillIdle(Timestamp),
}

/// Follows the samples and remembers since when everything has been idle.
#[derive(Debug, Clone, PartialEq)]
pub struct IdleTracker {
    pub rule: IdleRule,
    since: Option<Timestamp>,
    fired: bool,
    snoozed_until: Option<Timestamp>,
}

impl IdleTracker {
    pub fn new(rule: IdleRule) -> Self {
        IdleTracker {
            rule,
            since: None,
            fired: false,
            snoozed_until: None,
        }
    }

    /// Since when everything has been idle, if it is now.
    pub fn idle_since(&self) -> Option<Timestamp> {
        self.since
    }

    /// Holds the rule off until `until`; it fires again after that if still idle.
    pub fn snooze(&mut self, until: Timestamp) {
        self.snoozed_until = Some(until);
        self.fired = false;
    }

    /// Whether one sample shows the machine idle; any missing reading means no.
    pub fn sample_is_idle(&self, gpus: &GpuRound, host: &HostSample) -> bool {
        let Ok(reading) = gpus else { return false };
        if reading.gpus.is_empty() {
            return false;
        }
        let gpus_idle = reading.gpus.iter().all(|g| {
            let load = if self.rule.power_weighted {
                g.power_weighted_load_pct.value().copied()
            } else {
                g.util_pct.value().map(|u| f64::from(*u))
            };
            load.is_some_and(|l| l < self.rule.gpu_below_pct)
        });
        let cpu_idle = host
            .cpu_pct
            .value()
            .is_some_and(|c| *c < self.rule.cpu_below_pct);
        gpus_idle && cpu_idle
    }

    /// Feeds one sample taken at `at`.
    pub fn observe(&mut self, at: Timestamp, idle: bool) -> IdleState {
        if !idle {
            self.since = None;
            self.fired = false;
            return IdleState::Active;
        }
        let since = *self.since.get_or_insert(at);
        let held = at.duration_since(since).unsigned_abs() >= self.rule.window;
        let snoozed = self.snoozed_until.is_some_and(|until| at < until);
        if !held {
            IdleState::IdleSince(since)
        } else if self.fired || snoozed {
            IdleState::StillIdle(since)
        } else {
            self.fired = true;
            IdleState::Fired(since)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: i64) -> Timestamp {
        Timestamp::from_second(s).unwrap()
    }

    fn tracker() -> IdleTracker {
        IdleTracker::new(IdleRule {
            window: Duration::from_secs(600),
            ..IdleRule::default()
        })
    }

    #[test]
    fn fires_once_after_the_whole_window_and_a_busy_sample_resets_it() {
        let mut t = tracker();
        assert_eq!(t.observe(ts(0), true), IdleState::IdleSince(ts(0)));
        assert_eq!(t.observe(ts(599), true), IdleState::IdleSince(ts(0)));
        assert_eq!(t.observe(ts(600), true), IdleState::Fired(ts(0)));
        assert_eq!(t.observe(ts(601), true), IdleState::StillIdle(ts(0)));
        assert_eq!(t.observe(ts(602), false), IdleState::Active);
        assert_eq!(t.observe(ts(603), true), IdleState::IdleSince(ts(603)));
        assert_eq!(t.observe(ts(1203), true), IdleState::Fired(ts(603)));
    }

    #[test]
    fn a_machine_without_gpus_by_choice_is_never_idle() {
        // The no-GPU mode of a card-hour platform: no driver, an idle CPU. With no GPU there is
        // nothing to waste, and a stop would end the coding the mode was bought for.
        use crate::telemetry::{GpuUnavailable, GpuUnavailableKind, HostSample, Metric};
        let no_gpu = Err(GpuUnavailable {
            kind: GpuUnavailableKind::LibraryNotFound,
            detail: "libnvidia-ml.so.1: cannot open shared object file".into(),
        });
        let quiet = HostSample {
            cpu_pct: Metric::Value(0.5),
            cpu_per_core_pct: Metric::Value(vec![0.5]),
            load_avg: Metric::Unavailable(crate::telemetry::Unavailable::Pending),
            mem: Metric::Unavailable(crate::telemetry::Unavailable::Pending),
            net: Vec::new(),
            disks: Vec::new(),
            egress_split_total: crate::traffic::EgressSplit::default(),
        };
        let mut t = tracker();
        assert!(!t.sample_is_idle(&no_gpu, &quiet));
        for minute in 0..120 {
            let idle = t.sample_is_idle(&no_gpu, &quiet);
            assert_eq!(t.observe(ts(minute * 60), idle), IdleState::Active);
        }
    }

    #[test]
    fn snooze_holds_the_rule_off_until_it_ends() {
        let mut t = tracker();
        t.observe(ts(0), true);
        assert_eq!(t.observe(ts(600), true), IdleState::Fired(ts(0)));
        t.snooze(ts(1800));
        assert_eq!(t.observe(ts(1000), true), IdleState::StillIdle(ts(0)));
        assert_eq!(t.observe(ts(1800), true), IdleState::Fired(ts(0)));
    }
}
