//! The EC2 Query API: a form-encoded POST of `Action=…&Version=2016-11-15&…`, signed with SigV4,
//! sent through the shared [`Http`] layer, answered in XML. Elastic Load Balancing speaks the
//! same protocol under its own name and version ([`Service`], `super::elb`).

use std::fmt::{self, Write as _};
use std::sync::Arc;
use std::time::Duration;

use super::credentials::{
    ACCESS_KEY_ID, Credentials, ENDPOINT, ENDPOINT_EC2, Keys, SECRET_ACCESS_KEY, SESSION_TOKEN,
};
use super::sigv4::{self, Request, Scope};
use super::xml;
use crate::provider::http::{
    Http, HttpError, HttpPolicy, HttpResponse, Repeat, Verdict, by_status,
};
use crate::provider::{ErrorKind, ProviderError};

pub const VERSION: &str = "2016-11-15";

/// A Query API: its name (in SigV4 scopes, IAM actions and the calls a report shows), the
/// `Version` it speaks, and the variable that overrides its endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Service {
    pub name: &'static str,
    pub version: &'static str,
    pub endpoint_var: &'static str,
}

pub const EC2: Service = Service {
    name: "ec2",
    version: VERSION,
    endpoint_var: ENDPOINT_EC2,
};
/// The adapter's name in its errors.
const PROVIDER: &str = super::ID;
const CONTENT_TYPE: &str = "application/x-www-form-urlencoded; charset=utf-8";

/// Error codes that mean "slow down", whatever the HTTP status.
const THROTTLED_CODES: [&str; 4] = [
    "RequestLimitExceeded",
    "Throttling",
    "ThrottlingException",
    "RequestThrottled",
];
/// Error codes that mean "try later", whatever the HTTP status.
const TRANSIENT_CODES: [&str; 3] = ["ServiceUnavailable", "Unavailable", "InternalError"];
/// Error codes that mean the credentials were refused.
const AUTH_CODES: [&str; 6] = [
    "AuthFailure",
    "UnauthorizedOperation",
    "SignatureDoesNotMatch",
    "InvalidClientTokenId",
    "ExpiredToken",
    "RequestExpired",
];
/// Error codes for an answer EC2 could not give now: worth a later try, nothing to change here.
const UNAVAILABLE_CODES: [&str; 4] = [
    "ServiceUnavailable",
    "Unavailable",
    "InternalError",
    "InternalFailure",
];

/// EC2's reading of an answer: throttling and server errors are worth another try.
pub fn judge(response: &HttpResponse) -> Verdict {
    let by_code = match xml::error(&response.body) {
        Some((code, _)) if response.status >= 400 => {
            if THROTTLED_CODES.contains(&code.as_str()) {
                Verdict::Throttled
            } else if TRANSIENT_CODES.contains(&code.as_str()) {
                Verdict::Transient
            } else {
                Verdict::Done
            }
        }
        _ => Verdict::Done,
    };
    match (by_code, by_status(response)) {
        (Verdict::Done, by_status) => by_status,
        (by_code, _) => by_code,
    }
}

/// One EC2 call's parameters, in the order they are sent.
pub type Params = Vec<(String, String)>;

/// One parameter, `k=v`.
pub fn param(k: impl Into<String>, v: impl Into<String>) -> (String, String) {
    (k.into(), v.into())
}

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
        /// What the answer's `Retry-After` asked for, if anything.
        retry_after: Option<Duration>,
    },
    Malformed {
        action: String,
        what: String,
    },
    /// No credentials to sign with: the chain's own error.
    Credentials(ProviderError),
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
                ..
            } => {
                write!(f, "ec2 {action}: {code} (HTTP {status})")?;
                if !message.is_empty() {
                    write!(f, ": {message}")?;
                }
                if AUTH_CODES.contains(&code.as_str()) {
                    f.write_str(&crate::t!("aws-check-keys-and-permissions"))?;
                }
                Ok(())
            }
            Ec2Error::Malformed { action, what } => {
                let unreadable = crate::t!("aws-unreadable-answer", what = what.as_str());
                write!(f, "ec2 {action}: {unreadable}")
            }
            Ec2Error::Credentials(e) => write!(f, "{e}"),
        }
    }
}

