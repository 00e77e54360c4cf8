//! The JSON replies the adapter reads, with the documented field names.
//!
//! Every reply is `{"Response": {...}}`; errors come inside it as `Response.Error` with HTTP 200.
//! `RequestId` and the lists are required, so a body that is not the documented reply fails to
//! parse instead of reading as "nothing there": an empty instance list means "released", and that
//! must only ever come from the provider.

use jiff::Timestamp;
use serde::Deserialize;

/// `Response.Error`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ErrorBody {
    pub code: String,
    pub message: String,
}

/// A reply that carries nothing but its `RequestId` (StopInstances, TerminateInstances, ...).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Ack {
    pub request_id: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct InstancesReply {
    pub request_id: String,
    pub total_count: u64,
    pub instance_set: Vec<Instance>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Instance {
    pub instance_id: String,
    pub instance_name: String,
    pub instance_type: String,
    /// PENDING | RUNNING | STOPPED | STARTING | STOPPING | REBOOTING | SHUTDOWN | TERMINATING ...
    pub instance_state: String,
    /// PREPAID | POSTPAID_BY_HOUR | SPOTPAID | CDHPAID
    pub instance_charge_type: String,
    /// When a PREPAID instance's term ends; `null` for pay-as-you-go.
    pub expired_time: Option<String>,
    /// NOTIFY_AND_AUTO_RENEW | NOTIFY_AND_MANUAL_RENEW | DISABLE_NOTIFY_AND_MANUAL_RENEW;
    /// `null` for pay-as-you-go.
    pub renew_flag: Option<String>,
    pub created_time: String,
    pub system_disk: Option<Disk>,
    /// `null` when there are none.
    pub data_disks: Option<Vec<Disk>>,
    pub public_ip_addresses: Option<Vec<String>>,
    /// KEEP_CHARGING | STOP_CHARGING | NOT_APPLICABLE
    pub stop_charging_mode: String,
    pub internet_accessible: Option<InternetAccessible>,
    /// Absent or `null` for a type without a GPU.
    #[serde(rename = "GPUInfo")]
    pub gpu_info: Option<GpuInfo>,
    #[serde(deserialize_with = "crate::provider::tag_lists::tencent_key")]
    pub tags: crate::provider::tag_lists::Tags,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct GpuInfo {
    /// A number, not an integer: a vGPU type holds a fraction of one.
    #[serde(rename = "GPUCount")]
    pub gpu_count: Option<f64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Disk {
    pub disk_type: String,
    pub disk_id: String,
    pub disk_size: u64,
    /// Data disks only; a system disk always goes with the instance.
    pub delete_with_instance: Option<bool>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct InternetAccessible {
    pub internet_charge_type: String,
    pub internet_max_bandwidth_out: u64,
}

/// DescribeRegions: every region, not paged.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct RegionsReply {
    pub request_id: String,
    pub region_set: Vec<Region>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Region {
    pub region: String,
    pub region_name: String,
    /// `AVAILABLE` or `UNAVAILABLE`.
    pub region_state: String,
}

/// CLB DescribeLoadBalancers (2018-03-17).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct LoadBalancersReply {
    pub request_id: String,
    pub total_count: u64,
    pub load_balancer_set: Vec<LoadBalancer>,
}

/// CLB 2018-03-17 `LoadBalancer`, as DescribeLoadBalancers lists it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct LoadBalancer {
    pub load_balancer_id: String,
    pub load_balancer_name: String,
    /// 0: being created; 1: running.
    pub status: i64,
    pub create_time: String,
    #[serde(deserialize_with = "crate::provider::tag_lists::tencent_tag_key")]
    pub tags: crate::provider::tag_lists::Tags,
}

/// DescribeTargetHealth: each load balancer's listeners, their rules and the rules' targets.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct TargetHealthReply {
    pub request_id: String,
    pub load_balancers: Vec<LoadBalancerHealth>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct LoadBalancerHealth {
    pub load_balancer_id: String,
    pub listeners: Option<Vec<ListenerHealth>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ListenerHealth {
    pub listener_id: String,
    pub rules: Option<Vec<RuleHealth>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct RuleHealth {
    pub location_id: String,
    pub targets: Option<Vec<TargetHealth>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct TargetHealth {
    #[serde(rename = "IP")]
    pub ip: String,
    pub port: i64,
    /// Whether the target passes its health check.
    pub health_status: Option<bool>,
}

/// One page of a Describe reply that pages by `Offset`/`Limit`: its items and the `TotalCount`
/// across every page.
pub trait Listed {
    type Item;

    fn page(self) -> (Vec<Self::Item>, u64);
}

macro_rules! listed {
    ($reply:ty, $set:ident, $item:ty) => {
        impl Listed for $reply {
            type Item = $item;

            fn page(self) -> (Vec<$item>, u64) {
                (self.$set, self.total_count)
            }
        }
    };
}

listed!(InstancesReply, instance_set, Instance);
listed!(AddressesReply, address_set, Address);
listed!(DisksReply, disk_set, CbsDisk);
listed!(SnapshotsReply, snapshot_set, Snapshot);
listed!(ImagesReply, image_set, Image);
listed!(LoadBalancersReply, load_balancer_set, LoadBalancer);

/// VPC DescribeAddresses (2017-03-12).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct AddressesReply {
    pub request_id: String,
    pub total_count: u64,
    pub address_set: Vec<Address>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Address {
    pub address_id: String,
    pub address_ip: String,
    /// `WanIP` (an ordinary public IP), `EIP`, `AnycastEIP`, `HighQualityEIP`, `AntiDDoSEIP` ...
    pub address_type: String,
    /// BIND | UNBIND | BIND_ENI | ...
    pub address_status: String,
    /// `null` when it is bound to nothing.
    pub instance_id: Option<String>,
    #[serde(deserialize_with = "crate::provider::tag_lists::tencent_key")]
    #[serde(rename = "TagSet")]
    pub tags: crate::provider::tag_lists::Tags,
}

/// CBS DescribeDisks (2017-03-12).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct DisksReply {
    pub request_id: String,
    pub total_count: u64,
    pub disk_set: Vec<CbsDisk>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct CbsDisk {
    pub disk_id: String,
    pub disk_type: String,
    pub disk_size: u64,
    /// UNATTACHED | ATTACHING | ATTACHED | DETACHING | EXPANDING | ROLLBACKING | TORECYCLE | ...
    pub disk_state: String,
    /// The instance it is attached to; empty or `null` when none.
    pub instance_id: Option<String>,
    /// SYSTEM_DISK | DATA_DISK
    pub disk_usage: String,
    /// `None` when the reply does not say.
    pub delete_with_instance: Option<bool>,
    /// `None` when the reply does not say.
    pub encrypt: Option<bool>,
    pub create_time: String,
    #[serde(deserialize_with = "crate::provider::tag_lists::tencent_key")]
    pub tags: crate::provider::tag_lists::Tags,
}

/// CBS DescribeSnapshots (2017-03-12).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct SnapshotsReply {
    pub request_id: String,
    pub total_count: u64,
    pub snapshot_set: Vec<Snapshot>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Snapshot {
    pub snapshot_id: String,
    pub snapshot_name: String,
    pub disk_id: String,
    pub disk_size: u64,
    /// NORMAL | CREATING | ROLLBACKING | ...
    pub snapshot_state: String,
    pub create_time: String,
    /// `None` when the reply does not say.
    pub encrypt: Option<bool>,
    /// The custom images made from it; `null` when none.
    pub images: Option<Vec<SnapshotImage>>,
    /// How many accounts it is shared with; `None` when the reply does not say.
    pub share_reference: Option<u64>,
    #[serde(deserialize_with = "crate::provider::tag_lists::tencent_key")]
    pub tags: crate::provider::tag_lists::Tags,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct SnapshotImage {
    pub image_id: String,
}

/// CVM DescribeImages (2017-03-12).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ImagesReply {
    pub request_id: String,
    pub total_count: u64,
    pub image_set: Vec<Image>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Image {
    pub image_id: String,
    pub image_name: String,
    /// PRIVATE_IMAGE | PUBLIC_IMAGE | SHARED_IMAGE
    pub image_type: String,
    /// NORMAL | CREATING | CREATEFAILED | USING | SYNCING | IMPORTING | IMPORTFAILED
    pub image_state: String,
    pub image_size: u64,
    pub created_time: String,
    #[serde(deserialize_with = "crate::provider::tag_lists::tencent_key")]
    pub tags: crate::provider::tag_lists::Tags,
}

/// CVM DescribeImageSharePermission and CBS DescribeSnapshotSharePermission (2017-03-12): the
/// accounts it is shared with.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct SharePermissionReply {
    pub request_id: String,
    /// `null` when shared with no one.
    #[serde(default)]
    pub share_permission_set: Option<Vec<SharePermission>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct SharePermission {
    pub account_id: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct TimersReply {
    pub request_id: String,
    /// `null` when there are none.
    #[serde(default)]
    pub action_timers: Option<Vec<ActionTimer>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ActionTimer {
    pub action_timer_id: String,
    pub instance_id: String,
    /// TerminateInstances
    pub timer_action: String,
    pub action_time: String,
    /// UNDO | DOING | DONE
    pub status: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ImportReply {
    pub request_id: String,
    #[serde(default)]
    pub action_timer_ids: Vec<String>,
}

/// `2020-03-10T02:43:51Z`, or `2020-03-10 02:43:51` (taken as UTC); empty or unreadable gives
/// `None`. For times that are only shown (creation); an action timer's time is
/// [`parse_action_time`].
pub fn parse_time(text: &str) -> Option<Timestamp> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    text.parse().ok().or_else(|| {
        let civil: jiff::civil::DateTime = text.parse().ok()?;
        jiff::tz::Offset::UTC.to_timestamp(civil).ok()
    })
}

/// An action timer's `ActionTime` as read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionTime {
    /// ISO 8601 with its zone (`2018-05-29T11:26:40Z`): the form the CVM 2017-03-12 ActionTimer
    /// model gives for ActionTime ("ISO8601, UTC, YYYY-MM-DDThh:mm:ssZ").
    At(Timestamp),
    /// `2018-05-01 19:00:00`, the form DescribeInstancesActionTimer's StartActionTime and
    /// EndActionTime are documented in: the API names no zone for it, so it is no instant.
    NoZone(jiff::civil::DateTime),
    Unreadable,
}

impl ActionTime {
    /// The instant, only when the time said its zone.
    pub fn instant(&self) -> Option<Timestamp> {
        match self {
            ActionTime::At(at) => Some(*at),
            _ => None,
        }
    }
}

pub fn parse_action_time(text: &str) -> ActionTime {
    let text = text.trim();
    if let Ok(at) = text.parse::<Timestamp>() {
        return ActionTime::At(at);
    }
    match text.parse::<jiff::civil::DateTime>() {
        Ok(civil) => ActionTime::NoZone(civil),
        Err(_) => ActionTime::Unreadable,
    }
}

pub use crate::provider::rpc_cloud::format_time;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_parse_in_both_forms() {
        let iso = parse_time("2018-05-29T11:26:40Z").unwrap();
        assert_eq!(format_time(iso), "2018-05-29T11:26:40Z");
        assert_eq!(parse_time("2018-05-29 11:26:40"), Some(iso));
        assert_eq!(parse_time(""), None);
        assert_eq!(parse_time("later"), None);
    }

    #[test]
    fn an_action_time_is_an_instant_only_with_its_zone() {
        let utc: Timestamp = "2018-05-29T11:26:40Z".parse().unwrap();
        assert_eq!(
            parse_action_time("2018-05-29T11:26:40Z"),
            ActionTime::At(utc)
        );
        assert_eq!(
            parse_action_time("2018-05-29T19:26:40+08:00").instant(),
            Some(utc)
        );
        let plain = parse_action_time("2018-05-29 11:26:40");
        assert!(matches!(plain, ActionTime::NoZone(_)), "{plain:?}");
        assert_eq!(plain.instant(), None);
        assert_eq!(parse_action_time("later"), ActionTime::Unreadable);
        assert_eq!(parse_action_time(""), ActionTime::Unreadable);
    }

    #[test]
    fn replies_without_their_lists_or_request_id_do_not_parse() {
        assert!(serde_json::from_str::<InstancesReply>("{}").is_err());
        assert!(serde_json::from_str::<InstancesReply>(r#"{"RequestId":"r"}"#).is_err());
        let empty: InstancesReply =
            serde_json::from_str(r#"{"RequestId":"r","TotalCount":0,"InstanceSet":[]}"#).unwrap();
        assert!(empty.instance_set.is_empty());
        let i: Instance =
            serde_json::from_str(r#"{"InstanceId":"ins-1","DataDisks":null}"#).unwrap();
        assert!(i.data_disks.is_none());
        let t: TimersReply =
            serde_json::from_str(r#"{"RequestId":"r","ActionTimers":null}"#).unwrap();
        assert!(t.action_timers.is_none());
    }
}
