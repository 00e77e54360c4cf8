//! The JSON an inventory command prints (documented in docs/providers/command.md):
//!
//! ```json
//! {
//!   "instance": {"id": "i-1", "name": "trainer", "sku": "A100-80G", "state": "running",
//!                "created": "2026-01-02T03:04:05Z", "price_per_hour": "1.89",
//!                "billing": "on-demand"},
//!   "resources": [{"id": "vol-1", "name": "data", "kind": "data_disk", "size_gib": 500,
//!                  "state": "attached", "created": "2026-01-02T03:04:05Z",
//!                  "deleted_with_instance": false, "class": "ssd"}],
//!   "deadline": "2026-01-02T11:00:00Z"
//! }
//! ```
//!
//! `instance` must be there; it is `null` (or its state `released`) once the instance is gone; `name`,
//! `price_per_hour`, `billing`, `class`, `attached_to` (the instance a resource is attached to),
//! `resources` and `deadline` may be left out. Unknown fields are errors, so a typo is reported
//! instead of silently read as "not there".
//!
//! The `list_account` command prints the account's resources that bill with no running instance
//! using them, each in the same shape: `{"resources": [...]}`, `resources` required (empty when
//! there is nothing).

use std::collections::BTreeMap;

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer};

use crate::meter::{BillingMode, InstanceState, ResourceKind};
use crate::provider::{HeldDeadline, InstanceInfo, Inventory, LinkedResource};

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// Required, even when `null`: a document that forgets it must not read as "released".
    #[serde(deserialize_with = "Option::deserialize")]
    pub instance: Option<Instance>,
    #[serde(default)]
    pub resources: Vec<Resource>,
    #[serde(default)]
    pub deadline: Option<Timestamp>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    Running,
    Stopped,
    Released,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Billing {
    #[default]
    OnDemand,
    Spot,
    Monthly,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    pub id: String,
    #[serde(default)]
    pub name: String,
    pub sku: String,
    pub state: State,
    pub created: Timestamp,
    #[serde(default, deserialize_with = "opt_decimal")]
    pub price_per_hour: Option<Decimal>,
    #[serde(default)]
    pub billing: Billing,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resource {
    pub id: String,
    #[serde(default)]
    pub name: String,
    pub kind: ResourceKind,
    #[serde(deserialize_with = "decimal")]
    pub size_gib: Decimal,
    pub state: String,
    pub created: Timestamp,
    pub deleted_with_instance: bool,
    #[serde(default)]
    pub class: Option<String>,
    /// The instance it is attached to; `null` or left out when nothing uses it.
    #[serde(default)]
    pub attached_to: Option<String>,
}

impl Resource {
    fn into_linked(self) -> LinkedResource {
        LinkedResource {
            id: self.id,
            name: self.name,
            kind: self.kind,
            class: self.class,
            size_gib: self.size_gib,
            state: self.state,
            created: self.created,
            deleted_with_instance: self.deleted_with_instance,
            backs_image: None,
            attached_to: self.attached_to.filter(|a| !a.trim().is_empty()),
            exposure: crate::provider::Exposure::default(),
            origin: None,
            tags: BTreeMap::new(),
        }
    }
}

/// What the `list_account` command prints.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Account {
    /// Required: a document that forgets it must not read as "nothing bills".
    pub resources: Vec<Resource>,
}

