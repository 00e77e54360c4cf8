//! What went wrong with one call to a signed-API cloud, and the [`ProviderError`] it becomes.
//! The failures are the same on every such cloud; only the codes and words differ, and those
//! come from the cloud's [`Codes`].

use std::fmt;
use std::time::Duration;

use super::CallError;
use super::codes::Codes;
use crate::provider::http::HttpError;
use crate::provider::{ErrorKind, ProviderError};

/// What went wrong with one call. Never carries a secret or a signature. Its words are the
/// catalogue's ([`fmt::Display`] below).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CloudError<C: Codes> {
    Transport {
        action: &'static str,
        source: HttpError,
    },
    Auth {
        action: &'static str,
        code: String,
        message: String,
    },
    Api {
        action: &'static str,
        code: String,
        message: String,
        answer: C::Answer,
    },
    /// An answer that is neither a success nor one of the API's errors (a gateway's 429 or 500).
    Status {
        action: &'static str,
        status: u16,
        retry_after: Option<Duration>,
    },
    Malformed {
        action: &'static str,
        detail: String,
    },
    /// A listing still had more after the most pages the adapter reads.
    TooManyPages {
        action: &'static str,
        pages: u32,
        read: usize,
    },
    /// No keys to sign with: the chain's error, naming every place tried.
    Credentials(ProviderError),
}

/// `{action}: the reply is not the documented JSON ({detail})`.
fn not_documented(action: &str, detail: &str) -> String {
    crate::t!("rpc-not-documented-json", action = action, detail = detail)
}

fn without_code(status: u16) -> String {
    crate::t!("rpc-http-without-code", status = status.to_string())
}

impl<C: Codes> fmt::Display for CloudError<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CloudError::Transport { action, source } => write!(f, "{action}: {source}"),
            CloudError::Auth { code, .. } => f.write_str(&crate::t!(
                "rpc-auth-rejected",
                provider = C::KIND.display_name(),
                code = code.as_str(),
                id_var = C::KEY_VARS[0],
                secret_var = C::KEY_VARS[1]
            )),
            CloudError::Api {
                action,
                code,
                message,
                answer,
            } => write!(f, "{action}: {code}: {message}{answer}"),
            CloudError::Status { action, status, .. } => {
                f.write_str(&not_documented(action, &without_code(*status)))
            }
            CloudError::Malformed { action, detail } => {
                f.write_str(&not_documented(action, detail))
            }
            CloudError::TooManyPages {
                action,
                pages,
                read,
            } => f.write_str(&crate::t!(
                "rpc-too-many-pages",
                action = *action,
                pages = pages.to_string(),
                read = read.to_string()
            )),
            CloudError::Credentials(e) => write!(f, "{e}"),
        }
    }
}

impl<C: Codes> CloudError<C> {
    /// The cloud's error answer to `action`: a refused key, or any other refusal.
    pub fn answered(
        action: &'static str,
        code: String,
        message: String,
        answer: C::Answer,
    ) -> Self {
        if C::is_auth(&code) {
            CloudError::Auth {
                action,
                code,
                message,
            }
        } else {
            CloudError::Api {
                action,
                code,
                message,
                answer,
            }
        }
    }

    pub fn code(&self) -> Option<&str> {
        match self {
            CloudError::Api { code, .. } | CloudError::Auth { code, .. } => Some(code),
            _ => None,
        }
    }
}

impl<C: Codes> CallError for CloudError<C> {
    /// The provider answered no: the call did nothing, and its error says why. A transport
    /// failure or a server error leaves it unknown whether the call did anything.
    fn is_refusal(&self) -> bool {
        match self {
            CloudError::Auth { .. } | CloudError::Credentials(_) => true,
            CloudError::Api { code, answer, .. } => !C::is_server_error(code, answer),
            CloudError::Status { status, .. } => *status < 500,
            CloudError::Transport { .. }
            | CloudError::Malformed { .. }
            | CloudError::TooManyPages { .. } => false,
        }
    }

    /// `InvalidInstanceId.NotFound`, `InvalidSnapshotId.NotFound` and the like; never an auth
    /// error, though `InvalidAccessKeyId.NotFound` ends the same way.
    fn is_not_found(&self) -> bool {
        matches!(self, CloudError::Api { code, .. } if code.ends_with("NotFound"))
    }

    fn is_auth(&self) -> bool {
        matches!(self, CloudError::Auth { .. })
    }
}

impl<C: Codes> From<CloudError<C>> for ProviderError {
    fn from(e: CloudError<C>) -> Self {
        let provider = C::KIND.id();
        match e {
            CloudError::Credentials(e) => e,
            CloudError::Transport { action, source } => {
                ProviderError::unreachable(provider, source.to_string()).with_call(action)
            }
            CloudError::Auth {
                action,
                code,
                message,
            } => C::credential_error(&code)
                .with_call(action)
                .with_code(&code)
                .with_message(&message),
            CloudError::Api {
                action,
                code,
                message,
                answer,
            } => {
                let error = if C::is_permission(&code) {
                    let granted = C::permission_action(action, &message, &answer);
                    ProviderError::permission(provider, Some(&granted))
                } else if C::is_throttling(&code, &answer) {
                    ProviderError::throttled(provider, None)
                } else if C::is_server_error(&code, &answer) {
                    ProviderError::new(provider, ErrorKind::Unreachable)
                } else {
                    ProviderError::rejected(provider)
                };
                error
                    .with_call(action)
                    .with_code(&code)
                    .with_message(&format!("{message}{answer}"))
            }
            CloudError::Status {
                action,
                status,
                retry_after,
            } => {
                let error = match status {
                    429 => ProviderError::throttled(provider, retry_after),
                    500.. => ProviderError::new(provider, ErrorKind::Unreachable),
                    _ => {
                        return ProviderError::state(provider, without_code(status))
                            .with_call(action);
                    }
                };
                error
                    .with_call(action)
                    .with_code(&format!("HTTP {status}"))
                    .with_message(&crate::t!("rpc-reply-not-documented"))
            }
            CloudError::Malformed { action, detail } => {
                ProviderError::state(provider, not_documented(action, &detail))
            }
            e @ CloudError::TooManyPages { action, .. } => {
                ProviderError::state(provider, e.to_string()).with_call(action)
            }
        }
    }
}
