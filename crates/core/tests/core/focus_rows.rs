//! The FOCUS rows built from a hand-made ledger: every column once, NULL (never `0` or an
//! empty string) for what the ledger does not know, end-exclusive periods clipped to the
//! window, and costs carried over exactly.

use gpumeter_core::cloud::ProviderKind;
use gpumeter_core::focus::{
    Column, FocusHour, FocusRow, FocusSession, SPEC_COLUMNS, build, header,
};
use gpumeter_core::money::Currency;
use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;
use rust_decimal::dec;

/// The 43 columns of FOCUS 1.0 as its column index lists them
/// (<https://github.com/FinOps-Open-Cost-and-Usage-Spec/FOCUS_Spec/tree/v1.0/specification/columns>),
/// and the pre-1.0 names focus-validator 1.0.0 requires or queries
/// (<https://github.com/finopsfoundation/focus_validator/blob/v1.0.0/focus_validator/rules/version_sets.yaml>).
const SPEC: [&str; 43] = [
    "AvailabilityZone",
    "BilledCost",
    "BillingAccountId",
    "BillingAccountName",
    "BillingCurrency",
    "BillingPeriodEnd",
    "BillingPeriodStart",
    "ChargeCategory",
    "ChargeClass",
    "ChargeDescription",
    "ChargeFrequency",
    "ChargePeriodEnd",
    "ChargePeriodStart",
    "CommitmentDiscountCategory",
    "CommitmentDiscountId",
    "CommitmentDiscountName",
    "CommitmentDiscountStatus",
    "CommitmentDiscountType",
    "ConsumedQuantity",
    "ConsumedUnit",
    "ContractedCost",
    "ContractedUnitPrice",
    "EffectiveCost",
    "InvoiceIssuerName",
    "ListCost",
    "ListUnitPrice",
    "PricingCategory",
    "PricingQuantity",
    "PricingUnit",
    "ProviderName",
    "PublisherName",
    "RegionId",
    "RegionName",
    "ResourceId",
    "ResourceName",
    "ResourceType",
    "ServiceCategory",
    "ServiceName",
    "SkuId",
    "SkuPriceId",
    "SubAccountId",
    "SubAccountName",
    "Tags",
];
const LEGACY: [&str; 5] = [
    "Provider",
    "Publisher",
    "InvoiceIssuer",
    "ResourceID",
    "ChargeType",
];

fn at(text: &str) -> Timestamp {
    text.parse().unwrap()
}

fn session(id: i64, mode: &str, region: Option<&str>, list: Option<Decimal>) -> FocusSession {
    FocusSession {
        id,
        instance: format!("i-{id}"),
        provider: "aws".into(),
        region: region.map(str::to_string),
        sku: "g5.xlarge".into(),
        mode: mode.into(),
        list_per_hour: list,
        currency: Currency::USD,
        started: at("2026-05-01T10:20:00Z"),
        ended: at("2026-05-01T13:40:00Z"),
    }
}

/// Hours 10 to 13 of session `id`: compute every hour, storage and traffic in some.
fn hours(id: i64) -> Vec<FocusHour> {
    (10..14)
        .map(|h| FocusHour {
            session: id,
            start: at(&format!("2026-05-01T{h}:00:00Z")),
            cost: [
                Decimal::new(h * 1_000_000_007, 9),
                if h == 11 { dec!(0.09) } else { Decimal::ZERO },
                dec!(0.013698630),
                Decimal::ZERO,
            ],
            egress_bytes: if h == 11 { 1_000_000_000 } else { 0 },
            split_bytes: [0, 0],
            split_cost: [Decimal::ZERO; 2],
        })
        .collect()
}

fn all_rows() -> Vec<FocusRow> {
    build(
        &[session(1, "spot", None, None)],
        &hours(1),
        at("2026-05-01T00:00:00Z"),
        at("2026-05-02T00:00:00Z"),
    )
}

#[test]
fn the_header_holds_every_focus_column_and_each_legacy_name_exactly_once() {
    let names = header();
    assert_eq!(names.len(), SPEC_COLUMNS + LEGACY.len());
    for name in SPEC.iter().chain(&LEGACY) {
        let n = names.iter().filter(|h| *h == name).count();
        assert_eq!(n, 1, "{name} appears {n} times");
    }
}

