//! The account listing: every GPU instance of the region with its disks, its addresses and its
//! tags, no instance id needed. CVM names each instance's disks and public IPs; CBS and VPC are
//! each listed once for the whole region and grouped by instance, for the disks' own state and
//! tags, for any disk CVM leaves out, and for what each address is.

use jiff::Timestamp;
use serde_json::json;

use super::TencentCloud;
use super::inventory::{ADDRESS_TYPES, instance_info, linked};
use super::model::{self, parse_time};
use crate::meter::ResourceKind;
use crate::provider::by_instance::by_instance;
use crate::provider::{Discovered, LinkedResource, ProviderError};

impl TencentCloud {
    pub(super) async fn discover(&self) -> Result<Vec<Discovered>, ProviderError> {
        let instances = self
            .pages::<model::InstancesReply>("DescribeInstances", &json!({}))
            .await?;
        let gpus: Vec<model::Instance> = instances.into_iter().filter(has_gpu).collect();
        if gpus.is_empty() {
            return Ok(Vec::new());
        }
        let disks = self
            .pages::<model::DisksReply>("DescribeDisks", &json!({}))
            .await?;
        let every_type = json!({"Filters": [{"Name": "address-type", "Values": ADDRESS_TYPES}]});
        let addresses = self
            .pages::<model::AddressesReply>("DescribeAddresses", &every_type)
            .await?;
        let mut disks_of = by_instance(disks, |d| d.instance_id.as_deref());
        let mut addresses_of = by_instance(addresses, |a| a.instance_id.as_deref());
        let now = (self.clock)();
        let region = self.region();
        let found = gpus
            .iter()
            .map(|i| {
                self.sightings.saw("tencent", Some(region), &i.instance_id);
                let created = parse_time(&i.created_time).unwrap_or(now);
                let addresses = addresses_of.remove(&i.instance_id).unwrap_or_default();
                let mut resources = linked(i, &addresses, created);
                for d in disks_of.remove(&i.instance_id).unwrap_or_default() {
                    merge(&mut resources, &d, now);
                }
                Discovered {
                    instance: instance_info(i, region, now),
                    resources,
                    deadline: None,
                    tags: i.tags.clone(),
                }
            })
            .collect();
        Ok(found)
    }
}

fn has_gpu(i: &model::Instance) -> bool {
    i.gpu_info
        .as_ref()
        .and_then(|g| g.gpu_count)
        .is_some_and(|n| n > 0.0)
}

/// CBS's word on disk `d` of the instance: the row CVM gave gets its state, encryption and tags;
/// a disk CVM did not name is added as CBS lists it.
fn merge(rows: &mut Vec<LinkedResource>, d: &model::CbsDisk, now: Timestamp) {
    if let Some(row) = rows.iter_mut().find(|r| r.id == d.disk_id) {
        row.state.clone_from(&d.disk_state);
        row.exposure.encrypted = d.encrypt;
        row.tags.clone_from(&d.tags);
        return;
    }
    let mut row = super::sweep::disk(d, now);
    if d.disk_usage == "SYSTEM_DISK" {
        row.kind = ResourceKind::SystemDisk;
        row.deleted_with_instance = true;
    } else {
        // Unset means unknown: count it as staying, as the inventory does.
        row.deleted_with_instance = d.delete_with_instance.unwrap_or(false);
    }
    rows.push(row);
}
