//! The cockpit's terminal backend: a frame's changed cells, sent with few bytes.
//!
//! gpumeter runs in an ssh session beside a training job, often over a slow or metered link, so
//! what it writes each second matters. Ratatui's crossterm backend sends an absolute cursor move
//! before every run of changed cells, 256-colour codes for the 16 named colours, a reset of every
//! attribute at the end of each frame, and hides the cursor again each frame. This backend keeps
//! a copy of what the terminal shows, skips the cells it already shows (so it can be handed a
//! whole frame, see [`Screen`](super::Screen)) and, as curses does, takes the cheapest way to the next changed
//! cell: rewriting a few unchanged cells, a relative move, backspaces or an absolute one. It
//! sends only the attributes that change, in one SGR sequence, takes a frame's changes in the
//! order that changes colour least, and sends a frame in one write.

use std::io::{self, Write};
use std::num::NonZeroU32;

use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::{Cell, CellDiffOption};
use ratatui::layout::{Position, Size};
use unicode_width::{UnicodeWidthChar as _, UnicodeWidthStr as _};

use super::codes::{Pen, absolute_cost, csi, push_number, sgr, step_cost};

/// A ratatui backend that writes the fewest bytes it can find for each frame.
pub struct LeanBackend<W: Write> {
    out: W,
    /// What the current frame has queued; written in one go by `flush`.
    queued: Vec<u8>,
    /// Used instead of asking the terminal (tests and benchmarks write to memory).
    fixed_size: Option<Size>,
    /// The size `size` last found, which `draw` fits its copy of the screen to rather than
    /// asking the terminal (an open of the tty and an ioctl) again.
    last_size: std::cell::Cell<Option<Size>>,
    /// What each cell of the terminal shows, row by row.
    screen: Vec<Known>,
    columns: u16,
    /// The pens cells were written with; `Known` holds an index into it.
    pens: Vec<Pen>,
    /// Where the terminal's cursor is; `None` after a write to the last column, where
    /// terminals differ on what comes next.
    cursor: Option<Position>,
    /// The attributes the terminal writes with; `None` until the first frame sets them.
    pen: Option<Pen>,
    /// `pen`'s index in `pens`.
    pen_id: u32,
    cursor_hidden: Option<bool>,
}

/// What the copy of the screen knows of a cell, in eight bytes: the one character of width 1
/// it shows and the index of its pen, or nothing (never written, wide, or more than one
/// character), in which case the cell is written whatever it held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Known(Option<(Utf8Char, u32)>);

const _: () = assert!(size_of::<Known>() == 8);

impl Known {
    const NOTHING: Self = Self(None);

    fn of(symbol: &str, pen_id: u32) -> Self {
        let one_column = symbol.chars().next().and_then(char::width) == Some(1);
        match Utf8Char::of(symbol) {
            Some(c) if one_column => Self(Some((c, pen_id))),
            _ => Self::NOTHING,
        }
    }

    /// The character as one byte, if it is ASCII and was written with pen `pen_id`: only then
    /// is rewriting it as it is a cheaper move than a cursor sequence.
    fn byte_in(self, pen_id: u32) -> Option<u8> {
        match self.0 {
            Some((c, pen)) if pen == pen_id => c.ascii(),
            _ => None,
        }
    }
}

/// One character other than NUL, as its UTF-8 bytes in a number: a cell's symbol is compared
/// with one without decoding either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Utf8Char(NonZeroU32);

impl Utf8Char {
    /// The character `symbol` is, if it is one.
    #[inline]
    fn of(symbol: &str) -> Option<Self> {
        // A character's first byte says how many it takes: a string of as many is that one.
        let packed = match *symbol.as_bytes() {
            [a] => u32::from(a),
            [a @ 0xC0..=0xDF, b] => u32::from_le_bytes([a, b, 0, 0]),
            [a @ 0xE0..=0xEF, b, c] => u32::from_le_bytes([a, b, c, 0]),
            [a @ 0xF0..=0xF7, b, c, d] => u32::from_le_bytes([a, b, c, d]),
            _ => return None,
        };
        NonZeroU32::new(packed).map(Self)
    }

    /// The character as its one byte, if it is ASCII.
    fn ascii(self) -> Option<u8> {
        u8::try_from(self.0.get()).ok()
    }
}

/// Pens kept at most; past this the copy of the screen starts over.
const MAX_PENS: usize = 1 << 16;

