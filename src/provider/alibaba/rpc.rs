//! One signed RPC call: the business parameters in the query string, an empty body, and the V3
//! headers (`x-acs-action`, `x-acs-version`, `x-acs-date`, `x-acs-signature-nonce`,
//! `x-acs-content-sha256`, `Authorization`). Each attempt is signed afresh with a new nonce and
//! date. Error replies (`{"Code","Message","RequestId"}`) become [`RpcError`]s.

use std::fmt::Write as _;

use jiff::Timestamp;
use serde::de::DeserializeOwned;

use super::credentials::{ACCESS_KEY_ID_ENV, ACCESS_KEY_SECRET_ENV, Endpoints, SECURITY_TOKEN_ENV};
use super::model::ErrorReply;
use super::sign;
use crate::provider::env::KeyPair;
use crate::provider::http::{Http, HttpError, HttpPolicy, HttpResponse, Repeat, Verdict};
use crate::provider::role_keys::KeyStore;
use crate::provider::rpc_cloud::CallError;
use crate::provider::{ErrorKind, ProviderError};

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

/// What went wrong with one call. Never carries a secret or a signature.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RpcError {
    #[error("{action}: {source}")]
    Transport {
        action: &'static str,
        source: HttpError,
    },
    #[error(
        "Alibaba Cloud rejected the credentials ({code}): check {ACCESS_KEY_ID_ENV} and {ACCESS_KEY_SECRET_ENV}"
    )]
    Auth {
        action: &'static str,
        code: String,
        message: String,
    },
    #[error("{action}: {code}: {message} (HTTP {status}, RequestId {request_id})")]
    Api {
        action: &'static str,
        status: u16,
        code: String,
        message: String,
        request_id: String,
        /// The RAM action the call needs (`ecs:DeleteInstance`): as a refusal names it, else
        /// the product's name and the API's, which is how RAM names its actions.
        ram_action: String,
    },
    #[error("{action}: the reply is not the documented JSON ({detail})")]
    Malformed {
        action: &'static str,
        detail: String,
    },
    /// A listing still had more after the most pages the adapter reads.
    #[error(
        "{action}: the listing runs past {pages} pages; stopped after {read} items rather \
         than report an incomplete list"
    )]
    TooManyPages {
        action: &'static str,
        pages: u32,
        read: usize,
    },
    /// No keys to sign with: the chain's error, naming every place tried.
    #[error("{0}")]
    Credentials(ProviderError),
}

impl RpcError {
    pub fn code(&self) -> Option<&str> {
        match self {
            RpcError::Api { code, .. } | RpcError::Auth { code, .. } => Some(code),
            _ => None,
        }
    }
}

impl CallError for RpcError {
    /// The provider answered no: the call did nothing, and its error says why. A transport
    /// failure or a server error leaves it unknown whether the call did anything.
    fn is_refusal(&self) -> bool {
        match self {
            RpcError::Auth { .. } | RpcError::Credentials(_) => true,
            RpcError::Api { status, code, .. } => {
                *status < 500 && code != "ServiceUnavailable" && code != "InternalError"
            }
            RpcError::Transport { .. }
            | RpcError::Malformed { .. }
            | RpcError::TooManyPages { .. } => false,
        }
    }

    /// `InvalidInstanceId.NotFound`, `InvalidSnapshotId.NotFound` and the like; never an auth
    /// error, though `InvalidAccessKeyId.NotFound` ends the same way.
    fn is_not_found(&self) -> bool {
        matches!(self, RpcError::Api { code, .. } if code.ends_with("NotFound"))
    }

    fn is_auth(&self) -> bool {
        matches!(self, RpcError::Auth { .. })
    }
}

/// The adapter's name in its errors.
const PROVIDER: &str = "alibaba";

