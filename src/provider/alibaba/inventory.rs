//! Reading the instance and everything billed with it.
//!
//! While the instance is listed, linked resources are found by instance: its disks and their
//! snapshots, the EIPs bound to it and the load balancers it serves. Custom images have no
//! instance filter, so every image the account owns in the region is listed. Once the instance
//! is gone, what still bills without it is listed region-wide (detached disks, unbound EIPs,
//! snapshots, images), narrowed to what this process saw linked to the instance if it saw it.

use std::sync::atomic::{AtomicBool, Ordering};

use jiff::Timestamp;
use rust_decimal::Decimal;

use serde::de::DeserializeOwned;

use super::model::{self, Paged, parse_time};
use super::rpc::{Product, RpcError};
use super::{AlibabaCloud, Known};
use crate::meter::{BillingMode, InstanceState, ResourceKind};
use crate::provider::left_by::left_by;
use crate::provider::rpc_cloud::InstanceApi as _;
use crate::provider::rpc_cloud::paging::{self, Bound};
use crate::provider::{
    HeldDeadline, InstanceInfo, Inventory, LinkedResource, ProviderError, Sharing,
};
use crate::subscription::Reported;

/// The most items a Describe page holds (ECS, VPC and SLB all cap `PageSize` at 100).
const PAGE: u32 = 100;
/// The most pages read of one listing: past it the listing is an error, not a silent cut.
const MAX_PAGES: u32 = 50;
/// Every image status: DescribeImages lists only `Available` ones unless told.
pub(super) const IMAGE_STATUSES: &str =
    "Creating,Waiting,Available,UnAvailable,CreateFailed,Deprecated";

