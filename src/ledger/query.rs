//! Reading the rows a report needs for a time range; its minutes come summed per session and
//! quarter hour ([`super::slices`]).

use jiff::Timestamp;
use rusqlite::{Row, params};

use super::amount::from_nanos;
use super::columns::{currency, ts};
use super::error::LedgerError;
use super::record::BillingStep;
pub use super::slices::{SLICE_SECONDS, SliceRow};
use super::store::Ledger;
use crate::meter::Breakdown;
use crate::money::Currency;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRow {
    pub id: i64,
    pub instance: String,
    pub provider: String,
    pub sku: String,
    pub mode: String,
    pub rate: Option<String>,
    pub currency: Currency,
    pub started: Timestamp,
    /// When it was closed, or else the end of its last minute (a crash).
    pub ended: Timestamp,
    pub open: bool,
    /// How its compute is billed; `None` (unpriced, or recorded before the ledger kept it):
    /// billed as accrued.
    pub billing: Option<BillingStep>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionRow {
    pub at: Timestamp,
    pub instance: Option<String>,
    pub intent: String,
    pub request: Option<String>,
    pub answer: Option<String>,
    pub outcome: Option<String>,
}

/// A resource of a released instance that was never seen to go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftoverRow {
    pub instance: String,
    pub released: Timestamp,
    pub id: String,
    pub kind: String,
    pub name: String,
    pub class: Option<String>,
    pub size_gib: String,
    pub state: String,
    pub created: Timestamp,
    pub last_seen: Timestamp,
}

/// Everything a report reads, for `[since, until)`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReportRows {
    pub sessions: Vec<SessionRow>,
    pub slices: Vec<SliceRow>,
    pub actions: Vec<ActionRow>,
    pub alerts: usize,
    pub leftovers: Vec<LeftoverRow>,
}

impl Ledger {
    /// The rows of `[since, until)`. An empty ledger (never written) reads as no rows.
    pub fn report_rows(
        &self,
        since: Timestamp,
        until: Timestamp,
    ) -> Result<ReportRows, LedgerError> {
        if self.schema_version()? == 0 {
            return Ok(ReportRows::default());
        }
        let (from, to) = (since.as_second(), until.as_second());
        let e = |e| self.err(e);
        // A file opened read-only is not migrated: before version 3 it keeps no billing step.
        let billing = if self.schema_version()? < 3 {
            "NULL, NULL"
        } else {
            "step_seconds, minimum_seconds"
        };
        // The release a command confirmed counts too; before version 7 only the instance row
        // says when it went.
        let release = if self.schema_version()? < 7 {
            "SELECT id, released FROM instances"
        } else {
            "SELECT id, released FROM instance_release"
        };
        let mut rows = ReportRows {
            sessions: self.select(
                &format!(
                    "SELECT id, instance, provider, sku, mode, rate, currency, started,
                            coalesce(ended, last_seen), ended IS NULL, {billing}
                     FROM sessions WHERE started < ?2 AND coalesce(ended, last_seen) >= ?1
                     ORDER BY started, id"
                ),
                params![from, to],
                session_row,
            )?,
            slices: self.slices(from, to)?,
            actions: self.select(
                "SELECT at, instance, coalesce(intent, ''), request, answer, outcome
                 FROM events WHERE kind = 'action' AND at >= ?1 AND at < ?2 ORDER BY at, id",
                params![from, to],
                |r| {
                    Ok(ActionRow {
                        at: ts(r.get(0)?),
                        instance: r.get(1)?,
                        intent: r.get(2)?,
                        request: r.get(3)?,
                        answer: r.get(4)?,
                        outcome: r.get(5)?,
                    })
                },
            )?,
            alerts: 0,
            leftovers: self.select(
                &format!(
                    "SELECT r.instance, i.released, r.id, r.kind, r.name, r.class, r.size_gib,
                        r.state, r.created, r.last_seen
                 FROM resources r JOIN ({release}) i ON i.id = r.instance
                 WHERE i.released IS NOT NULL AND i.released <= ?1 AND r.gone IS NULL
                   AND r.first_seen <= ?1
                   AND (r.deleted_with_instance = 0 OR r.last_seen >= i.released)
                 ORDER BY i.released, r.instance, r.id"
                ),
                params![to],
                leftover_row,
            )?,
        };
        rows.alerts = self
            .conn
            .query_row(
                "SELECT count(*) FROM events WHERE kind = 'alert' AND at >= ?1 AND at < ?2",
                params![from, to],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| usize::try_from(n).unwrap_or(0))
            .map_err(e)?;
        Ok(rows)
    }

