//! The cockpit's side of a budget that stops at its limit: the watchdog writes the deadline
//! to the guard row, and the cockpit shows it as any deadline in its grace period, with the
//! banner, and a key keeps the instance.

use std::time::Duration;

use crate::drive::ch;
use gpumeter_core::app::guards::grace_banner;
use gpumeter_core::app::{Effect, Event, update};
use gpumeter_core::demo::{demo_app, guard_state};
use gpumeter_core::guard::OnExpiry;
use jiff::SignedDuration;

#[test]
fn a_deadline_the_watchdog_budget_sets_shows_the_grace_banner_and_a_key_keeps_the_instance() {
    let mut app = demo_app(Duration::from_secs(3 * 3600));
    let now = app.now;
    let mut row = guard_state(Some(now), 7, "watchdog 4242 (budget)", now);
    row.on_expiry = OnExpiry::Stop;
    update(&mut app, Event::Guard(row));
    assert!(
        app.events
            .back()
            .is_some_and(|e| e.text.contains("by watchdog 4242 (budget)")),
        "{:?}",
        app.events.back()
    );
    update(&mut app, Event::Tick(now + SignedDuration::from_secs(30)));
    let banner = grace_banner(&app, app.now).expect("the grace banner");
    assert_eq!(banner.on_expiry, OnExpiry::Stop);
    assert!(
        banner.text().starts_with("STOPPING in "),
        "{}",
        banner.text()
    );
    let effects = ch(&mut app, 'x');
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::SaveGuard { .. })),
        "{effects:?}"
    );
    assert_eq!(
        grace_banner(&app, app.now),
        None,
        "kept: {:?}",
        app.deadline
    );
}
