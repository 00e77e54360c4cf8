//! The two billing states besides running and stopped: a sheet's no-GPU rate
//! (`billing.no_gpu_per_hour`) and the days after which a stopped instance is released
//! (`billing.released_after_stopped_days`). Both are optional, checked where they are written,
//! and inherited through `extends`.

use gpumeter_core::cloud::ProviderKind;
use gpumeter_core::pricing::{self, ErrorKind, Location, load_str};
use rust_decimal::dec;

const SHEET: &str = r#"id = "card-hours"
provider = "autodl"
currency = "CNY"
as_of = 2026-08-21
source = "unit test"

[billing]
step_seconds = 1
minimum_seconds = 0
stop_policy = "stop-charging"
no_gpu_per_hour = "0.10"
released_after_stopped_days = 15

[[sku]]
name = "rtx-4090"
gpu_model = "RTX 4090"
gpu_count = 1
gpu_memory_gib = 24
on_demand_per_hour = "1.88"

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

/// The error's kind and location, and that its text names the key and says `says`.
fn refused(text: &str, kind: ErrorKind, line: usize, column: usize, says: &str) {
    let err = load_str("mine.toml", text).expect_err("the sheet must be refused");
    assert_eq!(err.kind, kind, "{err}");
    assert_eq!(err.location, Some(Location { line, column }), "{err}");
    assert!(err.message.contains(says), "{err}");
    assert!(
        err.to_string()
            .starts_with(&format!("mine.toml:{line}:{column}: ")),
        "{err}"
    );
}

#[test]
fn both_keys_are_read_exactly() {
    let sheet = load_str("mine.toml", SHEET).unwrap();
    assert_eq!(sheet.billing.no_gpu_per_hour, Some(dec!(0.10)));
    assert_eq!(sheet.billing.released_after_stopped_days, Some(15));
    let float = with("\"0.10\"", "0.1");
    let sheet = load_str("mine.toml", &float).unwrap();
    assert_eq!(sheet.billing.no_gpu_per_hour, Some(dec!(0.1)));
}

#[test]
fn a_sheet_without_them_knows_neither() {
    let text = with(
        "no_gpu_per_hour = \"0.10\"\nreleased_after_stopped_days = 15\n",
        "",
    );
    let sheet = load_str("mine.toml", &text).unwrap();
    assert_eq!(sheet.billing.no_gpu_per_hour, None);
    assert_eq!(sheet.billing.released_after_stopped_days, None);
    // Every bundled sheet of a cloud that keeps a stopped instance states no release rule.
    for id in ["aws-us-east-1", "lambda", "runpod", "vast-typical"] {
        let bundled = pricing::bundled_sheet(id).unwrap();
        assert_eq!(bundled.billing.released_after_stopped_days, None, "{id}");
        assert_eq!(bundled.billing.no_gpu_per_hour, None, "{id}");
    }
}

#[test]
fn bad_values_are_refused_where_they_are_written() {
    let negative = with("\"0.10\"", "\"-0.10\"");
    refused(
        &negative,
        ErrorKind::NegativePrice,
        11,
        19,
        "`billing.no_gpu_per_hour` is -0.10, expected a price of 0 or more",
    );
    let words = with("\"0.10\"", "\"ten fen\"");
    refused(
        &words,
        ErrorKind::BadNumber,
        11,
        19,
        "`billing.no_gpu_per_hour` is \"ten fen\", expected a number",
    );
    let zero = with("= 15", "= 0");
    refused(
        &zero,
        ErrorKind::BadValue,
        12,
        31,
        "`billing.released_after_stopped_days` is 0, expected a whole number of at least 1",
    );
    let fraction = with("= 15", "= 15.5");
    let err = load_str("mine.toml", &fraction).unwrap_err();
    assert_eq!(
        err.location,
        Some(Location {
            line: 12,
            column: 31
        }),
        "{err}"
    );
    let negative_days = with("= 15", "= -3");
    let err = load_str("mine.toml", &negative_days).unwrap_err();
    assert_eq!(
        err.location,
        Some(Location {
            line: 12,
            column: 31
        }),
        "{err}"
    );
    let typo = with("released_after_stopped_days", "released_after_stoped_days");
    let err = load_str("mine.toml", &typo).unwrap_err();
    assert_eq!(err.kind, ErrorKind::UnknownKey, "{err}");
    assert!(err.message.contains("released_after_stopped_days"), "{err}");
}

#[test]
fn an_extending_sheet_inherits_them_and_may_change_them() {
    let inherits = "extends = \"autodl\"\nid = \"mine\"\n";
    let sheet = load_str("mine.toml", inherits).unwrap();
    assert_eq!(sheet.billing.no_gpu_per_hour, Some(dec!(0.10)));
    assert_eq!(sheet.billing.released_after_stopped_days, Some(15));
    let changes = format!("{inherits}[billing]\nno_gpu_per_hour = \"0.12\"\n");
    let sheet = load_str("mine.toml", &changes).unwrap();
    assert_eq!(sheet.billing.no_gpu_per_hour, Some(dec!(0.12)));
    assert_eq!(sheet.billing.released_after_stopped_days, Some(15));
}

#[test]
fn the_autodl_sheet_agrees_with_the_cloud_it_prices() {
    let sheet = pricing::bundled_sheet("autodl").expect("the AutoDL sheet is bundled");
    let days = sheet.billing.released_after_stopped_days.unwrap();
    let after = ProviderKind::Autodl.released_after_stopped().unwrap();
    assert_eq!(
        after,
        jiff::SignedDuration::from_hours(i64::from(days) * 24),
        "the sheet and the adapter must name the same release rule"
    );
    assert_eq!(sheet.provider, ProviderKind::Autodl.id());
    assert_eq!(sheet.billing.no_gpu_per_hour, Some(dec!(0.10)));
}
