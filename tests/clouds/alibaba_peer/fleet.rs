//! A fleet beside the main instance, for account listings: GPU instances of a type the bundled
//! cn-hangzhou sheet prices (every 4th stopped), each with a system disk that goes with it, one
//! instance without a GPU with its own system disk, and unattached data disks. Instance n and
//! orphan n are tagged `team=vision` when n is even, `team=nlp` when odd.

use serde_json::{Value, json};

use super::cloud::{Cloud, Disk, Params, REGION, extra_id, ids};
use super::tags::Shape;

/// A GPU type the bundled cn-hangzhou sheet prices (one A10).
pub const FLEET_TYPE: &str = "ecs.gn7i-c16g1.4xlarge";
/// A type without a GPU: an account listing of GPU instances leaves it out.
pub const CPU_TYPE: &str = "ecs.g7.2xlarge";
pub const FLEET_DISK_GIB: u64 = 100;
pub const ORPHAN_GIB: u64 = 200;

#[derive(Debug, Clone)]
pub struct FleetInstance {
    pub id: String,
    pub status: &'static str,
    pub instance_type: &'static str,
    pub gpus: u32,
    pub system_disk: String,
    pub team: &'static str,
}

/// The tag value of fleet item `n`.
pub fn team(n: usize) -> &'static str {
    if n.is_multiple_of(2) { "vision" } else { "nlp" }
}

fn system_disk(id: &str, instance: &str) -> Disk {
    Disk {
        id: id.into(),
        instance: instance.into(),
        kind: "system",
        size: FLEET_DISK_GIB,
        status: "In_use".into(),
        with_instance: true,
        encrypted: false,
        detaching_reads: 0,
    }
}

impl Cloud {
    /// Adds `instances` GPU instances, the instance without a GPU, and `orphans` unattached data
    /// disks (see the module).
    pub fn add_fleet(&mut self, instances: usize, orphans: usize) {
        for n in 1..=instances {
            let id = extra_id("i-bp1fleet", n);
            let disk = extra_id("d-bp1fleetsys", n);
            self.disks.push(system_disk(&disk, &id));
            self.tags
                .insert(id.clone(), vec![("team".into(), team(n).into())]);
            self.fleet.push(FleetInstance {
                id,
                status: if n.is_multiple_of(4) {
                    "Stopped"
                } else {
                    "Running"
                },
                instance_type: FLEET_TYPE,
                gpus: 1,
                system_disk: disk,
                team: team(n),
            });
        }
        let cpu = extra_id("i-bp1cpu", 1);
        let disk = extra_id("d-bp1cpusys", 1);
        self.disks.push(system_disk(&disk, &cpu));
        self.fleet.push(FleetInstance {
            id: cpu,
            status: "Running",
            instance_type: CPU_TYPE,
            gpus: 0,
            system_disk: disk,
            team: "",
        });
        for n in 1..=orphans {
            let id = extra_id("d-bp1orphan", n);
            self.tags
                .insert(id.clone(), vec![("team".into(), team(n).into())]);
            self.disks.push(Disk {
                id,
                instance: String::new(),
                kind: "data",
                size: ORPHAN_GIB,
                status: "Available".into(),
                with_instance: false,
                encrypted: false,
                detaching_reads: 0,
            });
        }
    }

    /// The fleet instances DescribeInstances lists for `p`, in the reply's shape.
    pub(super) fn fleet_listed(&self, p: &Params) -> Vec<Value> {
        let wanted = ids(p, "InstanceIds");
        self.fleet
            .iter()
            .filter(|i| wanted.as_ref().is_none_or(|w| w.contains(&i.id)))
            .filter(|i| p.get("Status").is_none_or(|s| s == i.status))
            .map(|i| {
                let stopped_mode = if i.status == "Stopped" {
                    "KeepCharging"
                } else {
                    "Not-applicable"
                };
                let item = json!({
                    "InstanceId": i.id, "InstanceName": format!("fleet-{}", i.id),
                    "Status": i.status, "InstanceType": i.instance_type,
                    "InstanceChargeType": "PostPaid", "SpotStrategy": "NoSpot",
                    "StoppedMode": stopped_mode, "CreationTime": "2026-11-28T08:00Z",
                    "AutoReleaseTime": "", "RegionId": REGION, "ZoneId": "cn-hangzhou-i",
                    "GPUAmount": i.gpus, "GPUSpec": if i.gpus > 0 { "NVIDIA A10" } else { "" },
                    "OperationLocks": {"LockReason": []}
                });
                self.tagged(item, "InstanceId", Shape::Ecs)
            })
            .collect()
    }
}
