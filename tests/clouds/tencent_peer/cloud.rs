//! A small CVM behind the loopback peer: one GPU instance with a system disk, a data disk that
//! goes with it, one that stays, an elastic IP (VPC), and its action timers. Replies follow the
//! documented shapes; errors come inside HTTP 200.
//!
//! `TerminateInstances` with `ReleaseAddress` frees only the EIP types the CVM model names
//! (HighQualityEIP, AntiDDoSEIP, EIPv6, HighQualityEIPv6); an ordinary `EIP` is unbound and
//! stays. DescribeAddresses lists only `EIP` unless the `address-type` filter names others.
//!
//! Custom images, whom snapshots and images are shared with, and which disks and snapshots are
//! encrypted are kept beside the lists; a fresh cloud has no images and shares nothing. A
//! snapshot an image was made from cannot be deleted while the image exists, and a shared
//! image cannot be deleted (the service's own codes).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use super::tags::Shape;
use crate::models::{Pages, page_size};

pub const INSTANCE: &str = "ins-loopback1";

#[derive(Debug, Clone)]
pub struct Instance {
    pub state: String,
    pub stop_charging_mode: String,
    /// DescribeInstances calls that still show `STARTING` after a start (`usize::MAX`: it never
    /// gets there, as when the zone has no stock to start it on).
    pub starting_reads: usize,
}

#[derive(Debug, Clone)]
pub struct Timer {
    pub id: String,
    pub at: String,
    pub status: String,
}

/// A cloud disk as CBS lists it.
#[derive(Debug, Clone)]
pub struct CbsDisk {
    pub id: String,
    pub size: u64,
    pub state: String,
    /// Deleted by TerminateInstances (the system disk, and data disks set to go).
    pub goes: bool,
}

#[derive(Debug, Clone)]
pub struct Snapshot {
    pub id: String,
    pub disk: String,
    pub size: u64,
}

