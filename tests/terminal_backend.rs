//! The cockpit's terminal backend: what it writes, read back by a terminal emulator (vt100),
//! shows exactly ratatui's buffer, frame after frame; and it writes fewer bytes than ratatui's
//! crossterm backend for the same frames.

#[path = "common/ui_frame.rs"]
mod ui_frame;

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;
use std::time::Duration;

use gpumeter::app::fixture::{demo_app, demo_simulator, fixture_now};
use gpumeter::app::{Event, update};
use gpumeter::cockpit::backend::LeanBackend;
use gpumeter::telemetry::{Stamped, Telemetry};
use gpumeter::ui::theme::Theme;
use jiff::SignedDuration;
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::buffer::Buffer;
use ratatui::layout::Size;
use ratatui::style::{Color, Modifier, Style};
use ui_frame::render;

fn terminal(width: u16, height: u16) -> Terminal<LeanBackend<Vec<u8>>> {
    let backend = LeanBackend::with_size(Vec::new(), Size { width, height });
    Terminal::new(backend).expect("a terminal in memory")
}

/// What the backend wrote since the last call.
fn written(terminal: &mut Terminal<LeanBackend<Vec<u8>>>) -> Vec<u8> {
    std::mem::take(terminal.backend_mut().writer())
}

fn emulator(rows: u16, columns: u16) -> vt100::Parser {
    let size = |n: u16| std::num::NonZeroU16::new(n).expect("a screen of some size");
    vt100::Parser::new(size(rows), size(columns), 0)
}

fn vt_color(color: Color) -> vt100::Color {
    match color {
        Color::Reset => vt100::Color::Default,
        Color::Black => vt100::Color::Idx(0),
        Color::Red => vt100::Color::Idx(1),
        Color::Green => vt100::Color::Idx(2),
        Color::Yellow => vt100::Color::Idx(3),
        Color::Blue => vt100::Color::Idx(4),
        Color::Magenta => vt100::Color::Idx(5),
        Color::Cyan => vt100::Color::Idx(6),
        Color::Gray => vt100::Color::Idx(7),
        Color::DarkGray => vt100::Color::Idx(8),
        Color::LightRed => vt100::Color::Idx(9),
        Color::LightGreen => vt100::Color::Idx(10),
        Color::LightYellow => vt100::Color::Idx(11),
        Color::LightBlue => vt100::Color::Idx(12),
        Color::LightMagenta => vt100::Color::Idx(13),
        Color::LightCyan => vt100::Color::Idx(14),
        Color::White => vt100::Color::Idx(15),
        Color::Indexed(n) => vt100::Color::Idx(n),
        Color::Rgb(r, g, b) => vt100::Color::Rgb(r, g, b),
    }
}

/// Every cell the emulator shows against the buffer: text, colours and attributes.
fn assert_screen_is(screen: &vt100::Screen, buffer: &Buffer, frame: usize) {
    let area = buffer.area;
    for y in 0..area.height {
        for x in 0..area.width {
            let want = &buffer[(x, y)];
            let got = screen.cell(y, x).expect("a cell inside the screen");
            if got.is_wide_continuation() {
                continue;
            }
            let text = if got.contents().is_empty() {
                " "
            } else {
                got.contents()
            };
            let at = format!("frame {frame}, cell ({x}, {y})");
            assert_eq!(text, want.symbol(), "{at}: text");
            assert_eq!(got.fgcolor(), vt_color(want.fg), "{at}: foreground");
            assert_eq!(got.bgcolor(), vt_color(want.bg), "{at}: background");
            assert_eq!(got.bold(), want.modifier.contains(Modifier::BOLD), "{at}");
            assert_eq!(got.dim(), want.modifier.contains(Modifier::DIM), "{at}");
            assert_eq!(
                got.italic(),
                want.modifier.contains(Modifier::ITALIC),
                "{at}"
            );
            let underlined = want.modifier.contains(Modifier::UNDERLINED);
            assert_eq!(got.underline(), underlined, "{at}");
            let reversed = want.modifier.contains(Modifier::REVERSED);
            assert_eq!(got.inverse(), reversed, "{at}");
        }
    }
}

/// One thing drawn in a frame: a string at a place, in a style.
#[derive(Debug, Clone)]
struct Stroke {
    x: u16,
    y: u16,
    text: String,
    style: Style,
}

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

fn stroke(width: u16, height: u16) -> impl Strategy<Value = Stroke> {
    let text = proptest::collection::vec(
        prop_oneof![
            Just("a"),
            Just("b"),
            Just(" "),
            Just("█"),
            Just("▅"),
            Just("°"),
            Just("中"),
        ],
        1..12,
    )
    .prop_map(|parts| parts.concat());
    (0..width, 0..height, text, style()).prop_map(|(x, y, text, style)| Stroke {
        x,
        y,
        text,
        style,
    })
}

