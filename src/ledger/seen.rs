//! The instances this data directory has seen exist: every session and every inventory the
//! ledger holds, and the sightings the one-shot commands record, with the region where known.
//! Read into the core's [`Seen`] for the rule that an instance a provider does not list counts
//! as released only if seen (in the region asked).

use jiff::Timestamp;
use rusqlite::{OptionalExtension, params};

use rust_decimal::Decimal;

use super::error::LedgerError;
use super::insert::upsert_resources;
use super::record::word;
use super::store::Ledger;
use crate::meter::{InstanceState, Resource, ResourceKind};
use crate::provider::{InstanceInfo, Inventory, Seen};

impl Ledger {
    /// Every (provider, instance, region) the ledger has a session, an inventory or a sighting
    /// of. A row without a region, as every row written before regions were, stands for any.
    pub fn seen(&self) -> Result<Seen, LedgerError> {
        let sql = match self.schema_version()? {
            0 => return Ok(Seen::new()),
            // A file opened read-only is not migrated: it has no region columns yet.
            1 => {
                "SELECT provider, instance, NULL FROM sessions
                 UNION SELECT provider, id, NULL FROM instances"
            }
            _ => {
                "SELECT provider, instance, region FROM sessions
                 UNION SELECT provider, id, region FROM instances"
            }
        };
        let mut statement = self.conn.prepare_cached(sql).map_err(|e| self.err(e))?;
        let rows = statement
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                ))
            })
            .map_err(|e| self.err(e))?;
        let mut seen = Seen::new();
        for row in rows {
            let (provider, id, region) = row.map_err(|e| self.err(e))?;
            seen.insert(&provider, region.as_deref(), &id);
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
                "INSERT INTO instances
                   (id, provider, sku, state, first_seen, last_seen, released, region)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?5, NULL, ?6)
                 ON CONFLICT (id) DO UPDATE SET state = ?4, last_seen = max(last_seen, ?5),
                   region = coalesce(?6, region)",
                params![
                    instance.id,
                    instance.provider,
                    instance.sku,
                    word(&instance.state),
                    t,
                    instance.region
                ],
            )
            .map_err(|e| self.err(e))?;
        keep_listing(&self.conn, instance).map_err(|e| self.err(e))
    }

    /// Records that an inventory at `at` no longer listed `instance`: the provider answers so
    /// only for an instance seen before, so it was released by then. The first miss stays.
    fn missed_instance(&mut self, instance: &str, at: Timestamp) -> Result<(), LedgerError> {
        self.conn
            .execute(
                "UPDATE instances SET state = 'released', released = coalesce(released, ?2)
                 WHERE id = ?1",
                params![instance, at.as_second()],
            )
            .map(drop)
            .map_err(|e| self.err(e))
    }

    /// Every instance id the ledger has a session, an inventory or a sighting of, in order.
    pub fn instance_ids(&self) -> Result<Vec<String>, LedgerError> {
        if self.schema_version()? == 0 {
            return Ok(Vec::new());
        }
        let mut statement = self
            .conn
            .prepare_cached(
                "SELECT instance FROM sessions UNION SELECT id FROM instances ORDER BY 1",
            )
            .map_err(|e| self.err(e))?;
        let rows = statement
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(|e| self.err(e))?;
        rows.map(|row| row.map_err(|e| self.err(e))).collect()
    }

    /// What the ledger recorded of `instance` for its account: its last listing and release,
    /// every resource seen with it and the egress measured. Empty where it recorded nothing or
    /// cannot be read.
    pub fn recorded(&self, instance: &str) -> crate::spend::Recorded {
        crate::spend::Recorded {
            instance: self.instance_record(instance).ok().flatten(),
            resources: self.resources_seen(instance).unwrap_or_default(),
            traffic: self.traffic(instance).unwrap_or_default(),
        }
    }

    /// The instance as its provider last listed it, and when it was released: the first
    /// confirmed release the ledger recorded, else the first inventory that no longer listed
    /// it, whichever came first. `None` when no listing was kept (an older ledger).
    pub fn instance_record(
        &self,
        instance: &str,
    ) -> Result<Option<(InstanceInfo, Option<Timestamp>)>, LedgerError> {
        if self.schema_version()? < 7 {
            return Ok(None);
        }
        let row = self
            .conn
            .query_row(
                "SELECT i.listing, x.released, i.last_seen
                 FROM instances i JOIN instance_release x ON x.id = i.id
                 WHERE i.id = ?1",
                [instance],
                |r| {
                    Ok((
                        r.get::<_, Option<String>>(0)?,
                        r.get::<_, Option<i64>>(1)?,
                        r.get::<_, i64>(2)?,
                    ))
                },
            )
            .optional()
            .map_err(|e| self.err(e))?;
        let Some((Some(listing), released, last_seen)) = row else {
            return Ok(None);
        };
        // A listing this version cannot read is left out, not guessed.
        let Ok(info) = serde_json::from_str::<InstanceInfo>(&listing) else {
            return Ok(None);
        };
        // Listed alive after it, the release was a wrong guess, as a reading of that listing
        // says: a fresh process that reads no provider gives the same account.
        let alive_since = info.state != InstanceState::Released;
        let released = released
            .filter(|r| !(alive_since && last_seen > *r))
            .and_then(|t| Timestamp::from_second(t).ok());
        Ok(Some((info, released)))
    }
}

