//! Plans by the day, week and year beside the month, and `[[billing.duration_discount]]`:
//! read exactly, inherited through `extends`, refused where they are written when wrong.

use gpumeter_core::pricing::{DurationDiscount, ErrorKind, load_str};
use rust_decimal::dec;

const SHEET: &str = r#"id = "plans"
provider = "autodl"
currency = "CNY"
as_of = 2026-08-21
source = "unit test"

[billing]
step_seconds = 1
minimum_seconds = 0
stop_policy = "stop-charging"
month_hours = 720

[[billing.duration_discount]]
months = 6
off = "0.2"

[[billing.duration_discount]]
months = 3
off = "0.1"

[[sku]]
name = "rtx-4090"
gpu_model = "RTX 4090"
gpu_count = 1
gpu_memory_gib = 24
on_demand_per_hour = "2"
daily = "40"
weekly = "250"
monthly = "1000"
yearly = "9000"

[network]
egress_per_unit = "0"
"#;

fn with(from: &str, to: &str) -> String {
    assert!(
        SHEET.contains(from),
        "test bug: {from:?} is not in the sheet"
    );
    SHEET.replacen(from, to, 1)
}

#[test]
fn every_plan_and_discount_is_read_and_discounts_sorted() {
    let sheet = load_str("mine.toml", SHEET).unwrap();
    let sku = sheet.sku("rtx-4090").unwrap();
    assert_eq!(
        (sku.daily, sku.weekly, sku.monthly, sku.yearly),
        (
            Some(dec!(40)),
            Some(dec!(250)),
            Some(dec!(1000)),
            Some(dec!(9000))
        )
    );
    assert_eq!(
        sheet.billing.duration_discounts,
        vec![
            DurationDiscount {
                months: 3,
                off: dec!(0.1)
            },
            DurationDiscount {
                months: 6,
                off: dec!(0.2)
            },
        ]
    );
    assert_eq!(sheet.billing.discount_for(2), dec!(0));
    assert_eq!(sheet.billing.discount_for(5), dec!(0.1));
    assert_eq!(sheet.billing.discount_for(12), dec!(0.2));
    // A SKU priced by plans alone is priced.
    let only_weekly = with("on_demand_per_hour = \"2\"\ndaily = \"40\"\n", "")
        .replace("monthly = \"1000\"\nyearly = \"9000\"\n", "");
    assert!(load_str("mine.toml", &only_weekly).is_ok());
}

#[test]
fn a_bad_discount_is_refused_where_it_is_written() {
    for (text, kind, says) in [
        (
            with("off = \"0.2\"", "off = \"1\""),
            ErrorKind::BadValue,
            "expected a fraction below 1",
        ),
        (
            with("months = 3\n", "months = 6\n"),
            ErrorKind::BadValue,
            "each months count once",
        ),
        (
            with("months = 6\n", "months = 0\n"),
            ErrorKind::BadValue,
            "billing.duration_discount.months",
        ),
        (
            with("off = \"0.1\"\n", ""),
            ErrorKind::MissingKey,
            "billing.duration_discount.off",
        ),
        (
            with("\"250\"", "\"-250\""),
            ErrorKind::NegativePrice,
            "weekly",
        ),
    ] {
        let err = load_str("mine.toml", &text).expect_err(says);
        assert_eq!(err.kind, kind, "{err}");
        assert!(err.to_string().contains(says), "{err}");
        assert!(err.location.is_some(), "{err}");
    }
}

#[test]
fn an_extending_sheet_inherits_discounts_and_may_add_plans() {
    let own = load_str(
        "mine.toml",
        "extends = \"autodl\"\nid = \"mine\"\n\n[[sku]]\nname = \"rtx-4090\"\nweekly = \"70\"\n",
    )
    .unwrap();
    let sku = own.sku("rtx-4090").unwrap();
    assert_eq!(sku.weekly, Some(dec!(70)));
    assert_eq!(
        sku.on_demand_per_hour,
        Some(dec!(1.88)),
        "the rest inherited"
    );
    assert_eq!(own.billing.duration_discounts, Vec::new());
}