impl AlibabaCloud {
    pub(super) async fn read_inventory(&self) -> Result<Inventory, ProviderError> {
        let id = self.instance_id().await?;
        let state = ProviderError::from;
        let instance = self.describe_instance(&id).await.map_err(state)?;
        let now = self.common.now();
        self.common
            .note_term(instance.as_ref().and_then(prepaid_term));
        let Some(instance) = instance else {
            self.absent(&id)?;
            let resources = self.leftovers(&id).await.map_err(state)?;
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
        let by_instance = [("InstanceId", id.to_string())];
        let disks = self
            .pages::<model::DisksReply>(Product::Ecs, "DescribeDisks", &by_instance)
            .await?;
        let snapshots = self.snapshots(&[("InstanceId", id.to_string())]).await?;
        let images = self.images().await?;
        let eips = self
            .pages::<model::EipsReply>(
                Product::Vpc,
                "DescribeEipAddresses",
                &[
                    ("AssociatedInstanceType", "EcsInstance".into()),
                    ("AssociatedInstanceId", id.to_string()),
                ],
            )
            .await?;
        let lbs = self
            .pages::<model::LoadBalancersReply>(
                Product::Slb,
                "DescribeLoadBalancers",
                &[("ServerId", id.to_string())],
            )
            .await?;
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
        let mut out = collect(&disks, &snapshots, &images, &eips, &lbs);
        self.share_images(&mut out).await;
        self.remember(|known| known.resources.clone_from(&out));
        Ok(out)
    }

    /// Everything in the region that bills with no running instance using it: disks attached to
    /// nothing or to a stopped instance, stopped instances whose compute still bills, the
    /// account's snapshots and own images, EIPs bound to nothing, and load balancers with no
    /// healthy backend.
    pub(super) async fn sweep_region(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        let read = async {
            let (mut disks, eips) = self.unattached().await?;
            let (stopped, their_disks) = self.stopped().await?;
            disks.extend(their_disks);
            let snapshots = self.snapshots(&[]).await?;
            let images = self.images().await?;
            let mut out = collect(&disks, &snapshots, &images, &eips, &[]);
            out.extend(stopped.iter().filter_map(super::stopped::still_charging));
            out.extend(self.idle_load_balancers().await?);
            Ok::<_, RpcError>(out)
        };
        let mut out = read.await.map_err(ProviderError::from)?;
        self.share_images(&mut out).await;
        Ok(out)
    }

    /// What bills without instance `id`, narrowed to what was recorded or seen with it when it
    /// ran and what the provider's links lead to from those ([`left_by`]). With nothing
    /// recorded, everything that bills without an instance is listed: none is hidden on a
    /// guess.
    async fn leftovers(&self, id: &str) -> Result<Vec<LinkedResource>, RpcError> {
        let (disks, eips) = self.unattached().await?;
        let snapshots = self.snapshots(&[]).await?;
        let images = self.images().await?;
        let mut tied = self.common.recorded.get(id).cloned().unwrap_or_default();
        tied.extend(self.known().linked);
        // A load balancer can only be tied to the instance by what was recorded of it.
        let lbs = if tied.is_empty() {
            Vec::new()
        } else {
            self.pages::<model::LoadBalancersReply>(Product::Slb, "DescribeLoadBalancers", &[])
                .await?
        };
        let mut out = collect(&disks, &snapshots, &images, &eips, &lbs);
        if !tied.is_empty() {
            out = left_by(out, id, &tied);
        }
        self.share_images(&mut out).await;
        self.remember(|k| k.resources.clone_from(&out));
        Ok(out)
    }

    /// The disks and the EIPs of the region bound to nothing (`Available`).
    async fn unattached(&self) -> Result<(Vec<model::Disk>, Vec<model::Eip>), RpcError> {
        let available = [("Status", "Available".to_string())];
        let disks = self.pages::<model::DisksReply>(Product::Ecs, "DescribeDisks", &available);
        let eips = self.pages::<model::EipsReply>(Product::Vpc, "DescribeEipAddresses", &available);
        Ok((disks.await?, eips.await?))
    }

    /// Who else may launch from each image in `found`, as DescribeImageSharePermission says,
    /// where the listing did not say already (public, or `IsSelfShared` false: shared with no
    /// one). Where it cannot be read, the sharing stays unknown, never private.
    async fn share_images(&self, found: &mut [LinkedResource]) {
        for r in found.iter_mut().filter(|r| r.kind == ResourceKind::Image) {
            if r.exposure.shared != Sharing::Unknown {
                continue;
            }
            if let Ok(shared) = self.image_sharing(&r.id).await {
                r.exposure.shared = shared;
            }
        }
    }

    /// DescribeImageSharePermission for `image`, page by page: shared with the group `all`
    /// is public, with accounts is those accounts, with neither is private.
    pub(super) async fn image_sharing(&self, image: &str) -> Result<Sharing, RpcError> {
        let public = AtomicBool::new(false);
        let bound = Bound {
            per_page: PAGE as usize,
            max_pages: MAX_PAGES as usize,
        };
        let page = |_, number: usize| {
            let params = [
                ("ImageId", image.to_string()),
                ("PageSize", PAGE.to_string()),
                ("PageNumber", number.to_string()),
            ];
            let public = &public;
            async move {
                let reply: model::SharePermissionReply = self
                    .rpc
                    .call(Product::Ecs, "DescribeImageSharePermission", &params)
                    .await?;
                let all = reply.share_groups.iter().flat_map(|g| &g.items);
                if all.into_iter().any(|g| g.group == "all") {
                    public.store(true, Ordering::Relaxed);
                }
                let accounts: Vec<String> = reply
                    .accounts
                    .map(|a| a.items)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|a| a.aliyun_id)
                    .filter(|id| !id.is_empty())
                    .collect();
                Ok((accounts, reply.total_count))
            }
        };
        let too_many = |read| RpcError::TooManyPages {
            action: "DescribeImageSharePermission",
            pages: MAX_PAGES,
            read,
        };
        let accounts = paging::read_all(bound, page, too_many).await?;
        Ok(if public.load(Ordering::Relaxed) {
            Sharing::Public
        } else if accounts.is_empty() {
            Sharing::Private
        } else {
            Sharing::Accounts(accounts)
        })
    }

    /// Every snapshot matching `filter`, page by page.
    pub(super) async fn snapshots(
        &self,
        filter: &[(&str, String)],
    ) -> Result<Vec<model::Snapshot>, RpcError> {
        self.pages::<model::SnapshotsReply>(Product::Ecs, "DescribeSnapshots", filter)
            .await
    }

    pub(super) async fn images(&self) -> Result<Vec<model::Image>, RpcError> {
        self.pages::<model::ImagesReply>(
            Product::Ecs,
            "DescribeImages",
            &[
                ("ImageOwnerAlias", "self".into()),
                ("Status", IMAGE_STATUSES.into()),
            ],
        )
        .await
    }

