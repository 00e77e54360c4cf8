//! The calls the adapter makes, each answered in AutoDL's envelope `{code, msg, data,
//! request_id}`: `code` is `Success`, or says why the request was refused, under HTTP 200.
//!
//! Instance Pro API: https://www.autodl.com/docs/instance_pro_api/ (status, list, power_on,
//! power_off, release). Private images: https://www.autodl.com/docs/esd_api_doc/ (获取镜像).
//! Balance: https://www.autodl.com/docs/common_api/ (获取账户余额).
//!
//! The status call is a GET whose documentation shows its `instance_uuid` in a JSON body;
//! community clients report that the service reads it from the query string. Both are sent.

use serde_json::{Value, json};

use super::model::{Image, Row, parse_image, parse_row};
use crate::provider::bearer::{Api, ApiError};
use crate::provider::http::Repeat;
use gpumeter_core::text::one_line;

pub const STATUS: &str = "/api/v1/dev/instance/pro/status";
pub const LIST: &str = "/api/v1/dev/instance/pro/list";
pub const POWER_ON: &str = "/api/v1/dev/instance/pro/power_on";
pub const POWER_OFF: &str = "/api/v1/dev/instance/pro/power_off";
pub const RELEASE: &str = "/api/v1/dev/instance/pro/release";
pub const IMAGES: &str = "/api/v1/dev/image/private/list";
pub const BALANCE: &str = "/api/v1/dev/wallet/balance";

/// Rows asked for per page; the documentation names no limit.
const PAGE_SIZE: u64 = 50;
/// The most pages read of one listing: a `max_page` past it is not believed.
const MAX_PAGES: u64 = 200;

/// The `data` of a call whose `code` is `Success`; any other code is the provider's refusal,
/// with its `msg`.
pub async fn data(
    api: &Api,
    (method, path): (&str, &str),
    body: Option<&Value>,
    repeat: Repeat,
) -> Result<Value, ApiError> {
    let call = Api::describe(method, path);
    let mut answer = api.json(method, path, body, repeat).await?;
    let code = answer
        .get("code")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::malformed(&call, no_field("code")))?;
    if code == "Success" {
        return Ok(answer.get_mut("data").map(Value::take).unwrap_or_default());
    }
    let said = answer
        .get("msg")
        .and_then(Value::as_str)
        .unwrap_or_default();
    Err(ApiError::Refused {
        call,
        code: one_line(code, 80),
        detail: api.redact(&one_line(said, 300)),
    })
}

/// Whether AutoDL's refusal says the instance does not exist (`RecordNotFoundError`, as
/// community clients report it; the documentation lists no codes).
pub fn not_found(e: &ApiError) -> bool {
    matches!(e, ApiError::Refused { code, .. } if code.contains("NotFound"))
}

/// What an answer lacks: `no code`.
fn no_field(field: &str) -> String {
    crate::t!("autodl-no-field", field = field)
}

fn uuid_body(id: &str) -> Value {
    json!({ "instance_uuid": id })
}

pub fn status_path(id: &str) -> String {
    format!("{STATUS}?instance_uuid={}", encode(id))
}

/// An instance id in a query string: AutoDL's are `pro-` and hex, but nothing from outside goes
/// into a URL unescaped.
fn encode(id: &str) -> String {
    id.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The instance's status word (`running`, `shutdown`, ...); `None` once AutoDL does not know
/// it and its list agrees.
pub async fn status(api: &Api, id: &str) -> Result<Option<String>, ApiError> {
    let path = status_path(id);
    match data(api, ("GET", &path), Some(&uuid_body(id)), Repeat::Safe).await {
        Ok(Value::String(s)) => Ok(Some(s)),
        Ok(_) => Err(ApiError::malformed(
            &Api::describe("GET", STATUS),
            no_field("status"),
        )),
        Err(e) if not_found(&e) => {
            let listed = instances(api).await?.iter().any(|r| r.id == id);
            if listed { Err(e) } else { Ok(None) }
        }
        Err(e) => Err(e),
    }
}

/// Every page of a paged listing at `path`, each row through `parse`.
async fn pages<T>(
    api: &Api,
    path: &str,
    parse: fn(&Value) -> Option<T>,
) -> Result<Vec<T>, ApiError> {
    let call = Api::describe("POST", path);
    let mut rows = Vec::new();
    let mut page = 1;
    loop {
        let body = json!({ "page_index": page, "page_size": PAGE_SIZE });
        let data = data(api, ("POST", path), Some(&body), Repeat::Safe).await?;
        let list = data
            .get("list")
            .and_then(Value::as_array)
            .ok_or_else(|| ApiError::malformed(&call, no_field("list")))?;
        rows.extend(list.iter().filter_map(parse));
        let max_page = data.get("max_page").and_then(Value::as_u64).unwrap_or(page);
        if page >= max_page.min(MAX_PAGES) || list.is_empty() {
            return Ok(rows);
        }
        page += 1;
    }
}

/// Every Pro instance of the account.
pub async fn instances(api: &Api) -> Result<Vec<Row>, ApiError> {
    pages(api, LIST, parse_row).await
}

/// The account's private images.
pub async fn images(api: &Api) -> Result<Vec<Image>, ApiError> {
    pages(api, IMAGES, parse_image).await
}

/// Sends one power or release call on instance `id`; `payload` is power_on's mode.
pub async fn instance_call(
    api: &Api,
    path: &str,
    id: &str,
    payload: Option<&str>,
) -> Result<(), ApiError> {
    let mut body = uuid_body(id);
    if let Some(mode) = payload {
        body["payload"] = Value::from(mode);
    }
    // Sent once: a repeat of a call that did arrive is read back, not sent again.
    data(api, ("POST", path), Some(&body), Repeat::Once)
        .await
        .map(drop)
}

/// `POST path {"instance_uuid": id}` as reports and `--dry-run` list it.
pub fn describe_call(path: &str, id: &str, payload: Option<&str>) -> String {
    match payload {
        Some(mode) => format!("POST {path} {{\"instance_uuid\":\"{id}\",\"payload\":\"{mode}\"}}"),
        None => format!("POST {path} {{\"instance_uuid\":\"{id}\"}}"),
    }
}

/// The wallet: `assets` and `voucher_balance`, in thousandths of a yuan.
pub async fn wallet(api: &Api) -> Result<Value, ApiError> {
    data(api, ("POST", BALANCE), None, Repeat::Safe).await
}
