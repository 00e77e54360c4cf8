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
    let holder = Watchdog::beat(100, t0);
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

mod two_cockpits {
    //! Two cockpits on one data directory, each with its own guard link, against one real
    //! ledger file: the second finds the first one's deadline, asks, keeps it, and what it
    //! does next reaches the first.

    use std::path::Path;
    use std::sync::mpsc::Sender;
    use std::time::{Duration, Instant};

    use gpumeter::app::{App, CloudView, Deadline, Effect, Event, KeyCode, KeyPress, Mode};
    use gpumeter::app::{Settings, update};
    use gpumeter::cockpit::guard_link::{self, Request, Save};
    use gpumeter::config::OnExpiry;
    use gpumeter::demo::cloud::DemoState;
    use gpumeter::demo::{demo_capabilities, fixture_now};
    use gpumeter::ledger::{GuardState, Ledger};
    use gpumeter::provider::Inventory;
    use gpumeter::spend::Spend;
    use jiff::SignedDuration;
    use jiff::tz::TimeZone;
    use tokio::sync::mpsc;

    const INSTANCE: &str = "i-0demo4a100f00d";

    struct Cockpit {
        app: App,
        link: Sender<Request>,
        events: mpsc::Receiver<Event>,
    }

    impl Cockpit {
        /// Started with `--release-in after --on-expiry policy`, its instance just named.
        fn start(path: &Path, me: &str, after: SignedDuration, policy: OnExpiry) -> Cockpit {
            let now = fixture_now();
            let cloud = CloudView::new("demo", demo_capabilities());
            let spend = Spend::new(None, None, TimeZone::UTC);
            let mut app = App::new(now, Settings::default(), cloud, spend);
            app.deadline = Some(Deadline::new(now + after, policy, now));
            app.guard.asked = true;
            app.guard.me = me.into();
            let (tx, events) = mpsc::channel(64);
            let link = guard_link::spawn(path.to_path_buf(), tx).unwrap();
            let mut cockpit = Cockpit { app, link, events };
            let state = DemoState::fresh(now);
            let inventory = Inventory {
                instance: Some(state.instance),
                resources: state.resources,
                deadline: None,
            };
            cockpit.handle(Event::Inventory(Ok(inventory)));
            cockpit
        }

        /// `update`, and the guard effects run as the effect runner runs them.
        fn handle(&mut self, event: Event) {
            for effect in update(&mut self.app, event) {
                let request = match effect {
                    Effect::LoadGuard { instance } => Request::Load(instance),
                    Effect::SaveGuard {
                        instance,
                        deadline,
                        on_expiry,
                        grace,
                        by,
                    } => Request::Save(Save {
                        instance,
                        deadline,
                        on_expiry,
                        grace,
                        by,
                    }),
                    _ => continue,
                };
                self.link.send(request).unwrap();
            }
        }

        fn key(&mut self, code: KeyCode) {
            self.handle(Event::Key(KeyPress::new(code)));
        }

        /// Feeds the link's events to `update` until `done` holds (or fails after 10 s).
        fn until(&mut self, what: &str, done: impl Fn(&App, &Event) -> bool) {
            let end = Instant::now() + Duration::from_secs(10);
            loop {
                assert!(Instant::now() < end, "never: {what}");
                match self.events.try_recv() {
                    Ok(event) => {
                        self.handle(event.clone());
                        if done(&self.app, &event) {
                            return;
                        }
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
            }
        }
    }

    fn row(path: &Path) -> Option<GuardState> {
        Ledger::open(path).unwrap().guard(INSTANCE).unwrap()
    }

    fn eventually(what: &str, check: impl Fn() -> bool) {
        let end = Instant::now() + Duration::from_secs(10);
        while !check() {
            assert!(Instant::now() < end, "never: {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn a_second_cockpit_keeps_the_first_ones_deadline_unless_told_otherwise() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.sqlite");
        let now = fixture_now();
        let eight_hours = now + SignedDuration::from_hours(8);

        let mut first = Cockpit::start(
            &path,
            "cockpit 1",
            SignedDuration::from_hours(8),
            OnExpiry::Alert,
        );
        first.until("the first finds no row", |_, e| {
            matches!(e, Event::GuardFound(_))
        });
        let written = |path: &Path| {
            row(path).is_some_and(|r| {
                r.deadline.map(jiff::Timestamp::as_second) == Some(eight_hours.as_second())
                    && r.on_expiry == OnExpiry::Alert
            })
        };
        eventually("the first cockpit's deadline is written", || written(&path));
        let revision = row(&path).unwrap().revision;

        // The second asks for 30 s and release: it asks, and the row stays as it was.
        let mut second = Cockpit::start(
            &path,
            "cockpit 2",
            SignedDuration::from_secs(30),
            OnExpiry::Release,
        );
        second.until("the second finds the row", |_, e| {
            matches!(e, Event::GuardFound(_))
        });
        assert!(
            matches!(second.app.mode, Mode::GuardChoice(_)),
            "{:?}",
            second.app.mode
        );
        let shown = second.app.deadline.unwrap();
        assert_eq!(
            (shown.at.as_second(), shown.on_expiry),
            (eight_hours.as_second(), OnExpiry::Alert)
        );
        second.key(KeyCode::Esc);
        assert_eq!(second.app.mode, Mode::Main);
        // A read-back round trip of the second's link: nothing was written meanwhile.
        second.until("the second reads the row back", |_, e| {
            matches!(e, Event::Guard(_))
        });
        let kept = row(&path).unwrap();
        assert!(written(&path));
        assert_eq!(kept.revision, revision, "the row was not written: {kept:?}");
        assert_eq!(kept.updated_by, "cockpit 1");

        // What the second does next reaches the first: one shared deadline.
        second.key(KeyCode::Char('e'));
        let nine_hours = eight_hours + SignedDuration::from_hours(1);
        first.until("the first sees the move", |app, _| {
            app.deadline
                .is_some_and(|d| d.at.as_second() == nine_hours.as_second())
        });
        let moved = row(&path).unwrap();
        assert_eq!(moved.updated_by, "cockpit 2");
        assert_eq!(moved.on_expiry, OnExpiry::Alert, "never silently release");
        let said = first
            .app
            .events
            .iter()
            .any(|e| e.text.contains("by cockpit 2"));
        assert!(said, "{:?}", first.app.events);
    }
}
