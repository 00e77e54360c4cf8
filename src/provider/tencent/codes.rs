//! Tencent Cloud's error codes, as the shared [`CloudError`](crate::provider::rpc_cloud::cloud_error::CloudError)
//! reads them: API 3.0's common error codes (`AuthFailure.*`, `RequestLimitExceeded`,
//! `InternalError`), CVM's token and MFA refusals, and CAM's refusals of a grant.

use serde_json::Value;

use super::api::Service;
use super::credentials::{SECRET_ID_ENV, SECRET_KEY_ENV, TOKEN_ENV};
use super::model::ErrorBody;
use crate::provider::http::{HttpResponse, Verdict};
use crate::provider::rpc_cloud::codes::{Bare, Codes};
use crate::provider::{ProviderError, ProviderKind};

/// The adapter's name in its errors.
const PROVIDER: &str = "tencent";

/// Tencent Cloud, as its errors read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TencentCodes;

/// The refusals under `UnauthorizedOperation` that are about the credential, not a grant.
fn is_credential_refusal(code: &str) -> bool {
    matches!(
        code,
        "UnauthorizedOperation.InvalidToken"
            | "UnauthorizedOperation.MFAExpired"
            | "UnauthorizedOperation.MFANotFound"
    )
}

/// The provider's own failures.
fn is_internal(code: &str) -> bool {
    code.starts_with("InternalError")
        || matches!(code, "InternalServerError" | "ServiceUnavailable")
}

impl Codes for TencentCodes {
    const KIND: ProviderKind = ProviderKind::Tencent;
    const KEY_VARS: [&'static str; 2] = [SECRET_ID_ENV, SECRET_KEY_ENV];
    /// Errors carry a code and a message, and arrive inside a 200.
    type Answer = Bare;

    /// `AuthFailure.*` but for the CAM refusal among them, and CVM's token and MFA refusals.
    fn is_auth(code: &str) -> bool {
        (code.starts_with("AuthFailure") && !Self::is_permission(code))
            || is_credential_refusal(code)
    }

    fn credential_error(code: &str) -> ProviderError {
        let keys = crate::t!("rpc-what-credentials");
        match code {
            "AuthFailure.SecretIdNotFound" | "AuthFailure.InvalidSecretId" => {
                ProviderError::refused(PROVIDER, &keys, &[SECRET_ID_ENV])
            }
            "AuthFailure.SignatureFailure" => {
                ProviderError::refused(PROVIDER, &keys, &[SECRET_KEY_ENV])
            }
            // The request's timestamp is more than five minutes from the server's.
            "AuthFailure.SignatureExpire" => ProviderError::clock(PROVIDER),
            "AuthFailure.TokenFailure" | "UnauthorizedOperation.InvalidToken" => {
                ProviderError::refused(PROVIDER, &crate::t!("rpc-what-sts-token"), &[TOKEN_ENV])
            }
            _ => ProviderError::refused(PROVIDER, &keys, &[SECRET_ID_ENV, SECRET_KEY_ENV]),
        }
    }

    /// CAM's refusals of an authenticated caller.
    fn is_permission(code: &str) -> bool {
        code == "AuthFailure.UnauthorizedOperation"
            || (code.starts_with("UnauthorizedOperation") && !is_credential_refusal(code))
    }

    fn permission_action(action: &str, message: &str, _: &Bare) -> String {
        cam_action(action, message)
    }

    fn is_throttling(code: &str, _: &Bare) -> bool {
        code.starts_with("RequestLimitExceeded")
    }

    fn is_server_error(code: &str, _: &Bare) -> bool {
        is_internal(code)
    }

    /// The code of `Response.Error`, whatever the status.
    fn retry_code(response: &HttpResponse) -> Option<String> {
        error_of(&response.body).map(|e| e.code)
    }

    /// `RequestLimitExceeded` and `InternalError` inside a 200 are worth another try.
    fn retry(code: &str) -> Verdict {
        if code.starts_with("RequestLimitExceeded") {
            Verdict::Throttled
        } else if code.starts_with("InternalError") || code == "ServiceUnavailable" {
            Verdict::Transient
        } else {
            Verdict::Done
        }
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

/// `Response.Error`, when the body has one.
pub fn error_of(body: &str) -> Option<ErrorBody> {
    let value: Value = serde_json::from_str(body).ok()?;
    serde_json::from_value(value.get("Response")?.get("Error")?.clone()).ok()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::provider::rpc_cloud::CallError;
    use crate::provider::rpc_cloud::codes::judge;
    use crate::provider::{Auth, ErrorKind};

    type ApiError = crate::provider::rpc_cloud::cloud_error::CloudError<TencentCodes>;

    fn error(code: &str) -> String {
        serde_json::json!({"Response": {"Error": {"Code": code, "Message": "m"}, "RequestId": "r"}})
            .to_string()
    }

    #[test]
    fn errors_inside_a_200_are_read() {
        let judge = |status, body: &str| judge::<TencentCodes>(&HttpResponse::new(status, body));
        let kinds = [
            ("RequestLimitExceeded", Verdict::Throttled),
            ("RequestLimitExceeded.UinLimitExceeded", Verdict::Throttled),
            ("InternalError", Verdict::Transient),
            ("AuthFailure.SignatureFailure", Verdict::Done),
        ];
        for (code, verdict) in kinds {
            assert_eq!(judge(200, &error(code)), verdict, "{code}");
        }
        assert_eq!(judge(500, ""), Verdict::Transient);
        assert_eq!(judge(429, ""), Verdict::Throttled);
        assert_eq!(judge(200, "<html>"), Verdict::Done);
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
            answer: Bare,
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

    fn api(code: &str, message: &str) -> ProviderError {
        ProviderError::from(ApiError::answered(
            "TerminateInstances",
            code.into(),
            message.into(),
            Bare,
        ))
    }

    #[test]
    fn each_tencent_error_code_has_its_kind() {
        let refused =
            |what, check: &[&str]| ProviderError::refused(PROVIDER, what, check).kind().clone();
        let both = [SECRET_ID_ENV, SECRET_KEY_ENV];
        let permission = ErrorKind::Permission {
            action: Some("cvm:TerminateInstances".into()),
        };
        let kinds = [
            (
                "AuthFailure.SecretIdNotFound",
                refused("the credentials", &[SECRET_ID_ENV]),
            ),
            (
                "AuthFailure.SignatureFailure",
                refused("the credentials", &[SECRET_KEY_ENV]),
            ),
            (
                "AuthFailure.TokenFailure",
                refused("the STS token", &[TOKEN_ENV]),
            ),
            ("AuthFailure.SignatureExpire", ErrorKind::Auth(Auth::Clock)),
            ("AuthFailure.MFAFailure", refused("the credentials", &both)),
            (
                "UnauthorizedOperation.MFAExpired",
                refused("the credentials", &both),
            ),
            ("AuthFailure.UnauthorizedOperation", permission.clone()),
            ("UnauthorizedOperation.PermissionDenied", permission),
            (
                "RequestLimitExceeded.UinLimitExceeded",
                ErrorKind::Throttled { retry_after: None },
            ),
            ("InternalError", ErrorKind::Unreachable),
            ("InvalidParameterValue", ErrorKind::Rejected),
            ("InvalidInstanceId.Malformed", ErrorKind::Rejected),
            (
                "UnsupportedOperation.InstanceStateStopped",
                ErrorKind::Rejected,
            ),
        ];
        for (code, expected) in kinds {
            assert_eq!(api(code, "m").kind(), &expected, "{code}");
        }
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
