//! Price sheets: the bundled ones, exact prices, bad sheets rejected at the right line and
//! column, and `extends`.

use gpumeter::money::Currency;
use gpumeter::pricing::{
    self, DataUnit, DiskPrice, ErrorKind, Location, SheetError, StopPolicy, load_str,
};
use rust_decimal::dec;

const GOOD: &str = r#"id = "test"
provider = "test"
currency = "USD"
as_of = 2026-01-01
source = "unit test"

[billing]
step_seconds = 1
minimum_seconds = 60
stop_policy = "stop-charging"

[[sku]]
name = "one"
gpu_model = "T4"
gpu_count = 1
gpu_memory_gib = 16
on_demand_per_hour = "0.5"

[network]
egress_per_unit = 0.09
"#;

/// `GOOD` with `from` replaced by `to`; `from` must occur.
fn edit(from: &str, to: &str) -> String {
    assert!(GOOD.contains(from), "test bug: {from:?} is not in GOOD");
    GOOD.replacen(from, to, 1)
}

fn error(text: &str) -> SheetError {
    load_str("pricing/x.toml", text).expect_err("the sheet must be rejected")
}

/// Asserts the kind, the line and column, and that the message says `says`.
fn assert_error(text: &str, kind: ErrorKind, line: usize, column: usize, says: &str) {
    let err = error(text);
    assert_eq!(err.kind, kind, "{err}");
    assert_eq!(err.location, Some(Location { line, column }), "{err}");
    assert!(err.message.contains(says), "{err}");
    assert!(
        err.to_string()
            .starts_with(&format!("pricing/x.toml:{line}:{column}: ")),
        "{err}"
    );
}

#[test]
fn a_good_sheet_loads_exactly() {
    let sheet = load_str("pricing/x.toml", GOOD).unwrap();
    assert_eq!(sheet.id, "test");
    assert_eq!(sheet.currency, Currency::USD);
    assert_eq!(sheet.as_of, jiff::civil::date(2026, 1, 1));
    assert_eq!(sheet.billing.stop_policy, StopPolicy::StopCharging);
    assert_eq!(sheet.billing.month_hours, 730);
    assert_eq!(sheet.network.unit, DataUnit::GiB);
    assert_eq!(sheet.network.egress_per_unit, Some(dec!(0.09)));
    assert_eq!(sheet.network.ingress_per_unit, dec!(0));
    let sku = sheet.sku("ONE").unwrap();
    assert_eq!(sku.on_demand_per_hour, Some(dec!(0.5)));
    assert_eq!(sku.spot_per_hour, None);
    assert_eq!(sheet.storage.snapshot, None);
    assert_eq!(sheet.extras.boot_fee, None);
}

#[test]
fn toml_floats_are_the_decimals_written() {
    let text = edit(
        "on_demand_per_hour = \"0.5\"",
        "on_demand_per_hour = 0.1\nspot_per_hour = 0.2",
    );
    let sku = load_str("x.toml", &text).unwrap().skus.remove(0);
    let sum = sku.on_demand_per_hour.unwrap() + sku.spot_per_hour.unwrap();
    assert_eq!(sum, dec!(0.3));
}

#[test]
fn a_float_with_too_many_digits_must_be_quoted() {
    let text = edit(
        "egress_per_unit = 0.09",
        "egress_per_unit = 0.12345678901234567",
    );
    assert_error(
        &text,
        ErrorKind::InexactFloat,
        20,
        19,
        "\"0.12345678901234567\"",
    );
    let quoted = edit(
        "egress_per_unit = 0.09",
        "egress_per_unit = \"0.12345678901234567\"",
    );
    let sheet = load_str("x.toml", &quoted).unwrap();
    assert_eq!(
        sheet.network.egress_per_unit,
        Some(dec!(0.12345678901234567))
    );
}

#[test]
fn unknown_key() {
    let text = edit("egress_per_unit = 0.09", "egres_per_gib = 0.09");
    assert_error(
        &text,
        ErrorKind::UnknownKey,
        20,
        1,
        "unknown key `egres_per_gib`, expected",
    );
    let err = error(&text);
    assert!(err.message.contains("`egress_per_unit`"), "{err}");
}

#[test]
fn negative_price() {
    let text = edit("\"0.5\"", "\"-0.5\"");
    assert_error(
        &text,
        ErrorKind::NegativePrice,
        17,
        22,
        "`on_demand_per_hour` is -0.5",
    );
}

#[test]
fn missing_currency_points_at_the_top() {
    let text = edit("currency = \"USD\"\n", "");
    assert_error(&text, ErrorKind::MissingKey, 1, 1, "missing key `currency`");
}

#[test]
fn missing_billing_key_points_at_its_table() {
    let text = edit("minimum_seconds = 60\n", "");
    assert_error(
        &text,
        ErrorKind::MissingKey,
        7,
        1,
        "`billing.minimum_seconds`",
    );
}

