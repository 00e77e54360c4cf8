//! One signed call to the CVM API: `POST /` with a JSON body, the `X-TC-*` headers and a TC3
//! `Authorization`, signed afresh for every attempt. Errors arrive with HTTP 200 inside
//! `Response.Error`; they become [`ApiError`]s, and throttling among them is retried.

use std::fmt::Write as _;

use jiff::Timestamp;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::credentials::{Credentials, SECRET_ID_ENV, SECRET_KEY_ENV};
use super::model::ErrorBody;
use super::sign;
use crate::provider::ProviderError;
use crate::provider::http::{Http, HttpError, HttpPolicy, HttpResponse, Repeat, Verdict};

pub const VERSION: &str = "2017-03-12";
pub const SERVICE: &str = "cvm";
const CONTENT_TYPE: &str = "application/json";

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
    Auth { code: String },
    #[error("{action}: {code}: {message}")]
    Api {
        action: &'static str,
        code: String,
        message: String,
    },
    #[error("{action}: the reply is not the documented JSON ({detail})")]
    Malformed {
        action: &'static str,
        detail: String,
    },
}

impl ApiError {
    /// `InvalidInstanceId.NotFound` and the like; never an auth error.
    pub fn is_not_found(&self) -> bool {
        matches!(self, ApiError::Api { code, .. } if code.ends_with("NotFound"))
    }
}

impl From<ApiError> for ProviderError {
    fn from(e: ApiError) -> Self {
        ProviderError::Failed(e.to_string())
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
    if response.status == 429 || response.status >= 500 {
        return Verdict::Transient;
    }
    match error_of(&response.body) {
        Some(e) if is_transient_code(&e.code) => Verdict::Transient,
        _ => Verdict::Done,
    }
}

/// One line naming a call, as `--dry-run` prints it and the report lists it.
pub fn describe(action: &str, body: &Value) -> String {
    let mut line = format!("cvm {action}");
    if body.as_object().is_some_and(|o| !o.is_empty()) {
        let _ = write!(line, " {body}");
    }
    line
}

pub struct Client {
    http: Http,
    credentials: Credentials,
    region: String,
    endpoint: String,
}

impl Client {
    pub fn new(
        credentials: Credentials,
        region: String,
        endpoint: String,
        policy: HttpPolicy,
    ) -> Result<Self, ProviderError> {
        let http = Http::new(policy).map_err(|e| ProviderError::State(e.to_string()))?;
        Ok(Client {
            http,
            credentials,
            region,
            endpoint,
        })
    }

    pub fn region(&self) -> &str {
        &self.region
    }

    /// Calls `action` with `body` and reads `Response` as `T`.
    pub async fn call<T: DeserializeOwned>(
        &self,
        action: &'static str,
        body: &Value,
        repeat: Repeat,
    ) -> Result<T, ApiError> {
        let text = body.to_string();
        let host = host_of(&self.endpoint);
        let response = self
            .http
            .call(repeat, |c| self.build(c, &host, action, &text), judge)
            .await
            .map_err(|source| ApiError::Transport { action, source })?;
        let malformed = |detail: String| ApiError::Malformed { action, detail };
        if let Some(error) = error_of(&response.body) {
            if error.code.starts_with("AuthFailure") {
                return Err(ApiError::Auth { code: error.code });
            }
            return Err(ApiError::Api {
                action,
                code: error.code,
                message: error.message,
            });
        }
        if response.status != 200 {
            return Err(malformed(format!(
                "HTTP {} without an error code",
                response.status
            )));
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
        host: &str,
        action: &str,
        body: &str,
    ) -> reqwest::RequestBuilder {
        let timestamp = Timestamp::now().as_second();
        let signable = sign::Signable {
            content_type: CONTENT_TYPE,
            host,
            body: body.as_bytes(),
            timestamp,
            service: SERVICE,
        };
        let authorization = sign::authorization(
            &self.credentials.id,
            self.credentials.secret.expose(),
            &signable,
        );
        let mut request = client
            .post(&self.endpoint)
            .header("content-type", CONTENT_TYPE)
            .header("x-tc-action", action)
            .header("x-tc-version", VERSION)
            .header("x-tc-timestamp", timestamp.to_string())
            .header("x-tc-region", &self.region)
            .header("authorization", authorization);
        if let Some(token) = &self.credentials.token {
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
        HttpResponse {
            status,
            body: body.into(),
        }
    }

    fn error(code: &str) -> String {
        serde_json::json!({"Response": {"Error": {"Code": code, "Message": "m"}, "RequestId": "r"}})
            .to_string()
    }

    #[test]
    fn errors_inside_a_200_are_read() {
        assert_eq!(
            judge(&response(200, &error("RequestLimitExceeded"))),
            Verdict::Transient
        );
        assert_eq!(
            judge(&response(
                200,
                &error("RequestLimitExceeded.UinLimitExceeded")
            )),
            Verdict::Transient
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
        assert_eq!(judge(&response(429, "")), Verdict::Transient);
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
            code: "AuthFailure.SecretIdNotFound".into(),
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
}
