//! The EC2 Query API: a form-encoded POST of `Action=…&Version=2016-11-15&…`, signed with SigV4,
//! sent through the shared [`Http`] layer, answered in XML.

use std::fmt::{self, Write as _};

use super::credentials::Credentials;
use super::sigv4::{self, Request, Scope};
use super::xml;
use crate::provider::ProviderError;
use crate::provider::http::{
    Http, HttpError, HttpPolicy, HttpResponse, Repeat, Verdict, by_status,
};

pub const VERSION: &str = "2016-11-15";
const CONTENT_TYPE: &str = "application/x-www-form-urlencoded; charset=utf-8";

/// Error codes that mean "slow down" or "try later", whatever the HTTP status.
const TRANSIENT_CODES: [&str; 7] = [
    "RequestLimitExceeded",
    "Throttling",
    "ThrottlingException",
    "RequestThrottled",
    "ServiceUnavailable",
    "Unavailable",
    "InternalError",
];
/// Error codes that mean the credentials were refused.
const AUTH_CODES: [&str; 6] = [
    "AuthFailure",
    "UnauthorizedOperation",
    "SignatureDoesNotMatch",
    "InvalidClientTokenId",
    "ExpiredToken",
    "RequestExpired",
];

/// EC2's reading of an answer: throttling and server errors are worth another try.
pub fn judge(response: &HttpResponse) -> Verdict {
    if by_status(response) == Verdict::Transient {
        return Verdict::Transient;
    }
    match xml::error(&response.body) {
        Some((code, _)) if response.status >= 400 && TRANSIENT_CODES.contains(&code.as_str()) => {
            Verdict::Transient
        }
        _ => Verdict::Done,
    }
}

/// One EC2 call's parameters, in the order they are sent.
pub type Params = Vec<(String, String)>;

/// What went wrong with one call, without anything secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ec2Error {
    Http {
        action: String,
        error: String,
    },
    Api {
        action: String,
        status: u16,
        code: String,
        message: String,
    },
    Malformed {
        action: String,
        what: String,
    },
}

impl Ec2Error {
    /// The EC2 error code, for answers that carry one.
    pub fn code(&self) -> Option<&str> {
        match self {
            Ec2Error::Api { code, .. } => Some(code),
            _ => None,
        }
    }

    pub fn malformed(action: &str, what: &xml::Malformed) -> Self {
        Ec2Error::Malformed {
            action: action.into(),
            what: what.0.clone(),
        }
    }
}

impl fmt::Display for Ec2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ec2Error::Http { action, error } => write!(f, "ec2 {action}: {error}"),
            Ec2Error::Api {
                action,
                status,
                code,
                message,
            } => {
                write!(f, "ec2 {action}: {code} (HTTP {status})")?;
                if !message.is_empty() {
                    write!(f, ": {message}")?;
                }
                if AUTH_CODES.contains(&code.as_str()) {
                    write!(
                        f,
                        "; check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and the account's permissions"
                    )?;
                }
                Ok(())
            }
            Ec2Error::Malformed { action, what } => {
                write!(f, "ec2 {action}: unreadable answer: {what}")
            }
        }
    }
}

impl From<Ec2Error> for ProviderError {
    fn from(e: Ec2Error) -> Self {
        ProviderError::Failed(e.to_string())
    }
}

/// `Action k=v …` as `--dry-run` and reports show a call (values are ids, never secrets).
pub fn describe_call(action: &str, params: &[(String, String)]) -> String {
    let mut text = format!("ec2 {action}");
    for (k, v) in params {
        let _ = write!(text, " {k}={v}");
    }
    text
}

pub struct Ec2 {
    http: Http,
    url: String,
    authority: String,
    region: String,
    credentials: Credentials,
}

impl Ec2 {
    pub fn new(
        endpoint: &str,
        region: &str,
        credentials: Credentials,
        policy: HttpPolicy,
    ) -> Result<Self, ProviderError> {
        let bad = |why: &str| ProviderError::Failed(format!("EC2 endpoint `{endpoint}`: {why}"));
        let url = reqwest::Url::parse(endpoint).map_err(|e| bad(&e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(bad("not an http(s) URL"));
        }
        let host = url.host_str().ok_or_else(|| bad("no host"))?;
        let authority = match url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_string(),
        };
        let http = Http::new(policy).map_err(|e| ProviderError::Failed(e.to_string()))?;
        Ok(Ec2 {
            http,
            url: url.to_string(),
            authority,
            region: region.into(),
            credentials,
        })
    }

