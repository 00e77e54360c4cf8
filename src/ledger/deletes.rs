//! Each resource a cleanup deleted, kept as an action of its own: what it was, what the
//! provider's read-back said, and what it billed a month, the money the delete stops. `report`
//! lists it with the other actions; the audit takes a confirmed one as the end of that
//! resource's charges.

use jiff::Timestamp;
use rusqlite::params;
use serde_json::json;

use super::columns::ts;
use super::error::LedgerError;
use super::insert::insert_event;
use super::record::{ActionRecord, EventKind, EventLevel, EventRecord, Outcome};
use super::store::Ledger;
use crate::money::Money;
use crate::provider::{ActionReport, LinkedResource, ProviderError};

/// Why what a deleted resource billed a month is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unpriced {
    #[error("no price sheet for the region")]
    NoSheet,
    /// The sheet prices no resource of this kind (its label).
    #[error("the price sheet has no price for a {0}")]
    NoPrice(&'static str),
}

/// One delete of a cleanup, as it ended.
#[derive(Debug)]
pub struct Delete<'a> {
    pub resource: &'a LinkedResource,
    /// What the resource billed a month, which its delete stops; the reason when that is not
    /// known (no sheet, no price on it).
    pub monthly: Result<Money, Unpriced>,
    pub result: &'a Result<ActionReport, ProviderError>,
    /// Who deleted it: [`FROM_COMMAND`](super::record::FROM_COMMAND) for the command line.
    pub origin: &'static str,
}

impl Delete<'_> {
    /// The event: intent `delete <kind>`, the request with the resource and the monthly cost
    /// (`null` beside its reason when unknown), the provider's read-back as the answer.
    fn event(&self, at: Timestamp, instance: Option<String>) -> EventRecord {
        let r = self.resource;
        let (answer, outcome, calls) = match self.result {
            Ok(report) if report.confirmed => (
                report.summary.clone(),
                Outcome::Confirmed,
                &report.calls[..],
            ),
            Ok(report) => (
                report.summary.clone(),
                Outcome::Unconfirmed,
                &report.calls[..],
            ),
            Err(e) => (e.to_string(), Outcome::Failed, &[][..]),
        };
        let (monthly, currency, unknown) = match &self.monthly {
            Ok(m) => (Some(m.amount.to_string()), Some(m.currency.as_str()), None),
            Err(why) => (None, None, Some(why.to_string())),
        };
        let request = json!({
            "action": "delete",
            "kind": r.kind,
            "id": r.id,
            "name": r.name,
            "stops_monthly": monthly,
            "currency": currency,
            "stops_monthly_unknown": unknown,
            "calls": calls,
        });
        let intent = format!("delete {}", r.kind.label());
        EventRecord {
            at,
            session: None,
            instance,
            kind: EventKind::Action,
            level: match outcome {
                Outcome::Confirmed => EventLevel::Info,
                Outcome::Unconfirmed => EventLevel::Warn,
                Outcome::Failed => EventLevel::Error,
            },
            text: format!("{intent} {}: {answer}", r.id),
            action: Some(ActionRecord {
                intent,
                request: request.to_string(),
                answer,
                outcome,
            }),
            origin: Some(self.origin),
        }
    }
}

impl Ledger {
    /// Records `delete` at `at`, tied to the instance the ledger saw the resource with (none
    /// for one it never saw with an instance); a confirmed delete also marks the resource gone,
    /// so `report` no longer lists it as still billing. One transaction.
    pub fn record_delete(&mut self, delete: &Delete<'_>, at: Timestamp) -> Result<(), LedgerError> {
        let (path, waited) = (self.path().to_path_buf(), self.busy_timeout);
        let tx = self.immediate()?;
        let fail = |e: rusqlite::Error| LedgerError::from_sqlite(&path, waited, e);
        let instance: Option<String> = tx
            .query_row(
                "SELECT instance FROM resources WHERE id = ?1 ORDER BY last_seen DESC LIMIT 1",
                params![delete.resource.id],
                |r| r.get(0),
            )
            .map(Some)
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                e => Err(e),
            })
            .map_err(fail)?;
        insert_event(&tx, &delete.event(at, instance)).map_err(|e| e.at(&path, waited))?;
        if delete.result.as_ref().is_ok_and(|r| r.confirmed) {
            tx.execute(
                "UPDATE resources SET gone = ?2 WHERE id = ?1 AND (gone IS NULL OR gone > ?2)",
                params![delete.resource.id, at.as_second()],
            )
            .map_err(fail)?;
        }
        tx.commit().map_err(fail)
    }

    /// Every resource whose delete the provider's read-back confirmed, with when: a cleanup's
    /// delete, each id of a confirmed cleanup or snapshot clean run as one action (the
    /// cockpit's), earliest first.
    pub fn confirmed_deletes(&self) -> Result<Vec<(String, Timestamp)>, LedgerError> {
        if self.schema_version()? == 0 {
            return Ok(Vec::new());
        }
        self.rows(
            "WITH acts AS (
               SELECT at, iif(json_valid(request), request, '{}') AS request FROM events
               WHERE kind = 'action' AND outcome = 'confirmed'
             )
             SELECT json_extract(request, '$.id'), at FROM acts
             WHERE json_extract(request, '$.action') = 'delete'
             UNION ALL
             SELECT iif(d.type = 'object', json_extract(a.request, d.fullkey || '.id'), d.value), a.at
             FROM acts a, json_each(a.request, '$.delete') d
             WHERE json_extract(a.request, '$.action') IN ('cleanup', 'snapshot_clean')
             ORDER BY 2",
            [],
            |r| Ok((r.get::<_, Option<String>>(0)?, ts(r.get(1)?))),
        )
        .map(|rows| {
            rows.into_iter()
                .filter_map(|(id, at)| Some((id?, at)))
                .collect()
        })
    }
}

#[cfg(test)]
#[path = "deletes_tests.rs"]
mod tests;