impl<W: Write> LeanBackend<W> {
    /// A backend for a real terminal: the size is asked of the terminal.
    pub fn new(out: W) -> Self {
        Self {
            out,
            queued: Vec::with_capacity(4096),
            fixed_size: None,
            last_size: std::cell::Cell::new(None),
            screen: Vec::new(),
            columns: 0,
            pens: Vec::new(),
            cursor: None,
            pen: None,
            pen_id: 0,
            cursor_hidden: None,
        }
    }

    /// A backend of a fixed size, for output that is not a terminal.
    pub fn with_size(out: W, size: Size) -> Self {
        let mut backend = Self::new(out);
        backend.fixed_size = Some(size);
        backend
    }

    /// Gives a backend of a fixed size a new size, as a window's resize would.
    pub fn set_size(&mut self, size: Size) {
        self.fixed_size = Some(size);
    }

    /// The writer, with everything flushed to it.
    pub fn writer(&mut self) -> &mut W {
        &mut self.out
    }

    fn index(&self, x: u16, y: u16) -> Option<usize> {
        let index = usize::from(y) * usize::from(self.columns) + usize::from(x);
        (x < self.columns && index < self.screen.len()).then_some(index)
    }

    fn known(&self, x: u16, y: u16) -> Known {
        self.index(x, y).map_or(Known::NOTHING, |i| self.screen[i])
    }

    /// Whether the terminal shows `cell` at `(x, y)` already, character and attributes.
    fn shows(&self, x: u16, y: u16, cell: &Cell) -> bool {
        let Known(Some((c, pen_id))) = self.known(x, y) else {
            return false;
        };
        // A known character is one column wide, so the cell is too unless it says otherwise.
        let one_column = match cell.diff_option {
            CellDiffOption::ForcedWidth(n) => n.get() == 1,
            CellDiffOption::AlwaysUpdate => false,
            _ => true,
        };
        one_column
            && Utf8Char::of(cell.symbol()) == Some(c)
            && usize::try_from(pen_id)
                .ok()
                .and_then(|i| self.pens.get(i))
                .is_some_and(|pen| pen.is_of(cell))
    }

    fn remember(&mut self, x: u16, y: u16, known: Known) {
        if let Some(i) = self.index(x, y) {
            self.screen[i] = known;
        }
    }

    /// Starts a copy of the screen of `size` with nothing known, when the size changed.
    fn fit(&mut self, size: Size) {
        let cells = usize::from(size.width) * usize::from(size.height);
        if self.columns != size.width || self.screen.len() != cells {
            self.columns = size.width;
            self.screen = vec![Known::NOTHING; cells];
            self.cursor = None;
        }
    }

    /// Forgets what the screen shows: every cell is rewritten before it is relied on again.
    fn forget(&mut self) {
        self.screen.fill(Known::NOTHING);
    }

    fn go_to(&mut self, x: u16, y: u16) {
        let here = self.cursor;
        if here == Some(Position { x, y }) {
            return;
        }
        let absolute = absolute_cost(x, y);
        let relative = here.map(|p| (self.relative_cost(p, x, y), p));
        match relative {
            Some((cost, from)) if cost < absolute => self.move_relative(from, x, y),
            _ => self.move_absolute(x, y),
        }
        self.cursor = Some(Position { x, y });
    }

    /// The bytes `go_to` would send to reach `(x, y)` from where the cursor is.
    fn move_cost(&self, x: u16, y: u16) -> usize {
        match self.cursor {
            Some(here) if here == (Position { x, y }) => 0,
            Some(here) => absolute_cost(x, y).min(self.relative_cost(here, x, y)),
            None => absolute_cost(x, y),
        }
    }

    /// The bytes of the cheapest relative way from `from` to `(x, y)`.
    fn relative_cost(&self, from: Position, x: u16, y: u16) -> usize {
        let vertical = match from.y.abs_diff(y) {
            0 => 0,
            n => step_cost(n),
        };
        vertical + self.horizontal(from.x, x, y, from.y == y).0
    }

    /// The cost and the way to go from column `from` to `to` on row `y`.
    fn horizontal(&self, from: u16, to: u16, y: u16, same_row: bool) -> (usize, Horizontal) {
        use std::cmp::Ordering;
        match to.cmp(&from) {
            Ordering::Equal => (0, Horizontal::Stay),
            Ordering::Greater => {
                let step = (step_cost(to - from), Horizontal::Forward);
                match same_row.then(|| self.fill_cost(from, to, y)).flatten() {
                    Some(fill) if fill <= step.0 => (fill, Horizontal::Fill),
                    _ => step,
                }
            }
            Ordering::Less => {
                // A backspace moves one column left in one byte, whatever the terminal mode.
                let back = if from - to <= 3 {
                    (usize::from(from - to), Horizontal::Backspace)
                } else {
                    (step_cost(from - to), Horizontal::Back)
                };
                let home = 1 + if to == 0 { 0 } else { step_cost(to) };
                if home <= back.0 {
                    (home, Horizontal::Home)
                } else {
                    back
                }
            }
        }
    }

