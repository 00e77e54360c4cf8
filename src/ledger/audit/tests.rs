//! The audit's view of a ledger on disk: the demo's week, written through the public API,
//! read back as the core's `AuditLedger`, with the metered compute worked out from the demo's
//! own rates and hours.

use jiff::{SignedDuration, Timestamp};
use rust_decimal::{Decimal, dec};

use super::super::demo;
use super::super::store::Ledger;
use crate::meter::ResourceKind;
use crate::money::Currency;

const TRAINING: &str = "i-0demo4a100f00d";
const SPOT: &str = "i-0demo8spot5eed";

fn now() -> Timestamp {
    "2026-05-08T12:00:00Z".parse().unwrap()
}

fn hours(from: Timestamp, to: Timestamp) -> Decimal {
    Decimal::from(to.as_second() - from.as_second()) / Decimal::from(3600)
}

fn seeded() -> (tempfile::TempDir, Ledger) {
    let dir = tempfile::tempdir().unwrap();
    let mut ledger = Ledger::open(dir.path().join("ledger.sqlite")).unwrap();
    demo::seed(&mut ledger, now()).unwrap();
    (dir, ledger)
}

#[test]
fn the_demo_week_reads_as_its_two_instances_with_what_the_meter_billed() {
    let (_dir, ledger) = seeded();
    let since = now() - SignedDuration::from_hours(7 * 24);
    let view = ledger.audit_ledger(since, now()).unwrap();

    // As the demo writes them: the training run from six days back to its release a day
    // back, and the spot instance from twelve hours before that release until now.
    let start = now() - SignedDuration::from_hours(6 * 24);
    let released = now() - SignedDuration::from_hours(24);
    let spot_start = released - SignedDuration::from_hours(12);

    let training = view.instances.iter().find(|i| i.id == TRAINING).unwrap();
    assert_eq!(training.released, Some(released));
    assert_eq!(training.started, start);
    assert_eq!(training.region.as_deref(), Some("us-east-1"));
    assert_eq!(training.step_seconds, Some(1));
    let rate = training.rate_per_hour.unwrap();
    assert_eq!(
        (rate.amount, rate.currency),
        (crate::ledger::demo::training_rate(), Currency::USD)
    );
    let metered = training.metered.unwrap();
    let expected = crate::ledger::demo::training_rate() * hours(start, released);
    assert!(
        (metered.amount - expected).abs() < dec!(0.0001),
        "{metered:?} against {expected}"
    );

    let spot = view.instances.iter().find(|i| i.id == SPOT).unwrap();
    assert_eq!(spot.released, None);
    let expected = dec!(16) * hours(spot_start, now());
    let metered = spot.metered.unwrap().amount;
    assert!(
        (metered - expected).abs() < dec!(0.0001),
        "{metered} against {expected}"
    );

    let snap = view.resources.iter().find(|r| r.id == "snap-0a").unwrap();
    assert_eq!(
        (snap.instance.as_str(), snap.kind),
        (TRAINING, ResourceKind::Snapshot)
    );
}

#[test]
fn a_span_that_ends_before_a_run_meters_nothing_of_it() {
    let (_dir, ledger) = seeded();
    let released = now() - SignedDuration::from_hours(24);
    let until = released - SignedDuration::from_hours(12);
    let view = ledger
        .audit_ledger(until - SignedDuration::from_hours(24), until)
        .unwrap();
    assert!(
        view.instances.iter().all(|i| i.id != SPOT),
        "the spot run starts at `until`"
    );
    let training = view.instances.iter().find(|i| i.id == TRAINING).unwrap();
    let expected = crate::ledger::demo::training_rate() * Decimal::from(24);
    let metered = training.metered.unwrap().amount;
    assert!(
        (metered - expected).abs() < dec!(0.0001),
        "{metered} against {expected}"
    );
}

#[test]
fn the_evidence_holds_every_action_and_each_minute_of_the_span() {
    let (_dir, ledger) = seeded();
    let actions = ledger.audit_actions(&[TRAINING, SPOT]).unwrap();
    let intents: Vec<&str> = actions.iter().map(|a| a.intent.as_str()).collect();
    assert_eq!(intents, ["snapshot-clean", "release"]);
    assert!(
        actions
            .iter()
            .all(|a| a.outcome.as_deref() == Some("confirmed"))
    );
    let from = now() - SignedDuration::from_hours(2);
    let minutes = ledger.audit_minutes(&[SPOT], from, now()).unwrap();
    assert_eq!(minutes.len(), 120);
    assert!(
        minutes
            .iter()
            .all(|m| m.instance == SPOT && m.start >= from)
    );
}
