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
pub fn how_to_guard() -> String {
    crate::t!("how-to-guard").into_owned()
}

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
        parts.push(crate::t!(
            "unguarded-deadline",
            action = word(policy),
            at = clock(at, &app.spend.time_zone)
        ));
    }
    if let Some((after, policy)) = armed.idle.filter(|(_, p)| *p != OnExpiry::Alert) {
        parts.push(crate::t!(
            "unguarded-idle",
            action = word(policy),
            after = span(after)
        ));
    }
    if parts.is_empty() {
        return None;
    }
    // Short enough for the events panel at 80×24, the fix included.
    Some(crate::t!(
        "unguarded",
        what = parts.join(&crate::t!("list-or"))
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use jiff::SignedDuration;

    use super::*;
    use crate::app::guards::{IdleWatch, quit_line};
    use crate::app::keymap::Intent;
    use crate::app::offer::not_now;
    use crate::app::state::{CloudView, Settings};
    use crate::app::update::{Effect, Event, update};
    use crate::app::{Deadline, Level};
    use crate::cloud::{Capabilities, ProviderError};
    use crate::guard::{GuardState, IdleRule, Supervisor, Watchdog};
    use crate::spend::Spend;

    fn ts(s: i64) -> Timestamp {
        Timestamp::from_second(1_800_000_000 + s).unwrap()
    }

    /// A cockpit as the edge builds it: the default idle alert, a supervisor for the watchdog.
    fn cockpit(cloud: CloudView) -> App {
        let spend = Spend::new(None, None, TimeZone::UTC);
        let mut app = App::new(ts(0), Settings::default(), cloud, spend);
        app.idle = Some(IdleWatch::new(IdleRule::default(), OnExpiry::Alert));
        app.guard.supervisor = Some(Supervisor::new(Duration::from_secs(5)));
        app
    }

    fn starts(effects: &[Effect]) -> bool {
        effects.contains(&Effect::StartWatchdog)
    }

    #[test]
    fn with_no_provider_no_watchdog_is_started_or_restarted_and_nothing_is_an_error() {
        let mut app = cockpit(CloudView::unconfigured());
        assert!(nothing_to_guard(&app));
        assert!(!starts(&update(&mut app, Event::Tick(ts(1)))));
        assert!(app.guard.supervisor.is_none(), "nothing to supervise");
        // What would restart a watchdog with a provider restarts none here.
        let ended = Event::WatchdogEnded {
            pid: 77,
            failure: Some("ended (exit status: 1)".into()),
        };
        assert!(!starts(&update(&mut app, ended)));
        let row = GuardState {
            instance: "i-0".into(),
            deadline: None,
            on_expiry: OnExpiry::Alert,
            grace: Duration::from_secs(120),
            provider_held: None,
            snooze_until: None,
            watchdog: Some(Watchdog::beat(77, ts(0))),
            idle: None,
            revision: 1,
            updated: ts(0),
            updated_by: "watchdog".into(),
        };
        assert!(!starts(&update(&mut app, Event::Guard(row))));
        for s in 2..200 {
            assert!(!starts(&update(&mut app, Event::Tick(ts(s)))));
        }
        let none = ProviderError::state("no provider", "no provider configured");
        update(&mut app, Event::Inventory(Err(none)));
        assert_eq!(app.cloud.error, None, "no provider is not an error");
        assert!(app.events.is_empty(), "said by the welcome, not the log");
        assert!(quit_line(&app).starts_with("no provider configured: nothing to guard"));
        assert!(quit_line(&app).contains("gpumeter init"));
        assert!(not_now(Intent::Release, &app).is_some());
        assert!(not_now(Intent::Stop, &app).is_some());
        assert_eq!(
            not_now(Intent::Extend, &app),
            None,
            "a reminder still works"
        );
    }

    #[test]
    fn with_a_provider_the_first_tick_starts_the_watchdog_as_before() {
        let caps = Capabilities {
            start: false,
            stop: true,
            snapshots: false,
            deadline: false,
        };
        let mut app = cockpit(CloudView::new("aws", caps));
        assert!(!nothing_to_guard(&app));
        assert!(starts(&update(&mut app, Event::Tick(ts(1)))));
        assert!(app.guard.supervisor.is_some());
        assert_eq!(unguarded(&app), None);
        assert_eq!(not_now(Intent::Release, &app), None);
    }

    #[test]
    fn a_deadline_with_no_provider_is_said_once_plainly_with_the_fix() {
        let mut app = cockpit(CloudView::unconfigured());
        // 1_800_000_000 is 08:00:00 UTC; the deadline is 09:30.
        let at = ts(0) + SignedDuration::from_mins(90);
        app.deadline = Some(Deadline::new(at, OnExpiry::Release, ts(0)));
        for s in 1..5 {
            update(&mut app, Event::Tick(ts(s)));
        }
        let said: Vec<_> = app.events.iter().collect();
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(said[0].level, Level::Warn, "plain, not an alarm");
        assert_eq!(
            said[0].text,
            "nothing enforces the release at 09:30: no provider; `gpumeter init` or \
             --provider gives one"
        );
        // An idle stop is named too; the default idle alert alone says nothing.
        let mut idle = cockpit(CloudView::unconfigured());
        assert_eq!(unguarded(&idle), None);
        idle.idle = Some(IdleWatch::new(IdleRule::default(), OnExpiry::Stop));
        let line = unguarded(&idle).unwrap_or_default();
        assert!(
            line.contains("nothing enforces the idle stop after 30m"),
            "{line}"
        );
    }
}
