//! Bounded growth: minute buckets older than the full-resolution span (30 days unless
//! configured) roll up into one bucket per session and hour. Costs, idle cost, energy and bytes
//! are sums of integers or plain sums, so every total stays exactly what it was; utilisation and
//! power means are weighted by their sample counts.

use jiff::{SignedDuration, Timestamp};
use rusqlite::params;

use super::error::LedgerError;
use super::store::Ledger;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// How long minute buckets are kept before they roll up into hours.
    pub full_resolution: SignedDuration,
}

impl Default for Retention {
    fn default() -> Self {
        Retention {
            full_resolution: SignedDuration::from_hours(30 * 24),
        }
    }
}

/// What one compaction did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Compacted {
    /// Buckets replaced (minutes, and hours that took in late minutes).
    pub rolled: usize,
    /// Hourly buckets written.
    pub hours: usize,
}

const ROLLUP: &str = "
    INSERT INTO temp.rollup
    SELECT start - start % 3600, session, 3600,
           sum(compute), sum(bandwidth), sum(storage), sum(extras),
           sum(idle_cost), sum(idle_minutes),
           sum(util_samples),
           sum(util_mean * util_samples) / nullif(sum(util_samples), 0),
           max(util_max),
           sum(power_samples),
           sum(power_mean * power_samples) / nullif(sum(power_samples), 0),
           sum(energy_j), sum(egress_bytes), sum(intranet_bytes), sum(cross_region_bytes),
           sum(intranet_cost), sum(cross_region_cost)
    FROM buckets
    WHERE start < ?1
    GROUP BY start - start % 3600, session
    HAVING min(span) < 3600";

impl Ledger {
    /// Rolls minute buckets that ended before `now - retention.full_resolution` (floored to
    /// the hour) into hourly buckets, in one transaction.
    pub fn compact(
        &mut self,
        now: Timestamp,
        retention: &Retention,
    ) -> Result<Compacted, LedgerError> {
        let cutoff = now.as_second() - retention.full_resolution.as_secs();
        let cutoff = cutoff - cutoff.rem_euclid(3600);
        let (path, timeout) = (self.path.clone(), self.busy_timeout);
        let sql = |e| LedgerError::from_sqlite(&path, timeout, e);
        let tx = self.immediate()?;
        tx.execute_batch(
            "CREATE TEMP TABLE IF NOT EXISTS rollup AS SELECT * FROM buckets WHERE 0;
             DELETE FROM temp.rollup;",
        )
        .map_err(sql)?;
        let hours = tx.execute(ROLLUP, [cutoff]).map_err(sql)?;
        let rolled = tx
            .execute(
                "DELETE FROM buckets WHERE start < ?1
                 AND (start - start % 3600, session) IN (SELECT start, session FROM temp.rollup)",
                params![cutoff],
            )
            .map_err(sql)?;
        tx.execute("INSERT INTO buckets SELECT * FROM temp.rollup", [])
            .map_err(sql)?;
        tx.execute("DELETE FROM temp.rollup", []).map_err(sql)?;
        tx.commit().map_err(sql)?;
        Ok(Compacted { rolled, hours })
    }
}
