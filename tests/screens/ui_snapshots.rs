//! Screen tests: the cockpit drawn from the demo fixture at a fixed instant into a
//! `TestBackend`, recorded as text snapshots, plus a few colour checks on the buffer.

use std::time::Duration;

use gpumeter::app::{App, Confirm, Focus, Level, Mode};
use gpumeter::demo::demo_app;
use gpumeter::provider::Action;
use gpumeter::telemetry::{GpuUnavailable, GpuUnavailableKind};
use gpumeter::ui::theme::{Role, Theme};
use jiff::SignedDuration;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use crate::common::ui_frame::render;

/// The demo cockpit 3 h 20 min after start.
fn app() -> App {
    demo_app(Duration::from_secs(200 * 60))
}

fn draw(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
    let theme = Theme::default();
    terminal
        .draw(|frame| render(frame, app, &theme))
        .expect("drawing never fails on a test backend");
    terminal
}

#[test]
fn main_screen_80x24() {
    insta::assert_snapshot!(draw(&app(), 80, 24).backend());
}

#[test]
fn main_screen_160x48() {
    insta::assert_snapshot!(draw(&app(), 160, 48).backend());
}

#[test]
fn help_overlay() {
    let mut app = app();
    app.mode = Mode::Help;
    insta::assert_snapshot!(draw(&app, 80, 24).backend());
}

