//! Reading back what the watchdog recorded for an instance (its actions with the provider's
//! read-back, its alerts, hooks and webhook outcomes), for the cockpit's events. The watchdog
//! writes its events with no session; the cockpit's own carry its session, so neither reads
//! the other's lines as its own. Reads go by row id, so a poll for what is new is one range
//! over the primary key.

use jiff::Timestamp;
use rusqlite::params;

use super::error::LedgerError;
use super::store::Ledger;

/// One event as the watchdog recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchdogEvent {
    pub id: i64,
    pub at: Timestamp,
    /// `alert`, `action` or `note`.
    pub kind: String,
    /// `info`, `warn` or `error`.
    pub level: String,
    /// For an action: `confirmed`, `unconfirmed` or `failed`.
    pub outcome: Option<String>,
    pub text: String,
}

impl Ledger {
    /// The watchdog's events for `instance` after row `after`, oldest first, at most `limit`.
    pub fn watchdog_events_after(
        &self,
        instance: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<WatchdogEvent>, LedgerError> {
        self.watchdog_events(
            "SELECT id, at, kind, level, outcome, text FROM events
             WHERE id > ?2 AND instance = ?1 AND session IS NULL ORDER BY id LIMIT ?3",
            instance,
            after,
            limit,
        )
    }

    /// The last `limit` of the watchdog's events for `instance`, oldest first.
    pub fn last_watchdog_events(
        &self,
        instance: &str,
        limit: usize,
    ) -> Result<Vec<WatchdogEvent>, LedgerError> {
        let mut events = self.watchdog_events(
            "SELECT id, at, kind, level, outcome, text FROM events
             WHERE id > ?2 AND instance = ?1 AND session IS NULL ORDER BY id DESC LIMIT ?3",
            instance,
            0,
            limit,
        )?;
        events.reverse();
        Ok(events)
    }

    fn watchdog_events(
        &self,
        sql: &str,
        instance: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<WatchdogEvent>, LedgerError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let e = |e| self.err(e);
        let mut statement = self.conn.prepare_cached(sql).map_err(e)?;
        let rows = statement
            .query_map(params![instance, after, limit], |r| {
                Ok(WatchdogEvent {
                    id: r.get(0)?,
                    at: Timestamp::from_second(r.get(1)?).unwrap_or(Timestamp::UNIX_EPOCH),
                    kind: r.get(2)?,
                    level: r.get(3)?,
                    outcome: r.get(4)?,
                    text: r.get(5)?,
                })
            })
            .map_err(e)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(e)
    }
}
