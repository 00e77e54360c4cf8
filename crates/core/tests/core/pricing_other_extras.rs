//! `[[extras.other]]`: charges a sheet names itself (support, port mapping, a tunnel), each
//! with a label and exactly one price, per hour while up or per month while the instance
//! exists; refused where they are written when they are not.

use gpumeter_core::meter::estimate::{Needs, Plan, PlanMode, PlanPrices, estimate};
use gpumeter_core::pricing::{ErrorKind, Location, OtherExtra, OtherPrice, load_str};
use rust_decimal::dec;

const SHEET: &str = r#"id = "with-extras"
provider = "autodl"
currency = "CNY"
as_of = 2026-08-21
source = "unit test"

[billing]
step_seconds = 1
minimum_seconds = 0
stop_policy = "stop-charging"
month_hours = 720

[[sku]]
name = "rtx-4090"
gpu_model = "RTX 4090"
gpu_count = 1
gpu_memory_gib = 24
on_demand_per_hour = "2"

[network]
egress_per_unit = "0"

[[extras.other]]
label = "port mapping"
per_hour = "0.05"

[[extras.other]]
label = "support plan"
per_month = "72"
"#;

fn with(from: &str, to: &str) -> String {
    assert!(
        SHEET.contains(from),
        "test bug: {from:?} is not in the sheet"
    );
    SHEET.replacen(from, to, 1)
}

fn refused(text: &str, kind: ErrorKind, line: usize, says: &str) {
    let err = load_str("mine.toml", text).expect_err("the sheet must be refused");
    assert_eq!(err.kind, kind, "{err}");
    assert_eq!(err.location.map(|l: Location| l.line), Some(line), "{err}");
    assert!(err.message.contains(says), "{err}");
}

#[test]
fn each_charge_is_read_with_its_label_and_price() {
    let sheet = load_str("mine.toml", SHEET).unwrap();
    assert_eq!(
        sheet.extras.other,
        vec![
            OtherExtra {
                label: "port mapping".into(),
                price: OtherPrice::PerHourUp(dec!(0.05)),
            },
            OtherExtra {
                label: "support plan".into(),
                price: OtherPrice::PerMonth(dec!(72)),
            },
        ]
    );
    let hostile = with("\"port mapping\"", "\"port\\u202Emapping\\u0007\"");
    let sheet = load_str("mine.toml", &hostile).unwrap();
    assert!(
        sheet.extras.other[0]
            .label
            .chars()
            .all(|c| !c.is_control() && c != '\u{202E}'),
        "{:?}",
        sheet.extras.other[0].label
    );
}

#[test]
fn a_charge_without_a_label_or_with_other_than_one_price_is_refused() {
    refused(
        &with("label = \"port mapping\"\n", ""),
        ErrorKind::MissingKey,
        23,
        "extras.other.label",
    );
    refused(
        &with(
            "per_hour = \"0.05\"\n",
            "per_hour = \"0.05\"\nper_month = \"1\"\n",
        ),
        ErrorKind::BadValue,
        23,
        "exactly one of `per_hour`",
    );
    refused(
        &with("per_hour = \"0.05\"\n", ""),
        ErrorKind::BadValue,
        23,
        "exactly one of `per_hour`",
    );
    refused(
        &with("\"0.05\"", "\"-0.05\""),
        ErrorKind::NegativePrice,
        25,
        "extras.other.per_hour",
    );
    let typo = load_str("mine.toml", &with("per_month", "per_mnth")).unwrap_err();
    assert_eq!(typo.kind, ErrorKind::UnknownKey, "{typo}");
}

#[test]
fn an_extending_sheet_keeps_the_base_list_unless_it_states_its_own() {
    let bare = load_str("mine.toml", "extends = \"autodl\"\nid = \"mine\"\n").unwrap();
    assert_eq!(bare.extras.other, Vec::new());
    let own = load_str(
        "mine.toml",
        "extends = \"autodl\"\nid = \"mine\"\n\n[[extras.other]]\nlabel = \"tunnel\"\nper_hour = \"0.01\"\n",
    )
    .unwrap();
    assert_eq!(own.extras.other.len(), 1);
    assert_eq!(own.extras.other[0].label, "tunnel");
}

#[test]
fn estimate_prices_them_per_hour_of_use_and_per_month_of_the_plan() {
    let sheet = load_str("mine.toml", SHEET).unwrap();
    let sku = sheet.sku("rtx-4090").unwrap().clone();
    let prices = PlanPrices::from_sheet(&sheet, &sku, 2);
    let plan = Plan {
        hours_per_day: dec!(8),
        days: dec!(30),
        runs_per_day: 1,
    };
    let e = estimate(&prices, plan, &Needs::default());
    let extras = e.mode(PlanMode::OnDemand).unwrap().breakdown.extras;
    // Two instances: 240 h of use at 0.05, and 720 h (one month of 720 h) at 72 a month.
    assert_eq!(extras, dec!(2) * (dec!(240) * dec!(0.05) + dec!(72)));
}
