//! Cells of the command line's tables, padded by the columns they take on a terminal, not by
//! their characters: a CJK character or an emoji takes two columns, a combining mark none, so
//! `format!("{:<24}", name)` would push every column after a Chinese name to the right.
//! [`Cell`] honours the same `{:<N}`, `{:>N}` and `{:^N}` a plain string does.

use std::fmt;

use unicode_width::UnicodeWidthStr as _;

/// The columns `text` takes on a terminal.
pub fn width(text: &str) -> usize {
    text.width()
}

/// `text` cut to at most `max` columns, with an ellipsis where it was cut; never splits a wide
/// character across the edge.
pub fn truncate(text: &str, max: usize) -> String {
    if width(text) <= max {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w + 1 > max {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// A value that pads to the formatter's width by display columns: `format!("{:<24}",
/// Cell(name))`. Without a width it writes the value as it is.
#[derive(Debug, Clone, Copy)]
pub struct Cell<T>(pub T);

impl<T: fmt::Display> fmt::Display for Cell<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(target) = f.width() else {
            return write!(f, "{}", self.0);
        };
        let text = self.0.to_string();
        let pad = target.saturating_sub(width(&text));
        let (before, after) = match f.align() {
            Some(fmt::Alignment::Right) => (pad, 0),
            Some(fmt::Alignment::Center) => (pad / 2, pad - pad / 2),
            Some(fmt::Alignment::Left) | None => (0, pad),
        };
        let fill = f.fill();
        for _ in 0..before {
            f.write_fmt(format_args!("{fill}"))?;
        }
        f.write_str(&text)?;
        for _ in 0..after {
            f.write_fmt(format_args!("{fill}"))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Cell, truncate, width};

    #[test]
    fn pads_by_display_columns() {
        // Two columns a character, two for the emoji, none for the combining acute.
        for name in ["训练节点", "gpu-🚀", "cafe\u{301}", "plain"] {
            let left = format!("{:<12}|", Cell(name));
            let right = format!("{:>12}|", Cell(name));
            let centre = format!("{:^12}|", Cell(name));
            for line in [left, right, centre] {
                assert_eq!(width(&line), 13, "{line:?}");
                assert!(line.contains(name));
            }
        }
        assert_eq!(format!("{:-<6}", Cell("中")), "中----");
        assert_eq!(format!("{}", Cell("中")), "中");
    }

    #[test]
    fn wider_than_the_column_is_left_whole() {
        assert_eq!(format!("{:<3}", Cell("训练节点")), "训练节点");
    }

    #[test]
    fn truncates_by_columns_without_splitting_a_wide_character() {
        assert_eq!(truncate("训练节点一号", 7), "训练节…");
        assert_eq!(width(&truncate("训练节点一号", 7)), 7);
        assert_eq!(truncate("训练节点一号", 8), "训练节…");
        assert_eq!(truncate("short", 8), "short");
        assert_eq!(truncate("a-very-long-name", 6), "a-ver…");
    }
}
