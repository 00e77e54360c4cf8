//! The report's minutes summed per session and quarter hour: a month of minutes comes back as
//! a few thousand rows. Quarter hours, because every time zone's offset is a whole number of
//! them, so a local day is made of whole quarter hours.
//!
//! The minutes are read in the table's own order (its primary key: start, then session) and
//! summed here as they arrive. A `GROUP BY` on the quarter hour, an expression, made SQLite
//! sort every minute of the window first, and that sort was most of `report`'s time over a
//! large ledger. Costs stay exact: integer nano-units, added with a check as SQLite's `sum()`
//! does. Readings are added as its `total()` adds them (Kahan–Babuška–Neumaier), so a figure
//! does not move with where it is summed.

use jiff::Timestamp;
use rusqlite::{Row, params};

use super::columns::ts;
use super::error::LedgerError;
use super::store::Ledger;

/// How finely the report's rows are summed, in seconds.
pub const SLICE_SECONDS: i64 = 15 * 60;

/// Sums over one session and one slice of time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SliceRow {
    pub session: i64,
    pub start: Timestamp,
    /// Nano-units per line: compute, bandwidth, storage, extras.
    pub cost: [i64; 4],
    pub idle_cost: i64,
    pub idle_minutes: i64,
    pub util_samples: i64,
    /// Sum of utilisation over its samples (mean × samples).
    pub util_sum: f64,
    pub util_max: Option<f64>,
    pub energy_j: f64,
    pub egress_bytes: i64,
    /// Of `egress_bytes`, those sent to the intranet and to other regions.
    pub split_bytes: [i64; 2],
}

/// The columns each minute gives, in the table's order so no sort is needed; `{split}` the
/// egress split's two byte columns as the file holds them.
fn minutes_sql(version: i64) -> String {
    let [intranet, cross_region, ..] = super::schema::egress_split_columns(version);
    format!(
        "SELECT start, session, compute, bandwidth, storage, extras, idle_cost, idle_minutes,
                util_samples, util_mean * util_samples, util_max, energy_j, egress_bytes,
                {intranet}, {cross_region}
         FROM buckets WHERE start >= ?1 AND start < ?2 ORDER BY start, session"
    )
}

/// A floating-point sum with its running error, as SQLite's `total()` keeps it.
#[derive(Debug, Clone, Copy, Default)]
struct Compensated {
    sum: f64,
    err: f64,
}

impl Compensated {
    fn add(&mut self, x: f64) {
        let t = self.sum + x;
        self.err += if self.sum.abs() > x.abs() {
            (self.sum - t) + x
        } else {
            (x - t) + self.sum
        };
        self.sum = t;
    }

    fn value(self) -> f64 {
        if self.err.is_finite() {
            self.sum + self.err
        } else {
            self.sum
        }
    }
}

/// One slice of one session while its minutes are being added.
struct Open {
    row: SliceRow,
    util: Compensated,
    energy: Compensated,
}

impl Open {
    fn new(session: i64, start: i64) -> Self {
        Open {
            row: SliceRow {
                session,
                start: ts(start),
                cost: [0; 4],
                idle_cost: 0,
                idle_minutes: 0,
                util_samples: 0,
                util_sum: 0.0,
                util_max: None,
                energy_j: 0.0,
                egress_bytes: 0,
                split_bytes: [0; 2],
            },
            util: Compensated::default(),
            energy: Compensated::default(),
        }
    }

    /// Adds one minute; `None` when an integer sum no longer fits.
    fn add(&mut self, r: &Row<'_>) -> rusqlite::Result<Option<()>> {
        let s = &mut self.row;
        let exact = |sum: &mut i64, idx: usize| -> rusqlite::Result<Option<()>> {
            let value: i64 = r.get(idx)?;
            Ok(sum.checked_add(value).map(|total| *sum = total))
        };
        let added = [
            exact(&mut s.cost[0], 2)?,
            exact(&mut s.cost[1], 3)?,
            exact(&mut s.cost[2], 4)?,
            exact(&mut s.cost[3], 5)?,
            exact(&mut s.idle_cost, 6)?,
            exact(&mut s.idle_minutes, 7)?,
            exact(&mut s.util_samples, 8)?,
            exact(&mut s.egress_bytes, 12)?,
            exact(&mut s.split_bytes[0], 13)?,
            exact(&mut s.split_bytes[1], 14)?,
        ];
        if let Some(util) = r.get::<_, Option<f64>>(9)? {
            self.util.add(util);
        }
        if let Some(max) = r.get::<_, Option<f64>>(10)? {
            s.util_max = Some(s.util_max.map_or(max, |m| m.max(max)));
        }
        self.energy.add(r.get(11)?);
        Ok(added.iter().all(Option::is_some).then_some(()))
    }

    fn finish(self) -> SliceRow {
        SliceRow {
            util_sum: self.util.value(),
            energy_j: self.energy.value(),
            ..self.row
        }
    }
}

impl Ledger {
    /// The minutes of `[from, to)` (Unix seconds) summed per session and slice, ordered by the
    /// slice's start, then the session.
    pub(super) fn slices(&self, from: i64, to: i64) -> Result<Vec<SliceRow>, LedgerError> {
        let sql = minutes_sql(self.schema_version()?);
        let mut stmt = self.conn.prepare_cached(&sql).map_err(|e| self.err(e))?;
        let mut minutes = stmt.query(params![from, to]).map_err(|e| self.err(e))?;
        let mut done = Vec::new();
        // The sessions of the slice being summed, by session id.
        let mut open: Vec<Open> = Vec::new();
        let mut open_start = None;
        while let Some(r) = minutes.next().map_err(|e| self.err(e))? {
            let start: i64 = r.get(0).map_err(|e| self.err(e))?;
            let session: i64 = r.get(1).map_err(|e| self.err(e))?;
            // As SQLite's `start - start % n`: toward zero, should a start be negative.
            let slice = start - start % SLICE_SECONDS;
            if open_start != Some(slice) {
                done.extend(open.drain(..).map(Open::finish));
                open_start = Some(slice);
            }
            let at = match open.binary_search_by_key(&session, |o| o.row.session) {
                Ok(at) => at,
                Err(at) => {
                    open.insert(at, Open::new(session, slice));
                    at
                }
            };
            if open[at].add(r).map_err(|e| self.err(e))?.is_none() {
                return Err(LedgerError::BadValue {
                    path: self.path.clone(),
                    detail: format!(
                        "the sums of session {session} from {} do not fit a 64-bit integer",
                        ts(slice)
                    ),
                });
            }
        }
        done.extend(open.into_iter().map(Open::finish));
        Ok(done)
    }
}

#[cfg(test)]
#[path = "slices_tests.rs"]
mod tests;
