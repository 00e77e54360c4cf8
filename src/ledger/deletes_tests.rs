//! A cleanup's deletes in the ledger: each one an action `report` lists, tied to the instance
//! the resource was seen with, with the money it stops; a confirmed one ends the resource.

use jiff::{SignedDuration, Timestamp};
use rust_decimal::dec;

use super::super::record::FROM_COMMAND;
use super::super::{Ledger, demo};
use super::{Delete, Unpriced};
use crate::money::{Currency, Money};
use crate::provider::{Action, ActionReport, LinkedResource, ProviderError};

const TRAINING: &str = "i-0demo4a100f00d";

fn now() -> Timestamp {
    "2026-05-08T12:00:00Z".parse().unwrap()
}

fn seeded() -> (tempfile::TempDir, Ledger) {
    let dir = tempfile::tempdir().unwrap();
    let mut ledger = Ledger::open(dir.path().join("ledger.sqlite")).unwrap();
    demo::seed(&mut ledger, now()).unwrap();
    (dir, ledger)
}

/// A resource the demo's week left behind after the release: still billing in `report`.
fn leftover(ledger: &Ledger) -> LinkedResource {
    let rows = ledger
        .report_rows(now() - SignedDuration::from_hours(24 * 7), now())
        .unwrap();
    let row = rows
        .leftovers
        .iter()
        .find(|r| r.kind == "data_disk")
        .unwrap_or_else(|| panic!("the demo leaves a data disk: {:?}", rows.leftovers));
    crate::provider::demo::DemoState::fresh(now())
        .resources
        .into_iter()
        .find(|r| r.id == row.id)
        .unwrap()
}

fn report(resource: &LinkedResource, confirmed: bool) -> ActionReport {
    ActionReport {
        action: Action::Cleanup {
            delete: vec![resource.clone()],
        },
        confirmed,
        summary: format!("{} is no longer listed", resource.id),
        calls: vec![format!("demo: delete data disk {}", resource.id)],
    }
}

#[test]
fn a_confirmed_delete_is_an_action_of_the_instance_it_was_left_by_and_ends_its_billing() {
    let (_dir, mut ledger) = seeded();
    let disk = leftover(&ledger);
    let result: Result<ActionReport, ProviderError> = Ok(report(&disk, true));
    let at = now() - SignedDuration::from_mins(5);
    ledger
        .record_delete(
            &Delete {
                resource: &disk,
                monthly: Ok(Money::new(dec!(40.00), Currency::USD)),
                result: &result,
                origin: FROM_COMMAND,
            },
            at,
        )
        .unwrap();

    let rows = ledger
        .report_rows(now() - SignedDuration::from_hours(24 * 7), now())
        .unwrap();
    let delete = rows
        .actions
        .iter()
        .find(|a| a.intent == "delete data disk")
        .unwrap_or_else(|| {
            panic!(
                "the delete is not among report's actions: {:?}",
                rows.actions
            )
        });
    assert_eq!(delete.instance.as_deref(), Some(TRAINING));
    assert_eq!(delete.outcome.as_deref(), Some("confirmed"));
    assert_eq!(
        delete.answer.as_deref(),
        Some(format!("{} is no longer listed", disk.id).as_str())
    );
    let request: serde_json::Value =
        serde_json::from_str(delete.request.as_deref().unwrap()).unwrap();
    assert_eq!(request["id"], disk.id.as_str());
    assert_eq!(request["kind"], "data_disk");
    assert_eq!(request["stops_monthly"], "40.00");
    assert_eq!(request["currency"], "USD");
    assert!(request["stops_monthly_unknown"].is_null(), "{request}");
    assert!(
        rows.leftovers.iter().all(|r| r.id != disk.id),
        "a deleted disk still listed as billing: {:?}",
        rows.leftovers
    );
    let actions = ledger.audit_actions(&[TRAINING]).unwrap();
    assert!(
        actions.iter().any(|a| a.intent == "delete data disk"),
        "{actions:?}"
    );
    assert_eq!(
        ledger.confirmed_deletes().unwrap(),
        vec![(disk.id.clone(), at)]
    );
}

