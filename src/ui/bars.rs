//! Inline gauges and sparklines drawn as text, so they sit inside a line beside numbers.

use std::time::Duration;

use ratatui::style::Style;
use ratatui::text::Span;

use super::theme::{Role, Theme};

const EIGHTHS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// A horizontal gauge `width` columns wide filled to `fraction` (clamped to 0..=1), in the
/// theme's low/mid/high style; the empty part is dim.
pub fn gauge(fraction: f64, width: usize, theme: &Theme) -> Vec<Span<'static>> {
    let f = if fraction.is_finite() { fraction } else { 0.0 };
    gauge_in(fraction, width, theme.gauge(f), theme)
}

/// A gauge as [`gauge`], its filled part in `style`.
pub fn gauge_in(fraction: f64, width: usize, style: Style, theme: &Theme) -> Vec<Span<'static>> {
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
        Span::styled(filled, style),
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

/// The readings as `width` columns of `per_column` each, newest on the right: each the mean of
/// its readings, `None` where none had a value. Columns are aligned to multiples of
/// `per_column` since sampling started, so a new reading changes only the newest column and
/// the chart moves left once per column, not at every reading (a chart that shifts every second
/// redraws, and sends over ssh, every cell of its edge every second).
pub fn columns(
    points: impl Iterator<Item = (Duration, Option<f64>)>,
    per_column: Duration,
    width: usize,
) -> Vec<Option<f64>> {
    let mut sums = vec![(0.0, 0_u32); width];
    let step = per_column.as_millis().max(1);
    let points: Vec<_> = points.collect();
    let Some(&(newest, _)) = points.last() else {
        return vec![None; width];
    };
    let newest = newest.as_millis() / step;
    for (at, value) in points {
        let back = newest.saturating_sub(at.as_millis() / step);
        if let (Ok(back), Some(v)) = (usize::try_from(back), value)
            && back < width
        {
            let (sum, n) = &mut sums[width - 1 - back];
            *sum += v;
            *n += 1;
        }
    }
    sums.into_iter()
        .map(|(sum, n)| (n > 0).then(|| sum / f64::from(n)))
        .collect()
}

/// How much time a column of a `width`-column chart of `span` covers: whole seconds, as few
/// as hold the whole span.
pub fn per_column(span: Duration, width: usize) -> Duration {
    let width = u64::try_from(width.max(1)).unwrap_or(u64::MAX);
    Duration::from_secs(span.as_secs().div_ceil(width).max(1))
}

/// The readings as a one-line sparkline `width` columns wide over `span`, newest on the right.
/// A column with no reading is blank, so a gap reads as "unknown", not as zero. Values are
/// scaled to `max`.
pub fn sparkline(
    points: impl Iterator<Item = (Duration, Option<f64>)>,
    span: Duration,
    max: f64,
    width: usize,
) -> String {
    columns(points, per_column(span, width), width)
        .into_iter()
        .map(|c| c.map_or(' ', |v| level(v, max)))
        .collect()
}

/// The last `width` of `values` as a sparkline scaled to their largest, oldest on the left.
pub fn levels(values: &[f64], width: usize) -> String {
    let shown = &values[values.len().saturating_sub(width)..];
    let max = shown.iter().copied().fold(0.0, f64::max);
    shown.iter().map(|v| level(*v, max)).collect()
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

    fn timed(values: &[Option<f64>]) -> Vec<(Duration, Option<f64>)> {
        (0..)
            .map(Duration::from_secs)
            .zip(values.iter().copied())
            .collect()
    }

    #[test]
    fn sparklines_end_at_now_and_leave_gaps_blank() {
        let v = timed(&[Some(0.0), Some(100.0), None, Some(50.0)]);
        let span = Duration::from_secs(4);
        let line = |max, width| sparkline(v.iter().copied(), span, max, width);
        assert_eq!(line(100.0, 4), "▁█ ▅");
        assert_eq!(line(100.0, 6), "  ▁█ ▅");
        assert_eq!(line(100.0, 2), "▅▅");
        assert_eq!(sparkline(std::iter::empty(), span, 100.0, 3), "   ");
        assert_eq!(line(0.0, 1), "▁");
    }

    #[test]
    fn columns_take_the_fewest_whole_seconds_that_hold_the_span() {
        let step = |span: u64, width| per_column(Duration::from_secs(span), width).as_secs();
        assert_eq!(step(600, 58), 11);
        assert_eq!(step(600, 60), 10);
        assert_eq!(step(600, 600), 1);
        assert_eq!(step(600, 4), 150);
        assert_eq!(step(0, 10), 1);
    }

    #[test]
    fn a_new_reading_changes_only_the_newest_column_until_a_step_passes() {
        let readings: Vec<Option<f64>> = (0..100).map(|i| Some(f64::from(i % 7) * 10.0)).collect();
        let v = timed(&readings);
        let per = Duration::from_secs(10);
        let at = |n: usize| columns(v[..n].iter().copied(), per, 6);
        // 91 to 99 readings all end in the column of 90–99 s: only that column moves.
        for n in 92..=100 {
            assert_eq!(at(n)[..5], at(91)[..5], "{n} readings");
        }
        assert_ne!(at(95)[5], at(92)[5]);
        // The 91st reading (at 90 s) opens a new column: everything moves left by one.
        assert_eq!(at(91)[..5], at(90)[1..]);
        assert_eq!(at(91)[5], readings[90]);
    }
}
