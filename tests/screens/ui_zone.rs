//! The cockpit in the user's zone: the deadline with its zone named beside it, and the event
//! log's clock in the same zone, drawn from the demo fixture at a fixed instant.

use std::time::Duration;

use gpumeter::app::App;
use gpumeter::demo::demo_app;
use gpumeter::ui::countdown::render_countdown;
use gpumeter::ui::theme::Theme;
use jiff::tz::TimeZone;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::common::ui_frame::render;

fn app_in(zone: &str) -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    app.spend.time_zone = TimeZone::get(zone).expect("the tz database (tzdata) is installed");
    app
}

fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
    terminal
        .draw(|frame| render(frame, app, &Theme::default()))
        .expect("drawing never fails on a test backend");
    terminal.backend().to_string()
}

fn countdown(app: &App, width: u16, height: u16) -> String {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    render_countdown(area, &mut buf, app, &Theme::default());
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_deadline_names_its_zone_in_the_countdown() {
    let app = app_in("Asia/Shanghai");
    let deadline = app.deadline.expect("the demo has a deadline").at;
    let local = deadline
        .to_zoned_datetime(app.spend.time_zone.clone())
        .strftime("%H:%M")
        .to_string();
    let panel = countdown(&app, 48, 12);
    assert!(
        panel.contains(&format!("{local} CST (Asia/Shanghai)")) && panel.contains("deadline "),
        "{panel}"
    );
    insta::assert_snapshot!("countdown_asia_shanghai_48x12", panel);
    // Too narrow for the name: the abbreviation alone, never a cut-off name.
    let narrow = countdown(&app, 28, 12);
    assert!(narrow.contains(&format!("{local} CST")), "{narrow}");
    assert!(!narrow.contains("(Asia/"), "{narrow}");
}

#[test]
fn the_same_instant_reads_in_each_zone_and_utc_needs_no_name() {
    let shanghai = app_in("Asia/Shanghai");
    let new_york = app_in("America/New_York");
    let mut utc = app_in("UTC");
    utc.spend.time_zone = TimeZone::UTC;
    let at = shanghai.deadline.unwrap().at;
    let clock = |app: &App| {
        at.to_zoned_datetime(app.spend.time_zone.clone())
            .strftime("%H:%M")
            .to_string()
    };
    assert_ne!(clock(&shanghai), clock(&utc));
    let whole = screen(&shanghai, 120, 40);
    assert!(
        whole.contains(&format!("{} CST (Asia/Shanghai)", clock(&shanghai))),
        "{whole}"
    );
    let whole = screen(&new_york, 120, 40);
    assert!(
        whole.contains("(America/New_York)") && whole.contains(&clock(&new_york)),
        "{whole}"
    );
    let whole = screen(&utc, 120, 40);
    assert!(whole.contains(&format!("{} UTC", clock(&utc))), "{whole}");
    assert!(!whole.contains("(UTC)"), "{whole}");
}

#[test]
fn the_event_log_keeps_its_clock_in_the_same_zone() {
    let shanghai = app_in("Asia/Shanghai");
    let entry = shanghai.events.back().expect("the demo logs at start").at;
    let local = entry
        .to_zoned_datetime(shanghai.spend.time_zone.clone())
        .strftime("%H:%M ·")
        .to_string();
    let utc = entry.strftime("%H:%M ·").to_string();
    assert_ne!(local, utc);
    let whole = screen(&shanghai, 120, 40);
    assert!(whole.contains(&local), "{whole}");
    assert!(!whole.contains(&utc), "{whole}");
}
