//! The ledger's sums per session and hour, for `report --focus`. Summed by SQLite from the
//! minute buckets (integers, so exactly), in `[since, until)` by each bucket's start, as the
//! report's own rows are.

use jiff::Timestamp;
use rusqlite::params;

use super::amount::from_nanos;
use super::columns::{currency, ts};
use super::error::LedgerError;
use super::store::Ledger;
use crate::focus::FocusHour;
use crate::money::Currency;

/// A session as the FOCUS rows need it, before a sheet adds its list price.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FocusSessionRow {
    pub id: i64,
    pub instance: String,
    pub provider: String,
    pub region: Option<String>,
    pub sku: String,
    pub mode: String,
    /// The rate the session was metered at, as the ledger keeps it (exact decimal text).
    pub rate: Option<String>,
    pub currency: Currency,
    pub started: Timestamp,
    /// When it was closed, or else the end of its last minute.
    pub ended: Timestamp,
}

impl Ledger {
    /// The sessions that overlap `[since, until)` and their hourly sums. An empty ledger
    /// (never written) reads as none.
    pub fn focus_rows(
        &self,
        since: Timestamp,
        until: Timestamp,
    ) -> Result<(Vec<FocusSessionRow>, Vec<FocusHour>), LedgerError> {
        if self.schema_version()? == 0 {
            return Ok((Vec::new(), Vec::new()));
        }
        let (from, to) = (since.as_second(), until.as_second());
        let e = |e| self.err(e);
        // A file opened read-only is not migrated: before version 2 it keeps no region.
        let region = if self.schema_version()? < 2 {
            "NULL"
        } else {
            "region"
        };
        let sql = format!(
            "SELECT id, instance, provider, {region}, sku, mode, rate, currency, started,
                    coalesce(ended, last_seen)
             FROM sessions WHERE started < ?2 AND coalesce(ended, last_seen) >= ?1
             ORDER BY started, id"
        );
        let mut stmt = self.conn.prepare(&sql).map_err(e)?;
        let sessions = stmt
            .query_map(params![from, to], |r| {
                Ok(FocusSessionRow {
                    id: r.get(0)?,
                    instance: r.get(1)?,
                    provider: r.get(2)?,
                    region: r.get(3)?,
                    sku: r.get(4)?,
                    mode: r.get(5)?,
                    rate: r.get(6)?,
                    currency: currency(r, 7)?,
                    started: ts(r.get(8)?),
                    ended: ts(r.get(9)?),
                })
            })
            .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
            .map_err(e)?;
        let [intranet, cross_region, intranet_cost, cross_region_cost] =
            super::schema::egress_split_columns(self.schema_version()?);
        let sql = format!(
            "SELECT session, start - start % 3600, sum(compute), sum(bandwidth),
                    sum(storage), sum(extras), sum(egress_bytes), sum({intranet}),
                    sum({cross_region}), sum({intranet_cost}), sum({cross_region_cost})
             FROM buckets WHERE start >= ?1 AND start < ?2
             GROUP BY session, start - start % 3600 ORDER BY 2, 1"
        );
        let mut stmt = self.conn.prepare(&sql).map_err(e)?;
        let hours = stmt
            .query_map(params![from, to], |r| {
                Ok(FocusHour {
                    session: r.get(0)?,
                    start: ts(r.get(1)?),
                    cost: [
                        from_nanos(r.get(2)?),
                        from_nanos(r.get(3)?),
                        from_nanos(r.get(4)?),
                        from_nanos(r.get(5)?),
                    ],
                    egress_bytes: r.get(6)?,
                    split_bytes: [r.get(7)?, r.get(8)?],
                    split_cost: [from_nanos(r.get(9)?), from_nanos(r.get(10)?)],
                })
            })
            .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
            .map_err(e)?;
        Ok((sessions, hours))
    }
}

#[cfg(test)]
mod tests {
    use super::super::schema::old_ledger;
    use super::*;
    use rust_decimal::Decimal;

    /// A ledger from before sessions kept their region, read without migrating it: its
    /// sessions read with no region (NULL), and its minutes sum per hour.
    #[test]
    fn a_version_1_ledger_reads_without_a_region() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.sqlite");
        old_ledger(
            &path,
            1,
            "INSERT INTO sessions (id, instance, provider, sku, mode, rate, currency, started,
                                   last_seen)
             VALUES (1, 'i-1', 'aws', 'g5.xlarge', 'on_demand', '1', 'USD', 3540, 7260);
             INSERT INTO buckets VALUES
                 (3540, 1, 60, 1000, 0, 5, 0, 0, 0, 0, NULL, NULL, 0, NULL, 0, 0),
                 (3600, 1, 60, 2000, 7, 5, 0, 0, 0, 0, NULL, NULL, 0, NULL, 0, 10),
                 (3660, 1, 60, 3000, 0, 5, 0, 0, 0, 0, NULL, NULL, 0, NULL, 0, 20);",
        );
        let reader = Ledger::open_read_only(&path).unwrap();
        let (sessions, hours) = reader.focus_rows(ts(0), ts(10_000)).unwrap();
        assert_eq!(sessions.len(), 1);
        assert_eq!(sessions[0].region, None);
        assert_eq!(hours.len(), 2);
        assert_eq!(hours[0].start, ts(0));
        assert_eq!(hours[1].start, ts(3600));
        assert_eq!(hours[1].cost[0], Decimal::new(5000, 9));
        assert_eq!(hours[1].cost[1], Decimal::new(7, 9));
        assert_eq!(hours[1].egress_bytes, 30);
    }
}
