//! The fleet screen (`F`): this instance beside the others the cockpit holds, the most
//! expensive first, with its flags; `F` and `Esc` go back.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use gpumeter::app::fixture::{demo_app, demo_pricing, fixture_now};
use gpumeter::app::{App, Event, update};
use gpumeter::fleet::{Flag, Origin, Reporting, row};
use gpumeter::provider::Inventory;
use gpumeter::provider::demo::DemoState;
use gpumeter::ui::fleet::fleet_rows;
use gpumeter::ui::render;
use gpumeter::ui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn key(c: KeyCode) -> Event {
    Event::Key(KeyEvent::new(c, KeyModifiers::NONE))
}

/// The demo cockpit with two more instances: a released one that left disks, and a twin of
/// this one in the same account that reports nothing.
fn app() -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    let now = fixture_now();
    let demo = DemoState::fresh(now);
    let gone = Inventory {
        instance: None,
        resources: demo.resources.clone(),
        deadline: None,
    };
    let mut twin = demo.instance.clone();
    twin.id = "i-0twin".into();
    let twin = Inventory {
        instance: Some(twin),
        resources: Vec::new(),
        deadline: None,
    };
    let origin = |id: &str| Origin {
        account: String::new(),
        provider: "demo".into(),
        region: None,
        instance_id: id.into(),
    };
    app.fleet = vec![
        row(
            origin("i-0gone"),
            Ok(&gone),
            demo_pricing(),
            Reporting::default(),
            now,
        ),
        row(
            origin("i-0twin"),
            Ok(&twin),
            demo_pricing(),
            Reporting::default(),
            now,
        ),
    ];
    app
}

#[test]
fn f_opens_the_fleet_and_esc_closes_it() {
    let mut app = app();
    update(&mut app, key(KeyCode::Char('F')));
    assert!(app.show_fleet);
    update(&mut app, key(KeyCode::Esc));
    assert!(!app.show_fleet);
    update(&mut app, key(KeyCode::Char('F')));
    update(&mut app, key(KeyCode::Char('F')));
    assert!(!app.show_fleet);
}

#[test]
fn the_fleet_screen_lists_this_instance_first_and_flags_the_others() {
    let app = app();
    let rows = fleet_rows(&app);
    let ids: Vec<&str> = rows.iter().map(|r| r.origin.instance_id.as_str()).collect();
    // This instance costs as much as its twin plus more leftovers; the released one least.
    assert_eq!(ids, ["i-0demo4a100f00d", "i-0twin", "i-0gone"]);
    assert_eq!(
        rows[0].flags,
        [Flag::Overlap],
        "the cockpit reports for itself"
    );
    assert_eq!(rows[1].flags, [Flag::Forgotten, Flag::Overlap]);
    assert_eq!(rows[2].flags, [Flag::Leftovers]);
}

#[test]
fn fleet_screen_120x20() {
    let mut app = app();
    app.show_fleet = true;
    let mut terminal = Terminal::new(TestBackend::new(120, 20)).unwrap();
    let theme = Theme::default();
    terminal.draw(|f| render(f, &app, &theme)).unwrap();
    insta::assert_snapshot!(terminal.backend());
}
