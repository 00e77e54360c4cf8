//! Exchange rates the user gives (`USD:CNY=7.12`: one USD is 7.12 CNY). gpumeter fetches no
//! rates: a total it has no rate for is listed apart, never guessed.

use std::str::FromStr;

use rust_decimal::Decimal;

use crate::money::{BadCurrency, Currency};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FxRate {
    pub from: Currency,
    pub to: Currency,
    /// Units of `to` for one unit of `from`.
    pub rate: Decimal,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FxError {
    #[error("`{0}` is not a rate: expected FROM:TO=RATE, such as USD:CNY=7.12")]
    Shape(String),
    #[error("`{0}`: {1}")]
    Currency(String, BadCurrency),
    #[error("`{0}`: expected a rate above 0, such as 7.12")]
    Rate(String),
    #[error("`{0}`: expected two different currencies")]
    Same(String),
}

impl FromStr for FxRate {
    type Err = FxError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let shape = || FxError::Shape(s.to_string());
        let (pair, rate) = s.split_once('=').ok_or_else(shape)?;
        let (from, to) = pair.split_once(':').ok_or_else(shape)?;
        let currency = |c: &str| {
            c.trim()
                .parse::<Currency>()
                .map_err(|e| FxError::Currency(s.to_string(), e))
        };
        let (from, to) = (currency(from)?, currency(to)?);
        if from == to {
            return Err(FxError::Same(s.to_string()));
        }
        let rate = Decimal::from_str_exact(rate.trim())
            .ok()
            .filter(|r| *r > Decimal::ZERO)
            .ok_or_else(|| FxError::Rate(s.to_string()))?;
        Ok(FxRate { from, to, rate })
    }
}

/// The rates given, first one first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rates(pub Vec<FxRate>);

impl Rates {
    /// `amount` in `from` as `to`: direct, or through the inverse of a rate given the other
    /// way. No chains through a third currency: each rate used is one the user stated.
    pub fn convert(&self, amount: Decimal, from: Currency, to: Currency) -> Option<Decimal> {
        if from == to {
            return Some(amount);
        }
        self.0.iter().find_map(|r| {
            if r.from == from && r.to == to {
                Some(amount * r.rate)
            } else if r.from == to && r.to == from {
                Some(amount / r.rate)
            } else {
                None
            }
        })
    }

    /// The first rate's target: the comparison currency when the user names none.
    pub fn first_target(&self) -> Option<Currency> {
        self.0.first().map(|r| r.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::dec;

    #[test]
    fn a_rate_converts_both_ways() {
        let rates = Rates(vec!["USD:CNY=7.12".parse().unwrap()]);
        assert_eq!(
            rates.convert(dec!(100), Currency::USD, Currency::CNY),
            Some(dec!(712))
        );
        assert_eq!(
            rates.convert(dec!(712), Currency::CNY, Currency::USD),
            Some(dec!(100))
        );
        let eur: Currency = "EUR".parse().unwrap();
        assert_eq!(rates.convert(dec!(1), eur, Currency::CNY), None);
        assert_eq!(rates.first_target(), Some(Currency::CNY));
    }

    #[test]
    fn malformed_rates_say_what_was_expected() {
        for bad in [
            "USD-CNY=7",
            "USD:CNY",
            "usd:CNY=7",
            "USD:CNY=0",
            "USD:CNY=x",
            "USD:USD=1",
        ] {
            let err = bad.parse::<FxRate>().unwrap_err().to_string();
            assert!(err.contains(bad), "{err}");
        }
    }
}
