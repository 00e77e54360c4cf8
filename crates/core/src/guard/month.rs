//! Spend in a calendar month as a running process counts it: what the ledger recorded this
//! month before the process started, plus what its meter has accrued since. The cockpit and
//! the watchdog both check `[budget] per_month` on it, so they say the same level.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::money::{CurrencyMismatch, Money};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonthSpend {
    /// The month counted, `2026-12`: the ledger keys what a budget said by it.
    pub label: String,
    /// When the month ends, in the user's zone.
    pub ends: Timestamp,
    /// Spend this month recorded before this run.
    pub before: Money,
    /// The meter's total at this run's first reading (or at the turn of the month).
    pub baseline: Option<Money>,
}

/// The month `now` falls in: its label, first instant and end, in `tz`.
pub fn month_of(now: Timestamp, tz: &TimeZone) -> Option<(String, Timestamp, Timestamp)> {
    let first = tz.to_datetime(now).date().first_of_month();
    let next = first.checked_add(jiff::Span::new().months(1)).ok()?;
    let midnight = jiff::civil::Time::midnight();
    let start = tz.to_timestamp(first.to_datetime(midnight)).ok()?;
    let end = tz.to_timestamp(next.to_datetime(midnight)).ok()?;
    Some((first.strftime("%Y-%m").to_string(), start, end))
}

impl MonthSpend {
    /// The month `now` falls in, with `before` recorded in it before this run.
    pub fn new(before: Money, now: Timestamp, tz: &TimeZone) -> Option<Self> {
        let (label, _, ends) = month_of(now, tz)?;
        Some(MonthSpend {
            label,
            ends,
            before,
            baseline: None,
        })
    }

    /// Spend this month by `now`, given the meter's `total` for this run's instance. At the
    /// turn of a month the count starts again from nothing; `true` beside it says it turned.
    pub fn spent(
        &mut self,
        total: Money,
        now: Timestamp,
        tz: &TimeZone,
    ) -> Result<(Money, bool), CurrencyMismatch> {
        let turned = now >= self.ends
            && match month_of(now, tz) {
                Some((label, _, ends)) => {
                    *self = MonthSpend {
                        label,
                        ends,
                        before: Money::zero(total.currency),
                        baseline: Some(total),
                    };
                    true
                }
                None => false,
            };
        let baseline = *self.baseline.get_or_insert(total);
        let run = total.checked_sub(baseline)?;
        Ok((self.before.checked_add(run)?, turned))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::Currency;
    use rust_decimal::dec;

    fn cny(d: rust_decimal::Decimal) -> Money {
        Money::new(d, Currency::CNY)
    }

    fn at(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    #[test]
    fn a_month_is_counted_in_the_users_zone() {
        let shanghai = TimeZone::fixed(jiff::tz::offset(8));
        // 23:30 UTC on the 30th of November is already December in Shanghai.
        let (label, start, end) = month_of(at("2026-11-30T23:30:00Z"), &shanghai).unwrap();
        assert_eq!(label, "2026-12");
        assert_eq!(start, at("2026-11-30T16:00:00Z"));
        assert_eq!(end, at("2026-12-31T16:00:00Z"));
    }

    #[test]
    fn the_month_is_what_was_recorded_before_plus_what_this_run_accrued() {
        let utc = TimeZone::UTC;
        let now = at("2026-12-06T05:00:00Z");
        let mut month = MonthSpend::new(cny(dec!(300)), now, &utc).unwrap();
        // The instance had cost 40 before this run; that is in `before` already.
        assert_eq!(
            month.spent(cny(dec!(40)), now, &utc),
            Ok((cny(dec!(300)), false))
        );
        let later = at("2026-12-06T09:00:00Z");
        assert_eq!(
            month.spent(cny(dec!(52)), later, &utc),
            Ok((cny(dec!(312)), false))
        );
    }

    #[test]
    fn a_new_month_starts_from_nothing() {
        let utc = TimeZone::UTC;
        let mut month = MonthSpend::new(cny(dec!(900)), at("2026-12-31T20:00:00Z"), &utc).unwrap();
        month
            .spent(cny(dec!(10)), at("2026-12-31T20:00:00Z"), &utc)
            .unwrap();
        let (spent, turned) = month
            .spent(cny(dec!(18)), at("2027-01-01T00:00:00Z"), &utc)
            .unwrap();
        assert!(turned);
        assert_eq!(spent, cny(dec!(0)));
        assert_eq!(month.label, "2027-01");
        let (spent, turned) = month
            .spent(cny(dec!(21)), at("2027-01-01T01:00:00Z"), &utc)
            .unwrap();
        assert_eq!((spent, turned), (cny(dec!(3)), false));
    }

    #[test]
    fn another_currency_is_an_error() {
        let utc = TimeZone::UTC;
        let now = at("2026-12-06T05:00:00Z");
        let mut month = MonthSpend::new(cny(dec!(1)), now, &utc).unwrap();
        let usd = Money::new(dec!(1), Currency::USD);
        assert!(month.spent(usd, now, &utc).is_err());
    }
}