/// Which credential a refusal names, by its code (Alibaba Cloud's common client error codes
/// and its credentials SDK's list of the codes that mean the key, token or time was refused).
fn auth_error(code: &str) -> ProviderError {
    if code.starts_with("InvalidAccessKeyId") {
        ProviderError::refused(PROVIDER, "the credentials", &[ACCESS_KEY_ID_ENV])
    } else if code.starts_with("SignatureDoesNotMatch") {
        ProviderError::refused(PROVIDER, "the credentials", &[ACCESS_KEY_SECRET_ENV])
    } else if code == "InvalidSecurityToken.Expired" {
        ProviderError::expired(PROVIDER, "the STS token", &[SECURITY_TOKEN_ENV])
    } else if code.starts_with("InvalidSecurityToken") || code == "MissingSecurityToken" {
        ProviderError::refused(PROVIDER, "the STS token", &[SECURITY_TOKEN_ENV])
    } else if code.starts_with("InvalidTimeStamp") {
        ProviderError::clock(PROVIDER)
    } else {
        ProviderError::refused(
            PROVIDER,
            "the credentials",
            &[ACCESS_KEY_ID_ENV, ACCESS_KEY_SECRET_ENV],
        )
    }
}

/// RAM's refusals of an authenticated caller. The other `Forbidden.*` codes are about the
/// account or the resource (`Forbidden.RiskControl`, `Forbidden.InstanceNotFound`), not a grant.
fn is_permission_code(code: &str) -> bool {
    matches!(code, "Forbidden" | "ActionUnauthorized")
        || code.starts_with("Forbidden.RAM")
        || code.starts_with("Forbidden.NotSupportRAM")
        || code.starts_with("NoPermission")
}

impl From<RpcError> for ProviderError {
    fn from(e: RpcError) -> Self {
        match e {
            RpcError::Credentials(e) => e,
            RpcError::Transport { action, source } => {
                ProviderError::unreachable(PROVIDER, source.to_string()).with_call(action)
            }
            RpcError::Auth {
                action,
                code,
                message,
            } => auth_error(&code)
                .with_call(action)
                .with_code(&code)
                .with_message(&message),
            RpcError::Api {
                action,
                status,
                code,
                message,
                request_id,
                ram_action,
            } => {
                let error = if is_permission_code(&code) {
                    ProviderError::permission(PROVIDER, Some(&ram_action))
                } else if status == 429 || code.starts_with("Throttling") {
                    ProviderError::throttled(PROVIDER, None)
                } else if status >= 500 || code == "ServiceUnavailable" || code == "InternalError" {
                    ProviderError::new(PROVIDER, ErrorKind::Unreachable)
                } else {
                    ProviderError::rejected(PROVIDER)
                };
                error
                    .with_call(action)
                    .with_code(&code)
                    .with_message(&format!(
                        "{message} (HTTP {status}, RequestId {request_id})"
                    ))
            }
            RpcError::Malformed { action, detail } => ProviderError::state(
                PROVIDER,
                format!("{action}: the reply is not the documented JSON ({detail})"),
            ),
            e @ RpcError::TooManyPages { action, .. } => {
                ProviderError::state(PROVIDER, e.to_string()).with_call(action)
            }
        }
    }
}

/// Throttling, `ServiceUnavailable`, 429 and 5xx are worth another try; the rest is an answer.
pub fn judge(response: &HttpResponse) -> Verdict {
    if response.status == 429 {
        return Verdict::Throttled;
    }
    if response.status >= 500 {
        return Verdict::Transient;
    }
    if response.status >= 400 {
        let code = serde_json::from_str::<ErrorReply>(&response.body)
            .map(|e| e.code)
            .unwrap_or_default();
        if code.starts_with("Throttling") {
            return Verdict::Throttled;
        }
        if code == "ServiceUnavailable" {
            return Verdict::Transient;
        }
    }
    Verdict::Done
}

fn is_auth_code(code: &str) -> bool {
    [
        "InvalidAccessKeyId",
        "SignatureDoesNotMatch",
        "IncompleteSignature",
        "InvalidSecurityToken",
        "MissingSecurityToken",
        "InvalidTimeStamp",
    ]
    .iter()
    .any(|prefix| code.starts_with(prefix))
}

