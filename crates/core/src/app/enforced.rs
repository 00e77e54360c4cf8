//! The cockpit's answer to "who enforces the deadline now" and "is there still something to
//! guard": the deadline is shown armed only while a live watchdog or the provider holds it,
//! and a stopped or released instance has no idle clock, no telemetry to show as work, and
//! (released) no countdown and nothing to threaten at quit.

use std::borrow::Cow;

use super::offer::instance_state;
use super::state::App;
use crate::guard::{Enforcement, Holders, enforcement};
use crate::meter::InstanceState;

/// Who enforces the cockpit's deadline now.
pub fn deadline_enforcement(app: &App) -> Enforcement {
    let supervisor = app.guard.supervisor.as_ref();
    enforcement(&Holders {
        provider: !super::welcome::nothing_to_guard(app),
        provider_holds: app.deadline.is_some_and(|d| d.held_by_provider),
        watchdog: app.guard.watchdog.map(|w| (w.pid, w.alive)),
        down: supervisor.and_then(crate::guard::Supervisor::down),
    })
}

/// The instance as the provider lists it is released: no deadline is left to count down.
pub fn is_released(app: &App) -> bool {
    instance_state(app) == Some(InstanceState::Released)
}

/// The instance is stopped (or released): its GPUs do no work, so nothing is idle either.
pub fn is_stopped(app: &App) -> bool {
    matches!(
        instance_state(app),
        Some(InstanceState::Stopped | InstanceState::Released)
    )
}

/// The instance runs without its GPUs by choice (a card-hour platform's no-GPU mode): no GPU
/// reading is expected, and none is no fault.
pub fn runs_without_gpus(app: &App) -> bool {
    instance_state(app) == Some(InstanceState::NoGpu)
}

/// `stopped` or `released`, for the panels that would otherwise show a reading of a machine
/// that is not running.
pub fn not_running_word(app: &App) -> Option<Cow<'static, str>> {
    match instance_state(app)? {
        InstanceState::Stopped => Some(crate::t!("state-stopped")),
        InstanceState::Released => Some(crate::t!("state-released")),
        InstanceState::Running | InstanceState::NoGpu => None,
    }
}
