//! One signed call to the CVM API (or, for reads, CBS or VPC): `POST /` with a JSON body, the `X-TC-*` headers and a TC3
//! `Authorization`, signed afresh for every attempt. Errors arrive with HTTP 200 inside
//! `Response.Error`; they become [`ApiError`]s, and throttling among them is retried.

use std::fmt::Write as _;
use std::time::Duration;

use jiff::Timestamp;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::credentials::{DEFAULT_ENDPOINT, SECRET_ID_ENV, SECRET_KEY_ENV, TOKEN_ENV};
use super::model::ErrorBody;
use super::sign;
use crate::provider::env::KeyPair;
use crate::provider::http::{Http, HttpError, HttpPolicy, HttpResponse, Repeat, Verdict};
use crate::provider::role_keys::KeyStore;
use crate::provider::rpc_cloud::CallError;
use crate::provider::{ErrorKind, ProviderError};

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

/// What went wrong with one call. Never carries a secret or a signature.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    #[error("{action}: {source}")]
    Transport {
        action: &'static str,
        source: HttpError,
    },
    #[error(
        "Tencent Cloud rejected the credentials ({code}): check {SECRET_ID_ENV} and {SECRET_KEY_ENV}"
    )]
    Auth {
        action: &'static str,
        code: String,
        message: String,
    },
    #[error("{action}: {code}: {message}")]
    Api {
        action: &'static str,
        code: String,
        message: String,
    },
    /// An answer that is neither a success nor one of the API's errors (a gateway's 429 or 500).
    #[error("{action}: the reply is not the documented JSON (HTTP {status} without an error code)")]
    Status {
        action: &'static str,
        status: u16,
        retry_after: Option<Duration>,
    },
    #[error("{action}: the reply is not the documented JSON ({detail})")]
    Malformed {
        action: &'static str,
        detail: String,
    },
    /// No keys to sign with: the chain's error, naming every place tried.
    #[error("{0}")]
    Credentials(ProviderError),
}

impl CallError for ApiError {
    /// The provider answered no: the call did nothing, and its error says why. A transport
    /// failure or a server error leaves it unknown whether the call did anything.
    fn is_refusal(&self) -> bool {
        match self {
            ApiError::Auth { .. } | ApiError::Credentials(_) => true,
            ApiError::Api { code, .. } => {
                !(code.starts_with("InternalError")
                    || matches!(code.as_str(), "InternalServerError" | "ServiceUnavailable"))
            }
            ApiError::Status { status, .. } => *status < 500,
            ApiError::Transport { .. } | ApiError::Malformed { .. } => false,
        }
    }

    /// `InvalidInstanceId.NotFound` and the like; never an auth error.
    fn is_not_found(&self) -> bool {
        matches!(self, ApiError::Api { code, .. } if code.ends_with("NotFound"))
    }

    fn is_auth(&self) -> bool {
        matches!(self, ApiError::Auth { .. })
    }
}

/// The adapter's name in its errors.
const PROVIDER: &str = "tencent";

/// Codes that mean the credential itself was refused: `AuthFailure.*` (Tencent Cloud API 3.0's
/// common error codes) but for the CAM refusal among them, and CVM's token and MFA refusals.
fn is_auth_code(code: &str) -> bool {
    (code.starts_with("AuthFailure") && !is_permission_code(code))
        || matches!(
            code,
            "UnauthorizedOperation.InvalidToken"
                | "UnauthorizedOperation.MFAExpired"
                | "UnauthorizedOperation.MFANotFound"
        )
}

/// CAM's refusals of an authenticated caller.
fn is_permission_code(code: &str) -> bool {
    code == "AuthFailure.UnauthorizedOperation"
        || (code.starts_with("UnauthorizedOperation")
            && !matches!(
                code,
                "UnauthorizedOperation.InvalidToken"
                    | "UnauthorizedOperation.MFAExpired"
                    | "UnauthorizedOperation.MFANotFound"
            ))
}

