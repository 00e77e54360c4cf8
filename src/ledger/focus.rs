//! The ledger's sums per session and hour, for `report --focus`. Summed by SQLite from the
//! minute buckets (integers, so exactly), in `[since, until)` by each bucket's start, as the
//! report's own rows are.

use jiff::Timestamp;
use rusqlite::params;

use super::amount::from_nanos;
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

fn ts(seconds: i64) -> Timestamp {
    Timestamp::from_second(seconds).unwrap_or(Timestamp::UNIX_EPOCH)
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
                let currency: String = r.get(7)?;
                Ok(FocusSessionRow {
                    id: r.get(0)?,
                    instance: r.get(1)?,
                    provider: r.get(2)?,
                    region: r.get(3)?,
                    sku: r.get(4)?,
                    mode: r.get(5)?,
                    rate: r.get(6)?,
                    currency: currency.parse().map_err(|e: crate::money::BadCurrency| {
                        rusqlite::Error::FromSqlConversionFailure(
                            7,
                            rusqlite::types::Type::Text,
                            e.into(),
                        )
                    })?,
                    started: ts(r.get(8)?),
                    ended: ts(r.get(9)?),
                })
            })
            .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
            .map_err(e)?;
        let mut stmt = self
            .conn
            .prepare(
                "SELECT session, start - start % 3600, sum(compute), sum(bandwidth),
                        sum(storage), sum(extras), sum(egress_bytes)
                 FROM buckets WHERE start >= ?1 AND start < ?2
                 GROUP BY session, start - start % 3600 ORDER BY 2, 1",
            )
            .map_err(e)?;
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
                })
            })
            .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
            .map_err(e)?;
        Ok((sessions, hours))
    }
}
