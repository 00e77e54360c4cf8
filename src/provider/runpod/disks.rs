//! A pod's own disks (container and volume, which go with it) and the account's network
//! volumes (which outlive any pod) as linked resources.

use std::collections::BTreeMap;

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde_json::Value;

use super::model::{Pod, time};
use crate::meter::ResourceKind;
use crate::provider::LinkedResource;
use crate::provider::bearer::{decimal, text};

/// A network volume as a resource, `used` or `unused` by what `in_use` says of its id; `None`
/// for a row without an id.
pub(super) fn network_volume(
    v: &Value,
    in_use: impl Fn(&String) -> bool,
    used: &str,
    unused: &str,
    now: Timestamp,
) -> Option<LinkedResource> {
    let id = text(v, "id")?;
    let here = in_use(&id);
    Some(LinkedResource {
        name: text(v, "name").unwrap_or_default(),
        kind: ResourceKind::NetworkVolume,
        class: None,
        size_gib: v.get("size").and_then(decimal).unwrap_or_default(),
        state: if here { used } else { unused }.into(),
        created: time(v, "createdAt").unwrap_or(now),
        deleted_with_instance: false,
        backs_image: None,
        id,
        attached_to: None,
        exposure: crate::provider::Exposure::default(),
        origin: None,
        tags: BTreeMap::new(),
    })
}

pub(super) fn disk(
    pod: &Pod,
    what: &str,
    kind: ResourceKind,
    size: Decimal,
    now: Timestamp,
) -> LinkedResource {
    let state = pod.status.to_ascii_lowercase();
    let created = pod.created.unwrap_or(now);
    let id = format!("{}-{what}", pod.id);
    LinkedResource {
        class: Some(what.into()),
        deleted_with_instance: true,
        ..LinkedResource::new(id, format!("{what} disk"), kind, size, state, created)
    }
}

/// A pod's container and volume disks, which go with it; none once it is terminated.
pub(super) fn own_disks(p: &Pod, now: Timestamp) -> Vec<LinkedResource> {
    if p.status == "TERMINATED" {
        return Vec::new();
    }
    let mut disks = Vec::new();
    if p.container_gb > Decimal::ZERO {
        let kind = ResourceKind::SystemDisk;
        disks.push(disk(p, "container", kind, p.container_gb, now));
    }
    if p.volume_gb > Decimal::ZERO {
        disks.push(disk(p, "volume", ResourceKind::DataDisk, p.volume_gb, now));
    }
    disks
}

/// Network volume `v` as seen from `pod`: `attached` to it where the pod mounts it, else
/// `unused` and attached to nothing.
pub(super) fn volume_of(
    pod: Option<&Pod>,
    v: &Value,
    unused: &str,
    now: Timestamp,
) -> Option<LinkedResource> {
    let here = |vid: &String| pod.is_some_and(|p| p.network.contains(vid));
    network_volume(v, here, "attached", unused, now).map(|mut r| {
        r.attached_to = pod.map(|p| p.id.clone()).filter(|_| here(&r.id));
        r
    })
}
