//! The cockpit's enforcement answers on the demo cockpit: tests kept beside the demo, which
//! builds on the app, so the app itself need not import the demo.

use std::time::Duration;

use super::demo_app;
use crate::app::App;
use crate::app::WatchdogView;
use crate::app::enforced::{deadline_enforcement, not_running_word};
use crate::app::guards::{IdleStatus, IdleWatch, grace_banner, idle_status_of, quit_line};
use crate::guard::Enforcement;
use crate::guard::{IdleRule, OnExpiry};
use crate::meter::InstanceState;

fn set_state(app: &mut App, state: InstanceState) {
    if let Some(i) = app
        .cloud
        .inventory
        .as_mut()
        .and_then(|i| i.instance.as_mut())
    {
        i.state = state;
    }
}

fn watchdog(pid: u32, alive: bool, app: &App) -> WatchdogView {
    WatchdogView {
        pid,
        last_check: app.now,
        lock_held: Some(alive),
        alive,
    }
}

#[test]
fn the_demo_deadline_is_enforced_only_while_its_watchdog_lives() {
    let mut app = demo_app(Duration::from_secs(3600));
    app.guard.watchdog = None;
    let e = deadline_enforcement(&app);
    assert!(!e.is_enforced(), "{e:?}");
    assert!(e.text().contains("no watchdog runs"), "{}", e.text());
    app.guard.watchdog = Some(watchdog(77, false, &app));
    assert!(
        deadline_enforcement(&app)
            .text()
            .contains("its watchdog (pid 77) is not running")
    );
    app.guard.watchdog = Some(watchdog(77, true, &app));
    assert_eq!(
        deadline_enforcement(&app),
        Enforcement::Watchdog { pid: 77 }
    );
    app.guard.watchdog = None;
    if let Some(d) = app.deadline.as_mut() {
        d.held_by_provider = true;
    }
    assert_eq!(deadline_enforcement(&app), Enforcement::Provider);
}

#[test]
fn with_no_provider_a_deadline_is_not_enforced() {
    let mut app = demo_app(Duration::from_secs(3600));
    app.cloud.configured = false;
    let e = deadline_enforcement(&app);
    assert!(
        e.text().contains("no provider is configured"),
        "{}",
        e.text()
    );
}

#[test]
fn a_stopped_instance_has_no_idle_clock() {
    let mut app = demo_app(Duration::from_secs(3600));
    let mut watch = IdleWatch::new(
        IdleRule {
            window: Duration::from_secs(60),
            ..IdleRule::default()
        },
        OnExpiry::Stop,
    );
    watch
        .tracker
        .observe(app.now - jiff::SignedDuration::from_secs(60), true);
    watch.tracker.observe(app.now, true);
    assert!(matches!(
        idle_status_of(&app, &watch),
        IdleStatus::Idle { .. }
    ));
    set_state(&mut app, InstanceState::Stopped);
    let status = idle_status_of(&app, &watch);
    assert!(matches!(status, IdleStatus::Stopped { .. }), "{status:?}");
    let text = status.text(&app.spend.time_zone);
    assert_eq!(text, "stopped · idle stop after 1m waits for a start");
    assert_eq!(not_running_word(&app).as_deref(), Some("stopped"));
}

#[test]
fn after_a_release_nothing_is_armed_and_quit_threatens_nothing() {
    let mut app = demo_app(Duration::from_secs(3600));
    app.guard.watchdog = None;
    if let Some(d) = app.deadline.as_mut() {
        d.on_expiry = OnExpiry::Release;
        d.at = app.now - jiff::SignedDuration::from_secs(10);
    }
    assert!(
        quit_line(&app).contains("will not happen"),
        "{}",
        quit_line(&app)
    );
    assert!(grace_banner(&app, app.now).is_some());
    set_state(&mut app, InstanceState::Released);
    let line = quit_line(&app);
    assert_eq!(line, "the instance is released: nothing is left to guard");
    assert_eq!(crate::app::guards::armed(&app).deadline, None);
    assert_eq!(grace_banner(&app, app.now), None);
    assert_eq!(not_running_word(&app).as_deref(), Some("released"));
}