/// Frames that each change a few strokes of the previous one, as the cockpit's frames do.
fn frames(width: u16, height: u16) -> impl Strategy<Value = Vec<Vec<Stroke>>> {
    proptest::collection::vec(
        proptest::collection::vec(stroke(width, height), 0..8),
        1..12,
    )
}

/// Every cell of two emulated screens: text, colours and attributes.
fn assert_same_screen(lean: &vt100::Screen, reference: &vt100::Screen, frame: usize) {
    let (rows, columns) = reference.size();
    for y in 0..rows.get() {
        for x in 0..columns.get() {
            let (got, want) = (lean.cell(y, x), reference.cell(y, x));
            let at = format!("frame {frame}, cell ({x}, {y})");
            let describe = |c: Option<&vt100::Cell>| {
                c.map(|c| {
                    (
                        c.contents().to_string(),
                        c.fgcolor(),
                        c.bgcolor(),
                        (c.bold(), c.dim(), c.italic(), c.underline(), c.inverse()),
                    )
                })
            };
            assert_eq!(describe(got), describe(want), "{at}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Whatever the frames, a terminal shows the same after the lean backend's bytes as after
    /// ratatui's own backend's; without wide characters, both show the buffer exactly.
    #[test]
    fn the_lean_backend_shows_what_ratatuis_own_backend_shows(frames in frames(24, 6)) {
        let (width, height) = (24, 6);
        let size = Size { width, height };
        let lean_out = Shared::default();
        let mut lean = Terminal::new(LeanBackend::with_size(lean_out.clone(), size)).expect("terminal");
        let reference_out = Shared::default();
        let reference_backend = FixedSize(CrosstermBackend::new(reference_out.clone()), size);
        let mut reference = Terminal::new(reference_backend).expect("terminal");
        let (mut lean_screen, mut reference_screen) = (emulator(height, width), emulator(height, width));
        for (n, strokes) in frames.iter().enumerate() {
            let draw = |frame: &mut ratatui::Frame| {
                for s in strokes {
                    frame.buffer_mut().set_string(s.x, s.y, &s.text, s.style);
                }
            };
            let drawn = lean.draw(draw).expect("draw").buffer.clone();
            reference.draw(draw).expect("draw");
            lean_screen.process(&std::mem::take(&mut *lean_out.0.borrow_mut()));
            reference_screen.process(&std::mem::take(&mut *reference_out.0.borrow_mut()));
            assert_same_screen(lean_screen.screen(), reference_screen.screen(), n);
            if !frames[..=n].iter().flatten().any(|s| s.text.contains('中')) {
                assert_screen_is(lean_screen.screen(), &drawn, n);
            }
        }
    }
}

/// Ratatui's crossterm backend asks the tty for its size; this one is told.
struct FixedSize<B>(B, Size);

impl<B: Backend> Backend for FixedSize<B> {
    type Error = B::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a ratatui::buffer::Cell)>,
    {
        self.0.draw(content)
    }

    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.0.hide_cursor()
    }

    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.0.show_cursor()
    }

    fn get_cursor_position(&mut self) -> Result<ratatui::layout::Position, Self::Error> {
        Ok(ratatui::layout::Position::ORIGIN)
    }

    fn set_cursor_position<P: Into<ratatui::layout::Position>>(
        &mut self,
        position: P,
    ) -> Result<(), Self::Error> {
        self.0.set_cursor_position(position)
    }

    fn clear(&mut self) -> Result<(), Self::Error> {
        self.0.clear()
    }

    fn clear_region(&mut self, clear_type: ratatui::backend::ClearType) -> Result<(), Self::Error> {
        self.0.clear_region(clear_type)
    }

    fn size(&self) -> Result<Size, Self::Error> {
        Ok(self.1)
    }

    fn window_size(&mut self) -> Result<ratatui::backend::WindowSize, Self::Error> {
        Ok(ratatui::backend::WindowSize {
            columns_rows: self.1,
            pixels: Size::default(),
        })
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        self.0.flush()
    }
}

/// A writer whose bytes the test keeps.
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A minute of the demo cockpit at 120×40, a frame a second as the cockpit draws them, on
/// `backend`: each frame's buffer and the bytes it took.
fn demo_minute<B: Backend>(backend: B, out: &Shared) -> Vec<(Buffer, Vec<u8>)>
where
    B::Error: std::fmt::Debug,
{
    let mut terminal = Terminal::new(backend).expect("terminal");
    terminal.clear().expect("clear");
    out.0.borrow_mut().clear();
    let theme = Theme::default();
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
        let drawn = terminal
            .draw(|frame| render(frame, &app, &theme))
            .expect("draw")
            .buffer
            .clone();
        frames.push((drawn, std::mem::take(&mut *out.0.borrow_mut())));
    }
    frames
}

