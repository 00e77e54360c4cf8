//! The Describe calls for disks, snapshots, images, EIPs and load balancers, with the filters
//! the adapter uses.

use serde_json::{Value, json};

use super::cloud::{Cloud, EIP, IMAGE, INSTANCE, Params, SLB, SNAPSHOTS, extra_id, ids};
use super::tags::Shape;
use crate::models::page_size;

impl Cloud {
    /// One page of `all` as the ECS, VPC and SLB RPC APIs page a listing: `PageNumber` from 1,
    /// `PageSize` items (10 unless asked, never more than the page size), `TotalCount` across
    /// pages. Counts the page, and the listing when it is the last.
    pub(super) fn page(
        &mut self,
        action: &str,
        p: &Params,
        all: &[Value],
    ) -> (usize, usize, Vec<Value>) {
        let asked: usize = p.get("PageSize").and_then(|s| s.parse().ok()).unwrap_or(10);
        let size = page_size(asked, all.len(), self.page_cap);
        let page: usize = p
            .get("PageNumber")
            .and_then(|s| s.parse().ok())
            .unwrap_or(1)
            .max(1);
        let items: Vec<Value> = all
            .iter()
            .skip((page - 1) * size)
            .take(size)
            .cloned()
            .collect();
        let pages = self.pages.entry(action.to_string()).or_default();
        pages.served += 1;
        if (page - 1) * size + items.len() >= all.len() {
            pages.ends += 1;
        }
        (page, size, items)
    }

