use std::path::Path;

use jiff::tz::TimeZone;
use rust_decimal::dec;

use super::*;
use crate::config::{Config, ConfigError};
use crate::i18n::{Lang, scoped};

fn parse(src: &str) -> Result<Config, ConfigError> {
    Config::parse(src, Path::new("cfg/config.toml"))
}

/// The error's `path:line:column: key: message`, in `lang`.
fn refused(lang: Lang, src: &str) -> String {
    scoped(lang, || match parse(src) {
        Err(e @ ConfigError::Invalid { .. }) => e.to_string(),
        other => panic!("expected an invalid-config error, got {other:?}"),
    })
}

#[test]
fn the_section_reads_dates_amounts_and_rules() {
    let src = "[subscription]\nplan = \"month\"\npaid = \"1000\"\nstarted = 2026-11-01\n\
               renews = false\nrefund = \"unused\"\nrefund_to = \"vouchers\"\n";
    let config = parse(src).unwrap();
    let s = &config.subscription;
    assert_eq!(s.plan, Some(Plan::Month));
    assert_eq!(s.paid, Some(dec!(1000)));
    let shanghai = TimeZone::get("Asia/Shanghai").unwrap();
    // No `ends`: a month after the start, midnight to midnight in the zone.
    let sub = s.resolve(Some(Currency::CNY), (None, None), &shanghai);
    assert_eq!(sub.started, Some("2026-10-31T16:00:00Z".parse().unwrap()));
    assert_eq!(sub.ends, Some("2026-11-30T16:00:00Z".parse().unwrap()));
    assert_eq!(sub.refund, Some(Refund::Unused));
    assert_eq!(sub.refund_to, Some(RefundTo::Vouchers));
    assert_eq!(sub.paid, Some(Money::new(dec!(1000), Currency::CNY)));
    // RFC 3339 as a string or a TOML date-time; `ends` given, `started` counted back.
    for ends in ["\"2026-12-01T00:00:00Z\"", "2026-12-01T08:00:00+08:00"] {
        let src = format!("[subscription]\nplan = \"week\"\nends = {ends}\n");
        let sub = parse(&src).unwrap().subscription.resolve(
            None,
            (Some(Refund::None), None),
            &TimeZone::UTC,
        );
        assert_eq!(sub.ends, Some("2026-12-01T00:00:00Z".parse().unwrap()));
        assert_eq!(sub.started, Some("2026-11-24T00:00:00Z".parse().unwrap()));
        // The sheet's rule where the config states none; `paid` unknown without a currency.
        assert_eq!(sub.refund, Some(Refund::None));
        assert_eq!(sub.paid, None);
    }
}

#[test]
fn a_bad_date_names_its_file_line_and_column() {
    let src = "[subscription]\nplan = \"month\"\nstarted = \"next tuesday\"\n";
    let err = refused(Lang::En, src);
    assert!(
        err.starts_with("cfg/config.toml:3:11: subscription.started: `next tuesday` is not a date"),
        "{err}"
    );
    let zh = refused(Lang::ZhCn, src);
    assert!(
        zh.starts_with("cfg/config.toml:3:11: ") && zh.contains("不是日期"),
        "{zh}"
    );
}

#[test]
fn an_unknown_refund_word_or_a_fraction_above_one_is_refused_where_written() {
    let err = refused(Lang::En, "[subscription]\n\nrefund = \"some\"\n");
    assert!(
        err.starts_with("cfg/config.toml:3:10: subscription.refund: `some` is not a refund rule"),
        "{err}"
    );
    let err = refused(Lang::En, "[subscription]\nrefund = \"1.5\"\n");
    assert!(
        err.starts_with("cfg/config.toml:2:10: subscription.refund: `1.5` is not a fraction"),
        "{err}"
    );
    let err = refused(Lang::En, "[subscription]\nrefund_to = \"card\"\n");
    assert!(
        err.starts_with("cfg/config.toml:2:13: subscription.refund_to: "),
        "{err}"
    );
    let err = refused(Lang::En, "[subscription]\nplan = \"fortnight\"\n");
    assert!(
        err.starts_with("cfg/config.toml:2:8: subscription.plan: "),
        "{err}"
    );
    let zh = refused(Lang::ZhCn, "[subscription]\nrefund = \"1.5\"\n");
    assert!(zh.contains("0 到 1"), "{zh}");
}

#[test]
fn an_end_before_the_start_is_refused_at_the_end() {
    let src = "[subscription]\nstarted = 2026-12-01\nends = 2026-11-01\n";
    let err = refused(Lang::En, src);
    assert!(
        err.starts_with("cfg/config.toml:3:1: subscription.ends: `ends` (2026-11-01T00:00:00)"),
        "{err}"
    );
}
