//! Stopped instances in a sweep: their disks bill in either stopped mode, and in
//! `KeepCharging` (the default for most instance types) their compute bills as well, as if
//! running. Both are listed; neither is a running instance's.

use jiff::Timestamp;

use super::AlibabaCloud;
use super::model::{self, parse_time};
use super::rpc::{Product, RpcError};
use crate::meter::ResourceKind;
use crate::provider::LinkedResource;
use crate::provider::rpc_cloud::InstanceApi as _;

/// Up to this many stopped instances, their disks are asked for one instance at a time; past
/// it, one listing of the region's disks takes fewer calls than one each, and keeps a large
/// fleet's sweep within the account's rate limit.
const PER_INSTANCE_UP_TO: usize = 10;

impl AlibabaCloud {
    /// The stopped instances of the region, and the disks attached to each.
    pub(super) async fn stopped(
        &self,
    ) -> Result<(Vec<model::Instance>, Vec<model::Disk>), RpcError> {
        let instances = self
            .pages::<model::InstancesReply>(
                Product::Ecs,
                "DescribeInstances",
                &[("Status", "Stopped".to_string())],
            )
            .await?;
        let mut disks = if instances.len() > PER_INSTANCE_UP_TO {
            let stopped: std::collections::HashSet<&str> =
                instances.iter().map(|i| i.instance_id.as_str()).collect();
            let mut all = self
                .pages::<model::DisksReply>(Product::Ecs, "DescribeDisks", &[])
                .await?;
            all.retain(|d| stopped.contains(d.instance_id.as_str()));
            all
        } else {
            let mut theirs = Vec::new();
            for i in &instances {
                theirs.extend(
                    self.pages::<model::DisksReply>(
                        Product::Ecs,
                        "DescribeDisks",
                        &[("InstanceId", i.instance_id.clone())],
                    )
                    .await?,
                );
            }
            theirs
        };
        for d in &mut disks {
            d.status = crate::t!("rpc-attached-to-stopped", status = d.status.as_str());
        }
        Ok((instances, disks))
    }
}

/// A stopped instance whose compute still bills; `None` when its stopped mode says it does
/// not (`StopCharging`), as [`crate::provider::rpc_cloud::Words::still_billing`] reads it.
pub(super) fn still_charging(i: &model::Instance) -> Option<LinkedResource> {
    let state = AlibabaCloud::WORDS.still_billing(i)?;
    Some(LinkedResource {
        id: i.instance_id.clone(),
        name: i.instance_name.clone(),
        kind: ResourceKind::StoppedInstance,
        class: Some(i.instance_type.clone()).filter(|t| !t.is_empty()),
        size_gib: rust_decimal::Decimal::ZERO,
        state,
        created: parse_time(&i.creation_time).unwrap_or(Timestamp::UNIX_EPOCH),
        deleted_with_instance: false,
        backs_image: None,
        attached_to: None,
        exposure: crate::provider::Exposure::default(),
        origin: None,
        tags: i.tags.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stopped(mode: &str) -> model::Instance {
        model::Instance {
            instance_id: "i-1".into(),
            instance_type: "ecs.gn7i-c8g1.2xlarge".into(),
            status: "Stopped".into(),
            stopped_mode: mode.into(),
            ..model::Instance::default()
        }
    }

    #[test]
    fn only_stop_charging_stops_the_compute_bill() {
        assert!(still_charging(&stopped("StopCharging")).is_none());
        let keep = still_charging(&stopped("KeepCharging")).unwrap();
        assert_eq!(keep.kind, ResourceKind::StoppedInstance);
        assert_eq!(keep.class.as_deref(), Some("ecs.gn7i-c8g1.2xlarge"));
        assert!(keep.state.contains("KeepCharging"), "{}", keep.state);
        assert!(
            still_charging(&stopped(""))
                .unwrap()
                .state
                .contains("not stated")
        );
    }
}
