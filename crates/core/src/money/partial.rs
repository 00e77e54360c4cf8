//! A total that may leave something out: the sum of what is priced, and the name of each
//! thing that is not. Every surface that shows a total shows it this one way, so an unknown is
//! never read as zero.

use std::fmt;

use serde::Serialize;

use super::{Currency, CurrencyMismatch, Money};

/// The known part of a total and what it leaves out, each named with the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartialTotal {
    pub known: Money,
    /// What could not be priced ("load balancer lb-0api: no price in the sheet").
    pub unknown: Vec<String>,
}

impl PartialTotal {
    pub fn zero(currency: Currency) -> Self {
        PartialTotal {
            known: Money::zero(currency),
            unknown: Vec::new(),
        }
    }

    /// Sums amounts where `None` is an unknown named by its label.
    pub fn sum<'a, I>(currency: Currency, items: I) -> Result<Self, CurrencyMismatch>
    where
        I: IntoIterator<Item = (Option<Money>, &'a str)>,
    {
        let mut total = PartialTotal::zero(currency);
        for (amount, label) in items {
            total.add(amount, label)?;
        }
        Ok(total)
    }

    /// Adds one amount, or names it as unknown when it has none.
    pub fn add(&mut self, amount: Option<Money>, label: &str) -> Result<(), CurrencyMismatch> {
        match amount {
            Some(m) => self.known = self.known.checked_add(m)?,
            None => self.unknown.push(label.to_string()),
        }
        Ok(())
    }

    /// Nothing is left out.
    pub fn is_complete(&self) -> bool {
        self.unknown.is_empty()
    }

    /// The amount when it is the whole total, `None` (JSON `null`) when something is unknown.
    pub fn exact(&self) -> Option<Money> {
        self.is_complete().then_some(self.known)
    }

    /// The machine form: the known sum to the cent, whether it is incomplete, and what is
    /// unknown, so a reader never takes a lower bound for the whole.
    pub fn json(&self) -> PartialTotalJson {
        PartialTotalJson {
            currency: self.known.currency,
            known: self.known.cents_string(),
            incomplete: !self.is_complete(),
            unknown: self.unknown.clone(),
        }
    }
}

impl fmt::Display for PartialTotal {
    /// `293.65`, or `≥ 293.65 + 1 unknown` when something is left out; no currency, which
    /// the surface names once.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known = self.known.grouped();
        match self.unknown.len() {
            0 => f.write_str(&known),
            n => f.write_str(&crate::t!("partial-total", known = known, count = n)),
        }
    }
}

impl PartialTotal {
    /// `293.65 USD`, or `≥ 293.65 USD + 1 unknown` when something is left out: how every
    /// surface that names the currency beside the total shows it.
    pub fn with_currency(&self) -> String {
        text(
            &self.known.grouped(),
            self.known.currency,
            self.unknown.len(),
        )
    }
}

impl PartialTotalJson {
    /// The same words as [`PartialTotal::with_currency`], from the JSON a command printed.
    pub fn with_currency(&self) -> String {
        text(&self.known, self.currency, self.unknown.len())
    }
}

fn text(known: &str, currency: Currency, unknown: usize) -> String {
    match unknown {
        0 => format!("{known} {currency}"),
        n => crate::t!(
            "partial-total-currency",
            known = known,
            currency = currency.to_string(),
            count = n
        ),
    }
}

/// [`PartialTotal`] as JSON: `{"currency": "USD", "known": "293.65", "incomplete": true,
/// "unknown": ["..."]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PartialTotalJson {
    pub currency: Currency,
    pub known: String,
    pub incomplete: bool,
    pub unknown: Vec<String>,
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;

    use super::*;

    fn usd(s: &str) -> Money {
        Money::new(s.parse::<Decimal>().unwrap(), Currency::USD)
    }

    #[test]
    fn a_complete_total_is_its_amount() {
        let t = PartialTotal::sum(
            Currency::USD,
            [(Some(usd("283.65")), "disk"), (Some(usd("10")), "snap")],
        )
        .unwrap();
        assert_eq!(t.to_string(), "293.65");
        assert_eq!(t.exact(), Some(usd("293.65")));
        assert!(!t.json().incomplete);
    }

    #[test]
    fn an_unknown_is_named_never_added_as_zero() {
        let t = PartialTotal::sum(
            Currency::USD,
            [
                (Some(usd("1293.65")), "disk"),
                (None, "load balancer lb-0api: no price"),
            ],
        )
        .unwrap();
        assert_eq!(t.to_string(), "≥ 1,293.65 + 1 unknown");
        assert_eq!(t.exact(), None);
        let json = serde_json::to_value(t.json()).unwrap();
        assert_eq!(json["known"], "1293.65");
        assert_eq!(json["incomplete"], true);
        assert_eq!(json["unknown"][0], "load balancer lb-0api: no price");
    }

    #[test]
    fn an_incomplete_total_is_said_in_the_language_shown() {
        let t = PartialTotal::sum(
            Currency::USD,
            [(Some(usd("12")), "disk"), (None, "load balancer lb-0api")],
        )
        .unwrap();
        let zh = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || t.with_currency());
        assert_eq!(zh, "≥ 12.00 USD + 1 项未知");
        assert_eq!(t.with_currency(), "≥ 12.00 USD + 1 unknown");
    }

    #[test]
    fn two_currencies_are_an_error() {
        let mut t = PartialTotal::zero(Currency::USD);
        let cny = Money::new(Decimal::ONE, Currency::CNY);
        assert!(t.add(Some(cny), "x").is_err());
    }
}
