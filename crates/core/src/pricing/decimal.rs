//! Numbers in a sheet, as written, and their exact conversion to `Decimal`.
//!
//! A price may be a quoted decimal (`"0.09"`), an integer (`2`) or a TOML float (`0.09`). The
//! first two are exact. A TOML float has already become an `f64` by the time serde hands it
//! over, so `0.09` is really 0.0899999999999999966693...; we take the float's shortest
//! round-trip text (`f64::to_string`, which is `"0.09"`) and parse that as a decimal. Any
//! decimal literal of at most 15 significant digits survives the trip through `f64` and back
//! unchanged (an `f64` holds 15.95 decimal digits), so for those the result is exactly what the
//! user wrote. With more digits it may not be, so such a float is rejected and the user is told
//! to quote it.

use std::fmt;

use rust_decimal::Decimal;
use serde::de::{self, Deserialize, Deserializer, Visitor};

/// The most significant digits a TOML float may have; see the module docs.
pub const MAX_EXACT_FLOAT_DIGITS: usize = 15;

/// No price or quantity in a sheet is this large; the bound keeps every product the meter
/// forms (a price times hours times a count) far inside `Decimal`'s range.
pub const MAX_MAGNITUDE: Decimal = rust_decimal::dec!(1_000_000_000_000);

/// A number as the TOML file states it, before any checking.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RawNumber {
    Text(String),
    Integer(i64),
    Float(f64),
}

/// Why a [`RawNumber`] is not a decimal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberError {
    /// Not of the form `-?digits[.digits]`, or too large for a `Decimal`.
    NotADecimal,
    /// `inf` or `nan`.
    NotFinite,
    /// Larger than [`MAX_MAGNITUDE`], or more decimal places than a `Decimal` holds (28).
    OutOfRange,
    /// A float with more significant digits than an `f64` keeps.
    Inexact { digits: usize },
}

impl RawNumber {
    /// The exact decimal. `literal` is the value's source text when known: a float literal
    /// with too many digits is caught from it even when its `f64` happens to print short.
    pub fn to_decimal(&self, literal: Option<&str>) -> Result<Decimal, NumberError> {
        let value = match self {
            RawNumber::Text(text) => parse_plain_decimal(text),
            RawNumber::Integer(n) => Ok(Decimal::from(*n)),
            RawNumber::Float(f) => float_to_decimal(*f, literal),
        }?;
        if value.abs() > MAX_MAGNITUDE {
            return Err(NumberError::OutOfRange);
        }
        Ok(value)
    }

    /// The value as the user wrote it, for messages.
    pub fn as_written(&self) -> String {
        match self {
            RawNumber::Text(text) => format!("\"{text}\""),
            RawNumber::Integer(n) => n.to_string(),
            RawNumber::Float(f) => f.to_string(),
        }
    }
}

/// Accepts only `-?digits[.digits]`: no exponent, no underscores, no spaces, so that a
/// quoted price means exactly what it shows.
fn parse_plain_decimal(text: &str) -> Result<Decimal, NumberError> {
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) || text.ends_with('.') {
        return Err(NumberError::NotADecimal);
    }
    Decimal::from_str_exact(text).map_err(|_| NumberError::OutOfRange)
}

fn float_to_decimal(value: f64, literal: Option<&str>) -> Result<Decimal, NumberError> {
    if !value.is_finite() {
        return Err(NumberError::NotFinite);
    }
    let shortest = value.to_string();
    let digits = significant_digits(&shortest).max(literal.map_or(0, significant_digits));
    if digits > MAX_EXACT_FLOAT_DIGITS {
        return Err(NumberError::Inexact { digits });
    }
    Decimal::from_str_exact(&shortest).map_err(|_| NumberError::OutOfRange)
}

/// Significant digits of a decimal or TOML float literal (`"0.000150"` has 2). Leading and
/// trailing zeros do not count: they never make a value inexact.
fn significant_digits(literal: &str) -> usize {
    let mantissa = literal.split(['e', 'E']).next().unwrap_or("");
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    digits.trim_start_matches('0').trim_end_matches('0').len()
}

impl<'de> Deserialize<'de> for RawNumber {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NumberVisitor)
    }
}

pub(crate) struct NumberVisitor;

impl Visitor<'_> for NumberVisitor {
    type Value = RawNumber;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number, or a decimal in quotes such as \"0.09\"")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<RawNumber, E> {
        Ok(RawNumber::Text(v.to_string()))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawNumber, E> {
        Ok(RawNumber::Integer(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawNumber, E> {
        i64::try_from(v)
            .map(RawNumber::Integer)
            .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<RawNumber, E> {
        Ok(RawNumber::Float(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::dec;

    fn float(f: f64) -> Result<Decimal, NumberError> {
        RawNumber::Float(f).to_decimal(None)
    }

    #[test]
    fn floats_become_the_decimal_written() {
        assert_eq!(float(0.09), Ok(dec!(0.09)));
        assert_eq!(float(0.1).unwrap() + float(0.2).unwrap(), dec!(0.3));
        assert_eq!(float(21.957_642), Ok(dec!(21.957642)));
        assert_eq!(float(0.000_000_1), Ok(dec!(0.0000001)));
        assert_eq!(float(1e12), Ok(MAX_MAGNITUDE));
        assert_eq!(float(123_456_789.012_345), Ok(dec!(123456789.012345)));
    }

    #[test]
    fn floats_with_too_many_digits_are_rejected() {
        let long = 0.123_456_789_012_345_67;
        assert_eq!(float(long), Err(NumberError::Inexact { digits: 17 }));
        // Prints as "0.1" but the user wrote 19 digits: caught from the literal.
        assert_eq!(
            RawNumber::Float(0.1).to_decimal(Some("0.1000000000000000001")),
            Err(NumberError::Inexact { digits: 19 })
        );
        assert_eq!(float(f64::NAN), Err(NumberError::NotFinite));
        assert_eq!(float(1e-30), Err(NumberError::OutOfRange));
        assert_eq!(float(1e300), Err(NumberError::OutOfRange));
        assert_eq!(float(f64::INFINITY), Err(NumberError::NotFinite));
    }

    #[test]
    fn quoted_decimals_are_plain() {
        let text = |s: &str| RawNumber::Text(s.into()).to_decimal(None);
        assert_eq!(text("0.09"), Ok(dec!(0.09)));
        assert_eq!(text("-1.5"), Ok(dec!(-1.5)));
        assert_eq!(text("7"), Ok(dec!(7)));
        assert_eq!(text("1000000000000.1"), Err(NumberError::OutOfRange));
        assert_eq!(
            RawNumber::Integer(i64::MAX).to_decimal(None),
            Err(NumberError::OutOfRange)
        );
        for bad in [
            "", "-", ".5", "5.", "1e3", "1_000", " 1", "0,09", "+1", "abc", "1.2.3",
        ] {
            assert_eq!(text(bad), Err(NumberError::NotADecimal), "{bad:?}");
        }
    }

    #[test]
    fn significant_digits_ignore_outer_zeros() {
        assert_eq!(significant_digits("0.000150"), 2);
        assert_eq!(significant_digits("1_000.5e3"), 5);
        assert_eq!(significant_digits("-0"), 0);
    }
}
