//! RunPod's pod rows (REST v2, tolerating v1 field names) and the sheet's SKU names.

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde_json::Value;

use crate::meter::InstanceState;
use crate::provider::bearer::{decimal, text};

/// A pod as `GET /v2/pods/{id}` describes it.
#[derive(Debug, Clone)]
pub struct Pod {
    pub id: String,
    pub name: String,
    pub status: String,
    pub cost: Option<Decimal>,
    pub sku: String,
    /// GPUs the pod holds: `gpu.count`, 0 for a CPU pod (one without `gpu`).
    pub gpus: u64,
    pub container_gb: Decimal,
    pub volume_gb: Decimal,
    pub network: Vec<String>,
    pub data_center: Option<String>,
    pub created: Option<Timestamp>,
}

pub fn time(v: &Value, key: &str) -> Option<Timestamp> {
    text(v, key).and_then(|t| t.parse().ok())
}

pub fn parse_pod(v: &Value) -> Option<Pod> {
    let mounts = v.get("mounts");
    let volume_gb = mounts
        .and_then(|m| m.get("persistent"))
        .and_then(|p| p.get("size"))
        .or_else(|| v.get("volumeInGb"))
        .and_then(decimal)
        .unwrap_or_default();
    let container_gb = v
        .get("disk")
        .and_then(|d| decimal(d).or_else(|| d.get("size").and_then(decimal)))
        .or_else(|| v.get("containerDiskInGb").and_then(decimal))
        .unwrap_or_default();
    let mut network: Vec<String> = mounts
        .and_then(|m| m.get("network"))
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                // The REST API's `NetworkMount` is `{volumeId, path}`.
                .filter_map(|n| text(n, "volumeId").or_else(|| text(n, "networkVolumeId")))
                .collect()
        })
        .unwrap_or_default();
    network.extend(text(v, "networkVolumeId"));
    let gpu = v.get("gpu").filter(|g| g.is_object());
    // `GpuConfig.count` defaults to 1 where the pod has a `gpu`; v1 rows say `gpuCount`.
    let gpus = match (gpu, v.get("gpuCount").and_then(Value::as_u64)) {
        (Some(g), _) => g.get("count").and_then(Value::as_u64).unwrap_or(1),
        (None, count) => count.unwrap_or(0),
    };
    let gpu_id = gpu.and_then(|g| text(g, "id")).unwrap_or_default();
    Some(Pod {
        id: text(v, "id")?,
        name: text(v, "name").unwrap_or_default(),
        status: text(v, "status").or_else(|| text(v, "desiredStatus"))?,
        cost: v.get("cost").and_then(decimal),
        sku: sku_for(&gpu_id, text(v, "cloud").as_deref(), gpus.max(1)),
        gpus,
        container_gb,
        volume_gb,
        network,
        data_center: text(v, "dataCenterId"),
        created: time(v, "createdAt"),
    })
}

/// The `runpod` sheet's SKU name for one GPU (`h100-sxm-secure`); several GPUs, or a GPU the
/// sheet does not list, keep RunPod's own words, and the live cost prices them.
pub fn sku_for(gpu_id: &str, cloud: Option<&str>, count: u64) -> String {
    const MODELS: [(&str, &str); 16] = [
        ("h100 nvl", "h100-nvl"),
        ("h100 pcie", "h100-pcie"),
        ("h100", "h100-sxm"),
        ("h200", "h200-sxm"),
        ("a100-sxm", "a100-sxm"),
        ("a100 sxm", "a100-sxm"),
        ("a100", "a100-pcie"),
        ("l40s", "l40s"),
        ("l40", "l40"),
        ("rtx 6000 ada", "rtx-6000-ada"),
        ("rtx a6000", "rtx-a6000"),
        ("rtx 5090", "rtx-5090"),
        ("rtx 4090", "rtx-4090"),
        ("rtx 3090", "rtx-3090"),
        ("l4", "l4"),
        ("b200", "b200"),
    ];
    let lower = gpu_id.to_ascii_lowercase();
    let model = MODELS.iter().find(|(needle, _)| lower.contains(needle));
    let cloud = match cloud.map(str::to_ascii_uppercase).as_deref() {
        Some("COMMUNITY") => "community",
        _ => "secure",
    };
    match model {
        Some((_, slug)) if count == 1 => format!("{slug}-{cloud}"),
        _ => format!("{count}x {gpu_id}").trim().to_string(),
    }
}

pub fn state_of(status: &str) -> InstanceState {
    match status {
        "EXITED" => InstanceState::Stopped,
        "TERMINATED" => InstanceState::Released,
        _ => InstanceState::Running,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_gpu_pods_map_to_the_sheets_names() {
        assert_eq!(
            sku_for("NVIDIA H100 80GB HBM3", Some("SECURE"), 1),
            "h100-sxm-secure"
        );
        assert_eq!(
            sku_for("NVIDIA GeForce RTX 4090", Some("COMMUNITY"), 1),
            "rtx-4090-community"
        );
        assert_eq!(sku_for("NVIDIA H100 NVL", None, 1), "h100-nvl-secure");
        assert_eq!(
            sku_for("NVIDIA H100 80GB HBM3", None, 2),
            "2x NVIDIA H100 80GB HBM3"
        );
        assert_eq!(sku_for("AMD MI300X", None, 1), "1x AMD MI300X");
    }

    #[test]
    fn a_pod_without_a_gpu_holds_none() {
        let gpus = |v: serde_json::Value| parse_pod(&v).unwrap().gpus;
        let pod = |more: serde_json::Value| {
            let mut v = serde_json::json!({"id": "p1", "status": "RUNNING"});
            v.as_object_mut()
                .unwrap()
                .extend(more.as_object().unwrap().clone());
            v
        };
        assert_eq!(gpus(pod(serde_json::json!({"cpu": {"id": "cpu3c"}}))), 0);
        assert_eq!(gpus(pod(serde_json::json!({"gpu": null}))), 0);
        assert_eq!(gpus(pod(serde_json::json!({"gpuCount": 0}))), 0);
        assert_eq!(gpus(pod(serde_json::json!({"gpuCount": 2}))), 2);
        assert_eq!(
            gpus(pod(serde_json::json!({"gpu": {"id": "NVIDIA L4"}}))),
            1
        );
        assert_eq!(
            gpus(pod(serde_json::json!({"gpu": {"id": "x", "count": 4}}))),
            4
        );
    }

    #[test]
    fn a_network_mount_names_its_volume_by_volume_id() {
        let pod = parse_pod(&serde_json::json!({
            "id": "p1", "status": "RUNNING",
            "mounts": {"network": [{"volumeId": "vol_xyz", "path": "/runpod-volume"}]}
        }))
        .unwrap();
        assert_eq!(pod.network, ["vol_xyz"]);
    }
}