/// Output of the `list_account` command that is not an account, in serde's words.
#[derive(Debug, thiserror::Error)]
#[error("{}", crate::t!("cmdp-not-an-account", error = .0.to_string()))]
pub struct NotAnAccount(#[from] serde_json::Error);

/// Reads the `list_account` command's output.
pub fn parse_account(text: &str) -> Result<Vec<LinkedResource>, NotAnAccount> {
    let account = serde_json::from_str::<Account>(text.trim())?;
    Ok(account
        .resources
        .into_iter()
        .map(Resource::into_linked)
        .collect())
}

fn to_decimal(value: &serde_json::Value) -> Option<Decimal> {
    match value {
        serde_json::Value::Number(n) => n.to_string().parse().ok(),
        serde_json::Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A number, or a string holding one (`"1.89"`, exact); never negative.
fn decimal<'de, D: Deserializer<'de>>(de: D) -> Result<Decimal, D::Error> {
    let value = serde_json::Value::deserialize(de)?;
    to_decimal(&value)
        .filter(|d| !d.is_sign_negative())
        .ok_or_else(|| {
            let value = value.to_string();
            serde::de::Error::custom(crate::t!("cmdp-not-a-size", value = value))
        })
}

fn opt_decimal<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Decimal>, D::Error> {
    let value = serde_json::Value::deserialize(de)?;
    if value.is_null() {
        return Ok(None);
    }
    to_decimal(&value)
        .filter(|d| !d.is_sign_negative())
        .map(Some)
        .ok_or_else(|| {
            let value = value.to_string();
            serde::de::Error::custom(crate::t!("cmdp-not-an-amount", value = value))
        })
}

/// Reads the command's output; serde's error says where it stops following the schema.
pub fn parse(text: &str) -> Result<Document, serde_json::Error> {
    serde_json::from_str(text.trim())
}

impl Document {
    /// The adapter's view of the document, read at `now`.
    pub fn into_inventory(self, now: Timestamp) -> Inventory {
        let instance = self
            .instance
            .filter(|i| i.state != State::Released)
            .map(|i| {
                let state = match i.state {
                    State::Stopped => InstanceState::Stopped,
                    _ => InstanceState::Running,
                };
                let mut history = vec![(i.created, InstanceState::Running)];
                if state == InstanceState::Stopped {
                    history.push((now.max(i.created), InstanceState::Stopped));
                }
                InstanceInfo {
                    id: i.id,
                    name: i.name,
                    provider: super::ID.into(),
                    region: None,
                    sku: i.sku,
                    mode: match i.billing {
                        Billing::OnDemand => BillingMode::OnDemand,
                        Billing::Spot => BillingMode::Spot,
                        Billing::Monthly => BillingMode::Monthly,
                    },
                    state,
                    created: i.created,
                    live_price_per_hour: i.price_per_hour,
                    history,
                }
            });
        let resources = self
            .resources
            .into_iter()
            .map(Resource::into_linked)
            .collect();
        Inventory {
            instance,
            resources,
            deadline: self.deadline.map(|at| HeldDeadline { at }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FULL: &str = r#"{
      "instance": {"id": "i-1", "name": "trainer", "sku": "A100-80G", "state": "stopped",
                   "created": "2026-01-02T03:04:05Z", "price_per_hour": "1.89", "billing": "spot"},
      "resources": [{"id": "vol-1", "name": "data", "kind": "data_disk", "size_gib": 500,
                     "state": "attached", "created": "2026-01-02T03:04:05Z",
                     "deleted_with_instance": false, "class": "ssd"}],
      "deadline": "2026-01-02T11:00:00Z"
    }"#;

    #[test]
    fn the_documented_example_reads_whole() {
        let now: Timestamp = "2026-01-02T05:00:00Z".parse().unwrap();
        let inv = parse(FULL).unwrap().into_inventory(now);
        let i = inv.instance.unwrap();
        assert_eq!(i.live_price_per_hour, Some("1.89".parse().unwrap()));
        assert_eq!(i.mode, BillingMode::Spot);
        assert_eq!(i.state, InstanceState::Stopped);
        assert_eq!(i.history.last(), Some(&(now, InstanceState::Stopped)));
        assert_eq!(inv.resources[0].kind, ResourceKind::DataDisk);
        assert_eq!(inv.resources[0].size_gib, Decimal::from(500));
        assert_eq!(
            inv.deadline.unwrap().at,
            "2026-01-02T11:00:00Z".parse().unwrap()
        );
    }

    #[test]
    fn the_minimum_and_the_released_forms() {
        let now = Timestamp::UNIX_EPOCH;
        let gone = parse(r#"{"instance": null}"#).unwrap().into_inventory(now);
        assert!(gone.instance.is_none() && gone.resources.is_empty());
        let released = r#"{"instance": {"id": "i", "sku": "s", "state": "released",
            "created": "2026-01-02T03:04:05Z"}}"#;
        assert!(
            parse(released)
                .unwrap()
                .into_inventory(now)
                .instance
                .is_none()
        );
    }

    #[test]
    fn an_account_list_reads_its_resources_and_refuses_anything_else() {
        let listed = parse_account(
            r#"{"resources": [{"id": "vol-9", "kind": "network_volume", "size_gib": "20",
                "state": "available", "created": "2026-01-02T03:04:05Z",
                "deleted_with_instance": false, "attached_to": "i-2"}]}"#,
        )
        .unwrap();
        assert_eq!(listed[0].kind, ResourceKind::NetworkVolume);
        assert_eq!(listed[0].attached_to.as_deref(), Some("i-2"));
        assert!(parse_account(r#"{"resources": []}"#).unwrap().is_empty());
        for bad in [
            "",
            "{}",
            "[]",
            r#"{"resources": null}"#,
            r#"{"resources": [], "instance": null}"#,
            r#"{"resources": [{"id": "v", "kind": "volume", "size_gib": 1, "state": "x",
                "created": "2026-01-02T03:04:05Z", "deleted_with_instance": false}]}"#,
            r#"{"resources": [{"id": "v", "kind": "data_disk", "size_gib": 1, "state": "x",
                "created": "2026-01-02T03:04:05Z"}]}"#,
        ] {
            let err = parse_account(bad).unwrap_err().to_string();
            assert!(
                err.starts_with(r#"expected {"resources": [...]}"#),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn malformed_documents_are_refused_with_a_reason() {
        for bad in [
            "",
            "{}",
            "not json",
            "{\"instance\": {\"id\": 1}}",
            "{\"instances\": null}",
            r#"{"instance": null, "resources": [{"id": "v", "kind": "disk", "size_gib": 1,
                "state": "x", "created": "2026-01-02T03:04:05Z", "deleted_with_instance": true}]}"#,
            r#"{"instance": {"id": "i", "sku": "s", "state": "running", "created": "yesterday"}}"#,
            r#"{"instance": {"id": "i", "sku": "s", "state": "running",
                "created": "2026-01-02T03:04:05Z", "price_per_hour": -1}}"#,
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