#[test]
fn missing_network_table_points_at_the_top() {
    let text = edit("[network]\negress_per_unit = 0.09\n", "");
    assert_error(
        &text,
        ErrorKind::MissingKey,
        1,
        1,
        "`network.egress_per_unit`",
    );
}

#[test]
fn unknown_unit() {
    let text = edit("[network]\n", "[network]\nunit = \"TB\"\n");
    assert_error(&text, ErrorKind::UnknownUnit, 20, 8, "unknown unit \"TB\"");
}

#[test]
fn duplicated_sku() {
    let dup = "[[sku]]\nname = \"One\"\ngpu_model = \"T4\"\ngpu_count = 1\n\
               gpu_memory_gib = 16\non_demand_per_hour = 1\n\n[network]";
    let text = edit("[network]", dup);
    assert_error(&text, ErrorKind::DuplicateSku, 20, 8, "first on line 13");
}

#[test]
fn bad_currency_code() {
    let text = edit("\"USD\"", "\"usd\"");
    assert_error(
        &text,
        ErrorKind::BadCurrency,
        3,
        12,
        "`usd` is not a currency code",
    );
}

#[test]
fn stop_policy_fraction_outside_zero_to_one() {
    let text = edit("\"stop-charging\"", "1.5");
    assert_error(&text, ErrorKind::BadStopPolicy, 10, 15, "outside 0..=1");
    let text = edit("\"stop-charging\"", "\"stop\"");
    assert_error(&text, ErrorKind::BadStopPolicy, 10, 15, "\"keep-charging\"");
    let half = load_str("x.toml", &edit("\"stop-charging\"", "\"0.5\"")).unwrap();
    assert_eq!(half.billing.stop_policy, StopPolicy::Fraction(dec!(0.5)));
}

#[test]
fn sku_with_no_price_points_at_its_header() {
    let text = edit("on_demand_per_hour = \"0.5\"\n", "");
    assert_error(&text, ErrorKind::NoPrice, 12, 1, "SKU `one` has no price");
}

#[test]
fn sku_missing_a_field_points_at_its_header() {
    let text = edit("gpu_model = \"T4\"\n", "");
    assert_error(
        &text,
        ErrorKind::MissingKey,
        12,
        1,
        "missing key `gpu_model`",
    );
}

#[test]
fn unknown_extends_target() {
    let text = format!("extends = \"nope\"\n{GOOD}");
    assert_error(&text, ErrorKind::UnknownExtends, 1, 11, "`aws-us-east-1`");
}

#[test]
fn out_of_range_values() {
    assert_error(
        &edit("step_seconds = 1", "step_seconds = 0"),
        ErrorKind::BadValue,
        8,
        16,
        "at least 1",
    );
    assert_error(
        &edit("gpu_count = 1", "gpu_count = \"1\""),
        ErrorKind::Syntax,
        15,
        13,
        "expected u32",
    );
    assert_error(
        &edit("2026-01-01", "\"January\""),
        ErrorKind::BadValue,
        4,
        9,
        "`as_of`",
    );
    assert_error(
        &edit("\"0.5\"", "\"0,5\""),
        ErrorKind::BadNumber,
        17,
        22,
        "expected a number",
    );
    assert_error(
        &edit("egress_per_unit = 0.09", "egress_per_unit = 1e300"),
        ErrorKind::BadNumber,
        20,
        19,
        "is 1e300, expected a number no larger than 1000000000000",
    );
}

#[test]
fn toml_syntax_errors_have_a_position() {
    let err = error(&edit("gpu_count = 1", "gpu_count = one"));
    assert_eq!(err.kind, ErrorKind::Syntax);
    assert_eq!(err.location.map(|l| l.line), Some(15));
}

#[test]
fn a_missing_id_comes_from_the_file_name() {
    let text = edit("id = \"test\"\n", "");
    assert_eq!(
        load_str("sheets/my-gpus.toml", &text).unwrap().id,
        "my-gpus"
    );
}

#[test]
fn a_disk_may_have_a_stopped_rate() {
    let text = format!(
        "{GOOD}\n[storage.disk]\nssd = 0.1\nvolume = {{ per_gib_month = \"0.10\", when_stopped = \"0.20\" }}\n"
    );
    let sheet = load_str("x.toml", &text).unwrap();
    let flat = DiskPrice {
        per_gib_month: dec!(0.1),
        when_stopped: None,
    };
    assert_eq!(sheet.storage.disk["ssd"], flat);
    assert_eq!(sheet.storage.disk["volume"].when_stopped, Some(dec!(0.20)));
    let bad =
        format!("{GOOD}\n[storage.disk]\nvolume = {{ per_gib_month = 1, when_stoped = 2 }}\n");
    assert_error(
        &bad,
        ErrorKind::UnknownKey,
        23,
        31,
        "unknown key `when_stoped`",
    );
}