#[test]
fn the_demo_cockpit_shows_the_same_and_costs_fewer_bytes() {
    let lean_out = Shared::default();
    let size = Size {
        width: 120,
        height: 40,
    };
    let lean = demo_minute(LeanBackend::with_size(lean_out.clone(), size), &lean_out);
    let crossterm_out = Shared::default();
    let crossterm = demo_minute(
        FixedSize(CrosstermBackend::new(crossterm_out.clone()), size),
        &crossterm_out,
    );

    let mut lean_screen = emulator(40, 120);
    let mut crossterm_screen = emulator(40, 120);
    for (n, ((buffer, lean_bytes), (_, crossterm_bytes))) in lean.iter().zip(&crossterm).enumerate()
    {
        lean_screen.process(lean_bytes);
        crossterm_screen.process(crossterm_bytes);
        assert_screen_is(lean_screen.screen(), buffer, n);
        assert_screen_is(crossterm_screen.screen(), buffer, n);
    }
    // The first frame draws everything; the rest are the seconds a user sits through.
    let steady =
        |frames: &[(Buffer, Vec<u8>)]| frames[1..].iter().map(|f| f.1.len()).sum::<usize>();
    let (lean_bytes, crossterm_bytes) = (steady(&lean), steady(&crossterm));
    eprintln!("a minute of the demo: lean {lean_bytes} B, crossterm {crossterm_bytes} B");
    assert!(
        lean_bytes < crossterm_bytes,
        "lean {lean_bytes} B, crossterm {crossterm_bytes} B over a minute"
    );
}

#[test]
fn adjacent_changes_need_no_cursor_move_and_short_gaps_are_rewritten() {
    let mut terminal = terminal(40, 3);
    terminal.clear().expect("clear");
    terminal
        .draw(|f| {
            f.buffer_mut().set_string(0, 1, "abcdefghij", Style::new());
        })
        .expect("draw");
    let _ = written(&mut terminal);
    // "abXdYfghij": two changes one cell apart; the cell between is rewritten, not jumped.
    terminal
        .draw(|f| {
            f.buffer_mut().set_string(0, 1, "abXdYfghij", Style::new());
        })
        .expect("draw");
    let bytes = String::from_utf8(written(&mut terminal)).expect("utf-8");
    assert_eq!(bytes, "\x1b[8DXdY");
}

#[test]
fn long_gaps_move_relative_and_named_colours_use_short_codes() {
    let mut terminal = terminal(40, 3);
    terminal.clear().expect("clear");
    let _ = written(&mut terminal);
    terminal
        .draw(|f| {
            let red = Style::new().fg(Color::Red);
            f.buffer_mut().set_string(1, 0, "x", red);
            f.buffer_mut().set_string(30, 0, "y", red);
        })
        .expect("draw");
    let bytes = String::from_utf8(written(&mut terminal)).expect("utf-8");
    // Clearing leaves the cursor at the top left: one plain space is cheaper than a move.
    assert_eq!(bytes, "\x1b[H \x1b[31mx\x1b[28Cy\x1b[?25l");
}

#[test]
fn the_cursor_is_hidden_once_and_attributes_are_not_reset_each_frame() {
    let mut terminal = terminal(10, 2);
    terminal.clear().expect("clear");
    let green = Style::new().fg(Color::Green).add_modifier(Modifier::BOLD);
    terminal
        .draw(|f| f.buffer_mut().set_string(0, 0, "1", green))
        .expect("draw");
    let first = String::from_utf8(written(&mut terminal)).expect("utf-8");
    assert!(first.ends_with("\x1b[?25l"), "{first:?}");
    terminal
        .draw(|f| f.buffer_mut().set_string(0, 0, "2", green))
        .expect("draw");
    let second = String::from_utf8(written(&mut terminal)).expect("utf-8");
    assert_eq!(second, "\r2");
}

#[test]
fn dropping_the_backend_leaves_plain_attributes() {
    let out = Shared::default();
    {
        let backend = LeanBackend::with_size(
            out.clone(),
            Size {
                width: 10,
                height: 2,
            },
        );
        let mut terminal = Terminal::new(backend).expect("terminal");
        terminal
            .draw(|f| {
                f.buffer_mut()
                    .set_string(0, 0, "!", Style::new().fg(Color::Red));
            })
            .expect("draw");
    }
    let bytes = String::from_utf8(out.0.borrow().clone()).expect("utf-8");
    assert!(bytes.ends_with("\x1b[0m"), "{bytes:?}");
}
