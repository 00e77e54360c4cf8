//! The cockpit's screen and terminal backend: what they write, read back by a terminal emulator
//! (vt100), shows exactly the frame drawn, frame after frame, resizes included, and what
//! ratatui's own terminal and backend show; a frame takes fewer bytes than with ratatui's
//! crossterm backend, and none when nothing changed.

use std::rc::Rc;
use std::time::Duration;

use gpumeter::app::{App, Event, update};
use gpumeter::demo::{demo_app, demo_simulator, fixture_now};
use gpumeter::telemetry::{Stamped, Telemetry};
use gpumeter::terminal::LeanBackend;
use gpumeter::terminal::Screen;
use gpumeter::ui::theme::Theme;
use jiff::SignedDuration;
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::{Position, Size};
use ratatui::style::{Color, Modifier, Style};
use unicode_width::UnicodeWidthStr as _;

use crate::common::emulator::{
    FixedSize, Output, assert_same_screen, assert_screen_is, emulator, resize,
};
use crate::common::ui_frame;

type LeanScreen = Screen<LeanBackend<Output>>;

fn lean_screen(width: u16, height: u16) -> (LeanScreen, Output) {
    let out = Output::default();
    let backend = LeanBackend::with_size(out.clone(), Size { width, height });
    (Screen::new(backend), out)
}

/// Draws a frame of `text`s at their places, in their styles, with no cursor.
fn draw(screen: &mut LeanScreen, strokes: &[(u16, u16, &str, Style)]) {
    screen
        .draw(|_, buf| {
            for &(x, y, text, style) in strokes {
                buf.set_string(x, y, text, style);
            }
            None
        })
        .expect("a screen in memory draws");
}

fn text(out: &Output) -> String {
    String::from_utf8(out.take()).expect("utf-8")
}

/// One thing drawn in a frame: a string at a place, in a style.
#[derive(Debug, Clone)]
struct Stroke {
    x: u16,
    y: u16,
    text: String,
    style: Style,
}

/// A frame: the window's new size if it was resized, how many strokes of the frame before it
/// keeps, and the strokes it adds over them.
#[derive(Debug, Clone)]
struct Frame {
    resize: Option<Size>,
    keep: usize,
    strokes: Vec<Stroke>,
}

const SIZES: [Size; 3] = [Size::new(24, 6), Size::new(17, 4), Size::new(32, 8)];

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![
        Just(Color::Reset),
        Just(Color::Red),
        Just(Color::LightGreen),
        Just(Color::DarkGray),
        Just(Color::White),
        Just(Color::Indexed(208)),
        Just(Color::Rgb(10, 200, 30)),
    ]
}

fn style() -> impl Strategy<Value = Style> {
    let modifier = prop_oneof![
        Just(Modifier::empty()),
        // Not DIM: strokes layer, and the emulator keeps one intensity, so bold and dim
        // together read back as one of them.
        Just(Modifier::BOLD),
        Just(Modifier::ITALIC | Modifier::UNDERLINED),
        Just(Modifier::REVERSED),
    ];
    (color(), color(), modifier).prop_map(|(fg, bg, m)| Style::new().fg(fg).bg(bg).add_modifier(m))
}

fn stroke() -> impl Strategy<Value = Stroke> {
    let text = proptest::collection::vec(
        prop_oneof![
            Just("a"),
            Just("b"),
            Just(" "),
            Just("│"),
            Just("─"),
            Just("█"),
            Just("▊"),
            Just("▅"),
            Just("°"),
            Just("漢"),
            Just("中"),
        ],
        1..12,
    )
    .prop_map(|parts| parts.concat());
    (0..32u16, 0..8u16, text, style()).prop_map(|(x, y, text, style)| Stroke { x, y, text, style })
}

