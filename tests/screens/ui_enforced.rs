//! A guard on screen is armed only while something live holds it: the Release panel marks a
//! stop nothing enforces, and a stopped instance shows no GPU work and no idle countdown.

use std::time::Duration;

use gpumeter::app::{App, Event, IdleWatch, WatchdogView, update};
use gpumeter::config::OnExpiry;
use gpumeter::demo::demo_app;
use gpumeter::guard::IdleRule;
use gpumeter::meter::InstanceState;
use gpumeter::ui::theme::{Preset, Theme};
use jiff::SignedDuration;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::common::ui_frame::render;

fn screen(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("a test terminal");
    terminal
        .draw(|frame| render(frame, app, &Theme::builtin(Preset::Dark)))
        .expect("drawing never fails on a test backend");
    terminal.backend().to_string()
}

/// The demo cockpit with a stop two hours away and the watchdog given.
fn stop_in_two_hours(watchdog: Option<(u32, bool)>) -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    if let Some(d) = app.deadline.as_mut() {
        d.at = app.now + SignedDuration::from_hours(2);
        d.on_expiry = OnExpiry::Stop;
        d.held_by_provider = false;
    }
    app.guard.watchdog = watchdog.map(|(pid, alive)| WatchdogView {
        pid,
        last_check: app.now,
        lock_held: Some(alive),
        alive,
    });
    app
}

#[test]
fn a_stop_no_watchdog_holds_is_marked_not_enforced_with_the_reason_and_the_fix() {
    let none = screen(&stop_in_two_hours(None));
    assert!(
        none.contains("at zero: stop the instance — not enforced"),
        "{none}"
    );
    assert!(none.contains("no watchdog runs"), "{none}");
    assert!(none.contains("`gpumeter watchdog`"), "{none}");
    let dead = screen(&stop_in_two_hours(Some((4242, false))));
    assert!(dead.contains("— not enforced"), "{dead}");
    assert!(
        dead.contains("its watchdog (pid 4242) is not running"),
        "{dead}"
    );
    let live = screen(&stop_in_two_hours(Some((4242, true))));
    assert!(live.contains("at zero: stop the instance"), "{live}");
    assert!(!live.contains("not enforced"), "{live}");
}

#[test]
fn a_stopped_instance_shows_no_gpu_work_and_no_idle_countdown() {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    let rule = IdleRule {
        window: Duration::from_secs(60),
        ..IdleRule::default()
    };
    let mut watch = IdleWatch::new(rule, OnExpiry::Stop);
    watch
        .tracker
        .observe(app.now - SignedDuration::from_mins(1), true);
    watch.tracker.observe(app.now, true);
    app.idle = Some(watch);
    let running = screen(&app);
    assert!(running.contains("idle 1m/1m"), "{running}");
    let mut inventory = app.cloud.inventory.clone().expect("the demo inventory");
    if let Some(i) = inventory.instance.as_mut() {
        i.state = InstanceState::Stopped;
        i.history.push((app.now, InstanceState::Stopped));
    }
    update(&mut app, Event::Inventory(Ok(inventory)));
    let stopped = screen(&app);
    assert!(
        stopped.contains("instance stopped: its GPUs run nothing"),
        "{stopped}"
    );
    assert!(
        stopped.contains("stopped · idle stop after 1m"),
        "{stopped}"
    );
    assert!(!stopped.contains("idle 1m/1m"), "{stopped}");
    assert!(
        !stopped.contains(" 95%"),
        "no GPU reading on a stopped instance:\n{stopped}"
    );
}

#[test]
fn a_stopped_instance_its_platform_will_release_counts_down_in_the_release_panel() {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    app.deadline = None;
    let mut inventory = app.cloud.inventory.clone().expect("the demo inventory");
    if let Some(i) = inventory.instance.as_mut() {
        i.provider = "autodl".into();
        i.state = InstanceState::Stopped;
        i.history.push((
            app.now - SignedDuration::from_hours(24),
            InstanceState::Stopped,
        ));
    }
    update(&mut app, Event::Inventory(Ok(inventory.clone())));
    app.deadline = None;
    let stopped = screen(&app);
    assert!(stopped.contains("autodl releases it in 14d0h"), "{stopped}");
    // On a platform that keeps a stopped instance, nothing counts down.
    if let Some(i) = inventory.instance.as_mut() {
        i.provider = "aws".into();
    }
    update(&mut app, Event::Inventory(Ok(inventory)));
    app.deadline = None;
    assert!(!screen(&app).contains("releases it in"));
}

#[test]
fn an_instance_without_gpus_by_choice_shows_no_gpu_as_expected_not_an_error() {
    use gpumeter::telemetry::{GpuUnavailable, GpuUnavailableKind};
    let mut app = demo_app(Duration::from_secs(200 * 60));
    app.idle = Some(IdleWatch::new(
        IdleRule {
            window: Duration::from_secs(60),
            ..IdleRule::default()
        },
        OnExpiry::Stop,
    ));
    app.telemetry.gpus = Some(Err(GpuUnavailable {
        kind: GpuUnavailableKind::LibraryNotFound,
        detail: "libnvidia-ml.so.1: cannot open shared object file".into(),
    }));
    let missing = screen(&app);
    assert!(missing.contains("no NVIDIA GPU"), "{missing}");
    let mut inventory = app.cloud.inventory.clone().expect("the demo inventory");
    if let Some(i) = inventory.instance.as_mut() {
        i.state = InstanceState::NoGpu;
        i.history.push((app.now, InstanceState::NoGpu));
    }
    update(&mut app, Event::Inventory(Ok(inventory)));
    let by_choice = screen(&app);
    assert!(
        by_choice.contains("no GPU, as expected: the instance runs without its GPUs"),
        "{by_choice}"
    );
    assert!(!by_choice.contains("no NVIDIA GPU"), "{by_choice}");
    assert!(
        by_choice.contains("running without GPUs"),
        "the header says so:\n{by_choice}"
    );
}
