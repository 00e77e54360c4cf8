//! Kill a ledger writer with SIGKILL at random points, at least 100 times, then open the
//! ledger: it must never be damaged, and every event the writer said was committed must be
//! there.
//!
//! The writer is this test binary itself, run again on [`crash_child`] with the ledger's path
//! in an environment variable: no extra program is built or installed for it. It prints
//! `committed ID` after each commit returns; the parent reads a random number of those lines,
//! kills the child wherever it is (`Child::kill` is SIGKILL on Unix), then reads what the child
//! printed before it died. Nothing waits on a clock: kill points are counted in commits.

use std::collections::HashSet;
use std::io::{BufRead as _, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use gpumeter::ledger::{
    EventRecord, GpuMinute, Ledger, LedgerWriter, MinuteBucket, Notice, Retention, SessionStart,
};
use gpumeter::meter::{BillingMode, Breakdown};
use gpumeter::money::Currency;
use gpumeter::provider::Inventory;
use jiff::{SignedDuration, Timestamp};
use rust_decimal::dec;

const CHILD_ENV: &str = "GPUMETER_LEDGER_CRASH_CHILD";
const KILLS: usize = 100;
const TIME_LIMIT: Duration = Duration::from_secs(240);

/// The writer. Does nothing unless started by the crash test.
#[test]
fn crash_child() {
    let Ok(path) = std::env::var(CHILD_ENV) else {
        return;
    };
    let mut ledger = Ledger::open(&path).expect("open");
    let base = Timestamp::from_second(1_780_000_000).unwrap();
    let session = ledger
        .start_session(&SessionStart {
            instance: format!("i-{}", std::process::id()),
            provider: "demo".into(),
            region: None,
            sku: "x".into(),
            mode: BillingMode::OnDemand,
            rate_per_hour: Some(dec!(2.5)),
            currency: Currency::USD,
            at: base,
            billing: None,
        })
        .expect("session");
    let (tx, rx) = mpsc::channel();
    let writer = LedgerWriter::spawn(ledger, move |notice| {
        if let Notice::Committed { events, .. } = &notice {
            for id in events {
                println!("committed {}", id.0);
            }
        }
        let _ = tx.send(notice);
    })
    .expect("writer");
    for i in 0..5000_i64 {
        let at = base + SignedDuration::from_mins(i);
        writer.record_minute(minute(session, at)).expect("queue");
        if i % 7 == 0 {
            let inventory = Inventory {
                instance: None,
                resources: Vec::new(),
                deadline: None,
            };
            writer
                .record_inventory(session, inventory, at)
                .expect("queue");
        }
        writer
            .record_event(EventRecord::note(at, format!("event {i}")))
            .expect("queue");
        if i % 25 == 24 {
            let now = at + SignedDuration::from_hours(24 * 31);
            writer
                .run(move |l| {
                    let _ = l.compact(now, &Retention::default());
                })
                .expect("queue");
        }
        // One commit at a time, so the parent's kills land between and inside commits.
        while let Ok(notice) = rx.recv() {
            if let Notice::Committed { events, .. } = notice
                && !events.is_empty()
            {
                break;
            }
        }
    }
}

fn minute(session: gpumeter::ledger::SessionId, at: Timestamp) -> MinuteBucket {
    MinuteBucket {
        session,
        start: at,
        cost: Breakdown {
            compute: dec!(0.041666667),
            ..Breakdown::zero(Currency::USD)
        },
        idle: false,
        gpu: GpuMinute {
            util_samples: 480,
            util_mean_pct: Some(90.0),
            util_max_pct: Some(100.0),
            power_samples: 480,
            power_mean_w: Some(300.0),
            energy_j: 144_000.0,
        },
        egress_bytes: 1 << 20,
        egress_split: gpumeter_core::traffic::EgressSplit::default(),
        split_cost: gpumeter::ledger::SplitCost::default(),
    }
}

/// [`crash_child`] as the harness names it: this module's path inside the test binary.
fn child_test() -> String {
    let (_crate, module) = module_path!()
        .split_once("::")
        .expect("a module of a test binary");
    format!("{module}::crash_child")
}

fn committed(line: &str) -> Option<i64> {
    line.strip_prefix("committed ")?.trim().parse().ok()
}

#[test]
fn sigkill_at_random_points_never_damages_the_ledger_or_loses_a_commit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.sqlite");
    let exe = std::env::current_exe().unwrap();
    let child_test = child_test();
    let mut rng = fastrand::Rng::with_seed(0x5eed);
    let started = Instant::now();
    let mut promised: Vec<i64> = Vec::new();
    let mut kills = 0;
    while kills < KILLS && started.elapsed() < TIME_LIMIT {
        let mut child = Command::new(&exe)
            .args([
                child_test.as_str(),
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, &path)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let wait_for = rng.usize(0..40);
        let mut seen = 0;
        while seen < wait_for {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some(id) = committed(&line) {
                        promised.push(id);
                        seen += 1;
                    }
                }
                _ => break,
            }
        }
        child.kill().unwrap();
        child.wait().unwrap();
        // What it printed before it died was committed too.
        promised.extend(lines.map_while(Result::ok).filter_map(|l| committed(&l)));
        kills += 1;
        if kills % 20 == 0 {
            let ledger = Ledger::open(&path).unwrap();
            assert_eq!(
                ledger.integrity_check().unwrap(),
                "ok",
                "after {kills} kills"
            );
        }
    }
    assert!(
        kills >= KILLS,
        "only {kills} kills in {:?}",
        started.elapsed()
    );
    let ledger = Ledger::open(&path).unwrap();
    assert_eq!(ledger.integrity_check().unwrap(), "ok");
    let conn = rusqlite::Connection::open(&path).unwrap();
    let mut stmt = conn.prepare("SELECT id FROM events").unwrap();
    let stored: HashSet<i64> = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let lost: Vec<&i64> = promised.iter().filter(|id| !stored.contains(id)).collect();
    assert!(lost.is_empty(), "committed but missing: {lost:?}");
    assert!(
        promised.len() > 500,
        "too few commits to mean much: {}",
        promised.len()
    );
    eprintln!(
        "{kills} kills, {} committed events, all present, in {:?}",
        promised.len(),
        started.elapsed()
    );
}
