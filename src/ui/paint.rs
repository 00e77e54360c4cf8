//! Lines of text drawn into the buffer cell for cell as ratatui's `Paragraph` draws them when
//! it neither wraps nor scrolls, for a fraction of the work: a paragraph passes over every cell
//! of its area twice to apply its (empty) style and sends each character through grapheme
//! segmentation, which made it the largest cost of a frame. Printable ASCII here is a byte a
//! cell; anything else still goes through graphemes and their widths as in ratatui.

use ratatui::buffer::{Buffer, CellWidth as _};
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use unicode_segmentation::UnicodeSegmentation as _;

/// Draws `lines` top-down in `area`, one a row, as `Paragraph::new(lines).render(area, buf)`.
pub fn lines(area: Rect, buf: &mut Buffer, lines: &[Line<'_>]) {
    let area = area.intersection(buf.area);
    if area.is_empty() {
        return;
    }
    for (line, y) in lines.iter().zip(area.top()..area.bottom()) {
        draw_line(line, area.x, y, area.width, buf);
    }
}

/// Draws one line in the first row of `area`, as `Paragraph::new(line).render(area, buf)`.
pub fn line(area: Rect, buf: &mut Buffer, line: &Line<'_>) {
    lines(area, buf, std::slice::from_ref(line));
}

/// A line cut where the next character would not fit, aligned as the paragraph aligns it.
fn draw_line(line: &Line<'_>, left: u16, y: u16, width: u16, buf: &mut Buffer) {
    let x = match line.alignment.unwrap_or(Alignment::Left) {
        Alignment::Left => 0,
        alignment => {
            let mut shown = 0;
            for_each_shown(line, width, |_, _, w| shown += w);
            match alignment {
                Alignment::Center => (width / 2).saturating_sub(shown / 2),
                _ => width.saturating_sub(shown),
            }
        }
    };
    let mut x = left + x;
    for_each_shown(line, width, |symbol, style, w| {
        if w > 0 {
            buf[(x, y)].set_symbol(symbol).set_style(style);
            x += w;
        }
    });
}

/// Calls `show` with each grapheme of `line` that fits in `width` columns, its style and its
/// width: a grapheme holding an [unsafe](gpumeter_core::text::is_unsafe) character is dropped,
/// one wider than the whole width is skipped, and the line ends at the first one that no longer
/// fits.
fn for_each_shown<'a>(line: &'a Line<'_>, width: u16, mut show: impl FnMut(&'a str, Style, u16)) {
    let mut used: u16 = 0;
    for span in &line.spans {
        let style = line.style.patch(span.style);
        let content: &'a str = span.content.as_ref();
        if content.bytes().all(|b| (b' '..=b'~').contains(&b)) {
            for i in 0..content.len() {
                if used == width {
                    return;
                }
                used += 1;
                show(&content[i..=i], style, 1);
            }
            continue;
        }
        for symbol in content.graphemes(true) {
            if symbol.contains(gpumeter_core::text::is_unsafe) {
                continue;
            }
            let w = symbol.cell_width();
            if w > width {
                continue;
            }
            if used.saturating_add(w) > width {
                return;
            }
            used += w;
            show(symbol, style, w);
        }
    }
}
