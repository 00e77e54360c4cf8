//! When the watchdog first saw an instance stopped: the start of `stopped_release_after`'s
//! clock on a cloud that does not date shutdowns, kept so a watchdog that starts again (a
//! crash, a reboot) does not start the clock again.

use jiff::Timestamp;
use rusqlite::{OptionalExtension, params};

use super::error::LedgerError;
use super::store::Ledger;

impl Ledger {
    /// When `instance` was first seen stopped in its current shutdown, if it was.
    pub fn stopped_seen(&self, instance: &str) -> Result<Option<Timestamp>, LedgerError> {
        let second: Option<i64> = self
            .conn
            .query_row(
                "SELECT since FROM stopped_seen WHERE instance = ?1",
                params![instance],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.err(e))?;
        Ok(second.and_then(|s| Timestamp::from_second(s).ok()))
    }

    /// Keeps `since` as when `instance` was first seen stopped; `None` forgets it (the
    /// instance was seen in another state).
    pub fn set_stopped_seen(
        &mut self,
        instance: &str,
        since: Option<Timestamp>,
    ) -> Result<(), LedgerError> {
        let done = match since {
            Some(at) => self.conn.execute(
                "INSERT INTO stopped_seen (instance, since) VALUES (?1, ?2)
                 ON CONFLICT (instance) DO UPDATE SET since = excluded.since",
                params![instance, at.as_second()],
            ),
            None => self.conn.execute(
                "DELETE FROM stopped_seen WHERE instance = ?1",
                params![instance],
            ),
        };
        done.map(drop).map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_sighting_outlives_the_connection_until_it_is_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.sqlite");
        let at = Timestamp::from_second(1_000).unwrap();
        let mut ledger = Ledger::open(&path).unwrap();
        assert_eq!(ledger.stopped_seen("i-1").unwrap(), None);
        ledger.set_stopped_seen("i-1", Some(at)).unwrap();
        drop(ledger);
        let mut ledger = Ledger::open(&path).unwrap();
        assert_eq!(ledger.stopped_seen("i-1").unwrap(), Some(at));
        assert_eq!(ledger.stopped_seen("i-2").unwrap(), None);
        ledger.set_stopped_seen("i-1", None).unwrap();
        assert_eq!(ledger.stopped_seen("i-1").unwrap(), None);
    }
}
