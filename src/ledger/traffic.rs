//! The egress the meter measured for one instance, as its account reads it: one sample per
//! minute the ledger kept, merged per hour where older than the last hour measured (the account
//! prices bytes by month and its burn by the last minutes, so nothing finer is needed).

use super::columns::ts;
use super::error::LedgerError;
use super::store::Ledger;
use crate::meter::Traffic;
use gpumeter_core::traffic::EgressSplit;

/// Seconds in an hour: older samples merge into one per hour.
const HOUR: i64 = 3600;

impl Ledger {
    /// Bytes that left `instance`, each dated at the start of the minute it was measured in,
    /// across all its sessions; oldest first.
    pub fn traffic(&self, instance: &str) -> Result<Vec<Traffic>, LedgerError> {
        if self.schema_version()? == 0 {
            return Ok(Vec::new());
        }
        // A file opened read-only before the split: all of it internet.
        let [intranet, cross_region, ..] =
            super::schema::egress_split_columns(self.schema_version()?);
        let sql = format!(
            "SELECT b.start, sum(b.egress_bytes), sum({intranet}), sum({cross_region})
             FROM buckets b JOIN sessions s ON s.id = b.session
             WHERE s.instance = ?1 AND b.egress_bytes > 0
             GROUP BY b.start ORDER BY b.start"
        );
        let mut statement = self.conn.prepare_cached(&sql).map_err(|e| self.err(e))?;
        let minutes = statement
            .query_map([instance], |r| {
                let bytes = |i| r.get::<_, i64>(i).map(|b| u64::try_from(b).unwrap_or(0));
                Ok(Minute {
                    start: r.get(0)?,
                    egress: bytes(1)?,
                    split: EgressSplit {
                        intranet: bytes(2)?,
                        cross_region: bytes(3)?,
                    },
                })
            })
            .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
            .map_err(|e| self.err(e))?;
        Ok(merge_old_hours(&minutes))
    }
}

/// One minute's egress as the ledger holds it.
#[derive(Debug, Clone, Copy)]
struct Minute {
    start: i64,
    egress: u64,
    split: EgressSplit,
}

/// One sample per minute, those more than an hour before the last merged per hour (dated at
/// the hour's start, as the minutes' starts are).
fn merge_old_hours(minutes: &[Minute]) -> Vec<Traffic> {
    let Some(last) = minutes.last().map(|m| m.start) else {
        return Vec::new();
    };
    let mut out: Vec<Traffic> = Vec::new();
    for &Minute {
        start,
        egress: bytes,
        split,
    } in minutes
    {
        let old = start < last - HOUR;
        let at = if old {
            start - start.rem_euclid(HOUR)
        } else {
            start
        };
        match out.last_mut() {
            Some(t) if old && t.at == ts(at) => {
                t.egress_bytes = t.egress_bytes.saturating_add(bytes);
                t.split.merge(split);
            }
            _ => out.push(Traffic {
                at: ts(at),
                egress_bytes: bytes,
                ingress_bytes: 0,
                split,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::Timestamp;

    #[test]
    fn minutes_older_than_the_last_hour_merge_per_hour_and_keep_every_byte() {
        let minutes =
            [(7200, 5), (7260, 7), (10_800, 1), (14_400, 2), (14_460, 3)].map(|(start, egress)| {
                Minute {
                    start,
                    egress,
                    split: EgressSplit {
                        intranet: egress / 2,
                        cross_region: 0,
                    },
                }
            });
        let merged = merge_old_hours(&minutes);
        let at: Vec<Timestamp> = merged.iter().map(|t| t.at).collect();
        assert_eq!(at, [ts(7200), ts(10_800), ts(14_400), ts(14_460)]);
        assert_eq!(merged[0].egress_bytes, 12);
        assert_eq!(merged[0].split.intranet, 5);
        let sum: u64 = merged.iter().map(|t| t.egress_bytes).sum();
        assert_eq!(sum, 18);
    }
}
