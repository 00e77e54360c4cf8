//! A platform's own release of an instance left shut down too long: AutoDL releases an
//! instance after 15 days shut down and erases its data. For these renters the danger is the
//! reverse of a forgotten release: a stopped instance is the normal state between sessions,
//! and the clock to losing its disk runs from the shutdown. Starting it resets the clock.

use jiff::{SignedDuration, Timestamp};
use serde::Serialize;

use super::{InstanceInfo, Inventory, ProviderKind};
use crate::meter::InstanceState;

/// How long before the forced release the alerts go out, the earliest first.
pub const ALERT_BEFORE: [SignedDuration; 2] = [
    SignedDuration::from_hours(3 * 24),
    SignedDuration::from_hours(24),
];

/// When a stopped instance will be released by its platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForcedRelease {
    /// When the instance was shut down, as its history says.
    pub stopped_since: Timestamp,
    /// How long the platform keeps an instance shut down.
    pub after: SignedDuration,
    /// `stopped_since + after`.
    pub at: Timestamp,
}

/// The alert due at a threshold of [`ALERT_BEFORE`], sent once per threshold and shutdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForcedReleaseAlert {
    /// The threshold crossed: within this long of the release.
    pub within: SignedDuration,
    /// The webhook's key: one per threshold and per shutdown, so a new shutdown alerts again.
    pub key: String,
}

/// How long `provider`'s platform keeps an instance shut down before it releases it: a sheet's
/// `released_after_stopped_days` where it states them, else the platform's own rule; `None`
/// where the platform keeps a stopped instance until told.
pub fn kept_stopped_for(sheet_days: Option<u32>, provider: &str) -> Option<SignedDuration> {
    match sheet_days {
        Some(days) => Some(SignedDuration::from_hours(i64::from(days) * 24)),
        None => ProviderKind::from_id(provider).and_then(ProviderKind::released_after_stopped),
    }
}

impl ForcedRelease {
    /// The forced release `instance` is heading for: `None` unless it is stopped on a platform
    /// that releases stopped instances ([`kept_stopped_for`] with the sheet's `sheet_days`).
    pub fn of(instance: &InstanceInfo, sheet_days: Option<u32>) -> Option<ForcedRelease> {
        if instance.state != InstanceState::Stopped {
            return None;
        }
        let after = kept_stopped_for(sheet_days, &instance.provider)?;
        let stopped_since = stopped_since(&instance.history, instance.created);
        Some(ForcedRelease {
            stopped_since,
            after,
            at: stopped_since.checked_add(after).ok()?,
        })
    }

    /// How long is left at `now`; negative once the release is due.
    pub fn remaining(&self, now: Timestamp) -> SignedDuration {
        self.at.duration_since(now)
    }

    /// The most urgent alert threshold crossed at `now`, if any.
    pub fn alert(&self, now: Timestamp) -> Option<ForcedReleaseAlert> {
        let left = self.remaining(now);
        let within = ALERT_BEFORE.iter().rev().find(|&&t| left <= t).copied()?;
        Some(ForcedReleaseAlert {
            within,
            key: format!(
                "forced_release:{}h:{}",
                within.as_hours(),
                self.stopped_since.as_second()
            ),
        })
    }

    /// What `status --json` and `checklist --json` carry.
    pub fn json(&self, now: Timestamp, erases: Vec<String>) -> ForcedReleaseJson {
        ForcedReleaseJson {
            at: self.at.to_string(),
            instant: self.at,
            remaining_s: self.remaining(now).as_secs(),
            stopped_since: self.stopped_since.to_string(),
            after_days: self.after.as_hours() / 24,
            erases,
        }
    }
}

/// The forced release the inventory's instance is heading for, with what it erases (the
/// instance and what goes with it). `days` is a sheet's `released_after_stopped_days`, which
/// wins over the platform's built-in rule.
pub fn forced_release_of(
    inventory: &Inventory,
    days: Option<u32>,
    now: Timestamp,
) -> Option<ForcedReleaseJson> {
    let instance = inventory.instance.as_ref()?;
    let forced = ForcedRelease::of(instance, days)?;
    Some(forced.json(now, super::erased_by_release(inventory)))
}

/// A forced release as the JSON outputs carry it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ForcedReleaseJson {
    pub at: String,
    /// `at` as an instant, for text output in the user's zone.
    #[serde(skip)]
    pub instant: Timestamp,
    /// Negative once it is due.
    pub remaining_s: i64,
    pub stopped_since: String,
    pub after_days: i64,
    /// The ids of what goes with the instance (its disks and their data).
    pub erases: Vec<String>,
}