/// The IAM action a refused call needed. EC2's Query API actions are IAM actions of the `ec2`
/// service under the same name; a message in the newer form says it outright
/// (`... is not authorized to perform: ec2:StopInstances on resource: ...`).
fn iam_action(service: &str, action: &str, message: &str) -> String {
    message
        .split_once("perform: ")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .filter(|a| a.strip_prefix(service).is_some_and(|r| r.starts_with(':')))
        .map_or_else(|| format!("{service}:{action}"), str::to_string)
}

/// The kind of an EC2 error answer, by its code (AWS's "Error codes for the Amazon EC2 API":
/// the common client errors and the server errors), then by its status.
fn classify(
    service: &str,
    action: &str,
    status: u16,
    code: &str,
    message: &str,
    retry: Option<Duration>,
) -> ProviderError {
    let key_pair = [ACCESS_KEY_ID, SECRET_ACCESS_KEY];
    match code {
        "AuthFailure" | "IncompleteSignature" | "MissingAuthenticationToken" => {
            ProviderError::refused(PROVIDER, &crate::t!("aws-what-credentials"), &key_pair)
        }
        "InvalidClientTokenId" => ProviderError::refused(
            PROVIDER,
            &crate::t!("aws-what-access-key"),
            &[ACCESS_KEY_ID],
        ),
        "SignatureDoesNotMatch" => ProviderError::refused(
            PROVIDER,
            &crate::t!("aws-what-signature"),
            &[SECRET_ACCESS_KEY],
        ),
        "ExpiredToken" => ProviderError::expired(
            PROVIDER,
            &crate::t!("aws-what-session-token"),
            &[SESSION_TOKEN],
        ),
        // More than 15 minutes between the request's date and AWS's clock.
        "RequestExpired" => ProviderError::clock(PROVIDER),
        // `AccessDenied` is the rest of AWS's word for it (and moto's, for EC2 too).
        "UnauthorizedOperation" | "AccessDenied" => {
            ProviderError::permission(PROVIDER, Some(&iam_action(service, action, message)))
        }
        c if THROTTLED_CODES.contains(&c) => ProviderError::throttled(PROVIDER, retry),
        c if UNAVAILABLE_CODES.contains(&c) => ProviderError::new(PROVIDER, ErrorKind::Unreachable),
        _ => match status {
            429 => ProviderError::throttled(PROVIDER, retry),
            401 => ProviderError::refused(PROVIDER, &crate::t!("aws-what-credentials"), &key_pair),
            403 => ProviderError::permission(PROVIDER, Some(&format!("{service}:{action}"))),
            500.. => ProviderError::new(PROVIDER, ErrorKind::Unreachable),
            _ => ProviderError::rejected(PROVIDER),
        },
    }
}

impl From<Ec2Error> for ProviderError {
    fn from(e: Ec2Error) -> Self {
        e.of(EC2)
    }
}

impl Ec2Error {
    /// The error of a call to `service`, named as that service names its calls and actions.
    pub fn of(self, service: Service) -> ProviderError {
        let name = service.name;
        match self {
            Ec2Error::Credentials(e) => e,
            Ec2Error::Http { action, error } => {
                ProviderError::unreachable(PROVIDER, &error).with_call(&format!("{name} {action}"))
            }
            Ec2Error::Api {
                action,
                status,
                code,
                message,
                retry_after,
            } => classify(name, &action, status, &code, &message, retry_after)
                .with_call(&format!("{name} {action}"))
                .with_code(&code)
                .with_message(&message),
            Ec2Error::Malformed { action, what } => {
                ProviderError::state(PROVIDER, crate::t!("aws-unreadable-answer", what = what))
                    .with_call(&format!("{name} {action}"))
            }
        }
    }
}

/// `Action k=v …` as `--dry-run` and reports show a call (values are ids, never secrets).
pub fn describe_call(action: &str, params: &[(String, String)]) -> String {
    describe_service_call(EC2, action, params)
}

