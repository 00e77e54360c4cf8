//! What a refund case quotes from the ledger: every action taken on the instances in question,
//! with the provider's answer, and the meter's minute records for the span.

use gpumeter_core::audit::evidence::{EvidenceAction, EvidenceMinute};
use jiff::Timestamp;
use rusqlite::params;

use super::super::amount::from_nanos;
use super::super::columns::{currency, ts};
use super::super::error::LedgerError;
use super::super::store::Ledger;
use crate::money::Money;

impl Ledger {
    /// Every action the ledger holds for `instances`, oldest first, with the provider's answer
    /// and how its read-back ended.
    pub fn audit_actions(&self, instances: &[&str]) -> Result<Vec<EvidenceAction>, LedgerError> {
        let mut out = Vec::new();
        if self.schema_version()? == 0 {
            return Ok(out);
        }
        for id in instances {
            out.extend(self.rows(
                "SELECT at, instance, coalesce(intent, ''), request, answer, outcome
                 FROM events WHERE kind = 'action' AND instance = ?1 ORDER BY at, id",
                params![id],
                |r| {
                    Ok(EvidenceAction {
                        at: ts(r.get(0)?),
                        instance: r.get(1)?,
                        intent: r.get(2)?,
                        request: r.get(3)?,
                        answer: r.get(4)?,
                        outcome: r.get(5)?,
                    })
                },
            )?);
        }
        out.sort_by_key(|a| a.at);
        Ok(out)
    }

    /// The meter's minute records of `instances` in `[since, until)`, per instance in time
    /// order.
    pub fn audit_minutes(
        &self,
        instances: &[&str],
        since: Timestamp,
        until: Timestamp,
    ) -> Result<Vec<EvidenceMinute>, LedgerError> {
        let mut out = Vec::new();
        if self.schema_version()? == 0 {
            return Ok(out);
        }
        for id in instances {
            out.extend(self.rows(
                "SELECT s.instance, b.start, s.currency, b.compute, b.bandwidth, b.storage,
                        b.extras, b.idle_minutes, b.util_mean
                 FROM buckets b JOIN sessions s ON s.id = b.session
                 WHERE s.instance = ?1 AND b.start >= ?2 AND b.start < ?3
                 ORDER BY b.start",
                params![id, since.as_second(), until.as_second()],
                |r| {
                    let currency = currency(r, 2)?;
                    let money = |n: i64| Money::new(from_nanos(n), currency);
                    Ok(EvidenceMinute {
                        instance: r.get(0)?,
                        start: ts(r.get(1)?),
                        cost: [
                            money(r.get(3)?),
                            money(r.get(4)?),
                            money(r.get(5)?),
                            money(r.get(6)?),
                        ],
                        idle: r.get::<_, i64>(7)? > 0,
                        gpu_util_mean_pct: r.get(8)?,
                    })
                },
            )?);
        }
        Ok(out)
    }
}