#[test]
fn help_overlay_read_only_has_no_destructive_keys() {
    let mut app = app();
    app.settings.read_only = true;
    app.mode = Mode::Help;
    let terminal = draw(&app, 80, 24);
    let screen = terminal.backend().to_string();
    for key in ["R ", "S ", "C "] {
        assert!(
            !screen.contains(&format!("│ {key}")),
            "{key}in read-only help"
        );
    }
    assert!(!screen.contains("release the instance"));
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn release_confirmation() {
    let mut app = app();
    app.mode = Mode::Confirm(Confirm::for_action(&app, Action::Release));
    insta::assert_snapshot!(draw(&app, 80, 24).backend());
}

#[test]
fn release_confirmation_wide() {
    let mut app = app();
    app.mode = Mode::Confirm(Confirm::for_action(&app, Action::Release));
    insta::assert_snapshot!(draw(&app, 160, 48).backend());
}

#[test]
fn no_gpu_panel() {
    let mut app = app();
    app.telemetry.gpus = Some(Err(GpuUnavailable {
        kind: GpuUnavailableKind::LibraryNotFound,
        detail: "libnvidia-ml.so.1: cannot open shared object file: No such file or directory"
            .into(),
    }));
    app.telemetry.findings.clear();
    insta::assert_snapshot!(draw(&app, 80, 24).backend());
}

#[test]
fn action_failure() {
    let mut app = app();
    app.cloud.running = None;
    app.log(Level::Info, "release: sent to demo");
    app.log(
        Level::Error,
        "release failed: the provider refused: instance is protected against termination",
    );
    app.focus = Focus::Events;
    insta::assert_snapshot!(draw(&app, 80, 24).backend());
}

#[test]
fn action_in_flight() {
    let mut app = app();
    app.log(Level::Info, "release: sent to demo");
    app.cloud.running = Some((Action::Release, app.now - SignedDuration::from_secs(3)));
    insta::assert_snapshot!(draw(&app, 80, 24).backend());
}

#[test]
fn processes_view() {
    let mut app = app();
    app.show_processes = true;
    insta::assert_snapshot!(draw(&app, 80, 24).backend());
}

#[test]
fn processes_view_wide() {
    let mut app = app();
    app.show_processes = true;
    insta::assert_snapshot!(draw(&app, 160, 48).backend());
}

#[test]
fn extend_prompt_with_an_error() {
    let mut app = app();
    app.mode = Mode::Prompt {
        input: "2x".into(),
        error: Some("`2x` is not a duration: try 45m, 2h or 1h30m".into()),
        asking: None,
    };
    insta::assert_snapshot!(draw(&app, 80, 24).backend());
}

#[test]
fn the_extend_prompt_puts_the_cursor_after_what_was_typed_and_nothing_else_shows_one() {
    let mut app = app();
    let theme = Theme::default();
    let area = ratatui::layout::Rect::new(0, 0, 80, 24);
    let mut buffer = Buffer::empty(area);
    assert_eq!(gpumeter::ui::render(area, &mut buffer, &app, &theme), None);
    app.mode = Mode::Prompt {
        input: "2h".into(),
        error: None,
        asking: None,
    };
    let mut buffer = Buffer::empty(area);
    let cursor = gpumeter::ui::render(area, &mut buffer, &app, &theme).expect("a cursor");
    let typed = (cursor.x - 4..cursor.x)
        .map(|x| buffer[(x, cursor.y)].symbol())
        .collect::<String>();
    assert_eq!(typed, "> 2h");
}

#[test]
fn too_small() {
    insta::assert_snapshot!(draw(&app(), 50, 12).backend());
}

#[test]
fn smallest_supported_size() {
    insta::assert_snapshot!(draw(&app(), 60, 16).backend());
}

/// The first cell whose symbol starts `text` on a row, as (x, y).
fn find(buffer: &Buffer, text: &str) -> Option<(u16, u16)> {
    let area = buffer.area;
    for y in area.top()..area.bottom() {
        let row: String = (area.left()..area.right())
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect();
        if let Some(byte) = row.find(text) {
            let col = row[..byte].chars().count();
            return Some((area.left() + u16::try_from(col).ok()?, y));
        }
    }
    None
}

#[test]
fn the_leftover_total_uses_the_leftover_warning_style() {
    let terminal = draw(&app(), 80, 24);
    let buffer = terminal.backend().buffer();
    let (x, y) = find(buffer, "after release: 293.65").expect("the leftover total");
    let expected = Theme::default().style(Role::LeftoverWarning);
    assert_eq!(buffer[(x, y)].fg, expected.fg.expect("a colour"));
    assert!(
        buffer[(x, y)]
            .modifier
            .contains(ratatui::style::Modifier::BOLD)
    );
}

#[test]
fn the_focused_panel_has_the_focused_border() {
    let mut app = app();
    app.focus = Focus::Resources;
    let terminal = draw(&app, 80, 24);
    let buffer = terminal.backend().buffer();
    let theme = Theme::default();
    let (x, y) = find(buffer, "Linked resources").expect("the resources title");
    assert_eq!(
        buffer[(x - 2, y)].fg,
        theme.border(true).fg.expect("a colour")
    );
    let (x, y) = find(buffer, "Events").expect("the events title");
    assert_eq!(
        buffer[(x - 2, y)].fg,
        theme.border(false).fg.expect("a colour")
    );
}

#[test]
fn cancel_is_the_highlighted_default_in_the_confirm_dialog() {
    let mut app = app();
    app.mode = Mode::Confirm(Confirm::for_action(&app, Action::Release));
    let terminal = draw(&app, 80, 24);
    let buffer = terminal.backend().buffer();
    let (x, y) = find(buffer, "[ cancel ]").expect("the cancel button");
    assert_eq!(
        buffer[(x, y)].bg,
        Theme::default().style(Role::Selected).bg.expect("a colour")
    );
}

#[test]
fn main_screen_at_the_wide_threshold_120x32() {
    insta::assert_snapshot!(draw(&app(), 120, 32).backend());
}

#[test]
fn budget_nearly_spent_and_the_last_minutes() {
    let mut app = app();
    app.spend.budget = Some(gpumeter::money::Money::new(
        rust_decimal::Decimal::from(100),
        gpumeter::money::Currency::USD,
    ));
    if let Some(d) = app.deadline.as_mut() {
        d.at = app.now + SignedDuration::from_secs(45);
        d.on_expiry = gpumeter::config::OnExpiry::Release;
        d.held_by_provider = true;
    }
    let terminal = draw(&app, 100, 30);
    let buffer = terminal.backend().buffer();
    let theme = Theme::default();
    // 94.54 of a 100.00 budget: the total is in the warning style.
    let (x, y) = find(buffer, "total").expect("the total row");
    let (vx, _) = find(buffer, "94.54").expect("the total");
    assert!(vx > x);
    assert_eq!(
        buffer[(vx, y)].fg,
        theme.style(Role::CostWarn).fg.expect("a colour")
    );
    // 45 seconds left: the digits are urgent and reversed.
    let (x, y) = find(buffer, "█▀█").expect("the countdown digits");
    let urgent = theme.style(Role::CountdownUrgent);
    assert_eq!(buffer[(x, y)].fg, urgent.fg.expect("a colour"));
    assert!(
        buffer[(x, y)]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED)
    );
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn without_colours_the_selection_and_focus_still_show() {
    let app = app();
    let theme = Theme::default().without_colors();
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
    terminal
        .draw(|frame| render(frame, &app, &theme))
        .expect("drawing never fails on a test backend");
    let buffer = terminal.backend().buffer();
    // GPU 0 is selected in the focused GPU panel: its index is drawn reversed.
    let (x, y) = find(buffer, " 0 █").expect("GPU 0's row");
    let cell = &buffer[(x + 1, y)];
    assert_eq!(cell.symbol(), "0");
    assert!(cell.modifier.contains(ratatui::style::Modifier::REVERSED));
    assert_eq!(cell.fg, ratatui::style::Color::Reset);
}

#[test]
fn after_release_the_survivors_stay_listed_with_their_monthly_cost() {
    let mut app = app();
    let mut inventory = app.cloud.inventory.clone().expect("the demo inventory");
    if let Some(i) = inventory.instance.as_mut() {
        i.state = gpumeter::meter::InstanceState::Released;
        i.history
            .push((app.now, gpumeter::meter::InstanceState::Released));
    }
    inventory.resources.retain(|r| !r.deleted_with_instance);
    gpumeter::app::update(&mut app, gpumeter::app::Event::Inventory(Ok(inventory)));
    app.log(
        Level::Done,
        "release: done, the provider reports the instance released",
    );
    let terminal = draw(&app, 80, 24);
    let screen = terminal.backend().to_string();
    assert!(screen.contains("160.00") && screen.contains("vol-0data"));
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn a_spot_interruption_takes_over_the_header() {
    let mut app = app();
    app.interruption = Some(app.now + SignedDuration::from_secs(105));
    insta::assert_snapshot!(draw(&app, 80, 24).backend());
}

#[test]
fn a_watchdog_given_up_on_takes_over_the_header() {
    use gpumeter::app::{Event, update};
    let mut app = app();
    app.guard.supervisor = Some(gpumeter::guard::Supervisor::new(Duration::from_secs(5)));
    let now = app.now;
    update(&mut app, Event::Tick(now));
    update(
        &mut app,
        Event::WatchdogStarted(Err(gpumeter::guard::StartError::Os(
            "permission denied".into(),
        ))),
    );
    let screen = draw(&app, 80, 24).backend().to_string();
    assert!(screen.contains("NO WATCHDOG"), "{screen}");
    insta::assert_snapshot!(draw(&app, 80, 24).backend());
}

#[test]
fn another_regions_sheet_is_marked_as_an_estimate() {
    let mut app = app();
    let instance = app
        .cloud
        .inventory
        .as_mut()
        .and_then(|i| i.instance.as_mut());
    instance.expect("the demo lists its instance").region = Some("eu-west-1".into());
    let wide = draw(&app, 120, 32);
    insta::assert_snapshot!(wide.backend());
    let marker = "≈ sheet aws-us-east-1 for eu-west-1";
    let at = find(wide.backend().buffer(), marker).expect("the marker is drawn");
    let warn = Theme::default().style(Role::AlertWarn);
    assert_eq!(wide.backend().buffer()[at].fg, warn.fg.expect("a colour"));
}
