//! The in-memory AutoDL account behind the peer: Pro instances, private images and the wallet,
//! answered in the documented envelope `{code, msg, data, request_id}`.

use serde_json::{Value, json};

use crate::common::loopback::Request;

pub const INSTANCE: &str = "pro-76576c61fdf1";
/// The account's others: one shut down, one on two cards.
pub const OTHERS: [&str; 2] = ["pro-5a1b2c3d4e5f", "pro-0f9e8d7c6b5a"];
pub const IMAGE: &str = "image-db8346e037";
/// Rows on one page, whatever `page_size` asks: every listing is read over several pages.
const PAGE: usize = 2;

pub struct Instance {
    pub uuid: String,
    pub status: String,
    pub spec: &'static str,
    pub gpus: u64,
    /// Status reads left before a `starting` or `shutting_down` instance arrives; `usize::MAX`:
    /// never.
    pub settling: usize,
    /// When it was shut down, as the list's `stopped_at` says it (China's +08:00).
    pub stopped_at: String,
    /// `gpu`, or `non_gpu` for an instance powered on without its GPUs (无卡模式).
    pub start_mode: &'static str,
}

pub struct Cloud {
    pub instances: Vec<Instance>,
    pub images: Vec<(&'static str, &'static str)>,
    /// Thousandths of a yuan, as the wallet answers.
    pub assets: i64,
    pub vouchers: i64,
    /// The image list answers as for an account without the elastic deployment's verification.
    pub images_refused: bool,
}

fn envelope(data: &Value) -> String {
    json!({"code": "Success", "msg": "", "data": data, "request_id": "2159c05b9b675c731c2334b88d6be8aa"})
        .to_string()
}

pub fn refusal(code: &str, msg: &str) -> String {
    json!({"code": code, "msg": msg, "data": null, "request_id": "983edb8c8c8553db1115d51fb2758ae8"})
        .to_string()
}

fn never() -> Value {
    json!({"Time": "0001-01-01T00:00:00Z", "Valid": false})
}

fn at(t: &str) -> Value {
    json!({"Time": t, "Valid": true})
}

impl Instance {
    fn new(uuid: &str, status: &str, spec: &'static str, gpus: u64) -> Instance {
        Instance {
            uuid: uuid.into(),
            status: status.into(),
            spec,
            gpus,
            settling: 1,
            stopped_at: "2025-12-16T09:00:00+08:00".into(),
            start_mode: "gpu",
        }
    }

    /// The list row, in the documentation's fields and no others.
    fn row(&self) -> Value {
        let stopped = self.status == "shutdown";
        json!({
            "created_at": "2025-12-15T17:30:54+08:00", "uuid": self.uuid,
            "machine_id": "4d67438b4f", "machine_alias": "", "region_sign": "neimeng-C",
            "region_name": "内蒙C区", "status": self.status, "sub_status": "",
            "status_at": "2025-12-15T17:31:05+08:00", "start_mode": self.start_mode, "charge_type": "payg",
            "req_gpu_amount": self.gpus, "expired_at": never(),
            "started_at": at("2025-12-15T17:31:05+08:00"),
            "stopped_at": if stopped { at(&self.stopped_at) } else { never() },
            "name": "API创建的实例", "timed_shutdown_at": never(), "gpu_spec_uuid": self.spec,
        })
    }
}

impl Cloud {
    pub fn fresh() -> Cloud {
        Cloud {
            instances: vec![
                Instance::new(INSTANCE, "running", "pro6000-p", 1),
                Instance::new(OTHERS[0], "shutdown", "5090-p", 1),
                Instance::new(OTHERS[1], "running", "v-48g", 2),
            ],
            images: vec![(IMAGE, "image name"), ("image-7f3e21a9c0", "base env")],
            assets: 29_290,
            vouchers: 1_500,
            images_refused: false,
        }
    }

    pub fn status(&self, uuid: &str) -> Option<&str> {
        self.instances
            .iter()
            .find(|i| i.uuid == uuid)
            .map(|i| i.status.as_str())
    }

    /// Powers `uuid` on without its GPUs, as the console's no-GPU mode (无卡模式) does.
    pub fn run_without_gpus(&mut self, uuid: &str) {
        if let Some(i) = self.instances.iter_mut().find(|i| i.uuid == uuid) {
            i.status = "running".into();
            i.start_mode = "non_gpu";
        }
    }

    pub fn set_status(&mut self, uuid: &str, status: &str) {
        if let Some(i) = self.instances.iter_mut().find(|i| i.uuid == uuid) {
            i.status = status.into();
        }
    }