/// [`describe_call`] for a call to `service`.
pub fn describe_service_call(
    service: Service,
    action: &str,
    params: &[(String, String)],
) -> String {
    let mut text = format!("{} {action}", service.name);
    for (k, v) in params {
        let _ = write!(text, " {k}={v}");
    }
    text
}

pub struct Ec2 {
    service: Service,
    http: Http,
    url: String,
    authority: String,
    region: String,
    keys: Arc<Keys>,
}

impl Ec2 {
    pub fn new(
        endpoint: &str,
        region: &str,
        credentials: Credentials,
        policy: HttpPolicy,
    ) -> Result<Self, ProviderError> {
        Self::with_keys(endpoint, region, Arc::new(Keys::fixed(credentials)), policy)
    }

    /// Signing with whatever `keys` holds at each call, refreshed as they near their expiry.
    pub fn with_keys(
        endpoint: &str,
        region: &str,
        keys: Arc<Keys>,
        policy: HttpPolicy,
    ) -> Result<Self, ProviderError> {
        Self::for_service(EC2, endpoint, region, keys, policy)
    }

    /// A client of another Query API (`service`), signed and sent the same way.
    pub fn for_service(
        service: Service,
        endpoint: &str,
        region: &str,
        keys: Arc<Keys>,
        policy: HttpPolicy,
    ) -> Result<Self, ProviderError> {
        let (url, authority) = endpoint_url(service.name, endpoint, service.endpoint_var)?;
        let http = Http::new(policy).map_err(|e| ProviderError::state(PROVIDER, e.to_string()))?;
        Ok(Ec2 {
            service,
            http,
            url: url.to_string(),
            authority,
            region: region.into(),
            keys,
        })
    }

    /// The API this client speaks.
    pub fn service(&self) -> Service {
        self.service
    }

    fn form(version: &str, action: &str, params: &[(String, String)]) -> String {
        let mut body = format!("Action={}&Version={version}", sigv4::uri_encode(action));
        for (k, v) in params {
            body.push('&');
            body.push_str(&sigv4::uri_encode(k));
            body.push('=');
            body.push_str(&sigv4::uri_encode(v));
        }
        body
    }

    fn signed(
        &self,
        client: &reqwest::Client,
        body: &str,
        credentials: &Credentials,
    ) -> reqwest::RequestBuilder {
        let target = (self.url.as_str(), self.authority.as_str());
        signed_post(
            client,
            target,
            (&self.region, self.service.name),
            body,
            credentials,
        )
    }

    /// Sends `action`; a 2xx answer's body, or the error EC2 (or the network) gave.
    pub async fn call(
        &self,
        action: &str,
        params: &[(String, String)],
        repeat: Repeat,
    ) -> Result<String, Ec2Error> {
        let body = Self::form(self.service.version, action, params);
        let credentials = self.keys.current().await.map_err(Ec2Error::Credentials)?;
        let result = self
            .http
            .call(
                repeat,
                |client| self.signed(client, &body, &credentials),
                judge,
            )
            .await;
        let redact = |text: &str| credentials.redact(text);
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
                crate::t!("aws-no-ec2-error").into_owned(),
            )
        });
        let message: String = redact(&message).chars().take(300).collect();
        Err(Ec2Error::Api {
            action: action.into(),
            status: response.status,
            code,
            message,
            retry_after: response.retry_after,
        })
    }
}

/// A form-encoded Query `POST /` to `url` (whose host is `authority`), signed with SigV4 for
/// `service` in `region`; EC2 and STS both take it.
pub(super) fn signed_post(
    client: &reqwest::Client,
    (url, authority): (&str, &str),
    (region, service): (&str, &str),
    body: &str,
    credentials: &Credentials,
) -> reqwest::RequestBuilder {
    let amz_date = sigv4::amz_date(jiff::Timestamp::now());
    let mut headers = vec![
        ("content-type", CONTENT_TYPE),
        ("host", authority),
        ("x-amz-date", amz_date.as_str()),
    ];
    if let Some(token) = &credentials.session_token {
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
        region,
        service,
    };
    let auth = sigv4::authorization(&request, &scope, credentials);
    let mut builder = client
        .post(url)
        .header("content-type", CONTENT_TYPE)
        .header("x-amz-date", &amz_date)
        .header("authorization", auth);
    if let Some(token) = &credentials.session_token {
        builder = builder.header("x-amz-security-token", token);
    }
    builder.body(body.to_string())
}

