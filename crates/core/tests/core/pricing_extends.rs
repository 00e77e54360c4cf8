//! A user sheet that `extends` a bundled one overrides only the keys it states.

use std::fmt::Write as _;

use gpumeter_core::money::Currency;
use gpumeter_core::pricing::{self, ErrorKind, Location, load_str};
use rust_decimal::dec;

const USER: &str = r#"extends = "aws-us-east-1"
id = "my-aws"

[[sku]]
name = "G5.XLARGE"
on_demand_per_hour = "0.90"

[[sku]]
name = "my.box"
gpu_model = "L4"
gpu_count = 2
gpu_memory_gib = 24
on_demand_per_hour = "1.5"

[storage.disk]
gp3 = "0.07"

[extras]
boot_fee = "0.01"
"#;

#[test]
fn only_the_stated_keys_change() {
    let base = pricing::bundled_sheet("aws-us-east-1").unwrap();
    let sheet = load_str("mine.toml", USER).unwrap();
    assert_eq!(sheet.id, "my-aws");
    assert_eq!(sheet.provider, "aws");
    assert_eq!(sheet.currency, Currency::USD);
    assert_eq!((sheet.as_of, &sheet.source), (base.as_of, &base.source));
    assert_eq!(sheet.billing, base.billing);
    assert_eq!(sheet.network, base.network);

    // A SKU with an existing name overrides only the fields it states.
    let g5 = sheet.sku("g5.xlarge").unwrap();
    assert_eq!(g5.name, "g5.xlarge");
    assert_eq!(g5.on_demand_per_hour, Some(dec!(0.90)));
    assert_eq!(g5.gpu_model, "A10G");
    assert_eq!(g5.gpu_memory_gib, dec!(24));
    // Other SKUs are untouched; the new one comes last.
    assert_eq!(sheet.sku("p5.48xlarge"), base.sku("p5.48xlarge"));
    assert_eq!(sheet.skus.len(), base.skus.len() + 1);
    assert_eq!(sheet.skus.last().unwrap().name, "my.box");

    assert_eq!(sheet.storage.disk["gp3"].per_gib_month, dec!(0.07));
    assert_eq!(sheet.storage.disk["gp2"], base.storage.disk["gp2"]);
    assert_eq!(sheet.storage.snapshot, base.storage.snapshot);
    assert_eq!(sheet.extras.boot_fee, Some(dec!(0.01)));
    assert_eq!(
        sheet.extras.public_ip_idle_per_hour,
        base.extras.public_ip_idle_per_hour
    );
}

#[test]
fn a_new_sku_must_be_complete_and_errors_point_into_the_user_file() {
    let text = USER.replace("gpu_memory_gib = 24\n", "");
    let err = load_str("mine.toml", &text).unwrap_err();
    assert_eq!(err.kind, ErrorKind::MissingKey, "{err}");
    assert_eq!(err.source_name, "mine.toml");
    assert_eq!(err.location, Some(Location { line: 8, column: 1 }), "{err}");
    assert!(err.message.contains("`gpu_memory_gib`") && err.message.contains("my.box"));
}

#[test]
fn a_bad_override_points_at_the_user_value() {
    let text = USER.replace("\"0.90\"", "\"-1\"");
    let err = load_str("mine.toml", &text).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NegativePrice);
    assert_eq!(
        err.location,
        Some(Location {
            line: 6,
            column: 22
        }),
        "{err}"
    );
}

#[test]
fn the_currency_and_data_unit_cannot_change() {
    let text = format!("currency = \"CNY\"\n{USER}");
    let err = load_str("mine.toml", &text).unwrap_err();
    assert_eq!(err.kind, ErrorKind::CurrencyChanged);
    assert_eq!(
        err.location,
        Some(Location {
            line: 1,
            column: 12
        }),
        "{err}"
    );
    let same = format!("currency = \"USD\"\n{USER}");
    assert!(load_str("mine.toml", &same).is_ok());

    let text = format!("{USER}\n[network]\nunit = \"GiB\"\n");
    let err = load_str("mine.toml", &text).unwrap_err();
    assert_eq!(err.kind, ErrorKind::BadValue);
    assert_eq!(err.location.map(|l| l.line), Some(22), "{err}");
}

#[test]
fn duplicates_in_the_user_file_are_still_errors() {
    let text = format!("{USER}\n[[sku]]\nname = \"g5.xlarge\"\nspot_per_hour = 0.3\n");
    let err = load_str("mine.toml", &text).unwrap_err();
    assert_eq!(err.kind, ErrorKind::DuplicateSku);
    assert_eq!(
        err.location,
        Some(Location {
            line: 22,
            column: 8
        }),
        "{err}"
    );
}

#[test]
fn a_unit_price_reprices_inherited_compute_unit_skus() {
    let text = "extends = \"autodl-example\"\n[billing]\ncompute_unit_price = \"0.12\"\n";
    let sheet = load_str("cheap.toml", text).unwrap();
    assert_eq!(sheet.id, "cheap");
    let units = sheet.sku("rtx-4090").unwrap().compute_units.unwrap();
    assert_eq!(units.unit_price, dec!(0.12));
    assert_eq!(units.per_hour(), dec!(3.36));
}

#[test]
fn a_stated_empty_override_changes_nothing() {
    let sheet = load_str("same.toml", "extends = \"runpod\"\nid = \"runpod\"\n").unwrap();
    assert_eq!(&sheet, pricing::bundled_sheet("runpod").unwrap());
}

/// Many SKUs: each new one is kept in file order, an inherited one is overridden whatever its
/// case, and a duplicate far down the file still names its line and column and the first one.
#[test]
fn a_long_sheet_keeps_its_order_and_still_finds_duplicates() {
    let mut text = String::from("extends = \"aws-us-east-1\"\nid = \"many\"\n");
    for i in 0..5000 {
        let _ = write!(
            text,
            "\n[[sku]]\nname = \"box-{i}\"\ngpu_model = \"L4\"\ngpu_count = 1\n\
             gpu_memory_gib = 24\non_demand_per_hour = \"1.5\"\n"
        );
    }
    text.push_str("\n[[sku]]\nname = \"G5.XLARGE\"\non_demand_per_hour = \"0.90\"\n");
    let sheet = load_str("many.toml", &text).unwrap();
    let base = pricing::bundled_sheet("aws-us-east-1").unwrap();
    assert_eq!(sheet.skus.len(), base.skus.len() + 5000);
    assert_eq!(sheet.skus[base.skus.len()].name, "box-0");
    assert_eq!(sheet.skus.last().unwrap().name, "box-4999");
    assert_eq!(
        sheet.sku("g5.xlarge").unwrap().on_demand_per_hour,
        Some(dec!(0.90))
    );

    // `box-17`'s name is on line 5 + 7 * 17: the entries are seven lines apart.
    let dup = format!("{text}\n[[sku]]\nname = \"BOX-17\"\nspot_per_hour = \"0.3\"\n");
    let err = load_str("many.toml", &dup).unwrap_err();
    assert_eq!(err.kind, ErrorKind::DuplicateSku);
    let last_line = dup.lines().count() - 1;
    assert_eq!(
        err.location,
        Some(Location {
            line: last_line,
            column: 8
        }),
        "{err}"
    );
    assert!(
        err.to_string().starts_with(&format!(
            "many.toml:{last_line}:8: SKU `BOX-17` is listed twice (first on line {})",
            5 + 7 * 17
        )),
        "{err}"
    );
}
