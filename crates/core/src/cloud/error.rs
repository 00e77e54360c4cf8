//! Why a provider call failed, kept as data from the adapter to the screen: what kind of failure
//! it was, the provider's own code and words, and from those one line of what the user should
//! fix. Adapters build it at the mechanism that saw the failure (the HTTP status, the provider's
//! error code, the credential lookup); nothing downstream reads meaning back out of text.
//!
//! Every string that may come from outside is made one safe line on the way in
//! ([`crate::text::one_line`]). Secrets are the adapter's to keep out: this type never sees one.

use std::time::Duration;

use crate::text::one_line;

pub mod places;
mod words;

/// The most characters kept of the provider's message.
pub const MESSAGE_CHARS: usize = 300;
/// The most characters kept of a code, a call, a setting's name or an API action.
const SHORT_CHARS: usize = 120;

/// Why a credential did not get the call through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Auth {
    /// No credential where the adapter looked: `name` is the setting to set, `tried` every place
    /// looked, in the order they were tried.
    Missing { name: String, tried: Vec<String> },
    /// The provider refused `what` (`the credentials`, `the API key`); `check` names the settings
    /// that hold the credential it refused.
    Refused { what: String, check: Vec<String> },
    /// The provider says `what` has expired (a session token, an STS token).
    Expired { what: String, check: Vec<String> },
    /// The provider refused the request's timestamp: this machine's clock is off.
    Clock,
}

/// What kind of failure a [`ProviderError`] is; each kind has its own fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// A credential is missing, or the provider refused it.
    Auth(Auth),
    /// Authenticated, but not allowed: `action` is the permission the key lacks
    /// (`ec2:TerminateInstances`) when the provider says it or the call names it.
    Permission { action: Option<String> },
    /// Too many requests (429, `RequestLimitExceeded`, `Throttling`), after the retries.
    Throttled { retry_after: Option<Duration> },
    /// The provider refused the request as invalid; its code and message say why.
    Rejected,
    /// The provider has no way to do this (a stop on a cloud without stop).
    Unsupported { what: String },
    /// The provider's state cannot be read (an unreadable answer, no instance to read) or is not
    /// what was expected. `fix` when the adapter knows what helps (`pass --instance ID`).
    State { fix: Option<String> },
    /// No usable answer: a timeout, a refused connection, or server errors after the retries.
    /// Kept apart from [`ErrorKind::State`]: nothing in gpumeter's settings fixes it, waiting may.
    Unreachable,
}

/// A provider call that failed, as the adapter saw it. Boxed: it travels in every provider
/// `Result`, and most of those succeed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ProviderError(Box<Inner>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct Inner {
    provider: String,
    kind: ErrorKind,
    call: Option<String>,
    code: Option<String>,
    message: String,
}

fn short(text: &str) -> String {
    one_line(text, SHORT_CHARS)
}

fn shorts(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|t| short(t)).collect()
}

fn clean_kind(kind: ErrorKind) -> ErrorKind {
    let list = |v: Vec<String>| v.iter().map(|s| short(s)).collect();
    match kind {
        ErrorKind::Auth(Auth::Missing { name, tried }) => ErrorKind::Auth(Auth::Missing {
            name: short(&name),
            tried: list(tried),
        }),
        ErrorKind::Auth(Auth::Refused { what, check }) => ErrorKind::Auth(Auth::Refused {
            what: short(&what),
            check: list(check),
        }),
        ErrorKind::Auth(Auth::Expired { what, check }) => ErrorKind::Auth(Auth::Expired {
            what: short(&what),
            check: list(check),
        }),
        ErrorKind::Permission { action } => ErrorKind::Permission {
            action: action.map(|a| short(&a)).filter(|a| !a.is_empty()),
        },
        ErrorKind::Unsupported { what } => ErrorKind::Unsupported {
            what: one_line(&what, MESSAGE_CHARS),
        },
        ErrorKind::State { fix } => ErrorKind::State {
            fix: fix
                .map(|f| one_line(&f, MESSAGE_CHARS))
                .filter(|f| !f.is_empty()),
        },
        other => other,
    }
}

impl ProviderError {
    /// A failure of `kind` at `provider` (the adapter's name: `aws`, `lambda`, ...).
    pub fn new(provider: &str, kind: ErrorKind) -> Self {
        ProviderError(Box::new(Inner {
            provider: short(provider),
            kind: clean_kind(kind),
            call: None,
            code: None,
            message: String::new(),
        }))
    }

    /// No credential `name`, after looking in each of `tried`.
    pub fn missing(provider: &str, name: &str, tried: &[&str]) -> Self {
        let tried = if tried.is_empty() { &[name] } else { tried };
        Self::new(
            provider,
            ErrorKind::Auth(Auth::Missing {
                name: name.into(),
                tried: shorts(tried),
            }),
        )
    }

