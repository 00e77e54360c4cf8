//! The cockpit's recorder against a real ledger: the demo cloud in a temporary data dir, the
//! simulator's GPUs, `update` as the event loop runs it, and an injected clock (one tick per
//! simulated second, so minutes pass in milliseconds). What it wrote is read back, and
//! `gpumeter report --json` shows it.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use gpumeter::app::{App, CloudView, Effect, Event, Level, Settings, update};
use gpumeter::app::{KeyCode, KeyPress};
use gpumeter::cockpit::record::Recorder;
use gpumeter::demo::{demo_capabilities, demo_pricing, demo_simulator};
use gpumeter::guard::IdleRule;
use gpumeter::ledger::Ledger;
use gpumeter::provider::Provider;
use gpumeter::provider::demo::DemoCloud;
use gpumeter::spend::Spend;
use gpumeter::telemetry::{Simulator, Stamped, Telemetry};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;

const START: &str = "2025-03-01T10:00:30Z";

struct Rig {
    app: App,
    rec: Recorder,
    cloud: DemoCloud,
    clock: Arc<AtomicI64>,
    sim: Simulator,
    runtime: tokio::runtime::Runtime,
    start: Timestamp,
}

impl Rig {
    fn new(dir: &Path, ledger: &Path) -> Rig {
        let start: Timestamp = START.parse().unwrap();
        let clock = Arc::new(AtomicI64::new(start.as_second()));
        let read = Arc::clone(&clock);
        let cloud = DemoCloud::new(
            dir,
            Arc::new(move || Timestamp::from_second(read.load(Ordering::SeqCst)).unwrap()),
        )
        .with_delay(Duration::ZERO);
        if !cloud.path().exists() {
            cloud.reset().unwrap();
        }
        let view = CloudView::new("demo", demo_capabilities());
        let spend = Spend::new(demo_pricing(), None, TimeZone::UTC);
        let app = App::new(start, Settings::default(), view, spend);
        Rig {
            app,
            rec: Recorder::start(Some(ledger.to_path_buf()), IdleRule::default()),
            cloud,
            clock,
            sim: demo_simulator("training"),
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap(),
            start,
        }
    }

    /// As the event loop does it: the recorder sees the event, `update` takes it, the recorder
    /// follows the state.
    fn feed(&mut self, event: Event) -> Vec<Effect> {
        self.rec.saw(&event);
        let mut effects = update(&mut self.app, event);
        effects.extend(self.follow());
        effects
    }

    /// The recorder follows the state; what it has to say goes through `update`, as in the loop.
    fn follow(&mut self) -> Vec<Effect> {
        let notes = self.rec.after_update(&self.app);
        notes
            .into_iter()
            .flat_map(|note| update(&mut self.app, note))
            .collect()
    }

    fn inventory(&mut self) {
        let inventory = self.runtime.block_on(self.cloud.inventory());
        self.feed(Event::Inventory(inventory));
    }

    /// Second `s` of the run: the clock, then a GPU and a host sample.
    fn second(&mut self, s: i64) {
        let time = self.start + SignedDuration::from_secs(s);
        self.clock.store(time.as_second(), Ordering::SeqCst);
        let at = Duration::from_secs(s.unsigned_abs());
        self.feed(Event::Tick(time));
        let gpus = Ok(self.sim.gpus_at(at));
        let host = self.sim.host_at(at);
        self.feed(Event::Telemetry(Telemetry::Gpu(Stamped {
            at,
            time,
            value: gpus,
        })));
        self.feed(Event::Telemetry(Telemetry::Host(Stamped {
            at,
            time,
            value: host,
        })));
    }

    /// The keys that release the instance, and the provider's answer.
    fn release(&mut self) {
        self.feed(key('R'));
        let effects = self.feed(key('y'));
        let Some(Effect::Perform(action)) = effects.into_iter().next() else {
            panic!("the confirmed release asks the provider");
        };
        let result = self.runtime.block_on(self.cloud.perform(&action));
        self.feed(Event::ActionDone { action, result });
    }

    /// Follows the state until the recorder has a session (the ledger opens on a thread).
    fn wait_for_session(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.rec.recording().is_none() {
            assert!(
                Instant::now() < deadline,
                "no session: {:?}",
                self.app.events
            );
            std::thread::sleep(Duration::from_millis(5));
            self.follow();
        }
    }

    fn accrued(&self) -> gpumeter::meter::Breakdown {
        self.app.spend.reading.as_ref().unwrap().accrual.accrued
    }

    fn close(self) -> App {
        let mut app = self.app;
        for note in self.rec.close(&app) {
            update(&mut app, note);
        }
        app
    }
}

fn key(c: char) -> Event {
    Event::Key(KeyPress::new(KeyCode::Char(c)))
}

fn nanos(d: Decimal) -> i128 {
    (d * Decimal::from(1_000_000_000)).round().mantissa()
}

