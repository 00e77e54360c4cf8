//! `update` supervising the watchdog: started at the first tick, started again when its
//! process is gone or its heart stops, given up on (with a banner, the bell and a webhook)
//! when it keeps dying or cannot start. Time is the events' own.

use std::time::Duration;

use gpumeter_core::app::{App, Effect, Event, Level, update};
use gpumeter_core::demo::{demo_app, guard_state};
use gpumeter_core::guard::{StartError, Supervisor};
use jiff::{SignedDuration, Timestamp};

/// The demo cockpit supervising a watchdog that checks every 5 s.
fn app() -> App {
    let mut app = demo_app(Duration::from_secs(3600));
    app.guard.supervisor = Some(Supervisor::new(Duration::from_secs(5)));
    app
}

fn at(app: &App, secs: i64) -> Timestamp {
    app.now + SignedDuration::from_secs(secs)
}

/// The guard row read at `now`, its watchdog `pid` last beating at `beat`.
fn row(app: &mut App, now: Timestamp, pid: u32, beat: Timestamp) -> Vec<Effect> {
    update(app, Event::Tick(now));
    let mut state = guard_state(None, 1, "watchdog", beat);
    if let Some(w) = state.watchdog.as_mut() {
        w.pid = pid;
    }
    update(app, Event::Guard(state))
}

fn last(app: &App) -> (Level, String) {
    let e = app.events.back().expect("a line");
    (e.level, e.text.clone())
}

/// Starts the watchdog as pid 4242 and lets it claim the row.
fn guarded(app: &mut App) {
    let now = app.now;
    let effects = update(app, Event::Tick(now));
    assert!(effects.contains(&Effect::StartWatchdog), "{effects:?}");
    assert!(
        !update(app, Event::Tick(at(app, 1))).contains(&Effect::StartWatchdog),
        "started once"
    );
    assert!(update(app, Event::WatchdogStarted(Ok(4242))).is_empty());
    let beat = at(app, 1);
    assert!(row(app, beat, 4242, beat).is_empty());
    assert!(app.guard.watchdog.unwrap().alive);
}

#[test]
fn a_cockpit_that_supervises_nothing_starts_nothing() {
    let mut app = demo_app(Duration::from_secs(3600));
    let now = app.now;
    assert!(!update(&mut app, Event::Tick(now)).contains(&Effect::StartWatchdog));
    let stale = now - SignedDuration::from_mins(5);
    assert!(row(&mut app, now, 4242, stale).is_empty());
}

#[test]
fn a_killed_watchdog_is_started_again_before_its_heartbeat_is_stale() {
    let mut app = app();
    guarded(&mut app);
    let failure = Some("ended (signal: 9 (SIGKILL))".to_string());
    let effects = update(&mut app, Event::WatchdogEnded { pid: 4242, failure });
    assert_eq!(effects, vec![Effect::StartWatchdog]);
    assert!(!app.guard.watchdog.unwrap().alive, "shown as not alive");
    let (level, text) = last(&app);
    assert_eq!(level, Level::Warn);
    assert!(
        text.contains("pid 4242") && text.contains("SIGKILL") && text.contains("starting it again"),
        "{text}"
    );
    assert!(app.guard.supervisor.as_ref().unwrap().restarting());
    // Its row still beats from before it died: it is not taken for alive.
    let (now, beat) = (at(&app, 2), at(&app, 1));
    assert!(row(&mut app, now, 4242, beat).is_empty());
    assert!(!app.guard.watchdog.unwrap().alive);
    update(&mut app, Event::WatchdogStarted(Ok(5151)));
    assert!(last(&app).1.contains("watchdog started again (pid 5151)"));
    let now = at(&app, 3);
    assert!(row(&mut app, now, 5151, now).is_empty());
    assert!(app.guard.watchdog.unwrap().alive);
    assert!(!app.guard.supervisor.as_ref().unwrap().restarting());
}

#[test]
fn a_silent_watchdog_is_started_again() {
    let mut app = app();
    guarded(&mut app);
    let beat = app.guard.watchdog.unwrap().last_check;
    let now = beat + SignedDuration::from_secs(19);
    assert!(row(&mut app, now, 4242, beat).is_empty(), "still fresh");
    let now = beat + SignedDuration::from_secs(21);
    assert_eq!(row(&mut app, now, 4242, beat), vec![Effect::StartWatchdog]);
    assert!(last(&app).1.contains("went silent"), "{:?}", last(&app));
}

#[test]
fn a_watchdog_that_keeps_dying_raises_the_alarm_once() {
    let mut app = app();
    guarded(&mut app);
    let mut pid = 4242;
    for round in 0..3 {
        let effects = update(
            &mut app,
            Event::WatchdogEnded {
                pid,
                failure: Some("ended (exit status: 101)".into()),
            },
        );
        assert_eq!(effects, vec![Effect::StartWatchdog], "restart {round}");
        pid += 1;
        update(&mut app, Event::WatchdogStarted(Ok(pid)));
        let now = at(&app, 1);
        row(&mut app, now, pid, now);
    }
    app.bell = false;
    let effects = update(
        &mut app,
        Event::WatchdogEnded {
            pid,
            failure: Some("ended (exit status: 101)".into()),
        },
    );
    let [
        Effect::Notify {
            level,
            key,
            text,
            instance,
        },
    ] = &effects[..]
    else {
        panic!("{effects:?}")
    };
    assert_eq!((*level, key.as_str()), (Level::Error, "watchdog-down"));
    assert_eq!(instance.as_deref(), Some("i-0demo4a100f00d"));
    assert!(text.starts_with("NO WATCHDOG"), "{text}");
    assert!(app.bell, "the terminal is told too");
    assert_eq!(last(&app), (Level::Error, text.clone()));
    assert!(app.guard.supervisor.as_ref().unwrap().down().is_some());
    // Said once; a watchdog started by hand ends it.
    let (now, beat) = (at(&app, 2), at(&app, -1));
    assert!(row(&mut app, now, pid, beat).is_empty());
    assert!(row(&mut app, now, 9000, now).is_empty());
    assert!(last(&app).1.contains("guards again (pid 9000)"));
    assert_eq!(app.guard.supervisor.as_ref().unwrap().down(), None);
}

#[test]
fn a_watchdog_that_cannot_start_raises_the_alarm() {
    let mut app = app();
    let now = app.now;
    update(&mut app, Event::Tick(now));
    let effects = update(
        &mut app,
        Event::WatchdogStarted(Err(StartError::Os(
            "No such file or directory (os error 2)".into(),
        ))),
    );
    assert!(
        matches!(&effects[..], [Effect::Notify { text, .. }] if text.contains("cannot start the watchdog: No such file")),
        "{effects:?}"
    );
    assert_eq!(last(&app).0, Level::Error);
}

#[test]
fn a_watchdog_that_ends_on_purpose_is_left_ended() {
    let mut app = app();
    guarded(&mut app);
    // `gpumeter watchdog --stop`, or a confirmed release: it clears its claim, then exits 0.
    let now = at(&app, 2);
    update(&mut app, Event::Tick(now));
    let mut state = guard_state(None, 2, "watchdog", now);
    state.watchdog = None;
    assert!(update(&mut app, Event::Guard(state)).is_empty());
    let ended = Event::WatchdogEnded {
        pid: 4242,
        failure: None,
    };
    assert!(update(&mut app, ended).is_empty());
}
