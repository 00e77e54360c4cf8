//! Stopped CVM instances in a sweep: their CBS disks bill in either mode, and unless the stop
//! applied `STOP_CHARGING` (only some pay-as-you-go types support it), their compute bills
//! too. Both are listed; neither is a running instance's.

use jiff::Timestamp;
use serde_json::json;

use super::TencentCloud;
use super::model::{self, parse_time};
use crate::meter::ResourceKind;
use crate::provider::rpc_cloud::InstanceApi as _;
use crate::provider::{LinkedResource, ProviderError};

/// Up to this many stopped instances, their disks are asked for one instance at a time; past
/// it, one listing of the region's disks takes fewer calls than one each, and keeps a large
/// fleet's sweep within the account's rate limit.
const PER_INSTANCE_UP_TO: usize = 10;

impl TencentCloud {
    /// What the region's stopped instances keep billing: the disks attached to each, and each
    /// instance whose compute still bills.
    pub(super) async fn stopped_billing(
        &self,
        now: Timestamp,
    ) -> Result<Vec<LinkedResource>, ProviderError> {
        let stopped = json!({"Filters": [{"Name": "instance-state", "Values": ["STOPPED"]}]});
        let instances = self
            .pages::<model::InstancesReply>("DescribeInstances", &stopped)
            .await?;
        let disks = if instances.len() > PER_INSTANCE_UP_TO {
            let stopped: std::collections::HashSet<&str> =
                instances.iter().map(|i| i.instance_id.as_str()).collect();
            let mut all = self
                .pages::<model::DisksReply>("DescribeDisks", &json!({}))
                .await?;
            all.retain(|d| {
                d.instance_id
                    .as_deref()
                    .is_some_and(|i| stopped.contains(i))
            });
            all
        } else {
            let mut theirs = Vec::new();
            for i in &instances {
                let by_id = json!({"Filters": [{"Name": "instance-id", "Values": [i.instance_id.clone()]}]});
                theirs.extend(
                    self.pages::<model::DisksReply>("DescribeDisks", &by_id)
                        .await?,
                );
            }
            theirs
        };
        let mut out: Vec<LinkedResource> = disks
            .iter()
            .map(|d| {
                let mut r = super::sweep::disk(d, now);
                r.state = crate::t!("rpc-attached-to-stopped", status = d.disk_state.as_str());
                r
            })
            .collect();
        out.extend(instances.iter().filter_map(|i| still_charging(i, now)));
        Ok(out)
    }
}

/// A stopped instance whose compute still bills; `None` when its `StopChargingMode` says it
/// does not, as [`crate::provider::rpc_cloud::Words::still_billing`] reads it.
fn still_charging(i: &model::Instance, now: Timestamp) -> Option<LinkedResource> {
    let state = TencentCloud::WORDS.still_billing(i)?;
    let mut r = super::sweep::resource(
        &i.instance_id,
        ResourceKind::StoppedInstance,
        0,
        &state,
        parse_time(&i.created_time).unwrap_or(now),
    );
    if !i.instance_name.is_empty() {
        r.name.clone_from(&i.instance_name);
    }
    r.class = Some(i.instance_type.clone()).filter(|t| !t.is_empty());
    r.tags.clone_from(&i.tags);
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stopped(mode: &str) -> model::Instance {
        model::Instance {
            instance_id: "ins-1".into(),
            instance_type: "GN7.2XLARGE32".into(),
            instance_state: "STOPPED".into(),
            stop_charging_mode: mode.into(),
            ..model::Instance::default()
        }
    }

    #[test]
    fn only_stop_charging_stops_the_compute_bill() {
        let now = Timestamp::UNIX_EPOCH;
        assert!(still_charging(&stopped("STOP_CHARGING"), now).is_none());
        let keep = still_charging(&stopped("KEEP_CHARGING"), now).unwrap();
        assert_eq!(keep.kind, ResourceKind::StoppedInstance);
        assert_eq!(keep.class.as_deref(), Some("GN7.2XLARGE32"));
        assert!(keep.state.contains("KEEP_CHARGING"), "{}", keep.state);
        let unsaid = still_charging(&stopped(""), now).unwrap();
        assert!(unsaid.state.contains("not stated"), "{}", unsaid.state);
    }
}
