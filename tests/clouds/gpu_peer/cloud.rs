//! The in-memory cloud behind the peer: one instance, the account's others ([`super::fleet`])
//! and some account storage, answered in each provider's documented JSON shape.

use serde_json::{Value, json};

use super::Request;
use super::fleet::{self, Member};

pub const LAMBDA_ID: &str = "0920582c7ff041399e34823a0be62549";
pub const POD_ID: &str = "pod7xq2kzq";
pub const VAST_ID: &str = "4242";
/// The account's other Vast instances (its first [`Cloud::fleet`]), listed before [`VAST_ID`].
const VAST_OTHERS: [u64; 5] = [4230, 4231, 4232, 4233, 4234];
/// Rows on one page of the Vast instance list.
const VAST_PAGE: usize = 2;

/// The value of `name` in a query string, as sent (the peer's tokens need no decoding).
fn query_value(query: &str, name: &str) -> Option<String> {
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == name).then(|| v.to_string())
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Lambda,
    Runpod,
    Vast,
}

pub struct Storage {
    pub id: String,
    pub name: String,
    pub in_use: bool,
}

pub struct Cloud {
    pub kind: Kind,
    /// The instance's status in the provider's words; `None` once it is gone.
    pub status: Option<String>,
    pub storage: Vec<Storage>,
    /// Reads of the instance that still show it on its way after a start (RunPod `STARTING`,
    /// Vast `scheduling`) before it is running; `usize::MAX`: it never gets there.
    pub starting_reads: usize,
    /// The account's other instances, listed after the main one.
    pub fleet: Vec<Member>,
}

pub fn error(kind: Kind, status: u16, message: &str) -> String {
    match kind {
        Kind::Lambda => json!({"error": {"code": "global/unknown", "message": message}}),
        Kind::Runpod => json!({"title": "Error", "status": status, "detail": message}),
        Kind::Vast => json!({"success": false, "error": "error", "msg": message}),
    }
    .to_string()
}

impl Cloud {
    pub fn fresh(kind: Kind) -> Cloud {
        let (status, storage) = match kind {
            Kind::Lambda => (
                "active",
                vec![
                    Storage {
                        id: "fs-weights".into(),
                        name: "weights".into(),
                        in_use: true,
                    },
                    Storage {
                        id: "fs-old".into(),
                        name: "old-runs".into(),
                        in_use: false,
                    },
                ],
            ),
            Kind::Runpod => (
                "RUNNING",
                vec![Storage {
                    id: "nv-data".into(),
                    name: "datasets".into(),
                    in_use: true,
                }],
            ),
            Kind::Vast => ("running", Vec::new()),
        };
        let fleet = match kind {
            Kind::Vast => VAST_OTHERS
                .iter()
                .map(|id| Member::new(&id.to_string(), "running", 1, 30))
                .collect(),
            _ => Vec::new(),
        };
        Cloud {
            kind,
            status: Some(status.into()),
            storage,
            starting_reads: 1,
            fleet,
        }
    }

    pub fn answer(&mut self, r: &Request) -> (u16, String) {
        match self.kind {
            Kind::Lambda => self.lambda(r),
            Kind::Runpod => self.runpod(r),
            Kind::Vast => self.vast(r),
        }
    }

    fn lambda_instance(&self) -> Option<Value> {
        self.status.as_ref().map(|s| lambda_row(LAMBDA_ID, s))
    }

