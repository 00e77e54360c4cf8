//! `stopped_release_after` as a watchdog enforces it: the policy it published, for `status`
//! and the cockpit, and when it first saw the instance stopped, the start of the clock on a
//! cloud that does not date shutdowns, kept so a watchdog that starts again (a crash, a
//! reboot) does not start the clock again.

use std::time::Duration;

use jiff::Timestamp;
use rusqlite::{OptionalExtension, params};

use super::error::LedgerError;
use super::store::Ledger;

impl Ledger {
    /// When `instance` was first seen stopped in its current shutdown, if it was.
    pub fn stopped_seen(&self, instance: &str) -> Result<Option<Timestamp>, LedgerError> {
        Ok(self
            .stopped_column(instance, "seen")?
            .and_then(|s| Timestamp::from_second(s).ok()))
    }

    /// The `stopped_release_after` a watchdog enforces for `instance`, if one does.
    pub fn stopped_release_after(&self, instance: &str) -> Result<Option<Duration>, LedgerError> {
        Ok(self
            .stopped_column(instance, "after_s")?
            .and_then(|s| u64::try_from(s).ok())
            .map(Duration::from_secs))
    }

    fn stopped_column(&self, instance: &str, column: &str) -> Result<Option<i64>, LedgerError> {
        let sql = format!("SELECT {column} FROM stopped_release WHERE instance = ?1");
        let value: Option<Option<i64>> = self
            .conn
            .query_row(&sql, params![instance], |r| r.get(0))
            .optional()
            .map_err(|e| self.err(e))?;
        Ok(value.flatten())
    }

    /// Keeps `since` as when `instance` was first seen stopped; `None` forgets it (the
    /// instance was seen in another state).
    pub fn set_stopped_seen(
        &mut self,
        instance: &str,
        since: Option<Timestamp>,
    ) -> Result<(), LedgerError> {
        self.set_stopped_column(instance, "seen", since.map(Timestamp::as_second))
    }

    /// Publishes the `stopped_release_after` a watchdog enforces; `None` when it no longer does.
    pub fn set_stopped_release_after(
        &mut self,
        instance: &str,
        after: Option<Duration>,
    ) -> Result<(), LedgerError> {
        let seconds = after.map(|a| i64::try_from(a.as_secs()).unwrap_or(i64::MAX));
        self.set_stopped_column(instance, "after_s", seconds)
    }

    fn set_stopped_column(
        &mut self,
        instance: &str,
        column: &str,
        value: Option<i64>,
    ) -> Result<(), LedgerError> {
        let sql = format!(
            "INSERT INTO stopped_release (instance, {column}) VALUES (?1, ?2)
             ON CONFLICT (instance) DO UPDATE SET {column} = excluded.{column}"
        );
        self.conn
            .execute(&sql, params![instance, value])
            .map(drop)
            .map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_sighting_and_the_policy_outlive_the_connection_until_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.sqlite");
        let at = Timestamp::from_second(1_000).unwrap();
        let three_days = Duration::from_secs(3 * 86_400);
        let mut ledger = Ledger::open(&path).unwrap();
        assert_eq!(ledger.stopped_seen("i-1").unwrap(), None);
        assert_eq!(ledger.stopped_release_after("i-1").unwrap(), None);
        ledger.set_stopped_seen("i-1", Some(at)).unwrap();
        ledger
            .set_stopped_release_after("i-1", Some(three_days))
            .unwrap();
        drop(ledger);
        let mut ledger = Ledger::open(&path).unwrap();
        assert_eq!(ledger.stopped_seen("i-1").unwrap(), Some(at));
        assert_eq!(
            ledger.stopped_release_after("i-1").unwrap(),
            Some(three_days)
        );
        assert_eq!(ledger.stopped_seen("i-2").unwrap(), None);
        ledger.set_stopped_seen("i-1", None).unwrap();
        assert_eq!(ledger.stopped_seen("i-1").unwrap(), None);
        assert_eq!(
            ledger.stopped_release_after("i-1").unwrap(),
            Some(three_days),
            "forgetting the sighting keeps the policy"
        );
        ledger.set_stopped_release_after("i-1", None).unwrap();
        assert_eq!(ledger.stopped_release_after("i-1").unwrap(), None);
    }
}
