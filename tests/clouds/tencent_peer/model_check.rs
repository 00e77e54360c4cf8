//! Each request and reply of the peer checked against the official CVM, CBS and VPC models
//! (tencentcloud-sdk-python): a body parameter the request model does not have, one of the
//! wrong type or a missing required one is answered with the service's own error code, and
//! every violation, the reply's too, is kept for the test to see.

use serde_json::Value;

use crate::models::{self, Fault, Violation, walk};

/// The violations the peer saw.
#[derive(Debug, Default)]
pub struct Log {
    pub violations: Vec<String>,
}

/// The error code to answer `body` with, if it breaks the model of `action`.
pub fn request(action: &str, body: &Value, log: &mut Log) -> Option<&'static str> {
    let models = models::models()?;
    let Some(model) = models.tencent.get(action) else {
        log.violations
            .push(format!("{action}: not among the official models extracted"));
        return Some("InvalidAction");
    };
    let Some(params) = body.as_object() else {
        log.violations
            .push(format!("{action}: the body is not a JSON object"));
        return Some("InvalidParameter");
    };
    let mut found = Vec::new();
    for (name, value) in params {
        match model.request.get(name) {
            Some(param) => walk(&param.node, value, &format!("{action}.{name}"), &mut found),
            None => found.push(Violation {
                fault: Fault::Unknown,
                path: format!("{action}.{name}"),
                detail: "no such parameter in the official model".into(),
            }),
        }
    }
    let missing: Vec<String> = model
        .request
        .iter()
        .filter(|(name, p)| p.required && !params.contains_key(*name))
        .map(|(name, _)| format!("{action}.{name}: required by the official model"))
        .collect();
    let code = match found.first().map(|v| v.fault) {
        Some(Fault::Unknown) => Some("UnknownParameter"),
        Some(Fault::WrongType) => Some("InvalidParameter"),
        None if !missing.is_empty() => Some("MissingParameter"),
        None => None,
    };
    log.violations
        .extend(found.iter().map(ToString::to_string).chain(missing));
    code
}

/// Records where the reply `{"Response": ...}` to `action` is not the official model's.
pub fn reply(action: &str, reply: &Value, log: &mut Log) {
    let Some(model) = models::models().and_then(|m| m.tencent.get(action)) else {
        return;
    };
    let mut found = Vec::new();
    let Some(outer) = reply.as_object() else {
        log.violations
            .push(format!("{action}: the reply is not a JSON object"));
        return;
    };
    if outer.len() != 1 || !outer.contains_key("Response") {
        log.violations
            .push(format!("{action}: the reply is not {{\"Response\": ...}}"));
    }
    let response = &reply["Response"];
    if response.get("Error").is_some() {
        error_shape(action, response, log);
        return;
    }
    walk(&model.response, response, action, &mut found);
    log.violations.extend(found.iter().map(ToString::to_string));
}

/// An error reply: `{"Error": {"Code", "Message"}, "RequestId"}` (API 3.0's common shape).
fn error_shape(action: &str, response: &Value, log: &mut Log) {
    let allowed = |v: &Value, names: &[&str]| {
        v.as_object()
            .is_some_and(|o| o.keys().all(|k| names.contains(&k.as_str())))
    };
    if !allowed(response, &["Error", "RequestId"])
        || !allowed(&response["Error"], &["Code", "Message"])
    {
        log.violations
            .push(format!("{action}: the error reply is not the common shape"));
    }
}