/// Which credential a refusal names, by its code.
fn auth_error(code: &str) -> ProviderError {
    match code {
        "AuthFailure.SecretIdNotFound" | "AuthFailure.InvalidSecretId" => {
            ProviderError::refused(PROVIDER, "the credentials", &[SECRET_ID_ENV])
        }
        "AuthFailure.SignatureFailure" => {
            ProviderError::refused(PROVIDER, "the credentials", &[SECRET_KEY_ENV])
        }
        // The request's timestamp is more than five minutes from the server's.
        "AuthFailure.SignatureExpire" => ProviderError::clock(PROVIDER),
        "AuthFailure.TokenFailure" | "UnauthorizedOperation.InvalidToken" => {
            ProviderError::refused(PROVIDER, "the STS token", &[TOKEN_ENV])
        }
        _ => ProviderError::refused(
            PROVIDER,
            "the credentials",
            &[SECRET_ID_ENV, SECRET_KEY_ENV],
        ),
    }
}

/// The CAM action a refusal names: `... perform operation (cvm:TerminateInstances) ...`, else
/// the service's name and the API's, which is how CAM names its actions.
fn cam_action(action: &str, message: &str) -> String {
    message
        .split_once("operation (")
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(named, _)| named.trim())
        .filter(|named| named.contains(':') && !named.contains(char::is_whitespace))
        .map_or_else(
            || format!("{}:{action}", Service::of(action).name()),
            str::to_string,
        )
}

impl From<ApiError> for ProviderError {
    fn from(e: ApiError) -> Self {
        match e {
            ApiError::Credentials(e) => e,
            ApiError::Transport { action, source } => {
                ProviderError::unreachable(PROVIDER, source.to_string()).with_call(action)
            }
            ApiError::Auth {
                action,
                code,
                message,
            } => auth_error(&code)
                .with_call(action)
                .with_code(&code)
                .with_message(&message),
            ApiError::Api {
                action,
                code,
                message,
            } => {
                let error = if is_permission_code(&code) {
                    ProviderError::permission(PROVIDER, Some(&cam_action(action, &message)))
                } else if code.starts_with("RequestLimitExceeded") {
                    ProviderError::throttled(PROVIDER, None)
                } else if code.starts_with("InternalError")
                    || matches!(code.as_str(), "InternalServerError" | "ServiceUnavailable")
                {
                    ProviderError::new(PROVIDER, ErrorKind::Unreachable)
                } else {
                    ProviderError::rejected(PROVIDER)
                };
                error
                    .with_call(action)
                    .with_code(&code)
                    .with_message(&message)
            }
            ApiError::Status {
                action,
                status,
                retry_after,
            } => {
                let error = match status {
                    429 => ProviderError::throttled(PROVIDER, retry_after),
                    500.. => ProviderError::new(PROVIDER, ErrorKind::Unreachable),
                    _ => {
                        return ProviderError::state(
                            PROVIDER,
                            format!("HTTP {status} without an error code"),
                        )
                        .with_call(action);
                    }
                };
                error
                    .with_call(action)
                    .with_code(&format!("HTTP {status}"))
                    .with_message("the reply is not the documented JSON")
            }
            ApiError::Malformed { action, detail } => ProviderError::state(
                PROVIDER,
                format!("{action}: the reply is not the documented JSON ({detail})"),
            ),
        }
    }
}

/// `Response.Error`, when the body has one.
fn error_of(body: &str) -> Option<ErrorBody> {
    let value: Value = serde_json::from_str(body).ok()?;
    serde_json::from_value(value.get("Response")?.get("Error")?.clone()).ok()
}

fn is_transient_code(code: &str) -> bool {
    code.starts_with("RequestLimitExceeded")
        || code.starts_with("InternalError")
        || code == "ServiceUnavailable"
}

/// 429, 5xx, and `RequestLimitExceeded` or `InternalError` inside a 200 are worth another try.
pub fn judge(response: &HttpResponse) -> Verdict {
    if response.status == 429 {
        return Verdict::Throttled;
    }
    if response.status >= 500 {
        return Verdict::Transient;
    }
    match error_of(&response.body) {
        Some(e) if e.code.starts_with("RequestLimitExceeded") => Verdict::Throttled,
        Some(e) if is_transient_code(&e.code) => Verdict::Transient,
        _ => Verdict::Done,
    }
}

/// One line naming a call, as `--dry-run` prints it and the report lists it.
pub fn describe(action: &str, body: &Value) -> String {
    let mut line = format!("{} {action}", Service::of(action).name());
    if body.as_object().is_some_and(|o| !o.is_empty()) {
        let _ = write!(line, " {body}");
    }
    line
}

