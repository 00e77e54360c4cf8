//! The deadline `status` shows and who enforces it: the guard row's (set by the cockpit, the
//! watchdog or `extend`), else the one the provider holds. Armed only while a live watchdog
//! or the provider, read back, holds it; otherwise `enforced_by` is `null` with the reason and
//! the fix beside it.

use gpumeter_core::cell::Cell;
use jiff::Timestamp;

use super::cloud::DeadlineJson;
use crate::guard::{Enforcement, GuardState, Holders, OnExpiry, enforcement};
use crate::provider::Inventory;
use crate::t;

/// The deadline at `now`, from the guard row and the inventory; `watchdog` is the row's
/// watchdog as `(pid, alive)`.
pub fn deadline(
    inventory: &Inventory,
    row: Option<&GuardState>,
    watchdog: Option<(u32, bool)>,
    now: Timestamp,
) -> Option<DeadlineJson> {
    let held = inventory.deadline.map(|d| d.at);
    let (at, on_expiry) = match row.and_then(|r| Some((r.deadline?, r.on_expiry))) {
        Some(armed) => armed,
        None => (held?, OnExpiry::Release),
    };
    // A release the provider holds at or before the deadline enforces it; a later one does not.
    let provider_holds = held.is_some_and(|h| h <= at);
    let enforced = enforcement(&Holders {
        provider: true,
        provider_holds,
        watchdog,
        down: None,
    });
    Some(DeadlineJson {
        at: at.to_string(),
        instant: at,
        remaining_s: at.duration_since(now).as_secs(),
        on_expiry: on_expiry.as_str(),
        held_by_provider: provider_holds,
        enforcement: enforced.json(),
        unenforced_said: match &enforced {
            Enforcement::Nothing { cause, .. } => Some(cause.said()),
            _ => None,
        },
    })
}

/// The text line under the deadline: who enforces it, or in capitals that nothing does.
pub fn enforcement_line(d: &DeadlineJson) -> String {
    let e = &d.enforcement;
    let line = match (e.enforced_by, e.watchdog_pid, &d.unenforced_said) {
        (Some("watchdog"), Some(pid), _) => {
            t!("status-enforced-watchdog", pid = pid.to_string())
        }
        (Some(by), _, _) => t!("status-enforced-by", by = by),
        (None, _, Some((reason, fix))) => {
            t!(
                "status-not-enforced",
                reason = reason.as_str(),
                fix = fix.as_str()
            )
        }
        (None, _, None) => t!(
            "status-not-enforced",
            reason = t!("status-nothing-holds-it"),
            fix = e.fix.as_deref().unwrap_or_default()
        ),
    };
    format!("{:<10}{line}", Cell(t!("status-enforced")))
}

#[cfg(test)]
mod tests {
    use gpumeter_core::cloud::HeldDeadline;
    use gpumeter_core::demo::{fixture_now, guard_state};
    use jiff::SignedDuration;

    use super::*;

    fn inventory(held: Option<Timestamp>) -> Inventory {
        Inventory {
            instance: None,
            resources: Vec::new(),
            deadline: held.map(|at| HeldDeadline { at }),
        }
    }

    #[test]
    fn the_guard_rows_deadline_shows_and_is_enforced_only_by_a_live_watchdog() {
        let now = fixture_now();
        let at = now + SignedDuration::from_hours(2);
        let mut row = guard_state(Some(at), 3, "extend", now);
        row.on_expiry = OnExpiry::Stop;
        let dead = deadline(&inventory(None), Some(&row), Some((4242, false)), now)
            .expect("the row's deadline shows though the provider holds none");
        assert_eq!(dead.instant, at);
        assert_eq!(dead.on_expiry, "stop");
        assert!(!dead.held_by_provider);
        let json = serde_json::to_value(&dead).unwrap();
        assert_eq!(json["enforced_by"], serde_json::Value::Null);
        let reason = json["not_enforced_reason"].as_str().unwrap();
        assert!(reason.contains("pid 4242) is not running"), "{reason}");
        assert!(json["fix"].as_str().unwrap().contains("gpumeter watchdog"));
        assert!(
            enforcement_line(&dead).starts_with("enforced  NOT ENFORCED: its watchdog (pid 4242)"),
            "{}",
            enforcement_line(&dead)
        );
        let live = deadline(&inventory(None), Some(&row), Some((4242, true)), now).unwrap();
        let json = serde_json::to_value(&live).unwrap();
        assert_eq!(json["enforced_by"], "watchdog");
        assert_eq!(json["watchdog_pid"], 4242);
        assert_eq!(json["not_enforced_reason"], serde_json::Value::Null);
        assert_eq!(
            enforcement_line(&live),
            "enforced  by the watchdog (pid 4242)"
        );
    }

    #[test]
    fn a_provider_release_enforces_what_it_comes_before() {
        let now = fixture_now();
        let at = now + SignedDuration::from_hours(2);
        let held = deadline(&inventory(Some(at)), None, None, now).unwrap();
        assert_eq!(held.on_expiry, "release");
        assert_eq!(held.enforcement.enforced_by, Some("provider"));
        let row = guard_state(Some(at), 3, "cockpit", now);
        let later = inventory(Some(at + SignedDuration::from_hours(1)));
        let d = deadline(&later, Some(&row), None, now).unwrap();
        assert_eq!(d.enforcement.enforced_by, None, "{d:?}");
        assert!(deadline(&inventory(None), None, None, now).is_none());
    }
}
