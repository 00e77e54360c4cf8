//! A cost split into the four lines the meter shows.

use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;

use crate::money::{Currency, Money};

/// Compute, bandwidth, storage and extras in one currency. Amounts are exact; round only for
/// display, with [`Breakdown::to_cents`], so the shown lines still add up to the shown total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Breakdown {
    pub currency: Currency,
    pub compute: Decimal,
    pub bandwidth: Decimal,
    pub storage: Decimal,
    pub extras: Decimal,
}

/// The four lines and their total as decimal strings rounded to the cent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CentsBreakdown {
    pub compute: String,
    pub bandwidth: String,
    pub storage: String,
    pub extras: String,
    pub total: String,
}

impl Breakdown {
    pub fn zero(currency: Currency) -> Self {
        Breakdown {
            currency,
            compute: Decimal::ZERO,
            bandwidth: Decimal::ZERO,
            storage: Decimal::ZERO,
            extras: Decimal::ZERO,
        }
    }

    pub fn parts(&self) -> [Decimal; 4] {
        [self.compute, self.bandwidth, self.storage, self.extras]
    }

    pub fn total(&self) -> Money {
        Money::new(self.parts().iter().sum(), self.currency)
    }

    pub fn compute_money(&self) -> Money {
        Money::new(self.compute, self.currency)
    }

    /// Scales every line by `factor` (hours, a count of instances).
    #[must_use]
    pub fn times(&self, factor: Decimal) -> Breakdown {
        Breakdown {
            currency: self.currency,
            compute: self.compute * factor,
            bandwidth: self.bandwidth * factor,
            storage: self.storage * factor,
            extras: self.extras * factor,
        }
    }

    /// Rounds to cents so that the four lines add up exactly to the rounded total: the total is
    /// rounded half away from zero, each line is cut down to the cent, and the cents left over go
    /// to the lines that lost the most (largest remainder).
    pub fn to_cents(&self) -> [Decimal; 5] {
        let total = self
            .total()
            .amount
            .round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero);
        let mut lines = self
            .parts()
            .map(|p| p.round_dp_with_strategy(2, RoundingStrategy::ToNegativeInfinity));
        let mut remainders: Vec<(usize, Decimal)> = self
            .parts()
            .iter()
            .zip(lines.iter())
            .map(|(exact, cut)| exact - cut)
            .enumerate()
            .collect();
        // Stable sort: on equal remainders the earlier line (compute first) gets the cent.
        remainders.sort_by_key(|r| std::cmp::Reverse(r.1));
        let cent = Decimal::new(1, 2);
        let mut left = total - lines.iter().sum::<Decimal>();
        let mut turn = 0;
        while left >= cent {
            lines[remainders[turn % 4].0] += cent;
            left -= cent;
            turn += 1;
        }
        while left <= -cent {
            lines[remainders[3 - turn % 4].0] -= cent;
            left += cent;
            turn += 1;
        }
        let [compute, bandwidth, storage, extras] = lines;
        [compute, bandwidth, storage, extras, total].map(|mut d| {
            d.rescale(2);
            d
        })
    }

    /// The lines to the cent as plain numbers, for machines (`--json`, CSV).
    pub fn cents(&self) -> CentsBreakdown {
        self.cents_as(|d| d.to_string())
    }

    /// The lines to the cent with thousands separated, for people.
    pub fn grouped(&self) -> CentsBreakdown {
        self.cents_as(crate::money::grouped_cents)
    }

    fn cents_as(&self, show: impl Fn(Decimal) -> String) -> CentsBreakdown {
        let [compute, bandwidth, storage, extras, total] = self.to_cents().map(show);
        CentsBreakdown {
            compute,
            bandwidth,
            storage,
            extras,
            total,
        }
    }
}

impl std::ops::Add for Breakdown {
    type Output = Breakdown;

    /// Both sides come from one sheet, so they share a currency; the debug assertion catches a
    /// caller that mixes sheets.
    fn add(self, rhs: Breakdown) -> Breakdown {
        debug_assert_eq!(self.currency, rhs.currency, "breakdowns in two currencies");
        Breakdown {
            currency: self.currency,
            compute: self.compute + rhs.compute,
            bandwidth: self.bandwidth + rhs.bandwidth,
            storage: self.storage + rhs.storage,
            extras: self.extras + rhs.extras,
        }
    }
}

impl std::ops::Sub for Breakdown {
    type Output = Breakdown;

    /// What grew between two readings of one sheet: the later less the earlier, line by line.
    fn sub(self, rhs: Breakdown) -> Breakdown {
        debug_assert_eq!(self.currency, rhs.currency, "breakdowns in two currencies");
        Breakdown {
            currency: self.currency,
            compute: self.compute - rhs.compute,
            bandwidth: self.bandwidth - rhs.bandwidth,
            storage: self.storage - rhs.storage,
            extras: self.extras - rhs.extras,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::dec;

    #[test]
    fn rounded_lines_add_up_to_the_rounded_total() {
        let b = Breakdown {
            currency: Currency::USD,
            compute: dec!(0.005),
            bandwidth: dec!(0.005),
            storage: dec!(0.005),
            extras: dec!(0),
        };
        let [c, bw, s, e, total] = b.to_cents();
        assert_eq!(total, dec!(0.02));
        assert_eq!(c + bw + s + e, total);
        assert_eq!(b.cents().total, "0.02");
    }

    #[test]
    fn exact_cents_are_kept() {
        let b = Breakdown {
            currency: Currency::CNY,
            compute: dec!(2000),
            bandwidth: dec!(1.5),
            storage: dec!(0.25),
            extras: dec!(0),
        };
        let c = b.cents();
        assert_eq!(
            (c.compute.as_str(), c.bandwidth.as_str(), c.storage.as_str()),
            ("2000.00", "1.50", "0.25")
        );
        assert_eq!(c.total, "2001.75");
    }
}
