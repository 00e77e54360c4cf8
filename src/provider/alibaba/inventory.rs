//! Reading the instance and everything billed with it.
//!
//! While the instance is listed, linked resources are found by instance: its disks and their
//! snapshots, the EIPs bound to it and the load balancers it serves. Custom images have no
//! instance filter, so every image the account owns in the region is listed. Once the instance
//! is gone, what still bills without it is listed region-wide (detached disks, unbound EIPs,
//! snapshots, images), narrowed to what this process saw linked to the instance if it saw it.

use jiff::Timestamp;
use rust_decimal::Decimal;

use super::model::{self, parse_time};
use super::rpc::{Product, RpcError};
use super::{AlibabaCloud, Known};
use crate::meter::{BillingMode, InstanceState, ResourceKind};
use crate::provider::{HeldDeadline, InstanceInfo, Inventory, LinkedResource, ProviderError};

const PAGE: &str = "100";
/// Every image status: DescribeImages lists only `Available` ones unless told.
const IMAGE_STATUSES: &str = "Creating,Waiting,Available,UnAvailable,CreateFailed,Deprecated";

impl AlibabaCloud {
    pub(super) async fn describe_instance(
        &self,
        id: &str,
    ) -> Result<Option<model::Instance>, RpcError> {
        let reply: model::InstancesReply = self
            .rpc
            .call(
                Product::Ecs,
                "DescribeInstances",
                &[("InstanceIds", json_ids(&[id]))],
            )
            .await?;
        let found = reply
            .instances
            .items
            .into_iter()
            .find(|i| i.instance_id == id);
        if found.is_some() {
            self.sightings.saw("alibaba", Some(self.region()), id);
        }
        Ok(found)
    }

    pub(super) async fn read_inventory(&self) -> Result<Inventory, ProviderError> {
        let id = self.instance_id().await?;
        let state = ProviderError::from;
        let instance = self.describe_instance(&id).await.map_err(state)?;
        let now = (self.clock)();
        let Some(instance) = instance else {
            self.absent(&id)?;
            let resources = self.leftovers().await.map_err(state)?;
            return Ok(Inventory {
                instance: None,
                resources,
                deadline: None,
            });
        };
        let resources = self.linked(&id).await.map_err(state)?;
        Ok(Inventory {
            deadline: parse_time(&instance.auto_release_time).map(|at| HeldDeadline { at }),
            instance: Some(instance_info(&instance, self.region(), now)),
            resources,
        })
    }

    async fn linked(&self, id: &str) -> Result<Vec<LinkedResource>, RpcError> {
        let by_instance = [("InstanceId", id.to_string()), ("PageSize", PAGE.into())];
        let disks: model::DisksReply = self
            .rpc
            .call(Product::Ecs, "DescribeDisks", &by_instance)
            .await?;
        let snapshots = self.snapshots(&[("InstanceId", id.to_string())]).await?;
        let images = self.images().await?;
        let eips: model::EipsReply = self
            .rpc
            .call(
                Product::Vpc,
                "DescribeEipAddresses",
                &[
                    ("AssociatedInstanceType", "EcsInstance".into()),
                    ("AssociatedInstanceId", id.to_string()),
                    ("PageSize", PAGE.into()),
                ],
            )
            .await?;
        let lbs: model::LoadBalancersReply = self
            .rpc
            .call(
                Product::Slb,
                "DescribeLoadBalancers",
                &[("ServerId", id.to_string()), ("PageSize", PAGE.into())],
            )
            .await?;
        let disks = disks.disks.items;
        let eips = eips.eip_addresses.items;
        let lbs = lbs.load_balancers.items;
        self.remember(|known| {
            *known = Known::default();
            known.linked.extend(disks.iter().map(|d| d.disk_id.clone()));
            known
                .linked
                .extend(snapshots.iter().map(|s| s.snapshot_id.clone()));
            known
                .linked
                .extend(eips.iter().map(|e| e.allocation_id.clone()));
            known
                .linked
                .extend(lbs.iter().map(|l| l.load_balancer_id.clone()));
            known.system_disk = disks
                .iter()
                .find(|d| d.kind == "system")
                .map(|d| d.disk_id.clone());
        });
        let out = collect(&disks, &snapshots, &images, &eips, &lbs);
        self.remember(|known| known.resources.clone_from(&out));
        Ok(out)
    }

