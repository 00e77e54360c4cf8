//! The account swept in one region: CBS disks attached to nothing (`disk-state` UNATTACHED),
//! every CBS snapshot, and EIPs bound to nothing (`address-status` UNBIND), each list read to
//! its last page. Images and stopped instances are not read yet.

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde_json::json;

use super::TencentCloud;
use super::model::{self, parse_time};
use crate::meter::ResourceKind;
use crate::provider::{LinkedResource, ProviderError};

impl TencentCloud {
    pub(super) async fn sweep_region(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        let now = (self.clock)();
        let unattached = json!({"Filters": [{"Name": "disk-state", "Values": ["UNATTACHED"]}]});
        let disks = self
            .pages::<model::DisksReply>("DescribeDisks", &unattached)
            .await?;
        let snapshots = self
            .pages::<model::SnapshotsReply>("DescribeSnapshots", &json!({}))
            .await?;
        let unbound = json!({"Filters": [{"Name": "address-status", "Values": ["UNBIND"]}]});
        let addresses = self
            .pages::<model::AddressesReply>("DescribeAddresses", &unbound)
            .await?;
        let mut out: Vec<LinkedResource> = disks.iter().map(|d| disk(d, now)).collect();
        out.extend(snapshots.iter().map(|s| snapshot(s, now)));
        out.extend(addresses.iter().map(|a| address(a, now)));
        Ok(out)
    }
}

fn resource(
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
    }
}

fn disk(d: &model::CbsDisk, now: Timestamp) -> LinkedResource {
    LinkedResource {
        class: Some(d.disk_type.clone()),
        ..resource(
            &d.disk_id,
            ResourceKind::DataDisk,
            d.disk_size,
            &d.disk_state,
            now,
        )
    }
}

fn snapshot(s: &model::Snapshot, now: Timestamp) -> LinkedResource {
    let created = parse_time(&s.create_time).unwrap_or(now);
    LinkedResource {
        name: if s.snapshot_name.is_empty() {
            s.snapshot_id.clone()
        } else {
            s.snapshot_name.clone()
        },
        ..resource(
            &s.snapshot_id,
            ResourceKind::Snapshot,
            s.disk_size,
            &s.snapshot_state,
            created,
        )
    }
}

fn address(a: &model::Address, now: Timestamp) -> LinkedResource {
    // DescribeAddresses tells when an address was made only in fields not read here.
    LinkedResource {
        name: a.address_ip.clone(),
        ..resource(
            &a.address_id,
            ResourceKind::PublicIp,
            0,
            &a.address_status,
            now,
        )
    }
}
