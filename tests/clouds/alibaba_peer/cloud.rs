//! The in-memory cloud behind the loopback peer: one GPU instance with a system disk that goes
//! with it, a data disk that stays, three snapshots (the oldest backs a custom image), an image,
//! an EIP and a load balancer. Actions change it; the Describe calls (in `listing`) show the
//! change. The system disk is encrypted, the data disk and the snapshots are not; the image is
//! shared with no one until a test shares it.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::{Value, json};

use crate::models::Pages;

pub const INSTANCE: &str = "i-bp1gpumeter000001";
/// The region the peer's cloud is in.
pub const REGION: &str = "cn-hangzhou";
/// The regions DescribeRegions lists, the cloud's own first; the others hold nothing.
pub const REGIONS: [&str; 3] = [REGION, "cn-beijing", "cn-shanghai"];
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
    /// DescribeInstances calls that still show `Starting` after a start (`u32::MAX`: it never
    /// gets there, as when the zone has no stock left to start it on).
    pub starting_reads: u32,
}

#[derive(Debug, Clone)]
pub struct Disk {
    pub id: String,
    pub instance: String,
    pub kind: &'static str,
    pub size: u64,
    pub status: String,
    pub with_instance: bool,
    pub encrypted: bool,
    /// DescribeDisks reads that still show `Detaching` after a DetachDisk.
    pub detaching_reads: u32,
}

#[derive(Debug, Clone)]
pub struct Snapshot {
    pub id: String,
    pub disk: String,
    pub size: u64,
    pub created: String,
    pub usage: &'static str,
    pub encrypted: bool,
}

#[derive(Debug, Clone)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "each is one fact of the cloud a test sets or reads"
)]
pub struct Cloud {
    pub instance: Option<Instance>,
    pub disks: Vec<Disk>,
    pub snapshots: Vec<Snapshot>,
    pub eip_bound: bool,
    pub eip_released: bool,
    /// The custom image is deleted.
    pub image_gone: bool,
    /// The image is shared with every account (`ShareGroup` `all`): public.
    pub image_public: bool,
    /// The accounts the image is shared with.
    pub image_accounts: Vec<String>,
    pub slb_servers: Vec<String>,
    /// Load balancers with no backend server at all, listed by every unfiltered listing.
    pub idle_lbs: Vec<String>,
    /// Load balancers deleted (the serving one or an extra), listed no more.
    pub lbs_deleted: BTreeSet<String>,
    /// Whether StopCharging applies to this instance (false: the provider falls back).
    pub economical: bool,
    pub spot_termination: Option<String>,
    /// The most items one Describe page holds, whatever `PageSize` asks (the service's is 100);
    /// a third of the list if `None`, so that every list of three or more takes three pages.
    pub page_cap: Option<usize>,
    /// Pages served per list action.
    pub pages: BTreeMap<String, Pages>,
    /// A region the key may not call: every call there is refused as RAM refuses it.
    pub refused_region: Option<String>,
    /// More custom images, EIPs bound to the instance and load balancers serving it, numbered,
    /// to make the listings run to several pages.
    pub extra: usize,
    /// The tags each resource carries, by id (key, value), as the Describe calls list them.
    pub tags: BTreeMap<String, Vec<(String, String)>>,
    /// Instances beside the main one (`Peer::fleet_world`), listed after it.
    pub fleet: Vec<super::fleet::FleetInstance>,
    tokens: HashMap<String, String>,
    next: u32,
}

pub(super) type Params = BTreeMap<String, String>;

fn err(status: u16, code: &str, message: &str) -> (u16, Value) {
    (
        status,
        json!({"RequestId": "req-1", "Code": code, "Message": message}),
    )
}

pub(super) fn ok(body: Value) -> (u16, Value) {
    let mut body = body;
    body["RequestId"] = json!("req-ok");
    (200, body)
}

/// Extra item `n` of a kind: `prefix` and a number, as wide as the peer's own ids.
pub fn extra_id(prefix: &str, n: usize) -> String {
    format!("{prefix}{n:04}")
}

