//! The instances this data directory has seen exist: every session and every inventory the
//! ledger holds, and the sightings the one-shot commands record. Read into the core's [`Seen`]
//! for the rule that an instance a provider does not list counts as released only if seen.

use jiff::Timestamp;
use rusqlite::params;

use super::error::LedgerError;
use super::record::word;
use super::store::Ledger;
use crate::provider::{InstanceInfo, Seen};

impl Ledger {
    /// Every (provider, instance) the ledger has a session, an inventory or a sighting of.
    pub fn seen(&self) -> Result<Seen, LedgerError> {
        let mut statement = self
            .conn
            .prepare_cached(
                "SELECT provider, instance FROM sessions UNION SELECT provider, id FROM instances",
            )
            .map_err(|e| self.err(e))?;
        let rows = statement
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .map_err(|e| self.err(e))?;
        let mut seen = Seen::new();
        for row in rows {
            let (provider, id) = row.map_err(|e| self.err(e))?;
            seen.insert(&provider, None, &id);
        }
        Ok(seen)
    }

    /// Records that `instance` was listed by its provider at `at`, as an inventory does.
    pub fn saw_instance(
        &mut self,
        instance: &InstanceInfo,
        at: Timestamp,
    ) -> Result<(), LedgerError> {
        let t = at.as_second();
        self.conn
            .execute(
                "INSERT INTO instances (id, provider, sku, state, first_seen, last_seen, released)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?5, NULL)
                 ON CONFLICT (id) DO UPDATE SET state = ?4, last_seen = max(last_seen, ?5)",
                params![
                    instance.id,
                    instance.provider,
                    instance.sku,
                    word(&instance.state),
                    t
                ],
            )
            .map(drop)
            .map_err(|e| self.err(e))
    }
}