#[test]
fn compute_units_take_the_sheet_unit_price() {
    let text = edit(
        "on_demand_per_hour = \"0.5\"",
        "compute_units_per_hour = 28",
    )
    .replace("[billing]\n", "[billing]\ncompute_unit_price = \"0.10\"\n");
    let sku = load_str("x.toml", &text).unwrap().skus.remove(0);
    assert_eq!(sku.compute_units.unwrap().per_hour(), dec!(2.80));
    let no_price = edit(
        "on_demand_per_hour = \"0.5\"",
        "compute_units_per_hour = 28",
    );
    assert_error(
        &no_price,
        ErrorKind::MissingKey,
        12,
        1,
        "`compute_unit_price`",
    );
}

#[test]
fn every_bundled_sheet_validates() {
    let results = pricing::load_bundled();
    assert!(results.len() >= 7);
    for result in &results {
        let sheet = result.as_ref().unwrap_or_else(|e| panic!("{e}"));
        assert!(
            !sheet.source.is_empty() && !sheet.skus.is_empty(),
            "{}",
            sheet.id
        );
        assert!(sheet.as_of > jiff::civil::date(2025, 1, 1), "{}", sheet.id);
    }
    assert_eq!(pricing::bundled().len(), results.len());
    let mut ids: Vec<&str> = pricing::bundled().iter().map(|s| s.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), results.len(), "sheet ids must be unique");
    for (id, currency) in [
        ("aws-us-east-1", Currency::USD),
        ("alibaba-cn-hangzhou", Currency::CNY),
        ("tencent-ap-beijing", Currency::CNY),
        ("lambda", Currency::USD),
        ("runpod", Currency::USD),
        ("vast-typical", Currency::USD),
        ("autodl-example", Currency::CNY),
        ("autodl", Currency::CNY),
        ("gpushare", Currency::CNY),
    ] {
        let sheet = pricing::bundled_sheet(id).unwrap_or_else(|| panic!("{id} is bundled"));
        assert_eq!(sheet.currency, currency, "{id}");
    }
}

#[test]
fn bundled_sheets_are_named_after_their_files() {
    for result in pricing::load_bundled() {
        let sheet = result.unwrap();
        let text = std::fs::read_to_string(format!("pricing/{}.toml", sheet.id)).unwrap();
        assert!(text.contains(&format!("id = \"{}\"", sheet.id)));
    }
}

#[test]
fn bundled_prices_match_their_sources() {
    let aws = pricing::bundled_sheet("aws-us-east-1").unwrap();
    assert_eq!(
        aws.sku("p4d.24xlarge").unwrap().on_demand_per_hour,
        Some(dec!(21.957642))
    );
    assert_eq!(aws.billing.minimum_seconds, 60);
    assert_eq!(aws.network.unit, DataUnit::GB);
    let runpod = pricing::bundled_sheet("runpod").unwrap();
    assert_eq!(runpod.storage.disk["volume"].when_stopped, Some(dec!(0.20)));
    let autodl = pricing::bundled_sheet("autodl-example").unwrap();
    let units = autodl.sku("rtx-4090").unwrap().compute_units.unwrap();
    assert_eq!(units.per_hour(), dec!(2.80));
    // AutoDL's data disk: 0.0066 CNY per GB per day, as a per-GiB 30-day month.
    let autodl = pricing::bundled_sheet("autodl").unwrap();
    let per_gib_month = autodl.storage.disk["data"].per_gib_month;
    let per_gb_day = per_gib_month * dec!(1_000_000_000)
        / dec!(1_073_741_824)
        / rust_decimal::Decimal::from(autodl.billing.month_hours / 24);
    assert_eq!(per_gb_day, dec!(0.0066));
    assert_eq!(
        autodl.sku("rtx-4090").unwrap().on_demand_per_hour,
        Some(dec!(1.88))
    );
    assert_eq!(autodl.network.egress_per_unit, Some(dec!(0)));
    let gpushare = pricing::bundled_sheet("gpushare").unwrap();
    assert_eq!(
        gpushare.network.egress_per_unit, None,
        "unknown, never free"
    );
    assert!(gpushare.storage.disk.is_empty());
    assert_eq!(gpushare.billing.no_gpu_per_hour, None);
    // g5.xlarge is an AWS type: every AWS region's sheet has it, no other provider's does.
    let found = pricing::find_sku("G5.XLARGE", None);
    assert!(found.len() > 1, "{}", found.len());
    assert!(found.iter().all(|(sheet, _)| sheet.provider == "aws"));
    assert!(found.iter().any(|(sheet, _)| sheet.id == "aws-us-east-1"));
    let one = pricing::find_sku("g5.xlarge", Some("aws-us-east-1"));
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].1.on_demand_per_hour, Some(dec!(1.006)));
    assert!(pricing::find_sku("g5.xlarge", Some("lambda")).is_empty());
}

#[test]
fn the_documented_examples_load() {
    let readme = std::fs::read_to_string("pricing/README.md").unwrap();
    let blocks: Vec<&str> = readme
        .split("```toml\n")
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap())
        .collect();
    assert_eq!(blocks.len(), 2);
    for block in blocks {
        load_str("pricing/README.md", block).unwrap_or_else(|e| panic!("{e}"));
    }
}