/// One line naming a call, as `--dry-run` prints it and the report lists it.
pub fn describe(product: Product, action: &str, params: &[(&str, String)]) -> String {
    let mut line = format!("{} {action}", product.label());
    for (k, v) in params {
        let _ = write!(line, " {k}={v}");
    }
    line
}

pub struct Client {
    http: Http,
    keys: KeyStore,
    region: String,
    endpoints: Endpoints,
}

impl Client {
    pub fn new(
        keys: KeyStore,
        region: String,
        endpoints: Endpoints,
        policy: HttpPolicy,
    ) -> Result<Self, ProviderError> {
        let http = Http::new(policy).map_err(|e| ProviderError::state(PROVIDER, e.to_string()))?;
        Ok(Client {
            http,
            keys,
            region,
            endpoints,
        })
    }

    pub fn region(&self) -> &str {
        &self.region
    }

    /// Where the ECS calls go.
    pub fn ecs_endpoint(&self) -> &str {
        &self.endpoints.ecs
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
            query.push(("RegionId".into(), self.region.clone()));
        }
        query.extend(params.iter().map(|(k, v)| ((*k).to_string(), v.clone())));
        let base = match product {
            Product::Ecs => &self.endpoints.ecs,
            Product::Vpc => &self.endpoints.vpc,
            Product::Slb => &self.endpoints.slb,
        };
        let url = format!("{base}?{}", sign::canonical_query(&query));
        let host = host_of(&url);
        let keys = self.keys.current().await.map_err(RpcError::Credentials)?;
        let response = self
            .http
            .call(
                Repeat::Safe,
                |client| Self::build(client, &keys, &url, &host, (product, action), &query),
                judge,
            )
            .await
            .map_err(|source| RpcError::Transport { action, source })?;
        if response.status == 200 {
            return serde_json::from_str(&response.body).map_err(|e| RpcError::Malformed {
                action,
                detail: e.to_string(),
            });
        }
        let Ok(reply) = serde_json::from_str::<ErrorReply>(&response.body) else {
            return Err(RpcError::Malformed {
                action,
                detail: format!("HTTP {} without an error code", response.status),
            });
        };
        // The provider's words are shown: never with a key of ours in them.
        let reply = ErrorReply {
            message: self.keys.redact(&reply.message),
            ..reply
        };
        if reply.code.is_empty() {
            return Err(RpcError::Malformed {
                action,
                detail: format!("HTTP {} without an error code", response.status),
            });
        }
        if is_auth_code(&reply.code) {
            return Err(RpcError::Auth {
                action,
                code: reply.code,
                message: reply.message,
            });
        }
        let ram_action = reply
            .auth_action()
            .unwrap_or_else(|| format!("{}:{action}", product.label()));
        Err(RpcError::Api {
            action,
            status: response.status,
            code: reply.code,
            message: reply.message,
            request_id: reply.request_id,
            ram_action,
        })
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

    fn response(status: u16, body: &str) -> HttpResponse {
        HttpResponse::new(status, body)
    }

    #[test]
    fn throttling_codes_are_throttled_and_server_errors_transient() {
        let throttled = r#"{"Code":"Throttling.User","Message":"flow control","RequestId":"r"}"#;
        assert_eq!(judge(&response(400, throttled)), Verdict::Throttled);
        let plain = r#"{"Code":"Throttling","RequestId":"r"}"#;
        assert_eq!(judge(&response(403, plain)), Verdict::Throttled);
        let unavailable = r#"{"Code":"ServiceUnavailable","RequestId":"r"}"#;
        assert_eq!(judge(&response(400, unavailable)), Verdict::Transient);
        assert_eq!(judge(&response(500, "")), Verdict::Transient);
        assert_eq!(judge(&response(429, "")), Verdict::Throttled);
        let missing = r#"{"Code":"InvalidInstanceId.NotFound","RequestId":"r"}"#;
        assert_eq!(judge(&response(404, missing)), Verdict::Done);
        assert_eq!(judge(&response(200, "{}")), Verdict::Done);
    }

