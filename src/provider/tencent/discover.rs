//! The account listing: every GPU instance of the region with its disks, its addresses, its
//! tags and its release deadline, no instance id needed. CVM names each instance's disks and
//! public IPs; CBS and VPC are each listed once for the whole region and grouped by instance, for
//! the disks' own state and tags, for any disk CVM leaves out, and for what each address is; the
//! release timers are asked for many instances a call.

use std::collections::HashMap;

use jiff::Timestamp;
use serde_json::json;

use super::TencentCloud;
use super::inventory::{ADDRESS_TYPES, earliest, instance_info, linked};
use super::model::{self, parse_time};
use crate::meter::ResourceKind;
use crate::provider::by_instance::by_instance;
use crate::provider::http::Repeat;
use crate::provider::rpc_cloud::InstanceApi as _;
use crate::provider::{Discovered, HeldDeadline, LinkedResource, ProviderError};

/// Instance ids per DescribeInstancesActionTimer call, as CVM caps `InstanceIds` elsewhere.
const IDS_PER_CALL: usize = 100;

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
        let ids: Vec<&str> = gpus.iter().map(|i| i.instance_id.as_str()).collect();
        let deadlines = self.deadlines(&ids).await?;
        let mut disks_of = by_instance(disks, |d| d.instance_id.as_deref());
        let mut addresses_of = by_instance(addresses, |a| a.instance_id.as_deref());
        let now = self.common.now();
        let region = self.region();
        let found = gpus
            .iter()
            .map(|i| {
                self.saw(&i.instance_id);
                let created = parse_time(&i.created_time).unwrap_or(now);
                let addresses = addresses_of.remove(&i.instance_id).unwrap_or_default();
                let mut resources = linked(i, &addresses, created);
                for d in disks_of.remove(&i.instance_id).unwrap_or_default() {
                    merge(&mut resources, &d, now);
                }
                Discovered {
                    instance: instance_info(i, region, now),
                    resources,
                    deadline: deadlines.get(&i.instance_id).map(|&at| HeldDeadline { at }),
                    tags: i.tags.clone(),
                }
            })
            .collect();
        Ok(found)
    }
}

impl TencentCloud {
    /// The earliest pending release time of each of the instances `ids` that has one.
    async fn deadlines(&self, ids: &[&str]) -> Result<HashMap<String, Timestamp>, ProviderError> {
        let mut timers = Vec::new();
        for chunk in ids.chunks(IDS_PER_CALL) {
            let body = json!({"InstanceIds": chunk, "TimerAction": "TerminateInstances",
                              "StatusList": ["UNDO"]});
            let reply: model::TimersReply = self
                .api
                .call("DescribeInstancesActionTimer", &body, Repeat::Safe)
                .await?;
            timers.extend(
                reply
                    .action_timers
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|t| t.status == "UNDO" && t.timer_action == "TerminateInstances"),
            );
        }
        let of = by_instance(timers, |t| Some(t.instance_id.as_str()));
        Ok(of
            .into_iter()
            .filter_map(|(id, timers)| Some((id, earliest(&timers)?)))
            .collect())
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