    /// What bills without an instance, narrowed to what was seen with it when it was.
    async fn leftovers(&self) -> Result<Vec<LinkedResource>, RpcError> {
        let disks: model::DisksReply = self
            .rpc
            .call(
                Product::Ecs,
                "DescribeDisks",
                &[("Status", "Available".into()), ("PageSize", PAGE.into())],
            )
            .await?;
        let snapshots = self.snapshots(&[]).await?;
        let images = self.images().await?;
        let eips: model::EipsReply = self
            .rpc
            .call(
                Product::Vpc,
                "DescribeEipAddresses",
                &[("Status", "Available".into()), ("PageSize", PAGE.into())],
            )
            .await?;
        let known = self.known();
        let seen = |id: &str| known.linked.is_empty() || known.linked.contains(id);
        let mut disks = disks.disks.items;
        disks.retain(|d| seen(&d.disk_id));
        let mut snapshots = snapshots;
        snapshots.retain(|s| seen(&s.snapshot_id));
        let mut eips = eips.eip_addresses.items;
        eips.retain(|e| seen(&e.allocation_id));
        // A load balancer can only be tied to the instance while the instance exists.
        let lbs = if known.linked.is_empty() {
            Vec::new()
        } else {
            let all: model::LoadBalancersReply = self
                .rpc
                .call(
                    Product::Slb,
                    "DescribeLoadBalancers",
                    &[("PageSize", PAGE.into())],
                )
                .await?;
            let mut lbs = all.load_balancers.items;
            lbs.retain(|l| known.linked.contains(&l.load_balancer_id));
            lbs
        };
        let out = collect(&disks, &snapshots, &images, &eips, &lbs);
        self.remember(|k| k.resources.clone_from(&out));
        Ok(out)
    }

    /// Every snapshot matching `filter`, page by page.
    pub(super) async fn snapshots(
        &self,
        filter: &[(&str, String)],
    ) -> Result<Vec<model::Snapshot>, RpcError> {
        let mut all = Vec::new();
        for page in 1..=50u32 {
            let mut params = filter.to_vec();
            params.push(("PageSize", PAGE.into()));
            params.push(("PageNumber", page.to_string()));
            let reply: model::SnapshotsReply = self
                .rpc
                .call(Product::Ecs, "DescribeSnapshots", &params)
                .await?;
            let got = reply.snapshots.items.len();
            all.extend(reply.snapshots.items);
            let total = reply.total_count.unwrap_or(0);
            if got < 100 || all.len() as u64 >= total {
                break;
            }
        }
        Ok(all)
    }

    pub(super) async fn images(&self) -> Result<Vec<model::Image>, RpcError> {
        let reply: model::ImagesReply = self
            .rpc
            .call(
                Product::Ecs,
                "DescribeImages",
                &[
                    ("ImageOwnerAlias", "self".into()),
                    ("Status", IMAGE_STATUSES.into()),
                    ("PageSize", PAGE.into()),
                ],
            )
            .await?;
        Ok(reply.images.items)
    }
}

/// `["i-1","i-2"]`: how list filters are passed.
pub(super) fn json_ids(ids: &[&str]) -> String {
    serde_json::to_string(ids).unwrap_or_else(|_| "[]".into())
}

fn image_snapshots(images: &[model::Image]) -> std::collections::HashMap<String, String> {
    images
        .iter()
        .flat_map(|image| {
            image
                .disk_device_mappings
                .items
                .iter()
                .filter(|m| !m.snapshot_id.is_empty())
                .map(|m| (m.snapshot_id.clone(), image.image_id.clone()))
        })
        .collect()
}

