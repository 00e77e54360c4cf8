//! A sheet's rule for leaving a subscription early (`billing.early_termination_refund`) and
//! where its refund goes (`billing.refund_to`): optional, checked where they are written, and
//! inherited through `extends`.

use gpumeter_core::pricing::{ErrorKind, Location, load_str};
use gpumeter_core::subscription::{Refund, RefundTo};
use rust_decimal::dec;

const SHEET: &str = r#"id = "prepaid"
provider = "alibaba"
currency = "CNY"
as_of = 2026-12-01
source = "unit test"

[billing]
step_seconds = 1
minimum_seconds = 0
stop_policy = "keep-charging"
early_termination_refund = "unused"
refund_to = "vouchers"

[[sku]]
name = "gpu.1x"
gpu_model = "A10"
gpu_count = 1
gpu_memory_gib = 24
on_demand_per_hour = "10"

[network]
egress_per_unit = "0"
"#;

#[test]
fn the_rule_and_where_it_goes_are_read() {
    let sheet = load_str("mine.toml", SHEET).unwrap();
    assert_eq!(sheet.billing.early_termination_refund, Some(Refund::Unused));
    assert_eq!(sheet.billing.refund_to, Some(RefundTo::Vouchers));
    let share = SHEET.replace("\"unused\"", "\"0.8\"");
    let sheet = load_str("mine.toml", &share).unwrap();
    assert_eq!(
        sheet.billing.early_termination_refund,
        Some(Refund::Share(dec!(0.8)))
    );
    let none = SHEET.replace(
        "early_termination_refund = \"unused\"\nrefund_to = \"vouchers\"\n",
        "",
    );
    let sheet = load_str("mine.toml", &none).unwrap();
    assert_eq!(sheet.billing.early_termination_refund, None);
    assert_eq!(sheet.billing.refund_to, None);
}

#[test]
fn a_bad_rule_or_destination_is_refused_where_it_is_written() {
    for (from, to, column, says) in [
        ("\"unused\"", "\"some\"", 28, "early_termination_refund"),
        ("\"unused\"", "\"1.2\"", 28, "early_termination_refund"),
        ("\"vouchers\"", "\"card\"", 13, "refund_to"),
    ] {
        let text = SHEET.replacen(from, to, 1);
        let err = load_str("mine.toml", &text).expect_err("the sheet must be refused");
        assert_eq!(err.kind, ErrorKind::BadValue, "{err}");
        let line = if says == "refund_to" { 12 } else { 11 };
        assert_eq!(err.location, Some(Location { line, column }), "{err}");
        assert!(err.message.contains(says), "{err}");
    }
}

#[test]
fn an_extending_sheet_states_its_own_and_no_bundled_sheet_states_one() {
    // No bundled sheet states a rule yet: none is cited from a provider's documentation.
    for sheet in gpumeter_core::pricing::bundled() {
        assert_eq!(sheet.billing.early_termination_refund, None, "{}", sheet.id);
        assert_eq!(sheet.billing.refund_to, None, "{}", sheet.id);
    }
    let text = "id = \"mine\"\nextends = \"alibaba-cn-hangzhou\"\n\n[billing]\n\
                early_termination_refund = \"0.5\"\nrefund_to = \"cash\"\n";
    let sheet = load_str("mine.toml", text).unwrap();
    assert_eq!(
        sheet.billing.early_termination_refund,
        Some(Refund::Share(dec!(0.5)))
    );
    assert_eq!(sheet.billing.refund_to, Some(RefundTo::Cash));
}
