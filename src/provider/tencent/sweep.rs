//! The account swept in one region: CBS disks attached to nothing (`disk-state` UNATTACHED),
//! every CBS snapshot, the account's own custom images (`image-type` PRIVATE_IMAGE), and EIPs
//! bound to nothing (`address-status` UNBIND), each list read to its last page, and CLB load
//! balancers with no healthy backend ([`super::balancers`]). Each snapshot
//! and image says whom it is shared with: a snapshot whose `ShareReference` is 0 is private from
//! the listing alone; the accounts of one shared take DescribeSnapshotSharePermission, and an
//! image's DescribeImageSharePermission, since DescribeImages says nothing of sharing. Where that
//! cannot be read, the sharing stays unknown.
//! Stopped instances bill their disks, and their compute unless stopped with STOP_CHARGING
//! ([`super::stopped`]).

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde_json::json;

use super::TencentCloud;
use super::model::{self, parse_time};
use crate::meter::ResourceKind;
use crate::provider::http::Repeat;
use crate::provider::{LinkedResource, ProviderError, Sharing};

impl TencentCloud {
    pub(super) async fn sweep_region(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        let now = self.common.now();
        let unattached = json!({"Filters": [{"Name": "disk-state", "Values": ["UNATTACHED"]}]});
        let disks = self
            .pages::<model::DisksReply>("DescribeDisks", &unattached)
            .await?;
        let snapshots = self
            .pages::<model::SnapshotsReply>("DescribeSnapshots", &json!({}))
            .await?;
        let images = self.own_images().await?;
        let unbound = json!({"Filters": [{"Name": "address-status", "Values": ["UNBIND"]}]});
        let addresses = self
            .pages::<model::AddressesReply>("DescribeAddresses", &unbound)
            .await?;
        let mut out: Vec<LinkedResource> = disks.iter().map(|d| disk(d, now)).collect();
        for s in &snapshots {
            let mut r = snapshot(s, now);
            // The listing says whether it is shared at all; only the accounts take a call.
            r.exposure.shared = if s.share_reference == Some(0) {
                Sharing::Private
            } else {
                self.shared_with(
                    "DescribeSnapshotSharePermission",
                    "SnapshotId",
                    &s.snapshot_id,
                )
                .await
            };
            out.push(r);
        }
        for i in &images {
            let mut r = image(i, now);
            r.exposure.shared = self
                .shared_with("DescribeImageSharePermission", "ImageId", &i.image_id)
                .await;
            out.push(r);
        }
        out.extend(addresses.iter().map(|a| address(a, now)));
        out.extend(self.stopped_billing(now).await?);
        out.extend(self.idle_load_balancers(now).await?);
        Ok(out)
    }

    /// The account's own custom images, in every state.
    pub(super) async fn own_images(&self) -> Result<Vec<model::Image>, ProviderError> {
        let own = json!({"Filters": [{"Name": "image-type", "Values": ["PRIVATE_IMAGE"]}]});
        self.pages::<model::ImagesReply>("DescribeImages", &own)
            .await
    }

    /// The accounts `action` says the snapshot or image `id` is shared with: none is private;
    /// a failed read is unknown, never private.
    async fn shared_with(&self, action: &'static str, key: &str, id: &str) -> Sharing {
        let body = json!({ key: id });
        match self
            .api
            .call::<model::SharePermissionReply>(action, &body, Repeat::Safe)
            .await
        {
            Ok(reply) => {
                let accounts: Vec<String> = reply
                    .share_permission_set
                    .unwrap_or_default()
                    .into_iter()
                    .map(|p| p.account_id)
                    .filter(|a| !a.is_empty())
                    .collect();
                if accounts.is_empty() {
                    Sharing::Private
                } else {
                    Sharing::Accounts(accounts)
                }
            }
            Err(_) => Sharing::Unknown,
        }
    }
}

pub(super) fn resource(
    id: &str,
    kind: ResourceKind,
    gib: u64,
    state: &str,
    created: Timestamp,
) -> LinkedResource {
    LinkedResource {
        id: id.to_string(),
        name: id.to_string(),
        kind,
        class: None,
        size_gib: Decimal::from(gib),
        state: state.to_string(),
        created,
        deleted_with_instance: false,
        backs_image: None,
        attached_to: None,
        exposure: crate::provider::Exposure::default(),
        origin: None,
        tags: std::collections::BTreeMap::new(),
    }
}

pub(super) fn disk(d: &model::CbsDisk, now: Timestamp) -> LinkedResource {
    let mut r = LinkedResource {
        class: Some(d.disk_type.clone()),
        attached_to: d.instance_id.clone().filter(|i| !i.is_empty()),
        tags: d.tags.clone(),
        ..resource(
            &d.disk_id,
            ResourceKind::DataDisk,
            d.disk_size,
            &d.disk_state,
            parse_time(&d.create_time).unwrap_or(now),
        )
    };
    r.exposure.encrypted = d.encrypt;
    r
}

/// `r` under its own name (its id where it has none), with its tags.
pub(super) fn named(
    r: LinkedResource,
    name: &str,
    tags: &crate::provider::tag_lists::Tags,
) -> LinkedResource {
    LinkedResource {
        name: if name.is_empty() {
            r.id.clone()
        } else {
            name.to_string()
        },
        tags: tags.clone(),
        ..r
    }
}

fn image(i: &model::Image, now: Timestamp) -> LinkedResource {
    let r = resource(
        &i.image_id,
        ResourceKind::Image,
        i.image_size,
        &i.image_state,
        parse_time(&i.created_time).unwrap_or(now),
    );
    named(r, &i.image_name, &i.tags)
}

pub(super) fn snapshot(s: &model::Snapshot, now: Timestamp) -> LinkedResource {
    let created = parse_time(&s.create_time).unwrap_or(now);
    let mut r = LinkedResource {
        origin: Some(s.disk_id.clone()).filter(|d| !d.is_empty()),
        ..named(
            resource(
                &s.snapshot_id,
                ResourceKind::Snapshot,
                s.disk_size,
                &s.snapshot_state,
                created,
            ),
            &s.snapshot_name,
            &s.tags,
        )
    };
    r.exposure.encrypted = s.encrypt;
    r.backs_image = s
        .images
        .iter()
        .flatten()
        .map(|i| i.image_id.clone())
        .find(|i| !i.is_empty());
    r
}

fn address(a: &model::Address, now: Timestamp) -> LinkedResource {
    // DescribeAddresses tells when an address was made only in fields not read here.
    LinkedResource {
        name: a.address_ip.clone(),
        attached_to: a.instance_id.clone().filter(|i| !i.is_empty()),
        tags: a.tags.clone(),
        ..resource(
            &a.address_id,
            ResourceKind::PublicIp,
            0,
            &a.address_status,
            now,
        )
    }
}
