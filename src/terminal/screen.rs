//! The cockpit's one screen buffer. Ratatui's `Terminal` keeps two, the frame being drawn and
//! the one before it, and sends the cells that differ; here every cell of the frame goes to the
//! backend, and [`LeanBackend`](super::backend::LeanBackend)'s own copy of the terminal skips
//! those already shown, so the frame before is not kept.

use ratatui::backend::Backend;
use ratatui::buffer::{Buffer, Cell, CellDiffOption};
use ratatui::layout::{Position, Rect, Size};

use super::backend::Widths;

/// A backend and the buffer the next frame is drawn into.
pub struct Screen<B: Backend> {
    backend: B,
    buffer: Buffer,
    cursor_hidden: bool,
    /// The terminal's size, asked at the first frame and after [`Screen::resized`]: asking
    /// opens the tty for an ioctl, which every frame would repeat for nothing.
    size: Option<Size>,
}

impl<B: Backend> Screen<B> {
    pub fn new(backend: B) -> Self {
        Self {
            backend,
            buffer: Buffer::empty(Rect::ZERO),
            cursor_hidden: false,
            size: None,
        }
    }

    /// The terminal was resized: the next frame asks its size again.
    pub fn resized(&mut self) {
        self.size = None;
    }

    /// Draws a frame: `render` draws the whole of it into the area it is given and says where
    /// the cursor shows, if anywhere. A frame of a new size starts from a cleared terminal.
    pub fn draw(
        &mut self,
        render: impl FnOnce(Rect, &mut Buffer) -> Option<Position>,
    ) -> Result<(), B::Error> {
        let size = match self.size {
            Some(size) => size,
            None => *self.size.insert(self.backend.size()?),
        };
        let area = Rect::from((Position::ORIGIN, size));
        if area != self.buffer.area {
            self.buffer.resize(area);
            self.backend.clear()?;
        }
        self.buffer.reset();
        let cursor = render(area, &mut self.buffer);
        self.backend.draw(cells(&self.buffer))?;
        if let Some(position) = cursor {
            self.backend.show_cursor()?;
            self.backend.set_cursor_position(position)?;
        } else {
            self.backend.hide_cursor()?;
        }
        self.cursor_hidden = cursor.is_none();
        self.backend.flush()
    }

    /// The frame drawn last.
    pub fn buffer(&self) -> &Buffer {
        &self.buffer
    }

    pub fn backend(&self) -> &B {
        &self.backend
    }

    pub fn backend_mut(&mut self) -> &mut B {
        &mut self.backend
    }
}

impl<B: Backend> Drop for Screen<B> {
    /// Shows the cursor again, as ratatui's `Terminal` does.
    fn drop(&mut self) {
        if self.cursor_hidden {
            let _ = self.backend.show_cursor();
        }
    }
}

/// The cells of `buffer` a terminal is sent, in order: all but those a wide character covers,
/// and those marked to be skipped (as ratatui's diff does).
fn cells(buffer: &Buffer) -> impl Iterator<Item = (u16, u16, &Cell)> {
    let (left, right) = (buffer.area.left(), buffer.area.right());
    // The next cell's place, counted along rather than divided out of its index.
    let mut next = buffer.area.as_position();
    let mut covered = 0;
    let mut widths = Widths::default();
    buffer.content.iter().filter_map(move |cell| {
        let Position { x, y } = next;
        next = if x + 1 < right {
            Position::new(x + 1, y)
        } else {
            Position::new(left, y + 1)
        };
        if x == left {
            // A wide character in the last column covers nothing on the next row.
            covered = 0;
        }
        if covered > 0 {
            covered -= 1;
            return None;
        }
        if cell.diff_option == CellDiffOption::Skip {
            return None;
        }
        covered = widths.of(cell).saturating_sub(1);
        Some((x, y, cell))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terminal::backend::LeanBackend;

    fn frame_area(screen: &mut Screen<LeanBackend<Vec<u8>>>) -> Rect {
        let mut drawn = Rect::ZERO;
        screen
            .draw(|area, _| {
                drawn = area;
                None
            })
            .expect("draw");
        drawn
    }

    #[test]
    fn the_size_is_asked_again_only_after_a_resize() {
        let mut screen = Screen::new(LeanBackend::with_size(Vec::new(), Size::new(80, 24)));
        assert_eq!(frame_area(&mut screen), Rect::new(0, 0, 80, 24));
        screen.backend_mut().set_size(Size::new(100, 30));
        assert_eq!(frame_area(&mut screen), Rect::new(0, 0, 80, 24));
        screen.resized();
        assert_eq!(frame_area(&mut screen), Rect::new(0, 0, 100, 30));
    }
}
