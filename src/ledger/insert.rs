//! Writing rows: sessions, buckets, events and inventories. A [`Batch`] goes in one
//! transaction, so a crash leaves either all of it or none.

use jiff::Timestamp;
use rusqlite::{Transaction, TransactionBehavior, params};

use super::amount::to_nanos;
use super::error::LedgerError;
use super::record::{EventId, EventRecord, MinuteBucket, SessionId, SessionStart, word};
use super::store::Ledger;
use crate::meter::InstanceState;
use crate::provider::{Inventory, LinkedResource};

/// Rows to commit together.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Batch {
    pub minutes: Vec<MinuteBucket>,
    pub events: Vec<EventRecord>,
    pub inventories: Vec<(SessionId, Inventory, Timestamp)>,
}

impl Batch {
    pub fn is_empty(&self) -> bool {
        self.minutes.is_empty() && self.events.is_empty() && self.inventories.is_empty()
    }
}

impl Ledger {
    /// Starts a session. A session of the same instance left open by a crash is closed at the
    /// last minute it recorded.
    pub fn start_session(&mut self, start: &SessionStart) -> Result<SessionId, LedgerError> {
        let (path, timeout) = (self.path.clone(), self.busy_timeout);
        let sql = |e| LedgerError::from_sqlite(&path, timeout, e);
        let tx = self.immediate()?;
        let run = || -> rusqlite::Result<i64> {
            tx.execute(
                "UPDATE sessions SET ended = last_seen WHERE instance = ?1 AND ended IS NULL",
                [&start.instance],
            )?;
            tx.execute(
                "INSERT INTO sessions
                 (instance, provider, sku, mode, rate, currency, started, last_seen, region,
                  step_seconds, minimum_seconds)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, ?9, ?10)",
                params![
                    start.instance,
                    start.provider,
                    start.sku,
                    word(&start.mode),
                    start.rate_per_hour.map(|r| r.normalize().to_string()),
                    start.currency.as_str(),
                    start.at.as_second(),
                    start.region,
                    start.billing.map(|b| b.step_seconds),
                    start.billing.map(|b| b.minimum_seconds),
                ],
            )?;
            Ok(tx.last_insert_rowid())
        };
        let id = run().map_err(sql)?;
        tx.commit().map_err(sql)?;
        Ok(SessionId(id))
    }

    /// Closes a session at `at`.
    pub fn end_session(&mut self, session: SessionId, at: Timestamp) -> Result<(), LedgerError> {
        self.conn
            .execute(
                "UPDATE sessions SET ended = ?2, last_seen = max(last_seen, ?2) WHERE id = ?1",
                params![session.0, at.as_second()],
            )
            .map(drop)
            .map_err(|e| self.err(e))
    }

    pub fn record_minute(&mut self, bucket: MinuteBucket) -> Result<(), LedgerError> {
        self.write(&Batch {
            minutes: vec![bucket],
            ..Batch::default()
        })
        .map(drop)
    }

    /// Records an event and commits at once; returns its id.
    pub fn record_event(&mut self, event: EventRecord) -> Result<EventId, LedgerError> {
        let ids = self.write(&Batch {
            events: vec![event],
            ..Batch::default()
        })?;
        ids.first().copied().ok_or(LedgerError::WriterGone)
    }

    pub fn record_inventory(
        &mut self,
        session: SessionId,
        inventory: Inventory,
        at: Timestamp,
    ) -> Result<(), LedgerError> {
        self.write(&Batch {
            inventories: vec![(session, inventory, at)],
            ..Batch::default()
        })
        .map(drop)
    }

    /// Commits a batch in one transaction; returns the new events' ids in order.
    pub fn write(&mut self, batch: &Batch) -> Result<Vec<EventId>, LedgerError> {
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        let (path, timeout) = (self.path.clone(), self.busy_timeout);
        let fail = |e: RowError| e.at(&path, timeout);
        let tx = self.immediate()?;
        let mut ids = Vec::with_capacity(batch.events.len());
        for bucket in &batch.minutes {
            insert_minute(&tx, bucket).map_err(fail)?;
        }
        for event in &batch.events {
            ids.push(insert_event(&tx, event).map_err(fail)?);
        }
        for (session, inventory, at) in &batch.inventories {
            insert_inventory(&tx, *session, inventory, *at).map_err(fail)?;
        }
        tx.commit().map_err(|e| fail(RowError::Sql(e)))?;
        Ok(ids)
    }

    pub(crate) fn immediate(&mut self) -> Result<Transaction<'_>, LedgerError> {
        let (path, timeout) = (self.path.clone(), self.busy_timeout);
        self.conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| LedgerError::from_sqlite(&path, timeout, e))
    }
}

/// A row failed: either SQLite's error or a value that does not fit.
pub(crate) enum RowError {
    Sql(rusqlite::Error),
    Value(String),
}

impl From<rusqlite::Error> for RowError {
    fn from(e: rusqlite::Error) -> Self {
        RowError::Sql(e)
    }
}

impl RowError {
    pub(crate) fn at(self, path: &std::path::Path, waited: std::time::Duration) -> LedgerError {
        match self {
            RowError::Sql(e) => LedgerError::from_sqlite(path, waited, e),
            RowError::Value(detail) => LedgerError::BadValue {
                path: path.to_path_buf(),
                detail,
            },
        }
    }
}

