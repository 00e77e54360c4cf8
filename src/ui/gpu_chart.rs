//! The history of the selected GPU over the kept window: utilisation and power-weighted load
//! as two tall sparklines, drawn where the GPU panel has room to spare.

use jiff::SignedDuration;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Sparkline, SparklineBar};

use super::bars::columns;
use super::text::short_duration;
use super::theme::{Role, Theme};
use crate::telemetry::{GpuSeries, Series};

/// Columns for the labels left of each sparkline.
const LABEL_W: u16 = 6;

pub fn render_gpu_chart(frame: &mut Frame, area: Rect, series: &GpuSeries, theme: &Theme) {
    if area.height < 3 || area.width <= LABEL_W {
        return;
    }
    let covered = match (series.util_pct.iter().next(), series.util_pct.latest()) {
        (Some((first, _)), Some((last, _))) => last.saturating_sub(first),
        _ => std::time::Duration::ZERO,
    };
    let span = SignedDuration::try_from(covered).unwrap_or_default();
    let caption = Line::from(vec![
        Span::styled(format!("GPU {}", series.index), theme.style(Role::Title)),
        Span::styled(
            format!(" · last {}", short_duration(span)),
            theme.style(Role::TextDim),
        ),
    ]);
    let [caption_area, util_area, load_area] = area.layout(&Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Fill(1),
    ]));
    frame.render_widget(Paragraph::new(caption), caption_area);
    history(
        frame,
        util_area,
        "util",
        &series.util_pct,
        Role::Sparkline,
        theme,
    );
    history(
        frame,
        load_area,
        "load",
        &series.power_weighted_load_pct,
        Role::GaugeMid,
        theme,
    );
}

/// One labelled sparkline, 0–100 %, newest on the right; blank columns had no reading.
fn history(frame: &mut Frame, area: Rect, label: &str, series: &Series, role: Role, theme: &Theme) {
    let [label_area, spark_area] = area.layout(&Layout::horizontal([
        Constraint::Length(LABEL_W),
        Constraint::Fill(1),
    ]));
    let values: Vec<Option<f64>> = series.iter().map(|(_, v)| v).collect();
    let latest = values.last().copied().flatten();
    let now = latest.map_or_else(|| "n/a".to_string(), |v| format!("{v:.0}%"));
    let now_style = if latest.is_some() {
        theme.style(Role::Text)
    } else {
        theme.style(Role::NA)
    };
    frame.render_widget(
        Paragraph::new(vec![
            Line::styled(label.to_string(), theme.style(Role::TextDim)),
            Line::styled(now, now_style),
        ]),
        label_area,
    );
    let bars: Vec<SparklineBar> = columns(&values, usize::from(spark_area.width))
        .into_iter()
        .map(|c| SparklineBar::from(c.map(whole)))
        .collect();
    frame.render_widget(
        Sparkline::default()
            .data(bars)
            .max(100)
            .style(theme.style(role)),
        spark_area,
    );
}

#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a percentage, clamped first"
)]
fn whole(v: f64) -> u64 {
    v.clamp(0.0, 100.0).round() as u64
}
