//! What a signed-API cloud's error codes mean. Each cloud names its own codes in [`Codes`]; the
//! questions asked of them (is this a refused key, a missing grant, throttling, the provider's
//! own failure, worth another try) are the same on every cloud, and are asked here and in
//! [`CloudError`](super::cloud_error::CloudError) in one order for all of them.

use std::fmt::{self, Debug, Display};

use crate::provider::http::{HttpResponse, Verdict};
use crate::provider::{ProviderError, ProviderKind};

/// One cloud's error codes, and the words its errors use.
pub trait Codes: Debug + Clone + PartialEq + Eq + Send + Sync + 'static {
    /// The cloud: its id names the adapter in its errors, and its name is what a refused key's
    /// message says.
    const KIND: ProviderKind;
    /// The variables holding the key's id and its secret, which that message names.
    const KEY_VARS: [&'static str; 2];
    /// What the cloud's error answers carry beyond a code and a message, written after the
    /// message wherever it is shown.
    type Answer: Display + Debug + Clone + PartialEq + Eq + Send + Sync;

    /// The code refuses the credential itself, not a grant: a new key is needed.
    fn is_auth(code: &str) -> bool;
    /// Which credential a refusal of the key names, by its code.
    fn credential_error(code: &str) -> ProviderError;
    /// The code refuses an authenticated caller a grant.
    fn is_permission(code: &str) -> bool;
    /// The grant a permission refusal was about, as the cloud's access management names it.
    fn permission_action(action: &str, message: &str, answer: &Self::Answer) -> String;
    /// The answer says too many calls.
    fn is_throttling(code: &str, answer: &Self::Answer) -> bool;
    /// The answer is the provider's own failure: the call may or may not have done anything.
    fn is_server_error(code: &str, answer: &Self::Answer) -> bool;
    /// The error code in a raw answer that is worth reading for a retry, when it has one.
    fn retry_code(response: &HttpResponse) -> Option<String>;
    /// Whether an answer with `code` is tried again, and after which wait.
    fn retry(code: &str) -> Verdict;
}

/// Whether an answer is tried again: a 429 after the throttled wait, a 5xx at once, and any
/// other by what its code means on the cloud.
pub fn judge<C: Codes>(response: &HttpResponse) -> Verdict {
    if response.status == 429 {
        return Verdict::Throttled;
    }
    if response.status >= 500 {
        return Verdict::Transient;
    }
    C::retry_code(response).map_or(Verdict::Done, |code| C::retry(&code))
}

/// An error answer that carries nothing beyond its code and message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Bare;

impl Display for Bare {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        Ok(())
    }
}
