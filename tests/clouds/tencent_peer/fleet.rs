//! A fleet beside the main instance, for account listings: GPU instances of a type the bundled
//! ap-guangzhou sheet prices (every 4th stopped), each with a system disk that goes with it, one
//! instance without a GPU (no `GPUInfo`) with its own system disk, and unattached data disks.
//! Instance n and orphan n are tagged `team=vision` when n is even, `team=nlp` when odd.

use serde_json::{Value, json};

use super::cloud::Cloud;
use super::tags::Shape;

/// A GPU type the bundled ap-guangzhou sheet prices (one T4).
pub const FLEET_TYPE: &str = "GN7.5XLARGE80";
/// A type without a GPU: an account listing of GPU instances leaves it out.
pub const CPU_TYPE: &str = "S5.LARGE8";
pub const FLEET_DISK_GIB: u64 = 100;
pub const ORPHAN_GIB: u64 = 200;

#[derive(Debug, Clone)]
pub struct FleetInstance {
    pub id: String,
    /// `RUNNING` or `STOPPED`.
    pub state: &'static str,
    pub instance_type: &'static str,
    pub gpus: u32,
    pub system_disk: String,
    pub team: &'static str,
}

/// A fleet disk as CBS lists it: a system disk attached to its instance, or an orphan.
#[derive(Debug, Clone)]
pub struct FleetDisk {
    pub id: String,
    /// Empty when attached to nothing (`UNATTACHED`).
    pub instance: String,
    pub size: u64,
    /// `SYSTEM_DISK` or `DATA_DISK`.
    pub usage: &'static str,
}

/// The tag value of fleet item `n`.
pub fn team(n: usize) -> &'static str {
    if n.is_multiple_of(2) { "vision" } else { "nlp" }
}

/// Fleet item `n` of a kind: `prefix` and a four-digit number.
pub fn fleet_id(prefix: &str, n: usize) -> String {
    format!("{prefix}{n:04}")
}

fn filter_values(body: &Value, name: &str) -> Option<Vec<String>> {
    let f = body["Filters"]
        .as_array()?
        .iter()
        .find(|f| f["Name"] == name)?;
    Some(
        f["Values"]
            .as_array()?
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
    )
}

fn ids(body: &Value, key: &str) -> Vec<String> {
    body[key]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect()
}

impl Cloud {
    /// Adds `instances` GPU instances, the instance without a GPU, and `orphans` unattached data
    /// disks (see the module).
    pub fn add_fleet(&mut self, instances: usize, orphans: usize) {
        let mut add = |id: String, instance_type, gpus, state, team: &'static str| {
            let disk = id.replace("ins-", "disk-");
            self.fleet_disks.push(FleetDisk {
                id: disk.clone(),
                instance: id.clone(),
                size: FLEET_DISK_GIB,
                usage: "SYSTEM_DISK",
            });
            if !team.is_empty() {
                self.tags
                    .insert(id.clone(), vec![("team".into(), team.into())]);
            }
            self.fleet.push(FleetInstance {
                id,
                state,
                instance_type,
                gpus,
                system_disk: disk,
                team,
            });
        };
        for n in 1..=instances {
            let state = if n.is_multiple_of(4) {
                "STOPPED"
            } else {
                "RUNNING"
            };
            add(fleet_id("ins-fleet", n), FLEET_TYPE, 1, state, team(n));
        }
        add(fleet_id("ins-cpu", 1), CPU_TYPE, 0, "RUNNING", "");
        for n in 1..=orphans {
            let id = fleet_id("disk-orphan", n);
            self.tags
                .insert(id.clone(), vec![("team".into(), team(n).into())]);
            self.fleet_disks.push(FleetDisk {
                id,
                instance: String::new(),
                size: ORPHAN_GIB,
                usage: "DATA_DISK",
            });
        }
    }

    /// The fleet instances DescribeInstances lists for `body`, in the reply's shape.
    pub(super) fn fleet_listed(&self, body: &Value) -> Vec<Value> {
        let wanted = ids(body, "InstanceIds");
        let states = filter_values(body, "instance-state");
        self.fleet
            .iter()
            .filter(|i| wanted.is_empty() || wanted.contains(&i.id))
            .filter(|i| {
                states
                    .as_ref()
                    .is_none_or(|s| s.iter().any(|s| s == i.state))
            })
            .map(|i| {
                let mut item = json!({
                    "InstanceId": i.id, "InstanceName": format!("fleet-{}", i.id),
                    "InstanceType": i.instance_type, "InstanceState": i.state,
                    "InstanceChargeType": "POSTPAID_BY_HOUR",
                    "CreatedTime": "2026-01-01T03:04:05Z", "ExpiredTime": null,
                    "SystemDisk": {"DiskType": "CLOUD_PREMIUM", "DiskId": i.system_disk,
                                   "DiskSize": FLEET_DISK_GIB},
                    "DataDisks": [], "PublicIpAddresses": [],
                    "StopChargingMode": if i.state == "STOPPED" { "KEEP_CHARGING" } else {
                        "NOT_APPLICABLE"
                    }
                });
                if i.gpus > 0 {
                    item["GPUInfo"] = json!({"GPUCount": i.gpus, "GPUType": "T4"});
                }
                self.tagged(item, "InstanceId", Shape::Cbs)
            })
            .collect()
    }

    /// The fleet disks CBS DescribeDisks lists for `body`, in the reply's shape.
    pub(super) fn fleet_disks_listed(&self, body: &Value) -> Vec<Value> {
        let wanted = ids(body, "DiskIds");
        let states = filter_values(body, "disk-state");
        let on = filter_values(body, "instance-id");
        self.fleet_disks
            .iter()
            .filter(|d| wanted.is_empty() || wanted.contains(&d.id))
            .filter(|d| on.as_ref().is_none_or(|on| on.contains(&d.instance)))
            .map(|d| {
                let state = if d.instance.is_empty() {
                    "UNATTACHED"
                } else {
                    "ATTACHED"
                };
                (d, state)
            })
            .filter(|(_, state)| states.as_ref().is_none_or(|s| s.iter().any(|s| s == state)))
            .map(|(d, state)| {
                let item = json!({
                    "DiskId": d.id, "DiskType": "CLOUD_PREMIUM", "DiskSize": d.size,
                    "DiskState": state, "InstanceId": d.instance, "Attached": state == "ATTACHED",
                    "Encrypt": false, "CreateTime": "2026-01-01 03:04:05",
                    "DiskUsage": d.usage, "DeleteWithInstance": d.usage == "SYSTEM_DISK"
                });
                self.tagged(item, "DiskId", Shape::Cbs)
            })
            .collect()
    }
}
