//! Alibaba Cloud's error codes, as the shared [`CloudError`](crate::provider::rpc_cloud::cloud_error::CloudError)
//! reads them: its common client error codes, its credentials SDK's list of the codes that
//! mean the key, token or time was refused, and RAM's refusals.

use std::fmt;

use super::credentials::{ACCESS_KEY_ID_ENV, ACCESS_KEY_SECRET_ENV, SECURITY_TOKEN_ENV};
use super::model::ErrorReply;
use crate::provider::http::{HttpResponse, Verdict};
use crate::provider::rpc_cloud::codes::Codes;
use crate::provider::{ProviderError, ProviderKind};

/// The adapter's name in its errors.
const PROVIDER: &str = "alibaba";

/// Alibaba Cloud, as its errors read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlibabaCodes;

/// What an Alibaba Cloud error answer carries beyond its code and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub request_id: String,
    /// The RAM action the call needs (`ecs:DeleteInstance`): as a refusal names it, else
    /// the product's name and the API's, which is how RAM names its actions.
    pub ram_action: String,
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, " (HTTP {}, RequestId {})", self.status, self.request_id)
    }
}

impl Codes for AlibabaCodes {
    const KIND: ProviderKind = ProviderKind::Alibaba;
    const KEY_VARS: [&'static str; 2] = [ACCESS_KEY_ID_ENV, ACCESS_KEY_SECRET_ENV];
    type Answer = Answer;

    fn is_auth(code: &str) -> bool {
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

    fn credential_error(code: &str) -> ProviderError {
        let (keys, token) = (
            crate::t!("rpc-what-credentials"),
            crate::t!("rpc-what-sts-token"),
        );
        if code.starts_with("InvalidAccessKeyId") {
            ProviderError::refused(PROVIDER, &keys, &[ACCESS_KEY_ID_ENV])
        } else if code.starts_with("SignatureDoesNotMatch") {
            ProviderError::refused(PROVIDER, &keys, &[ACCESS_KEY_SECRET_ENV])
        } else if code == "InvalidSecurityToken.Expired" {
            ProviderError::expired(PROVIDER, &token, &[SECURITY_TOKEN_ENV])
        } else if code.starts_with("InvalidSecurityToken") || code == "MissingSecurityToken" {
            ProviderError::refused(PROVIDER, &token, &[SECURITY_TOKEN_ENV])
        } else if code.starts_with("InvalidTimeStamp") {
            ProviderError::clock(PROVIDER)
        } else {
            ProviderError::refused(PROVIDER, &keys, &[ACCESS_KEY_ID_ENV, ACCESS_KEY_SECRET_ENV])
        }
    }

    /// RAM's refusals of an authenticated caller. The other `Forbidden.*` codes are about the
    /// account or the resource (`Forbidden.RiskControl`, `Forbidden.InstanceNotFound`), not a
    /// grant.
    fn is_permission(code: &str) -> bool {
        matches!(code, "Forbidden" | "ActionUnauthorized")
            || code.starts_with("Forbidden.RAM")
            || code.starts_with("Forbidden.NotSupportRAM")
            || code.starts_with("NoPermission")
    }

    fn permission_action(_action: &str, _message: &str, answer: &Answer) -> String {
        answer.ram_action.clone()
    }

    fn is_throttling(code: &str, answer: &Answer) -> bool {
        answer.status == 429 || code.starts_with("Throttling")
    }

    fn is_server_error(code: &str, answer: &Answer) -> bool {
        answer.status >= 500 || code == "ServiceUnavailable" || code == "InternalError"
    }

    /// Errors come with a 4xx status, their code in the JSON body.
    fn retry_code(response: &HttpResponse) -> Option<String> {
        (response.status >= 400).then(|| {
            serde_json::from_str::<ErrorReply>(&response.body)
                .map(|e| e.code)
                .unwrap_or_default()
        })
    }

    /// Throttling and `ServiceUnavailable` are worth another try; the rest is an answer.
    fn retry(code: &str) -> Verdict {
        if code.starts_with("Throttling") {
            Verdict::Throttled
        } else if code == "ServiceUnavailable" {
            Verdict::Transient
        } else {
            Verdict::Done
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::rpc_cloud::CallError;
    use crate::provider::rpc_cloud::codes::judge;
    use crate::provider::{Auth, ErrorKind};

    type RpcError = crate::provider::rpc_cloud::cloud_error::CloudError<AlibabaCodes>;

    fn response(status: u16, body: &str) -> HttpResponse {
        HttpResponse::new(status, body)
    }

    #[test]
    fn throttling_codes_are_throttled_and_server_errors_transient() {
        let judge = |status, body| judge::<AlibabaCodes>(&response(status, body));
        let throttled = r#"{"Code":"Throttling.User","Message":"flow control","RequestId":"r"}"#;
        assert_eq!(judge(400, throttled), Verdict::Throttled);
        let plain = r#"{"Code":"Throttling","RequestId":"r"}"#;
        assert_eq!(judge(403, plain), Verdict::Throttled);
        let unavailable = r#"{"Code":"ServiceUnavailable","RequestId":"r"}"#;
        assert_eq!(judge(400, unavailable), Verdict::Transient);
        assert_eq!(judge(500, ""), Verdict::Transient);
        assert_eq!(judge(429, ""), Verdict::Throttled);
        let missing = r#"{"Code":"InvalidInstanceId.NotFound","RequestId":"r"}"#;
        assert_eq!(judge(404, missing), Verdict::Done);
        assert_eq!(judge(200, "{}"), Verdict::Done);
    }

    fn auth(code: &str) -> RpcError {
        RpcError::Auth {
            action: "DescribeInstances",
            code: code.into(),
            message: String::new(),
        }
    }

    fn not_found() -> RpcError {
        RpcError::Api {
            action: "DeleteInstance",
            code: "InvalidInstanceId.NotFound".into(),
            message: String::new(),
            answer: Answer {
                status: 404,
                request_id: String::new(),
                ram_action: "ecs:DeleteInstance".into(),
            },
        }
    }

    #[test]
    fn auth_errors_name_the_variables_and_nothing_else() {
        let text = auth("InvalidAccessKeyId.NotFound").to_string();
        assert!(text.contains(ACCESS_KEY_ID_ENV) && text.contains("InvalidAccessKeyId"));
        assert!(AlibabaCodes::is_auth("SignatureDoesNotMatch"));
        assert!(!AlibabaCodes::is_auth("Throttling.User"));
        assert!(not_found().is_not_found());
        assert!(
            !auth("InvalidAccessKeyId.NotFound").is_not_found(),
            "a missing key is not a missing instance"
        );
    }

    /// `code`'s answer with `status` to a DeleteInstance, as the user sees it.
    fn api(status: u16, code: &str) -> ProviderError {
        let answer = Answer {
            status,
            request_id: "req-1".into(),
            ram_action: "ecs:DeleteInstance".into(),
        };
        ProviderError::from(RpcError::answered(
            "DeleteInstance",
            code.into(),
            "m".into(),
            answer,
        ))
    }

    #[test]
    fn each_alibaba_error_code_has_its_kind() {
        let refused = |check| ProviderError::refused(PROVIDER, "the credentials", &[check]);
        let (id, secret) = (refused(ACCESS_KEY_ID_ENV), refused(ACCESS_KEY_SECRET_ENV));
        let token = ProviderError::expired(PROVIDER, "the STS token", &[SECURITY_TOKEN_ENV]);
        let permission = ErrorKind::Permission {
            action: Some("ecs:DeleteInstance".into()),
        };
        let kinds = [
            (400, "InvalidAccessKeyId.NotFound", id.kind()),
            (403, "InvalidAccessKeyId.Inactive", id.kind()),
            (400, "SignatureDoesNotMatch", secret.kind()),
            (400, "InvalidSecurityToken.Expired", token.kind()),
            (
                400,
                "InvalidTimeStamp.Expired",
                &ErrorKind::Auth(Auth::Clock),
            ),
            (403, "Forbidden.RAM", &permission),
            (403, "NoPermission", &permission),
            (403, "Forbidden.RiskControl", &ErrorKind::Rejected),
            (
                400,
                "Throttling.User",
                &ErrorKind::Throttled { retry_after: None },
            ),
            (503, "ServiceUnavailable", &ErrorKind::Unreachable),
            (500, "InternalError", &ErrorKind::Unreachable),
            (400, "InvalidParameter", &ErrorKind::Rejected),
        ];
        for (status, code, kind) in kinds {
            assert_eq!(api(status, code).kind(), kind, "{status} {code}");
        }
        assert!(
            AlibabaCodes::is_auth("InvalidTimeStamp.Expired")
                && AlibabaCodes::is_auth("MissingSecurityToken")
        );
        let e = api(404, "InvalidInstanceId.NotFound");
        assert_eq!(e.kind(), &ErrorKind::Rejected);
        assert_eq!(e.call(), Some("DeleteInstance"));
        assert!(e.message().contains("RequestId req-1"), "{e}");
    }
}
