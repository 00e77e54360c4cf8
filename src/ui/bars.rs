//! Inline gauges and sparklines drawn as text, so they sit inside a line beside numbers.

use ratatui::text::Span;

use super::theme::{Role, Theme};

const EIGHTHS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// A horizontal gauge `width` columns wide filled to `fraction` (clamped to 0..=1), in the
/// theme's low/mid/high style; the empty part is dim.
pub fn gauge(fraction: f64, width: usize, theme: &Theme) -> Vec<Span<'static>> {
    let f = if fraction.is_finite() {
        fraction.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let eighths = eighths_of(f, width);
    let full = eighths / 8;
    let part = eighths % 8;
    let mut filled: String = "█".repeat(full);
    if part > 0 {
        filled.push(EIGHTHS[part]);
    }
    let used = full + usize::from(part > 0);
    let empty = "·".repeat(width.saturating_sub(used));
    vec![
        Span::styled(filled, theme.gauge(f)),
        Span::styled(empty, theme.style(Role::TextDim)),
    ]
}

/// A gauge for a reading that has none: dim dots all along.
pub fn empty_gauge(width: usize, theme: &Theme) -> Span<'static> {
    Span::styled("·".repeat(width), theme.style(Role::TextDim))
}

#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "a clamped fraction of a terminal width"
)]
fn eighths_of(fraction: f64, width: usize) -> usize {
    ((fraction * (width * 8) as f64).round() as usize).min(width * 8)
}

/// The readings cut into at most `width` columns from the newest backwards, each the mean of
/// the readings it covers (`None` when none of them had a value), oldest column first. Fewer
/// readings than columns leave the columns on the left empty (`None`).
pub fn columns(values: &[Option<f64>], width: usize) -> Vec<Option<f64>> {
    if width == 0 {
        return Vec::new();
    }
    let per_column = values.len().div_ceil(width).max(1);
    let mut columns: Vec<Option<f64>> = values
        .rchunks(per_column)
        .take(width)
        .map(|chunk| {
            let present: Vec<f64> = chunk.iter().flatten().copied().collect();
            if present.is_empty() {
                None
            } else {
                Some(present.iter().sum::<f64>() / len_f64(present.len()))
            }
        })
        .collect();
    columns.resize(width, None);
    columns.reverse();
    columns
}

/// The last readings as a one-line sparkline `width` columns wide, newest on the right. A
/// column with no reading is blank, so a gap reads as "unknown", not as zero. Values are
/// scaled to `max`.
pub fn sparkline(values: &[Option<f64>], max: f64, width: usize) -> String {
    columns(values, width)
        .into_iter()
        .map(|c| c.map_or(' ', |v| level(v, max)))
        .collect()
}

#[expect(
    clippy::cast_precision_loss,
    reason = "a count of readings, far below 2^53"
)]
fn len_f64(n: usize) -> f64 {
    n as f64
}

#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "clamped to 0..=7 first"
)]
fn level(v: f64, max: f64) -> char {
    if max <= 0.0 || !v.is_finite() {
        return LEVELS[0];
    }
    let i = (v / max * 7.0).round().clamp(0.0, 7.0) as usize;
    LEVELS[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gauges_fill_by_eighths_and_never_overflow() {
        let theme = Theme::default();
        let text = |f: f64| -> String {
            gauge(f, 4, &theme)
                .iter()
                .map(|s| s.content.to_string())
                .collect()
        };
        assert_eq!(text(0.0), "····");
        assert_eq!(text(0.5), "██··");
        assert_eq!(text(1.0), "████");
        assert_eq!(text(7.0), "████");
        assert_eq!(text(f64::NAN), "····");
        assert_eq!(text(0.53), "██▏·");
    }

    #[test]
    fn sparklines_end_at_now_and_leave_gaps_blank() {
        let v = [Some(0.0), Some(100.0), None, Some(50.0)];
        assert_eq!(sparkline(&v, 100.0, 4), "▁█ ▅");
        assert_eq!(sparkline(&v, 100.0, 6), "  ▁█ ▅");
        assert_eq!(sparkline(&v, 100.0, 2), "▅▅");
        assert_eq!(sparkline(&[], 100.0, 3), "   ");
        assert_eq!(sparkline(&v, 0.0, 1), "▁");
    }
}
