//! One signed RPC call: the business parameters in the query string, an empty body, and the V3
//! headers (`x-acs-action`, `x-acs-version`, `x-acs-date`, `x-acs-signature-nonce`,
//! `x-acs-content-sha256`, `Authorization`). Each attempt is signed afresh with a new nonce and
//! date. Error replies (`{"Code","Message","RequestId"}`) become [`RpcError`]s.

use std::fmt::Write as _;

use jiff::Timestamp;
use serde::de::DeserializeOwned;

use super::codes::{AlibabaCodes, Answer};
use super::credentials::Endpoints;
use super::model::ErrorReply;
use super::sign;
use crate::provider::env::KeyPair;
use crate::provider::http::Repeat;
use crate::provider::rpc_cloud::caller::{Caller, host_of};
use crate::provider::rpc_cloud::cloud_error::CloudError;

/// The three products the adapter calls, each with its own API version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Product {
    Ecs,
    Vpc,
    Slb,
}

impl Product {
    pub fn version(self) -> &'static str {
        match self {
            Product::Ecs => "2014-05-26",
            Product::Vpc => "2016-04-28",
            Product::Slb => "2014-05-15",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Product::Ecs => "ecs",
            Product::Vpc => "vpc",
            Product::Slb => "slb",
        }
    }
}

/// What went wrong with one call, in Alibaba Cloud's codes.
pub type RpcError = CloudError<AlibabaCodes>;

/// One line naming a call, as `--dry-run` prints it and the report lists it.
pub fn describe(product: Product, action: &str, params: &[(&str, String)]) -> String {
    let mut line = format!("{} {action}", product.label());
    for (k, v) in params {
        let _ = write!(line, " {k}={v}");
    }
    line
}

/// The Alibaba Cloud client: Alibaba Cloud's codes, and an endpoint for each product.
pub type Client = Caller<AlibabaCodes, Endpoints>;

impl Client {
    /// Where the ECS calls go.
    pub fn ecs_endpoint(&self) -> &str {
        &self.endpoint().ecs
    }

    /// Calls `action` with `params` (RegionId is added where the action takes it: see
    /// [`takes_region`]) and reads the reply as `T`. Every call
    /// the adapter makes is safe to repeat: reads, CreateSnapshot with its ClientToken, and
    /// writes whose repeat cannot do more (a second delete answers NotFound).
    pub async fn call<T: DeserializeOwned>(
        &self,
        product: Product,
        action: &'static str,
        params: &[(&str, String)],
    ) -> Result<T, RpcError> {
        let mut query: Vec<(String, String)> = Vec::new();
        if takes_region(action) {
            query.push(("RegionId".into(), self.region().to_string()));
        }
        query.extend(params.iter().map(|(k, v)| ((*k).to_string(), v.clone())));
        let endpoints = self.endpoint();
        let base = match product {
            Product::Ecs => &endpoints.ecs,
            Product::Vpc => &endpoints.vpc,
            Product::Slb => &endpoints.slb,
        };
        let url = format!("{base}?{}", sign::canonical_query(&query));
        let host = host_of(&url);
        let response = self
            .send(action, Repeat::Safe, |client, keys| {
                Self::build(client, keys, &url, &host, (product, action), &query)
            })
            .await?;
        if response.status == 200 {
            return serde_json::from_str(&response.body).map_err(|e| RpcError::Malformed {
                action,
                detail: e.to_string(),
            });
        }
        let malformed = || RpcError::Malformed {
            action,
            detail: crate::t!(
                "rpc-http-without-code",
                status = response.status.to_string()
            ),
        };
        let Ok(reply) = serde_json::from_str::<ErrorReply>(&response.body) else {
            return Err(malformed());
        };
        if reply.code.is_empty() {
            return Err(malformed());
        }
        let ram_action = reply
            .auth_action()
            .unwrap_or_else(|| format!("{}:{action}", product.label()));
        let answer = Answer {
            status: response.status,
            request_id: reply.request_id,
            ram_action,
        };
        Err(RpcError::answered(
            action,
            reply.code,
            self.redact(&reply.message),
            answer,
        ))
    }

    fn build(
        client: &reqwest::Client,
        keys: &KeyPair,
        url: &str,
        host: &str,
        (product, action): (Product, &str),
        query: &[(String, String)],
    ) -> reqwest::RequestBuilder {
        let payload_hash = sign::sha256_hex(b"");
        let mut headers: Vec<(String, String)> = vec![
            ("host".into(), host.to_string()),
            ("x-acs-action".into(), action.to_string()),
            ("x-acs-version".into(), product.version().to_string()),
            (
                "x-acs-date".into(),
                Timestamp::now().strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
            ),
            ("x-acs-signature-nonce".into(), nonce()),
            ("x-acs-content-sha256".into(), payload_hash.clone()),
        ];
        if let Some(token) = &keys.token {
            headers.push(("x-acs-security-token".into(), token.expose().to_string()));
        }
        let (canonical, signed) = sign::canonical_request(&sign::Signable {
            method: "POST",
            query,
            headers: &headers,
            payload_hash: &payload_hash,
        });
        let signature = sign::signature(keys.secret.expose(), &sign::string_to_sign(&canonical));
        let mut request = client.post(url);
        for (name, value) in headers.iter().filter(|(n, _)| n != "host") {
            request = request.header(name.as_str(), value.as_str());
        }
        request.header(
            "authorization",
            sign::authorization(&keys.id, &signed, &signature),
        )
    }
}

/// 32 random hex digits, new for every attempt.
pub fn nonce() -> String {
    format!("{:016x}{:016x}", fastrand::u64(..), fastrand::u64(..))
}

/// An idempotency token for CreateSnapshot (at most 64 ASCII characters).
pub fn client_token() -> String {
    format!("gpumeter-{}", nonce())
}

/// Whether `action`'s official request model has `RegionId`. The actions on one resource
/// (`alibabacloud_ecs20140526`'s DeleteInstanceRequest, StopInstanceRequest, StartInstanceRequest,
/// CreateSnapshotRequest, DeleteSnapshotRequest, DetachDiskRequest, DeleteDiskRequest) have
/// none: the id names the resource, and the regional endpoint the region. Nor has
/// DescribeRegionsRequest, whose answer is the same in every region.
pub fn takes_region(action: &str) -> bool {
    !matches!(
        action,
        "DeleteInstance"
            | "StopInstance"
            | "StartInstance"
            | "CreateSnapshot"
            | "DeleteSnapshot"
            | "DetachDisk"
            | "DeleteDisk"
            | "DescribeRegions"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ram_refusal_names_the_action_it_was_asked_for() {
        let reply = |detail: serde_json::Value| ErrorReply {
            code: "Forbidden.RAM".into(),
            access_denied_detail: Some(detail),
            ..ErrorReply::default()
        };
        let object = serde_json::json!({"AuthAction": "ecs:StopInstance", "NoPermissionType": "ImplicitDeny"});
        assert_eq!(
            reply(object.clone()).auth_action().as_deref(),
            Some("ecs:StopInstance")
        );
        let text = serde_json::Value::String(object.to_string());
        assert_eq!(
            reply(text).auth_action().as_deref(),
            Some("ecs:StopInstance")
        );
        assert_eq!(reply(serde_json::json!({})).auth_action(), None);
        let parsed: ErrorReply = serde_json::from_str(
            r#"{"Code":"Forbidden.RAM","Message":"m","RequestId":"r","AccessDeniedDetail":{"AuthAction":"ecs:DeleteInstance"}}"#,
        )
        .unwrap();
        assert_eq!(parsed.auth_action().as_deref(), Some("ecs:DeleteInstance"));
    }
}