pub(super) fn map_state(status: &str) -> InstanceState {
    match status {
        "Stopping" | "Stopped" => InstanceState::Stopped,
        // Pending, Starting, Running, and anything new: count it as billing.
        _ => InstanceState::Running,
    }
}

fn instance_info(i: &model::Instance, region: &str, now: Timestamp) -> InstanceInfo {
    let created = parse_time(&i.creation_time).unwrap_or(now);
    let state = map_state(&i.status);
    let mode = if matches!(
        i.spot_strategy.as_str(),
        "SpotWithPriceLimit" | "SpotAsPriceGo"
    ) {
        BillingMode::Spot
    } else if i.instance_charge_type == "PrePaid" {
        BillingMode::Monthly
    } else {
        BillingMode::OnDemand
    };
    // The API does not say when the instance stopped: count it as running until seen stopped.
    let mut history = vec![(created, InstanceState::Running)];
    if state == InstanceState::Stopped {
        history.push((now.max(created), InstanceState::Stopped));
    }
    InstanceInfo {
        id: i.instance_id.clone(),
        name: i.instance_name.clone(),
        provider: "alibaba".into(),
        region: Some(if i.region_id.is_empty() {
            region.to_string()
        } else {
            i.region_id.clone()
        }),
        sku: i.instance_type.clone(),
        mode,
        state,
        created,
        live_price_per_hour: None,
        history,
    }
}

fn collect(
    disks: &[model::Disk],
    snapshots: &[model::Snapshot],
    images: &[model::Image],
    eips: &[model::Eip],
    lbs: &[model::LoadBalancer],
) -> Vec<LinkedResource> {
    let item =
        |id: &str, name: &str, kind, size, state: &str, created: &str, with| LinkedResource {
            id: id.into(),
            name: name.into(),
            kind,
            class: None,
            size_gib: size,
            state: state.into(),
            created: parse_time(created).unwrap_or(Timestamp::UNIX_EPOCH),
            deleted_with_instance: with,
            backs_image: None,
        };
    let behind = image_snapshots(images);
    let mut out = Vec::new();
    for d in disks {
        let kind = if d.kind == "system" {
            ResourceKind::SystemDisk
        } else {
            ResourceKind::DataDisk
        };
        let mut r = item(
            &d.disk_id,
            &d.disk_name,
            kind,
            d.size,
            &d.status,
            &d.creation_time,
            d.delete_with_instance,
        );
        r.class = Some(d.category.clone()).filter(|c| !c.is_empty());
        out.push(r);
    }
    // Manual snapshots and images outlive the instance; EIPs are not released with it.
    for s in snapshots {
        let mut r = item(
            &s.snapshot_id,
            &s.snapshot_name,
            ResourceKind::Snapshot,
            s.source_disk_size,
            &s.status,
            &s.creation_time,
            false,
        );
        r.backs_image = behind.get(&s.snapshot_id).cloned();
        out.push(r);
    }
    for i in images {
        out.push(item(
            &i.image_id,
            &i.image_name,
            ResourceKind::Image,
            i.size,
            &i.status,
            &i.creation_time,
            false,
        ));
    }
    for e in eips {
        out.push(item(
            &e.allocation_id,
            &e.ip_address,
            ResourceKind::PublicIp,
            Decimal::ZERO,
            &e.status,
            &e.allocation_time,
            false,
        ));
    }
    for l in lbs {
        let mut r = item(
            &l.load_balancer_id,
            &l.load_balancer_name,
            ResourceKind::LoadBalancer,
            Decimal::ZERO,
            &l.load_balancer_status,
            &l.create_time,
            false,
        );
        if let Some(ms) = l
            .create_time_stamp
            .and_then(|ms| Timestamp::from_millisecond(ms).ok())
        {
            r.created = ms;
        }
        out.push(r);
    }
    out
}
