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
            crate::t!("sheet-missing-key", key = key, expected = expected),
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
                    crate::t!("sheet-not-a-number", key = key, written = written.as_str()),
                ),
                NumberError::OutOfRange => (
                    ErrorKind::BadNumber,
                    crate::t!(
                        "sheet-number-too-large",
                        key = key,
                        written = written.as_str(),
                        max = MAX_MAGNITUDE.to_string()
                    ),
                ),
                NumberError::NotFinite => (
                    ErrorKind::BadNumber,
                    crate::t!("sheet-not-finite", key = key, written = written.as_str()),
                ),
                NumberError::Inexact { digits } => {
                    let text = &written;
                    (
                        ErrorKind::InexactFloat,
                        crate::t!(
                            "sheet-inexact-float",
                            key = key,
                            text = text.as_str(),
                            digits = digits.to_string(),
                            max = MAX_EXACT_FLOAT_DIGITS.to_string()
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
                crate::t!(
                    "sheet-negative-price",
                    key = key,
                    amount = amount.to_string()
                ),
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
                crate::t!("sheet-negative", key = key, amount = amount.to_string()),
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
                crate::t!("sheet-zero", key = key),
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
                crate::t!("sheet-empty-text", key = key),
            ));
        }
        Ok(text.to_string())
    }

    pub fn stop_policy(&self, value: &Spanned<RawNumber>) -> Result<StopPolicy, SheetError> {
        let bad = |message: String| self.error(value.span(), ErrorKind::BadStopPolicy, message);
        match value.get_ref() {
            RawNumber::Text(word) if word == "keep-charging" => Ok(StopPolicy::KeepCharging),
            RawNumber::Text(word) if word == "stop-charging" => Ok(StopPolicy::StopCharging),
            RawNumber::Text(word) if value.get_ref().to_decimal(None).is_err() => Err(bad(
                crate::t!("sheet-stop-policy-word", word = word.as_str()),
            )),
            _ => {
                let fraction = self.decimal(value, "stop_policy")?;
                if fraction < Decimal::ZERO || fraction > Decimal::ONE {
                    return Err(bad(crate::t!(
                        "sheet-stop-policy-fraction",
                        fraction = fraction.to_string()
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
                crate::t!("sheet-unknown-unit", unit = other),
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
                crate::t!("sheet-not-a-date").into_owned(),
            )
        })
    }
}
