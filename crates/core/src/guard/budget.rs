//! Budgets: warnings as spend crosses 50, 80 and 100 % of a limit, and a forecast ("at this
//! rate the budget is gone at 03:12") before it is crossed.

use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;

use crate::money::{CurrencyMismatch, Money};

/// Percentages of the limit that warn by default.
pub const DEFAULT_THRESHOLDS: [u32; 3] = [50, 80, 100];
/// A forecast warns when the budget would run out within this long.
pub const DEFAULT_HORIZON: SignedDuration = SignedDuration::from_hours(1);

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BudgetAlert {
    /// Spend reached this percentage of the limit.
    Crossed {
        percent: u32,
        spent: Money,
        limit: Money,
    },
    /// At the current burn rate the limit is reached at `at`.
    Forecast { at: Timestamp, limit: Money },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetWatch {
    pub limit: Money,
    pub thresholds: Vec<u32>,
    pub horizon: SignedDuration,
    crossed: Vec<u32>,
    forecast_said: bool,
}

impl BudgetWatch {
    pub fn new(limit: Money) -> Self {
        BudgetWatch {
            limit,
            thresholds: DEFAULT_THRESHOLDS.to_vec(),
            horizon: DEFAULT_HORIZON,
            crossed: Vec::new(),
            forecast_said: false,
        }
    }

    /// When spend reaches the limit at `burn_per_hour` from `now`; `None` if it never will.
    pub fn exhausted_at(
        &self,
        spent: Money,
        burn_per_hour: Money,
        now: Timestamp,
    ) -> Result<Option<Timestamp>, CurrencyMismatch> {
        let left = self.limit.checked_sub(spent)?;
        burn_per_hour.checked_cmp(&self.limit)?;
        if left.amount <= Decimal::ZERO {
            return Ok(Some(now));
        }
        if burn_per_hour.amount <= Decimal::ZERO {
            return Ok(None);
        }
        let seconds = (left.amount * Decimal::from(3600) / burn_per_hour.amount).ceil();
        let seconds = i64::try_from(seconds).unwrap_or(i64::MAX);
        Ok(now.checked_add(SignedDuration::from_secs(seconds)).ok())
    }

    /// The alerts due now; each threshold and the forecast are said once.
    pub fn check(
        &mut self,
        spent: Money,
        burn_per_hour: Money,
        now: Timestamp,
    ) -> Result<Vec<BudgetAlert>, CurrencyMismatch> {
        spent.checked_cmp(&self.limit)?;
        let mut out = Vec::new();
        let percent_spent = if self.limit.amount.is_zero() {
            Decimal::from(100)
        } else {
            spent.amount * Decimal::from(100) / self.limit.amount
        };
        let mut newest = None;
        for t in &self.thresholds {
            if percent_spent >= Decimal::from(*t) && !self.crossed.contains(t) {
                self.crossed.push(*t);
                newest = Some(*t);
            }
        }
        // Crossing several at once (a late start) says only the highest.
        if let Some(percent) = newest {
            out.push(BudgetAlert::Crossed {
                percent,
                spent,
                limit: self.limit,
            });
        }
        if !self.forecast_said
            && percent_spent < Decimal::from(100)
            && let Some(at) = self.exhausted_at(spent, burn_per_hour, now)?
            && at.duration_since(now) <= self.horizon
        {
            self.forecast_said = true;
            out.push(BudgetAlert::Forecast {
                at,
                limit: self.limit,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::Currency;
    use rust_decimal::dec;

    fn usd(d: Decimal) -> Money {
        Money::new(d, Currency::USD)
    }

    fn ts(s: i64) -> Timestamp {
        Timestamp::from_second(s).unwrap()
    }

    #[test]
    fn thresholds_are_said_once_and_a_jump_says_only_the_highest() {
        let mut w = BudgetWatch::new(usd(dec!(100)));
        assert!(
            w.check(usd(dec!(10)), usd(dec!(0)), ts(0))
                .unwrap()
                .is_empty()
        );
        let a = w.check(usd(dec!(50)), usd(dec!(0)), ts(1)).unwrap();
        assert!(matches!(a[..], [BudgetAlert::Crossed { percent: 50, .. }]));
        assert!(
            w.check(usd(dec!(60)), usd(dec!(0)), ts(2))
                .unwrap()
                .is_empty()
        );
        let a = w.check(usd(dec!(120)), usd(dec!(0)), ts(3)).unwrap();
        assert!(matches!(a[..], [BudgetAlert::Crossed { percent: 100, .. }]));
    }

    #[test]
    fn the_forecast_warns_within_the_horizon() {
        let mut w = BudgetWatch::new(usd(dec!(100)));
        // 40 left at 20 an hour: two hours away, outside the default hour.
        assert!(
            w.check(usd(dec!(60)), usd(dec!(20)), ts(0))
                .unwrap()
                .iter()
                .all(|a| !matches!(a, BudgetAlert::Forecast { .. }))
        );
        // 10 left at 20 an hour: gone in 30 minutes.
        let a = w.check(usd(dec!(90)), usd(dec!(20)), ts(0)).unwrap();
        assert!(
            a.contains(&BudgetAlert::Forecast {
                at: ts(1800),
                limit: usd(dec!(100))
            }),
            "{a:?}"
        );
        assert_eq!(
            w.exhausted_at(usd(dec!(90)), usd(dec!(0)), ts(0)).unwrap(),
            None
        );
    }

    #[test]
    fn a_budget_in_another_currency_is_an_error() {
        let mut w = BudgetWatch::new(Money::new(dec!(100), Currency::CNY));
        assert!(w.check(usd(dec!(1)), usd(dec!(1)), ts(0)).is_err());
    }
}
