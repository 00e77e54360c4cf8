//! The JSON replies the adapter reads, with the documented field names.
//!
//! Lists come wrapped twice (`Instances.Instance[]`). The wrappers and `RequestId` are required,
//! so a body that is not the documented reply (an HTML error page, `{}`) fails to parse instead
//! of reading as "nothing there": an empty instance list means "released", and that must only
//! ever come from the provider.

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer};

/// Every error reply: `{"RequestId","HostId","Code","Message","Recommend"}`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ErrorReply {
    pub code: String,
    pub message: String,
    pub request_id: String,
    /// On a refusal by RAM: which policy said no and the RAM action it was asked for
    /// (`AuthAction`), as an object or as that object's JSON text.
    pub access_denied_detail: Option<serde_json::Value>,
}

impl ErrorReply {
    /// The RAM action a refusal names (`ecs:DeleteInstance`), when it names one.
    pub fn auth_action(&self) -> Option<String> {
        let detail = match self.access_denied_detail.as_ref()? {
            serde_json::Value::String(text) => serde_json::from_str(text).ok()?,
            other => other.clone(),
        };
        detail
            .get("AuthAction")
            .or_else(|| detail.get("authAction"))
            .and_then(serde_json::Value::as_str)
            .filter(|a| !a.is_empty())
            .map(str::to_string)
    }
}

/// A reply that carries nothing but its `RequestId` (DeleteInstance, StopInstance, ...).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Ack {
    pub request_id: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct CreatedSnapshot {
    pub request_id: String,
    pub snapshot_id: String,
}

/// `{"Instance": [...]}`-style wrappers, one per list.
macro_rules! wrapped {
    ($reply:ident, $outer:ident, $list:ident, $inner:literal, $item:ty) => {
        #[derive(Debug, Clone, Deserialize)]
        #[serde(rename_all = "PascalCase")]
        pub struct $reply {
            pub request_id: String,
            pub $outer: $list,
            #[serde(default)]
            pub total_count: Option<u64>,
        }

        #[derive(Debug, Clone, Default, Deserialize)]
        pub struct $list {
            #[serde(rename = $inner, default)]
            pub items: Vec<$item>,
        }

        impl Paged for $reply {
            type Item = $item;

            fn page(self) -> (Vec<$item>, Option<u64>) {
                (self.$outer.items, self.total_count)
            }
        }
    };
}

/// One page of a Describe reply: its items and the `TotalCount` across every page.
pub trait Paged {
    type Item;

    fn page(self) -> (Vec<Self::Item>, Option<u64>);
}

