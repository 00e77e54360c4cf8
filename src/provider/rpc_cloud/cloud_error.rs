//! What went wrong with one call to a signed-API cloud, and the [`ProviderError`] it becomes.
//! The failures are the same on every such cloud; only the codes and words differ, and those
//! come from the cloud's [`Codes`].

use std::time::Duration;

use super::CallError;
use super::codes::Codes;
use crate::provider::http::HttpError;
use crate::provider::{ErrorKind, ProviderError};

/// What went wrong with one call. Never carries a secret or a signature.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CloudError<C: Codes> {
    #[error("{action}: {source}")]
    Transport {
        action: &'static str,
        source: HttpError,
    },
    #[error(
        "{} rejected the credentials ({code}): check {} and {}",
        C::KIND.display_name(),
        C::KEY_VARS[0],
        C::KEY_VARS[1]
    )]
    Auth {
        action: &'static str,
        code: String,
        message: String,
    },
    #[error("{action}: {code}: {message}{answer}")]
    Api {
        action: &'static str,
        code: String,
        message: String,
        answer: C::Answer,
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
                        return ProviderError::state(
                            provider,
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
            CloudError::Malformed { action, detail } => ProviderError::state(
                provider,
                format!("{action}: the reply is not the documented JSON ({detail})"),
            ),
            e @ CloudError::TooManyPages { action, .. } => {
                ProviderError::state(provider, e.to_string()).with_call(action)
            }
        }
    }
}
