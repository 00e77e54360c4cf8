//! The in-memory cloud behind the loopback peer: one GPU instance with a system disk that goes
//! with it, a data disk that stays, three snapshots (the oldest backs a custom image), an image,
//! an EIP and a load balancer. Actions change it; the Describe calls show the change.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Value, json};

pub const INSTANCE: &str = "i-bp1gpumeter000001";
pub const SYSTEM_DISK: &str = "d-bp1system0001";
pub const DATA_DISK: &str = "d-bp1data0002";
pub const EIP: &str = "eip-bp1addr0001";
pub const SLB: &str = "lb-bp1front0001";
pub const IMAGE: &str = "m-bp1trainimg01";
/// Oldest first; the oldest backs the image.
pub const SNAPSHOTS: [&str; 3] = ["s-bp1snapold001", "s-bp1snapmid002", "s-bp1snapnew003"];

#[derive(Debug, Clone)]
pub struct Instance {
    pub status: String,
    pub spot_strategy: String,
    pub stopped_mode: String,
    pub auto_release: String,
    /// DescribeInstances calls that still show `Stopping` after a stop.
    pub stopping_reads: u32,
}

#[derive(Debug, Clone)]
pub struct Disk {
    pub id: String,
    pub instance: String,
    pub kind: &'static str,
    pub size: u64,
    pub status: String,
    pub with_instance: bool,
}

#[derive(Debug, Clone)]
pub struct Snapshot {
    pub id: String,
    pub disk: String,
    pub size: u64,
    pub created: String,
    pub usage: &'static str,
}

#[derive(Debug, Clone)]
pub struct Cloud {
    pub instance: Option<Instance>,
    pub disks: Vec<Disk>,
    pub snapshots: Vec<Snapshot>,
    pub eip_bound: bool,
    pub slb_servers: Vec<String>,
    /// Whether StopCharging applies to this instance (false: the provider falls back).
    pub economical: bool,
    pub spot_termination: Option<String>,
    tokens: HashMap<String, String>,
    next: u32,
}

type Params = BTreeMap<String, String>;

fn err(status: u16, code: &str, message: &str) -> (u16, Value) {
    (
        status,
        json!({"RequestId": "req-1", "Code": code, "Message": message}),
    )
}

fn ok(body: Value) -> (u16, Value) {
    let mut body = body;
    body["RequestId"] = json!("req-ok");
    (200, body)
}

fn ids(p: &Params, key: &str) -> Option<Vec<String>> {
    p.get(key)
        .map(|v| serde_json::from_str(v).unwrap_or_default())
}

impl Cloud {
    pub fn fresh() -> Cloud {
        let disk = |id: &str, kind, size, with| Disk {
            id: id.into(),
            instance: INSTANCE.into(),
            kind,
            size,
            status: "In_use".into(),
            with_instance: with,
        };
        let snap = |id: &str, disk: &str, size, created: &str, usage| Snapshot {
            id: id.into(),
            disk: disk.into(),
            size,
            created: created.into(),
            usage,
        };
        Cloud {
            instance: Some(Instance {
                status: "Running".into(),
                spot_strategy: "NoSpot".into(),
                stopped_mode: "Not-applicable".into(),
                auto_release: String::new(),
                stopping_reads: 1,
            }),
            disks: vec![
                disk(SYSTEM_DISK, "system", 40, true),
                disk(DATA_DISK, "data", 500, false),
            ],
            snapshots: vec![
                snap(
                    SNAPSHOTS[0],
                    SYSTEM_DISK,
                    40,
                    "2026-11-27T02:00:00Z",
                    "image",
                ),
                snap(SNAPSHOTS[1], DATA_DISK, 500, "2026-11-28T02:00:00Z", "none"),
                snap(
                    SNAPSHOTS[2],
                    SYSTEM_DISK,
                    40,
                    "2026-11-29T10:30:00Z",
                    "none",
                ),
            ],
            eip_bound: true,
            slb_servers: vec![INSTANCE.into()],
            economical: true,
            spot_termination: None,
            tokens: HashMap::new(),
            next: 0,
        }
    }

