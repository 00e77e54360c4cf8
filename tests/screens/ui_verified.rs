//! The last `gpumeter verify` on the GPU panel's border: when it ran, what it found, in the
//! verdict's colour; nothing when it never ran.

use std::fmt::Write as _;
use std::time::Duration;

use gpumeter::app::{App, Event, Verified, update};
use gpumeter::demo::demo_app;
use gpumeter::ui::theme::{Role, Theme};
use gpumeter_core::verify::Verdict;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use crate::common::ui_frame::render;

fn screen(app: &App) -> (Buffer, String) {
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("a test terminal");
    terminal
        .draw(|frame| render(frame, app, &Theme::default()))
        .expect("drawing never fails on a test backend");
    let buf = terminal.backend().buffer().clone();
    let mut text = String::new();
    for y in 0..buf.area.height {
        let row: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
        let _ = writeln!(text, "{row}");
    }
    (buf, text)
}

fn fg_of(buf: &Buffer, text: &str, needle: &str) -> Option<ratatui::style::Color> {
    let width = usize::from(buf.area.width);
    let (y, line) = text.lines().enumerate().find(|(_, l)| l.contains(needle))?;
    let x = line[..line.find(needle)?].chars().count();
    assert!(x < width);
    buf[(u16::try_from(x).ok()?, u16::try_from(y).ok()?)]
        .fg
        .into()
}

#[test]
fn the_gpu_panel_shows_the_last_verify_in_its_verdicts_colour() {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    let (_, before) = screen(&app);
    assert!(!before.contains("verified"), "{before}");
    let theme = Theme::default();
    for (verdict, summary, role) in [
        (Verdict::Pass, "97 % of rated, dedicated", Role::ActionOk),
        (
            Verdict::Fail,
            "48 % of rated BF16, shared",
            Role::AlertError,
        ),
    ] {
        let at = app.now - jiff::SignedDuration::from_mins(30);
        let v = Verified {
            at,
            verdict,
            summary: summary.into(),
        };
        update(&mut app, Event::Verified(v));
        let (buf, text) = screen(&app);
        let clock = at
            .to_zoned_datetime(app.spend.time_zone.clone())
            .strftime("%H:%M")
            .to_string();
        let line = format!("verified {clock}: {summary}");
        assert!(text.contains(&line), "{line} not on screen:\n{text}");
        assert_eq!(
            fg_of(&buf, &text, &line),
            theme.style(role).fg,
            "{verdict:?}"
        );
    }
}
