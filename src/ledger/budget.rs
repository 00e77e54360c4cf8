//! The budget crossings the watchdog has sent, kept per instance, limit and threshold: a
//! watchdog that starts again (a crash, a reboot, a new cockpit) takes them as said.

use jiff::Timestamp;
use rusqlite::params;

use super::error::LedgerError;
use super::store::Ledger;
use crate::money::{Currency, Money};

/// The scope of a budget for the life of one instance (`[budget] per_instance`).
pub const PER_INSTANCE: &str = "instance";
/// The instance a month's budget is kept under: it spans them all, so whichever watchdog
/// says a crossing, no other says it again.
pub const EVERY_INSTANCE: &str = "";

/// The scope of the budget for the calendar month `label` (`[budget] per_month`).
pub fn per_month(label: &str) -> String {
    format!("month {label}")
}

impl Ledger {
    /// What the ledger recorded as spent in `currency` from `since` to `until`, across
    /// instances, as `report` counts it.
    pub fn spent_between(
        &self,
        since: Timestamp,
        until: Timestamp,
        tz: &jiff::tz::TimeZone,
        currency: Currency,
    ) -> Result<Money, LedgerError> {
        let rows = self.report_rows(since, until)?;
        let report = super::report::build(&rows, (since, until), tz, &|_| None, &[]);
        Ok(report
            .spend
            .iter()
            .find(|s| s.currency == currency)
            .map_or(Money::zero(currency), |s| s.total.total()))
    }

    /// The thresholds already said for `instance`'s budget of `limit` in `scope`, lowest first.
    pub fn budget_said(
        &self,
        instance: &str,
        scope: &str,
        limit: Money,
    ) -> Result<Vec<u32>, LedgerError> {
        let mut statement = self
            .conn
            .prepare_cached(
                "SELECT threshold FROM budget_said
                 WHERE instance = ?1 AND scope = ?2 AND limit_amount = ?3 AND currency = ?4
                 ORDER BY threshold",
            )
            .map_err(|e| self.err(e))?;
        statement
            .query_map(
                params![instance, scope, amount(limit), limit.currency.as_str()],
                |r| r.get::<_, u32>(0),
            )
            .and_then(Iterator::collect)
            .map_err(|e| self.err(e))
    }

    /// Keeps `thresholds` as said; one said before stays as it was.
    pub fn mark_budget_said(
        &mut self,
        instance: &str,
        scope: &str,
        limit: Money,
        thresholds: &[u32],
        at: Timestamp,
    ) -> Result<(), LedgerError> {
        let (path, timeout) = (self.path.clone(), self.busy_timeout);
        let sql = |e| LedgerError::from_sqlite(&path, timeout, e);
        let tx = self.immediate()?;
        for threshold in thresholds {
            tx.execute(
                "INSERT INTO budget_said
                     (instance, scope, limit_amount, currency, threshold, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING",
                params![
                    instance,
                    scope,
                    amount(limit),
                    limit.currency.as_str(),
                    threshold,
                    at.as_second()
                ],
            )
            .map_err(sql)?;
        }
        tx.commit().map_err(sql)
    }
}

/// The limit as exact text: `50` and `50.00` are one budget.
fn amount(limit: Money) -> String {
    limit.amount.normalize().to_string()
}

#[cfg(test)]
mod tests {
    use rust_decimal::dec;

    use super::*;

    #[test]
    fn thresholds_said_are_kept_per_limit_and_outlive_the_connection() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.sqlite");
        let limit = Money::new(dec!(50.00), Currency::USD);
        let at = Timestamp::from_second(1_000).unwrap();
        let mut ledger = Ledger::open(&path).unwrap();
        assert!(
            ledger
                .budget_said("i-1", PER_INSTANCE, limit)
                .unwrap()
                .is_empty()
        );
        ledger
            .mark_budget_said("i-1", PER_INSTANCE, limit, &[80], at)
            .unwrap();
        ledger
            .mark_budget_said("i-1", PER_INSTANCE, limit, &[80, 100], at)
            .unwrap();
        drop(ledger);
        let ledger = Ledger::open(&path).unwrap();
        let same = Money::new(dec!(50), Currency::USD);
        assert_eq!(
            ledger.budget_said("i-1", PER_INSTANCE, same).unwrap(),
            [80, 100]
        );
        // Another instance, another limit, another currency: nothing said.
        assert!(
            ledger
                .budget_said("i-2", PER_INSTANCE, limit)
                .unwrap()
                .is_empty()
        );
        let raised = Money::new(dec!(80), Currency::USD);
        assert!(
            ledger
                .budget_said("i-1", PER_INSTANCE, raised)
                .unwrap()
                .is_empty()
        );
        let yuan = Money::new(dec!(50), Currency::CNY);
        assert!(
            ledger
                .budget_said("i-1", PER_INSTANCE, yuan)
                .unwrap()
                .is_empty()
        );
    }
}