fn buckets(ledger: &Path) -> Vec<(i64, [i64; 4], i64)> {
    let db = rusqlite::Connection::open(ledger).unwrap();
    let mut q = db
        .prepare("SELECT start, compute, bandwidth, storage, extras, energy_j > 0 FROM buckets ORDER BY start")
        .unwrap();
    q.query_map([], |r| {
        Ok((
            r.get(0)?,
            [r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?],
            r.get(5)?,
        ))
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

/// Every line of the meter's total equals the sum of the minutes, to the nano-unit.
fn assert_minutes_sum_to(ledger: &Path, accrued: gpumeter::meter::Breakdown) {
    let rows = buckets(ledger);
    for (i, part) in accrued.parts().into_iter().enumerate() {
        let sum: i128 = rows.iter().map(|(_, c, _)| i128::from(c[i])).sum();
        assert!((sum - nanos(part)).abs() <= 1, "line {i}: {sum} vs {part}");
    }
}

#[test]
fn the_cockpit_records_its_session_minutes_actions_alerts_and_inventories() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let mut rig = Rig::new(dir.path(), &ledger);
    rig.second(0);
    rig.inventory();
    rig.wait_for_session();
    for s in 1..=90 {
        rig.second(s);
    }
    rig.release();
    rig.inventory();
    rig.app
        .log(Level::Warn, "budget: 80% used (8.00 USD of 10.00 USD)");
    for s in 91..=150 {
        rig.second(s);
    }
    let instance = rig.app.guard.instance.clone().unwrap();
    let accrued = rig.accrued();
    assert!(accrued.compute > Decimal::ZERO);
    let app = rig.close();
    assert!(
        !app.events.iter().any(|e| e.text.starts_with("ledger:")),
        "{:?}",
        app.events
    );

    // Four minutes, 10:00 to 10:03, whose costs add up to the meter's total.
    let rows = buckets(&ledger);
    let starts: Vec<i64> = rows.iter().map(|r| r.0 % 3600 / 60).collect();
    assert_eq!(starts, [0, 1, 2, 3]);
    assert!(
        rows.iter().take(3).all(|r| r.2 == 1),
        "energy every full minute"
    );
    assert_minutes_sum_to(&ledger, accrued);

    let read = Ledger::open_read_only(&ledger).unwrap();
    let since: Timestamp = "2025-03-01T00:00:00Z".parse().unwrap();
    let until: Timestamp = "2025-03-02T00:00:00Z".parse().unwrap();
    let got = read.report_rows(since, until).unwrap();
    assert_eq!(got.sessions.len(), 1);
    let s = &got.sessions[0];
    assert_eq!(
        (s.instance.as_str(), s.provider.as_str()),
        (instance.as_str(), "demo")
    );
    assert_eq!(s.mode, "on_demand");
    assert!(s.rate.is_some());
    assert_eq!(s.currency.as_str(), "USD");
    assert!(!s.open);
    assert_eq!(
        s.ended,
        "2025-03-01T10:03:00Z".parse::<Timestamp>().unwrap()
    );
    assert_eq!(got.actions.len(), 1, "{:?}", got.actions);
    let a = &got.actions[0];
    assert_eq!(a.intent, "release");
    assert_eq!(a.outcome.as_deref(), Some("confirmed"));
    assert!(a.answer.as_deref().unwrap().contains(&instance));
    assert_eq!(a.instance.as_deref(), Some(instance.as_str()));
    // The budget warning; the action's own log line is the action event, not an alert.
    assert_eq!(got.alerts, 1);
    // The inventory after the release: the snapshots and the disk that outlive it.
    assert!(!got.leftovers.is_empty());
    assert!(got.leftovers.iter().all(|l| l.instance == instance));

    let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["report", "--json", "--since", "2025-03-01T00:00:00Z"])
        .args(["--until", "2025-03-02T00:00:00Z"])
        .env("GPUMETER_DATA_DIR", dir.path())
        .env("TZ", "UTC")
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let total = accrued.total().amount.round_dp(2).to_string();
    assert_eq!(v["spend"][0]["currency"], "USD");
    assert_eq!(v["spend"][0]["total"]["total"], total.as_str(), "{v:#}");
    assert_eq!(v["instances"][0]["instance"], instance.as_str());
    assert_eq!(v["actions"][0]["intent"], "release");
    assert_eq!(v["actions"][0]["outcome"], "confirmed");
    assert_eq!(v["alerts"], 1);
    assert!(!v["still_billing"].as_array().unwrap().is_empty(), "{v:#}");
}

#[test]
fn a_second_run_on_the_same_instance_records_only_what_it_did_not_have() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let mut first = Rig::new(dir.path(), &ledger);
    first.second(0);
    first.inventory();
    first.wait_for_session();
    for s in 1..=70 {
        first.second(s);
    }
    first.close();
    // Ten minutes with the cockpit closed, then it runs again.
    let mut second = Rig::new(dir.path(), &ledger);
    second.second(700);
    second.inventory();
    second.wait_for_session();
    for s in 701..=760 {
        second.second(s);
    }
    let accrued = second.accrued();
    second.close();
    assert_minutes_sum_to(&ledger, accrued);
    let read = Ledger::open_read_only(&ledger).unwrap();
    let far = |y| Timestamp::from_second(y).unwrap();
    let rows = read.report_rows(far(0), far(4_000_000_000)).unwrap();
    assert_eq!(rows.sessions.len(), 2);
}

#[test]
fn a_ledger_that_cannot_open_is_one_error_line_and_the_cockpit_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    std::fs::write(
        &ledger,
        b"this is not an SQLite file, just some bytes ......",
    )
    .unwrap();
    let mut rig = Rig::new(dir.path(), &ledger);
    rig.second(0);
    rig.inventory();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !rig.app.events.iter().any(|e| e.text.starts_with("ledger:")) {
        assert!(Instant::now() < deadline, "no error line");
        std::thread::sleep(Duration::from_millis(5));
        rig.follow();
    }
    for s in 1..=120 {
        rig.second(s);
    }
    rig.release();
    assert!(rig.rec.recording().is_none());
    let app = rig.close();
    let errors: Vec<_> = app
        .events
        .iter()
        .filter(|e| e.text.starts_with("ledger:"))
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].level, Level::Error);
    assert!(
        errors[0].text.contains("not recorded"),
        "{}",
        errors[0].text
    );
    assert!(app.spend.reading.is_some(), "the meter goes on");
    let bytes = std::fs::read(&ledger).unwrap();
    assert!(
        bytes.starts_with(b"this is not an SQLite file"),
        "left as it was"
    );
}
