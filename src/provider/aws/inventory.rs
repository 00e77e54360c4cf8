//! Turns what EC2 answered into the trait's [`Inventory`]: pure, so it is tested on plain data.
//!
//! Linked to an instance are: the volumes attached to it (or seen attached before), the snapshots
//! of those volumes, the owned images made from it (`sourceInstanceId`) or from those snapshots,
//! and the elastic IPs
//! associated with it (or seen associated before). A snapshot behind an image is listed with the
//! image it backs (`backs_image`) and billed as itself: the image counts only the storage of
//! snapshots not listed on their own, so nothing is billed twice.

use std::collections::BTreeMap;

use jiff::Timestamp;
use rust_decimal::Decimal;

use super::known::Known;
use super::links::create_image_source;
use super::xml::{Address, Image, Instance, Snapshot, Volume};
use crate::meter::{BillingMode, InstanceState, ResourceKind};
use crate::provider::{Exposure, InstanceInfo, Inventory, LinkedResource, Sharing};

/// Everything EC2 said about one instance in one inventory round.
#[derive(Debug, Clone, Default)]
pub struct Seen {
    pub instance: Option<Instance>,
    pub volumes: Vec<Volume>,
    pub snapshots: Vec<Snapshot>,
    pub images: Vec<Image>,
    pub addresses: Vec<Address>,
    /// Who may use each snapshot and image, by id, where EC2 said; absent ones are unknown.
    pub shared: BTreeMap<String, Sharing>,
}

/// EC2's instance state names, as the meter sees them; `None` for a name EC2 never used.
pub fn state(name: &str) -> Option<InstanceState> {
    match name {
        "pending" | "running" => Some(InstanceState::Running),
        "stopping" | "stopped" => Some(InstanceState::Stopped),
        "shutting-down" | "terminated" => Some(InstanceState::Released),
        _ => None,
    }
}

/// An EC2 time (`2026-01-02T03:04:05.000Z`); `None` when it cannot be read.
pub fn time(text: Option<&str>) -> Option<Timestamp> {
    let text = text?;
    text.parse()
        .ok()
        .or_else(|| format!("{text}Z").parse().ok())
}

impl Seen {
    /// Snapshot id to the image it backs.
    fn behind_images(&self) -> BTreeMap<&str, &str> {
        self.images
            .iter()
            .flat_map(|i| {
                i.snapshots
                    .iter()
                    .filter_map(|(id, _)| id.as_deref())
                    .map(|s| (s, i.id.as_str()))
            })
            .collect()
    }

    fn sharing(&self, id: &str) -> Sharing {
        self.shared.get(id).cloned().unwrap_or_default()
    }

    /// The root volume, for a final snapshot.
    pub fn root_volume(&self) -> Option<&str> {
        let i = self.instance.as_ref()?;
        let root = i.root_device.as_deref();
        i.block_devices
            .iter()
            .find(|(dev, _, _)| Some(dev.as_str()) == root)
            .or(i.block_devices.first())
            .map(|(_, vol, _)| vol.as_str())
    }

    /// Adds every linked id to `known`.
    pub fn remember(&self, known: &mut Known) {
        known
            .volumes
            .extend(self.volumes.iter().map(|v| v.id.clone()));
        if let Some(i) = &self.instance {
            known
                .volumes
                .extend(i.block_devices.iter().map(|(_, v, _)| v.clone()));
        }
        known
            .images
            .extend(self.images.iter().map(|i| i.id.clone()));
        known.allocations.extend(
            self.addresses
                .iter()
                .filter_map(|a| a.allocation_id.clone()),
        );
    }
}

/// A field of EC2's answer this adapter cannot read: the inventory is refused, not guessed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    LaunchTime(String),
    State { id: String, state: String },
    Instance(String),
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&match self {
            Unreadable::LaunchTime(id) => crate::t!("aws-unreadable-launch-time", id = id.as_str()),
            Unreadable::State { id, state } => crate::t!(
                "aws-unreadable-state",
                id = id.as_str(),
                state = state.as_str()
            ),
            Unreadable::Instance(id) => crate::t!("aws-unreadable-instance", id = id.as_str()),
        })
    }
}

impl std::error::Error for Unreadable {}

impl From<Unreadable> for crate::provider::ProviderError {
    fn from(e: Unreadable) -> Self {
        crate::provider::ProviderError::state(super::ID, format!("aws: {e}"))
    }
}

fn info(
    i: &Instance,
    region: &str,
    known: &Known,
    now: Timestamp,
) -> Result<InstanceInfo, Unreadable> {
    let created =
        time(i.launch_time.as_deref()).ok_or_else(|| Unreadable::LaunchTime(i.id.clone()))?;
    let now_state = state(&i.state).ok_or_else(|| Unreadable::State {
        id: i.id.clone(),
        state: i.state.clone(),
    })?;
    let mut history = vec![(created, InstanceState::Running)];
    history.extend(known.transitions.iter().filter(|(at, _)| *at > created));
    if history.last().map(|h| h.1) != Some(now_state) {
        history.push((created.max(now), now_state));
    }
    Ok(InstanceInfo {
        id: i.id.clone(),
        name: i.name.clone().unwrap_or_else(|| i.id.clone()),
        provider: super::ID.into(),
        region: Some(region.to_string()),
        sku: i.instance_type.clone(),
        mode: if i.lifecycle.as_deref() == Some("spot") {
            BillingMode::Spot
        } else {
            BillingMode::OnDemand
        },
        state: now_state,
        created,
        live_price_per_hour: None,
        history,
    })
}