wrapped!(
    InstancesReply,
    instances,
    InstanceList,
    "Instance",
    Instance
);
wrapped!(DisksReply, disks, DiskList, "Disk", Disk);
wrapped!(
    SnapshotsReply,
    snapshots,
    SnapshotList,
    "Snapshot",
    Snapshot
);
wrapped!(ImagesReply, images, ImageList, "Image", Image);
wrapped!(EipsReply, eip_addresses, EipList, "EipAddress", Eip);
wrapped!(RegionsReply, regions, RegionList, "Region", Region);
wrapped!(
    LoadBalancersReply,
    load_balancers,
    LoadBalancerList,
    "LoadBalancer",
    LoadBalancer
);

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Instance {
    pub instance_id: String,
    pub instance_name: String,
    /// Pending | Running | Starting | Stopping | Stopped
    pub status: String,
    pub instance_type: String,
    /// PrePaid | PostPaid
    pub instance_charge_type: String,
    /// When a PrePaid (subscription) instance's term ends, at minute precision
    /// (`2017-12-10T04:04Z`); a PostPaid one shows a far-off placeholder.
    pub expired_time: String,
    /// NoSpot | SpotWithPriceLimit | SpotAsPriceGo
    pub spot_strategy: String,
    /// KeepCharging | StopCharging | Not-applicable
    pub stopped_mode: String,
    pub creation_time: String,
    /// Empty when no auto-release time is set.
    pub auto_release_time: String,
    pub region_id: String,
    /// How many GPUs the instance type has: 0 for a type without one.
    #[serde(rename = "GPUAmount")]
    pub gpu_amount: i64,
    #[serde(deserialize_with = "crate::provider::tag_lists::alibaba_tag_key")]
    pub tags: crate::provider::tag_lists::Tags,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Disk {
    pub disk_id: String,
    pub disk_name: String,
    pub instance_id: String,
    /// system | data
    #[serde(rename = "Type")]
    pub kind: String,
    pub category: String,
    #[serde(deserialize_with = "size")]
    pub size: Decimal,
    pub status: String,
    pub delete_with_instance: bool,
    pub creation_time: String,
    /// `None` when the reply does not say.
    pub encrypted: Option<bool>,
    #[serde(deserialize_with = "crate::provider::tag_lists::alibaba_tag_key")]
    pub tags: crate::provider::tag_lists::Tags,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Snapshot {
    pub snapshot_id: String,
    pub snapshot_name: String,
    pub source_disk_id: String,
    #[serde(deserialize_with = "size")]
    pub source_disk_size: Decimal,
    /// progressing | accomplished | failed
    pub status: String,
    pub creation_time: String,
    /// image | disk | image_disk | none: "image" means a custom image depends on it.
    pub usage: String,
    /// `None` when the reply does not say.
    pub encrypted: Option<bool>,
    #[serde(deserialize_with = "crate::provider::tag_lists::alibaba_tag_key")]
    pub tags: crate::provider::tag_lists::Tags,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Image {
    pub image_id: String,
    pub image_name: String,
    pub status: String,
    pub creation_time: String,
    #[serde(deserialize_with = "size")]
    pub size: Decimal,
    pub disk_device_mappings: Mappings,
    /// An image anyone may use (Alibaba's own public images; the account's are never).
    pub is_public: Option<bool>,
    /// `True` when the account shared it with others, `False` when with no one.
    pub is_self_shared: Option<String>,
    #[serde(deserialize_with = "crate::provider::tag_lists::alibaba_tag_key")]
    pub tags: crate::provider::tag_lists::Tags,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Mappings {
    #[serde(rename = "DiskDeviceMapping", default)]
    pub items: Vec<Mapping>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Mapping {
    pub snapshot_id: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Eip {
    pub allocation_id: String,
    pub ip_address: String,
    /// Associating | Unassociating | InUse | Available | Releasing
    pub status: String,
    pub instance_id: String,
    pub allocation_time: String,
    #[serde(deserialize_with = "crate::provider::tag_lists::alibaba_key")]
    pub tags: crate::provider::tag_lists::Tags,
}

/// DescribeImageSharePermission: one page of the accounts an image is shared with, and the
/// groups (`all`: every account, so the image is public).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct SharePermissionReply {
    pub request_id: String,
    #[serde(default)]
    pub total_count: Option<u64>,
    #[serde(default)]
    pub accounts: Option<ShareAccounts>,
    #[serde(default)]
    pub share_groups: Option<ShareGroups>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct ShareAccounts {
    #[serde(rename = "Account", default)]
    pub items: Vec<ShareAccount>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ShareAccount {
    pub aliyun_id: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct ShareGroups {
    #[serde(rename = "ShareGroup", default)]
    pub items: Vec<ShareGroup>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ShareGroup {
    pub group: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct LoadBalancer {
    pub load_balancer_id: String,
    pub load_balancer_name: String,
    pub load_balancer_status: String,
    pub address: String,
    pub create_time: String,
    /// Milliseconds since the epoch.
    pub create_time_stamp: Option<i64>,
    #[serde(deserialize_with = "crate::provider::tag_lists::alibaba_tag_key")]
    pub tags: crate::provider::tag_lists::Tags,
}

/// DescribeHealthStatus: the health of each backend server of one load balancer.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct HealthStatusReply {
    pub request_id: String,
    pub backend_servers: BackendServerList,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct BackendServerList {
    #[serde(rename = "BackendServer", default)]
    pub items: Vec<BackendServer>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct BackendServer {
    pub server_id: String,
    /// `normal`, `abnormal` or `unavailable`.
    pub server_health_status: String,
}

/// One item of DescribeRegions' `Regions.Region`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Region {
    pub region_id: String,
    pub local_name: String,
    /// `available` or `soldOut`.
    pub status: String,
}

/// A size that arrives as a number (`40`) or a string (`"40"`); anything else reads as zero.
fn size<'de, D: Deserializer<'de>>(de: D) -> Result<Decimal, D::Error> {
    let value = serde_json::Value::deserialize(de)?;
    Ok(match value {
        serde_json::Value::Number(n) => n.to_string().parse().unwrap_or_default(),
        serde_json::Value::String(s) => s.trim().parse().unwrap_or_default(),
        _ => Decimal::ZERO,
    })
}

/// Alibaba times: `2017-12-10T04:04Z` (minutes) or `2017-12-10T04:04:12Z`; empty or unreadable
/// gives `None`.
pub fn parse_time(text: &str) -> Option<Timestamp> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    text.parse().ok().or_else(|| {
        // Minute precision: add the seconds jiff's parser wants.
        let head = text.strip_suffix('Z')?;
        format!("{head}:00Z").parse().ok()
    })
}

pub use crate::provider::rpc_cloud::format_time;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_parse_with_and_without_seconds() {
        let minute = parse_time("2017-12-10T04:04Z").unwrap();
        assert_eq!(format_time(minute), "2017-12-10T04:04:00Z");
        let second = parse_time("2017-12-10T04:04:12Z").unwrap();
        assert_eq!(second.as_second() - minute.as_second(), 12);
        assert_eq!(parse_time(""), None);
        assert_eq!(parse_time("soon"), None);
    }

    #[test]
    fn replies_without_their_wrapper_or_request_id_do_not_parse() {
        assert!(serde_json::from_str::<InstancesReply>("{}").is_err());
        assert!(serde_json::from_str::<InstancesReply>(r#"{"RequestId":"r"}"#).is_err());
        let empty: InstancesReply =
            serde_json::from_str(r#"{"RequestId":"r","Instances":{"Instance":[]}}"#).unwrap();
        assert!(empty.instances.items.is_empty());
        assert!(serde_json::from_str::<Ack>("<html>").is_err());
    }

    #[test]
    fn sizes_read_from_numbers_or_strings() {
        let s: Snapshot =
            serde_json::from_str(r#"{"SnapshotId":"s","SourceDiskSize":"40"}"#).unwrap();
        assert_eq!(s.source_disk_size, Decimal::from(40));
        let d: Disk = serde_json::from_str(r#"{"DiskId":"d","Size":2000}"#).unwrap();
        assert_eq!(d.size, Decimal::from(2000));
    }
}
