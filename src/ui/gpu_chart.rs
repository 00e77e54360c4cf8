//! The history of the selected GPU over the kept window: utilisation and power-weighted load
//! as two tall sparklines, drawn where the GPU panel has room to spare. Each column is a fixed
//! stretch of time (10 s for ten minutes on 60 columns), so the chart moves once a column.

use std::time::Duration;

use jiff::SignedDuration;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Sparkline, SparklineBar, Widget as _};

use super::bars::{columns, per_column};
use super::paint;
use super::text::short_duration;
use super::theme::{Role, Theme};
use crate::t;
use crate::telemetry::{GpuSeries, Series};

/// Columns for the labels left of each sparkline.
const LABEL_W: u16 = 6;

pub fn render_gpu_chart(
    area: Rect,
    buf: &mut Buffer,
    series: &GpuSeries,
    span: Duration,
    theme: &Theme,
) {
    if area.height < 3 || area.width <= LABEL_W {
        return;
    }
    let width = usize::from(area.width - LABEL_W);
    let per_column = per_column(span, width);
    let shown = per_column
        .saturating_mul(u32::try_from(width).unwrap_or(u32::MAX))
        .min(span);
    let caption = Line::from(vec![
        Span::styled(format!("GPU {}", series.index), theme.style(Role::Title)),
        Span::styled(
            format!(
                " · {}",
                t!(
                    "chart-caption",
                    shown = short_duration(signed(shown)),
                    column = short_duration(signed(per_column))
                )
            ),
            theme.style(Role::TextDim),
        ),
    ]);
    let [caption_area, util_area, load_area] = area.layout(&Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Fill(1),
    ]));
    paint::line(caption_area, buf, &caption);
    let chart = Chart { per_column, theme };
    chart.history(
        util_area,
        buf,
        &t!("gpu-util"),
        &series.util_pct,
        Role::Sparkline,
    );
    let load = &series.power_weighted_load_pct;
    chart.history(load_area, buf, &t!("gpu-load"), load, Role::GaugeMid);
}

fn signed(d: Duration) -> SignedDuration {
    SignedDuration::try_from(d).unwrap_or_default()
}

struct Chart<'a> {
    per_column: Duration,
    theme: &'a Theme,
}

impl Chart<'_> {
    /// One labelled sparkline, 0–100 %, newest on the right; blank columns had no reading.
    fn history(&self, area: Rect, buf: &mut Buffer, label: &str, series: &Series, role: Role) {
        let theme = self.theme;
        let [label_area, spark_area] = area.layout(&Layout::horizontal([
            Constraint::Length(LABEL_W),
            Constraint::Fill(1),
        ]));
        let latest = series.latest().and_then(|(_, v)| v);
        let now = latest.map_or_else(|| "n/a".to_string(), |v| format!("{v:.0}%"));
        let now_style = if latest.is_some() {
            theme.style(Role::Text)
        } else {
            theme.style(Role::NA)
        };
        let labels = [
            Line::styled(label.to_string(), theme.style(Role::TextDim)),
            Line::styled(now, now_style),
        ];
        paint::lines(label_area, buf, &labels);
        let bars: Vec<SparklineBar> = columns(
            series.iter(),
            self.per_column,
            usize::from(spark_area.width),
        )
        .into_iter()
        .map(|c| SparklineBar::from(c.map(whole)))
        .collect();
        Sparkline::default()
            .data(bars)
            .max(100)
            .style(theme.style(role))
            .render(spark_area, buf);
    }
}

#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a percentage, clamped first"
)]
fn whole(v: f64) -> u64 {
    v.clamp(0.0, 100.0).round() as u64
}
