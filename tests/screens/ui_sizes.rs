//! Every main screen at the sizes a terminal is commonly opened at, in the dark, light and
//! no-colour themes: the text, then a map of the styles (one letter a distinct style, with a
//! legend), so a colour that changes shows in the diff. Plus the states small screens get
//! wrong: after a release, and the release dialog, at the smallest size.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use gpumeter::app::{App, Confirm, Event, Focus, Level, Mode, update};
use gpumeter::demo::demo_app;
use gpumeter::meter::InstanceState;
use gpumeter::provider::Action;
use gpumeter::ui::theme::{Preset, Theme};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use crate::common::ui_frame::render;

const SIZES: [(u16, u16); 4] = [(60, 16), (80, 24), (120, 40), (200, 60)];

fn app() -> App {
    demo_app(Duration::from_secs(200 * 60))
}

fn themes() -> [(&'static str, Theme); 3] {
    [
        ("dark", Theme::builtin(Preset::Dark)),
        ("light", Theme::builtin(Preset::Light)),
        ("no_color", Theme::builtin(Preset::Dark).without_colors()),
    ]
}

fn buffer(app: &App, (w, h): (u16, u16), theme: &Theme) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
    terminal
        .draw(|frame| render(frame, app, theme))
        .expect("drawing never fails on a test backend");
    terminal.backend().buffer().clone()
}

fn text(buf: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let row: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
        let _ = writeln!(out, "{row}");
    }
    out
}

/// The text, then one letter a distinct style, and which style each letter is.
fn with_styles(buf: &Buffer) -> String {
    let mut legend: BTreeMap<String, char> = BTreeMap::new();
    let mut map = String::new();
    let letters: Vec<char> = ('a'..='z').chain('A'..='Z').chain('0'..='9').collect();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            let c = &buf[(x, y)];
            let key = format!("fg {:?} bg {:?} {:?}", c.fg, c.bg, c.modifier);
            let next = letters.get(legend.len()).copied().unwrap_or('?');
            map.push(*legend.entry(key).or_insert(next));
        }
        map.push('\n');
    }
    let mut out = text(buf);
    out.push_str("--- styles ---\n");
    out.push_str(&map);
    let mut keys: Vec<(char, String)> = legend.into_iter().map(|(k, v)| (v, k)).collect();
    keys.sort();
    for (letter, style) in keys {
        let _ = writeln!(out, "{letter}: {style}");
    }
    out
}

#[test]
fn main_screen_at_every_size_in_every_theme() {
    let app = app();
    for (w, h) in SIZES {
        for (name, theme) in themes() {
            let snapshot = with_styles(&buffer(&app, (w, h), &theme));
            insta::assert_snapshot!(format!("main_{w}x{h}_{name}"), snapshot);
        }
    }
}

#[test]
fn help_processes_and_events_at_every_size() {
    let theme = Theme::default();
    for (w, h) in SIZES {
        let mut help = app();
        help.mode = Mode::Help;
        insta::assert_snapshot!(
            format!("help_{w}x{h}"),
            text(&buffer(&help, (w, h), &theme))
        );
        let mut processes = app();
        processes.show_processes = true;
        let screen = text(&buffer(&processes, (w, h), &theme));
        insta::assert_snapshot!(format!("processes_{w}x{h}"), screen);
        let mut events = app();
        for i in 0..40 {
            events.log(Level::Info, format!("event number {i}"));
        }
        events.focus = Focus::Events;
        events.events_scroll = 5;
        let screen = text(&buffer(&events, (w, h), &theme));
        insta::assert_snapshot!(format!("events_scrolled_{w}x{h}"), screen);
    }
}

fn released() -> App {
    let mut app = app();
    let mut inventory = app.cloud.inventory.clone().expect("the demo inventory");
    if let Some(i) = inventory.instance.as_mut() {
        i.state = InstanceState::Released;
        i.history.push((app.now, InstanceState::Released));
    }
    inventory.resources.retain(|r| !r.deleted_with_instance);
    update(&mut app, Event::Inventory(Ok(inventory)));
    app.log(
        Level::Done,
        "release: done, the provider reports the instance released",
    );
    app
}

#[test]
fn after_release_at_the_smallest_size() {
    let screen = text(&buffer(&released(), (60, 16), &Theme::default()));
    assert!(!screen.contains("keeps billing after release"), "{screen}");
    assert!(!screen.contains("27.45 USD/h"), "{screen}");
    assert!(screen.contains("burn 0.42 USD/h"), "{screen}");
    assert!(screen.contains("released"), "{screen}");
    insta::assert_snapshot!("after_release_60x16", screen);
    let wide = text(&buffer(&released(), (120, 40), &Theme::default()));
    assert!(!wide.contains("at deadline"), "{wide}");
    assert!(!wide.contains(" R release"), "{wide}");
    insta::assert_snapshot!("after_release_120x40", wide);
}

/// A provider that stops listing the instance once it is released: the cockpit still shows
/// what is left as billing now, with what has no price named, and no release to offer.
#[test]
fn after_a_release_the_provider_forgets_what_is_left_still_bills() {
    let mut app = app();
    let report = gpumeter::provider::ActionReport {
        action: Action::Release,
        confirmed: true,
        summary: "terminated".into(),
        calls: Vec::new(),
    };
    update(
        &mut app,
        Event::ActionDone {
            action: Action::Release,
            result: Ok(report),
        },
    );
    let mut gone = app.cloud.inventory.clone().expect("the demo inventory");
    gone.instance = None;
    gone.resources.retain(|r| !r.deleted_with_instance);
    update(&mut app, Event::Inventory(Ok(gone)));
    let account = app.spend.account().expect("an account");
    let screen = text(&buffer(&app, (120, 40), &Theme::default()));
    assert!(!screen.contains("keeps billing after release"), "{screen}");
    let still = format!(
        "still billing: {} USD/month",
        account.still_billing_monthly.known.amount.round_dp(2)
    );
    assert!(screen.contains(&still), "{still}\n{screen}");
    let unknown = account.still_billing_monthly.unknown.len();
    assert!(
        unknown > 0 && screen.contains(&format!("+ {unknown} unknown")),
        "{screen}"
    );
    assert!(!screen.contains(" R release"), "{screen}");
}

#[test]
fn the_release_dialog_keeps_its_choice_at_the_smallest_size() {
    let mut app = app();
    app.mode = Mode::Confirm(Confirm::for_action(&app, Action::Release));
    let screen = text(&buffer(&app, (60, 16), &Theme::default()));
    assert!(screen.contains("[ cancel ]"), "{screen}");
    assert!(screen.contains("y confirms"), "{screen}");
    insta::assert_snapshot!("release_dialog_60x16", screen);
}

#[test]
fn nothing_cut_is_hidden_at_the_smallest_size() {
    let screen = text(&buffer(&app(), (60, 16), &Theme::default()));
    assert!(screen.contains("+7 more"), "{screen}");
    assert!(screen.contains("unknown"), "{screen}");
    // An id cut to fit ends in "…", never as a shorter id.
    assert!(!screen.contains("vol-0roo "), "{screen}");
}

#[test]
fn a_long_extension_is_asked_again_with_its_date() {
    let mut app = app();
    app.mode = Mode::Prompt {
        input: "10000h".into(),
        error: None,
        asking: Some(jiff::SignedDuration::from_hours(10_000)),
    };
    let screen = text(&buffer(&app, (80, 24), &Theme::default()));
    assert!(screen.contains("extend by 10000h, to 20"), "{screen}");
    insta::assert_snapshot!("extend_asked_80x24", screen);
}