/// `endpoint` as an http(s) URL and its authority (`host[:port]`), which the signature
/// covers; an error names `service`'s endpoint and `var`, the setting that gives it.
pub(super) fn endpoint_url(
    service: &str,
    endpoint: &str,
    var: &str,
) -> Result<(reqwest::Url, String), ProviderError> {
    let bad = |why: &str| {
        ProviderError::state(
            PROVIDER,
            crate::t!(
                "aws-endpoint-bad",
                service = service,
                endpoint = endpoint,
                why = why
            ),
        )
        .with_fix(&crate::t!(
            "aws-fix-endpoint-url",
            var = var,
            fallback = ENDPOINT
        ))
    };
    let url = reqwest::Url::parse(endpoint).map_err(|e| bad(&e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(bad(&crate::t!("aws-url-not-http")));
    }
    let host = url
        .host_str()
        .ok_or_else(|| bad(&crate::t!("aws-url-no-host")))?;
    let authority = match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_string(),
    };
    Ok((url, authority))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, code: &str) -> HttpResponse {
        HttpResponse::new(
            status,
            format!(
                "<Response><Errors><Error><Code>{code}</Code><Message>m</Message></Error>\
                 </Errors></Response>"
            ),
        )
    }

    #[test]
    fn an_endpoint_is_an_http_url_whose_authority_is_signed_and_else_names_its_setting() {
        let (url, authority) =
            endpoint_url("STS", "http://127.0.0.1:9/", "AWS_ENDPOINT_URL_STS").unwrap();
        assert_eq!(
            (url.as_str(), authority.as_str()),
            ("http://127.0.0.1:9/", "127.0.0.1:9")
        );
        let (_, plain) = endpoint_url("EC2", "https://ec2.eu-west-1.amazonaws.com", "X").unwrap();
        assert_eq!(plain, "ec2.eu-west-1.amazonaws.com");
        for (bad, why) in [
            ("ftp://x/", "not an http(s) URL"),
            ("no url", "relative URL"),
        ] {
            let e = endpoint_url("STS", bad, "AWS_ENDPOINT_URL_STS").unwrap_err();
            assert!(
                e.to_string().contains(&format!("STS endpoint `{bad}`")),
                "{e}"
            );
            assert!(e.to_string().contains(why), "{e}");
            assert!(
                e.fix().contains("set AWS_ENDPOINT_URL_STS or"),
                "{}",
                e.fix()
            );
        }
    }

    #[test]
    fn throttling_codes_are_throttled_whatever_the_status() {
        assert_eq!(
            judge(&answer(400, "RequestLimitExceeded")),
            Verdict::Throttled
        );
        assert_eq!(judge(&answer(400, "Throttling")), Verdict::Throttled);
        assert_eq!(judge(&answer(503, "Throttling")), Verdict::Throttled);
        assert_eq!(judge(&answer(429, "Anything")), Verdict::Throttled);
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
            VERSION,
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
            retry_after: None,
        };
        let text = e.to_string();
        assert!(
            text.starts_with("ec2 DescribeInstances: AuthFailure (HTTP 401)"),
            "{text}"
        );
        assert!(text.contains("AWS_ACCESS_KEY_ID"));
    }

    fn api(status: u16, action: &str, code: &str, message: &str) -> ProviderError {
        ProviderError::from(Ec2Error::Api {
            action: action.into(),
            status,
            code: code.into(),
            message: message.into(),
            retry_after: Some(Duration::from_secs(2)),
        })
    }

    #[test]
    fn each_ec2_error_code_has_its_kind() {
        use crate::provider::Auth;
        let kind = |status, code| api(status, "TerminateInstances", code, "m").kind().clone();
        assert!(matches!(
            kind(401, "AuthFailure"),
            ErrorKind::Auth(Auth::Refused { check, .. }) if check.len() == 2
        ));
        assert!(matches!(
            kind(403, "InvalidClientTokenId"),
            ErrorKind::Auth(Auth::Refused { check, .. }) if *check == [ACCESS_KEY_ID]
        ));
        assert!(matches!(
            kind(403, "SignatureDoesNotMatch"),
            ErrorKind::Auth(Auth::Refused { check, .. }) if *check == [SECRET_ACCESS_KEY]
        ));
        assert!(matches!(
            kind(400, "ExpiredToken"),
            ErrorKind::Auth(Auth::Expired { .. })
        ));
        assert_eq!(kind(400, "RequestExpired"), ErrorKind::Auth(Auth::Clock));
        assert_eq!(
            kind(403, "UnauthorizedOperation"),
            ErrorKind::Permission {
                action: Some("ec2:TerminateInstances".into())
            }
        );
        assert_eq!(
            kind(400, "RequestLimitExceeded"),
            ErrorKind::Throttled {
                retry_after: Some(Duration::from_secs(2))
            }
        );
        assert!(matches!(kind(429, "HTTP429"), ErrorKind::Throttled { .. }));
        assert_eq!(kind(503, "Unavailable"), ErrorKind::Unreachable);
        assert_eq!(kind(500, "InternalError"), ErrorKind::Unreachable);
        assert_eq!(kind(400, "InvalidParameterValue"), ErrorKind::Rejected);
        assert_eq!(
            kind(400, "InvalidInstanceID.Malformed"),
            ErrorKind::Rejected
        );
        assert_eq!(kind(400, "IncorrectInstanceState"), ErrorKind::Rejected);
        let e = api(
            400,
            "StopInstances",
            "InvalidInstanceID.NotFound",
            "no such id",
        );
        assert_eq!(e.provider(), "aws");
        assert_eq!(e.call(), Some("ec2 StopInstances"));
        assert_eq!(e.code(), Some("InvalidInstanceID.NotFound"));
        assert_eq!(e.message(), "no such id");
        assert!(e.fix().contains("instance id"), "{}", e.fix());
    }

    #[test]
    fn the_iam_action_comes_from_the_message_when_it_names_one() {
        let said = "You are not authorized to perform this operation. User: arn:aws:iam::1:user/u \
                    is not authorized to perform: ec2:StopInstances on resource: arn:x";
        assert_eq!(
            iam_action("ec2", "TerminateInstances", said),
            "ec2:StopInstances"
        );
        assert_eq!(
            iam_action("ec2", "TerminateInstances", "You are not authorized."),
            "ec2:TerminateInstances"
        );
    }

    #[test]
    fn an_unreadable_answer_and_a_refused_key_read_in_chinese() {
        use crate::i18n::{Lang, scoped};
        let (text, refused) = scoped(Lang::ZhCn, || {
            let m = Ec2Error::Malformed {
                action: "DescribeInstances".into(),
                what: "x".into(),
            };
            let a = api(401, "DescribeInstances", "AuthFailure", "m");
            (m.to_string(), a.to_string())
        });
        assert_eq!(text, "ec2 DescribeInstances: 无法读取的响应：x");
        assert!(refused.contains("凭证"), "{refused}");
        assert!(refused.contains("AuthFailure"), "{refused}");
    }

    #[test]
    fn transport_and_unreadable_answers_are_unreachable_and_state() {
        let t = ProviderError::from(Ec2Error::Http {
            action: "DescribeInstances".into(),
            error: "timed out after 20s".into(),
        });
        assert_eq!(t.kind(), &ErrorKind::Unreachable);
        assert_eq!(t.to_string(), "ec2 DescribeInstances: timed out after 20s");
        let m = ProviderError::from(Ec2Error::Malformed {
            action: "DescribeInstances".into(),
            what: "not XML".into(),
        });
        assert!(matches!(m.kind(), ErrorKind::State { .. }));
        assert!(m.to_string().contains("unreadable answer"), "{m}");
    }
}