    pub fn handle(&mut self, action: &str, p: &Params) -> (u16, Value) {
        if p.get("RegionId").map(String::as_str) != Some("cn-hangzhou") {
            return err(400, "MissingParameter", "RegionId is mandatory.");
        }
        match action {
            "DescribeInstances" => self.describe_instances(p),
            "DeleteInstance" => self.delete_instance(p),
            "StopInstance" => self.stop_instance(p),
            "ModifyInstanceAutoReleaseTime" => self.auto_release(p),
            "DescribeDisks" => ok(self.describe_disks(p)),
            "DescribeSnapshots" => ok(self.describe_snapshots(p)),
            "CreateSnapshot" => self.create_snapshot(p),
            "DeleteSnapshot" => self.delete_snapshot(p),
            "DescribeImages" => ok(Self::describe_images(p)),
            "DescribeEipAddresses" => ok(self.describe_eips(p)),
            "DescribeLoadBalancers" => ok(self.describe_lbs(p)),
            _ => err(400, "InvalidAction.NotFound", "no such action"),
        }
    }

    fn owns(&self, p: &Params) -> Result<(), (u16, Value)> {
        let wanted = p.get("InstanceId").map(String::as_str);
        if self.instance.is_none() || wanted != Some(INSTANCE) {
            return Err(err(
                404,
                "InvalidInstanceId.NotFound",
                "The specified InstanceId does not exist.",
            ));
        }
        Ok(())
    }

    fn describe_instances(&mut self, p: &Params) -> (u16, Value) {
        let wanted = ids(p, "InstanceIds").unwrap_or_else(|| vec![INSTANCE.into()]);
        let mut list = Vec::new();
        if let Some(i) = &mut self.instance
            && wanted.iter().any(|w| w == INSTANCE)
        {
            let status = if i.status == "Stopping" && i.stopping_reads > 0 {
                i.stopping_reads -= 1;
                "Stopping".to_string()
            } else if i.status == "Stopping" {
                i.status = "Stopped".into();
                i.status.clone()
            } else {
                i.status.clone()
            };
            list.push(json!({
                "InstanceId": INSTANCE, "InstanceName": "llm-finetune", "Status": status,
                "InstanceType": "ecs.gn7i-c8g1.2xlarge", "InstanceTypeFamily": "ecs.gn7i",
                "InstanceChargeType": "PostPaid", "SpotStrategy": i.spot_strategy,
                "StoppedMode": i.stopped_mode, "CreationTime": "2026-11-29T08:00Z",
                "AutoReleaseTime": i.auto_release, "RegionId": "cn-hangzhou",
                "ZoneId": "cn-hangzhou-i", "GPUAmount": 1, "GPUSpec": "NVIDIA A10",
                "OperationLocks": {"LockReason": []}
            }));
        }
        ok(
            json!({"TotalCount": list.len(), "PageNumber": 1, "PageSize": 10,
                  "Instances": {"Instance": list}}),
        )
    }

    fn delete_instance(&mut self, p: &Params) -> (u16, Value) {
        if let Err(e) = self.owns(p) {
            return e;
        }
        let running = self
            .instance
            .as_ref()
            .is_some_and(|i| i.status != "Stopped");
        if running && p.get("Force").map(String::as_str) != Some("true") {
            return err(
                403,
                "IncorrectInstanceStatus",
                "The instance must be stopped.",
            );
        }
        self.instance = None;
        self.disks.retain(|d| !d.with_instance);
        for d in &mut self.disks {
            d.instance.clear();
            d.status = "Available".into();
        }
        self.eip_bound = false;
        self.slb_servers.clear();
        ok(json!({}))
    }