    /// What the ledger holds for `instance` over all its sessions: the baseline a new
    /// session's [`MinuteAggregator`](super::MinuteAggregator) starts from. `None` when no
    /// session of it was recorded in `currency`.
    pub fn recorded_cost(
        &self,
        instance: &str,
        currency: Currency,
    ) -> Result<Option<Breakdown>, LedgerError> {
        let sums: Option<[i64; 4]> = self
            .conn
            .query_row(
                "SELECT count(DISTINCT s.id), coalesce(sum(b.compute), 0),
                        coalesce(sum(b.bandwidth), 0), coalesce(sum(b.storage), 0),
                        coalesce(sum(b.extras), 0)
                 FROM sessions s LEFT JOIN buckets b ON b.session = s.id
                 WHERE s.instance = ?1 AND s.currency = ?2",
                params![instance, currency.as_str()],
                |r| {
                    let n: i64 = r.get(0)?;
                    Ok((n > 0).then_some([r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?]))
                },
            )
            .map_err(|e| self.err(e))?;
        Ok(sums.map(|[c, b, s, x]| Breakdown {
            currency,
            compute: from_nanos(c),
            bandwidth: from_nanos(b),
            storage: from_nanos(s),
            extras: from_nanos(x),
        }))
    }

    fn select<T>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        map: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
    ) -> Result<Vec<T>, LedgerError> {
        let mut stmt = self.conn.prepare_cached(sql).map_err(|e| self.err(e))?;
        stmt.query_map(params, map)
            .and_then(Iterator::collect)
            .map_err(|e| self.err(e))
    }
}

fn session_row(r: &Row<'_>) -> rusqlite::Result<SessionRow> {
    Ok(SessionRow {
        id: r.get(0)?,
        instance: r.get(1)?,
        provider: r.get(2)?,
        sku: r.get(3)?,
        mode: r.get(4)?,
        rate: r.get(5)?,
        currency: currency(r, 6)?,
        started: ts(r.get(7)?),
        ended: ts(r.get(8)?),
        open: r.get(9)?,
        billing: match (r.get(10)?, r.get(11)?) {
            (Some(step_seconds), Some(minimum_seconds)) => Some(BillingStep {
                step_seconds,
                minimum_seconds,
            }),
            _ => None,
        },
    })
}

fn leftover_row(r: &Row<'_>) -> rusqlite::Result<LeftoverRow> {
    Ok(LeftoverRow {
        instance: r.get(0)?,
        released: ts(r.get(1)?),
        id: r.get(2)?,
        kind: r.get(3)?,
        name: r.get(4)?,
        class: r.get(5)?,
        size_gib: r.get(6)?,
        state: r.get(7)?,
        created: ts(r.get(8)?),
        last_seen: ts(r.get(9)?),
    })
}

#[cfg(test)]
mod tests {
    use super::super::schema::old_ledger;
    use super::*;

    /// A ledger from before sessions kept their billing step, read without migrating it: its
    /// sessions read as billed as accrued.
    #[test]
    fn a_version_2_ledger_reads_without_a_billing_step() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.sqlite");
        old_ledger(
            &path,
            2,
            "INSERT INTO sessions (instance, provider, sku, mode, rate, currency, started,
                                   last_seen)
             VALUES ('i-1', 'aws', 'g5.xlarge', 'on_demand', '1', 'USD', 0, 60);",
        );
        let reader = Ledger::open_read_only(&path).unwrap();
        let rows = reader.report_rows(ts(0), ts(3600)).unwrap();
        assert_eq!(rows.sessions.len(), 1);
        assert_eq!(rows.sessions[0].billing, None);
    }
}
