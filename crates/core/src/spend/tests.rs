//! The live meter charges every line of the sheet, with what the config adds to it.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use rust_decimal::{Decimal, dec};

use super::{PriceSource, Pricing, Spend};
use crate::cloud::{InstanceInfo, Inventory};
use crate::meter::fixture::example_sheet;
use crate::meter::{BillingMode, ComputeTerms, InstanceState};
use crate::pricing::Sheet;

fn ts(s: i64) -> Timestamp {
    Timestamp::from_second(s).unwrap()
}

fn pricing(sheet: Sheet, mode: BillingMode) -> Pricing {
    let sku = sheet.skus[0].clone();
    Pricing {
        terms: ComputeTerms::from_sheet(&sheet, &sku, mode, 1).unwrap(),
        source: PriceSource::Sheet(sheet.id.clone()),
        sheet,
        sku,
        mode,
        licenses: None,
        bandwidth_mbps: None,
    }
}

fn inventory() -> Inventory {
    Inventory {
        instance: Some(InstanceInfo {
            id: "i-1".into(),
            name: "trainer".into(),
            provider: "test".into(),
            region: None,
            sku: "gpu.1x".into(),
            mode: BillingMode::OnDemand,
            state: InstanceState::Running,
            created: ts(0),
            live_price_per_hour: None,
            history: vec![(ts(0), InstanceState::Running)],
        }),
        resources: Vec::new(),
        deadline: None,
    }
}

/// The reading ten hours after creation.
fn reading_after_ten_hours(p: Pricing) -> super::SpendReading {
    let mut spend = Spend::new(Some(p), None, TimeZone::UTC);
    let inv = inventory();
    spend.record_inventory(&inv, ts(36_000));
    spend.recompute(Some(&inv), ts(36_000), None);
    spend.reading.expect("a reading")
}

/// Only the line under test: no boot fee, no fixed bandwidth.
fn bare_sheet() -> Sheet {
    let mut sheet = example_sheet();
    sheet.extras.boot_fee = None;
    sheet.network.fixed_bandwidth_per_mbps_month = None;
    sheet
}

#[test]
fn a_sheet_with_a_licence_price_charges_one_licence_unless_the_config_says_otherwise() {
    let mut sheet = bare_sheet();
    sheet.extras.license_per_hour = Some(dec!(2));
    let r = reading_after_ten_hours(pricing(sheet.clone(), BillingMode::OnDemand));
    assert_eq!(r.accrual.accrued.extras, dec!(20));
    assert_eq!(r.accrual.burn_per_hour.extras, dec!(2));

    let mut three = pricing(sheet.clone(), BillingMode::OnDemand);
    three.licenses = Some(3);
    assert_eq!(
        reading_after_ten_hours(three).accrual.accrued.extras,
        dec!(60)
    );

    let mut own = pricing(sheet, BillingMode::OnDemand);
    own.licenses = Some(0);
    let r = reading_after_ten_hours(own);
    assert_eq!(r.accrual.accrued.extras, Decimal::ZERO);
    assert_eq!(r.accrual.burn_per_hour.extras, Decimal::ZERO);
}

#[test]
fn a_fixed_bandwidth_plan_bills_the_configured_mbps_and_is_unknown_without_them() {
    let mut sheet = bare_sheet();
    sheet.extras.license_per_hour = None;
    sheet.network.fixed_bandwidth_per_mbps_month = Some(dec!(7.30));
    let r = reading_after_ten_hours(pricing(sheet.clone(), BillingMode::OnDemand));
    assert_eq!(r.accrual.accrued.bandwidth, Decimal::ZERO);
    assert!(
        r.accrual
            .unpriced
            .iter()
            .any(|u| u.contains("network.fixed_bandwidth_mbps")),
        "{:?}",
        r.accrual.unpriced
    );

    let mut five = pricing(sheet, BillingMode::OnDemand);
    five.bandwidth_mbps = Some(dec!(5));
    let r = reading_after_ten_hours(five);
    // 5 Mbps × 7.30 a month, for 10 of the month's 730 hours.
    assert_eq!(r.accrual.accrued.bandwidth, dec!(0.5));
    assert!(r.accrual.unpriced.is_empty(), "{:?}", r.accrual.unpriced);
}

#[test]
fn spot_is_metered_at_the_spot_price() {
    let mut sheet = bare_sheet();
    sheet.extras.license_per_hour = None;
    let r = reading_after_ten_hours(pricing(sheet, BillingMode::Spot));
    assert_eq!(r.accrual.accrued.compute, dec!(12.00));
    assert_eq!(r.accrual.burn_per_hour.compute, dec!(1.20));
}