/// Keeps `instance`'s listing beside its row, for [`Ledger::instance_record`].
pub(super) fn keep_listing(
    conn: &rusqlite::Connection,
    instance: &InstanceInfo,
) -> rusqlite::Result<()> {
    let listing = serde_json::to_string(instance).unwrap_or_default();
    conn.execute(
        "UPDATE instances SET listing = ?2 WHERE id = ?1",
        params![instance.id, listing],
    )
    .map(drop)
}

impl Ledger {
    /// Records what one inventory listed at `at` for `instance` (the instance row when it is
    /// listed, and its resources), as a session's inventory does, so a later one-shot reading
    /// still counts a resource that has gone since, such as a disk deleted with the instance.
    pub fn saw_inventory(
        &mut self,
        instance: &str,
        inventory: &Inventory,
        at: Timestamp,
    ) -> Result<(), LedgerError> {
        match &inventory.instance {
            Some(listed) => self.saw_instance(listed, at)?,
            None => self.missed_instance(instance, at)?,
        }
        let (path, waited) = (self.path().to_path_buf(), self.busy_timeout);
        let tx = self.immediate()?;
        upsert_resources(&tx, instance, &inventory.resources, at.as_second())
            .map_err(|e| e.at(&path, waited))?;
        tx.commit()
            .map_err(|e| LedgerError::from_sqlite(&path, waited, e))
    }