/// A custom image (`PRIVATE_IMAGE`).
#[derive(Debug, Clone)]
pub struct Image {
    pub id: String,
    /// The snapshots it was made from.
    pub snapshots: Vec<String>,
    /// The accounts it is shared with.
    pub shared: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Address {
    pub id: String,
    pub ip: String,
    /// `EIP`, `HighQualityEIP`, `WanIP` ...
    pub kind: String,
    /// Bound to the instance.
    pub bound: bool,
}

/// A CLB load balancer: one TCP listener whose single target passes its health check, or, idle,
/// no listener at all.
#[derive(Debug, Clone)]
pub struct Clb {
    pub id: String,
    pub healthy: bool,
}

/// What a sweep and a cleanup call beyond the instance's own: see [`Cloud::cleanup`].
const CLEANUP_CALLS: [&str; 9] = [
    "DescribeSnapshotSharePermission",
    "DescribeImageSharePermission",
    "DetachDisks",
    "TerminateDisks",
    "DeleteSnapshots",
    "DescribeImages",
    "DeleteImages",
    "DisassociateAddress",
    "ReleaseAddresses",
];

const RELEASED_WITH_INSTANCE: [&str; 4] =
    ["HighQualityEIP", "AntiDDoSEIP", "EIPv6", "HighQualityEIPv6"];

#[derive(Debug, Clone)]
pub struct Cloud {
    pub instance: Option<Instance>,
    /// What the metadata service's `spot/termination-time` answers; 404 while `None`.
    pub spot_termination: Option<String>,
    pub addresses: Vec<Address>,
    /// CBS's view of the instance's disks, which outlives the instance.
    pub disks: Vec<CbsDisk>,
    pub snapshots: Vec<Snapshot>,
    pub images: Vec<Image>,
    /// The accounts each snapshot (by id) is shared with.
    pub snapshot_shares: BTreeMap<String, Vec<String>>,
    /// The disks and snapshots (by id) that are encrypted.
    pub encrypted: BTreeSet<String>,
    /// DescribeDisks or DescribeAddresses reads that still show DETACHING or UNBINDING, by id.
    pub settling: BTreeMap<String, usize>,
    pub timers: Vec<Timer>,
    /// Reads timers back as `YYYY-MM-DD hh:mm:ss` (the UTC wall time, with no zone) instead of
    /// ISO 8601.
    pub zoneless_times: bool,
    /// Whether STOP_CHARGING applies to this instance; if not, the provider keeps charging.
    pub stop_charging_supported: bool,
    /// DescribeInstances shows TERMINATING this many times before the instance is gone.
    pub terminating_reads: usize,
    pub terminating: bool,
    /// The most items a list page holds, whatever `Limit` asks; a third of the list if `None`.
    pub page_cap: Option<usize>,
    /// Pages served per list action.
    pub pages: BTreeMap<String, Pages>,
    /// CLB's load balancers.
    pub lbs: Vec<Clb>,
    /// A region whose every call is answered `UnsupportedRegion`.
    pub refused_region: Option<String>,
    /// The tags each resource carries, by id (key, value), as the Describe calls list them.
    pub tags: BTreeMap<String, Vec<(String, String)>>,
    /// Instances beside the main one (`Peer::fleet_world`), listed after it.
    pub fleet: Vec<super::fleet::FleetInstance>,
    /// The fleet's disks and the orphans, listed after the main instance's.
    pub fleet_disks: Vec<super::fleet::FleetDisk>,
    next_timer: usize,
}

pub fn error(code: &str, message: &str) -> Value {
    json!({"Response": {"Error": {"Code": code, "Message": message}, "RequestId": "req-err"}})
}

fn ok(mut body: Value) -> Value {
    body["RequestId"] = json!("req-ok");
    json!({ "Response": body })
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

impl Cloud {
    pub fn fresh() -> Cloud {
        Cloud {
            spot_termination: None,
            instance: Some(Instance {
                state: "RUNNING".into(),
                stop_charging_mode: "KEEP_CHARGING".into(),
                starting_reads: 1,
            }),
            addresses: vec![Address {
                id: "eip-loop1".into(),
                ip: "203.0.113.7".into(),
                kind: "EIP".into(),
                bound: true,
            }],
            disks: [
                ("disk-sys", 50, true),
                ("disk-keep", 500, false),
                ("disk-go", 100, true),
            ]
            .into_iter()
            .map(|(id, size, goes)| CbsDisk {
                id: id.into(),
                size,
                state: "ATTACHED".into(),
                goes,
            })
            .collect(),
            snapshots: Vec::new(),
            images: Vec::new(),
            snapshot_shares: BTreeMap::new(),
            encrypted: BTreeSet::new(),
            settling: BTreeMap::new(),
            timers: Vec::new(),
            zoneless_times: false,
            stop_charging_supported: true,
            terminating_reads: 0,
            terminating: false,
            page_cap: None,
            pages: BTreeMap::new(),
            lbs: Vec::new(),
            refused_region: None,
            tags: BTreeMap::new(),
            fleet: Vec::new(),
            fleet_disks: Vec::new(),
            next_timer: 1,
        }
    }

    /// One page of `all` as the API 3.0 Describe calls page: `Offset` from 0, `Limit` items
    /// (20 unless asked, never more than the page size), `TotalCount` across pages.
    fn page(&mut self, action: &str, body: &Value, all: Vec<Value>) -> (usize, Vec<Value>) {
        let total = all.len();
        let number = |name: &str| body[name].as_u64().and_then(|n| usize::try_from(n).ok());
        let asked = number("Limit").unwrap_or(20);
        let size = page_size(asked, total, self.page_cap);
        let offset = number("Offset").unwrap_or(0);
        let items: Vec<Value> = all.into_iter().skip(offset).take(size).collect();
        let pages = self.pages.entry(action.to_string()).or_default();
        pages.served += 1;
        if offset + items.len() >= total {
            pages.ends += 1;
        }
        (total, items)
    }

    fn described(&self, i: &Instance) -> Value {
        let ips: Vec<&str> = self
            .addresses
            .iter()
            .filter(|a| a.bound)
            .map(|a| a.ip.as_str())
            .collect();
        let data_disks: Vec<Value> = self
            .disks
            .iter()
            .filter(|d| d.id != "disk-sys")
            .map(|d| {
                json!({"DiskType": "CLOUD_SSD", "DiskId": d.id, "DiskSize": d.size,
                       "DeleteWithInstance": d.goes})
            })
            .collect();
        let described = json!({
            "InstanceId": INSTANCE,
            "InstanceName": "trainer",
            "InstanceType": "GN7.2XLARGE32",
            "InstanceState": i.state,
            "InstanceChargeType": "POSTPAID_BY_HOUR",
            "CreatedTime": "2026-01-02T03:04:05Z",
            "ExpiredTime": null,
            "SystemDisk": {"DiskType": "CLOUD_PREMIUM", "DiskId": "disk-sys", "DiskSize": 50},
            "DataDisks": data_disks,
            "PublicIpAddresses": ips,
            "StopChargingMode": i.stop_charging_mode,
            "InternetAccessible": {"InternetChargeType": "TRAFFIC_POSTPAID_BY_HOUR", "InternetMaxBandwidthOut": 100},
            "GPUInfo": {"GPUCount": 1, "GPUType": "T4"}
        });
        self.tagged(described, "InstanceId", Shape::Cbs)
    }

    fn named(body: &Value) -> bool {
        strings(&body["InstanceIds"])
            .iter()
            .any(|id| id == INSTANCE)
    }

    /// DescribeInstances: the instance named by id, or with no ids, every one the
    /// `instance-state` filter (if any) admits; the fleet after it.
    fn describe_instances(&mut self, body: &Value) -> Value {
        let action = "DescribeInstances";
        if self.terminating {
            if self.terminating_reads == 0 {
                self.instance = None;
                self.terminating = false;
            } else {
                self.terminating_reads -= 1;
            }
        }
        if Self::named(body) {
            self.read_starting();
        }
        let states = body["Filters"].as_array().and_then(|fs| {
            fs.iter()
                .find(|f| f["Name"] == "instance-state")
                .map(|f| strings(&f["Values"]))
        });
        let mut all: Vec<Value> = match &self.instance {
            Some(i) if Self::named(body) => vec![self.described(i)],
            Some(i)
                if strings(&body["InstanceIds"]).is_empty()
                    && states.as_ref().is_none_or(|s| s.contains(&i.state)) =>
            {
                vec![self.described(i)]
            }
            _ => Vec::new(),
        };
        all.extend(self.fleet_listed(body));
        let (total, set) = self.page(action, body, all);
        ok(json!({"TotalCount": total, "InstanceSet": set}))
    }

    pub fn handle(&mut self, action: &str, body: &Value) -> Value {
        match action {
            "DescribeInstances" => self.describe_instances(body),
            "StopInstances" => {
                let Some(i) = self.instance.as_mut().filter(|_| Self::named(body)) else {
                    return error("InvalidInstanceId.NotFound", "no such instance");
                };
                let asked = body["StoppedMode"].as_str().unwrap_or("KEEP_CHARGING");
                i.state = "STOPPED".into();
                i.stop_charging_mode = if asked == "STOP_CHARGING" && self.stop_charging_supported {
                    "STOP_CHARGING".into()
                } else {
                    "KEEP_CHARGING".into()
                };
                ok(json!({}))
            }
            "StartInstances" => self.start(body),
            "TerminateInstances" => {
                if self.instance.is_none() || !Self::named(body) {
                    return error("InvalidInstanceId.NotFound", "no such instance");
                }
                if let Some(i) = &mut self.instance {
                    i.state = "TERMINATING".into();
                }
                self.terminating = true;
                self.timers.clear();
                if body["ReleaseAddress"] == true {
                    self.addresses.retain(|a| {
                        !(a.bound && RELEASED_WITH_INSTANCE.contains(&a.kind.as_str()))
                    });
                }
                for a in &mut self.addresses {
                    a.bound = false;
                }
                self.disks.retain(|d| !d.goes);
                for d in &mut self.disks {
                    d.state = "UNATTACHED".into();
                }
                ok(json!({}))
            }
            "DescribeDisks" | "DescribeSnapshots" => self.cbs(action, body),
            _ if CLEANUP_CALLS.contains(&action) => self.cleanup(action, body),
            "DescribeAddresses" => self.describe_addresses(body),
            "DescribeInstancesActionTimer" => {
                let statuses = strings(&body["StatusList"]);
                let timers: Vec<Value> = self
                    .timers
                    .iter()
                    .filter(|t| statuses.is_empty() || statuses.contains(&t.status))
                    .map(|t| {
                        json!({"ActionTimerId": t.id, "InstanceId": INSTANCE,
                               "TimerAction": "TerminateInstances",
                               "ActionTime": if self.zoneless_times {
                                   t.at.replace('T', " ").replace('Z', "")
                               } else {
                                   t.at.clone()
                               },
                               "Status": t.status, "Externals": {}})
                    })
                    .collect();
                let timers = if timers.is_empty() {
                    Value::Null
                } else {
                    Value::Array(timers)
                };
                ok(json!({ "ActionTimers": timers }))
            }
            "ImportInstancesActionTimer" => self.import(body),
            "DescribeLoadBalancers" | "DescribeTargetHealth" | "DeleteLoadBalancer" => {
                self.clb(action, body)
            }
            "DescribeRegions" => describe_regions(),
            "DeleteInstancesActionTimer" => {
                let ids = strings(&body["ActionTimerIds"]);
                if ids.is_empty() {
                    return error("MissingParameter", "ActionTimerIds");
                }
                self.timers.retain(|t| !ids.contains(&t.id));
                ok(json!({}))
            }
            _ => error("InvalidAction", "no such action"),
        }
    }

    /// CBS: the disks by `DiskIds` and the `disk-state` filter, the snapshots by the `disk-id`
    /// filter; with neither, every one (as CBS lists the whole region).
    /// CLB 2018-03-17: the load balancers, their targets' health, and their deletion.
    fn clb(&mut self, action: &str, body: &Value) -> Value {
        let asked = strings(&body["LoadBalancerIds"]);
        let missing = || {
            error(
                "InvalidParameter.LBIdNotFound",
                "The load balancer does not exist.",
            )
        };
        if asked.iter().any(|id| !self.lbs.iter().any(|l| l.id == *id))
            && action != "DescribeLoadBalancers"
        {
            return missing();
        }
        let named: Vec<Clb> = self
            .lbs
            .iter()
            .filter(|l| asked.is_empty() || asked.contains(&l.id))
            .cloned()
            .collect();
        match action {
            "DescribeLoadBalancers" => {
                let all: Vec<Value> = named
                    .iter()
                    .map(|l| {
                        json!({"LoadBalancerId": l.id, "LoadBalancerName": format!("{}-name", l.id),
                               "LoadBalancerType": "OPEN", "Forward": 1, "Status": 1,
                               "LoadBalancerVips": ["203.0.113.9"],
                               "CreateTime": "2026-11-20 01:00:00"})
                    })
                    .map(|l| self.tagged(l, "LoadBalancerId", Shape::Clb))
                    .collect();
                let (total, set) = self.page("DescribeLoadBalancers", body, all);
                ok(json!({"TotalCount": total, "LoadBalancerSet": set}))
            }
            "DescribeTargetHealth" => {
                let set: Vec<Value> = named
                    .iter()
                    .map(|l| {
                        let listeners: Vec<Value> = if l.healthy {
                            vec![json!({"ListenerId": "lbl-loop1", "ListenerName": "tcp-80",
                                "Protocol": "TCP", "Port": 80, "Rules": [{"LocationId": "",
                                "Targets": [{"IP": "10.0.0.8", "Port": 8000, "HealthStatus": true,
                                             "TargetId": INSTANCE, "HealthStatusDetail": "Alive"}]}]})]
                        } else {
                            Vec::new()
                        };
                        json!({"LoadBalancerId": l.id, "LoadBalancerName": format!("{}-name", l.id),
                               "Listeners": listeners})
                    })
                    .collect();
                ok(json!({"LoadBalancers": set}))
            }
            _ => {
                if asked.is_empty() {
                    return error("MissingParameter", "LoadBalancerIds is required.");
                }
                self.lbs.retain(|l| !asked.contains(&l.id));
                ok(json!({}))
            }
        }
    }

    fn cbs(&mut self, action: &str, body: &Value) -> Value {
        let filter = |name: &str| -> Option<Vec<String>> {
            body["Filters"]
                .as_array()?
                .iter()
                .find(|f| f["Name"] == name)
                .map(|f| strings(&f["Values"]))
        };
        match action {
            "DescribeDisks" => {
                self.settle("DETACHING", "UNATTACHED");
                let ids = strings(&body["DiskIds"]);
                let states = filter("disk-state");
                let on_instance = filter("instance-id");
                let mut all: Vec<Value> = self
                    .disks
                    .iter()
                    .filter(|d| ids.is_empty() || ids.contains(&d.id))
                    .filter(|d| states.as_ref().is_none_or(|s| s.contains(&d.state)))
                    .filter(|d| {
                        on_instance.as_ref().is_none_or(|i| {
                            d.state == "ATTACHED" && i.iter().any(|i| i == INSTANCE)
                        })
                    })
                    .map(|d| {
                        let on = if d.state == "ATTACHED" { INSTANCE } else { "" };
                        json!({"DiskId": d.id, "DiskType": "CLOUD_SSD", "DiskSize": d.size,
                               "DiskState": d.state, "InstanceId": on,
                               "Attached": d.state == "ATTACHED",
                               "Encrypt": self.encrypted.contains(&d.id),
                               "CreateTime": "2026-01-02 03:04:05"})
                    })
                    .map(|d| self.tagged(d, "DiskId", Shape::Cbs))
                    .collect();
                all.extend(self.fleet_disks_listed(body));
                let (total, set) = self.page(action, body, all);
                ok(json!({"TotalCount": total, "DiskSet": set}))
            }
            "DescribeSnapshots" => {
                let disks = filter("disk-id");
                let ids = strings(&body["SnapshotIds"]);
                let all: Vec<Value> = self
                    .snapshots
                    .iter()
                    .filter(|s| disks.as_ref().is_none_or(|d| d.contains(&s.disk)))
                    .filter(|s| ids.is_empty() || ids.contains(&s.id))
                    .map(|s| {
                        let images: Vec<Value> = self
                            .images
                            .iter()
                            .filter(|i| i.snapshots.contains(&s.id))
                            .map(|i| json!({"ImageId": i.id, "ImageName": i.id}))
                            .collect();
                        json!({"SnapshotId": s.id, "SnapshotName": "", "DiskId": s.disk,
                               "DiskSize": s.size, "SnapshotState": "NORMAL",
                               "CreateTime": "2026-01-02 04:00:00",
                               "Encrypt": self.encrypted.contains(&s.id),
                               "ImageCount": images.len(), "Images": images,
                               "ShareReference": self.snapshot_shares.get(&s.id).map_or(0, Vec::len)})
                    })
                    .map(|s| self.tagged(s, "SnapshotId", Shape::Cbs))
                    .collect();
                let (total, set) = self.page(action, body, all);
                ok(json!({"TotalCount": total, "SnapshotSet": set}))
            }
            _ => error("InvalidAction", "no such action"),
        }
    }

    fn describe_addresses(&mut self, body: &Value) -> Value {
        self.settle("UNBINDING", "UNBIND");
        let filter = |name: &str| -> Option<Vec<String>> {
            body["Filters"]
                .as_array()?
                .iter()
                .find(|f| f["Name"] == name)
                .map(|f| strings(&f["Values"]))
        };
        let ids = strings(&body["AddressIds"]);
        let types = filter("address-type").unwrap_or_else(|| vec!["EIP".into()]);
        let all: Vec<Value> = self
            .addresses
            .iter()
            .filter(|a| ids.is_empty() || ids.contains(&a.id))
            .filter(|a| types.contains(&a.kind))
            .filter(|a| filter("address-ip").is_none_or(|ips| ips.contains(&a.ip)))
            .filter(|a| {
                filter("address-status").is_none_or(|want| want.contains(&self.address_status(a)))
            })
            .filter(|a| {
                filter("instance-id")
                    .is_none_or(|want| a.bound && want.iter().any(|w| w == INSTANCE))
            })
            .map(|a| {
                json!({"AddressId": a.id, "AddressIp": a.ip, "AddressType": a.kind,
                       "AddressStatus": self.address_status(a),
                       "InstanceId": if a.bound { json!(INSTANCE) } else { Value::Null }})
            })
            .map(|a| self.tagged(a, "AddressId", Shape::Vpc))
            .collect();
        let (total, set) = self.page("DescribeAddresses", body, all);
        ok(json!({"TotalCount": total, "AddressSet": set}))
    }

    /// CVM `StartInstances`: only a STOPPED instance starts; one in another state is refused
    /// with `UnsupportedOperation.InstanceState<State>`, as the service answers. It reads
    /// `STARTING` for `starting_reads` reads, then `RUNNING`.
    fn start(&mut self, body: &Value) -> Value {
        let Some(i) = self.instance.as_mut().filter(|_| Self::named(body)) else {
            return error("InvalidInstanceId.NotFound", "no such instance");
        };
        if i.state != "STOPPED" {
            let state = match i.state.as_str() {
                "RUNNING" => "Running",
                "STARTING" => "Starting",
                "STOPPING" => "Stopping",
                _ => "Pending",
            };
            return error(
                &format!("UnsupportedOperation.InstanceState{state}"),
                "the instance's state does not allow this operation",
            );
        }
        i.state = "STARTING".into();
        ok(json!({}))
    }

    /// One DescribeInstances of a starting instance: still `STARTING`, or `RUNNING` at last.
    fn read_starting(&mut self) {
        if let Some(i) = self.instance.as_mut().filter(|i| i.state == "STARTING") {
            if i.starting_reads == 0 {
                i.state = "RUNNING".into();
                i.stop_charging_mode = "NOT_APPLICABLE".into();
            } else {
                i.starting_reads = i.starting_reads.saturating_sub(1);
            }
        }
    }

    fn import(&mut self, body: &Value) -> Value {
        if self.instance.is_none() || !Self::named(body) {
            return error("InvalidInstanceId.NotFound", "no such instance");
        }
        let timer = &body["ActionTimer"];
        let at = timer["ActionTime"].as_str().unwrap_or_default();
        let Ok(when) = at.parse::<jiff::Timestamp>() else {
            return error("InvalidParameterValue", "ActionTime");
        };
        if timer["TimerAction"] != "TerminateInstances"
            || when.as_second() < jiff::Timestamp::now().as_second() + 300
        {
            return error("InvalidParameterValue", "ActionTime");
        }
        let id = format!("timer-{}", self.next_timer);
        self.next_timer += 1;
        self.timers.push(Timer {
            id: id.clone(),
            at: at.to_string(),
            status: "UNDO".into(),
        });
        ok(json!({ "ActionTimerIds": [id] }))
    }

    /// The calls a cleanup makes: images, share permissions, detaching and deleting.
    fn cleanup(&mut self, action: &str, body: &Value) -> Value {
        match action {
            "DescribeSnapshotSharePermission" | "DescribeImageSharePermission" => {
                self.share_permission(action, body)
            }
            "DetachDisks" => self.detach_disks(body),
            "TerminateDisks" => self.terminate_disks(body),
            "DeleteSnapshots" => self.delete_snapshots(body),
            "DescribeImages" => self.describe_images(body),
            "DeleteImages" => self.delete_images(body),
            "DisassociateAddress" => self.disassociate(body),
            "ReleaseAddresses" => self.release_addresses(body),
            _ => error("InvalidAction", "no such action"),
        }
    }

    /// What is still settling in `from` (by id) reads as `to` once its reads are used up.
    fn settle(&mut self, from: &str, to: &str) {
        let mut done = Vec::new();
        for (id, reads) in &mut self.settling {
            if *reads == 0 {
                done.push(id.clone());
            } else {
                *reads -= 1;
            }
        }
        for id in done {
            self.settling.remove(&id);
            for d in self
                .disks
                .iter_mut()
                .filter(|d| d.id == id && d.state == from)
            {
                d.state = to.into();
            }
        }
    }

    fn address_status(&self, a: &Address) -> String {
        if a.bound {
            "BIND".into()
        } else if self.settling.contains_key(&a.id) {
            "UNBINDING".into()
        } else {
            "UNBIND".into()
        }
    }

    fn share_permission(&mut self, action: &str, body: &Value) -> Value {
        let (key, shared) = if action == "DescribeImageSharePermission" {
            let id = body["ImageId"].as_str().unwrap_or_default();
            let found = self.images.iter().find(|i| i.id == id);
            ("ImageId", found.map(|i| i.shared.clone()))
        } else {
            let id = body["SnapshotId"].as_str().unwrap_or_default();
            let found = self.snapshots.iter().any(|s| s.id == id);
            let shared = found.then(|| self.snapshot_shares.get(id).cloned().unwrap_or_default());
            ("SnapshotId", shared)
        };
        let Some(shared) = shared else {
            let code = if key == "ImageId" {
                "InvalidImageId.NotFound"
            } else {
                "InvalidSnapshotId.NotFound"
            };
            return error(code, "not found");
        };
        let set: Vec<Value> = shared
            .iter()
            .map(|a| json!({"AccountId": a, "CreatedTime": "2026-01-03T00:00:00Z"}))
            .collect();
        ok(json!({ "SharePermissionSet": set }))
    }

    fn detach_disks(&mut self, body: &Value) -> Value {
        let ids = strings(&body["DiskIds"]);
        if ids.iter().any(|id| !self.disks.iter().any(|d| d.id == *id)) {
            return error("InvalidDiskId.NotFound", "the disk does not exist");
        }
        if self
            .disks
            .iter()
            .any(|d| ids.contains(&d.id) && d.state != "ATTACHED")
        {
            return error(
                "UnsupportedOperation.StateError",
                "the disk is not attached",
            );
        }
        for d in self.disks.iter_mut().filter(|d| ids.contains(&d.id)) {
            d.state = "DETACHING".into();
            self.settling.insert(d.id.clone(), 1);
        }
        ok(json!({}))
    }

    fn terminate_disks(&mut self, body: &Value) -> Value {
        let ids = strings(&body["DiskIds"]);
        if ids.iter().any(|id| !self.disks.iter().any(|d| d.id == *id)) {
            return error("InvalidDiskId.NotFound", "the disk does not exist");
        }
        if self
            .disks
            .iter()
            .any(|d| ids.contains(&d.id) && d.state != "UNATTACHED")
        {
            return error("ResourceUnavailable.Attached", "the disk is attached");
        }
        self.disks.retain(|d| !ids.contains(&d.id));
        ok(json!({}))
    }

    fn delete_snapshots(&mut self, body: &Value) -> Value {
        let ids = strings(&body["SnapshotIds"]);
        if ids
            .iter()
            .any(|id| !self.snapshots.iter().any(|s| s.id == *id))
        {
            return error("InvalidSnapshotId.NotFound", "the snapshot does not exist");
        }
        let bound = self
            .images
            .iter()
            .any(|i| i.snapshots.iter().any(|s| ids.contains(s)));
        if bound && body["DeleteBindImages"] != true {
            return error(
                "UnsupportedOperation.SnapshotHasBindedImage",
                "the snapshot has a custom image made from it",
            );
        }
        self.snapshots.retain(|s| !ids.contains(&s.id));
        ok(json!({}))
    }

    fn describe_images(&mut self, body: &Value) -> Value {
        let ids = strings(&body["ImageIds"]);
        let types = body["Filters"].as_array().and_then(|f| {
            f.iter()
                .find(|f| f["Name"] == "image-type")
                .map(|f| strings(&f["Values"]))
        });
        if !ids.is_empty() && body.get("Filters").is_some() {
            return error(
                "InvalidParameter.InvalidParameterCoexistImageIdsFilters",
                "ImageIds and Filters together",
            );
        }
        let all: Vec<Value> = self
            .images
            .iter()
            .filter(|i| ids.is_empty() || ids.contains(&i.id))
            .filter(|_| {
                types
                    .as_ref()
                    .is_none_or(|t| t.iter().any(|t| t == "PRIVATE_IMAGE"))
            })
            .map(|i| {
                let snaps: Vec<Value> = i
                    .snapshots
                    .iter()
                    .map(|s| json!({"SnapshotId": s, "DiskUsage": "SYSTEM_DISK", "DiskSize": 50}))
                    .collect();
                json!({"ImageId": i.id, "ImageName": "train-image", "ImageType": "PRIVATE_IMAGE",
                       "ImageState": "NORMAL", "ImageSize": 50, "OsName": "Ubuntu 22.04",
                       "CreatedTime": "2026-01-02T05:00:00Z", "Platform": "Ubuntu",
                       "ImageSource": "CREATE_IMAGE", "SnapshotSet": snaps})
            })
            .map(|i| self.tagged(i, "ImageId", Shape::Cbs))
            .collect();
        let (total, set) = self.page("DescribeImages", body, all);
        ok(json!({"TotalCount": total, "ImageSet": set}))
    }

    fn delete_images(&mut self, body: &Value) -> Value {
        let ids = strings(&body["ImageIds"]);
        if ids
            .iter()
            .any(|id| !self.images.iter().any(|i| i.id == *id))
        {
            return error("InvalidImageId.NotFound", "the image does not exist");
        }
        if self
            .images
            .iter()
            .any(|i| ids.contains(&i.id) && !i.shared.is_empty())
        {
            return error("InvalidImageId.InShared", "the image is shared");
        }
        self.images.retain(|i| !ids.contains(&i.id));
        ok(json!({}))
    }

    fn disassociate(&mut self, body: &Value) -> Value {
        let id = body["AddressId"].as_str().unwrap_or_default().to_string();
        let Some(a) = self.addresses.iter_mut().find(|a| a.id == id) else {
            return error("InvalidAddressId.NotFound", "the EIP does not exist");
        };
        if !a.bound {
            return error("InvalidAddressState", "the EIP is not bound");
        }
        a.bound = false;
        self.settling.insert(id, 1);
        ok(json!({"TaskId": "task-disassociate"}))
    }

    fn release_addresses(&mut self, body: &Value) -> Value {
        let ids = strings(&body["AddressIds"]);
        if ids
            .iter()
            .any(|id| !self.addresses.iter().any(|a| a.id == *id))
        {
            return error("InvalidAddressId.NotFound", "the EIP does not exist");
        }
        if self
            .addresses
            .iter()
            .any(|a| ids.contains(&a.id) && (a.bound || self.settling.contains_key(&a.id)))
        {
            return error("InvalidAddressState", "the EIP is bound");
        }
        self.addresses.retain(|a| !ids.contains(&a.id));
        ok(json!({"TaskId": "task-release"}))
    }
}

/// Every region, as CVM's DescribeRegions lists them (not paged).
fn describe_regions() -> Value {
    let set: Vec<Value> = super::REGIONS
        .iter()
        .map(|r| json!({"Region": r, "RegionName": r, "RegionState": "AVAILABLE"}))
        .collect();
    ok(json!({"TotalCount": set.len(), "RegionSet": set}))
}
