//! The rows AutoDL's listings answer, as the documentation shows them: a Pro instance
//! (https://www.autodl.com/docs/instance_pro_api/, 获取实例列表) and a private image
//! (https://www.autodl.com/docs/esd_api_doc/, 获取镜像).
//!
//! The documentation shows `running` as a status and no other: `shutdown` (and `stopped`) for a
//! shut-down instance and `released` for a gone one come from community clients. Any other word
//! (`starting`, `shutting_down`, ...) is read as running: it may bill, and nothing here
//! assumes it does not.

use jiff::Timestamp;
use serde_json::Value;

use crate::meter::InstanceState;
use crate::provider::bearer::text;

/// A Pro instance as `POST /api/v1/dev/instance/pro/list` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub id: String,
    pub name: String,
    pub status: String,
    pub region: Option<String>,
    /// 算力规格ID (`pro6000-p`).
    pub spec: String,
    pub gpus: u64,
    /// `gpu`, or the no-GPU mode's word.
    pub start_mode: String,
    /// `payg` (按量计费) or another 计费方式.
    pub charge_type: String,
    pub created: Option<Timestamp>,
    pub stopped_at: Option<Timestamp>,
}

/// A time the list wraps as `{"Time": ..., "Valid": bool}`; `None` where it is not valid.
fn wrapped_time(v: &Value, key: &str) -> Option<Timestamp> {
    let t = v.get(key)?;
    if t.get("Valid").and_then(Value::as_bool) != Some(true) {
        return None;
    }
    t.get("Time")?.as_str()?.parse().ok()
}

pub fn parse_row(v: &Value) -> Option<Row> {
    Some(Row {
        id: text(v, "uuid")?,
        name: text(v, "name").unwrap_or_default(),
        status: text(v, "status")?,
        region: text(v, "region_sign"),
        spec: text(v, "gpu_spec_uuid").unwrap_or_default(),
        gpus: v.get("req_gpu_amount").and_then(Value::as_u64).unwrap_or(0),
        start_mode: text(v, "start_mode").unwrap_or_default(),
        charge_type: text(v, "charge_type").unwrap_or_default(),
        created: text(v, "created_at").and_then(|t| t.parse().ok()),
        stopped_at: wrapped_time(v, "stopped_at"),
    })
}

/// The state the meter bills by, from AutoDL's status word.
pub fn state_of(status: &str) -> InstanceState {
    match status {
        "shutdown" | "stopped" => InstanceState::Stopped,
        "released" => InstanceState::Released,
        _ => InstanceState::Running,
    }
}

/// The word `start_mode` holds for an instance powered on without its GPUs (无卡模式). The
/// documentation shows only `gpu`; `non_gpu` is the word the console's own power-on sends and
/// the community clients read back, not verified against the documentation.
pub const NO_GPU_MODE: &str = "non_gpu";

/// The state the meter bills a listed instance by: its status word, and for one that runs,
/// whether it runs without its GPUs (billed at the sheet's no-GPU price).
pub fn row_state(row: &Row) -> InstanceState {
    match state_of(&row.status) {
        InstanceState::Running if row.start_mode == NO_GPU_MODE => InstanceState::NoGpu,
        state => state,
    }
}

/// The SKU: the spec id, with the card count in front when it is more than one (`2xpro6000-p`).
pub fn sku_of(row: &Row) -> String {
    match row.gpus {
        0 | 1 => row.spec.clone(),
        n => format!("{n}x{}", row.spec),
    }
}

/// A private image; the listing gives no size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub uuid: String,
    pub name: String,
    pub status: String,
    pub created: Option<Timestamp>,
}

pub fn parse_image(v: &Value) -> Option<Image> {
    Some(Image {
        uuid: text(v, "image_uuid")?,
        name: text(v, "image_name").unwrap_or_default(),
        status: text(v, "status").unwrap_or_default(),
        created: text(v, "created_at").and_then(|t| t.parse().ok()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_list_row_reads_whole() {
        // The row of the documentation's own example, 获取实例列表.
        let v: Value = serde_json::from_str(
            r#"{"created_at":"2025-12-15T17:30:54+08:00","uuid":"pro-76576c61fdf1",
            "machine_id":"4d67438b4f","machine_alias":"","region_sign":"neimeng-C",
            "region_name":"内蒙C区","status":"running","sub_status":"",
            "status_at":"2025-12-15T17:31:05+08:00","start_mode":"gpu","charge_type":"payg",
            "req_gpu_amount":2,"expired_at":{"Time":"0001-01-01T00:00:00Z","Valid":false},
            "started_at":{"Time":"2025-12-15T17:31:05+08:00","Valid":true},
            "stopped_at":{"Time":"0001-01-01T00:00:00Z","Valid":false},"name":"zqAPI创建",
            "timed_shutdown_at":{"Time":"0001-01-01T00:00:00Z","Valid":false},
            "gpu_spec_uuid":"pro6000-p"}"#,
        )
        .unwrap();
        let row = parse_row(&v).unwrap();
        assert_eq!(row.id, "pro-76576c61fdf1");
        assert_eq!(row.region.as_deref(), Some("neimeng-C"));
        assert_eq!(sku_of(&row), "2xpro6000-p");
        assert_eq!(row.created, Some("2025-12-15T09:30:54Z".parse().unwrap()));
        assert_eq!(row.stopped_at, None, "an invalid time is no time");
        assert_eq!(state_of(&row.status), InstanceState::Running);
        // The no-GPU mode bills at its own price while it runs, and stops like any other.
        let mut no_gpu = row.clone();
        no_gpu.start_mode = NO_GPU_MODE.into();
        assert_eq!(row_state(&no_gpu), InstanceState::NoGpu);
        assert_eq!(row_state(&row), InstanceState::Running);
        no_gpu.status = "shutdown".into();
        assert_eq!(row_state(&no_gpu), InstanceState::Stopped);
    }

    #[test]
    fn only_a_shut_down_word_stops_the_meter() {
        assert_eq!(state_of("shutdown"), InstanceState::Stopped);
        assert_eq!(state_of("released"), InstanceState::Released);
        for busy in ["starting", "shutting_down", "creating", "something-new"] {
            assert_eq!(state_of(busy), InstanceState::Running, "{busy}");
        }
    }
}