    /// The provider refused `what`, held in `check`.
    pub fn refused(provider: &str, what: &str, check: &[&str]) -> Self {
        Self::new(
            provider,
            ErrorKind::Auth(Auth::Refused {
                what: what.into(),
                check: shorts(check),
            }),
        )
    }

    /// The provider says `what`, held in `check`, has expired.
    pub fn expired(provider: &str, what: &str, check: &[&str]) -> Self {
        Self::new(
            provider,
            ErrorKind::Auth(Auth::Expired {
                what: what.into(),
                check: shorts(check),
            }),
        )
    }

    /// The provider refused the request's time.
    pub fn clock(provider: &str) -> Self {
        Self::new(provider, ErrorKind::Auth(Auth::Clock))
    }

    /// Authenticated but not allowed, lacking `action` when it is known.
    pub fn permission(provider: &str, action: Option<&str>) -> Self {
        Self::new(
            provider,
            ErrorKind::Permission {
                action: action.map(str::to_string),
            },
        )
    }

    pub fn throttled(provider: &str, retry_after: Option<Duration>) -> Self {
        Self::new(provider, ErrorKind::Throttled { retry_after })
    }

    pub fn rejected(provider: &str) -> Self {
        Self::new(provider, ErrorKind::Rejected)
    }

    /// `provider` cannot `what` (`stop (Lambda has no stop)`).
    pub fn unsupported(provider: &str, what: impl Into<String>) -> Self {
        Self::new(provider, ErrorKind::Unsupported { what: what.into() })
    }

    /// The state cannot be read or is not what was expected, as `message` says.
    pub fn state(provider: &str, message: impl std::fmt::Display) -> Self {
        Self::new(provider, ErrorKind::State { fix: None }).with_message(&message.to_string())
    }

    /// No usable answer, as `message` says (`timed out after 20s`).
    pub fn unreachable(provider: &str, message: impl AsRef<str>) -> Self {
        Self::new(provider, ErrorKind::Unreachable).with_message(message.as_ref())
    }

    /// The call that failed, as reports name it (`ec2 TerminateInstances`).
    #[must_use]
    pub fn with_call(mut self, call: &str) -> Self {
        self.0.call = Some(short(call)).filter(|c| !c.is_empty());
        self
    }

    /// The provider's own error code (`AuthFailure`, `HTTP 403`).
    #[must_use]
    pub fn with_code(mut self, code: &str) -> Self {
        self.0.code = Some(short(code)).filter(|c| !c.is_empty());
        self
    }

    /// The provider's own words, or what the adapter saw; secret-free already.
    #[must_use]
    pub fn with_message(mut self, message: &str) -> Self {
        self.0.message = one_line(message, MESSAGE_CHARS);
        self
    }

    /// What helps, for a state error whose cause the adapter knows; other kinds keep theirs.
    #[must_use]
    pub fn with_fix(mut self, fix: &str) -> Self {
        if let ErrorKind::State { fix: slot } = &mut self.0.kind {
            *slot = Some(one_line(fix, MESSAGE_CHARS)).filter(|f| !f.is_empty());
        }
        self
    }

    /// The adapter's name (`aws`).
    pub fn provider(&self) -> &str {
        &self.0.provider
    }

    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    pub fn call(&self) -> Option<&str> {
        self.0.call.as_deref()
    }

    pub fn code(&self) -> Option<&str> {
        self.0.code.as_deref()
    }

    pub fn message(&self) -> &str {
        &self.0.message
    }

    pub fn is_unsupported(&self) -> bool {
        matches!(self.0.kind, ErrorKind::Unsupported { .. })
    }