/// The inventory of instance `id` from what EC2 said at `now`; `Err` names an unreadable field.
pub fn assemble(
    id: &str,
    region: &str,
    seen: &Seen,
    known: &Known,
    now: Timestamp,
) -> Result<Inventory, Unreadable> {
    let instance = seen
        .instance
        .as_ref()
        .map(|i| info(i, region, known, now))
        .transpose()?;
    let fallback = instance.as_ref().map_or(now, |i| i.created);
    let when = |t: Option<&str>| time(t).unwrap_or(fallback);
    let root = seen.root_volume().map(str::to_string);
    let mut resources = Vec::new();
    for v in &seen.volumes {
        let attached = v.attachments.iter().find(|(inst, _, _)| inst == id);
        // The instance's block device mapping is the authority; the volume's attachment says
        // the same on EC2 (moto leaves it out).
        let mapped = seen.instance.as_ref().and_then(|i| {
            i.block_devices
                .iter()
                .find(|(_, vol, _)| *vol == v.id)
                .map(|b| b.2)
        });
        let deleted_with_instance = mapped.unwrap_or_else(|| attached.is_some_and(|a| a.2));
        resources.push(LinkedResource {
            id: v.id.clone(),
            name: v
                .name
                .clone()
                .or_else(|| attached.map(|a| a.1.clone()))
                .unwrap_or_else(|| v.id.clone()),
            kind: if root.as_deref() == Some(v.id.as_str()) {
                ResourceKind::SystemDisk
            } else {
                ResourceKind::DataDisk
            },
            class: Some(v.volume_type.clone().unwrap_or_else(|| "standard".into())),
            size_gib: Decimal::from(v.size_gib),
            state: v.status.clone(),
            created: when(v.create_time.as_deref()),
            deleted_with_instance,
            backs_image: None,
            attached_to: v.attachments.first().map(|a| a.0.clone()),
            exposure: Exposure {
                encrypted: v.encrypted,
                shared: Sharing::Unknown,
            },
            origin: None,
            tags: v.tags.clone(),
        });
    }
    let behind = seen.behind_images();
    for s in &seen.snapshots {
        resources.push(LinkedResource {
            id: s.id.clone(),
            name: s.description.clone().unwrap_or_else(|| s.id.clone()),
            kind: ResourceKind::Snapshot,
            class: None,
            size_gib: Decimal::from(s.size_gib),
            state: s.status.clone(),
            created: when(s.start_time.as_deref()),
            deleted_with_instance: false,
            backs_image: behind.get(s.id.as_str()).map(|i| (*i).to_string()),
            attached_to: None,
            exposure: Exposure {
                encrypted: s.encrypted,
                shared: seen.sharing(&s.id),
            },
            origin: create_image_source(s)
                .map(str::to_string)
                .or_else(|| s.volume_id.clone()),
            tags: s.tags.clone(),
        });
    }
    images_and_addresses(seen, when, fallback, &mut resources);
    Ok(Inventory {
        instance,
        resources,
        deadline: None,
    })
}

/// The images and the addresses of `seen`, after its volumes and snapshots.
fn images_and_addresses(
    seen: &Seen,
    when: impl Fn(Option<&str>) -> Timestamp,
    fallback: Timestamp,
    resources: &mut Vec<LinkedResource>,
) {
    for i in &seen.images {
        // The storage of its snapshots that are not listed (and billed) on their own.
        let unlisted: u64 = i
            .snapshots
            .iter()
            .filter(|(snap, _)| {
                snap.as_ref()
                    .is_none_or(|id| !seen.snapshots.iter().any(|s| &s.id == id))
            })
            .map(|s| s.1)
            .sum();
        resources.push(LinkedResource {
            id: i.id.clone(),
            name: i.name.clone().unwrap_or_else(|| i.id.clone()),
            kind: ResourceKind::Image,
            class: None,
            size_gib: Decimal::from(unlisted),
            state: i.state.clone(),
            created: when(i.creation_date.as_deref()),
            deleted_with_instance: false,
            backs_image: None,
            attached_to: None,
            exposure: Exposure {
                encrypted: i.encrypted,
                shared: seen.sharing(&i.id),
            },
            origin: i.source_instance.clone(),
            tags: i.tags.clone(),
        });
    }
    resources.extend(seen.addresses.iter().map(|a| address(a, fallback)));
}

/// An elastic IP as a linked resource; DescribeAddresses tells no allocation time, so it is
/// dated `fallback`.
fn address(a: &Address, fallback: Timestamp) -> LinkedResource {
    let associated = a.instance_id.is_some() || a.association_id.is_some();
    LinkedResource {
        id: a
            .allocation_id
            .clone()
            .unwrap_or_else(|| a.public_ip.clone()),
        name: a.public_ip.clone(),
        kind: ResourceKind::PublicIp,
        class: None,
        size_gib: Decimal::ZERO,
        state: if associated {
            "associated"
        } else {
            "unassociated"
        }
        .into(),
        created: fallback,
        deleted_with_instance: false,
        backs_image: None,
        attached_to: a
            .instance_id
            .clone()
            .or_else(|| a.network_interface_id.clone())
            .or_else(|| a.association_id.clone()),
        exposure: Exposure::default(),
        origin: None,
        tags: a.tags.clone(),
    }
}