    pub fn credentials(&self) -> &Credentials {
        &self.credentials
    }

    fn form(action: &str, params: &[(String, String)]) -> String {
        let mut body = format!("Action={}&Version={VERSION}", sigv4::uri_encode(action));
        for (k, v) in params {
            body.push('&');
            body.push_str(&sigv4::uri_encode(k));
            body.push('=');
            body.push_str(&sigv4::uri_encode(v));
        }
        body
    }

    fn signed(&self, client: &reqwest::Client, body: &str) -> reqwest::RequestBuilder {
        let amz_date = sigv4::amz_date(jiff::Timestamp::now());
        let mut headers = vec![
            ("content-type", CONTENT_TYPE),
            ("host", self.authority.as_str()),
            ("x-amz-date", amz_date.as_str()),
        ];
        if let Some(token) = &self.credentials.session_token {
            headers.push(("x-amz-security-token", token.as_str()));
        }
        let request = Request {
            method: "POST",
            path: "/",
            query: "",
            headers: &headers,
            body: body.as_bytes(),
        };
        let scope = Scope {
            amz_date: &amz_date,
            region: &self.region,
            service: "ec2",
        };
        let auth = sigv4::authorization(&request, &scope, &self.credentials);
        let mut builder = client
            .post(&self.url)
            .header("content-type", CONTENT_TYPE)
            .header("x-amz-date", &amz_date)
            .header("authorization", auth);
        if let Some(token) = &self.credentials.session_token {
            builder = builder.header("x-amz-security-token", token);
        }
        builder.body(body.to_string())
    }

    /// Sends `action`; a 2xx answer's body, or the error EC2 (or the network) gave.
    pub async fn call(
        &self,
        action: &str,
        params: &[(String, String)],
        repeat: Repeat,
    ) -> Result<String, Ec2Error> {
        let body = Self::form(action, params);
        let result = self
            .http
            .call(repeat, |client| self.signed(client, &body), judge)
            .await;
        let redact = |text: &str| self.credentials.redact(text);
        let response = result.map_err(|e: HttpError| Ec2Error::Http {
            action: action.into(),
            error: redact(&e.to_string()),
        })?;
        if (200..300).contains(&response.status) {
            return Ok(response.body);
        }
        let (code, message) = xml::error(&response.body).unwrap_or_else(|| {
            (
                format!("HTTP{}", response.status),
                "the answer carried no EC2 error".into(),
            )
        });
        let message: String = redact(&message).chars().take(300).collect();
        Err(Ec2Error::Api {
            action: action.into(),
            status: response.status,
            code,
            message,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, code: &str) -> HttpResponse {
        HttpResponse {
            status,
            body: format!(
                "<Response><Errors><Error><Code>{code}</Code><Message>m</Message></Error>\
                 </Errors></Response>"
            ),
        }
    }

    #[test]
    fn throttling_codes_are_transient_whatever_the_status() {
        assert_eq!(
            judge(&answer(400, "RequestLimitExceeded")),
            Verdict::Transient
        );
        assert_eq!(judge(&answer(400, "Throttling")), Verdict::Transient);
        assert_eq!(judge(&answer(503, "Anything")), Verdict::Transient);
        assert_eq!(judge(&answer(401, "AuthFailure")), Verdict::Done);
        assert_eq!(
            judge(&answer(400, "InvalidInstanceID.NotFound")),
            Verdict::Done
        );
    }

    #[test]
    fn the_form_is_rfc3986_encoded() {
        let body = Ec2::form(
            "DescribeSnapshots",
            &[
                ("Owner.1".into(), "self".into()),
                ("Filter.1.Value.1".into(), "a b".into()),
            ],
        );
        assert_eq!(
            body,
            "Action=DescribeSnapshots&Version=2016-11-15&Owner.1=self&Filter.1.Value.1=a%20b"
        );
    }

    #[test]
    fn auth_errors_say_what_to_check() {
        let e = Ec2Error::Api {
            action: "DescribeInstances".into(),
            status: 401,
            code: "AuthFailure".into(),
            message: "AWS was not able to validate the provided access credentials".into(),
        };
        let text = e.to_string();
        assert!(
            text.starts_with("ec2 DescribeInstances: AuthFailure (HTTP 401)"),
            "{text}"
        );
        assert!(text.contains("AWS_ACCESS_KEY_ID"));
    }
}