    /// Every `(instance, resource id, deleted with the instance)` an inventory the ledger holds
    /// listed, gone since or not: after a release they tie the leftovers a provider no longer
    /// links to it, and one deleted with the instance shows it was listed before the release.
    pub fn resource_ids(&self) -> Result<Vec<(String, String, bool)>, LedgerError> {
        if self.schema_version()? == 0 {
            return Ok(Vec::new());
        }
        let mut statement = self
            .conn
            .prepare_cached("SELECT instance, id, deleted_with_instance FROM resources")
            .map_err(|e| self.err(e))?;
        let rows = statement
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, bool>(2)?,
                ))
            })
            .map_err(|e| self.err(e))?;
        rows.map(|row| row.map_err(|e| self.err(e))).collect()
    }

    /// Every resource of `instance` the ledger has seen, each gone since it was first missed,
    /// with the last time it was listed.
    pub fn resources_seen(
        &self,
        instance: &str,
    ) -> Result<Vec<(Resource, Timestamp)>, LedgerError> {
        if self.schema_version()? == 0 {
            return Ok(Vec::new());
        }
        let mut statement = self
            .conn
            .prepare_cached(
                "SELECT id, kind, class, size_gib, created, last_seen, gone, deleted_with_instance
                 FROM resources WHERE instance = ?1",
            )
            .map_err(|e| self.err(e))?;
        let rows = statement
            .query_map([instance], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, i64>(5)?,
                    r.get::<_, Option<i64>>(6)?,
                    r.get::<_, bool>(7)?,
                ))
            })
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for row in rows {
            let (id, kind, class, size, created, last_seen, gone, with_instance) =
                row.map_err(|e| self.err(e))?;
            // A row this version cannot read is left out, not guessed.
            let (Ok(kind), Ok(size_gib), Ok(created), Ok(last_seen)) = (
                serde_json::from_value::<ResourceKind>(serde_json::Value::String(kind)),
                size.parse::<Decimal>(),
                Timestamp::from_second(created),
                Timestamp::from_second(last_seen),
            ) else {
                continue;
            };
            let resource = Resource {
                id,
                kind,
                class,
                size_gib,
                created,
                deleted: gone.and_then(|g| Timestamp::from_second(g).ok()),
                deleted_with_instance: with_instance,
            };
            out.push((resource, last_seen));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use jiff::Timestamp;

    use super::super::schema::{current_version, old_ledger};
    use super::*;
    use crate::ledger::record::SessionStart;
    use crate::meter::{BillingMode, InstanceState};
    use crate::money::Currency;

    fn instance(id: &str, region: Option<&str>) -> InstanceInfo {
        InstanceInfo {
            id: id.into(),
            name: id.into(),
            provider: "aws".into(),
            region: region.map(str::to_string),
            sku: "g5.xlarge".into(),
            mode: BillingMode::OnDemand,
            state: InstanceState::Running,
            created: Timestamp::UNIX_EPOCH,
            live_price_per_hour: None,
            history: Vec::new(),
        }
    }

    #[test]
    fn a_sighting_is_read_back_with_its_region() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.sqlite");
        let mut ledger = Ledger::open(&path).unwrap();
        let at = Timestamp::UNIX_EPOCH;
        ledger
            .saw_instance(&instance("i-1", Some("eu-west-1")), at)
            .unwrap();
        ledger.saw_instance(&instance("i-2", None), at).unwrap();
        // Seen again without a region: the region it was seen in stays.
        ledger.saw_instance(&instance("i-1", None), at).unwrap();
        ledger
            .start_session(&SessionStart {
                instance: "i-3".into(),
                provider: "aws".into(),
                region: Some("ap-south-1".into()),
                sku: "g5.xlarge".into(),
                mode: BillingMode::OnDemand,
                rate_per_hour: None,
                currency: Currency::USD,
                at,
                billing: None,
            })
            .unwrap();
        let want: Seen = [
            ("aws", Some("eu-west-1"), "i-1"),
            ("aws", None, "i-2"),
            ("aws", Some("ap-south-1"), "i-3"),
        ]
        .into_iter()
        .collect();
        assert_eq!(ledger.seen().unwrap(), want);
        assert_eq!(Ledger::open_read_only(&path).unwrap().seen().unwrap(), want);
    }

    #[test]
    fn the_ids_an_inventory_listed_are_read_back_by_instance_gone_or_not() {
        use crate::provider::{Exposure, LinkedResource};
        let dir = tempfile::tempdir().unwrap();
        let mut ledger = Ledger::open(dir.path().join("ledger.sqlite")).unwrap();
        let resource = |id: &str, with_instance: bool| LinkedResource {
            id: id.into(),
            name: id.into(),
            kind: ResourceKind::DataDisk,
            class: None,
            size_gib: Decimal::TEN,
            state: "in-use".into(),
            created: Timestamp::UNIX_EPOCH,
            deleted_with_instance: with_instance,
            backs_image: None,
            attached_to: None,
            exposure: Exposure::default(),
            origin: None,
            tags: BTreeMap::new(),
        };
        let listed = |resources| Inventory {
            instance: None,
            resources,
            deadline: None,
        };
        let at = Timestamp::UNIX_EPOCH;
        let both = listed(vec![
            resource("vol-root", true),
            resource("vol-data", false),
        ]);
        ledger.saw_inventory("i-1", &both, at).unwrap();
        // The root volume went with the release; its id stays, marked gone.
        let after = listed(vec![resource("vol-data", false)]);
        ledger.saw_inventory("i-1", &after, at).unwrap();
        ledger
            .saw_inventory("i-2", &listed(vec![resource("vol-x", false)]), at)
            .unwrap();
        let mut ids = ledger.resource_ids().unwrap();
        ids.sort();
        let want = [
            ("i-1", "vol-data", false),
            ("i-1", "vol-root", true),
            ("i-2", "vol-x", false),
        ]
        .map(|(i, r, w)| (i.to_string(), r.to_string(), w));
        assert_eq!(ids, want);
    }

    /// A fresh process reads the instance back as last listed, released at the confirmed
    /// release, or at the first inventory that no longer listed it.
    #[test]
    fn the_last_listing_and_the_release_are_read_back() {
        use crate::ledger::record::EventRecord;
        use crate::provider::{Action, ActionReport};
        let dir = tempfile::tempdir().unwrap();
        let mut ledger = Ledger::open(dir.path().join("ledger.sqlite")).unwrap();
        let t = |s: i64| Timestamp::from_second(s).unwrap();
        let mut listed = instance("i-1", Some("eu-west-1"));
        listed.history = vec![(t(0), InstanceState::Running)];
        assert_eq!(ledger.instance_record("i-1").unwrap(), None);
        let inventory = |instance| Inventory {
            instance,
            resources: Vec::new(),
            deadline: None,
        };
        ledger
            .saw_inventory("i-1", &inventory(Some(listed.clone())), t(100))
            .unwrap();
        assert_eq!(
            ledger.instance_record("i-1").unwrap(),
            Some((listed.clone(), None))
        );
        ledger
            .saw_inventory("i-1", &inventory(None), t(900))
            .unwrap();
        ledger
            .saw_inventory("i-1", &inventory(None), t(950))
            .unwrap();
        assert_eq!(
            ledger.instance_record("i-1").unwrap(),
            Some((listed.clone(), Some(t(900))))
        );
        let report = ActionReport {
            action: Action::Release,
            confirmed: true,
            summary: "released".into(),
            calls: Vec::new(),
        };
        let event = EventRecord::action(t(500), &Action::Release, &Ok(report)).from_command("i-1");
        ledger.record_event(event).unwrap();
        assert_eq!(
            ledger.instance_record("i-1").unwrap(),
            Some((listed.clone(), Some(t(500))))
        );
        // Listed running after that, the release was a wrong guess, as a reading says.
        ledger
            .saw_inventory("i-1", &inventory(Some(listed.clone())), t(1000))
            .unwrap();
        assert_eq!(ledger.instance_record("i-1").unwrap(), Some((listed, None)));
    }

    /// A ledger from before regions were kept: its sightings stand for any region, read-only
    /// (not migrated) and once migrated.
    #[test]
    fn a_version_1_ledger_migrates_and_its_rows_count_for_any_region() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.sqlite");
        old_ledger(
            &path,
            1,
            "INSERT INTO sessions (instance, provider, sku, mode, currency, started, last_seen)
             VALUES ('i-1', 'aws', 'g5.xlarge', 'on_demand', 'USD', 0, 0);
             INSERT INTO instances (id, provider, state, first_seen, last_seen)
             VALUES ('i-2', 'alibaba', 'running', 0, 0);",
        );
        let want: Seen = [("aws", None, "i-1"), ("alibaba", None, "i-2")]
            .into_iter()
            .collect();
        let reader = Ledger::open_read_only(&path).unwrap();
        assert_eq!(reader.schema_version().unwrap(), 1);
        assert_eq!(reader.seen().unwrap(), want);
        drop(reader);
        let mut ledger = Ledger::open(&path).unwrap();
        assert_eq!(ledger.schema_version().unwrap(), current_version());
        assert_eq!(ledger.seen().unwrap(), want);
        ledger
            .saw_instance(&instance("i-3", Some("us-east-1")), Timestamp::UNIX_EPOCH)
            .unwrap();
        assert!(
            ledger
                .seen()
                .unwrap()
                .absent(&crate::provider::Asked {
                    provider: "aws",
                    instance: "i-3",
                    region: Some("eu-west-1"),
                    endpoint: "https://ec2.eu-west-1.amazonaws.com",
                })
                .is_err()
        );
    }
}
