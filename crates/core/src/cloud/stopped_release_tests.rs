use rust_decimal::Decimal;

use super::*;
use crate::cloud::{LinkedResource, ResourceKind};
use crate::meter::BillingMode;
use InstanceState::{Running, Stopped};

fn t(hours: i64) -> Timestamp {
    Timestamp::UNIX_EPOCH + SignedDuration::from_hours(hours)
}

fn days(n: i64) -> SignedDuration {
    SignedDuration::from_hours(n * 24)
}

fn instance(provider: &str, history: &[(i64, InstanceState)]) -> InstanceInfo {
    InstanceInfo {
        id: "i-1".into(),
        name: "train".into(),
        provider: provider.into(),
        region: None,
        sku: "a100".into(),
        mode: BillingMode::OnDemand,
        state: history.last().map_or(Running, |h| h.1),
        created: t(0),
        live_price_per_hour: None,
        history: history.iter().map(|&(h, s)| (t(h), s)).collect(),
    }
}

fn inventory(instance: InstanceInfo) -> Inventory {
    let mut root = LinkedResource::new(
        "vol-root".into(),
        "root".into(),
        ResourceKind::SystemDisk,
        Decimal::from(100),
        "in-use".into(),
        t(0),
    );
    root.deleted_with_instance = true;
    let data = LinkedResource::new(
        "vol-data".into(),
        "data".into(),
        ResourceKind::DataDisk,
        Decimal::from(500),
        "in-use".into(),
        t(0),
    );
    Inventory {
        instance: Some(instance),
        resources: vec![root, data],
        deadline: None,
    }
}

#[test]
fn a_provider_that_dates_shutdowns_starts_the_clock_at_its_date_and_a_start_resets_it() {
    let stopped = instance(
        "demo",
        &[(0, Running), (10, Stopped), (20, Running), (30, Stopped)],
    );
    let clock = StoppedClock::of(&stopped, days(3), Some(t(31))).expect("stopped");
    assert_eq!(
        clock.since,
        t(30),
        "the provider's date wins over the sighting"
    );
    assert_eq!(clock.from, StoppedSince::Provider);
    assert_eq!(clock.at, t(30 + 72));
    assert!(!clock.due(t(30 + 71)));
    assert!(clock.due(t(30 + 72)));
    assert_eq!(clock.remaining(t(30 + 70)), SignedDuration::from_hours(2));
    let started = instance("demo", &[(0, Running), (10, Stopped), (20, Running)]);
    assert_eq!(StoppedClock::of(&started, days(3), Some(t(11))), None);
}

#[test]
fn a_provider_that_does_not_date_them_counts_from_the_watchdogs_first_sighting() {
    // EC2's history ends in the time of the read that saw it stopped: never trusted.
    let stopped = instance("aws", &[(0, Running), (50, Stopped)]);
    assert_eq!(
        StoppedClock::of(&stopped, days(1), None),
        None,
        "no clock before the watchdog has seen it stopped"
    );
    let clock = StoppedClock::of(&stopped, days(1), Some(t(12))).unwrap();
    assert_eq!((clock.since, clock.from), (t(12), StoppedSince::Watchdog));
    assert_eq!(clock.at, t(36));
}

#[test]
fn the_sighting_is_kept_while_stopped_and_cleared_by_any_other_state() {
    assert_eq!(seen_after_read(Stopped, None, t(5)), Some(t(5)));
    assert_eq!(
        seen_after_read(Stopped, Some(t(5)), t(9)),
        Some(t(5)),
        "a later read (or a restarted watchdog) keeps the first sighting"
    );
    for other in [Running, InstanceState::NoGpu, InstanceState::Released] {
        assert_eq!(seen_after_read(other, Some(t(5)), t(9)), None, "{other:?}");
    }
    // Stopped again after a start: a new clock from the new sighting.
    let cleared = seen_after_read(Running, Some(t(5)), t(9));
    assert_eq!(seen_after_read(Stopped, cleared, t(12)), Some(t(12)));
}

#[test]
fn the_countdown_is_the_policys_or_the_platforms_whichever_comes_first() {
    let autodl = inventory(instance("autodl", &[(0, Running), (10, Stopped)]));
    let policy = |after| StoppedPolicy {
        after: Some(after),
        seen: None,
        sheet_days: None,
        final_snapshot: false,
    };
    let short = release_countdown(&autodl, policy(days(3)), t(20)).unwrap();
    assert_eq!(short.by, ReleasedBy::Policy);
    assert_eq!(short.instant, t(10 + 72));
    assert_eq!(short.remaining_s, 62 * 3600);
    assert_eq!(short.after_s, 3 * 86_400);
    assert_eq!(short.since_from, StoppedSince::Provider);
    assert_eq!(short.erases, ["i-1", "vol-root"], "the data disk survives");
    // AutoDL's own 15 days come before a 20-day policy: that is the countdown shown.
    assert!(!short.final_snapshot_first);
    let with_snapshot = StoppedPolicy {
        final_snapshot: true,
        ..policy(days(3))
    };
    let first = release_countdown(&autodl, with_snapshot, t(20)).unwrap();
    assert!(
        first.final_snapshot_first,
        "the policy's release waits on one"
    );
    let long = release_countdown(&autodl, policy(days(20)), t(20)).unwrap();
    assert_eq!(long.by, ReleasedBy::Platform);
    let platform = StoppedPolicy {
        final_snapshot: true,
        ..policy(days(20))
    };
    assert!(
        !release_countdown(&autodl, platform, t(20))
            .unwrap()
            .final_snapshot_first,
        "the platform's own release takes no snapshot of ours"
    );
    assert_eq!(long.instant, t(10 + 15 * 24));
    let none = StoppedPolicy::default();
    assert_eq!(
        release_countdown(&autodl, none, t(20)).map(|c| c.by),
        Some(ReleasedBy::Platform)
    );
    // A cloud that keeps stopped instances, without the policy: nothing counts down.
    let aws = inventory(instance("aws", &[(0, Running), (10, Stopped)]));
    assert_eq!(release_countdown(&aws, none, t(20)), None);
    let seen = StoppedPolicy {
        seen: Some(t(11)),
        ..policy(days(3))
    };
    let ours = release_countdown(&aws, seen, t(11 + 80)).unwrap();
    assert_eq!(ours.since_from, StoppedSince::Watchdog);
    assert_eq!(ours.remaining_s, -8 * 3600, "negative once due");
    let running = inventory(instance("aws", &[(0, Running)]));
    assert_eq!(release_countdown(&running, seen, t(20)), None);
}
