//! Money and rates over `rust_decimal`, always tagged with an ISO 4217 currency code.
//!
//! There is no `f64` in money. Adding or comparing amounts in two currencies is an error,
//! never a silent sum. Rounding happens only where a bill rounds ([`Money::round_cents`]).

use std::fmt;
use std::str::FromStr;

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

mod balance;
mod partial;
pub use balance::Balance;
pub use partial::{PartialTotal, PartialTotalJson};

/// An ISO 4217 currency code: three ASCII capital letters, such as `USD` or `CNY`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Currency([u8; 3]);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a currency code: expected three capital letters such as USD or CNY")]
pub struct BadCurrency(pub String);

impl Currency {
    pub const USD: Currency = Currency(*b"USD");
    pub const CNY: Currency = Currency(*b"CNY");

    pub fn as_str(&self) -> &str {
        // The constructor only admits ASCII capitals, so this cannot fail.
        std::str::from_utf8(&self.0).unwrap_or("???")
    }
}

impl FromStr for Currency {
    type Err = BadCurrency;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bytes = s.as_bytes();
        if bytes.len() == 3 && bytes.iter().all(u8::is_ascii_uppercase) {
            Ok(Currency([bytes[0], bytes[1], bytes[2]]))
        } else {
            Err(BadCurrency(s.to_string()))
        }
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Currency {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Currency {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Two amounts in different currencies met in one operation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", crate::t!("money-currency-mismatch", left = left.to_string(), right = right.to_string()))]
pub struct CurrencyMismatch {
    pub left: Currency,
    pub right: Currency,
}

/// An exact amount of money in one currency.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Money {
    pub amount: Decimal,
    pub currency: Currency,
}

impl Money {
    pub fn new(amount: Decimal, currency: Currency) -> Self {
        Money { amount, currency }
    }

    pub fn zero(currency: Currency) -> Self {
        Money::new(Decimal::ZERO, currency)
    }

    pub fn is_zero(&self) -> bool {
        self.amount.is_zero()
    }

    fn same_currency(&self, other: &Money) -> Result<(), CurrencyMismatch> {
        if self.currency == other.currency {
            Ok(())
        } else {
            Err(CurrencyMismatch {
                left: self.currency,
                right: other.currency,
            })
        }
    }

    pub fn checked_add(self, other: Money) -> Result<Money, CurrencyMismatch> {
        self.same_currency(&other)?;
        Ok(Money::new(self.amount + other.amount, self.currency))
    }

    pub fn checked_sub(self, other: Money) -> Result<Money, CurrencyMismatch> {
        self.same_currency(&other)?;
        Ok(Money::new(self.amount - other.amount, self.currency))
    }

    /// Compares two amounts; an error when their currencies differ.
    pub fn checked_cmp(&self, other: &Money) -> Result<std::cmp::Ordering, CurrencyMismatch> {
        self.same_currency(other)?;
        Ok(self.amount.cmp(&other.amount))
    }

    /// Multiplies by a plain quantity (hours, GiB, a count). The currency is kept.
    #[must_use]
    pub fn times(self, quantity: Decimal) -> Money {
        Money::new(self.amount * quantity, self.currency)
    }

    /// Rounds half away from zero to the cent, as a bill line does.
    #[must_use]
    pub fn round_cents(self) -> Money {
        Money::new(
            self.amount
                .round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero),
            self.currency,
        )
    }

    /// The amount rounded to the cent, as a string with exactly two decimals (`"12.50"`).
    pub fn cents_string(&self) -> String {
        let mut rounded = self.round_cents().amount;
        rounded.rescale(2);
        rounded.to_string()
    }

    /// The amount rounded to the cent with thousands separators, for people (`"278,835.64"`);
    /// machine output (`--json`, CSV) keeps [`Money::cents_string`].
    pub fn grouped(&self) -> String {
        grouped_cents(self.amount)
    }

    /// Sums amounts that must all be in `currency`.
    pub fn sum<I: IntoIterator<Item = Money>>(
        currency: Currency,
        items: I,
    ) -> Result<Money, CurrencyMismatch> {
        items
            .into_iter()
            .try_fold(Money::zero(currency), Money::checked_add)
    }
}

impl fmt::Display for Money {
    /// `1,212.50 USD`: rounded to the cent for people; the exact amount stays in `amount`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_grouped_cents(self.amount, f)?;
        write!(f, " {}", self.currency)
    }
}

/// `amount` rounded half away from zero to the cent, two decimals, a comma every three digits
/// of the whole part: `-1,234.50`, `0.00`, `278,835.64`. The one way money is shown to people.
pub fn grouped_cents(amount: Decimal) -> String {
    let mut out = String::new();
    let _ = write_grouped_cents(amount, &mut out);
    out
}

/// [`grouped_cents`] written to `out`, no string made on the way: a report of a million lines
/// shows a million amounts.
fn write_grouped_cents(amount: Decimal, out: &mut impl fmt::Write) -> fmt::Result {
    let mut rounded = amount.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero);
    rounded.rescale(2);
    if rounded.is_sign_negative() && !rounded.is_zero() {
        out.write_char('-')?;
    }
    if rounded.scale() != 2 {
        // Too large for two decimals: the scale it kept, its digits as printed.
        let plain = rounded.abs().to_string();
        let (whole, cents) = plain.split_once('.').unwrap_or((plain.as_str(), "00"));
        write_grouped(whole.as_bytes(), out)?;
        return write!(out, ".{cents}");
    }
    let cents = rounded.mantissa().unsigned_abs();
    let mut buf = [0u8; 40];
    write_grouped(digits(cents / 100, &mut buf), out)?;
    write!(out, ".{:02}", cents % 100)
}