fn insert_minute(tx: &Transaction<'_>, b: &MinuteBucket) -> Result<(), RowError> {
    let nanos = |d| to_nanos(d).ok_or_else(|| RowError::Value(format!("cost {d} is too large")));
    let [compute, bandwidth, storage, extras] = [
        nanos(b.cost.compute)?,
        nanos(b.cost.bandwidth)?,
        nanos(b.cost.storage)?,
        nanos(b.cost.extras)?,
    ];
    let total = compute + bandwidth + storage + extras;
    let split_cost = [
        nanos(b.split_cost.intranet)?,
        nanos(b.split_cost.cross_region)?,
    ];
    let start = b.start.as_second().div_euclid(60) * 60;
    let g = &b.gpu;
    tx.prepare_cached(
        "INSERT OR REPLACE INTO buckets
         (start, session, span, compute, bandwidth, storage, extras, idle_cost, idle_minutes,
          util_samples, util_mean, util_max, power_samples, power_mean, energy_j, egress_bytes,
          intranet_bytes, cross_region_bytes, intranet_cost, cross_region_cost)
         VALUES (?1, ?2, 60, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                 ?18, ?19)",
    )?
    .execute(params![
        start,
        b.session.0,
        compute,
        bandwidth,
        storage,
        extras,
        if b.idle { total } else { 0 },
        i64::from(b.idle),
        g.util_samples,
        g.util_mean_pct,
        g.util_max_pct,
        g.power_samples,
        g.power_mean_w,
        g.energy_j,
        i64::try_from(b.egress_bytes).unwrap_or(i64::MAX),
        i64::try_from(b.egress_split.intranet).unwrap_or(i64::MAX),
        i64::try_from(b.egress_split.cross_region).unwrap_or(i64::MAX),
        split_cost[0],
        split_cost[1],
    ])?;
    tx.prepare_cached("UPDATE sessions SET last_seen = max(last_seen, ?2) WHERE id = ?1")?
        .execute(params![b.session.0, start + 60])?;
    Ok(())
}

pub(super) fn insert_event(tx: &Transaction<'_>, e: &EventRecord) -> Result<EventId, RowError> {
    let action = e.action.as_ref();
    tx.prepare_cached(
        "INSERT INTO events
         (session, instance, at, kind, level, text, intent, request, answer, outcome, origin)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        e.session.map(|s| s.0),
        e.instance,
        e.at.as_second(),
        word(&e.kind),
        word(&e.level),
        e.text,
        action.map(|a| a.intent.as_str()),
        action.map(|a| a.request.as_str()),
        action.map(|a| a.answer.as_str()),
        action.map(|a| word(&a.outcome)),
        e.origin,
    ])?;
    Ok(EventId(tx.last_insert_rowid()))
}

/// Merges one inventory into the resources seen so far: new ones are added, listed ones move
/// their `last_seen`, and ones no longer listed get the time they went.
fn insert_inventory(
    tx: &Transaction<'_>,
    session: SessionId,
    inventory: &Inventory,
    at: Timestamp,
) -> Result<(), RowError> {
    let (instance, provider, sku, region): (String, String, String, Option<String>) = tx
        .query_row(
            "SELECT instance, provider, sku, region FROM sessions WHERE id = ?1",
            [session.0],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
    let region = inventory
        .instance
        .as_ref()
        .and_then(|i| i.region.clone())
        .or(region);
    let t = at.as_second();
    let state = inventory.instance_state();
    tx.prepare_cached(
        "INSERT INTO instances
           (id, provider, sku, state, first_seen, last_seen, released, region)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5, CASE WHEN ?6 THEN ?5 END, ?7)
         ON CONFLICT (id) DO UPDATE SET state = ?4, last_seen = max(last_seen, ?5),
           released = CASE WHEN released IS NULL AND ?6 THEN ?5 ELSE released END,
           region = coalesce(?7, region)",
    )?
    .execute(params![
        instance,
        provider,
        sku,
        word(&state),
        t,
        state == InstanceState::Released,
        region
    ])?;
    if let Some(listed) = &inventory.instance {
        super::seen::keep_listing(tx, listed)?;
    }
    upsert_resources(tx, &instance, &inventory.resources, t)
}

/// The resources an inventory of `instance` lists at `t`, and when each one it no longer lists
/// was first missed.
pub(super) fn upsert_resources(
    tx: &Transaction<'_>,
    instance: &str,
    resources: &[LinkedResource],
    t: i64,
) -> Result<(), RowError> {
    for r in resources {
        tx.prepare_cached(
            "INSERT INTO resources (instance, id, kind, name, class, size_gib, state,
               deleted_with_instance, created, first_seen, last_seen, gone)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, NULL)
             ON CONFLICT (instance, id) DO UPDATE SET name = ?4, class = ?5, size_gib = ?6,
               state = ?7, deleted_with_instance = ?8, last_seen = max(last_seen, ?10),
               gone = NULL",
        )?
        .execute(params![
            instance,
            r.id,
            word(&r.kind),
            r.name,
            r.class,
            r.size_gib.normalize().to_string(),
            r.state,
            r.deleted_with_instance,
            r.created.as_second(),
            t,
        ])?;
    }
    let listed: Vec<&str> = resources.iter().map(|r| r.id.as_str()).collect();
    let listed = serde_json::to_string(&listed).map_err(|e| RowError::Value(e.to_string()))?;
    tx.prepare_cached(
        "UPDATE resources SET gone = ?2
         WHERE instance = ?1 AND gone IS NULL
           AND id NOT IN (SELECT value FROM json_each(?3))",
    )?
    .execute(params![instance, t, listed])?;
    Ok(())
}
