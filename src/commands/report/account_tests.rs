use jiff::{SignedDuration, Timestamp};

use super::*;
use crate::ledger::record::EventRecord;
use crate::provider::demo::DemoState;
use crate::provider::{Action, ActionReport, Inventory};

fn ts(s: i64) -> Timestamp {
    Timestamp::from_second(s).unwrap()
}

/// The demo instance listed with its resources at 0, released at an hour (the root disk went
/// with it), and listed no more, its survivors still there, at two hours.
fn released_with_leftovers(ledger: &mut Ledger) -> (String, Inventory) {
    let state = DemoState::fresh(ts(0));
    let id = state.instance.id.clone();
    let listed = Inventory {
        instance: Some(state.instance),
        resources: state.resources.clone(),
        deadline: None,
    };
    ledger.saw_inventory(&id, &listed, ts(0)).unwrap();
    let report = ActionReport {
        action: Action::Release,
        confirmed: true,
        summary: "released".into(),
        calls: Vec::new(),
    };
    let release = EventRecord::action(ts(3600), &Action::Release, &Ok(report)).from_command(&id);
    ledger.record_event(release).unwrap();
    let gone = Inventory {
        instance: None,
        resources: state
            .resources
            .into_iter()
            .filter(|r| !r.deleted_with_instance)
            .collect(),
        deadline: None,
    };
    ledger.saw_inventory(&id, &gone, ts(7200)).unwrap();
    (id, gone)
}

/// What `report` gives offline is the core's account with the same record and the provider's
/// latest reading: each line to the cent, what still bills, what is unknown, the release.
#[test]
fn the_report_gives_the_account_status_gives_for_a_released_instance_and_its_leftovers() {
    let dir = tempfile::tempdir().unwrap();
    let mut ledger = Ledger::open(dir.path().join("ledger.sqlite")).unwrap();
    let (id, latest) = released_with_leftovers(&mut ledger);
    let recorded = Recorded {
        instance: ledger.instance_record(&id).unwrap(),
        resources: ledger.resources_seen(&id).unwrap(),
        traffic: ledger.traffic(&id).unwrap(),
    };
    let pricing = crate::demo::demo_pricing();
    let now = ts(7200) + SignedDuration::from_hours(24 * 30);
    let offline = account_of(pricing.as_ref(), &recorded, now).unwrap();
    let online = crate::spend::account(pricing.as_ref(), &recorded, &latest, now).unwrap();
    assert_eq!(offline, online);
    assert_eq!(offline.released, Some(ts(3600)));
    assert!(!offline.leftovers.is_empty());
    assert!(offline.still_billing_monthly.known.amount > rust_decimal::Decimal::ZERO);
    // Nothing the record does not say went is ended by reading it offline.
    assert_eq!(offline.leftovers.len(), latest.resources.len());
    let json = serde_json::to_value(json(&InstanceAccount {
        instance: id,
        account: Ok(offline),
    }))
    .unwrap();
    let cents = |k: &str| {
        json["account"][k]
            .as_str()
            .unwrap()
            .parse::<rust_decimal::Decimal>()
            .unwrap()
    };
    let lines: rust_decimal::Decimal = ["compute", "bandwidth", "storage", "extras"]
        .into_iter()
        .map(cents)
        .sum();
    assert_eq!(lines, cents("total"));
    assert_eq!(json["account"]["released_at"], "1970-01-01T01:00:00Z");
    assert!(json["reason"].is_null());
}

#[test]
fn an_instance_without_a_kept_listing_has_no_account_and_says_why() {
    let none = account_of(
        crate::demo::demo_pricing().as_ref(),
        &Recorded::default(),
        ts(0),
    );
    let entry = InstanceAccount {
        instance: "i-old".into(),
        account: none,
    };
    let json = serde_json::to_value(json(&entry)).unwrap();
    assert!(json["account"].is_null());
    assert_eq!(json["reason"], NoAccount::NoListing.to_string());
    assert!(line(&entry).contains("no listing"));
}
