//! The selected linked resource on screen: its details (`Enter`), the dialog that deletes it
//! (`D`), the snapshots to pick from (`C`) and the marks on data others can read, at the
//! smallest, the common and a wide size.

use std::fmt::Write as _;
use std::time::Duration;

use gpumeter::app::{App, Event, Focus, KeyCode, KeyPress, Mode, update};
use gpumeter::demo::demo_app;
use gpumeter::provider::{Exposure, Sharing};
use gpumeter::ui::theme::{Role, Theme};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use crate::common::ui_frame::render;

const SIZES: [(u16, u16); 3] = [(60, 16), (80, 24), (120, 40)];

/// The demo with a public, unencrypted snapshot and an image shared with another account,
/// the resources panel focused on `id`.
fn app(id: &str) -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    let mut inventory = app.cloud.inventory.clone().expect("the demo inventory");
    for r in &mut inventory.resources {
        match r.id.as_str() {
            "snap-0a" => {
                r.exposure = Exposure {
                    encrypted: Some(false),
                    shared: Sharing::Public,
                };
            }
            "ami-0train" => {
                r.exposure = Exposure {
                    encrypted: Some(true),
                    shared: Sharing::Accounts(vec!["111122223333".into()]),
                };
            }
            _ => {}
        }
    }
    update(&mut app, Event::Inventory(Ok(inventory)));
    app.focus = Focus::Resources;
    let resources = &app.cloud.inventory.as_ref().unwrap().resources;
    app.selected_resource = resources.iter().position(|r| r.id == id).expect(id);
    app
}

fn press(app: &mut App, code: KeyCode) {
    update(app, Event::Key(KeyPress::new(code)));
}

fn buffer(app: &App, (w, h): (u16, u16)) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
    terminal
        .draw(|frame| render(frame, app, &Theme::default()))
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

/// The foreground of the first cell of `needle` on screen.
fn fg_of(buf: &Buffer, needle: &str) -> Option<ratatui::style::Color> {
    let first = needle.chars().next()?;
    for y in 0..buf.area.height {
        let row: Vec<String> = (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect();
        let line: String = row.concat();
        if let Some(byte) = line.find(needle) {
            // Cells hold one symbol each; count the symbols before the match.
            let x = line[..byte].chars().count();
            let cell = &buf[(u16::try_from(x).ok()?, y)];
            assert_eq!(cell.symbol().chars().next(), Some(first));
            return cell.fg.into();
        }
    }
    None
}

#[test]
fn the_details_of_a_public_snapshot_at_every_size() {
    let theme = Theme::default();
    for size in SIZES {
        let mut app = app("snap-0a");
        press(&mut app, KeyCode::Enter);
        assert!(matches!(app.mode, Mode::Details(_)));
        let buf = buffer(&app, size);
        let screen = text(&buf);
        assert!(screen.contains("snapshot snap-0a"), "{screen}");
        if size.1 >= 24 {
            assert!(screen.contains("CRITICAL public"), "{screen}");
            assert_eq!(
                fg_of(&buf, "CRITICAL public"),
                theme.style(Role::AlertError).fg,
                "{screen}"
            );
            assert_eq!(
                fg_of(&buf, "warning unencrypted"),
                theme.style(Role::AlertWarn).fg,
                "{screen}"
            );
        }
        let (w, h) = size;
        insta::assert_snapshot!(format!("details_{w}x{h}"), screen);
    }
}

#[test]
fn an_unpriced_resource_says_so_and_never_zero() {
    let mut app = app("lb-0api");
    press(&mut app, KeyCode::Enter);
    let buf = buffer(&app, (120, 40));
    let screen = text(&buf);
    assert!(screen.contains("unpriced: sheet"), "{screen}");
    assert_eq!(
        fg_of(&buf, "unpriced: sheet"),
        Theme::default().style(Role::AlertWarn).fg
    );
    insta::assert_snapshot!("details_unpriced_120x40", screen);
}

#[test]
fn the_dialog_that_deletes_the_selected_resource_at_every_size() {
    for (w, h) in SIZES {
        let mut app = app("snap-0b");
        press(&mut app, KeyCode::Char('D'));
        assert!(matches!(app.mode, Mode::Confirm(_)));
        let screen = text(&buffer(&app, (w, h)));
        assert!(screen.contains("Delete what keeps billing"), "{screen}");
        assert!(screen.contains("[ cancel ]"), "{screen}");
        assert!(screen.contains("snap-0b"), "{screen}");
        insta::assert_snapshot!(format!("cleanup_dialog_{w}x{h}"), screen);
    }
}

#[test]
fn the_snapshots_to_pick_at_every_size() {
    for (w, h) in SIZES {
        let mut app = app("snap-0a");
        let mut inventory = app.cloud.inventory.clone().unwrap();
        let mut behind = inventory
            .resources
            .iter()
            .find(|r| r.id == "snap-0b")
            .unwrap()
            .clone();
        behind.id = "snap-0img".into();
        behind.name = "image-root".into();
        behind.backs_image = Some("ami-0train".into());
        inventory.resources.push(behind);
        update(&mut app, Event::Inventory(Ok(inventory)));
        press(&mut app, KeyCode::Char('C'));
        // Pick the newest too.
        press(&mut app, KeyCode::Char(' '));
        let screen = text(&buffer(&app, (w, h)));
        assert!(screen.contains("[x]"), "{screen}");
        assert!(screen.contains("Space"), "{screen}");
        if h >= 24 {
            assert!(screen.contains("image ami-0train uses it"), "{screen}");
            assert!(screen.contains("1h30m"), "{screen}");
        }
        assert!(screen.contains("[ cancel ]"), "{screen}");
        insta::assert_snapshot!(format!("snapshot_pick_{w}x{h}"), screen);
    }
}

#[test]
fn data_others_can_read_is_marked_in_the_resources_panel() {
    // Selected elsewhere, so the marked rows keep their own style.
    let app = app("vol-0data");
    for (w, h) in [(80, 24), (120, 40)] {
        let buf = buffer(&app, (w, h));
        let screen = text(&buf);
        assert!(screen.contains("!! snapshot"), "{screen}");
        assert_eq!(
            fg_of(&buf, "!! snapshot"),
            Theme::default().style(Role::AlertError).fg,
            "{screen}"
        );
        insta::assert_snapshot!(format!("exposure_marks_{w}x{h}"), screen);
    }
}

#[test]
fn the_release_dialog_names_the_public_snapshot_that_survives_it() {
    for (w, h) in SIZES {
        let mut app = app("vol-0data");
        app.focus = Focus::Gpus;
        press(&mut app, KeyCode::Char('R'));
        assert!(matches!(app.mode, Mode::Confirm(_)));
        let buf = buffer(&app, (w, h));
        let screen = text(&buf);
        assert!(screen.contains("[ cancel ]"), "{screen}");
        if h >= 24 {
            assert!(screen.contains("CRITICAL snapshot snap-0a"), "{screen}");
            assert_eq!(
                fg_of(&buf, "CRITICAL snapshot snap-0a"),
                Theme::default().style(Role::AlertError).fg,
                "{screen}"
            );
        }
    }
}
