//! Lambda Cloud's JSON rows: an instance and a file system.

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde_json::Value;

use crate::meter::{InstanceState, ResourceKind};
use crate::provider::LinkedResource;
use crate::provider::bearer::{decimal, text};

/// One instance as `GET /instances/{id}` describes it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub id: String,
    pub name: String,
    pub status: String,
    pub hostname: Option<String>,
    pub ip: Option<String>,
    pub region: Option<String>,
    pub sku: String,
    pub price_per_hour: Option<Decimal>,
    pub created: Option<Timestamp>,
    /// `instance_type.specs.gpus`, where the row says.
    pub gpus: Option<u64>,
    /// The names of the file systems mounted on it (`file_system_names`).
    pub file_systems: Vec<String>,
}

pub fn parse_instance(v: &Value) -> Option<Seen> {
    let kind = v.get("instance_type");
    Some(Seen {
        id: text(v, "id")?,
        name: text(v, "name").unwrap_or_default(),
        status: text(v, "status")?,
        hostname: text(v, "hostname"),
        ip: text(v, "ip"),
        region: v.get("region").and_then(|r| text(r, "name")),
        sku: kind.and_then(|k| text(k, "name")).unwrap_or_default(),
        price_per_hour: kind
            .and_then(|k| k.get("price_cents_per_hour"))
            .and_then(decimal)
            .map(|cents| cents / Decimal::ONE_HUNDRED),
        created: text(v, "created").and_then(|c| c.parse().ok()),
        gpus: kind
            .and_then(|k| k.get("specs"))
            .and_then(|s| s.get("gpus"))
            .and_then(Value::as_u64),
        file_systems: v
            .get("file_system_names")
            .and_then(Value::as_array)
            .map(|names| {
                names
                    .iter()
                    .filter_map(|n| n.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
    })
}

pub fn state_of(status: &str) -> InstanceState {
    match status {
        "terminating" | "terminated" => InstanceState::Released,
        _ => InstanceState::Running,
    }
}

/// The state of a file system no instance uses.
pub const NOT_IN_USE: &str = "not in use";

pub fn file_system(v: &Value, now: Timestamp) -> Option<LinkedResource> {
    let bytes = v.get("bytes_used").and_then(decimal).unwrap_or_default();
    let in_use = v.get("is_in_use").and_then(Value::as_bool).unwrap_or(false);
    Some(LinkedResource::new(
        text(v, "id")?,
        text(v, "name").unwrap_or_default(),
        ResourceKind::NetworkVolume,
        (bytes / Decimal::from(1u64 << 30)).round_dp(3),
        if in_use { "in use" } else { NOT_IN_USE }.into(),
        text(v, "created")
            .and_then(|c| c.parse().ok())
            .unwrap_or(now),
    ))
}