    fn lambda(&mut self, r: &Request) -> (u16, String) {
        let gone = || (404, error(Kind::Lambda, 404, "Instance not found"));
        let path = r.path.trim_start_matches("/api/v1");
        match (r.method.as_str(), path) {
            ("GET", "/instances") => {
                let fleet = self.fleet.iter().map(fleet::lambda_row);
                let data: Vec<Value> = self.lambda_instance().into_iter().chain(fleet).collect();
                (200, json!({ "data": data }).to_string())
            }
            ("GET", p) if p == format!("/instances/{LAMBDA_ID}") => {
                let Some(inst) = self.lambda_instance() else {
                    return gone();
                };
                // Terminating is seen once, then the instance is terminated.
                if self.status.as_deref() == Some("terminating") {
                    self.status = Some("terminated".into());
                }
                (200, json!({ "data": inst }).to_string())
            }
            ("GET", p) if p.starts_with("/instances/") => gone(),
            ("POST", "/instance-operations/terminate") => {
                let asked: Value = serde_json::from_str(&r.text()).unwrap_or_default();
                let ids = asked["instance_ids"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                if ids.iter().any(|i| i == LAMBDA_ID) && self.status.is_some() {
                    let inst = self.lambda_instance();
                    self.status = Some("terminating".into());
                    (
                        200,
                        json!({"data": {"terminated_instances": [inst]}}).to_string(),
                    )
                } else {
                    (404, error(Kind::Lambda, 404, "Instance not found"))
                }
            }
            ("GET", "/file-systems") => {
                let data: Vec<Value> = self.storage.iter().map(|s| json!({
                    "id": s.id, "name": s.name, "created": "2026-11-20T08:00:00Z",
                    "created_by": {"id": "u1", "email": "me@example.com", "status": "active"},
                    "mount_point": format!("/home/ubuntu/{}", s.name),
                    "region": {"name": "us-west-1", "description": "California, USA"},
                    "is_in_use": s.in_use, "bytes_used": 107_374_182_400_u64
                })).collect();
                (200, json!({ "data": data }).to_string())
            }
            ("DELETE", p) if p.starts_with("/filesystems/") => {
                let id = p.trim_start_matches("/filesystems/");
                match self.storage.iter().position(|s| s.id == id) {
                    Some(i) if self.storage[i].in_use => (
                        400,
                        json!({"error": {
                        "code": "filesystems/filesystem-in-use",
                        "message": "File system is in use"}})
                        .to_string(),
                    ),
                    Some(i) => {
                        self.storage.remove(i);
                        (200, json!({"data": {"deleted_ids": [id]}}).to_string())
                    }
                    None => (404, error(Kind::Lambda, 404, "File system not found")),
                }
            }
            _ => (404, error(Kind::Lambda, 404, "no such route")),
        }
    }

    /// One read of the instance after a start: on its way (`on_way`) for `starting_reads`
    /// reads, then `running`.
    fn read_starting(&mut self, on_way: &str, running: &str) {
        if self.status.as_deref() == Some(on_way) {
            if self.starting_reads == 0 {
                self.status = Some(running.into());
            } else {
                self.starting_reads = self.starting_reads.saturating_sub(1);
            }
        }
    }

    fn pod(&self) -> Option<Value> {
        self.status.as_ref().map(|s| pod_row(POD_ID, s))
    }

    fn runpod(&mut self, r: &Request) -> (u16, String) {
        let pod_path = format!("/v2/pods/{POD_ID}");
        let gone = (404, error(Kind::Runpod, 404, "pod not found"));
        match (r.method.as_str(), r.path.as_str()) {
            ("GET", p) if p == pod_path => {
                self.read_starting("STARTING", "RUNNING");
                self.pod().map_or(gone, |p| (200, p.to_string()))
            }
            ("GET", "/v2/pods") => {
                let fleet = self.fleet.iter().map(fleet::runpod_row);
                let pods: Vec<Value> = self.pod().into_iter().chain(fleet).collect();
                (200, json!({ "pods": pods }).to_string())
            }
            ("POST", p) if p == format!("{pod_path}/action") => {
                let asked: Value = serde_json::from_str(&r.text()).unwrap_or_default();
                match (asked["action"].as_str(), self.status.as_deref()) {
                    (_, None) => gone,
                    (Some("stop"), Some("RUNNING")) => {
                        self.status = Some("EXITED".into());
                        (200, self.pod().unwrap_or_default().to_string())
                    }
                    // `podAction` `start`: "boot a stopped pod (`EXITED` or `ERROR`) back toward
                    // `RUNNING`", 200 with the updated pod; 409 from any other status.
                    (Some("start"), Some("EXITED" | "ERROR")) => {
                        self.status = Some("STARTING".into());
                        (200, self.pod().unwrap_or_default().to_string())
                    }
                    // Any other status: "not valid for the pod's current status returns `409`".
                    (Some("stop" | "start"), _) => {
                        (409, error(Kind::Runpod, 409, "invalid for status"))
                    }
                    (Some("terminate"), _) => {
                        self.status = None;
                        (204, String::new())
                    }
                    _ => (400, error(Kind::Runpod, 400, "unknown action")),
                }
            }
            ("GET", "/v2/network-volumes") => {
                let list: Vec<Value> = self
                    .storage
                    .iter()
                    .map(|s| {
                        json!({
                    "id": s.id, "name": s.name, "size": 200, "dataCenter": "EU-RO-1",
                    "type": "STANDARD"})
                    })
                    .collect();
                (200, json!({ "networkVolumes": list }).to_string())
            }
            // `deleteNetworkVolume`: 204 with no body; an unknown id is the reference's 404
            // `NotFoundError`. A volume a pod still mounts is refused with 400, the status the
            // reference gives for a template "in use by a pod" and for a request that
            // "conflicts with request rules" (`BadRequestError`), in its `ErrorResponse` shape.
            ("DELETE", p) if p.starts_with("/v2/network-volumes/") => {
                let id = p.trim_start_matches("/v2/network-volumes/");
                match self.storage.iter().position(|s| s.id == id) {
                    Some(i) if self.storage[i].in_use && self.status.is_some() => (
                        400,
                        json!({"title": "Bad Request", "status": 400,
                            "detail": format!("network volume {id} is in use by pod {POD_ID} and cannot be deleted")})
                        .to_string(),
                    ),
                    Some(i) => {
                        self.storage.remove(i);
                        (204, String::new())
                    }
                    None => (404, error(Kind::Runpod, 404, "network volume not found")),
                }
            }
            _ => (404, error(Kind::Runpod, 404, "no such route")),
        }
    }

    fn vast_instance(&self) -> Option<Value> {
        self.status.as_ref().map(|s| vast_row(4242, s))
    }

    /// `vastai` (PyPI, 1.9.1) `show_instances`: `GET /api/v1/instances/`, rows under
    /// `instances`, the next page's `after_token` in `next_token`. The peer answers
    /// [`VAST_PAGE`] rows a page, fewer than the CLI's `limit`, as a server may: the account has
    /// other instances before this one, so the list takes three pages.
    fn vast_list(&self, r: &Request) -> (u16, String) {
        let mut rows: Vec<Value> = self.fleet.iter().map(fleet::vast_row).collect();
        rows.extend(self.vast_instance());
        let start: usize = query_value(&r.query, "after_token")
            .and_then(|t| t.parse().ok())
            .unwrap_or(0);
        let end = (start + VAST_PAGE).min(rows.len());
        let next = (end < rows.len()).then(|| end.to_string());
        let page = rows.get(start..end).unwrap_or_default();
        (
            200,
            json!({"instances": page, "next_token": next, "total_instances": rows.len()})
                .to_string(),
        )
    }

    fn vast(&mut self, r: &Request) -> (u16, String) {
        let path = format!("/api/v0/instances/{VAST_ID}/");
        let ok = json!({"success": true}).to_string();
        match (r.method.as_str(), r.path.as_str()) {
            // `show_instance`: GET /instances/{id}/?owner=me, the row (or null) under `instances`.
            ("GET", p) if p == path && r.query.contains("owner=me") => {
                self.read_starting("scheduling", "running");
                (
                    200,
                    json!({ "instances": self.vast_instance() }).to_string(),
                )
            }
            ("GET", "/api/v1/instances/") => self.vast_list(r),
            // `stop_instance`: PUT /instances/{id}/ {"state": "stopped"}; `start_instance`
            // (`vastai` 1.9.1, vastai/api/instances.py): the same with {"state": "running"},
            // answered {"success": true}. The instance is `scheduling` until the host has the
            // resources free (`vastai start instance`'s help), then `running`.
            ("PUT", p) if p == path => {
                let asked: Value = serde_json::from_str(&r.text()).unwrap_or_default();
                match (asked["state"].as_str(), self.status.is_some()) {
                    (Some("stopped"), true) => {
                        self.status = Some("stopped".into());
                        (200, ok)
                    }
                    (Some("running"), true) => {
                        if self.status.as_deref() == Some("stopped") {
                            self.status = Some("scheduling".into());
                        }
                        (200, ok)
                    }
                    _ => (
                        200,
                        json!({"success": false, "msg": "no such instance"}).to_string(),
                    ),
                }
            }
            // `destroy_instance`: DELETE /instances/{id}/.
            ("DELETE", p) if p == path => {
                self.status = None;
                (200, ok)
            }
            // `show_volumes`: GET /volumes?owner=me&type=all_volume, rows under `volumes`.
            ("GET", "/api/v0/volumes") if r.query.contains("owner=me") => {
                let list: Vec<Value> = self
                    .storage
                    .iter()
                    .map(|s| {
                        let main = (s.in_use && self.status.is_some()).then_some(4242);
                        let fleet = self
                            .fleet
                            .iter()
                            .filter(|m| m.mounts.as_ref() == Some(&s.id));
                        let used: Vec<u64> = main
                            .into_iter()
                            .chain(fleet.filter_map(|m| m.id.parse().ok()))
                            .collect();
                        json!({
                            "id": s.id.parse::<u64>().unwrap_or_default(), "label": s.name,
                            "cluster_id": null, "disk_space": 64.0, "status": "running",
                            "disk_name": "nvme0n1", "machine_id": 977, "host_id": 51,
                            "start_date": 1_764_400_000.5, "storage_cost": 0.15,
                            "instances": used
                        })
                    })
                    .collect();
                (200, json!({ "volumes": list }).to_string())
            }
            // `delete_volume`: DELETE /volumes/?id=N with an empty JSON body. The package says
            // every instance using the volume must be destroyed first: the peer refuses one the
            // instance uses, in Vast's error shape.
            ("DELETE", "/api/v0/volumes/") => {
                let id = query_value(&r.query, "id").unwrap_or_default();
                match self.storage.iter().position(|s| s.id == id) {
                    Some(i) if self.storage[i].in_use && self.status.is_some() => (
                        400,
                        json!({"success": false, "error": "volume_in_use",
                            "msg": format!("volume {id} is in use by instance {VAST_ID}: destroy it first")})
                        .to_string(),
                    ),
                    Some(i) => {
                        self.storage.remove(i);
                        (200, ok)
                    }
                    None => (404, error(Kind::Vast, 404, "no such volume")),
                }
            }
            _ => (404, error(Kind::Vast, 404, "no such route")),
        }
    }
}

/// A pod in RunPod's REST v2 shape, with the main pod's GPU, disks and mounts.
pub(super) fn pod_row(id: &str, status: &str) -> Value {
    let cost = if status == "RUNNING" { 0.34 } else { 0.0 };
    let running = status == "RUNNING";
    // What `podAction` allows from each status, as the reference publishes it in `actions`.
    let actions = match status {
        "EXITED" | "ERROR" => vec!["start", "terminate"],
        _ => vec!["stop", "terminate"],
    };
    // RunPod REST v2 schema `Pod` (runpod-openapi-subset.json), every required member.
    json!({
        "id": id, "name": "train", "status": status, "actions": actions,
        "cost": cost, "gpu": {"id": "NVIDIA GeForce RTX 4090", "count": 1},
        "cloud": "COMMUNITY", "disk": 20, "image": "runpod/pytorch:2.4", "args": "",
        "ports": ["8888/http", "22/tcp"], "registry": null, "template": null,
        "cudaVersion": "12.4", "dataCenterId": "EU-RO-1", "locked": false,
        // `Mounts`: each `network` entry is a `NetworkMount` (`volumeId`, `path`). The live
        // API takes one of `persistent` or `network`; both here so one pod covers both kinds
        // of disk (the schema itself does not forbid it).
        "mounts": {"persistent": {"size": 50, "path": "/workspace"},
                   "network": [{"volumeId": "nv-data", "path": "/data"}]},
        "ssh": {"proxy": running.then(|| json!({"host": "ssh.runpod.io", "port": 22,
                    "username": "pod7xq2kzq-6441", "command": "ssh pod7xq2kzq-6441@ssh.runpod.io"})),
                "direct": null},
        "globalNetworking": {"enabled": false},
        "runtime": running.then(|| json!({"uptime": 3600, "gpus": [{"util": 97, "memoryUtil": 80}],
                    "cpu": {"util": 12}, "memory": {"util": 40}, "ports": []})),
        "createdAt": "2026-11-29T08:00:00Z",
        "startedAt": running.then_some("2026-11-29T08:01:00Z"),
        "env": {"HF_TOKEN": "not-the-key"}
    })
}

/// An instance row as `vastai show instances` reads it, with the main instance's host and GPU.
pub(super) fn vast_row(id: u64, status: &str) -> Value {
    json!({
        "id": id, "label": "train", "machine_id": 977, "actual_status": status,
        "intended_status": if status == "stopped" { "stopped" } else { "running" },
        "cur_state": status, "next_state": status,
        "start_date": 1_764_403_200.25, "end_date": 1_767_000_000.0,
        "dph_total": 0.4208, "dph_base": 0.40, "storage_cost": 0.15,
        "inet_up_cost": 0.02, "inet_down_cost": 0.005, "disk_space": 100.0,
        "num_gpus": 1, "gpu_name": "RTX 4090", "public_ipaddr": "203.0.113.9",
        "ssh_host": "ssh5.vast.ai", "ssh_port": 31337, "image_uuid": "pytorch/pytorch"
    })
}

/// An instance in Lambda Cloud API v1's shape, with the main instance's type and mounts.
pub(super) fn lambda_row(id: &str, status: &str) -> Value {
    let can = |yes: bool| json!({"available": yes});
    let active = status == "active";
    // Lambda Cloud API v1 `Instance` (lambda-api-v1-subset.json).
    json!({
        "id": id, "name": "train", "ip": "198.51.100.2", "private_ip": "10.0.2.100",
        "status": status, "hostname": "10-0-8-196.cloud.lambdalabs.com",
        "region": {"name": "us-west-1", "description": "California, USA"},
        "instance_type": {"name": "gpu_1x_a10", "description": "1x A10 (24 GB PCIe)",
            "gpu_description": "A10 (24 GB PCIe)",
            "price_cents_per_hour": 75, "specs": {"vcpus": 30, "memory_gib": 200,
            "storage_gib": 1400, "gpus": 1}},
        "ssh_key_names": ["laptop"], "file_system_names": ["weights"],
        "jupyter_token": "not-a-secret", "jupyter_url": "https://jupyter.example",
        "actions": {"migrate": can(false), "rebuild": can(active), "restart": can(active),
            "cold_reboot": can(active), "terminate": can(active)}
    })
}
