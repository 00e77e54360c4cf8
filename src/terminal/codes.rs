//! The escape sequences the backend sends, and what each costs in bytes: the pen a cell is
//! written with (SGR), colours in their shortest codes, and cursor moves.

use std::io::Write as _;

use ratatui::buffer::Cell;
use ratatui::style::{Color, Modifier};

/// Everything SGR sets for a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pen {
    pub(super) fg: Color,
    pub(super) bg: Color,
    pub(super) underline: Color,
    pub(super) modifier: Modifier,
}

impl Pen {
    pub(super) const PLAIN: Self = Self {
        fg: Color::Reset,
        bg: Color::Reset,
        underline: Color::Reset,
        modifier: Modifier::empty(),
    };

    pub(super) fn of(cell: &Cell) -> Self {
        Self {
            fg: cell.fg,
            bg: cell.bg,
            underline: cell.underline_color,
            modifier: cell.modifier,
        }
    }

    /// Whether `cell` is written with this pen, without copying its attributes out first.
    #[inline]
    pub(super) fn is_of(&self, cell: &Cell) -> bool {
        self.modifier == cell.modifier
            && self.fg == cell.fg
            && self.bg == cell.bg
            && self.underline == cell.underline_color
    }
}

const MODIFIER_CODES: [(Modifier, u16); 9] = [
    (Modifier::BOLD, 1),
    (Modifier::DIM, 2),
    (Modifier::ITALIC, 3),
    (Modifier::UNDERLINED, 4),
    (Modifier::SLOW_BLINK, 5),
    (Modifier::RAPID_BLINK, 6),
    (Modifier::REVERSED, 7),
    (Modifier::HIDDEN, 8),
    (Modifier::CROSSED_OUT, 9),
];

#[derive(Clone, Copy)]
enum Layer {
    Fg,
    Bg,
    Underline,
}

/// Appends the SGR sequence that turns pen `from` into `to`.
pub(super) fn sgr(from: Option<Pen>, to: Pen, out: &mut Vec<u8>) {
    out.extend_from_slice(b"\x1b[");
    let start = out.len();
    // Taking an attribute away has a code per attribute; starting over is simpler and
    // rarely longer.
    let from = match from {
        Some(from) if to.modifier.contains(from.modifier) => from,
        _ => {
            out.push(b'0');
            Pen::PLAIN
        }
    };
    // Each parameter after the first needs its separator.
    let separate = |out: &mut Vec<u8>| {
        if out.len() > start {
            out.push(b';');
        }
    };
    for (bit, code) in MODIFIER_CODES {
        if to.modifier.contains(bit) && !from.modifier.contains(bit) {
            separate(out);
            push_number(out, code);
        }
    }
    for (layer, was, is) in [
        (Layer::Fg, from.fg, to.fg),
        (Layer::Bg, from.bg, to.bg),
        (Layer::Underline, from.underline, to.underline),
    ] {
        if was != is {
            separate(out);
            colour(out, is, layer);
        }
    }
    out.push(b'm');
}

/// The SGR parameters of a colour: the short 30–37/90–97 codes for the 16 named colours.
fn colour(out: &mut Vec<u8>, color: Color, layer: Layer) {
    let (base, extended, reset) = match layer {
        Layer::Fg => (30, 38, 39),
        Layer::Bg => (40, 48, 49),
        Layer::Underline => (0, 58, 59),
    };
    match (color, named_index(color)) {
        (Color::Rgb(r, g, b), _) => {
            push_number(out, extended);
            let _ = write!(out, ";2;{r};{g};{b}");
        }
        (Color::Indexed(n), _) => {
            push_number(out, extended);
            let _ = write!(out, ";5;{n}");
        }
        (_, Some(n)) => match layer {
            Layer::Underline => {
                push_number(out, extended);
                let _ = write!(out, ";5;{n}");
            }
            _ if n < 8 => push_number(out, base + n),
            _ => push_number(out, base + 60 + n - 8),
        },
        (_, None) => push_number(out, reset),
    }
}

/// The palette index of the 16 named colours.
fn named_index(color: Color) -> Option<u16> {
    Some(match color {
        Color::Black => 0,
        Color::Red => 1,
        Color::Green => 2,
        Color::Yellow => 3,
        Color::Blue => 4,
        Color::Magenta => 5,
        Color::Cyan => 6,
        Color::Gray => 7,
        Color::DarkGray => 8,
        Color::LightRed => 9,
        Color::LightGreen => 10,
        Color::LightYellow => 11,
        Color::LightBlue => 12,
        Color::LightMagenta => 13,
        Color::LightCyan => 14,
        Color::White => 15,
        Color::Reset | Color::Indexed(_) | Color::Rgb(..) => return None,
    })
}

pub(super) fn push_number(out: &mut Vec<u8>, n: u16) {
    let _ = write!(out, "{n}");
}

fn digits(n: u16) -> usize {
    match n {
        0..=9 => 1,
        10..=99 => 2,
        100..=999 => 3,
        1000..=9999 => 4,
        _ => 5,
    }
}

/// `CSI n X`, with `n` left out when it is 1.
pub(super) fn csi(out: &mut Vec<u8>, n: u16, letter: u8) {
    out.extend_from_slice(b"\x1b[");
    if n != 1 {
        push_number(out, n);
    }
    out.push(letter);
}

pub(super) fn step_cost(n: u16) -> usize {
    if n == 1 { 3 } else { 3 + digits(n) }
}

pub(super) fn absolute_cost(x: u16, y: u16) -> usize {
    match (x, y) {
        (0, 0) => 3,
        (0, _) => 3 + digits(y + 1),
        _ => 4 + digits(y + 1) + digits(x + 1),
    }
}
