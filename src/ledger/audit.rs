//! What `gpumeter audit` reads from the ledger: the core's [`AuditLedger`] for a span (each
//! instance that ran, with the compute the meter billed for it, and every resource seen with
//! one); [`evidence`] the actions and the minute records behind a refund case.

mod evidence;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use gpumeter_core::audit::{AuditLedger, LedgerInstance, LedgerResource};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use rusqlite::{Row, params};
use rust_decimal::Decimal;

use super::columns::{currency, ts};
use super::error::LedgerError;
use super::report;
use super::store::Ledger;
use crate::meter::ResourceKind;
use crate::money::{Currency, Money};

/// One session, as the audit folds them into instances.
struct Run {
    instance: String,
    provider: String,
    sku: String,
    region: Option<String>,
    rate: Option<Decimal>,
    currency: Currency,
    started: Timestamp,
    ended: Timestamp,
    step: Option<u32>,
}

impl Ledger {
    /// The ledger's view of `[since, until)`: every instance with a session begun before
    /// `until` (or only sighted), and every resource first seen before it. `metered` is the
    /// compute `report` bills for the span (whole steps, the minimum per run); `None` when a
    /// session of the instance in the span has no price.
    pub fn audit_ledger(
        &self,
        since: Timestamp,
        until: Timestamp,
    ) -> Result<AuditLedger, LedgerError> {
        let version = self.schema_version()?;
        if version == 0 {
            return Ok(AuditLedger::default());
        }
        let rows = self.report_rows(since, until)?;
        let spent = report::build(&rows, (since, until), &TimeZone::UTC, &|_| None, &[]);
        let region = if version < 2 { "NULL" } else { "region" };
        let step = if version < 3 { "NULL" } else { "step_seconds" };
        let runs = self.rows(
            &format!(
                "SELECT instance, provider, sku, {region}, rate, currency, started,
                        coalesce(ended, last_seen), {step}
                 FROM sessions WHERE started < ?1 ORDER BY started, id"
            ),
            params![until.as_second()],
            |r| {
                Ok(Run {
                    instance: r.get(0)?,
                    provider: r.get(1)?,
                    sku: r.get(2)?,
                    region: r.get(3)?,
                    rate: r.get::<_, Option<String>>(4)?.and_then(|t| t.parse().ok()),
                    currency: currency(r, 5)?,
                    started: ts(r.get(6)?),
                    ended: ts(r.get(7)?),
                    step: r.get(8)?,
                })
            },
        )?;
        let seen = self.rows(
            &format!(
                "SELECT id, provider, sku, {region}, first_seen, last_seen, released FROM instances"
            ),
            [],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    ts(r.get(4)?),
                    ts(r.get(5)?),
                    r.get::<_, Option<i64>>(6)?.map(ts),
                ))
            },
        )?;
        let (mut instances, unpriced) = from_runs(&runs, since);
        for (id, provider, sku, region, first, last, released) in seen {
            if first >= until {
                continue;
            }
            let entry = instances
                .entry(id.clone())
                .or_insert_with(|| LedgerInstance {
                    id,
                    provider,
                    region: None,
                    sku: sku.clone(),
                    started: first,
                    last_seen: last,
                    released: None,
                    metered: None,
                    rate_per_hour: None,
                    step_seconds: None,
                });
            entry.region = entry.region.take().or(region);
            entry.sku = entry.sku.take().or(sku);
            entry.last_seen = entry.last_seen.max(last);
            entry.released = released;
        }
        for inst in instances.values_mut() {
            if unpriced.contains(&inst.id) {
                inst.metered = None;
                continue;
            }
            let billed = spent.instances.iter().find(|s| s.instance == inst.id);
            if let (Some(metered), Some(spend)) = (inst.metered.as_mut(), billed)
                && spend.billed.currency == metered.currency
            {
                metered.amount = spend.billed.compute;
            }
        }
        Ok(AuditLedger {
            instances: instances.into_values().collect(),
            resources: self.audit_resources(until)?,
        })
    }

    /// Every resource first seen before `until`, with the instance it was seen with.
    fn audit_resources(&self, until: Timestamp) -> Result<Vec<LedgerResource>, LedgerError> {
        let rows = self.rows(
            "SELECT instance, id, kind, created, first_seen, last_seen, gone,
                    deleted_with_instance
             FROM resources WHERE first_seen < ?1 ORDER BY instance, id",
            params![until.as_second()],
            |r| {
                Ok((
                    r.get::<_, String>(2)?,
                    LedgerResource {
                        instance: r.get(0)?,
                        id: r.get(1)?,
                        kind: ResourceKind::SystemDisk,
                        created: ts(r.get(3)?),
                        first_seen: ts(r.get(4)?),
                        last_seen: ts(r.get(5)?),
                        gone: r.get::<_, Option<i64>>(6)?.map(ts),
                        deleted_with_instance: r.get(7)?,
                    },
                ))
            },
        )?;
        // A delete the provider confirmed ends the resource even where no later reading saw
        // it gone (the cockpit's cleanup records only the action).
        let deletes = self.confirmed_deletes()?;
        Ok(rows
            .into_iter()
            .filter_map(|(kind, mut resource)| {
                resource.kind = serde_json::from_value(serde_json::Value::String(kind)).ok()?;
                let confirmed = deletes.iter().find(|(id, _)| *id == resource.id);
                if let Some(&(_, at)) = confirmed {
                    resource.gone = Some(resource.gone.map_or(at, |g| g.min(at)));
                }
                Some(resource)
            })
            .collect())
    }

    /// Every row `sql` returns, each through `map`.
    pub(super) fn rows<T>(
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

/// The instances the sessions ran, keyed by id, and those with a session in the span that no
/// sheet priced.
fn from_runs(runs: &[Run], since: Timestamp) -> (BTreeMap<String, LedgerInstance>, Vec<String>) {
    let mut instances: BTreeMap<String, LedgerInstance> = BTreeMap::new();
    let mut unpriced: Vec<String> = Vec::new();
    for run in runs {
        if run.rate.is_none() && run.ended >= since {
            unpriced.push(run.instance.clone());
        }
        let entry = instances
            .entry(run.instance.clone())
            .or_insert_with(|| LedgerInstance {
                id: run.instance.clone(),
                provider: run.provider.clone(),
                region: None,
                sku: Some(run.sku.clone()),
                started: run.started,
                last_seen: run.ended,
                released: None,
                metered: None,
                rate_per_hour: None,
                step_seconds: None,
            });
        entry.last_seen = entry.last_seen.max(run.ended);
        entry.region = run.region.clone().or(entry.region.take());
        if let Some(rate) = run.rate {
            entry.rate_per_hour = Some(Money::new(rate, run.currency));
            entry.step_seconds = run.step.or(entry.step_seconds);
            entry.metered = Some(Money::zero(run.currency));
        }
    }
    (instances, unpriced)
}
