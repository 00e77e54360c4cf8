//! The guards on screen: the idle line and the armed policies under the countdown, and the
//! grace banner over the top while a stop or release waits, in the dark theme and without
//! colour.

use std::time::Duration;

use gpumeter::app::{App, Event, IdleWatch, KeyCode, KeyPress, update};
use gpumeter::config::OnExpiry;
use gpumeter::demo::demo_app;
use gpumeter::guard::IdleRule;
use gpumeter::ui::theme::{Preset, Theme};
use jiff::SignedDuration;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier};

use crate::common::ui_frame::render;

fn draw(app: &App, width: u16, height: u16, theme: &Theme) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
    terminal
        .draw(|frame| render(frame, app, theme))
        .expect("drawing never fails on a test backend");
    terminal
}

fn dark() -> Theme {
    Theme::builtin(Preset::Dark)
}

fn no_color() -> Theme {
    dark().without_colors()
}

/// The demo cockpit with an idle stop after 30 minutes, idle for the last 12.
fn idle_for_12_minutes() -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    let rule = IdleRule {
        window: Duration::from_secs(30 * 60),
        ..IdleRule::default()
    };
    let mut watch = IdleWatch::new(rule, OnExpiry::Stop);
    watch
        .tracker
        .observe(app.now - SignedDuration::from_mins(12), true);
    watch.tracker.observe(app.now, true);
    app.idle = Some(watch);
    app
}

/// The demo cockpit 92 s past a deadline that stops after 2 minutes' grace.
fn stop_in_grace() -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    if let Some(d) = app.deadline.as_mut() {
        d.at = app.now - SignedDuration::from_secs(92);
        d.on_expiry = OnExpiry::Stop;
    }
    app
}

fn screen(app: &App, width: u16, height: u16, theme: &Theme) -> String {
    draw(app, width, height, theme).backend().to_string()
}

#[test]
fn the_idle_line_counts_towards_the_stop_and_the_armed_policies_are_listed() {
    let app = idle_for_12_minutes();
    let wide = screen(&app, 160, 48, &dark());
    // fixture_now is 14:00 UTC; idle since 13:48, so the stop comes at 14:18.
    assert!(wide.contains("idle 12m/30m → stop at 14:18"), "{wide}");
    assert!(
        wide.contains("armed: deadline 16:15 → alert · idle 30m → stop"),
        "{wide}"
    );
    assert_eq!(
        screen(&app, 160, 48, &no_color()),
        wide,
        "the same without colour"
    );
    insta::assert_snapshot!(wide);
    let compact = screen(&app, 80, 24, &dark());
    assert!(
        compact.contains("idle 12m/30m → stop at 14:18"),
        "{compact}"
    );
    insta::assert_snapshot!("idle_line_80x24", compact);
}

#[test]
fn an_active_machine_shows_the_idle_rule_armed_and_no_countdown() {
    let mut app = idle_for_12_minutes();
    let now = app.now;
    if let Some(w) = app.idle.as_mut() {
        w.tracker.observe(now, false);
    }
    let wide = screen(&app, 160, 48, &no_color());
    assert!(wide.contains("active · idle stop after 30m"), "{wide}");
    assert!(!wide.contains("idle 12m"), "{wide}");
    insta::assert_snapshot!(wide);
    // A narrow panel keeps its rows for the large digits while nothing is idle.
    let compact = screen(&app, 80, 24, &no_color());
    assert!(!compact.contains("active ·"), "{compact}");
    assert!(
        !compact.contains("│ 2:15:00"),
        "the digits are large:\n{compact}"
    );
}

#[test]
fn the_grace_banner_says_when_the_stop_comes_and_that_any_key_cancels() {
    let app = stop_in_grace();
    for (name, theme) in [("dark", dark()), ("no_color", no_color())] {
        let terminal = draw(&app, 80, 24, &theme);
        let buf = terminal.backend().buffer();
        let top: String = (0..80).map(|x| buf[(x, 0)].symbol()).collect();
        assert!(top.contains("STOPPING in 0:28 — any key cancels"), "{top}");
        // The whole top row is the banner, reversed so it reads without colour too.
        for x in [0, 40, 79] {
            let cell = &buf[(x, 0)];
            assert!(
                cell.modifier.contains(Modifier::REVERSED),
                "{name}: cell {x} not reversed"
            );
            if name == "no_color" {
                assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset), "{name}");
            } else {
                assert_ne!(cell.fg, Color::Reset, "{name}: the alarm's colour");
            }
        }
        insta::assert_snapshot!(format!("grace_banner_{name}"), terminal.backend());
    }
    let mut release = stop_in_grace();
    if let Some(d) = release.deadline.as_mut() {
        d.on_expiry = OnExpiry::Release;
    }
    assert!(screen(&release, 160, 48, &dark()).contains("RELEASING in 0:28 — any key cancels"));
}

#[test]
fn a_key_cancels_the_grace_and_the_banner_goes() {
    let mut app = stop_in_grace();
    update(&mut app, Event::Key(KeyPress::new(KeyCode::Char('x'))));
    let after = screen(&app, 80, 24, &dark());
    assert!(!after.contains("STOPPING"), "{after}");
    assert!(
        app.events
            .iter()
            .any(|e| e.text.contains("stop at the deadline cancelled by a key"))
    );
}
