//! Deserializers for the config's value types: durations, money amounts, CUDA versions and
//! sheet references. Each error says what to write instead.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use jiff::SignedDuration;
use rust_decimal::Decimal;
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

/// The longest duration any flag or setting takes: 87600 hours, ten years. Longer ones mean
/// nothing to a rented machine, and a deadline that far stays a time the clock can show.
pub const MAX_DURATION: Duration = Duration::from_secs(87_600 * 3600);

/// Why a duration's text was refused; each holds the text as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    #[error("`{0}` is negative: a duration must be 0 or more")]
    Negative(String),
    #[error("`{0}` is too large: the largest duration accepted is {max}h (10 years)", max = MAX_DURATION.as_secs() / 3600)]
    TooLarge(String),
    #[error("`{0}` is not a duration: write it like 8h, 45m, 90s or 1h30m")]
    Malformed(String),
    #[error("`{0}` is zero: this duration must be more than zero")]
    Zero(String),
}

impl DurationError {
    /// The error in the language the user reads (`Display` is English, for the config's
    /// errors and logs).
    pub fn shown(&self) -> String {
        match self {
            DurationError::Negative(text) => {
                crate::t!("err-duration-negative", text = text.as_str())
            }
            DurationError::TooLarge(text) => crate::t!(
                "err-duration-too-large",
                text = text.as_str(),
                max = (MAX_DURATION.as_secs() / 3600).to_string()
            ),
            DurationError::Malformed(text) => {
                crate::t!("err-duration-malformed", text = text.as_str())
            }
            DurationError::Zero(text) => crate::t!("err-duration-zero", text = text.as_str()),
        }
    }
}

/// Parses `"8h"`, `"45m"`, `"90s"`, `"1h30m"`, `"3d"` (or ISO 8601 `"PT8H"`) into a duration from zero
/// to [`MAX_DURATION`]. Every duration the command line and the config take comes through here.
pub fn parse_duration(s: &str) -> Result<Duration, DurationError> {
    let negative = || DurationError::Negative(s.to_owned());
    let too_large = || DurationError::TooLarge(s.to_owned());
    let signed: SignedDuration = match s.trim().parse().or_else(|_| in_days(s.trim())) {
        Ok(signed) => signed,
        // Numbers too big to count in are still a duration, only too long a one.
        Err(_) => match shrunk_numbers(s.trim()).parse::<SignedDuration>() {
            Ok(shape) if shape.is_negative() => return Err(negative()),
            Ok(_) => return Err(too_large()),
            Err(_) => return Err(DurationError::Malformed(s.to_owned())),
        },
    };
    let duration = Duration::try_from(signed).map_err(|_| negative())?;
    if duration > MAX_DURATION {
        return Err(too_large());
    }
    Ok(duration)
}

/// A duration written with days (`3d`, `2d12h`), a day being 24 hours: what a policy that
/// waits days (`stopped_release_after`) is written in.
fn in_days(s: &str) -> Result<SignedDuration, jiff::Error> {
    s.parse::<jiff::Span>()?
        .to_duration(jiff::SpanRelativeTo::days_are_24_hours())
}

/// `s` with each whole number (not the digits after a decimal point) written as `1`: the
/// same shape, with numbers small enough for any unit.
fn shrunk_numbers(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev: Option<char> = None;
    let mut in_fraction = false;
    for c in s.chars() {
        if c.is_ascii_digit() {
            let starts_run = !prev.is_some_and(|p| p.is_ascii_digit());
            if starts_run {
                in_fraction = matches!(prev, Some('.' | ','));
            }
            if in_fraction {
                out.push(c);
            } else if starts_run {
                out.push('1');
            }
        } else {
            out.push(c);
        }
        prev = Some(c);
    }
    out
}

fn positive(s: &str) -> Result<Duration, DurationError> {
    let d = parse_duration(s)?;
    if d.is_zero() {
        Err(DurationError::Zero(s.to_owned()))
    } else {
        Ok(d)
    }
}