    fn stop_instance(&mut self, p: &Params) -> (u16, Value) {
        if let Err(e) = self.owns(p) {
            return e;
        }
        let economical = self.economical;
        let Some(i) = &mut self.instance else {
            return err(404, "InvalidInstanceId.NotFound", "gone");
        };
        if i.status != "Running" {
            return err(
                403,
                "IncorrectInstanceStatus",
                "The current status does not support this operation.",
            );
        }
        let asked = p.get("StoppedMode").map_or("KeepCharging", String::as_str);
        i.stopped_mode = if asked == "StopCharging" && economical {
            "StopCharging"
        } else {
            "KeepCharging"
        }
        .into();
        i.status = "Stopping".into();
        ok(json!({}))
    }

    fn auto_release(&mut self, p: &Params) -> (u16, Value) {
        if let Err(e) = self.owns(p) {
            return e;
        }
        let at = p.get("AutoReleaseTime").cloned().unwrap_or_default();
        if !at.is_empty() {
            let Ok(t) = at.parse::<jiff::Timestamp>() else {
                return err(400, "InvalidAutoReleaseTime.Malformed", "bad time");
            };
            if t < jiff::Timestamp::now() + jiff::SignedDuration::from_mins(30) {
                return err(
                    400,
                    "InvalidAutoReleaseTime.Malformed",
                    "at least 30 minutes ahead",
                );
            }
        }
        if let Some(i) = &mut self.instance {
            // Kept to the minute, as the service does.
            i.auto_release = at.get(..16).map(|m| format!("{m}Z")).unwrap_or_default();
        }
        ok(json!({}))
    }

    fn describe_disks(&self, p: &Params) -> Value {
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

    fn describe_snapshots(&self, p: &Params) -> Value {
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

    fn create_snapshot(&mut self, p: &Params) -> (u16, Value) {
        let Some(disk) = p
            .get("DiskId")
            .filter(|d| self.disks.iter().any(|x| x.id == **d))
        else {
            return err(
                404,
                "InvalidDiskId.NotFound",
                "The specified disk does not exist.",
            );
        };
        if let Some(done) = p.get("ClientToken").and_then(|t| self.tokens.get(t)) {
            return ok(json!({"SnapshotId": done}));
        }
        self.next += 1;
        let id = format!("s-bp1final{:05}", self.next);
        let size = self
            .disks
            .iter()
            .find(|d| d.id == *disk)
            .map_or(0, |d| d.size);
        let created = jiff::Timestamp::now()
            .strftime("%Y-%m-%dT%H:%M:%SZ")
            .to_string();
        self.snapshots.push(Snapshot {
            id: id.clone(),
            disk: disk.clone(),
            size,
            created,
            usage: "none",
        });
        if let Some(t) = p.get("ClientToken") {
            self.tokens.insert(t.clone(), id.clone());
        }
        ok(json!({"SnapshotId": id}))
    }

    fn delete_snapshot(&mut self, p: &Params) -> (u16, Value) {
        let id = p.get("SnapshotId").cloned().unwrap_or_default();
        let Some(pos) = self.snapshots.iter().position(|s| s.id == id) else {
            return err(
                404,
                "InvalidSnapshotId.NotFound",
                "The specified snapshot does not exist.",
            );
        };
        if self.snapshots[pos].usage == "image" {
            return err(
                403,
                "SnapshotCreatedImage",
                "The snapshot has been used to create a custom image.",
            );
        }
        self.snapshots.remove(pos);
        ok(json!({}))
    }

    fn describe_images(p: &Params) -> Value {
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

    fn describe_eips(&self, p: &Params) -> Value {
        let status = if self.eip_bound { "InUse" } else { "Available" };
        let bound_to = if self.eip_bound { INSTANCE } else { "" };
        let matches = p.get("AssociatedInstanceId").is_none_or(|i| *i == bound_to)
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

    fn describe_lbs(&self, p: &Params) -> Value {
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