pub struct Client {
    http: Http,
    keys: KeyStore,
    region: String,
    endpoint: String,
}

impl Client {
    pub fn new(
        keys: KeyStore,
        region: String,
        endpoint: String,
        policy: HttpPolicy,
    ) -> Result<Self, ProviderError> {
        let http = Http::new(policy).map_err(|e| ProviderError::state(PROVIDER, e.to_string()))?;
        Ok(Client {
            http,
            keys,
            region,
            endpoint,
        })
    }

    pub fn region(&self) -> &str {
        &self.region
    }

    /// Where the calls go.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Where `service`'s calls go: its own host under the default endpoint; an endpoint set in
    /// the environment (a gateway, a test peer) takes every service's calls.
    fn endpoint_of(&self, service: Service) -> String {
        if self.endpoint == DEFAULT_ENDPOINT {
            format!("https://{}.tencentcloudapi.com/", service.name())
        } else {
            self.endpoint.clone()
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
        let keys = self.keys.current().await.map_err(ApiError::Credentials)?;
        let response = self
            .http
            .call(
                repeat,
                |c| self.build(c, &keys, (service, &url, &host), action, &text),
                judge,
            )
            .await
            .map_err(|source| ApiError::Transport { action, source })?;
        let malformed = |detail: String| ApiError::Malformed { action, detail };
        if let Some(mut error) = error_of(&response.body) {
            // The provider's words are shown: never with a key of ours in them.
            error.message = self.keys.redact(&error.message);
            if is_auth_code(&error.code) {
                return Err(ApiError::Auth {
                    action,
                    code: error.code,
                    message: error.message,
                });
            }
            return Err(ApiError::Api {
                action,
                code: error.code,
                message: error.message,
            });
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
            .ok_or_else(|| malformed("no `Response`".into()))?;
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
            .header("x-tc-region", &self.region)
            .header("authorization", authorization);
        if let Some(token) = &keys.token {
            request = request.header("x-tc-token", token.expose());
        }
        request.body(body.to_string())
    }
}

/// The `host` header the client will send: the host, and the port when it is not the default.
fn host_of(url: &str) -> String {
    reqwest::Url::parse(url).map_or_else(
        |_| String::new(),
        |u| {
            let host = u.host_str().unwrap_or_default().to_string();
            match u.port() {
                Some(port) => format!("{host}:{port}"),
                None => host,
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(status: u16, body: &str) -> HttpResponse {
        HttpResponse::new(status, body)
    }

    fn error(code: &str) -> String {
        serde_json::json!({"Response": {"Error": {"Code": code, "Message": "m"}, "RequestId": "r"}})
            .to_string()
    }

    #[test]
    fn errors_inside_a_200_are_read() {
        assert_eq!(
            judge(&response(200, &error("RequestLimitExceeded"))),
            Verdict::Throttled
        );
        assert_eq!(
            judge(&response(
                200,
                &error("RequestLimitExceeded.UinLimitExceeded")
            )),
            Verdict::Throttled
        );
        assert_eq!(
            judge(&response(200, &error("InternalError"))),
            Verdict::Transient
        );
        assert_eq!(
            judge(&response(200, &error("AuthFailure.SignatureFailure"))),
            Verdict::Done
        );
        assert_eq!(judge(&response(500, "")), Verdict::Transient);
        assert_eq!(judge(&response(429, "")), Verdict::Throttled);
        assert_eq!(judge(&response(200, "<html>")), Verdict::Done);
        let e = error_of(&error("InvalidInstanceId.NotFound")).unwrap();
        assert_eq!(e.code, "InvalidInstanceId.NotFound");
        assert!(error_of(r#"{"Response":{"RequestId":"r"}}"#).is_none());
    }

    #[test]
    fn not_found_is_never_an_auth_error() {
        let nf = ApiError::Api {
            action: "TerminateInstances",
            code: "InvalidInstanceId.NotFound".into(),
            message: String::new(),
        };
        assert!(nf.is_not_found());
        let auth = ApiError::Auth {
            action: "DescribeInstances",
            code: "AuthFailure.SecretIdNotFound".into(),
            message: String::new(),
        };
        assert!(!auth.is_not_found());
        assert!(auth.to_string().contains(SECRET_ID_ENV));
    }

    #[test]
    fn calls_are_described_with_their_body() {
        let body = serde_json::json!({"InstanceIds": ["ins-1"]});
        assert_eq!(
            describe("DescribeInstances", &body),
            r#"cvm DescribeInstances {"InstanceIds":["ins-1"]}"#
        );
        assert_eq!(describe("X", &serde_json::json!({})), "cvm X".to_string());
        assert_eq!(host_of("http://127.0.0.1:8080/"), "127.0.0.1:8080");
        assert_eq!(
            host_of("https://cvm.tencentcloudapi.com/"),
            "cvm.tencentcloudapi.com"
        );
    }

    fn api(code: &str, message: &str) -> ProviderError {
        let e = if is_auth_code(code) {
            ApiError::Auth {
                action: "TerminateInstances",
                code: code.into(),
                message: message.into(),
            }
        } else {
            ApiError::Api {
                action: "TerminateInstances",
                code: code.into(),
                message: message.into(),
            }
        };
        ProviderError::from(e)
    }

    #[test]
    fn each_tencent_error_code_has_its_kind() {
        use crate::provider::Auth;
        let kind = |code| api(code, "m").kind().clone();
        assert!(matches!(
            kind("AuthFailure.SecretIdNotFound"),
            ErrorKind::Auth(Auth::Refused { check, .. }) if *check == [SECRET_ID_ENV]
        ));
        assert!(matches!(
            kind("AuthFailure.SignatureFailure"),
            ErrorKind::Auth(Auth::Refused { check, .. }) if *check == [SECRET_KEY_ENV]
        ));
        assert!(matches!(
            kind("AuthFailure.TokenFailure"),
            ErrorKind::Auth(Auth::Refused { check, .. }) if *check == [TOKEN_ENV]
        ));
        assert_eq!(
            kind("AuthFailure.SignatureExpire"),
            ErrorKind::Auth(Auth::Clock)
        );
        assert!(matches!(kind("AuthFailure.MFAFailure"), ErrorKind::Auth(_)));
        assert!(matches!(
            kind("UnauthorizedOperation.MFAExpired"),
            ErrorKind::Auth(_)
        ));
        assert_eq!(
            kind("AuthFailure.UnauthorizedOperation"),
            ErrorKind::Permission {
                action: Some("cvm:TerminateInstances".into())
            }
        );
        assert!(matches!(
            kind("UnauthorizedOperation.PermissionDenied"),
            ErrorKind::Permission { .. }
        ));
        assert!(matches!(
            kind("RequestLimitExceeded.UinLimitExceeded"),
            ErrorKind::Throttled { .. }
        ));
        assert_eq!(kind("InternalError"), ErrorKind::Unreachable);
        assert_eq!(kind("InvalidParameterValue"), ErrorKind::Rejected);
        assert_eq!(kind("InvalidInstanceId.Malformed"), ErrorKind::Rejected);
        assert_eq!(
            kind("UnsupportedOperation.InstanceStateStopped"),
            ErrorKind::Rejected
        );
        let status = |status| {
            ProviderError::from(ApiError::Status {
                action: "DescribeInstances",
                status,
                retry_after: Some(Duration::from_secs(4)),
            })
        };
        assert_eq!(
            status(429).kind(),
            &ErrorKind::Throttled {
                retry_after: Some(Duration::from_secs(4))
            }
        );
        assert_eq!(status(502).kind(), &ErrorKind::Unreachable);
        assert!(status(502).to_string().contains("502"), "{}", status(502));
        assert!(matches!(status(404).kind(), ErrorKind::State { .. }));
    }

    #[test]
    fn a_cam_refusal_names_the_action_it_says() {
        let said = "You are not authorized to perform this operation. [[request id:r]you are not \
                    authorized to perform operation (cvm:StopInstances)\nresource (*) has no permission]";
        assert_eq!(cam_action("TerminateInstances", said), "cvm:StopInstances");
        assert_eq!(
            cam_action("TerminateInstances", "no permission"),
            "cvm:TerminateInstances"
        );
        let e = api("UnauthorizedOperation", said);
        assert_eq!(e.fix(), "the key lacks cvm:StopInstances; grant it in CAM");
    }
}
