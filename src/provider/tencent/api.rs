//! One signed call to the CVM API (or, for reads, CBS or VPC): `POST /` with a JSON body, the `X-TC-*` headers and a TC3
//! `Authorization`, signed afresh for every attempt. Errors arrive with HTTP 200 inside
//! `Response.Error`; they become [`ApiError`]s, and throttling among them is retried.

use std::fmt::Write as _;

use jiff::Timestamp;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::codes::{TencentCodes, error_of};
use super::credentials::DEFAULT_ENDPOINT;
use super::sign;
use crate::provider::env::KeyPair;
use crate::provider::http::Repeat;
use crate::provider::rpc_cloud::caller::{Caller, host_of};
use crate::provider::rpc_cloud::cloud_error::CloudError;
use crate::provider::rpc_cloud::codes::Bare;

pub const VERSION: &str = "2017-03-12";
/// CLB's API version.
pub const CLB_VERSION: &str = "2018-03-17";
const CONTENT_TYPE: &str = "application/json";

/// The APIs the adapter calls. CVM, CBS and VPC are all at API version 2017-03-12, CLB at
/// 2018-03-17, each on its own host (`cvm.`, `cbs.`, `vpc.`, `clb.tencentcloudapi.com`) and in
/// its own TC3 signing scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    Cvm,
    /// Cloud disks and snapshots.
    Cbs,
    /// Elastic IPs.
    Vpc,
    /// Load balancers.
    Clb,
}

impl Service {
    pub fn name(self) -> &'static str {
        match self {
            Service::Cvm => "cvm",
            Service::Cbs => "cbs",
            Service::Vpc => "vpc",
            Service::Clb => "clb",
        }
    }

    /// The API version the service's actions are called at.
    pub fn version(self) -> &'static str {
        match self {
            Service::Clb => CLB_VERSION,
            Service::Cvm | Service::Cbs | Service::Vpc => VERSION,
        }
    }

    /// The service an action the adapter calls belongs to.
    pub fn of(action: &str) -> Service {
        match action {
            "DescribeDisks"
            | "DescribeSnapshots"
            | "DescribeSnapshotSharePermission"
            | "DetachDisks"
            | "TerminateDisks"
            | "DeleteSnapshots" => Service::Cbs,
            "DescribeAddresses" | "DisassociateAddress" | "ReleaseAddresses" => Service::Vpc,
            "DescribeLoadBalancers" | "DescribeTargetHealth" | "DeleteLoadBalancer" => Service::Clb,
            _ => Service::Cvm,
        }
    }
}

/// What went wrong with one call, in Tencent Cloud's codes.
pub type ApiError = CloudError<TencentCodes>;

/// One line naming a call, as `--dry-run` prints it and the report lists it.
pub fn describe(action: &str, body: &Value) -> String {
    let mut line = format!("{} {action}", Service::of(action).name());
    if body.as_object().is_some_and(|o| !o.is_empty()) {
        let _ = write!(line, " {body}");
    }
    line
}

/// The Tencent Cloud client: Tencent Cloud's codes, and the endpoint set for the calls.
pub type Client = Caller<TencentCodes, String>;

impl Client {
    /// Where `service`'s calls go: its own host under the default endpoint; an endpoint set in
    /// the environment (a gateway, a test peer) takes every service's calls.
    fn endpoint_of(&self, service: Service) -> String {
        if self.endpoint() == DEFAULT_ENDPOINT {
            format!("https://{}.tencentcloudapi.com/", service.name())
        } else {
            self.endpoint().clone()
        }
    }

    /// Calls `action` with `body` and reads `Response` as `T`.
    pub async fn call<T: DeserializeOwned>(
        &self,
        action: &'static str,
        body: &Value,
        repeat: Repeat,
    ) -> Result<T, ApiError> {
        let text = body.to_string();
        let service = Service::of(action);
        let url = self.endpoint_of(service);
        let host = host_of(&url);
        let response = self
            .send(action, repeat, |c, keys| {
                self.build(c, keys, (service, &url, &host), action, &text)
            })
            .await?;
        let malformed = |detail: String| ApiError::Malformed { action, detail };
        if let Some(error) = error_of(&response.body) {
            let message = self.redact(&error.message);
            return Err(ApiError::answered(action, error.code, message, Bare));
        }
        if response.status != 200 {
            return Err(ApiError::Status {
                action,
                status: response.status,
                retry_after: response.retry_after,
            });
        }
        let value: Value =
            serde_json::from_str(&response.body).map_err(|e| malformed(e.to_string()))?;
        let inner = value
            .get("Response")
            .cloned()
            .ok_or_else(|| malformed(crate::t!("tencent-no-response").into_owned()))?;
        serde_json::from_value(inner).map_err(|e| malformed(e.to_string()))
    }

    fn build(
        &self,
        client: &reqwest::Client,
        keys: &KeyPair,
        (service, url, host): (Service, &str, &str),
        action: &str,
        body: &str,
    ) -> reqwest::RequestBuilder {
        let timestamp = Timestamp::now().as_second();
        let signable = sign::Signable {
            content_type: CONTENT_TYPE,
            host,
            body: body.as_bytes(),
            timestamp,
            service: service.name(),
        };
        let authorization = sign::authorization(&keys.id, keys.secret.expose(), &signable);
        let mut request = client
            .post(url)
            .header("content-type", CONTENT_TYPE)
            .header("x-tc-action", action)
            .header("x-tc-version", service.version())
            .header("x-tc-timestamp", timestamp.to_string())
            .header("x-tc-region", self.region())
            .header("authorization", authorization);
        if let Some(token) = &keys.token {
            request = request.header("x-tc-token", token.expose());
        }
        request.body(body.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_described_with_their_body() {
        let body = serde_json::json!({"InstanceIds": ["ins-1"]});
        assert_eq!(
            describe("DescribeInstances", &body),
            r#"cvm DescribeInstances {"InstanceIds":["ins-1"]}"#
        );
        assert_eq!(describe("X", &serde_json::json!({})), "cvm X".to_string());
    }
}
