//! Reading back what the watchdog recorded for an instance (its actions with the provider's
//! read-back, its alerts, hooks and webhook outcomes), for the cockpit's events. The watchdog
//! writes its events with no session; the cockpit's own carry its session, and a command
//! line's have their origin (`command`), so none reads another's lines as its own. Reads go by
//! row id, so a poll for what is new is one range over the primary key.

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
             WHERE id > ?2 AND instance = ?1 AND session IS NULL AND origin IS NULL ORDER BY id LIMIT ?3",
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
             WHERE id > ?2 AND instance = ?1 AND session IS NULL AND origin IS NULL ORDER BY id DESC LIMIT ?3",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::{EventLevel, EventRecord, SessionStart};
    use crate::meter::BillingMode;
    use crate::money::Currency;

    #[test]
    fn only_the_watchdogs_own_events_of_the_instance_are_read_back_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut ledger = Ledger::open(dir.path().join("ledger.sqlite")).unwrap();
        let at = |s: i64| Timestamp::from_second(1_780_000_000 + s).unwrap();
        let watchdog = |s: i64, text: &str| {
            let mut e = EventRecord::alert(at(s), EventLevel::Warn, text);
            e.instance = Some("i-1".into());
            e
        };
        ledger.record_event(watchdog(0, "first")).unwrap();
        // The cockpit's own line carries its session; another instance's is not ours.
        let session = ledger
            .start_session(&SessionStart {
                instance: "i-1".into(),
                provider: "demo".into(),
                region: None,
                sku: "p4de.24xlarge".into(),
                mode: BillingMode::OnDemand,
                rate_per_hour: None,
                currency: Currency::USD,
                at: at(1),
                billing: None,
            })
            .unwrap();
        let cockpit = EventRecord::note(at(1), "cockpit").in_session(session, "i-1");
        ledger.record_event(cockpit).unwrap();
        let mut other = watchdog(2, "other instance");
        other.instance = Some("i-2".into());
        ledger.record_event(other).unwrap();
        ledger.record_event(watchdog(3, "second")).unwrap();
        ledger.record_event(watchdog(4, "third")).unwrap();

        let texts = |events: &[WatchdogEvent]| -> Vec<String> {
            events.iter().map(|e| e.text.clone()).collect()
        };
        let last = ledger.last_watchdog_events("i-1", 2).unwrap();
        assert_eq!(texts(&last), ["second", "third"]);
        let all = ledger.watchdog_events_after("i-1", 0, 10).unwrap();
        assert_eq!(texts(&all), ["first", "second", "third"]);
        let after = ledger.watchdog_events_after("i-1", all[1].id, 10).unwrap();
        assert_eq!(texts(&after), ["third"]);
        assert_eq!(after[0].level, "warn");
        assert_eq!(after[0].at, at(4));
    }
}