/// When the last shutdown began: the first of the stopped readings that end the history (the
/// adapters put the platform's own shutdown time there where it reports one, as AutoDL does).
/// With no history at all, the instance's creation: the earliest it can have been.
fn stopped_since(history: &[(Timestamp, InstanceState)], created: Timestamp) -> Timestamp {
    let mut since = None;
    for &(at, state) in history.iter().rev() {
        if state != InstanceState::Stopped {
            break;
        }
        since = Some(at);
    }
    since.unwrap_or(created)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meter::BillingMode;

    fn t(hours: i64) -> Timestamp {
        Timestamp::UNIX_EPOCH + SignedDuration::from_hours(hours)
    }

    fn instance(provider: &str, history: &[(i64, InstanceState)]) -> InstanceInfo {
        InstanceInfo {
            id: "pro-1".into(),
            name: "train".into(),
            provider: provider.into(),
            region: None,
            sku: "rtx-4090".into(),
            mode: BillingMode::OnDemand,
            state: history.last().map_or(InstanceState::Running, |h| h.1),
            created: t(0),
            live_price_per_hour: None,
            history: history.iter().map(|&(h, s)| (t(h), s)).collect(),
        }
    }

    use InstanceState::{Running, Stopped};

    #[test]
    fn the_clock_runs_from_the_last_shutdown_and_a_start_resets_it() {
        let stopped = instance(
            "autodl",
            &[(0, Running), (10, Stopped), (20, Running), (30, Stopped)],
        );
        let forced = ForcedRelease::of(&stopped, None).expect("AutoDL releases a stopped instance");
        assert_eq!(forced.stopped_since, t(30));
        assert_eq!(forced.at, t(30 + 15 * 24));
        let running = instance("autodl", &[(0, Running), (10, Stopped), (20, Running)]);
        assert_eq!(ForcedRelease::of(&running, None), None);
        // Two stopped readings in a row are one shutdown, from the first.
        let twice = instance("autodl", &[(0, Running), (10, Stopped), (12, Stopped)]);
        assert_eq!(
            ForcedRelease::of(&twice, None).map(|f| f.stopped_since),
            Some(t(10))
        );
    }

    #[test]
    fn only_a_platform_that_releases_stopped_instances_counts_down_unless_the_sheet_says() {
        let aws = instance("aws", &[(0, Running), (10, Stopped)]);
        assert_eq!(ForcedRelease::of(&aws, None), None);
        let seven = SignedDuration::from_hours(7 * 24);
        let by_sheet = ForcedRelease::of(&aws, Some(7)).expect("the sheet's rule");
        assert_eq!(by_sheet.at, t(10 + 7 * 24));
        let autodl = instance("autodl", &[(0, Running), (10, Stopped)]);
        let overridden = ForcedRelease::of(&autodl, Some(7)).unwrap();
        assert_eq!(
            overridden.after, seven,
            "the sheet's key wins over the built-in rule"
        );
    }

    #[test]
    fn a_history_stopped_all_through_counts_from_its_first_reading_and_none_from_creation() {
        let always = instance("autodl", &[(5, Stopped)]);
        assert_eq!(
            ForcedRelease::of(&always, None).unwrap().stopped_since,
            t(5)
        );
        let none = InstanceInfo {
            state: Stopped,
            ..instance("autodl", &[])
        };
        assert_eq!(ForcedRelease::of(&none, None).unwrap().stopped_since, t(0));
    }

    #[test]
    fn alerts_at_three_days_and_one_day_each_keyed_by_its_shutdown() {
        let forced =
            ForcedRelease::of(&instance("autodl", &[(0, Running), (10, Stopped)]), None).unwrap();
        let at = |days_left: i64| forced.at - SignedDuration::from_hours(days_left);
        assert_eq!(forced.alert(at(3 * 24 + 1)), None);
        let three = forced.alert(at(3 * 24)).expect("three days left");
        assert_eq!(three.within, ALERT_BEFORE[0]);
        let one = forced.alert(at(23)).expect("under a day left");
        assert_eq!(one.within, ALERT_BEFORE[1]);
        assert_ne!(three.key, one.key);
        let later = ForcedRelease::of(
            &instance(
                "autodl",
                &[(0, Running), (10, Stopped), (20, Running), (30, Stopped)],
            ),
            None,
        )
        .unwrap();
        let again = later
            .alert(later.at - SignedDuration::from_hours(2))
            .unwrap();
        assert_ne!(again.key, one.key, "a new shutdown alerts again");
        assert!(
            forced
                .remaining(forced.at + SignedDuration::from_hours(1))
                .is_negative()
        );
    }
}
