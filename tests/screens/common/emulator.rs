//! What a terminal shows after a backend's bytes: a vt100 emulator, read back cell by cell
//! against a buffer or another emulator; and the plumbing to run ratatui's own crossterm
//! backend beside the cockpit's (a writer the test keeps, a size it is told).

use std::cell::{self, RefCell};
use std::io::Write;
use std::rc::Rc;

use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::{Position, Size};
use ratatui::style::{Color, Modifier};

pub fn emulator(size: Size) -> vt100::Parser {
    let (rows, columns) = dimensions(size);
    vt100::Parser::new(rows, columns, 0)
}

/// Resizes the emulator's screen, as a window's resize would.
pub fn resize(emulator: &mut vt100::Parser, size: Size) {
    let (rows, columns) = dimensions(size);
    emulator.set_size(rows, columns);
}

fn dimensions(size: Size) -> (std::num::NonZeroU16, std::num::NonZeroU16) {
    let n = |n: u16| std::num::NonZeroU16::new(n).expect("a screen of some size");
    (n(size.height), n(size.width))
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
pub fn assert_screen_is(screen: &vt100::Screen, buffer: &Buffer, frame: usize) {
    let area = buffer.area;
    assert_eq!(
        screen.size(),
        dimensions(area.as_size()),
        "frame {frame}: size"
    );
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

/// Every cell of two emulated screens: text, colours and attributes.
pub fn assert_same_screen(lean: &vt100::Screen, reference: &vt100::Screen, frame: usize) {
    let (rows, columns) = reference.size();
    for y in 0..rows.get() {
        for x in 0..columns.get() {
            let (got, want) = (lean.cell(y, x), reference.cell(y, x));
            let at = format!("frame {frame}, cell ({x}, {y})");
            let describe = |c: Option<&vt100::Cell>| {
                c.map(|c| {
                    (
                        // A cell never written and one written blank look the same.
                        if c.contents().is_empty() {
                            " "
                        } else {
                            c.contents()
                        }
                        .to_string(),
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

/// Ratatui's crossterm backend asks the tty for its size; this one is told, and told again
/// when the test resizes it.
pub struct FixedSize<B>(pub B, pub Rc<cell::Cell<Size>>);

impl<B: Backend> Backend for FixedSize<B> {
    type Error = B::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.0.draw(content)
    }

    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.0.hide_cursor()
    }

    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.0.show_cursor()
    }

    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        Ok(Position::ORIGIN)
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        self.0.set_cursor_position(position)
    }

    fn clear(&mut self) -> Result<(), Self::Error> {
        self.0.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        self.0.clear_region(clear_type)
    }

    fn size(&self) -> Result<Size, Self::Error> {
        Ok(self.1.get())
    }

    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        Ok(WindowSize {
            columns_rows: self.1.get(),
            pixels: Size::default(),
        })
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        self.0.flush()
    }
}

/// A writer whose bytes the test keeps.
#[derive(Clone, Default)]
pub struct Output(pub Rc<RefCell<Vec<u8>>>);

impl Output {
    /// What was written since the last call.
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.borrow_mut())
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