    /// The answer to one request that passed the key check.
    pub fn answer(&mut self, request: &Request) -> (u16, String) {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let uuid = body["instance_uuid"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let path = request.path.trim_start_matches("/api/v1/dev/");
        let answer = match (request.method.as_str(), path) {
            ("GET", "instance/pro/status") => self.read_status(&query(&request.query)),
            ("POST", "instance/pro/list") => {
                let rows = self.instances.iter().map(Instance::row).collect();
                page(rows, &body)
            }
            ("POST", "image/private/list") if self.images_refused => {
                refusal("AuthorizeFailed", "使用弹性部署API需先认证企业")
            }
            ("POST", "image/private/list") => page(self.image_rows(), &body),
            ("POST", "instance/pro/power_off") => {
                self.turn(&uuid, &["running", "starting"], "shutting_down")
            }
            ("POST", "instance/pro/power_on") => self.turn(&uuid, &["shutdown"], "starting"),
            ("POST", "instance/pro/release") => self.release(&uuid),
            ("POST", "wallet/balance") => envelope(&json!({
                "assets": self.assets, "accumulate": 1_000, "voucher_balance": self.vouchers
            })),
            _ => return (404, refusal("NotFound", "no such path")),
        };
        (200, answer)
    }

    fn image_rows(&self) -> Vec<Value> {
        self.images
            .iter()
            .enumerate()
            .map(|(n, (uuid, name))| {
                json!({"id": n + 111, "created_at": "2022-01-20T18:34:08+08:00",
                    "updated_at": "2022-01-20T18:34:08+08:00", "image_uuid": uuid,
                    "image_name": name, "status": "finished"})
            })
            .collect()
    }

    /// The status; an instance on its way arrives after its `settling` reads.
    fn read_status(&mut self, uuid: &str) -> String {
        let Some(i) = self.instances.iter_mut().find(|i| i.uuid == uuid) else {
            return refusal("RecordNotFoundError", "未查询到相关实例");
        };
        let word = i.status.clone();
        let arrived = match word.as_str() {
            "starting" => Some("running"),
            "shutting_down" => Some("shutdown"),
            _ => None,
        };
        if let Some(next) = arrived {
            if i.settling == 0 {
                i.status = next.into();
                i.settling = 1;
                if next == "shutdown" {
                    let china = jiff::tz::TimeZone::fixed(jiff::tz::offset(8));
                    let now = jiff::Timestamp::now().to_zoned_datetime(china);
                    i.stopped_at = now.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string();
                }
            } else if i.settling != usize::MAX {
                i.settling -= 1;
            }
        }
        envelope(&Value::from(word))
    }

    fn turn(&mut self, uuid: &str, from: &[&str], to: &str) -> String {
        match self.instances.iter_mut().find(|i| i.uuid == uuid) {
            None => refusal("RecordNotFoundError", "未查询到相关实例"),
            Some(i) if from.contains(&i.status.as_str()) => {
                i.status = to.into();
                envelope(&Value::Null)
            }
            Some(i) => refusal("InstanceStatusError", &format!("实例状态为{}", i.status)),
        }
    }

    /// Only a shut-down instance releases ("在释放实例前请先关机实例，否则可能无法释放").
    fn release(&mut self, uuid: &str) -> String {
        match self.status(uuid) {
            None => refusal("RecordNotFoundError", "未查询到相关实例"),
            Some("shutdown") => {
                self.instances.retain(|i| i.uuid != uuid);
                envelope(&Value::Null)
            }
            Some(_) => refusal("InstanceStatusError", "请先关机实例"),
        }
    }
}

fn query(query: &str) -> String {
    query
        .split('&')
        .find_map(|p| p.strip_prefix("instance_uuid="))
        .unwrap_or_default()
        .to_string()
}

/// `rows` on the page the body asks for, [`PAGE`] at a time.
fn page(rows: Vec<Value>, body: &Value) -> String {
    let index = body["page_index"]
        .as_u64()
        .and_then(|i| usize::try_from(i).ok())
        .unwrap_or(1)
        .max(1);
    let max_page = rows.len().div_ceil(PAGE).max(1);
    let list: Vec<Value> = rows
        .into_iter()
        .skip((index - 1) * PAGE)
        .take(PAGE)
        .collect();
    envelope(&json!({
        "list": list, "page_index": index, "page_size": PAGE, "offset": (index - 1) * PAGE,
        "max_page": max_page, "result_total": 0, "page": index,
    }))
}
