//! The account's other instances beside the main one, for account listings: each a row in the
//! provider's documented shape, made from the main instance's row with its own id, status,
//! GPUs, price and storage.

use serde_json::{Value, json};

use super::cloud::{lambda_row as lambda_row_of, pod_row, vast_row as vast_row_of};

#[derive(Debug, Clone)]
pub struct Member {
    pub id: String,
    /// In the provider's words (`RUNNING`, `EXITED`; `running`, `stopped`; `active`).
    pub status: String,
    /// 0: a CPU-only pod (RunPod), a row or instance type that says it holds no GPU.
    pub gpus: u64,
    /// The live price per hour the row carries, in cents (RunPod: while it runs).
    pub cents_per_hour: u32,
    /// What it mounts: a RunPod network volume id, a Vast volume id, a Lambda file system name.
    pub mounts: Option<String>,
}

impl Member {
    pub fn new(id: &str, status: &str, gpus: u64, cents_per_hour: u32) -> Member {
        Member {
            id: id.into(),
            status: status.into(),
            gpus,
            cents_per_hour,
            mounts: None,
        }
    }

    #[must_use]
    pub fn mounting(mut self, storage: &str) -> Member {
        self.mounts = Some(storage.into());
        self
    }

    fn dollars(&self) -> f64 {
        f64::from(self.cents_per_hour) / 100.0
    }
}

/// A RunPod `Pod`: H100s, or a CPU pod's `cpu` (`CpuConfig`) and no `gpu`; a network volume
/// mounted where the member has one, else a persistent volume disk. `cost` reads 0 stopped.
pub fn runpod_row(m: &Member) -> Value {
    let mut row = pod_row(&m.id, &m.status);
    row["name"] = json!(format!("fleet-{}", m.id));
    row["cost"] = json!(if m.status == "RUNNING" {
        m.dollars()
    } else {
        0.0
    });
    if m.gpus == 0 {
        if let Some(o) = row.as_object_mut() {
            o.remove("gpu");
        }
        row["cpu"] = json!({"id": "cpu3c", "vcpuCount": 4, "memory": 16});
    } else {
        row["gpu"] = json!({"id": "NVIDIA H100 80GB HBM3", "count": m.gpus});
    }
    row["mounts"] = match &m.mounts {
        Some(v) => json!({"network": [{"volumeId": v, "path": "/data"}]}),
        None => json!({"persistent": {"size": 40, "path": "/workspace"}}),
    };
    row
}

/// A Vast instance row: H100s at the member's `dph_base`, `dph_total` with the host's storage
/// share on top (0.15 a GB-month for 100 GB), the same
/// rates whatever its state.
pub fn vast_row(m: &Member) -> Value {
    let id: u64 = m.id.parse().unwrap_or_default();
    let mut row = vast_row_of(id, &m.status);
    row["label"] = json!(format!("fleet-{}", m.id));
    row["num_gpus"] = json!(m.gpus);
    row["gpu_name"] = json!("H100 SXM");
    row["dph_base"] = json!(m.dollars());
    row["dph_total"] = json!(m.dollars() + 0.15 * 100.0 / 720.0);
    row
}

/// A Lambda instance: `gpu_{n}x_h100_sxm5` at the member's `price_cents_per_hour`, mounting its
/// file system by name where it has one; its own name, hostname and address.
pub fn lambda_row(m: &Member) -> Value {
    let mut row = lambda_row_of(&m.id, &m.status);
    let n = m.gpus;
    row["name"] = json!(format!("fleet-{}", m.id));
    row["hostname"] = json!(format!("{}.cloud.lambdalabs.com", m.id));
    row["ip"] = json!("198.51.100.40");
    row["instance_type"] = json!({"name": format!("gpu_{n}x_h100_sxm5"),
        "description": format!("{n}x H100 (80 GB SXM5)"), "gpu_description": "H100 (80 GB SXM5)",
        "price_cents_per_hour": m.cents_per_hour,
        "specs": {"vcpus": 26 * n, "memory_gib": 225 * n, "storage_gib": 2750 * n, "gpus": n}});
    row["file_system_names"] = json!(m.mounts.iter().collect::<Vec<_>>());
    row
}