    #[test]
    fn hosts_keep_a_non_default_port() {
        assert_eq!(host_of("http://127.0.0.1:8080/?a=b"), "127.0.0.1:8080");
        assert_eq!(
            host_of("https://ecs.cn-hangzhou.aliyuncs.com/?a=b"),
            "ecs.cn-hangzhou.aliyuncs.com"
        );
    }

    #[test]
    fn auth_errors_name_the_variables_and_nothing_else() {
        let e = RpcError::Auth {
            action: "DescribeInstances",
            code: "InvalidAccessKeyId.NotFound".into(),
            message: String::new(),
        };
        let text = e.to_string();
        assert!(text.contains(ACCESS_KEY_ID_ENV) && text.contains("InvalidAccessKeyId"));
        assert!(is_auth_code("SignatureDoesNotMatch"));
        assert!(!is_auth_code("Throttling.User"));
        let nf = RpcError::Api {
            action: "DeleteInstance",
            status: 404,
            code: "InvalidInstanceId.NotFound".into(),
            message: String::new(),
            request_id: String::new(),
            ram_action: "ecs:DeleteInstance".into(),
        };
        assert!(nf.is_not_found());
        let key = RpcError::Auth {
            action: "DescribeInstances",
            code: "InvalidAccessKeyId.NotFound".into(),
            message: String::new(),
        };
        assert!(
            !key.is_not_found(),
            "a missing key is not a missing instance"
        );
    }

    fn api(status: u16, code: &str) -> ProviderError {
        ProviderError::from(RpcError::Api {
            action: "DeleteInstance",
            status,
            code: code.into(),
            message: "m".into(),
            request_id: "req-1".into(),
            ram_action: "ecs:DeleteInstance".into(),
        })
    }

    #[test]
    fn each_alibaba_error_code_has_its_kind() {
        use crate::provider::Auth;
        let auth = |code: &str| {
            ProviderError::from(RpcError::Auth {
                action: "DescribeInstances",
                code: code.into(),
                message: "m".into(),
            })
            .kind()
            .clone()
        };
        assert!(matches!(
            auth("InvalidAccessKeyId.NotFound"),
            ErrorKind::Auth(Auth::Refused { check, .. }) if *check == [ACCESS_KEY_ID_ENV]
        ));
        assert!(matches!(
            auth("InvalidAccessKeyId.Inactive"),
            ErrorKind::Auth(Auth::Refused { check, .. }) if *check == [ACCESS_KEY_ID_ENV]
        ));
        assert!(matches!(
            auth("SignatureDoesNotMatch"),
            ErrorKind::Auth(Auth::Refused { check, .. }) if *check == [ACCESS_KEY_SECRET_ENV]
        ));
        assert!(matches!(
            auth("InvalidSecurityToken.Expired"),
            ErrorKind::Auth(Auth::Expired { .. })
        ));
        assert_eq!(
            auth("InvalidTimeStamp.Expired"),
            ErrorKind::Auth(Auth::Clock)
        );
        assert!(is_auth_code("InvalidTimeStamp.Expired") && is_auth_code("MissingSecurityToken"));
        assert_eq!(
            api(403, "Forbidden.RAM").kind(),
            &ErrorKind::Permission {
                action: Some("ecs:DeleteInstance".into())
            }
        );
        assert!(matches!(
            api(403, "NoPermission").kind(),
            ErrorKind::Permission { .. }
        ));
        assert_eq!(
            api(403, "Forbidden.RiskControl").kind(),
            &ErrorKind::Rejected
        );
        assert!(matches!(
            api(400, "Throttling.User").kind(),
            ErrorKind::Throttled { .. }
        ));
        assert_eq!(
            api(503, "ServiceUnavailable").kind(),
            &ErrorKind::Unreachable
        );
        assert_eq!(api(500, "InternalError").kind(), &ErrorKind::Unreachable);
        assert_eq!(api(400, "InvalidParameter").kind(), &ErrorKind::Rejected);
        let e = api(404, "InvalidInstanceId.NotFound");
        assert_eq!(e.kind(), &ErrorKind::Rejected);
        assert_eq!(e.call(), Some("DeleteInstance"));
        assert!(e.message().contains("RequestId req-1"), "{e}");
    }

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