#[test]
fn what_the_ledger_does_not_know_is_null_never_zero_or_empty() {
    let rows = all_rows();
    assert!(!rows.is_empty());
    for row in &rows {
        for (name, value) in header().iter().zip(row.values()) {
            if let Some(v) = value {
                assert!(!v.trim().is_empty(), "{name} is an empty string, not NULL");
                assert_ne!(v, "Not Applicable", "{name}");
                if !["BilledCost", "EffectiveCost", "ContractedCost", "ListCost"].contains(name) {
                    assert_ne!(
                        v.parse::<f64>().ok(),
                        Some(0.0),
                        "{name} is a zero placeholder"
                    );
                }
            }
        }
        for column in [
            Column::RegionId,
            Column::RegionName,
            Column::AvailabilityZone,
            Column::ChargeClass,
            Column::CommitmentDiscountId,
            Column::SubAccountId,
            Column::ListUnitPrice,
        ] {
            assert_eq!(row.get(column), None, "{}", column.name());
        }
        assert!(row.get(Column::BillingAccountId).is_some());
    }
    let storage: Vec<_> = rows
        .iter()
        .filter(|r| r.get(Column::ServiceCategory) == Some("Storage"))
        .collect();
    assert_eq!(storage.len(), 4);
    for row in storage {
        assert_eq!(row.get(Column::PricingQuantity), None);
        assert_eq!(row.get(Column::PricingUnit), None);
        assert_eq!(row.get(Column::ConsumedQuantity), None);
        assert_eq!(row.get(Column::SkuId), None);
    }
}

#[test]
fn lines_that_cost_nothing_give_no_row() {
    let rows = all_rows();
    let networking: Vec<_> = rows
        .iter()
        .filter(|r| r.get(Column::ServiceCategory) == Some("Networking"))
        .collect();
    assert_eq!(networking.len(), 1);
    assert_eq!(networking[0].get(Column::ConsumedQuantity), Some("1"));
    assert_eq!(networking[0].get(Column::ConsumedUnit), Some("GB"));
    assert!(
        rows.iter()
            .all(|r| r.get(Column::ServiceCategory) != Some("Other"))
    );
}

#[test]
fn periods_are_end_exclusive_whole_hours_clipped_to_the_window() {
    let since = at("2026-05-01T10:30:00Z");
    let until = at("2026-05-01T13:15:00Z");
    let rows = build(
        &[session(
            1,
            "on_demand",
            Some("us-east-1"),
            Some(dec!(1.006)),
        )],
        &hours(1),
        since,
        until,
    );
    let compute: Vec<_> = rows
        .iter()
        .filter(|r| r.get(Column::ServiceCategory) == Some("Compute"))
        .collect();
    let bounds: Vec<(Timestamp, Timestamp)> = compute
        .iter()
        .map(|r| {
            (
                at(r.get(Column::ChargePeriodStart).unwrap()),
                at(r.get(Column::ChargePeriodEnd).unwrap()),
            )
        })
        .collect();
    assert_eq!(bounds.first().unwrap().0, since);
    assert_eq!(
        bounds.last().unwrap().1,
        until,
        "the end is the window's end, not a second before"
    );
    for pair in bounds.windows(2) {
        assert_eq!(pair[0].1, pair[1].0, "one row ends where the next begins");
    }
    for (start, end) in &bounds {
        assert!(start < end);
        assert!(*end - *start <= SignedDuration::from_hours(1));
    }
    // The hours of compute are the session's time inside each period.
    let quantity: Decimal = compute
        .iter()
        .map(|r| {
            r.get(Column::PricingQuantity)
                .unwrap()
                .parse::<Decimal>()
                .unwrap()
        })
        .sum();
    let expected = Decimal::from((until - since).as_secs()) / Decimal::from(3600);
    assert_eq!(quantity.round_dp(6), expected.round_dp(6));
    for row in &rows {
        assert_eq!(
            row.get(Column::BillingPeriodStart),
            Some("2026-05-01T00:00:00Z")
        );
        assert_eq!(
            row.get(Column::BillingPeriodEnd),
            Some("2026-06-01T00:00:00Z")
        );
        assert_eq!(row.get(Column::RegionId), Some("us-east-1"));
        assert_eq!(row.get(Column::PricingCategory), Some("Standard"));
    }
}

#[test]
fn billed_effective_and_contracted_cost_are_the_meters_amounts() {
    let rows = all_rows();
    let input: Decimal = hours(1).iter().flat_map(|h| h.cost).sum();
    let column_sum = |column: Column| -> Decimal {
        rows.iter()
            .map(|r| r.get(column).unwrap().parse::<Decimal>().unwrap())
            .sum()
    };
    assert_eq!(column_sum(Column::BilledCost), input);
    assert_eq!(column_sum(Column::EffectiveCost), input);
    assert_eq!(column_sum(Column::ContractedCost), input);
    for row in &rows {
        assert_eq!(row.get(Column::PricingCategory), Some("Dynamic"));
        assert_eq!(row.get(Column::ChargeCategory), Some("Usage"));
        assert_eq!(row.get(Column::ChargeFrequency), Some("Usage-Based"));
        assert_eq!(
            row.get(Column::ProviderName),
            row.get(Column::LegacyProvider)
        );
        assert_eq!(
            row.get(Column::ResourceId),
            row.get(Column::LegacyResourceId)
        );
        assert_eq!(row.get(Column::ResourceId), Some("i-1"));
        assert_eq!(
            row.get(Column::ChargeCategory),
            row.get(Column::LegacyChargeType)
        );
        assert!(row.get(Column::SkuPriceId).is_some());
    }
}