    /// Every item of a Describe listing: `PageNumber` from 1 until `TotalCount` items are read
    /// (the service may hold fewer per page than asked), a short page when there is no
    /// `TotalCount`, or an empty page. More than [`MAX_PAGES`] pages is an error.
    pub(super) async fn pages<R: Paged + DeserializeOwned>(
        &self,
        product: Product,
        action: &'static str,
        filter: &[(&str, String)],
    ) -> Result<Vec<R::Item>, RpcError> {
        let bound = Bound {
            per_page: PAGE as usize,
            max_pages: MAX_PAGES as usize,
        };
        let page = |_, number: usize| {
            let mut params = filter.to_vec();
            params.push(("PageSize", PAGE.to_string()));
            params.push(("PageNumber", number.to_string()));
            async move {
                let reply: R = self.rpc.call(product, action, &params).await?;
                Ok(reply.page())
            }
        };
        let too_many = |read| RpcError::TooManyPages {
            action,
            pages: MAX_PAGES,
            read,
        };
        paging::read_all(bound, page, too_many).await
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

/// A PrePaid instance's term: its `ExpiredTime`. DescribeInstances does not say whether it
/// renews (DescribeInstanceAutoRenewAttribute does, a call of its own).
pub(super) fn prepaid_term(i: &model::Instance) -> Option<Reported> {
    (i.instance_charge_type == "PrePaid")
        .then(|| parse_time(&i.expired_time))
        .flatten()
        .map(|ends| Reported { ends, renews: None })
}

pub(super) fn instance_info(i: &model::Instance, region: &str, now: Timestamp) -> InstanceInfo {
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
    let region = if i.region_id.is_empty() {
        region
    } else {
        &i.region_id
    };
    let names = [i.instance_id.as_str(), &i.instance_name, &i.instance_type];
    let (kind, how) = (
        crate::provider::ProviderKind::Alibaba,
        (mode, state, created),
    );
    crate::provider::rpc_cloud::info::instance_info(kind, names, region, how, now)
}

pub(super) fn collect(
    disks: &[model::Disk],
    snapshots: &[model::Snapshot],
    images: &[model::Image],
    eips: &[model::Eip],
    lbs: &[model::LoadBalancer],
) -> Vec<LinkedResource> {
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
        r.attached_to = Some(d.instance_id.clone()).filter(|i| !i.is_empty());
        r.exposure.encrypted = d.encrypted;
        r.tags.clone_from(&d.tags);
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
        r.origin = Some(s.source_disk_id.clone()).filter(|d| !d.is_empty());
        r.exposure.encrypted = s.encrypted;
        r.tags.clone_from(&s.tags);
        out.push(r);
    }
    for i in images {
        let mut r = item(
            &i.image_id,
            &i.image_name,
            ResourceKind::Image,
            i.size,
            &i.status,
            &i.creation_time,
            false,
        );
        if i.is_public == Some(true) {
            r.exposure.shared = Sharing::Public;
        } else if i.is_self_shared.as_deref() == Some("False") {
            r.exposure.shared = Sharing::Private;
        }
        r.tags.clone_from(&i.tags);
        out.push(r);
    }
    for e in eips {
        let mut r = item(
            &e.allocation_id,
            &e.ip_address,
            ResourceKind::PublicIp,
            Decimal::ZERO,
            &e.status,
            &e.allocation_time,
            false,
        );
        r.attached_to = Some(e.instance_id.clone()).filter(|i| !i.is_empty());
        r.tags.clone_from(&e.tags);
        out.push(r);
    }
    out.extend(lbs.iter().map(lb_row));
    out
}

/// The row every kind starts from: what each Describe reply says of every resource.
fn item(
    id: &str,
    name: &str,
    kind: ResourceKind,
    size: Decimal,
    state: &str,
    created: &str,
    with: bool,
) -> LinkedResource {
    LinkedResource {
        id: id.into(),
        name: name.into(),
        kind,
        class: None,
        size_gib: size,
        state: state.into(),
        created: parse_time(created).unwrap_or(Timestamp::UNIX_EPOCH),
        deleted_with_instance: with,
        backs_image: None,
        attached_to: None,
        exposure: crate::provider::Exposure::default(),
        origin: None,
        tags: std::collections::BTreeMap::new(),
    }
}

/// A load balancer's row, as the inventory and the sweep list it.
pub(super) fn lb_row(l: &model::LoadBalancer) -> LinkedResource {
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
    r.tags.clone_from(&l.tags);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_prepaid_instance_reports_its_end() {
        let instance = |charge: &str| model::Instance {
            instance_charge_type: charge.into(),
            expired_time: "2027-01-01T00:00Z".into(),
            ..model::Instance::default()
        };
        let term = prepaid_term(&instance("PrePaid")).unwrap();
        assert_eq!(term.ends, "2027-01-01T00:00:00Z".parse().unwrap());
        assert_eq!(term.renews, None);
        // A pay-as-you-go instance lists a placeholder end, which means nothing.
        assert_eq!(prepaid_term(&instance("PostPaid")), None);
    }
}
