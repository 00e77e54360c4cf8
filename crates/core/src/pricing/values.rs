//! Checking single values of a raw sheet: each conversion either yields the typed value or
//! an error pointing at the value in the file.

use std::ops::Range;

use jiff::civil::Date;
use rust_decimal::Decimal;
use toml::Spanned;

use super::decimal::{MAX_EXACT_FLOAT_DIGITS, MAX_MAGNITUDE, NumberError, RawNumber};
use super::error::{ErrorKind, SheetError, Source};
use super::raw::Num;
use super::sheet::{DataUnit, StopPolicy};
use crate::money::Currency;

pub(crate) struct Values<'a> {
    pub src: Source<'a>,
}

impl Values<'_> {
    pub fn error(&self, span: Range<usize>, kind: ErrorKind, message: String) -> SheetError {
        self.src.error_at(span, kind, message)
    }

    /// A required key is absent: point at its table's header, or at the top of the file.
    pub fn missing(&self, table: Option<Range<usize>>, key: &str, expected: &str) -> SheetError {
        self.error(
            table.unwrap_or(0..0),
            ErrorKind::MissingKey,
            format!("missing key `{key}`, expected {expected}"),
        )
    }

    /// Any decimal, sign unchecked.
    pub fn decimal(&self, value: &Spanned<RawNumber>, key: &str) -> Result<Decimal, SheetError> {
        let literal = self.src.snippet(value.span());
        value.get_ref().to_decimal(literal).map_err(|e| {
            let written = literal.map_or_else(|| value.get_ref().as_written(), str::to_string);
            let (kind, message) = match e {
                NumberError::NotADecimal => (
                    ErrorKind::BadNumber,
                    format!("`{key}` is {written}, expected a number such as 0.09 or \"0.09\""),
                ),
                NumberError::OutOfRange => (
                    ErrorKind::BadNumber,
                    format!(
                        "`{key}` is {written}, expected a number no larger than {MAX_MAGNITUDE} \
                         with at most 28 decimal places"
                    ),
                ),
                NumberError::NotFinite => (
                    ErrorKind::BadNumber,
                    format!("`{key}` is {written}, expected a finite number"),
                ),
                NumberError::Inexact { digits } => {
                    let text = &written;
                    (
                        ErrorKind::InexactFloat,
                        format!(
                            "`{key}` = {text} has {digits} significant digits, more than a TOML \
                             float keeps exactly ({MAX_EXACT_FLOAT_DIGITS}); expected the price \
                             in quotes: \"{text}\""
                        ),
                    )
                }
            };
            self.error(value.span(), kind, message)
        })
    }

    /// A price: zero or more.
    pub fn price(&self, value: &Spanned<RawNumber>, key: &str) -> Result<Decimal, SheetError> {
        let amount = self.decimal(value, key)?;
        if amount.is_sign_negative() && !amount.is_zero() {
            return Err(self.error(
                value.span(),
                ErrorKind::NegativePrice,
                format!("`{key}` is {amount}, expected a price of 0 or more"),
            ));
        }
        Ok(amount)
    }

    /// A price, or `None` for the word `"unknown"`: a required price the author could not find.
    pub fn price_or_unknown(
        &self,
        value: &Spanned<RawNumber>,
        key: &str,
    ) -> Result<Option<Decimal>, SheetError> {
        match value.get_ref() {
            RawNumber::Text(t) if t.trim().eq_ignore_ascii_case("unknown") => Ok(None),
            _ => self.price(value, key).map(Some),
        }
    }

    pub fn opt_price(&self, value: &Num, key: &str) -> Result<Option<Decimal>, SheetError> {
        value.as_ref().map(|v| self.price(v, key)).transpose()
    }

    /// A non-negative quantity that is not money (GiB, units per hour).
    pub fn quantity(&self, value: &Spanned<RawNumber>, key: &str) -> Result<Decimal, SheetError> {
        let amount = self.decimal(value, key)?;
        if amount.is_sign_negative() && !amount.is_zero() {
            return Err(self.error(
                value.span(),
                ErrorKind::BadValue,
                format!("`{key}` is {amount}, expected 0 or more"),
            ));
        }
        Ok(amount)
    }

    pub fn opt_quantity(&self, value: &Num, key: &str) -> Result<Option<Decimal>, SheetError> {
        value.as_ref().map(|v| self.quantity(v, key)).transpose()
    }

    /// A whole number of at least 1 (a billing step, a GPU count, the hours in a month).
    pub fn positive(&self, value: &Spanned<u32>, key: &str) -> Result<u32, SheetError> {
        match *value.get_ref() {
            0 => Err(self.error(
                value.span(),
                ErrorKind::BadValue,
                format!("`{key}` is 0, expected a whole number of at least 1"),
            )),
            n => Ok(n),
        }
    }

    /// A non-empty string.
    pub fn text(&self, value: &Spanned<String>, key: &str) -> Result<String, SheetError> {
        let text = value.get_ref().trim();
        if text.is_empty() {
            return Err(self.error(
                value.span(),
                ErrorKind::BadValue,
                format!("`{key}` is empty, expected some text"),
            ));
        }
        Ok(text.to_string())
    }

    pub fn stop_policy(&self, value: &Spanned<RawNumber>) -> Result<StopPolicy, SheetError> {
        const EXPECTED: &str = "expected \"keep-charging\", \"stop-charging\" or a fraction \
                                of the compute price from 0 to 1";
        let bad = |message: String| self.error(value.span(), ErrorKind::BadStopPolicy, message);
        match value.get_ref() {
            RawNumber::Text(word) if word == "keep-charging" => Ok(StopPolicy::KeepCharging),
            RawNumber::Text(word) if word == "stop-charging" => Ok(StopPolicy::StopCharging),
            RawNumber::Text(word) if value.get_ref().to_decimal(None).is_err() => {
                Err(bad(format!("`stop_policy` is \"{word}\", {EXPECTED}")))
            }
            _ => {
                let fraction = self.decimal(value, "stop_policy")?;
                if fraction < Decimal::ZERO || fraction > Decimal::ONE {
                    return Err(bad(format!(
                        "`stop_policy` fraction {fraction} is outside 0..=1, {EXPECTED}"
                    )));
                }
                Ok(StopPolicy::Fraction(fraction))
            }
        }
    }

    pub fn currency(&self, value: &Spanned<String>) -> Result<Currency, SheetError> {
        value
            .get_ref()
            .parse()
            .map_err(|e: crate::money::BadCurrency| {
                self.error(
                    value.span(),
                    ErrorKind::BadCurrency,
                    format!("`currency`: {e}"),
                )
            })
    }

    pub fn unit(&self, value: &Spanned<String>) -> Result<DataUnit, SheetError> {
        match value.get_ref().as_str() {
            "GiB" => Ok(DataUnit::GiB),
            "GB" => Ok(DataUnit::GB),
            other => Err(self.error(
                value.span(),
                ErrorKind::UnknownUnit,
                format!(
                    "unknown unit \"{other}\" in `network.unit`, expected \"GiB\" (2^30 bytes) \
                     or \"GB\" (10^9 bytes)"
                ),
            )),
        }
    }

    pub fn date(&self, value: &Spanned<toml::Value>) -> Result<Date, SheetError> {
        let parsed = match value.get_ref() {
            toml::Value::Datetime(dt) if dt.time.is_none() && dt.offset.is_none() => {
                dt.date.and_then(|d| {
                    Date::new(
                        d.year.try_into().ok()?,
                        d.month.try_into().ok()?,
                        d.day.try_into().ok()?,
                    )
                    .ok()
                })
            }
            toml::Value::String(s) => s.parse::<Date>().ok(),
            _ => None,
        };
        parsed.ok_or_else(|| {
            self.error(
                value.span(),
                ErrorKind::BadValue,
                "`as_of` is not a date, expected a date such as 2026-01-21".to_string(),
            )
        })
    }
}