    /// The bytes of rewriting the cells between `from` and `to` as they are, when that can be
    /// done with the current attributes.
    fn fill_cost(&self, from: u16, to: u16, y: u16) -> Option<usize> {
        const LONGEST_WORTH_FILLING: u16 = 6;
        if to - from > LONGEST_WORTH_FILLING || self.pen.is_none() {
            return None;
        }
        (from..to)
            .all(|x| self.known(x, y).byte_in(self.pen_id).is_some())
            .then_some(usize::from(to - from))
    }

    fn move_relative(&mut self, from: Position, x: u16, y: u16) {
        if y > from.y {
            csi(&mut self.queued, y - from.y, b'B');
        } else if y < from.y {
            csi(&mut self.queued, from.y - y, b'A');
        }
        match self.horizontal(from.x, x, y, from.y == y).1 {
            Horizontal::Stay => {}
            Horizontal::Forward => csi(&mut self.queued, x - from.x, b'C'),
            Horizontal::Back => csi(&mut self.queued, from.x - x, b'D'),
            Horizontal::Backspace => {
                let steps = usize::from(from.x - x);
                self.queued.extend(std::iter::repeat_n(b'\x08', steps));
            }
            Horizontal::Home => {
                self.queued.push(b'\r');
                if x > 0 {
                    csi(&mut self.queued, x, b'C');
                }
            }
            Horizontal::Fill => {
                for column in from.x..x {
                    if let Some(byte) = self.known(column, y).byte_in(self.pen_id) {
                        self.queued.push(byte);
                    }
                }
            }
        }
    }

    fn move_absolute(&mut self, x: u16, y: u16) {
        let q = &mut self.queued;
        q.extend_from_slice(b"\x1b[");
        if y > 0 || x > 0 {
            push_number(q, y + 1);
        }
        if x > 0 {
            q.push(b';');
            push_number(q, x + 1);
        }
        q.push(b'H');
    }

    fn set_pen(&mut self, to: Pen) {
        if self.pen == Some(to) {
            return;
        }
        sgr(self.pen, to, &mut self.queued);
        self.pen = Some(to);
        self.pen_id = self.pen_id_of(to);
    }

    /// The bytes `set_pen` would send to write with `to`; `scratch` is for the counting.
    fn pen_cost(&self, to: Pen, scratch: &mut Vec<u8>) -> usize {
        if self.pen == Some(to) {
            return 0;
        }
        scratch.clear();
        sgr(self.pen, to, scratch);
        scratch.len()
    }

    fn pen_id_of(&mut self, pen: Pen) -> u32 {
        if let Some(i) = self.pens.iter().position(|p| *p == pen) {
            return u32::try_from(i).unwrap_or(u32::MAX);
        }
        if self.pens.len() >= MAX_PENS {
            self.pens.clear();
            self.forget();
        }
        self.pens.push(pen);
        u32::try_from(self.pens.len() - 1).unwrap_or(u32::MAX)
    }

    /// Writes `cell` at `(x, y)`, and remembers what the terminal shows.
    fn put(&mut self, x: u16, y: u16, cell: &Cell, columns: u16) {
        self.go_to(x, y);
        self.set_pen(Pen::of(cell));
        self.queued.extend_from_slice(cell.symbol().as_bytes());
        let w = width(cell);
        // Wide characters stay unknown, both halves, so they are always written and a
        // narrow one written over either half needs no bookkeeping.
        let known = if w == 1 {
            Known::of(cell.symbol(), self.pen_id)
        } else {
            Known::NOTHING
        };
        self.remember(x, y, known);
        for covered in x.saturating_add(1)..x.saturating_add(w) {
            self.remember(covered, y, Known::NOTHING);
        }
        let next = x.saturating_add(w);
        self.cursor = (next < columns).then_some(Position { x: next, y });
    }