    /// The kind in one word, as the screen and the command line show it.
    pub fn kind_label(&self) -> &'static str {
        match self.0.kind {
            ErrorKind::Auth(_) => "auth",
            ErrorKind::Permission { .. } => "permission",
            ErrorKind::Throttled { .. } => "throttled",
            ErrorKind::Rejected => "rejected",
            ErrorKind::Unsupported { .. } => "unsupported",
            ErrorKind::State { .. } => "state",
            ErrorKind::Unreachable => "unreachable",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_credential_names_every_place_looked() {
        let one = ProviderError::missing("aws", "AWS_ACCESS_KEY_ID", &[]);
        assert_eq!(one.to_string(), "missing credential: set AWS_ACCESS_KEY_ID");
        assert_eq!(one.fix(), "set AWS_ACCESS_KEY_ID");
        assert_eq!(one.kind_label(), "auth");
        let region = ProviderError::missing(
            "aws",
            "AWS_REGION",
            &[
                "--region",
                "[instance] region",
                "AWS_REGION",
                "AWS_DEFAULT_REGION",
            ],
        );
        assert_eq!(
            region.fix(),
            "set AWS_REGION (looked in --region, [instance] region, AWS_REGION, AWS_DEFAULT_REGION)"
        );
        assert!(
            region
                .to_string()
                .starts_with("missing credential: set AWS_REGION (")
        );
    }

    #[test]
    fn a_refused_credential_says_which_to_check() {
        let e = ProviderError::refused(
            "alibaba",
            "the credentials",
            &["ALIBABA_CLOUD_ACCESS_KEY_ID"],
        )
        .with_call("ecs DescribeInstances")
        .with_code("InvalidAccessKeyId.NotFound")
        .with_message("Specified access key is not found.");
        assert_eq!(
            e.to_string(),
            "ecs DescribeInstances: Alibaba Cloud rejected the credentials \
             (InvalidAccessKeyId.NotFound): Specified access key is not found; \
             check ALIBABA_CLOUD_ACCESS_KEY_ID"
        );
        assert_eq!(
            e.fix(),
            "check ALIBABA_CLOUD_ACCESS_KEY_ID; Alibaba Cloud refused the credentials"
        );
        let key = ProviderError::refused("runpod", "the API key", &["RUNPOD_API_KEY"])
            .with_code("HTTP 401");
        assert!(
            key.to_string()
                .starts_with("RunPod rejected the API key (HTTP 401); check RUNPOD_API_KEY"),
            "{key}"
        );
    }

    #[test]
    fn a_permission_names_the_action_the_key_lacks() {
        let e = ProviderError::permission("aws", Some("ec2:TerminateInstances"))
            .with_call("ec2 TerminateInstances")
            .with_code("UnauthorizedOperation")
            .with_message("You are not authorized to perform this operation.");
        assert_eq!(e.kind_label(), "permission");
        assert_eq!(
            e.fix(),
            "the key lacks ec2:TerminateInstances; grant it in IAM"
        );
        assert_eq!(
            e.to_string(),
            "ec2 TerminateInstances: UnauthorizedOperation: You are not authorized to perform \
             this operation."
        );
        let unnamed = ProviderError::permission("runpod", None).with_call("POST /v2/pods/p/stop");
        assert!(
            unnamed.fix().contains("POST /v2/pods/p/stop"),
            "{}",
            unnamed.fix()
        );
    }

    #[test]
    fn each_kind_has_its_own_fix() {
        let wait = ProviderError::throttled("tencent", Some(Duration::from_secs(3)));
        assert!(
            wait.fix().starts_with("wait 3s and retry"),
            "{}",
            wait.fix()
        );
        let later = ProviderError::throttled("aws", None).with_code("RequestLimitExceeded");
        assert!(later.fix().starts_with("wait and retry"));
        assert_eq!(later.to_string(), "RequestLimitExceeded");
        let id = ProviderError::rejected("aws").with_code("InvalidInstanceID.Malformed");
        assert!(id.fix().contains("--instance"), "{}", id.fix());
        let bad = ProviderError::rejected("aws").with_code("InvalidParameterValue");
        assert!(bad.fix().contains("InvalidParameterValue"), "{}", bad.fix());
        let gone = ProviderError::unreachable("aws", "timed out after 20s").with_call("ec2 X");
        assert_eq!(gone.to_string(), "ec2 X: timed out after 20s");
        assert!(gone.fix().contains("network"));
        let down = ProviderError::unreachable("vast", "internal").with_code("HTTP 500");
        assert!(down.fix().contains("HTTP 500"));
        let no_id = ProviderError::state("aws", "no instance").with_fix("pass --instance ID");
        assert_eq!(no_id.fix(), "pass --instance ID");
        assert_eq!(
            no_id.to_string(),
            "cannot read the provider's state: no instance"
        );
        let odd = ProviderError::state("aws", "unreadable answer");
        assert!(odd.fix().contains("retry"));
        let stop = ProviderError::unsupported("lambda", "stop (Lambda has no stop)");
        assert_eq!(stop.to_string(), "lambda cannot stop (Lambda has no stop)");
        assert!(stop.is_unsupported() && stop.fix().starts_with("nothing to fix"));
        let clock = ProviderError::clock("tencent").with_code("AuthFailure.SignatureExpire");
        assert!(clock.fix().contains("clock"));
        let token = ProviderError::expired("aws", "the session token", &["AWS_SESSION_TOKEN"]);
        assert_eq!(
            token.fix(),
            "renew AWS_SESSION_TOKEN; the session token has expired"
        );
    }

    #[test]
    fn outside_text_arrives_as_one_clean_line() {
        let e = ProviderError::rejected("aws")
            .with_code("Bad\x1b[2JCode")
            .with_message(&format!("line one\r\nline\x07two {}", "x".repeat(1000)))
            .with_call("ec2\nX");
        assert_eq!(e.code(), Some("Bad [2JCode"));
        assert_eq!(e.call(), Some("ec2 X"));
        assert!(!e.to_string().chars().any(char::is_control), "{e}");
        assert!(e.message().chars().count() <= MESSAGE_CHARS + 1);
        assert!(e.message().starts_with("line one line two"));
        let kind = ProviderError::permission("aws", Some("ec2:\x1b]0;x"));
        assert!(!kind.fix().chars().any(char::is_control));
        assert_eq!(ProviderError::state("x", "a").with_code("").code(), None);
    }
}
