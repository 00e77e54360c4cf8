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

#[test]
fn price_origin_says_live_sheet_or_another_regions_sheet() {
    use super::{PriceKind, PriceOrigin};
    let origin = |sheet: Option<&str>, instance: Option<&str>, live| {
        PriceOrigin::new("aws-us-east-1", sheet, instance, live)
    };
    assert_eq!(
        origin(Some("us-east-1"), Some("eu-west-1"), true).kind,
        PriceKind::Live
    );
    assert_eq!(
        origin(Some("us-east-1"), Some("us-east-1"), false).kind,
        PriceKind::Sheet
    );
    assert_eq!(
        origin(Some("us-east-1"), Some(" US-East-1 "), false).kind,
        PriceKind::Sheet
    );
    // An unknown region is not said to differ.
    assert_eq!(
        origin(None, Some("eu-west-1"), false).kind,
        PriceKind::Sheet
    );
    assert_eq!(
        origin(Some("us-east-1"), None, false).kind,
        PriceKind::Sheet
    );
    let other = origin(Some("us-east-1"), Some("eu-west-1"), false);
    assert_eq!(other.kind, PriceKind::OtherRegion);
    assert_eq!(
        other.estimate_line().as_deref(),
        Some("prices: sheet aws-us-east-1 (us-east-1) used as an estimate for eu-west-1")
    );
    let chinese = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || other.estimate_line());
    assert_eq!(
        chinese.as_deref(),
        Some("价格：以价格表 aws-us-east-1（us-east-1）估算 eu-west-1 的费用")
    );
    assert_eq!(
        origin(Some("us-east-1"), Some("us-east-1"), false).estimate_line(),
        None
    );
    assert_eq!(
        serde_json::to_value(&other).unwrap(),
        serde_json::json!({
            "kind": "other_region",
            "sheet": "aws-us-east-1",
            "sheet_region": "us-east-1",
            "instance_region": "eu-west-1",
        })
    );
}
