//! The Describe calls for disks, snapshots, images, EIPs and load balancers, with the filters
//! the adapter uses.

use serde_json::{Value, json};

use super::cloud::{Cloud, EIP, IMAGE, INSTANCE, Params, SLB, SNAPSHOTS, ids};

impl Cloud {
    pub(super) fn describe_disks(&self, p: &Params) -> Value {
        let list: Vec<Value> = self
            .disks
            .iter()
            .filter(|d| p.get("InstanceId").is_none_or(|i| *i == d.instance))
            .filter(|d| p.get("Status").is_none_or(|s| *s == d.status))
            .filter(|d| ids(p, "DiskIds").is_none_or(|ids| ids.contains(&d.id)))
            .map(|d| json!({
                "DiskId": d.id, "DiskName": format!("{}-disk", d.kind), "InstanceId": d.instance,
                "Type": d.kind, "Category": "cloud_essd", "PerformanceLevel": "PL1",
                "Size": d.size, "Status": d.status, "DiskChargeType": "PostPaid",
                "DeleteWithInstance": d.with_instance, "DeleteAutoSnapshot": true,
                "CreationTime": "2026-11-29T08:00Z"
            }))
            .collect();
        json!({"TotalCount": list.len(), "Disks": {"Disk": list}})
    }

    pub(super) fn describe_snapshots(&self, p: &Params) -> Value {
        let attached: Vec<&str> = self
            .disks
            .iter()
            .filter(|d| p.get("InstanceId").is_some_and(|i| *i == d.instance))
            .map(|d| d.id.as_str())
            .collect();
        let all: Vec<Value> = self
            .snapshots
            .iter()
            .filter(|s| p.get("InstanceId").is_none() || attached.contains(&s.disk.as_str()))
            .filter(|s| ids(p, "SnapshotIds").is_none_or(|ids| ids.contains(&s.id)))
            .map(|s| {
                json!({
                    "SnapshotId": s.id, "SnapshotName": format!("snap-{}", &s.id[s.id.len() - 3..]),
                    "SourceDiskId": s.disk, "SourceDiskSize": s.size.to_string(),
                    "SourceDiskType": "system", "Status": "accomplished", "Progress": "100%",
                    "CreationTime": s.created, "Usage": s.usage, "Category": "standard"
                })
            })
            .collect();
        let size: usize = p.get("PageSize").and_then(|s| s.parse().ok()).unwrap_or(10);
        let page: usize = p
            .get("PageNumber")
            .and_then(|s| s.parse().ok())
            .unwrap_or(1);
        let items: Vec<&Value> = all.iter().skip((page - 1) * size).take(size).collect();
        json!({"TotalCount": all.len(), "PageNumber": page, "PageSize": size,
               "Snapshots": {"Snapshot": items}})
    }

    pub(super) fn describe_images(p: &Params) -> Value {
        let mine = p.get("ImageOwnerAlias").map(String::as_str) == Some("self");
        let statuses = p
            .get("Status")
            .cloned()
            .unwrap_or_else(|| "Available".into());
        // The image is Available; an owner filter other than self would list public images.
        let list = if mine && statuses.split(',').any(|s| s == "Available") {
            vec![json!({
                "ImageId": IMAGE, "ImageName": "train-image", "Status": "Available",
                "CreationTime": "2026-11-27T03:00:00Z", "Size": 40, "Usage": "none",
                "ImageOwnerAlias": "self",
                "DiskDeviceMappings": {"DiskDeviceMapping": [
                    {"SnapshotId": SNAPSHOTS[0], "Size": "40", "Type": "system", "Device": "/dev/xvda"}
                ]}
            })]
        } else {
            Vec::new()
        };
        json!({"TotalCount": list.len(), "Images": {"Image": list}})
    }

    pub(super) fn describe_eips(&self, p: &Params) -> Value {
        let status = if self.eip_bound { "InUse" } else { "Available" };
        let bound_to = if self.eip_bound { INSTANCE } else { "" };
        let matches = !self.eip_released
            && p.get("AllocationId").is_none_or(|a| a == EIP)
            && p.get("AssociatedInstanceId").is_none_or(|i| *i == bound_to)
            && p.get("Status").is_none_or(|s| s == status);
        let list = if matches {
            vec![json!({
                "AllocationId": EIP, "IpAddress": "47.96.0.7", "Status": status,
                "InstanceId": bound_to, "InstanceType": "EcsInstance", "ChargeType": "PostPaid",
                "InternetChargeType": "PayByTraffic", "Bandwidth": "100",
                "AllocationTime": "2026-11-29T08:01:00Z"
            })]
        } else {
            Vec::new()
        };
        json!({"TotalCount": list.len(), "EipAddresses": {"EipAddress": list}})
    }

    pub(super) fn describe_lbs(&self, p: &Params) -> Value {
        let matches = p
            .get("ServerId")
            .is_none_or(|s| self.slb_servers.contains(s));
        let list = if matches {
            vec![json!({
                "LoadBalancerId": SLB, "LoadBalancerName": "inference-lb",
                "LoadBalancerStatus": "active", "Address": "47.96.0.8", "AddressType": "internet",
                "PayType": "PayOnDemand", "CreateTime": "2026-11-29T08:02Z",
                "CreateTimeStamp": 1_796_025_720_000_i64
            })]
        } else {
            Vec::new()
        };
        json!({"TotalCount": list.len(), "LoadBalancers": {"LoadBalancer": list}})
    }
}
