//! The first run, with no provider configured or detected. There is no instance to read, act
//! on or guard, so no watchdog is started (it would only die for want of a provider, again and
//! again), and nothing is reported as an error: the screen welcomes instead. What the user
//! armed anyway (a deadline, an idle stop) is said once, plainly, not to be enforced, with how
//! to give the cockpit a provider.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::guards::{armed, span, word};
use super::state::{App, Level};
use crate::guard::OnExpiry;

/// How to give the cockpit something to guard, wherever it says there is nothing.
pub const HOW_TO_GUARD: &str = "`gpumeter init` writes a config, or start with --provider";

/// Nothing to guard: no provider, so no instance a watchdog could act on.
pub fn nothing_to_guard(app: &App) -> bool {
    !app.cloud.configured
}

/// What the user armed that nothing enforces, since there is nothing to guard: one line with
/// the fix. `None` with a provider, or when nothing but the default idle alert is armed.
pub fn unguarded(app: &App) -> Option<String> {
    if !nothing_to_guard(app) {
        return None;
    }
    let armed = armed(app);
    let mut parts = Vec::new();
    if let Some((at, policy)) = armed.deadline {
        parts.push(format!(
            "the {} at {}",
            word(policy),
            clock(at, &app.spend.time_zone)
        ));
    }
    if let Some((after, policy)) = armed.idle.filter(|(_, p)| *p != OnExpiry::Alert) {
        parts.push(format!("the idle {} after {}", word(policy), span(after)));
    }
    if parts.is_empty() {
        return None;
    }
    Some(format!(
        "no provider is configured, so nothing enforces {} (this cockpit only warns while it \
         is open); {HOW_TO_GUARD}",
        parts.join(" or ")
    ))
}

/// At the first tick, with nothing to guard: the supervisor goes, so no watchdog is started
/// (and none restarted), and what is armed anyway is said once.
pub(crate) fn stand_down(app: &mut App) {
    if !nothing_to_guard(app) || app.guard.supervisor.take().is_none() {
        return;
    }
    app.dirty = true;
    if let Some(line) = unguarded(app) {
        app.log(Level::Warn, line);
    }
}

fn clock(at: Timestamp, tz: &TimeZone) -> String {
    at.to_zoned_datetime(tz.clone())
        .strftime("%H:%M")
        .to_string()
}
