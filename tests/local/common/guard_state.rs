//! A guard state for the demo instance, as the ledger keeps it.

use std::time::Duration;

use gpumeter::config::OnExpiry;
use gpumeter::ledger::{GuardState, Watchdog};

/// The demo instance's guard: release on expiry after 2 minutes, a watchdog (pid 4242) whose
/// heart beat at `beat`, last changed then by `by`.
pub fn guard_state(
    deadline: Option<jiff::Timestamp>,
    revision: i64,
    by: &str,
    beat: jiff::Timestamp,
) -> GuardState {
    GuardState {
        instance: "i-0demo4a100f00d".into(),
        deadline,
        on_expiry: OnExpiry::Release,
        grace: Duration::from_secs(120),
        provider_held: None,
        snooze_until: None,
        watchdog: Some(Watchdog {
            pid: 4242,
            heartbeat: beat,
        }),
        revision,
        updated: beat,
        updated_by: by.into(),
    }
}