#[test]
fn an_unconfirmed_delete_is_kept_with_an_unknown_cost_and_ends_nothing() {
    let (_dir, mut ledger) = seeded();
    let disk = leftover(&ledger);
    let result: Result<ActionReport, ProviderError> = Ok(report(&disk, false));
    ledger
        .record_delete(
            &Delete {
                resource: &disk,
                monthly: Err(Unpriced::NoSheet),
                result: &result,
                origin: FROM_COMMAND,
            },
            now(),
        )
        .unwrap();
    let rows = ledger
        .report_rows(
            now() - SignedDuration::from_hours(24 * 7),
            now() + SignedDuration::from_secs(1),
        )
        .unwrap();
    let delete = rows
        .actions
        .iter()
        .find(|a| a.intent == "delete data disk")
        .unwrap();
    assert_eq!(delete.outcome.as_deref(), Some("unconfirmed"));
    let request: serde_json::Value =
        serde_json::from_str(delete.request.as_deref().unwrap()).unwrap();
    assert!(request["stops_monthly"].is_null(), "{request}");
    assert_eq!(
        request["stops_monthly_unknown"],
        "no price sheet for the region"
    );
    assert!(rows.leftovers.iter().any(|r| r.id == disk.id));
    assert!(ledger.confirmed_deletes().unwrap().is_empty());
}

#[test]
fn a_delete_of_a_resource_never_seen_with_an_instance_is_still_kept() {
    let (_dir, mut ledger) = seeded();
    let mut orphan = leftover(&ledger);
    orphan.id = "vol-0neverseen".into();
    let result: Result<ActionReport, ProviderError> = Err(ProviderError::state("demo", "refused"));
    ledger
        .record_delete(
            &Delete {
                resource: &orphan,
                monthly: Err(Unpriced::NoSheet),
                result: &result,
                origin: FROM_COMMAND,
            },
            now() - SignedDuration::from_mins(1),
        )
        .unwrap();
    let rows = ledger
        .report_rows(now() - SignedDuration::from_hours(1), now())
        .unwrap();
    let delete = rows
        .actions
        .iter()
        .find(|a| a.intent == "delete data disk")
        .unwrap();
    assert_eq!(delete.instance, None);
    assert_eq!(delete.outcome.as_deref(), Some("failed"));
}

#[test]
fn a_confirmed_clean_run_as_one_action_ends_each_resource_it_named() {
    let (_dir, mut ledger) = seeded();
    let disk = leftover(&ledger);
    let action = Action::Cleanup {
        delete: vec![disk.clone()],
    };
    let snapshots = Action::SnapshotClean {
        keep: 1,
        final_snapshot: false,
        delete: Some(vec!["snap-0old".into()]),
    };
    let at = now() - SignedDuration::from_mins(2);
    for action in [action, snapshots] {
        let done = Ok(ActionReport {
            action: action.clone(),
            confirmed: true,
            summary: "done".into(),
            calls: Vec::new(),
        });
        let event = crate::ledger::EventRecord::action(at, &action, &done).from_command(TRAINING);
        ledger.record_event(event).unwrap();
    }
    let mut deletes = ledger.confirmed_deletes().unwrap();
    deletes.sort();
    assert_eq!(
        deletes,
        vec![("snap-0old".to_string(), at), (disk.id.clone(), at)]
    );
    let audited = ledger
        .audit_ledger(now() - SignedDuration::from_hours(24 * 7), now())
        .unwrap();
    let seen = audited.resources.iter().find(|r| r.id == disk.id).unwrap();
    assert_eq!(
        seen.gone,
        Some(at),
        "the audit takes the confirmed delete as the disk's end"
    );
}