/// The decimal digits of `n`, most significant first, written at the end of `buf`.
fn digits(mut n: u128, buf: &mut [u8; 40]) -> &[u8] {
    let mut at = buf.len();
    while let Some(i) = at.checked_sub(1) {
        at = i;
        buf[i] = b'0' + u8::try_from(n % 10).unwrap_or(0);
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &buf[at..]
}

/// The digits `whole` with a comma every three from the right.
fn write_grouped(whole: &[u8], out: &mut impl fmt::Write) -> fmt::Result {
    for (i, &d) in whole.iter().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            out.write_char(',')?;
        }
        out.write_char(char::from(d))?;
    }
    Ok(())
}

impl fmt::Debug for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.amount, self.currency)
    }
}

/// A price per unit of time or quantity, such as 2.50 USD per hour. Kept apart from
/// [`Money`] so that a rate cannot be added to an amount by mistake.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rate {
    pub per_unit: Money,
}

impl Rate {
    pub fn new(amount: Decimal, currency: Currency) -> Self {
        Rate {
            per_unit: Money::new(amount, currency),
        }
    }

    pub fn currency(&self) -> Currency {
        self.per_unit.currency
    }

    /// The cost of `units` of whatever this rate is priced in.
    pub fn cost(&self, units: Decimal) -> Money {
        self.per_unit.times(units)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::dec;

    #[test]
    fn grouped_cents_are_the_rounded_amounts_digits_grouped() {
        // What the amount's own printing gives, grouped.
        let by_text = |amount: Decimal| {
            let mut rounded =
                amount.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero);
            rounded.rescale(2);
            let plain = rounded.abs().to_string();
            let (whole, cents) = plain.split_once('.').unwrap_or((plain.as_str(), "00"));
            let sign = if rounded.is_sign_negative() && !rounded.is_zero() {
                "-"
            } else {
                ""
            };
            let mut grouped = String::new();
            for (i, c) in whole.chars().enumerate() {
                if i > 0 && (whole.len() - i).is_multiple_of(3) {
                    grouped.push(',');
                }
                grouped.push(c);
            }
            format!("{sign}{grouped}.{cents}")
        };
        let mut n: i128 = 1;
        for scale in 0..=6 {
            for _ in 0..40 {
                for amount in [
                    Decimal::from_i128_with_scale(n, scale),
                    Decimal::from_i128_with_scale(-n, scale),
                ] {
                    assert_eq!(grouped_cents(amount), by_text(amount), "{amount}");
                    let money = Money::new(amount, Currency::CNY);
                    assert_eq!(money.to_string(), format!("{} CNY", by_text(amount)));
                }
                n = n * 7 + 3;
                if n > 10_i128.pow(27) {
                    n = 5;
                }
            }
        }
        for amount in [
            Decimal::MAX,
            Decimal::MIN,
            dec!(0.005),
            dec!(-0.005),
            dec!(999999.995),
        ] {
            assert_eq!(grouped_cents(amount), by_text(amount), "{amount}");
        }
    }

    #[test]
    fn grouped_cents_separate_thousands_and_keep_two_decimals() {
        assert_eq!(grouped_cents(dec!(0)), "0.00");
        assert_eq!(grouped_cents(dec!(-0.001)), "0.00");
        assert_eq!(grouped_cents(dec!(999.999)), "1,000.00");
        assert_eq!(grouped_cents(dec!(278835.64)), "278,835.64");
        assert_eq!(grouped_cents(dec!(-1234.5)), "-1,234.50");
        assert_eq!(grouped_cents(dec!(12.345678901)), "12.35");
        assert_eq!(grouped_cents(dec!(123456789012.3)), "123,456,789,012.30");
        assert_eq!(grouped_cents(dec!(100)), "100.00");
        let m = Money::new(dec!(1212.5), Currency::USD);
        assert_eq!(m.to_string(), "1,212.50 USD");
        assert_eq!(m.cents_string(), "1212.50");
    }

    #[test]
    fn currency_codes_are_three_capitals() {
        assert_eq!("USD".parse::<Currency>().unwrap(), Currency::USD);
        assert!("usd".parse::<Currency>().is_err());
        assert!("US".parse::<Currency>().is_err());
        assert!("USDT".parse::<Currency>().is_err());
    }

    #[test]
    fn adding_two_currencies_is_an_error() {
        let a = Money::new(dec!(1.00), Currency::USD);
        let b = Money::new(dec!(1.00), Currency::CNY);
        let err = a.checked_add(b).unwrap_err();
        assert_eq!(err.left, Currency::USD);
        assert_eq!(err.right, Currency::CNY);
        assert!(a.checked_cmp(&b).is_err());
        assert!(Money::sum(Currency::USD, [a, b]).is_err());
    }

    #[test]
    fn sums_are_exact() {
        let tenth = Money::new(dec!(0.1), Currency::USD);
        let total = Money::sum(Currency::USD, std::iter::repeat_n(tenth, 10)).unwrap();
        assert_eq!(total.amount, dec!(1.0));
    }

    #[test]
    fn rounds_half_away_from_zero_to_cents() {
        assert_eq!(
            Money::new(dec!(2.345), Currency::USD).cents_string(),
            "2.35"
        );
        assert_eq!(
            Money::new(dec!(2.344), Currency::USD).cents_string(),
            "2.34"
        );
        assert_eq!(
            Money::new(dec!(2000), Currency::CNY).cents_string(),
            "2000.00"
        );
        assert_eq!(Money::new(dec!(2.5), Currency::CNY).to_string(), "2.50 CNY");
    }

    #[test]
    fn rate_cost_keeps_currency() {
        let rate = Rate::new(dec!(25), Currency::CNY);
        let cost = rate.cost(dec!(80));
        assert_eq!(cost, Money::new(dec!(2000), Currency::CNY));
    }
}