/// Frames that each keep some strokes of the one before and add a few, as the cockpit's
/// frames change a little each second; now and then the window is resized.
fn frames() -> impl Strategy<Value = Vec<Frame>> {
    let resize = prop_oneof![
        5 => Just(None),
        1 => proptest::sample::select(SIZES.to_vec()).prop_map(Some),
    ];
    let frame = (resize, 0..8usize, proptest::collection::vec(stroke(), 0..8)).prop_map(
        |(resize, keep, strokes)| Frame {
            resize,
            keep,
            strokes,
        },
    );
    proptest::collection::vec(frame, 1..12)
}

/// Draws `strokes` one over another, as widgets are. Where a stroke breaks a wide character
/// in half, the wide character goes, as on a terminal, so the buffer is one a terminal can show.
fn paint(buffer: &mut Buffer, strokes: &[Stroke]) {
    let area = buffer.area;
    for s in strokes.iter().filter(|s| s.y < area.height) {
        buffer.set_string(s.x, s.y, &s.text, s.style);
    }
    for y in 0..area.height {
        for x in 0..area.width.saturating_sub(1) {
            if buffer[(x, y)].symbol().width() > 1 && buffer[(x + 1, y)] != Cell::EMPTY {
                buffer[(x, y)].set_symbol(" ");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Whatever the frames, wide characters and resizes included, a terminal shows each one
    /// exactly after the lean screen's bytes, and the same as after ratatui's own terminal and
    /// crossterm backend.
    #[test]
    fn the_lean_screen_shows_every_frame_as_ratatuis_own_terminal_does(frames in frames()) {
        let mut size = SIZES[0];
        let (mut lean, lean_out) = lean_screen(size.width, size.height);
        let told = Rc::new(std::cell::Cell::new(size));
        let reference_out = Output::default();
        let reference_backend =
            FixedSize(CrosstermBackend::new(reference_out.clone()), Rc::clone(&told));
        let mut reference = Terminal::new(reference_backend).expect("terminal");
        let (mut lean_screen, mut reference_screen) = (emulator(size), emulator(size));
        let mut strokes: Vec<Stroke> = Vec::new();
        let mut wide = false;
        for (n, frame) in frames.iter().enumerate() {
            if let Some(new) = frame.resize {
                size = new;
                lean.backend_mut().set_size(size);
                lean.resized();
                told.set(size);
                resize(&mut lean_screen, size);
                resize(&mut reference_screen, size);
            }
            strokes.truncate(frame.keep);
            strokes.extend(frame.strokes.iter().cloned());
            lean.draw(|_, buf| {
                paint(buf, &strokes);
                None
            })
            .expect("draw");
            reference.draw(|f| paint(f.buffer_mut(), &strokes)).expect("draw");
            lean_screen.process(&lean_out.take());
            reference_screen.process(&reference_out.take());
            assert_screen_is(lean_screen.screen(), lean.buffer(), n);
            wide |= strokes.iter().any(|s| s.text.width() > s.text.chars().count());
            if !wide {
                assert_same_screen(lean_screen.screen(), reference_screen.screen(), n);
            }
        }
    }
}

/// A minute of the demo cockpit at 120×40, a frame a second as the cockpit draws them: each
/// frame's buffer, as `draw` draws it, and the bytes written to `out` for it.
fn demo_minute(out: &Output, mut draw: impl FnMut(&App) -> Buffer) -> Vec<(Buffer, Vec<u8>)> {
    let uptime = 3 * 3600;
    let mut app = demo_app(Duration::from_secs(uptime));
    let sim = demo_simulator("training");
    let start = fixture_now();
    let mut frames = Vec::new();
    for s in 1..=60 {
        let time = start + SignedDuration::from_secs(i64::try_from(s).expect("small"));
        let at = Duration::from_secs(uptime + s);
        update(&mut app, Event::Tick(time));
        let gpus = Telemetry::Gpu(Stamped {
            at,
            time,
            value: Ok(sim.gpus_at(at)),
        });
        update(&mut app, Event::Telemetry(gpus));
        let host = Telemetry::Host(Stamped {
            at,
            time,
            value: sim.host_at(at),
        });
        update(&mut app, Event::Telemetry(host));
        let drawn = draw(&app);
        frames.push((drawn, out.take()));
    }
    frames
}

#[test]
fn the_demo_cockpit_shows_the_same_and_costs_fewer_bytes() {
    let theme = Theme::default();
    let size = Size::new(120, 40);
    let (mut lean, lean_out) = lean_screen(size.width, size.height);
    let lean_frames = demo_minute(&lean_out, |app| {
        lean.draw(|area, buf| gpumeter::ui::render(area, buf, app, &theme))
            .expect("draw");
        lean.buffer().clone()
    });
    let crossterm_out = Output::default();
    let told = Rc::new(std::cell::Cell::new(size));
    let crossterm_backend = FixedSize(CrosstermBackend::new(crossterm_out.clone()), told);
    let mut crossterm = Terminal::new(crossterm_backend).expect("terminal");
    crossterm.clear().expect("clear");
    crossterm_out.take();
    let crossterm_frames = demo_minute(&crossterm_out, |app| {
        let drawn = crossterm
            .draw(|f| ui_frame::render(f, app, &theme))
            .expect("draw");
        drawn.buffer.clone()
    });

    let (mut lean_screen, mut crossterm_screen) = (emulator(size), emulator(size));
    let both = lean_frames.iter().zip(&crossterm_frames).enumerate();
    for (n, ((buffer, lean_bytes), (crossterm_buffer, crossterm_bytes))) in both {
        assert_eq!(buffer, crossterm_buffer, "frame {n}");
        lean_screen.process(lean_bytes);
        crossterm_screen.process(crossterm_bytes);
        assert_screen_is(lean_screen.screen(), buffer, n);
        assert_screen_is(crossterm_screen.screen(), buffer, n);
    }
    // The first frame draws everything; the rest are the seconds a user sits through.
    let steady =
        |frames: &[(Buffer, Vec<u8>)]| frames[1..].iter().map(|f| f.1.len()).sum::<usize>();
    let (lean_bytes, crossterm_bytes) = (steady(&lean_frames), steady(&crossterm_frames));
    eprintln!("a minute of the demo: lean {lean_bytes} B, crossterm {crossterm_bytes} B");
    assert!(
        lean_bytes < crossterm_bytes,
        "lean {lean_bytes} B, crossterm {crossterm_bytes} B over a minute"
    );
}

#[test]
fn a_frame_like_the_one_before_writes_nothing() {
    let theme = Theme::default();
    let app = demo_app(Duration::from_secs(3 * 3600));
    let (mut screen, out) = lean_screen(120, 40);
    let mut frame = || {
        screen
            .draw(|area, buf| gpumeter::ui::render(area, buf, &app, &theme))
            .expect("draw");
        out.take()
    };
    assert!(!frame().is_empty());
    assert_eq!(String::from_utf8_lossy(&frame()), "");
}

#[test]
fn a_changed_box_drawing_cell_is_rewritten_and_nothing_else() {
    let (mut screen, out) = lean_screen(10, 2);
    let plain = Style::new();
    draw(&mut screen, &[(0, 0, "┌──┐", plain)]);
    out.take();
    draw(&mut screen, &[(0, 0, "┌┬─┐", plain)]);
    // Three columns back: three backspaces, a byte each, are cheaper than `CSI 3 D`.
    assert_eq!(text(&out), "\x08\x08\x08┬");
    // The same character in another colour is a change too.
    let red = Style::new().fg(Color::Red);
    draw(
        &mut screen,
        &[(0, 0, "┌┬", plain), (2, 0, "─", red), (3, 0, "┐", plain)],
    );
    assert_eq!(text(&out), "\x1b[31m─");
}

#[test]
fn short_gaps_are_rewritten_over_ascii_and_moved_over_otherwise() {
    let (mut screen, out) = lean_screen(10, 2);
    let plain = Style::new();
    draw(&mut screen, &[(0, 0, "a-b", plain), (0, 1, "a│b", plain)]);
    out.take();
    draw(&mut screen, &[(0, 0, "X-Y", plain), (0, 1, "a│b", plain)]);
    assert_eq!(text(&out), "\x1b[HX-Y");
    draw(&mut screen, &[(0, 0, "X-Y", plain), (0, 1, "X│Y", plain)]);
    assert_eq!(text(&out), "\x1b[2HX\x1b[CY");
}

#[test]
fn adjacent_changes_need_no_cursor_move_and_short_gaps_are_rewritten() {
    let (mut screen, out) = lean_screen(40, 3);
    draw(&mut screen, &[(0, 1, "abcdefghij", Style::new())]);
    out.take();
    // "abXdYfghij": two changes one cell apart; the cell between is rewritten, not jumped.
    draw(&mut screen, &[(0, 1, "abXdYfghij", Style::new())]);
    assert_eq!(text(&out), "\x1b[8DXdY");
}

#[test]
fn long_gaps_move_relative_and_named_colours_use_short_codes() {
    let (mut screen, out) = lean_screen(40, 3);
    draw(&mut screen, &[]);
    out.take();
    let red = Style::new().fg(Color::Red);
    draw(&mut screen, &[(1, 0, "x", red), (30, 0, "y", red)]);
    assert_eq!(text(&out), "\x1b[1;2H\x1b[31mx\x1b[28Cy");
}

#[test]
fn a_frame_takes_all_of_one_colour_before_the_next() {
    let (mut screen, out) = lean_screen(40, 4);
    let (plain, blue) = (Style::new(), Style::new().fg(Color::Blue));
    let rows = |a: &'static str, bar: &'static str| {
        [0, 1, 2].map(|y| [(2, y, a, plain), (10, y, bar, blue), (20, y, a, plain)])
    };
    let mut terminal = emulator(Size::new(40, 4));
    draw(&mut screen, rows("1", "▌").as_flattened());
    terminal.process(&out.take());
    // Every row changes a plain digit, a blue bar end and another plain digit. In screen
    // order that is two colour changes a row, six in all; taken colour by colour, at most
    // one into each colour for the whole frame.
    draw(&mut screen, rows("2", "▊").as_flattened());
    let bytes = out.take();
    let written = String::from_utf8_lossy(&bytes);
    let colour_changes = written.matches("\x1b[34m").count() + written.matches("\x1b[39m").count();
    assert!(
        colour_changes <= 2,
        "{colour_changes} colour changes: {written:?}"
    );
    terminal.process(&bytes);
    assert_screen_is(terminal.screen(), screen.buffer(), 1);
}

#[test]
fn the_cursor_is_hidden_once_and_attributes_are_not_reset_each_frame() {
    let (mut screen, out) = lean_screen(10, 2);
    let green = Style::new().fg(Color::Green).add_modifier(Modifier::BOLD);
    draw(&mut screen, &[(0, 0, "1", green)]);
    let first = text(&out);
    assert!(first.ends_with("\x1b[?25l"), "{first:?}");
    draw(&mut screen, &[(0, 0, "2", green)]);
    assert_eq!(text(&out), "\r2");
}

#[test]
fn the_cursor_shows_where_a_frame_asks_and_hides_when_the_next_does_not() {
    let size = Size::new(20, 4);
    let (mut screen, out) = lean_screen(size.width, size.height);
    let mut terminal = emulator(size);
    screen
        .draw(|_, buf| {
            buf.set_string(2, 1, "> 2h", Style::new());
            Some(Position::new(6, 1))
        })
        .expect("draw");
    terminal.process(&out.take());
    assert!(!terminal.screen().hide_cursor());
    assert_eq!(terminal.screen().cursor_position(), (1, 6));
    draw(&mut screen, &[(2, 1, "> 2h", Style::new())]);
    terminal.process(&out.take());
    assert!(terminal.screen().hide_cursor());
}

#[test]
fn dropping_the_screen_shows_the_cursor_and_leaves_plain_attributes() {
    let (mut screen, out) = lean_screen(10, 2);
    draw(&mut screen, &[(0, 0, "!", Style::new().fg(Color::Red))]);
    out.take();
    drop(screen);
    assert_eq!(text(&out), "\x1b[?25h\x1b[0m");
}