pub fn duration<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    parse_duration(&String::deserialize(d)?).map_err(|e| de::Error::custom(e.shown()))
}

pub fn positive_duration<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    positive(&String::deserialize(d)?).map_err(|e| de::Error::custom(e.shown()))
}

pub fn opt_positive_duration<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Duration>, D::Error> {
    positive(&String::deserialize(d)?)
        .map(Some)
        .map_err(|e| de::Error::custom(e.shown()))
}

/// A percentage from 0 to 100, such as `3` or `2.5`.
pub fn percent<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let value = f64::deserialize(d)?;
    if value.is_finite() && (0.0..=100.0).contains(&value) {
        Ok(value)
    } else {
        let value = value.to_string();
        Err(de::Error::custom(crate::t!(
            "err-config-percent",
            value = value
        )))
    }
}

/// A clock time such as `"18:30"` or `"06:05:30"`.
pub fn opt_clock_time<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<jiff::civil::Time>, D::Error> {
    let s = String::deserialize(d)?;
    s.trim()
        .parse()
        .map(Some)
        .map_err(|_| de::Error::custom(crate::t!("err-config-clock-time", text = s.as_str())))
}

/// A money amount above zero: a decimal string (`"12.50"`) or an integer. Floats are refused
/// because `0.1` in binary is not 0.1, and a budget must be exact to the cent.
pub fn opt_amount<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Decimal>, D::Error> {
    struct AmountVisitor;
    impl Visitor<'_> for AmountVisitor {
        type Value = Decimal;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an amount as a string such as \"12.50\", or an integer")
        }
        fn visit_str<E: de::Error>(self, s: &str) -> Result<Decimal, E> {
            Decimal::from_str(s.trim())
                .map_err(|_| E::custom(crate::t!("err-config-amount", text = s)))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Decimal, E> {
            Ok(Decimal::from(v))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Decimal, E> {
            Ok(Decimal::from(v))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Decimal, E> {
            let value = v.to_string();
            Err(E::custom(crate::t!(
                "err-config-amount-float",
                value = value
            )))
        }
    }
    let amount = d.deserialize_any(AmountVisitor)?;
    if amount <= Decimal::ZERO {
        let amount = amount.to_string();
        return Err(de::Error::custom(crate::t!(
            "err-config-amount-zero",
            amount = amount
        )));
    }
    Ok(Some(amount))
}

/// The CUDA version a job needs, compared with what the driver supports; written "12.4".
pub use crate::telemetry::CudaVersion;

/// Which price sheet to use: a bundled one by id, or a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SheetRef {
    Bundled(String),
    File(PathBuf),
}

/// A value names a file, rather than something built in, when it has a path separator or
/// ends in `.toml`.
pub fn looks_like_path(s: &str) -> bool {
    let toml_ext = std::path::Path::new(s)
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("toml"));
    toml_ext || s.contains('/') || s.contains(std::path::MAIN_SEPARATOR)
}

impl<'de> Deserialize<'de> for SheetRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        if s.trim().is_empty() {
            Err(de::Error::custom(crate::t!("err-config-sheet-empty")))
        } else if looks_like_path(&s) {
            Ok(SheetRef::File(PathBuf::from(s)))
        } else {
            Ok(SheetRef::Bundled(s))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{DurationError, parse_duration};
    use crate::i18n::{Lang, scoped};

    #[test]
    fn a_duration_error_reads_as_display_in_english_and_in_chinese_otherwise() {
        for text in ["-5m", "99999h", "soon"] {
            let e = parse_duration(text).unwrap_err();
            assert_eq!(scoped(Lang::En, || e.shown()), e.to_string());
            let chinese = scoped(Lang::ZhCn, || e.shown());
            assert!(
                chinese.contains(text) && chinese != e.to_string(),
                "{chinese}"
            );
        }
        let zero = DurationError::Zero("0s".into());
        assert_eq!(scoped(Lang::En, || zero.shown()), zero.to_string());
    }
}