    /// Writes the runs of `changed`, each time the one cheapest to reach from where the last
    /// left the cursor and the pen (the first in screen order of those as cheap). A frame's
    /// changes are mostly numbers in a few colours on every row: taking all of one colour
    /// before the next saves two colour changes a row for a few bytes of cursor moves. Only
    /// for one-column cells, whose order on the terminal cannot matter.
    fn put_cheapest_first(&mut self, changed: &[(u16, u16, &Cell)], runs: Vec<Run>, columns: u16) {
        let mut left = runs;
        let mut scratch = Vec::new();
        // The cost of each pen from the one the terminal has: a frame has a few pens.
        let mut pen_costs: Vec<(Pen, usize)> = Vec::new();
        let mut costs_from = self.pen;
        while !left.is_empty() {
            if costs_from != self.pen {
                pen_costs.clear();
                costs_from = self.pen;
            }
            let mut best = 0;
            let mut best_cost = usize::MAX;
            for (i, run) in left.iter().enumerate() {
                let known = pen_costs.iter().find(|(pen, _)| *pen == run.pen);
                let pen_cost = if let Some(&(_, cost)) = known {
                    cost
                } else {
                    let cost = self.pen_cost(run.pen, &mut scratch);
                    pen_costs.push((run.pen, cost));
                    cost
                };
                let (x, y, _) = changed[run.start];
                let cost = self.move_cost(x, y) + pen_cost;
                if cost < best_cost {
                    (best, best_cost) = (i, cost);
                    if cost == 0 {
                        break;
                    }
                }
            }
            let run = left.remove(best);
            for &(x, y, cell) in &changed[run.start..run.end] {
                self.put(x, y, cell, columns);
            }
        }
    }

    /// Sends what is queued in one write.
    fn send(&mut self) -> io::Result<()> {
        if !self.queued.is_empty() {
            self.out.write_all(&self.queued)?;
            self.queued.clear();
        }
        self.out.flush()
    }
}

/// Frames with more runs than this (a first frame, a resize) are written in screen order: the
/// search for the cheapest next run grows with the square of their number.
const MAX_REORDERED_RUNS: usize = 256;

/// Changed cells one after another on a row, in one pen: `changed[start..end]`.
struct Run {
    start: usize,
    end: usize,
    pen: Pen,
}

/// The runs of `changed`, a frame's changed cells in screen order.
fn runs_of(changed: &[(u16, u16, &Cell)]) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let mut next = None;
    for (i, &(x, y, cell)) in changed.iter().enumerate() {
        match runs.last_mut() {
            Some(run) if next == Some((x, y)) && run.pen.is_of(cell) => run.end = i + 1,
            _ => runs.push(Run {
                start: i,
                end: i + 1,
                pen: Pen::of(cell),
            }),
        }
        next = Some((x.saturating_add(width(cell)), y));
    }
    runs
}

#[derive(Clone, Copy)]
enum Horizontal {
    Stay,
    Forward,
    Back,
    /// A backspace a column.
    Backspace,
    /// A carriage return, then forward.
    Home,
    /// Rewrite the cells in between.
    Fill,
}

/// The columns a cell takes on the terminal.
pub(super) fn width(cell: &Cell) -> u16 {
    Widths::default().of(cell)
}

/// Measures the columns cells take, remembering the last symbol of one non-ASCII character it
/// measured: bars and rules repeat one from cell to cell, and measuring one looks it up in
/// Unicode's tables.
#[derive(Default)]
pub(super) struct Widths {
    last: Option<(Utf8Char, u16)>,
}

impl Widths {
    // This and the other `#[inline]`s are for the loop over a frame's cells: without them, a
    // call for each cell costs more than what it does.
    #[inline]
    pub(super) fn of(&mut self, cell: &Cell) -> u16 {
        match cell.diff_option {
            CellDiffOption::ForcedWidth(n) => n.get(),
            // Most cells are one printable ASCII byte: every frame asks for all of them.
            _ if matches!(cell.symbol().as_bytes(), [b' '..=b'~']) => 1,
            _ => self.of_symbol(cell.symbol()),
        }
    }

    #[inline]
    fn of_symbol(&mut self, symbol: &str) -> u16 {
        let c = Utf8Char::of(symbol);
        match self.last {
            Some((last, width)) if c == Some(last) => width,
            _ => {
                let width = measure(symbol);
                if let Some(c) = c {
                    self.last = Some((c, width));
                }
                width
            }
        }
    }
}

fn measure(symbol: &str) -> u16 {
    u16::try_from(symbol.width()).unwrap_or(u16::MAX)
}

