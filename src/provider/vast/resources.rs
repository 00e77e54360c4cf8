//! An instance's own storage (it goes with the instance) and the account's volumes (rented
//! apart, they outlive it) as linked resources.

use std::collections::BTreeMap;

use jiff::Timestamp;
use serde_json::Value;

use super::model::{self, STORAGE_CLASS};
use crate::meter::ResourceKind;
use crate::provider::LinkedResource;

fn id_of(v: &Value) -> Option<String> {
    match v {
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// One row of the volume list as a resource, and the instances using it.
pub(super) fn volume_row(row: &Value, now: Timestamp) -> Option<(LinkedResource, Vec<String>)> {
    let id = row.get("id").and_then(id_of)?;
    let users: Vec<String> = row
        .get("instances")
        .and_then(Value::as_array)
        .map(|used| used.iter().filter_map(id_of).collect())
        .unwrap_or_default();
    let status = row
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or("unknown");
    let volume = LinkedResource {
        name: row
            .get("label")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        kind: ResourceKind::NetworkVolume,
        class: None,
        size_gib: row
            .get("disk_space")
            .and_then(crate::provider::bearer::decimal)
            .unwrap_or_default(),
        state: status.to_string(),
        created: row.get("start_date").and_then(model::epoch).unwrap_or(now),
        deleted_with_instance: false,
        backs_image: None,
        id: format!("volume-{id}"),
        attached_to: users.first().cloned(),
        exposure: crate::provider::Exposure::default(),
        origin: None,
        tags: BTreeMap::new(),
    };
    Some((volume, users))
}

/// An instance's own disk, which bills while it is stopped and goes when it is destroyed.
pub(super) fn instance_storage(s: &model::Seen, now: Timestamp) -> Option<LinkedResource> {
    let storage = LinkedResource::new(
        format!("{}-disk", s.id),
        "instance storage".into(),
        ResourceKind::DataDisk,
        s.disk_gb,
        s.actual.clone().unwrap_or_else(|| "unknown".into()),
        s.started.unwrap_or(now),
    );
    (s.disk_gb > rust_decimal::Decimal::ZERO).then(|| LinkedResource {
        class: Some(STORAGE_CLASS.into()),
        deleted_with_instance: true,
        ..storage
    })
}