#[test]
fn a_spot_rows_list_cost_is_the_list_price_times_its_hours() {
    let list = dec!(2.5);
    let rows = build(
        &[session(1, "spot", None, Some(list))],
        &hours(1),
        at("2026-05-01T00:00:00Z"),
        at("2026-05-02T00:00:00Z"),
    );
    for row in rows
        .iter()
        .filter(|r| r.get(Column::ServiceCategory) == Some("Compute"))
    {
        let q: Decimal = row.get(Column::PricingQuantity).unwrap().parse().unwrap();
        let list_cost: Decimal = row.get(Column::ListCost).unwrap().parse().unwrap();
        assert_eq!(list_cost, (list * q).round_dp(9));
        assert_eq!(row.get(Column::ListUnitPrice), Some("2.5"));
        assert_eq!(row.get(Column::PricingUnit), Some("Hours"));
    }
}

#[test]
fn tags_are_a_json_object() {
    for row in all_rows() {
        let tags: serde_json::Value = serde_json::from_str(row.get(Column::Tags).unwrap()).unwrap();
        assert!(tags.is_object());
    }
}

#[test]
fn the_provider_name_is_the_kinds_display_name_and_an_unknown_one_stays_as_it_is() {
    let name_of = |provider: &str| {
        let mut one = session(1, "on_demand", None, None);
        one.provider = provider.into();
        let rows = build(
            &[one],
            &hours(1),
            at("2026-05-01T00:00:00Z"),
            at("2026-05-02T00:00:00Z"),
        );
        rows[0].get(Column::ProviderName).map(str::to_string)
    };
    for kind in ProviderKind::ALL {
        assert_eq!(name_of(kind.id()).as_deref(), Some(kind.display_name()));
    }
    assert_eq!(name_of("aws").as_deref(), Some("AWS"));
    assert_eq!(name_of("lambda").as_deref(), Some("Lambda Cloud"));
    assert_eq!(name_of("oci").as_deref(), Some("oci"));
}

#[test]
fn an_hours_bandwidth_splits_into_a_row_per_destination_that_adds_up_to_the_line() {
    let mut hours = hours(1);
    // Hour 11 sent 3 GB: 1.5 to the intranet (free), 0.5 to another region (0.01), 1 to the
    // internet (the rest of the line's 0.09).
    hours[1].egress_bytes = 3_000_000_000;
    hours[1].split_bytes = [1_500_000_000, 500_000_000];
    hours[1].split_cost = [Decimal::ZERO, dec!(0.01)];
    let rows = build(
        &[session(1, "on_demand", Some("us-east-1"), None)],
        &hours,
        at("2026-05-01T00:00:00Z"),
        at("2026-05-02T00:00:00Z"),
    );
    let names = header();
    let col = |row: &FocusRow, name: &str| -> Option<String> {
        let i = names.iter().position(|h| *h == name).unwrap();
        row.values()[i].clone()
    };
    let bandwidth: Vec<&FocusRow> = rows
        .iter()
        .filter(|r| col(r, "ServiceCategory").as_deref() == Some("Networking"))
        .collect();
    assert_eq!(bandwidth.len(), 3, "one row per destination");
    let class = |r: &FocusRow| -> String {
        let tags: serde_json::Value = serde_json::from_str(&col(r, "Tags").unwrap()).unwrap();
        tags["gpumeter-traffic-class"].as_str().unwrap().to_string()
    };
    let by = |name: &str| bandwidth.iter().find(|r| class(r) == name).unwrap();
    assert_eq!(
        col(by("internet"), "ConsumedQuantity").as_deref(),
        Some("1")
    );
    assert_eq!(col(by("internet"), "BilledCost").as_deref(), Some("0.08"));
    assert_eq!(
        col(by("intranet"), "ConsumedQuantity").as_deref(),
        Some("1.5")
    );
    assert_eq!(col(by("intranet"), "BilledCost").as_deref(), Some("0"));
    assert_eq!(
        col(by("cross_region"), "BilledCost").as_deref(),
        Some("0.01")
    );
    let sum: Decimal = bandwidth
        .iter()
        .map(|r| col(r, "BilledCost").unwrap().parse::<Decimal>().unwrap())
        .sum();
    assert_eq!(sum, dec!(0.09), "together the hour's bandwidth line");
    assert!(
        col(by("intranet"), "SkuPriceId")
            .unwrap()
            .contains("bandwidth-intranet")
    );
}
