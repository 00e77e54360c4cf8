//! Money already accrued never disappears: the total across a release, in the demo cockpit and
//! in a one-shot reading that starts after it.

use std::time::Duration;

use gpumeter_core::app::{App, Event, update};
use gpumeter_core::cloud::Inventory;
use gpumeter_core::demo::cloud::DemoState;
use gpumeter_core::demo::{demo_app, demo_pricing, fixture_now};
use gpumeter_core::meter::InstanceState;
use gpumeter_core::spend::Spend;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;

fn total(spend: &Spend) -> Decimal {
    spend
        .reading
        .as_ref()
        .expect("a reading")
        .accrual
        .accrued
        .total()
        .amount
}

fn fresh() -> Inventory {
    let state = DemoState::fresh(fixture_now());
    Inventory {
        instance: Some(state.instance),
        resources: state.resources,
        deadline: None,
    }
}

/// The demo cloud after a release at `at`, as its provider lists it: the root disk is gone.
fn released(at: Timestamp) -> Inventory {
    let mut inv = fresh();
    let instance = inv.instance.as_mut().unwrap();
    instance.state = InstanceState::Released;
    instance.history.push((at, InstanceState::Released));
    inv.resources.retain(|r| !r.deleted_with_instance);
    inv
}

fn spend_after(inventories: &[(&Inventory, Timestamp)]) -> Spend {
    let mut spend = Spend::new(demo_pricing(), None, TimeZone::UTC);
    for (inv, at) in inventories {
        spend.record_inventory(inv, *at);
        spend.recompute(Some(inv), *at, None);
    }
    spend
}

fn cockpit_total(app: &App) -> Decimal {
    total(&app.spend)
}

#[test]
fn the_cockpit_total_never_goes_down_at_a_release() {
    let mut app = demo_app(Duration::from_secs(3600));
    let at = fixture_now() + SignedDuration::from_secs(5);
    update(&mut app, Event::Tick(at));
    let before = cockpit_total(&app);
    update(&mut app, Event::Inventory(Ok(released(at))));
    assert!(cockpit_total(&app) >= before);
    // A provider that stops listing the instance at all: still released, nothing dropped.
    let later = at + SignedDuration::from_secs(60);
    let mut gone = released(at);
    gone.instance = None;
    update(&mut app, Event::Tick(later));
    let before = cockpit_total(&app);
    update(&mut app, Event::Inventory(Ok(gone)));
    assert!(
        cockpit_total(&app) >= before,
        "{before} -> {}",
        cockpit_total(&app)
    );
}

#[test]
fn a_reading_started_after_the_release_keeps_what_earlier_runs_saw_accrue() {
    let at = fixture_now();
    let before = total(&spend_after(&[(&fresh(), at)]));
    let seen: Vec<_> = fresh()
        .resources
        .iter()
        .map(|r| (r.to_meter(), at))
        .collect();

    let after = released(at);
    let forgetful = total(&spend_after(&[(&after, at)]));
    assert!(
        forgetful < before,
        "the root disk's storage is lost without memory"
    );

    let mut spend = Spend::new(demo_pricing(), None, TimeZone::UTC);
    spend.remember(&seen);
    spend.record_inventory(&after, at);
    spend.recompute(Some(&after), at, None);
    assert!(total(&spend) >= before, "{before} -> {}", total(&spend));
}

#[test]
fn an_instance_no_longer_listed_still_prices_what_survives_it() {
    let at = fixture_now();
    let mut gone = released(at);
    gone.instance = None;
    let spend = spend_after(&[(&gone, at)]);
    let reading = spend
        .reading
        .as_ref()
        .expect("a reading without the instance");
    assert!(
        reading
            .leftovers
            .iter()
            .all(|l| l.id == "lb-0api" || l.monthly.is_some())
    );
    assert!(reading.leftover_monthly > Decimal::ZERO);
    assert!(
        reading.accrual.unpriced[0].starts_with("instance: no longer listed"),
        "{:?}",
        reading.accrual.unpriced
    );
}