    pub(super) fn describe_disks(&mut self, p: &Params) -> Value {
        // A detach shows `Detaching` for a read or so, then `Available`.
        for d in &mut self.disks {
            if d.status == "Detaching" {
                if d.detaching_reads == 0 {
                    d.status = "Available".into();
                } else {
                    d.detaching_reads -= 1;
                }
            }
        }
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
                "Encrypted": d.encrypted,
                "CreationTime": "2026-11-29T08:00Z"
            }))
            .map(|d| self.tagged(d, "DiskId", Shape::Ecs))
            .collect();
        let (page, size, items) = self.page("DescribeDisks", p, &list);
        json!({"TotalCount": list.len(), "PageNumber": page, "PageSize": size,
               "Disks": {"Disk": items}})
    }

    pub(super) fn describe_snapshots(&mut self, p: &Params) -> Value {
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
                    "CreationTime": s.created, "Usage": s.usage, "Category": "standard",
                    "Encrypted": s.encrypted
                })
            })
            .map(|s| self.tagged(s, "SnapshotId", Shape::Ecs))
            .collect();
        let (page, size, items) = self.page("DescribeSnapshots", p, &all);
        json!({"TotalCount": all.len(), "PageNumber": page, "PageSize": size,
               "Snapshots": {"Snapshot": items}})
    }

    pub(super) fn describe_images(&mut self, p: &Params) -> Value {
        let mine = p.get("ImageOwnerAlias").map(String::as_str) == Some("self");
        let statuses = p
            .get("Status")
            .cloned()
            .unwrap_or_else(|| "Available".into());
        // The image is Available; an owner filter other than self would list public images.
        let by_id = |id: &str| p.get("ImageId").is_none_or(|want| want == id);
        let list: Vec<Value> = if mine && statuses.split(',').any(|s| s == "Available") {
            let extra = (1..=self.extra).map(|n| {
                json!({
                    "ImageId": extra_id("m-bp1extraimg", n), "ImageName": format!("extra-{n}"),
                    "Status": "Available", "CreationTime": "2026-11-27T04:00:00Z", "Size": 20,
                    "Usage": "none", "ImageOwnerAlias": "self", "IsPublic": false,
                    "DiskDeviceMappings": {"DiskDeviceMapping": []}
                })
            });
            let own = (!self.image_gone).then(|| json!({
                "ImageId": IMAGE, "ImageName": "train-image", "Status": "Available",
                "CreationTime": "2026-11-27T03:00:00Z", "Size": 40, "Usage": "none",
                "ImageOwnerAlias": "self", "IsPublic": false,
                "IsSelfShared": if self.image_public || !self.image_accounts.is_empty() {
                    "True"
                } else {
                    "False"
                },
                "DiskDeviceMappings": {"DiskDeviceMapping": [
                    {"SnapshotId": SNAPSHOTS[0], "Size": "40", "Type": "system", "Device": "/dev/xvda"}
                ]}
            }));
            own.into_iter()
                .chain(extra)
                .filter(|i| by_id(i["ImageId"].as_str().unwrap_or_default()))
                .map(|i| self.tagged(i, "ImageId", Shape::Ecs))
                .collect()
        } else {
            Vec::new()
        };
        let (page, size, items) = self.page("DescribeImages", p, &list);
        json!({"TotalCount": list.len(), "PageNumber": page, "PageSize": size,
               "Images": {"Image": items}})
    }

    pub(super) fn describe_eips(&mut self, p: &Params) -> Value {
        let status = if self.eip_bound { "InUse" } else { "Available" };
        let bound_to = if self.eip_bound { INSTANCE } else { "" };
        // The extra addresses are bound and unbound with the first.
        let all = std::iter::once((EIP.to_string(), "47.96.0.7".to_string()))
            .chain((1..=self.extra).map(|n| (extra_id("eip-bp1extra", n), format!("47.96.1.{n}"))));
        let list: Vec<Value> = all
            .filter(|_| !self.eip_released)
            .filter(|(id, _)| p.get("AllocationId").is_none_or(|a| a == id))
            .filter(|_| p.get("AssociatedInstanceId").is_none_or(|i| *i == bound_to))
            .filter(|_| p.get("Status").is_none_or(|s| s == status))
            .map(|(id, ip)| {
                json!({
                    "AllocationId": id, "IpAddress": ip, "Status": status,
                    "InstanceId": bound_to, "InstanceType": "EcsInstance",
                    "ChargeType": "PostPaid", "InternetChargeType": "PayByTraffic",
                    "Bandwidth": "100", "AllocationTime": "2026-11-29T08:01:00Z"
                })
            })
            .map(|e| self.tagged(e, "AllocationId", Shape::Vpc))
            .collect();
        let (page, size, items) = self.page("DescribeEipAddresses", p, &list);
        json!({"TotalCount": list.len(), "PageNumber": page, "PageSize": size,
               "EipAddresses": {"EipAddress": items}})
    }

    pub(super) fn describe_lbs(&mut self, p: &Params) -> Value {
        let by_server = p.get("ServerId");
        let serves = by_server.is_none_or(|s| self.slb_servers.contains(s));
        let lb = |id: String, name: String, created: &str| {
            json!({
                "LoadBalancerId": id, "LoadBalancerName": name,
                "LoadBalancerStatus": "active", "Address": "47.96.2.1", "AddressType": "internet",
                "PayType": "PayOnDemand", "CreateTime": created
            })
        };
        let mut list: Vec<Value> = Vec::new();
        if serves {
            let mut front = lb(SLB.into(), "inference-lb".into(), "2026-11-29T08:02Z");
            front["Address"] = json!("47.96.0.8");
            front["CreateTimeStamp"] = json!(1_796_025_720_000_i64);
            list.push(front);
            list.extend((1..=self.extra).map(|n| {
                let mut extra = lb(
                    extra_id("lb-bp1extra", n),
                    format!("extra-lb-{n}"),
                    "2026-11-29T08:02Z",
                );
                extra["Address"] = json!(format!("47.96.2.{n}"));
                extra
            }));
        }
        if by_server.is_none() {
            list.extend(
                self.idle_lbs
                    .iter()
                    .map(|id| lb(id.clone(), format!("{id}-name"), "2026-11-20T01:00Z")),
            );
        }
        list.retain(|l| {
            let id = l["LoadBalancerId"].as_str().unwrap_or_default();
            self.lb_listed(id) && p.get("LoadBalancerId").is_none_or(|want| want == id)
        });
        let list: Vec<Value> = list
            .into_iter()
            .map(|l| self.tagged(l, "LoadBalancerId", Shape::Ecs))
            .collect();
        let (page, size, items) = self.page("DescribeLoadBalancers", p, &list);
        json!({"TotalCount": list.len(), "PageNumber": page, "PageSize": size,
               "LoadBalancers": {"LoadBalancer": items}})
    }
}