pub(super) fn ids(p: &Params, key: &str) -> Option<Vec<String>> {
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
            encrypted: kind == "system",
            detaching_reads: 0,
        };
        let snap = |id: &str, disk: &str, size, created: &str, usage| Snapshot {
            id: id.into(),
            disk: disk.into(),
            size,
            created: created.into(),
            usage,
            encrypted: false,
        };
        Cloud {
            instance: Some(Instance {
                status: "Running".into(),
                spot_strategy: "NoSpot".into(),
                stopped_mode: "Not-applicable".into(),
                auto_release: String::new(),
                stopping_reads: 1,
                starting_reads: 1,
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
            eip_released: false,
            image_gone: false,
            image_public: false,
            image_accounts: Vec::new(),
            slb_servers: vec![INSTANCE.into()],
            idle_lbs: Vec::new(),
            lbs_deleted: BTreeSet::new(),
            economical: true,
            spot_termination: None,
            page_cap: None,
            pages: BTreeMap::new(),
            refused_region: None,
            extra: 0,
            tags: BTreeMap::new(),
            fleet: Vec::new(),
            tokens: HashMap::new(),
            next: 0,
        }
    }

    pub fn handle(&mut self, action: &str, p: &Params) -> (u16, Value) {
        if p.get("RegionId").is_some() && p.get("RegionId") == self.refused_region.as_ref() {
            return err(
                403,
                "Forbidden.RAM",
                "User not authorized to operate on the specified resource, or this API \
                 doesn't support RAM.",
            );
        }
        match p.get("RegionId").map(String::as_str) {
            // An action on one resource takes no region: its id names it wherever it is.
            None if super::model_check::takes_region(action) == Some(false) => {
                self.dispatch(action, p)
            }
            None | Some("") => err(400, "MissingParameter", "RegionId is mandatory."),
            Some(REGION) => self.dispatch(action, p),
            // Another region holds none of this: asked there, it is an empty cloud.
            Some(_) => Cloud::empty().dispatch(action, p),
        }
    }

    /// A region without the instance, its disks, snapshots, address or load balancer.
    fn empty() -> Cloud {
        Cloud {
            instance: None,
            disks: Vec::new(),
            snapshots: Vec::new(),
            eip_bound: false,
            eip_released: true,
            image_gone: true,
            slb_servers: Vec::new(),
            lbs_deleted: BTreeSet::from([SLB.to_string()]),
            ..Cloud::fresh()
        }
    }

    fn dispatch(&mut self, action: &str, p: &Params) -> (u16, Value) {
        match action {
            "DescribeInstances" => self.describe_instances(p),
            "DeleteInstance" => self.delete_instance(p),
            "StopInstance" => self.stop_instance(p),
            "StartInstance" => self.start_instance(p),
            "ModifyInstanceAutoReleaseTime" => self.auto_release(p),
            "DescribeDisks" => ok(self.describe_disks(p)),
            "DescribeSnapshots" => ok(self.describe_snapshots(p)),
            "CreateSnapshot" => self.create_snapshot(p),
            "DeleteSnapshot" => self.delete_snapshot(p),
            "DescribeImages" => ok(self.describe_images(p)),
            "DescribeEipAddresses" => ok(self.describe_eips(p)),
            "DescribeLoadBalancers" => ok(self.describe_lbs(p)),
            "ReleaseEipAddress" => self.release_eip(p),
            "DescribeImageSharePermission" => self.image_share_permission(p),
            "DetachDisk" => self.detach_disk(p),
            "DeleteDisk" => self.delete_disk(p),
            "DeleteImage" => self.delete_image(p),
            "UnassociateEipAddress" => self.unassociate_eip(p),
            "DescribeRegions" => ok(describe_regions()),
            "DescribeHealthStatus" => self.health_status(p),
            "DeleteLoadBalancer" => self.delete_lb(p),
            _ => err(400, "InvalidAction.NotFound", "no such action"),
        }
    }

    /// Whether load balancer `id` is listed: the serving one and the extras until deleted, and
    /// the idle ones.
    pub(super) fn lb_listed(&self, id: &str) -> bool {
        let serving = id == SLB || (1..=self.extra).any(|n| extra_id("lb-bp1extra", n) == id);
        (serving && !self.lbs_deleted.contains(id)) || self.idle_lbs.iter().any(|l| l == id)
    }

    fn lb_missing() -> (u16, Value) {
        err(
            404,
            "InvalidLoadBalancerId.NotFound",
            "The specified LoadBalancerId does not exist.",
        )
    }

    /// The serving load balancers' backends are the servers they serve, `normal` while the
    /// instance runs; an idle one has none.
    fn health_status(&self, p: &Params) -> (u16, Value) {
        let id = p
            .get("LoadBalancerId")
            .map(String::as_str)
            .unwrap_or_default();
        if !self.lb_listed(id) {
            return Self::lb_missing();
        }
        let running = self
            .instance
            .as_ref()
            .is_some_and(|i| i.status == "Running");
        let servers: Vec<Value> = if self.idle_lbs.iter().any(|l| l == id) {
            Vec::new()
        } else {
            self.slb_servers
                .iter()
                .map(|s| {
                    json!({"ServerId": s, "ServerIp": "172.16.0.8", "Port": 8000,
                           "ListenerPort": 80, "Protocol": "http",
                           "ServerHealthStatus": if running { "normal" } else { "abnormal" }})
                })
                .collect()
        };
        ok(json!({"BackendServers": {"BackendServer": servers}}))
    }

    fn delete_lb(&mut self, p: &Params) -> (u16, Value) {
        let id = p.get("LoadBalancerId").cloned().unwrap_or_default();
        if !self.lb_listed(&id) {
            return Self::lb_missing();
        }
        self.idle_lbs.retain(|l| *l != id);
        self.lbs_deleted.insert(id);
        ok(json!({}))
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
        let status_asked = p.get("Status").cloned();
        if let Some(i) = &mut self.instance
            && wanted.iter().any(|w| w == INSTANCE)
            && status_asked.as_ref().is_none_or(|s| *s == i.status)
        {
            let status = if i.status == "Stopping" && i.stopping_reads > 0 {
                i.stopping_reads -= 1;
                "Stopping".to_string()
            } else if i.status == "Stopping" {
                i.status = "Stopped".into();
                i.status.clone()
            } else if i.status == "Starting" && i.starting_reads > 0 {
                i.starting_reads = i.starting_reads.saturating_sub(1);
                "Starting".to_string()
            } else if i.status == "Starting" {
                i.status = "Running".into();
                i.stopped_mode = "Not-applicable".into();
                i.status.clone()
            } else {
                i.status.clone()
            };
            list.push(json!({
                "InstanceId": INSTANCE, "InstanceName": "llm-finetune", "Status": status,
                "InstanceType": "ecs.gn7i-c8g1.2xlarge", "InstanceTypeFamily": "ecs.gn7i",
                "InstanceChargeType": "PostPaid", "SpotStrategy": i.spot_strategy,
                "StoppedMode": i.stopped_mode, "CreationTime": "2026-11-29T08:00Z",
                "AutoReleaseTime": i.auto_release, "RegionId": REGION,
                "ZoneId": "cn-hangzhou-i", "GPUAmount": 1, "GPUSpec": "NVIDIA A10",
                "OperationLocks": {"LockReason": []}
            }));
            let tagged = self.tagged(list.remove(0), "InstanceId", super::tags::Shape::Ecs);
            list.push(tagged);
        }
        list.extend(self.fleet_listed(p));
        let (page, size, items) = self.page("DescribeInstances", p, &list);
        ok(
            json!({"TotalCount": list.len(), "PageNumber": page, "PageSize": size,
                  "Instances": {"Instance": items}}),
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
        // The fleet's disks stay with the fleet's instances.
        self.disks
            .retain(|d| !(d.with_instance && d.instance == INSTANCE));
        for d in &mut self.disks {
            if d.instance == INSTANCE || d.instance.is_empty() {
                d.instance.clear();
                d.status = "Available".into();
            }
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

    /// ECS `StartInstance`: only a `Stopped` instance starts (anything else is
    /// `IncorrectInstanceStatus`, as the service answers); it reads `Starting`, then `Running`.
    fn start_instance(&mut self, p: &Params) -> (u16, Value) {
        if let Err(e) = self.owns(p) {
            return e;
        }
        let Some(i) = &mut self.instance else {
            return err(404, "InvalidInstanceId.NotFound", "gone");
        };
        if i.status != "Stopped" {
            return err(
                403,
                "IncorrectInstanceStatus",
                "The current status of the resource does not support this operation.",
            );
        }
        i.status = "Starting".into();
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
            encrypted: false,
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

    fn release_eip(&mut self, p: &Params) -> (u16, Value) {
        if self.eip_released || p.get("AllocationId").map(String::as_str) != Some(EIP) {
            return err(
                404,
                "InvalidAllocationId.NotFound",
                "The specified EIP does not exist.",
            );
        }
        if self.eip_bound {
            return err(403, "IncorrectEipStatus", "The EIP is still associated.");
        }
        self.eip_released = true;
        ok(json!({}))
    }

    fn unassociate_eip(&mut self, p: &Params) -> (u16, Value) {
        if self.eip_released || p.get("AllocationId").map(String::as_str) != Some(EIP) {
            return err(
                404,
                "InvalidAllocationId.NotFound",
                "The specified EIP does not exist.",
            );
        }
        let named = p.get("InstanceId").map(String::as_str);
        if !self.eip_bound || named.is_some_and(|i| i != INSTANCE) {
            return err(
                400,
                "IncorrectEipStatus",
                "The current status of the EIP does not support this operation.",
            );
        }
        self.eip_bound = false;
        ok(json!({}))
    }

    fn detach_disk(&mut self, p: &Params) -> (u16, Value) {
        let id = p.get("DiskId").cloned().unwrap_or_default();
        let running = self
            .instance
            .as_ref()
            .is_some_and(|i| i.status != "Stopped");
        let Some(d) = self.disks.iter_mut().find(|d| d.id == id) else {
            return err(
                404,
                "InvalidDiskId.NotFound",
                "The specified disk does not exist.",
            );
        };
        if d.instance.is_empty() || p.get("InstanceId") != Some(&d.instance) {
            return err(
                403,
                "IncorrectDiskStatus",
                "The current disk status does not support this operation.",
            );
        }
        if d.kind == "system" && running {
            return err(
                403,
                "IncorrectInstanceStatus",
                "The current status of the resource does not support this operation.",
            );
        }
        d.instance.clear();
        d.status = "Detaching".into();
        d.detaching_reads = 1;
        ok(json!({}))
    }

    fn delete_disk(&mut self, p: &Params) -> (u16, Value) {
        let id = p.get("DiskId").cloned().unwrap_or_default();
        let Some(pos) = self.disks.iter().position(|d| d.id == id) else {
            return err(
                404,
                "InvalidDiskId.NotFound",
                "The specified disk does not exist.",
            );
        };
        if self.disks[pos].status != "Available" {
            return err(
                403,
                "IncorrectDiskStatus",
                "The current disk status does not support this operation.",
            );
        }
        self.disks.remove(pos);
        ok(json!({}))
    }

    fn delete_image(&mut self, p: &Params) -> (u16, Value) {
        if self.image_gone || p.get("ImageId").map(String::as_str) != Some(IMAGE) {
            return err(
                404,
                "InvalidImageId.NotFound",
                "The specified ImageId does not exist.",
            );
        }
        self.image_gone = true;
        // The snapshot behind it is used by nothing now.
        for s in &mut self.snapshots {
            if s.usage == "image" {
                s.usage = "none";
            }
        }
        ok(json!({}))
    }

    fn image_share_permission(&mut self, p: &Params) -> (u16, Value) {
        let id = p.get("ImageId").cloned().unwrap_or_default();
        let known = (id == IMAGE && !self.image_gone)
            || (1..=self.extra).any(|n| extra_id("m-bp1extraimg", n) == id);
        if !known {
            return err(
                404,
                "InvalidImageId.NotFound",
                "The specified ImageId does not exist.",
            );
        }
        // The extra images are shared with the same accounts.
        let accounts: Vec<Value> = self
            .image_accounts
            .iter()
            .map(|a| json!({"AliyunId": a, "SharedTime": "2026-11-28T00:00:00Z"}))
            .collect();
        let groups: Vec<Value> = if id == IMAGE && self.image_public {
            vec![json!({"Group": "all"})]
        } else {
            Vec::new()
        };
        let (page, size, items) = self.page("DescribeImageSharePermission", p, &accounts);
        ok(json!({
            "ImageId": id, "RegionId": REGION, "TotalCount": accounts.len(),
            "PageNumber": page, "PageSize": size,
            "Accounts": {"Account": items}, "ShareGroups": {"ShareGroup": groups}
        }))
    }
}

/// Every region, as DescribeRegions lists them (not paged).
fn describe_regions() -> Value {
    let regions: Vec<Value> = REGIONS
        .iter()
        .map(|id| {
            json!({"RegionId": id, "LocalName": id, "Status": "available",
                   "RegionEndpoint": format!("ecs.{id}.aliyuncs.com")})
        })
        .collect();
    json!({"Regions": {"Region": regions}})
}
