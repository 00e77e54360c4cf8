//! A second, deliberately simple reading of the sheet's rules ("Cost semantics" in
//! docs/costs-and-sheets.md, and pricing/README.md) that the engine must agree with to the
//! nano-unit on random sheets, lifecycles, usages, resources and instants. See `meter_oracle/rules.rs`.

mod inputs;
mod rules;

use gpumeter_core::traffic::EgressSplit;
use std::collections::BTreeSet;

use gpumeter_core::meter::fixture::example_sheet;
use gpumeter_core::meter::{
    Accrual, ComputeTerms, InstanceState, Lifecycle, ResourceKind, Traffic, Usage, accrue,
};
use gpumeter_core::pricing::{OtherExtra, OtherPrice};
use proptest::prelude::*;
use rust_decimal::{Decimal, dec};

use inputs::{Case, case};
use rules::{Unpriced, expect, ts};

/// The engine's unpriced entries, each matched to what it names.
fn named(reading: &Accrual, usage: &Usage) -> Vec<Unpriced> {
    reading
        .unpriced
        .iter()
        .map(|entry| {
            // `<kind> <id>: <sheet key> unknown`
            let what = entry
                .split_once(": ")
                .map_or(entry.as_str(), |(what, _)| what);
            if let Some(r) = usage
                .resources
                .iter()
                .find(|r| what.ends_with(&format!(" {}", r.id)))
            {
                Unpriced::Resource(r.id.clone())
            } else if entry.starts_with("egress") {
                Unpriced::Egress
            } else if entry.starts_with("fixed bandwidth") {
                Unpriced::FixedBandwidth
            } else if entry.contains("licen") {
                Unpriced::Licence
            } else if entry.contains("no_gpu_per_hour") {
                Unpriced::NoGpu
            } else {
                panic!("an unpriced entry that names nothing: {entry}")
            }
        })
        .collect()
}

/// Within a billionth of the currency unit: the meter and the oracle add the same exact
/// quantities in another order, and a 28-digit division may round its last place either way,
/// so rounding both to nine places can still land one nano apart at a half-way digit.
fn close(a: Decimal, b: Decimal) -> bool {
    (a - b).abs() <= Decimal::new(1, 9)
}

fn agrees(c: &Case, at: i64) -> Result<(), TestCaseError> {
    let want = expect(&c.sheet, &c.changes, &c.usage, at);
    let got = accrue(&c.sheet, &c.usage, ts(at));
    let lines = ["compute", "bandwidth", "storage", "extras"];
    for (i, line) in lines.iter().enumerate() {
        let (got_accrued, want_accrued) = (got.accrued.parts()[i], want.accrued[i]);
        prop_assert!(
            close(got_accrued, want_accrued),
            "accrued {} at {}: {} against the oracle's {}",
            line,
            at,
            got_accrued,
            want_accrued
        );
        let (got_billed, want_billed) = (got.billed.parts()[i], want.billed[i]);
        prop_assert!(
            close(got_billed, want_billed),
            "billed {} at {}: {} against the oracle's {}",
            line,
            at,
            got_billed,
            want_billed
        );
    }
    let names = named(&got, &c.usage);
    let unique: BTreeSet<Unpriced> = names.iter().cloned().collect();
    prop_assert_eq!(
        unique.len(),
        names.len(),
        "listed twice: {:?}",
        got.unpriced
    );
    prop_assert_eq!(unique, want.unpriced, "unpriced at {}", at);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2500, max_global_rejects: 4096, ..ProptestConfig::default() })]

    #[test]
    fn the_engine_agrees_with_the_rules(
        c in case(),
        at in 0i64..6_000_000,
        on_a_change in proptest::option::of(any::<proptest::sample::Index>()),
    ) {
        // Sometimes the very second of a change, where a start or a release just happened.
        let at = on_a_change.map_or(at, |i| c.changes[i.index(c.changes.len())].0);
        agrees(&c, at)?;
    }

    #[test]
    fn accrued_only_grows_and_billed_covers_it(c in case(), at in 0i64..6_000_000, later in 0i64..3_000_000) {
        let early = accrue(&c.sheet, &c.usage, ts(at));
        let late = accrue(&c.sheet, &c.usage, ts(at + later));
        for (a, b) in early.accrued.parts().iter().zip(late.accrued.parts()) {
            prop_assert!(*a <= b, "accrued went down from {} to {}", a, b);
        }
        for (a, b) in early.billed.parts().iter().zip(late.billed.parts()) {
            prop_assert!(*a <= b, "billed went down from {} to {}", a, b);
        }
        for r in [&early, &late] {
            for (accrued, billed) in r.accrued.parts().iter().zip(r.billed.parts()) {
                prop_assert!(*accrued <= billed, "billed {} under accrued {}", billed, accrued);
            }
        }
        agrees(&c, at + later)?;
    }
}

fn hours(h: i64) -> i64 {
    h * 3600
}

fn running_for(seconds: i64, per_hour: Decimal) -> Usage {
    let mut life = Lifecycle::new(ts(0), InstanceState::Running);
    life.push(ts(seconds), InstanceState::Released);
    Usage::new(life, ComputeTerms::Hourly { per_hour })
}

