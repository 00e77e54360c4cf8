//! The fleet screen (`F`): this instance beside the others the cockpit holds, the most
//! expensive first, with its flags; `F` and `Esc` go back. What `[[fleet]]` collects lists this
//! instance once, and the foot says how old the reading is.

use std::time::Duration;

use gpumeter::app::{App, Event, FleetLink, update};
use gpumeter::app::{KeyCode, KeyPress};
use gpumeter::demo::{demo_app, demo_pricing, fixture_now};
use gpumeter::fleet::{Flag, Origin, Reporting, row};
use gpumeter::provider::Inventory;
use gpumeter::provider::demo::DemoState;
use gpumeter::spend::Recorded;
use gpumeter::ui::fleet::{fleet_rows, fleet_status};
use gpumeter::ui::theme::Theme;
use jiff::SignedDuration;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::common::ui_frame::render;

fn key(c: KeyCode) -> Event {
    Event::Key(KeyPress::new(c))
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
            Ok((&gone, &Recorded::default())),
            demo_pricing().as_ref(),
            Reporting::default(),
            now,
        ),
        row(
            origin("i-0twin"),
            Ok((&twin, &Recorded::default())),
            demo_pricing().as_ref(),
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

/// The fleet screen drawn at `width` x `height`.
fn draw(mut app: App, width: u16, height: u16) -> Terminal<TestBackend> {
    app.show_fleet = true;
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let theme = Theme::default();
    terminal.draw(|f| render(f, &app, &theme)).unwrap();
    terminal
}

#[test]
fn fleet_screen_120x20() {
    insta::assert_snapshot!(draw(app(), 120, 20).backend());
}

/// The fleet as read from two `[[fleet]]` accounts 40 s ago: the twin and this instance in
/// `lab` (this one with a watchdog's heartbeat), the released one in `prod`.
fn collected() -> App {
    let mut app = app();
    let now = fixture_now();
    let read_at = now - SignedDuration::from_secs(40);
    for r in &mut app.fleet {
        r.origin.account = if r.origin.instance_id == "i-0twin" {
            "lab".into()
        } else {
            "prod".into()
        };
    }
    let demo = DemoState::fresh(now);
    let this = Inventory {
        instance: Some(demo.instance),
        resources: demo.resources,
        deadline: None,
    };
    let origin = Origin {
        account: "lab".into(),
        provider: "demo".into(),
        region: None,
        instance_id: "i-0demo4a100f00d".into(),
    };
    let heartbeat = Reporting {
        heartbeat: Some(true),
        ..Reporting::default()
    };
    app.fleet.push(row(
        origin,
        Ok((&this, &Recorded::default())),
        demo_pricing().as_ref(),
        heartbeat,
        read_at,
    ));
    app.fleet_link = FleetLink {
        accounts: 2,
        instances: 3,
        read_at: Some(read_at),
        reading: false,
    };
    app
}

#[test]
fn the_collected_row_for_this_instance_gives_way_to_the_live_one() {
    let app = collected();
    let rows = fleet_rows(&app);
    let ids: Vec<&str> = rows.iter().map(|r| r.origin.instance_id.as_str()).collect();
    assert_eq!(
        ids,
        ["i-0demo4a100f00d", "i-0twin", "i-0gone"],
        "listed once"
    );
    let this = &rows[0];
    assert_eq!(
        this.origin.account, "lab",
        "under the account it was read in"
    );
    assert!(
        this.reporting.here,
        "the live row: this cockpit reads its GPUs"
    );
    assert_eq!(
        this.reporting.heartbeat,
        Some(true),
        "what it reported stays"
    );
    assert_eq!(
        this.uptime_s,
        Some(200 * 60),
        "at the cockpit's clock, not the read's"
    );
    assert_eq!(fleet_status(&app), "2 accounts (3 instances) read 40 s ago");
}

#[test]
fn fleet_screen_with_two_accounts_120x20() {
    insta::assert_snapshot!(draw(collected(), 120, 20).backend());
}

#[test]
fn the_first_read_says_what_it_reads_and_no_fleet_says_how_to_add_one() {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    app.fleet_link = FleetLink {
        accounts: 1,
        instances: 2,
        read_at: None,
        reading: true,
    };
    let screen = draw(app.clone(), 120, 16).backend().to_string();
    assert!(
        screen.contains("reading 1 account (2 instances)…"),
        "{screen}"
    );
    assert!(
        screen.contains("i-0demo4a100f00d"),
        "this instance meanwhile"
    );
    app.fleet_link = FleetLink::default();
    let screen = draw(app, 120, 16).backend().to_string();
    assert!(screen.contains("[[fleet]] in the config adds"), "{screen}");
}

#[test]
fn accounts_listed_by_api_are_counted_once_read() {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    app.fleet_link = FleetLink {
        accounts: 2,
        instances: 0,
        read_at: None,
        reading: true,
    };
    assert_eq!(fleet_status(&app), "reading 2 accounts…");
    let read = collected();
    let listed = read
        .fleet
        .iter()
        .filter(|r| !r.origin.instance_id.is_empty())
        .count();
    let mut app = read;
    app.fleet_link.instances = 0;
    assert!(
        fleet_status(&app).starts_with(&format!("2 accounts ({listed} instances) read")),
        "{}",
        fleet_status(&app)
    );
}
