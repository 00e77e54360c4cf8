//! An instance's life as a sequence of states, cut into intervals the meter can price.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

/// What the provider says the instance is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InstanceState {
    Running,
    Stopped,
    Released,
    /// Running without its GPUs, as card-hour platforms sell it for coding and uploads
    /// (AutoDL's 无卡模式): compute bills at the sheet's `billing.no_gpu_per_hour`, disks bill as
    /// while running, and no GPU is expected.
    NoGpu,
}

impl InstanceState {
    /// Whether the machine is up: running, with its GPUs or without.
    pub fn is_up(self) -> bool {
        matches!(self, InstanceState::Running | InstanceState::NoGpu)
    }
}

/// The instance's state changes from its creation on. Released is final: changes after it are
/// ignored. Changes given out of order are sorted; a change to the state it is already in is
/// dropped, so cutting an interval in two never changes what it costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lifecycle {
    changes: Vec<(Timestamp, InstanceState)>,
}

/// A stretch of time in one state, `[start, end)` in whole seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interval {
    pub start: i64,
    pub end: i64,
    pub state: InstanceState,
}

impl Interval {
    pub fn seconds(&self) -> i64 {
        self.end - self.start
    }
}

impl Lifecycle {
    /// An instance created at `created` in `state` (usually running).
    pub fn new(created: Timestamp, state: InstanceState) -> Self {
        Lifecycle {
            changes: vec![(created, state)],
        }
    }

    /// Builds a lifecycle from changes in any order; `None` when there are none.
    pub fn from_changes(mut changes: Vec<(Timestamp, InstanceState)>) -> Option<Self> {
        changes.sort_by_key(|(at, _)| *at);
        let (first, rest) = changes.split_first()?;
        let mut life = Lifecycle::new(first.0, first.1);
        for (at, state) in rest {
            life.push(*at, *state);
        }
        Some(life)
    }

    /// Records a state change. Earlier than the last change, or after release, it is ignored.
    pub fn push(&mut self, at: Timestamp, state: InstanceState) {
        let (last_at, last_state) = self.last();
        if at < last_at || last_state == InstanceState::Released || last_state == state {
            return;
        }
        self.changes.push((at, state));
    }

    pub fn created(&self) -> Timestamp {
        self.changes[0].0
    }

    fn last(&self) -> (Timestamp, InstanceState) {
        *self
            .changes
            .last()
            .expect("a lifecycle always has its creation")
    }

    /// The state at `at`; before creation the instance does not exist yet (`None`).
    pub fn state_at(&self, at: Timestamp) -> Option<InstanceState> {
        self.changes
            .iter()
            .take_while(|(t, _)| *t <= at)
            .last()
            .map(|(_, s)| *s)
    }

    /// When the instance was released, if it was by `at`.
    pub fn released_at(&self, at: Timestamp) -> Option<Timestamp> {
        let (t, s) = self.last();
        (s == InstanceState::Released && t <= at).then_some(t)
    }

    /// The intervals from creation up to `at` (exclusive), the last one still open at `at`.
    /// Released time is included, so callers can price what outlives the instance.
    pub fn intervals_until(&self, at: Timestamp) -> Vec<Interval> {
        let until = at.as_second();
        let mut out = Vec::with_capacity(self.changes.len());
        for (i, (start, state)) in self.changes.iter().enumerate() {
            let start = start.as_second();
            if start >= until {
                break;
            }
            let end = self
                .changes
                .get(i + 1)
                .map_or(until, |(next, _)| next.as_second().min(until));
            if end > start {
                out.push(Interval {
                    start,
                    end,
                    state: *state,
                });
            }
        }
        out
    }

    /// How many times the instance started (creation in the running state counts) by `at`.
    pub fn starts_until(&self, at: Timestamp) -> usize {
        self.changes
            .iter()
            .filter(|(t, s)| *t <= at && s.is_up())
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: i64) -> Timestamp {
        Timestamp::from_second(s).unwrap()
    }

    #[test]
    fn intervals_follow_changes_and_stop_at_the_instant() {
        let life = Lifecycle::from_changes(vec![
            (ts(100), InstanceState::Stopped),
            (ts(0), InstanceState::Running),
            (ts(150), InstanceState::Running),
        ])
        .unwrap();
        let iv = life.intervals_until(ts(200));
        assert_eq!(
            iv.iter()
                .map(|i| (i.start, i.end, i.state))
                .collect::<Vec<_>>(),
            vec![
                (0, 100, InstanceState::Running),
                (100, 150, InstanceState::Stopped),
                (150, 200, InstanceState::Running),
            ]
        );
        assert_eq!(life.starts_until(ts(200)), 2);
        assert_eq!(life.state_at(ts(120)), Some(InstanceState::Stopped));
        assert_eq!(life.state_at(ts(-1)), None);
    }

    #[test]
    fn release_is_final_and_repeats_are_dropped() {
        let mut life = Lifecycle::new(ts(0), InstanceState::Running);
        life.push(ts(10), InstanceState::Running);
        life.push(ts(20), InstanceState::Released);
        life.push(ts(30), InstanceState::Running);
        assert_eq!(life.intervals_until(ts(40)).len(), 2);
        assert_eq!(life.released_at(ts(40)), Some(ts(20)));
        assert_eq!(life.released_at(ts(19)), None);
        assert_eq!(life.starts_until(ts(40)), 1);
    }
}
