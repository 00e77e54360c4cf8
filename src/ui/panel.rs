//! The frame every panel sits in: what `Block::bordered().border_style(..)
//! .padding(Padding::horizontal(1))` with titles draws, cell for cell, without the block's pass
//! over every cell of its area to apply a style the panels never give it. Titles are drawn by
//! ratatui's own `Line`, placed by the block's rules: left ones from the left corner, right ones
//! from the right, one column apart, the left side first.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::symbols::border;
use ratatui::text::Line;
use ratatui::widgets::Widget as _;

/// A bordered panel with a column of padding each side, and its titles.
#[derive(Debug, Clone, Default)]
pub struct Panel<'a> {
    border_style: Style,
    top: Vec<Line<'a>>,
    bottom: Vec<Line<'a>>,
}

impl<'a> Panel<'a> {
    pub fn new(border_style: Style) -> Self {
        Self {
            border_style,
            ..Self::default()
        }
    }

    /// A title in the top border, on the side its alignment says (left unless right).
    #[must_use]
    pub fn title(mut self, title: impl Into<Line<'a>>) -> Self {
        self.top.push(title.into());
        self
    }

    /// A title in the bottom border.
    #[must_use]
    pub fn title_bottom(mut self, title: impl Into<Line<'a>>) -> Self {
        self.bottom.push(title.into());
        self
    }

    /// Where the panel's content goes: inside the borders and the padding.
    pub fn inner(&self, area: Rect) -> Rect {
        let x = area.x.saturating_add(1).min(area.right());
        let y = area.y.saturating_add(1).min(area.bottom());
        Rect {
            x: x.saturating_add(1),
            y,
            width: area.width.saturating_sub(4),
            height: area.height.saturating_sub(2),
        }
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        self.draw_borders(area, buf);
        let (top, bottom) = (area.top(), area.bottom() - 1);
        draw_titles(&self.top, area, top, buf);
        draw_titles(&self.bottom, area, bottom, buf);
    }

    /// The sides, then the corners over them, in the block's order.
    fn draw_borders(&self, area: Rect, buf: &mut Buffer) {
        let set = border::PLAIN;
        let (left, top) = (area.left(), area.top());
        let (right, bottom) = (area.right() - 1, area.bottom() - 1);
        let mut put = |x: u16, y: u16, symbol: &str| {
            buf[(x, y)].set_symbol(symbol).set_style(self.border_style);
        };
        for y in top..=bottom {
            put(left, y, set.vertical_left);
        }
        for x in left..=right {
            put(x, top, set.horizontal_top);
        }
        for y in top..=bottom {
            put(right, y, set.vertical_right);
        }
        for x in left..=right {
            put(x, bottom, set.horizontal_bottom);
        }
        put(right, bottom, set.bottom_right);
        put(right, top, set.top_right);
        put(left, bottom, set.bottom_left);
        put(left, top, set.top_left);
    }
}

/// The titles of one border row `y`: the left ones, then the right ones from the right end.
fn draw_titles(titles: &[Line<'_>], area: Rect, y: u16, buf: &mut Buffer) {
    let row = Rect {
        x: area.left().saturating_add(1),
        y,
        width: area.width.saturating_sub(2),
        height: 1,
    };
    let right = |line: &&Line<'_>| line.alignment == Some(Alignment::Right);
    let mut room = row;
    for title in titles.iter().filter(|t| !right(t)) {
        if room.is_empty() {
            break;
        }
        let width = line_width(title);
        title.render(
            Rect {
                width: width.min(room.width),
                ..room
            },
            buf,
        );
        let advance = width.saturating_add(1);
        room.x = room.x.saturating_add(advance);
        room.width = room.width.saturating_sub(advance);
    }
    let mut room = row;
    for title in titles.iter().filter(right).rev() {
        if room.is_empty() {
            break;
        }
        let width = line_width(title);
        let x = room.right().saturating_sub(width).max(room.left());
        title.render(
            Rect {
                x,
                width: width.min(room.width),
                ..room
            },
            buf,
        );
        room.width = room.width.saturating_sub(width).saturating_sub(1);
    }
}

fn line_width(line: &Line<'_>) -> u16 {
    u16::try_from(line.width()).unwrap_or(u16::MAX)
}