impl<W: Write> Backend for LeanBackend<W> {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let size = match self.last_size.get() {
            Some(size) => size,
            None => self.size()?,
        };
        self.fit(size);
        let mut widths = Widths::default();
        let mut all_narrow = true;
        let mut changed: Vec<(u16, u16, &Cell)> = Vec::new();
        for (x, y, cell) in content {
            if !self.shows(x, y, cell) {
                all_narrow &= widths.of(cell) == 1;
                changed.push((x, y, cell));
            }
        }
        let runs = runs_of(&changed);
        if all_narrow && runs.len() <= MAX_REORDERED_RUNS {
            self.put_cheapest_first(&changed, runs, size.width);
        } else {
            for &(x, y, cell) in &changed {
                self.put(x, y, cell, size.width);
            }
        }
        Ok(())
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        if self.cursor_hidden != Some(true) {
            self.queued.extend_from_slice(b"\x1b[?25l");
            self.cursor_hidden = Some(true);
        }
        Ok(())
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        if self.cursor_hidden != Some(false) {
            self.queued.extend_from_slice(b"\x1b[?25h");
            self.cursor_hidden = Some(false);
        }
        self.send()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        if self.fixed_size.is_some() {
            return Ok(self.cursor.unwrap_or_default());
        }
        crossterm::cursor::position()
            .map(|(x, y)| Position { x, y })
            .map_err(io::Error::other)
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        let Position { x, y } = position.into();
        self.go_to(x, y);
        Ok(())
    }

    fn clear(&mut self) -> io::Result<()> {
        self.clear_region(ClearType::All)
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        // Erased cells take the current background: erase with none.
        if self.pen != Some(Pen::PLAIN) {
            self.set_pen(Pen::PLAIN);
        }
        let code: &[u8] = match clear_type {
            ClearType::All => b"\x1b[2J",
            ClearType::AfterCursor => b"\x1b[J",
            ClearType::BeforeCursor => b"\x1b[1J",
            ClearType::CurrentLine => b"\x1b[2K",
            ClearType::UntilNewLine => b"\x1b[K",
        };
        self.queued.extend_from_slice(code);
        if matches!(clear_type, ClearType::All) {
            let size = self.size()?;
            self.fit(size);
            let blank = Known::of(" ", self.pen_id);
            self.screen.fill(blank);
        } else {
            self.forget();
        }
        self.send()
    }

    fn size(&self) -> io::Result<Size> {
        if let Some(size) = self.fixed_size {
            return Ok(size);
        }
        let (width, height) = crossterm::terminal::size()?;
        let size = Size { width, height };
        self.last_size.set(Some(size));
        Ok(size)
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        if let Some(size) = self.fixed_size {
            return Ok(WindowSize {
                columns_rows: size,
                pixels: Size::default(),
            });
        }
        let size = crossterm::terminal::window_size()?;
        Ok(WindowSize {
            columns_rows: Size {
                width: size.columns,
                height: size.rows,
            },
            pixels: Size {
                width: size.width,
                height: size.height,
            },
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        self.send()
    }
}

impl<W: Write> Drop for LeanBackend<W> {
    /// Leaves the terminal writing plain text again.
    fn drop(&mut self) {
        if self.pen.is_some_and(|p| p != Pen::PLAIN) {
            self.queued.extend_from_slice(b"\x1b[0m");
        }
        let _ = self.send();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_symbol_is_a_utf8_char_only_when_it_is_one_character() {
        let ones = ["a", "~", "\u{7f}", "é", "─", "█", "漢", "👍"];
        let packed: Vec<Utf8Char> = ones
            .iter()
            .map(|one| Utf8Char::of(one).expect("one character"))
            .collect();
        for (i, c) in packed.iter().enumerate() {
            assert!(packed[..i].iter().all(|other| other != c), "{}", ones[i]);
        }
        for not_one in ["", "\0", "ab", "a\0", "e\u{301}", "é!", "──"] {
            assert_eq!(Utf8Char::of(not_one), None, "{not_one:?}");
        }
        assert_eq!(Utf8Char::of("a").and_then(Utf8Char::ascii), Some(b'a'));
        assert_eq!(Utf8Char::of("é").and_then(Utf8Char::ascii), None);
    }

    #[test]
    fn a_remembered_width_is_the_width_measured() {
        let mut widths = Widths::default();
        let symbols = [
            "─", "─", "漢", "漢", "█", "a", "█", "e\u{301}", "👍", "👍", "\u{7f}", "─",
        ];
        for symbol in symbols {
            assert_eq!(widths.of(&Cell::new(symbol)), measure(symbol), "{symbol:?}");
        }
    }
}
