//! `stopped_release_after`: a stopped instance still bills its disks (and often its address),
//! so a renter who stops for the night and forgets pays for weeks. The policy releases an
//! instance that has stayed stopped this long, through the deadline's path (its grace period,
//! its banner, its hook, its read-back).
//!
//! The clock runs from the shutdown: the provider's own time where it dates one
//! ([`ProviderKind::dates_shutdowns`]), else when the watchdog first saw the instance stopped,
//! which it keeps in the ledger so a restart does not reset it. A start ends the clock; the
//! next shutdown starts a new one. A platform that releases stopped instances by itself
//! (AutoDL, [`ForcedRelease`]) is the same kind of countdown: [`release_countdown`] gives the
//! earlier of the two, and says whose it is.

use jiff::{SignedDuration, Timestamp};
use serde::Serialize;

use super::{ForcedRelease, InstanceInfo, Inventory, ProviderKind};
use crate::meter::InstanceState;

/// Where the clock's start comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StoppedSince {
    /// The provider dates the shutdown.
    Provider,
    /// The watchdog first saw the instance stopped then (kept in the ledger).
    Watchdog,
}

/// The policy's clock for one shutdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoppedClock {
    pub since: Timestamp,
    pub from: StoppedSince,
    pub after: SignedDuration,
    /// `since + after`: when the release is due.
    pub at: Timestamp,
}

impl StoppedClock {
    /// The clock of `instance` under `after`: `None` unless it is stopped, and, where the
    /// provider does not date shutdowns, until the watchdog has `seen` it stopped.
    pub fn of(
        instance: &InstanceInfo,
        after: SignedDuration,
        seen: Option<Timestamp>,
    ) -> Option<StoppedClock> {
        if instance.state != InstanceState::Stopped {
            return None;
        }
        let dated =
            ProviderKind::from_id(&instance.provider).is_some_and(ProviderKind::dates_shutdowns);
        let (since, from) = if dated {
            let since = last_shutdown(&instance.history)?;
            (since, StoppedSince::Provider)
        } else {
            (seen?, StoppedSince::Watchdog)
        };
        Some(StoppedClock {
            since,
            from,
            after,
            at: since.checked_add(after).ok()?,
        })
    }

    /// How long is left at `now`; negative once the release is due.
    pub fn remaining(&self, now: Timestamp) -> SignedDuration {
        self.at.duration_since(now)
    }

    /// Whether the release is due at `now`.
    pub fn due(&self, now: Timestamp) -> bool {
        now >= self.at
    }
}

/// What the watchdog keeps as "first seen stopped" after a read of `state` at `now`, given what
/// it `kept`: the first sighting of a shutdown is kept until the instance is seen otherwise, and
/// any other state clears it (a start resets the clock).
pub fn seen_after_read(
    state: InstanceState,
    kept: Option<Timestamp>,
    now: Timestamp,
) -> Option<Timestamp> {
    match state {
        InstanceState::Stopped => Some(kept.unwrap_or(now)),
        InstanceState::Running | InstanceState::NoGpu | InstanceState::Released => None,
    }
}

/// Whose release a countdown leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReleasedBy {
    /// `stopped_release_after`, by the watchdog.
    Policy,
    /// The platform's own rule for instances left shut down (AutoDL's 15 days).
    Platform,
}

/// The release a stopped instance is heading for, the earlier of the policy's and the
/// platform's, as `status --json` carries it (`stopped_release`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReleaseCountdownJson {
    pub by: ReleasedBy,
    pub at: String,
    /// `at` as an instant, for text output in the user's zone.
    #[serde(skip)]
    pub instant: Timestamp,
    /// Negative once it is due.
    pub remaining_s: i64,
    pub stopped_since: String,
    /// Whether the provider dates the shutdown, or the watchdog saw it first then.
    pub since_from: StoppedSince,
    /// How long stopped before the release, in seconds.
    pub after_s: i64,
    /// The ids of what the release erases: the instance and what goes with it.
    pub erases: Vec<String>,
    /// The policy's release takes a final snapshot first and waits on its read-back.
    pub final_snapshot_first: bool,
}

/// The inputs of [`release_countdown`] beside the inventory.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StoppedPolicy {
    /// `stopped_release_after`; `None` when not set.
    pub after: Option<SignedDuration>,
    /// When the watchdog first saw this shutdown (the ledger's).
    pub seen: Option<Timestamp>,
    /// The sheet's `released_after_stopped_days`.
    pub sheet_days: Option<u32>,
    /// `stopped_release_snapshot`: a final snapshot before the policy's release.
    pub final_snapshot: bool,
}

/// The release the inventory's stopped instance is heading for: the policy's or the platform's,
/// whichever comes first (the platform's on a tie: it acts without asking), with what it
/// erases. `None` while the instance is not stopped, or nothing releases it.
pub fn release_countdown(
    inventory: &Inventory,
    policy: StoppedPolicy,
    now: Timestamp,
) -> Option<ReleaseCountdownJson> {
    let instance = inventory.instance.as_ref()?;
    let ours = policy
        .after
        .and_then(|after| StoppedClock::of(instance, after, policy.seen));
    let theirs = ForcedRelease::of(instance, policy.sheet_days);
    let (by, at, since, from, after) = match (ours, theirs) {
        (Some(o), Some(p)) if p.at <= o.at => platform(&p),
        (Some(o), _) => (ReleasedBy::Policy, o.at, o.since, o.from, o.after),
        (None, Some(p)) => platform(&p),
        (None, None) => return None,
    };
    Some(ReleaseCountdownJson {
        by,
        at: at.to_string(),
        instant: at,
        remaining_s: at.duration_since(now).as_secs(),
        stopped_since: since.to_string(),
        since_from: from,
        after_s: after.as_secs(),
        erases: erased_by_release(inventory),
        final_snapshot_first: by == ReleasedBy::Policy && policy.final_snapshot,
    })
}

fn platform(
    p: &ForcedRelease,
) -> (
    ReleasedBy,
    Timestamp,
    Timestamp,
    StoppedSince,
    SignedDuration,
) {
    (
        ReleasedBy::Platform,
        p.at,
        p.stopped_since,
        StoppedSince::Provider,
        p.after,
    )
}

/// The instance's id and every resource that goes with it: what a release erases.
pub fn erased_by_release(inventory: &Inventory) -> Vec<String> {
    inventory
        .instance
        .iter()
        .map(|i| i.id.clone())
        .chain(
            inventory
                .resources
                .iter()
                .filter(|r| r.deleted_with_instance)
                .map(|r| r.id.clone()),
        )
        .collect()
}

/// When the last shutdown began, as the history dates it: the first of the stopped readings
/// that end it (the provider's own time where it dates shutdowns, else the adapter's sighting).
pub fn last_shutdown(history: &[(Timestamp, InstanceState)]) -> Option<Timestamp> {
    history
        .iter()
        .rev()
        .take_while(|(_, s)| *s == InstanceState::Stopped)
        .last()
        .map(|(at, _)| *at)
}

#[cfg(test)]
#[path = "stopped_release_tests.rs"]
mod tests;
