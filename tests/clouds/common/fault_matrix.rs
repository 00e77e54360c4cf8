//! What the Alibaba and Tencent fault matrices share: one case of the matrix, and the check
//! that an action under a fault is never reported done and never shows the secret.

use gpumeter::provider::{Action, ActionReport, ProviderError};

/// One action of a matrix, and where its faults go.
pub struct Case<C> {
    pub action: Action,
    /// The call that changes the cloud.
    pub call: &'static str,
    /// The read-back call, and how many of it the action makes before changing anything.
    pub readback: (&'static str, usize),
    /// Whether the cloud shows the action's effect.
    pub done: fn(&C) -> bool,
}

/// `result` is not reported done, and neither its report nor its error carries `secret`.
pub fn not_done(result: &Result<ActionReport, ProviderError>, what: &str, secret: &str) {
    match result {
        Ok(report) => {
            assert!(!report.confirmed, "{what}: reported done: {report:?}");
            assert!(!report.summary.contains(secret), "{what}");
        }
        Err(e) => assert!(!e.to_string().contains(secret), "{what}: {e}"),
    }
}