#[test]
fn a_port_mapping_bills_while_up_and_a_monthly_fee_while_the_instance_exists() {
    let mut sheet = example_sheet();
    (sheet.extras.license_per_hour, sheet.extras.boot_fee) = (None, None);
    sheet.billing.month_hours = 730;
    sheet.extras.other = vec![
        OtherExtra {
            label: "port mapping".into(),
            price: OtherPrice::PerHourUp(dec!(0.02)),
        },
        OtherExtra {
            label: "support".into(),
            price: OtherPrice::PerMonth(dec!(73)),
        },
    ];
    let mut life = Lifecycle::new(ts(0), InstanceState::Running);
    life.push(ts(hours(10)), InstanceState::Stopped);
    let usage = Usage::new(life, ComputeTerms::Hourly { per_hour: dec!(0) });
    let r = accrue(&sheet, &usage, ts(hours(20)));
    // 10 h up at 0.02, and 20 h of existence at 73 a 730-hour month.
    assert_eq!(r.accrued.extras, dec!(2.2));
    assert_eq!(
        r.burn_per_hour.extras,
        dec!(0.1),
        "stopped: only the monthly fee burns"
    );
}

#[test]
fn a_licence_of_2_an_hour_for_10_hours_is_20_in_extras() {
    let mut sheet = example_sheet();
    sheet.extras.license_per_hour = Some(dec!(2));
    sheet.extras.boot_fee = None;
    let mut usage = Usage::new(
        Lifecycle::new(ts(0), InstanceState::Running),
        ComputeTerms::Hourly { per_hour: dec!(0) },
    );
    usage.licenses = 1;
    let r = accrue(&sheet, &usage, ts(hours(10)));
    assert_eq!(r.accrued.extras, dec!(20));
    assert_eq!(r.burn_per_hour.extras, dec!(2));
}

#[test]
fn ten_mbps_at_23_for_a_whole_month_is_230() {
    let mut sheet = example_sheet();
    sheet.billing.month_hours = 720;
    sheet.network.fixed_bandwidth_per_mbps_month = Some(dec!(23));
    let mut usage = running_for(hours(720), dec!(0));
    usage.fixed_bandwidth_mbps = Some(dec!(10));
    let r = accrue(&sheet, &usage, ts(hours(720)));
    assert_eq!(r.accrued.bandwidth, dec!(230));
    assert!(r.unpriced.is_empty(), "{:?}", r.unpriced);
}

#[test]
fn billable_egress_at_an_unknown_price_is_listed_not_charged() {
    let mut sheet = example_sheet();
    sheet.network.egress_per_unit = None;
    sheet.network.free_egress_per_month = dec!(1);
    sheet.network.fixed_bandwidth_per_mbps_month = None;
    let mut usage = running_for(hours(1), dec!(0));
    usage.traffic.push(Traffic {
        at: ts(60),
        egress_bytes: 5 << 30,
        ingress_bytes: 0,
        split: EgressSplit::default(),
    });
    let r = accrue(&sheet, &usage, ts(hours(1)));
    assert_eq!(r.accrued.bandwidth, dec!(0));
    assert_eq!(named(&r, &usage), vec![Unpriced::Egress]);
}

// Where the engine once departed from the rules, found by the oracle.

#[test]
fn committed_before_creation() {
    let usage = Usage::new(
        Lifecycle::new(ts(3600), InstanceState::Running),
        ComputeTerms::Committed { amount: dec!(1500) },
    );
    let r = accrue(&example_sheet(), &usage, ts(0));
    assert_eq!(r.accrued.compute, dec!(0));
}

#[test]
fn licence_price_unknown_is_not_named() {
    let mut sheet = example_sheet();
    sheet.extras.license_per_hour = None;
    sheet.network.fixed_bandwidth_per_mbps_month = None;
    let mut usage = running_for(hours(1), dec!(0));
    usage.licenses = 1;
    let r = accrue(&sheet, &usage, ts(hours(1)));
    assert_eq!(named(&r, &usage), vec![Unpriced::Licence]);
}

#[test]
fn idle_ip_priced_as_attached() {
    let mut sheet = example_sheet();
    sheet.extras.public_ip_idle_per_hour = None;
    sheet.extras.boot_fee = None;
    sheet.network.fixed_bandwidth_per_mbps_month = None;
    let mut usage = Usage::new(
        Lifecycle::new(ts(0), InstanceState::Stopped),
        ComputeTerms::Hourly { per_hour: dec!(0) },
    );
    usage.resources.push(gpumeter_core::meter::Resource {
        id: "eip".into(),
        kind: ResourceKind::PublicIp,
        class: None,
        size_gib: dec!(0),
        created: ts(0),
        deleted: None,
        deleted_with_instance: false,
    });
    let r = accrue(&sheet, &usage, ts(hours(1)));
    assert_eq!(r.accrued.extras, dec!(0));
    assert_eq!(named(&r, &usage), vec![Unpriced::Resource("eip".into())]);
}
