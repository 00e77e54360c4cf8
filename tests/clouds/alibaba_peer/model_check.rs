//! Each request and reply of the peer checked against the official ECS, VPC and SLB models
//! (alibabacloud-*-python): a query parameter the SDK would not send for the action (names as
//! the SDK flattens them, `Tag.1.Key`), one of the wrong type, a JSON-array string that is not
//! one, or a missing required one is answered with the service's error and recorded; so is a
//! reply field, nesting or type the official reply model does not have.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::models::{self, Violation, walk};

#[derive(Debug, Default)]
pub struct Log {
    pub violations: Vec<String>,
}

/// `Tag.3.Key` as `Tag.N.Key`.
fn flat_name(key: &str) -> String {
    key.split('.')
        .map(|part| {
            if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
                "N"
            } else {
                part
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn text_fits(kind: &str, text: &str) -> bool {
    match kind {
        "integer" => text.parse::<i64>().is_ok(),
        "number" => text.parse::<f64>().is_ok(),
        "boolean" => text.eq_ignore_ascii_case("true") || text.eq_ignore_ascii_case("false"),
        _ => true,
    }
}

fn is_json_list(text: &str) -> bool {
    serde_json::from_str::<Vec<Value>>(text)
        .is_ok_and(|items| items.iter().all(|v| v.is_string() || v.is_number()))
}

/// Whether the official request model of `action` has `RegionId`; `None` when the models are
/// not installed or the action is not among them.
pub fn takes_region(action: &str) -> Option<bool> {
    Some(
        models::models()?
            .alibaba
            .get(action)?
            .request
            .contains_key("RegionId"),
    )
}

/// The HTTP status and error code to answer `params` with, if they break the model of `action`.
pub fn request(
    action: &str,
    params: &BTreeMap<String, String>,
    log: &mut Log,
) -> Option<(u16, &'static str)> {
    let models = models::models()?;
    let Some(model) = models.alibaba.get(action) else {
        log.violations
            .push(format!("{action}: not among the official models extracted"));
        return Some((400, "InvalidAction.NotFound"));
    };
    let mut code = None;
    for (key, text) in params {
        let flat = flat_name(key);
        let top = flat.split('.').next().unwrap_or_default();
        let found = model
            .request
            .get(top)
            .and_then(|p| Some((p, p.flat.get(&flat)?)));
        let problem = match found {
            None => "no such parameter in the official model".to_string(),
            Some((p, _)) if p.json_list && !is_json_list(text) => {
                "not the JSON array the model asks for".to_string()
            }
            Some((_, kind)) if !text_fits(kind, text) => format!("not {kind}"),
            Some(_) => continue,
        };
        log.violations.push(format!("{action}.{key}: {problem}"));
        code = code.or(Some((400, "InvalidParameter")));
    }
    let sent = |name: &str| params.keys().any(|k| k.split('.').next() == Some(name));
    for name in model
        .request
        .iter()
        .filter(|(_, p)| p.required)
        .map(|(n, _)| n)
    {
        if !sent(name) {
            log.violations
                .push(format!("{action}.{name}: required by the official model"));
            code = code.or(Some((400, "MissingParameter")));
        }
    }
    code
}

/// Records where the reply `status`, `body` to `action` is not the official model's.
pub fn reply(action: &str, status: u16, body: &Value, log: &mut Log) {
    let Some(model) = models::models().and_then(|m| m.alibaba.get(action)) else {
        return;
    };
    if status != 200 {
        // Every error: `{"RequestId","HostId","Code","Message","Recommend"}`.
        let common = ["RequestId", "HostId", "Code", "Message", "Recommend"];
        let fits = body
            .as_object()
            .is_some_and(|o| o.keys().all(|k| common.contains(&k.as_str())));
        if !fits {
            log.violations
                .push(format!("{action}: the error reply is not the common shape"));
        }
        return;
    }
    let mut found: Vec<Violation> = Vec::new();
    walk(&model.response, body, action, &mut found);
    log.violations.extend(found.iter().map(ToString::to_string));
}
