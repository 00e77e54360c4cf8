//! The guard state the cockpit and the watchdog share, and the batching writer thread.

use std::sync::mpsc;
use std::time::Duration;

use gpumeter::config::OnExpiry;
use gpumeter::ledger::{
    Change, Claim, EventLevel, EventRecord, GuardPolicy, Ledger, LedgerWriter, Notice, Watchdog,
};
use jiff::{SignedDuration, Timestamp};

fn t(s: &str) -> Timestamp {
    s.parse().unwrap()
}

#[test]
fn policy_snooze_and_provider_deadline_are_kept_per_instance() {
    let dir = tempfile::tempdir().unwrap();
    let mut ledger = Ledger::open(dir.path().join("ledger.sqlite")).unwrap();
    assert_eq!(ledger.guard("i-1").unwrap(), None);
    let at = t("2026-05-01T10:00:00Z");
    let policy = GuardPolicy {
        deadline: Some(t("2026-05-01T18:00:00Z")),
        on_expiry: OnExpiry::Release,
        grace: Duration::from_secs(300),
    };
    let by_cockpit = Change { at, by: "cockpit" };
    ledger.set_policy("i-1", &policy, by_cockpit).unwrap();
    ledger
        .set_provider_held("i-1", Some(t("2026-05-01T18:00:00Z")), by_cockpit)
        .unwrap();
    ledger
        .snooze("i-1", Some(t("2026-05-01T11:00:00Z")), by_cockpit)
        .unwrap();
    let g = ledger.guard("i-1").unwrap().unwrap();
    assert_eq!(g.deadline, policy.deadline);
    assert_eq!(g.on_expiry, OnExpiry::Release);
    assert_eq!(g.grace, Duration::from_secs(300));
    assert_eq!(g.provider_held, Some(t("2026-05-01T18:00:00Z")));
    assert_eq!(g.snooze_until, Some(t("2026-05-01T11:00:00Z")));
    assert_eq!(g.revision, 3);
    assert_eq!(g.updated_by, "cockpit");
    assert_eq!(g.watchdog, None);
    assert_eq!(ledger.guard("i-2").unwrap(), None);
}

#[test]
fn one_watchdog_at_a_time_and_a_stale_one_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.sqlite");
    let mut cockpit = Ledger::open(&path).unwrap();
    let mut watchdog = Ledger::open(&path).unwrap();
    let stale = Duration::from_secs(30);
    let t0 = t("2026-05-01T10:00:00Z");
    assert_eq!(
        watchdog.claim_watchdog("i-1", 100, t0, stale).unwrap(),
        Claim::Claimed
    );
    let later = t0 + SignedDuration::from_secs(10);
    let second = cockpit.claim_watchdog("i-1", 200, later, stale).unwrap();
    let holder = Watchdog {
        pid: 100,
        heartbeat: t0,
    };
    assert_eq!(second, Claim::HeldBy(holder));
    // The cockpit moving the deadline does not touch the heartbeat, and the reverse.
    let policy = GuardPolicy {
        deadline: Some(t("2026-05-01T12:00:00Z")),
        on_expiry: OnExpiry::Stop,
        grace: Duration::from_secs(120),
    };
    let change = Change {
        at: later,
        by: "extend",
    };
    cockpit.set_policy("i-1", &policy, change).unwrap();
    let revision = cockpit.guard("i-1").unwrap().unwrap().revision;
    assert!(watchdog.heartbeat("i-1", 100, later).unwrap());
    let g = cockpit.guard("i-1").unwrap().unwrap();
    assert_eq!(g.revision, revision, "a heartbeat is not a change");
    assert_eq!(g.deadline, policy.deadline);
    assert!(g.watchdog.unwrap().alive(later, stale));
    // Forty seconds without a heartbeat: the old one is presumed dead.
    let much_later = later + SignedDuration::from_secs(40);
    assert!(!g.watchdog.unwrap().alive(much_later, stale));
    let taken = cockpit
        .claim_watchdog("i-1", 200, much_later, stale)
        .unwrap();
    assert_eq!(taken, Claim::Claimed);
    assert!(!watchdog.heartbeat("i-1", 100, much_later).unwrap());
    cockpit.release_watchdog("i-1", 200, much_later).unwrap();
    assert_eq!(cockpit.guard("i-1").unwrap().unwrap().watchdog, None);
}

#[test]
fn a_dead_watchdogs_fresh_claim_is_taken_over_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut ledger = Ledger::open(dir.path().join("ledger.sqlite")).unwrap();
    let t0 = t("2026-05-01T10:00:00Z");
    let stale = Duration::from_secs(30);
    ledger.claim_watchdog("i-1", 100, t0, stale).unwrap();
    // Killed at once: its heartbeat is still fresh when the next one starts.
    let soon = t0 + SignedDuration::from_secs(2);
    assert!(matches!(
        ledger.claim_watchdog("i-1", 200, soon, stale).unwrap(),
        Claim::HeldBy(Watchdog { pid: 100, .. })
    ));
    assert!(ledger.take_over_watchdog("i-1", 100, 200, soon).unwrap());
    let w = ledger.guard("i-1").unwrap().unwrap().watchdog.unwrap();
    assert_eq!((w.pid, w.heartbeat), (200, soon));
    assert!(
        !ledger.take_over_watchdog("i-1", 100, 300, soon).unwrap(),
        "only from the one that died"
    );
    assert!(!ledger.heartbeat("i-1", 100, soon).unwrap());
}

#[test]
fn the_writer_commits_events_at_once_and_hands_the_ledger_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.sqlite");
    let ledger = Ledger::open(&path).unwrap();
    let (tx, rx) = mpsc::channel();
    let writer = LedgerWriter::spawn(ledger, move |n| {
        let _ = tx.send(n);
    })
    .unwrap();
    let at = t("2026-05-01T10:00:00Z");
    writer
        .record_event(EventRecord::alert(at, EventLevel::Warn, "budget 80%"))
        .unwrap();
    let ids = match rx.recv().unwrap() {
        Notice::Committed { events, .. } => events,
        Notice::Failed(e) => panic!("{e}"),
    };
    assert_eq!(ids.len(), 1);
    // A job runs on the writer thread after what was queued.
    let (done_tx, done_rx) = mpsc::channel();
    writer
        .run(move |l| {
            let _ = done_tx.send(l.guard("i-1").map(|g| g.is_none()));
        })
        .unwrap();
    assert!(done_rx.recv().unwrap().unwrap());
    let back = writer.close().unwrap();
    assert_eq!(back.integrity_check().unwrap(), "ok");
}
