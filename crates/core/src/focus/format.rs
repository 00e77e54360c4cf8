//! Values in the forms FOCUS 1.0's global attributes prescribe: UTC instants as
//! `YYYY-MM-DDTHH:mm:ssZ`, numbers as plain decimals (no units, no exponent, no `+`), and
//! key-value columns as a JSON object of strings.
//!
//! Sources: <https://github.com/FinOps-Open-Cost-and-Usage-Spec/FOCUS_Spec/tree/v1.0/specification/attributes>
//! (`datetime_format.md`, `numeric_format.md`, `key_value_format.md`).

use std::fmt::Write as _;

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use rust_decimal::Decimal;

/// `at` in UTC, to the second, with a trailing `Z`.
pub fn instant(at: Timestamp) -> String {
    TimeZone::UTC
        .to_datetime(at)
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

/// `value` as a plain decimal without trailing zeros (`1.5`, `-0.25`, `3`).
pub fn decimal(value: Decimal) -> String {
    value.normalize().to_string()
}

/// The calendar month (UTC) that holds `at`, as `[start, end)`: the billing period of a charge.
pub fn month_of(at: Timestamp) -> (Timestamp, Timestamp) {
    let date = TimeZone::UTC.to_datetime(at).date().first_of_month();
    let next = date.last_of_month().tomorrow().unwrap_or(date);
    (midnight_utc(date), midnight_utc(next))
}

fn midnight_utc(date: Date) -> Timestamp {
    TimeZone::UTC
        .to_timestamp(date.to_datetime(jiff::civil::Time::midnight()))
        .unwrap_or(Timestamp::UNIX_EPOCH)
}

/// A JSON object whose values are all strings, keys in the order given.
pub fn json_object(pairs: &[(&str, &str)]) -> String {
    let mut out = String::from("{");
    for (i, (key, value)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json_string(&mut out, key);
        out.push(':');
        json_string(&mut out, value);
    }
    out.push('}');
    out
}

fn json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::dec;

    #[test]
    fn instants_are_utc_to_the_second_with_a_z() {
        let at: Timestamp = "2026-03-04T05:06:07.5+02:00".parse().unwrap();
        assert_eq!(instant(at), "2026-03-04T03:06:07Z");
    }

    #[test]
    fn decimals_carry_no_trailing_zeros_and_no_exponent() {
        assert_eq!(decimal(dec!(1.500000000)), "1.5");
        assert_eq!(decimal(dec!(-0.000000001)), "-0.000000001");
        assert_eq!(decimal(dec!(40.000000000)), "40");
    }

    #[test]
    fn a_month_runs_from_its_first_day_to_the_next_months_first_day() {
        let (start, end) = month_of("2026-12-31T23:59:59Z".parse().unwrap());
        assert_eq!(instant(start), "2026-12-01T00:00:00Z");
        assert_eq!(instant(end), "2027-01-01T00:00:00Z");
    }

    #[test]
    fn json_objects_escape_what_json_requires() {
        let text = json_object(&[("a\"b", "c\\d\n")]);
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(parsed["a\"b"], "c\\d\n");
    }
}
