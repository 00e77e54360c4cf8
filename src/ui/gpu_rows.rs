//! One GPU as text, in three densities: two lines (wide), one line, or half a line (two GPUs
//! side by side at 80 columns). Missing readings show "n/a", never a zero.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::bars::{empty_gauge, gauge_in, sparkline};
use super::text::{gib, gpu_model, metric_right, truncate, width};
use super::theme::{Role, Theme};
use crate::t;
use crate::telemetry::metric::u64_to_f64;
use crate::telemetry::{GpuSample, Metric, Series};
use gpumeter_core::cell::Cell;

/// How much room one GPU gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Density {
    /// Two lines: utilisation, load, power and a sparkline; then memory and clocks.
    Double,
    /// One line with both gauges and a sparkline.
    Single,
    /// Half a line: a utilisation gauge and the numbers.
    Half,
}

/// Temperatures from here are drawn in the "hot" style.
const HOT_C: u32 = 85;

pub struct GpuView<'a> {
    pub gpu: &'a GpuSample,
    pub history: Option<&'a Series>,
    /// How far back `history` reaches once full.
    pub span: std::time::Duration,
    pub selected: bool,
}

fn mem_fraction(g: &GpuSample) -> Metric<f64> {
    g.mem_used_mib
        .zip(g.mem_total_mib)
        .and_then(|(used, total)| {
            if total == 0 {
                Err(crate::telemetry::Unavailable::Unsupported)
            } else {
                Ok(u64_to_f64(used) / u64_to_f64(total))
            }
        })
}

fn util_fraction(g: &GpuSample) -> Metric<f64> {
    g.util_pct.map(|u| f64::from(u) / 100.0)
}

/// A utilisation or memory bar. Busy is the good state on a rented GPU, so a full bar is
/// calm and an idle one (billing for nothing) the alarm; memory is calm until nearly full.
fn bar(m: &Metric<f64>, w: usize, theme: &Theme) -> Vec<Span<'static>> {
    match m.get() {
        Some(f) => gauge_in(f, w, theme.utilisation(f), theme),
        None => vec![empty_gauge(w, theme)],
    }
}

/// Memory nearly full is the risk (out of memory), not memory in use.
const MEMORY_FULL_FROM: f64 = 0.95;

fn mem_bar(m: &Metric<f64>, w: usize, theme: &Theme) -> Vec<Span<'static>> {
    match m.get() {
        Some(f) if f >= MEMORY_FULL_FROM => gauge_in(f, w, theme.style(Role::GaugeHigh), theme),
        Some(f) => gauge_in(f, w, theme.style(Role::GpuBusy), theme),
        None => vec![empty_gauge(w, theme)],
    }
}

fn index(v: &GpuView<'_>, theme: &Theme) -> Span<'static> {
    let style = if v.selected {
        theme.style(Role::Selected)
    } else {
        theme.style(Role::Title)
    };
    Span::styled(format!("{:>2}", v.gpu.index), style)
}

fn temp(g: &GpuSample, w: usize, theme: &Theme) -> Span<'static> {
    let style = match g.temp_c.get() {
        Some(t) if t >= HOT_C => theme.style(Role::GpuHot),
        _ => theme.style(Role::Text),
    };
    metric_right(&g.temp_c, w, theme, style, |t| format!("{t}°C"))
}

#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "watts and percentages, rounded for display"
)]
fn whole(x: f64) -> u64 {
    x.max(0.0).round() as u64
}

fn power(g: &GpuSample, w: usize, theme: &Theme) -> Span<'static> {
    let text = theme.style(Role::Text);
    match (g.power_w.get(), g.power_limit_w.get()) {
        (Some(p), Some(l)) => Span::styled(
            format!("{:>w$}", format!("{}/{}W", whole(p), whole(l))),
            text,
        ),
        (Some(p), None) => Span::styled(format!("{:>w$}", format!("{}W", whole(p))), text),
        _ => Span::styled(format!("{:>w$}", "n/a"), theme.style(Role::NA)),
    }
}

fn pct(m: &Metric<f64>, theme: &Theme, style: Style) -> Span<'static> {
    metric_right(m, 4, theme, style, |f| format!("{}%", whole(f * 100.0)))
}

fn spark(v: &GpuView<'_>, w: usize, theme: &Theme) -> Span<'static> {
    let line = match v.history {
        Some(series) => sparkline(series.iter(), v.span, 100.0, w),
        None => " ".repeat(w),
    };
    Span::styled(line, theme.style(Role::Sparkline))
}

fn name(g: &GpuSample, w: usize, theme: &Theme) -> Span<'static> {
    match g.name.value() {
        Some(n) => Span::styled(
            format!("{:w$}", truncate(gpu_model(n), w)),
            theme.style(Role::Text),
        ),
        None => Span::styled(format!("{:w$}", "n/a"), theme.style(Role::NA)),
    }
}

fn load(g: &GpuSample, theme: &Theme) -> Span<'static> {
    metric_right(
        &g.power_weighted_load_pct,
        4,
        theme,
        theme.style(Role::Text),
        |l| format!("{}%", whole(*l)),
    )
}

fn memory(g: &GpuSample, theme: &Theme) -> Span<'static> {
    match (g.mem_used_mib.get(), g.mem_total_mib.get()) {
        (Some(u), Some(t)) => Span::styled(
            format!("{}/{} GiB", gib(u), gib(t)),
            theme.style(Role::Text),
        ),
        _ => super::text::na(theme),
    }
}

fn label(s: String, theme: &Theme) -> Span<'static> {
    Span::styled(s, theme.style(Role::TextDim))
}

/// The short labels of a one-line row (`UTL `, ` ld`, ` MEM `) and the columns they take
/// beyond English's, which the gauges give up.
fn short_labels() -> ([String; 3], usize) {
    let labels = [
        format!("{} ", t!("gpu-util-short")),
        format!(" {}", t!("gpu-load-short")),
        format!(" {} ", t!("gpu-mem-short")),
    ];
    let extra = labels.iter().map(|l| width(l)).sum::<usize>();
    (labels, extra.saturating_sub(4 + 3 + 5))
}

/// The lines for one GPU at `density`, `w` columns wide.
pub fn gpu_lines(v: &GpuView<'_>, density: Density, w: usize, theme: &Theme) -> Vec<Line<'static>> {
    match density {
        Density::Double => double(v, w, theme),
        Density::Single => vec![single(v, w, theme)],
        Density::Half => vec![half(v, w, theme)],
    }
}

/// Columns before the gauges on a two-line row: index, name, temperature and power.
const DOUBLE_LEAD: usize = 2 + 1 + 15 + 1 + 5 + 1 + 9 + 2;

fn double(v: &GpuView<'_>, w: usize, theme: &Theme) -> Vec<Line<'static>> {
    let g = v.gpu;
    let text = theme.style(Role::Text);
    // lead, "util " bar " 96%" "  load  84%" "  " spark
    let fixed = DOUBLE_LEAD + 5 + 4 + 11 + 2;
    let rest = w.saturating_sub(fixed);
    let bar_w = (rest * 3 / 5).clamp(6, 40).min(rest);
    let spark_w = rest - bar_w;
    let mut one = vec![
        index(v, theme),
        Span::raw(" "),
        name(g, 15, theme),
        Span::raw(" "),
        temp(g, 5, theme),
        Span::raw(" "),
        power(g, 9, theme),
        Span::raw("  "),
        label(format!("{:<5}", Cell(t!("gpu-util"))), theme),
    ];
    one.extend(bar(&util_fraction(g), bar_w, theme));
    one.extend([
        pct(&util_fraction(g), theme, text),
        label(format!("  {:<5}", Cell(t!("gpu-load"))), theme),
        load(g, theme),
        Span::raw("  "),
        spark(v, spark_w, theme),
    ]);
    let dim = theme.style(Role::TextDim);
    let clocks = metric_right(&g.sm_clock_mhz, 4, theme, dim, ToString::to_string);
    let fan = metric_right(&g.fan_pct, 4, theme, dim, |f| format!("{f}%"));
    let mut two = vec![
        Span::raw("   "),
        label("SM ".into(), theme),
        clocks,
        label(format!(" MHz {:>4} ", Cell(t!("gpu-fan"))), theme),
        fan,
    ];
    let used: usize = two.iter().map(Span::width).sum();
    two.push(Span::raw(" ".repeat(DOUBLE_LEAD.saturating_sub(used))));
    two.push(label(format!("{:<5}", Cell(t!("gpu-mem"))), theme));
    two.extend(mem_bar(&mem_fraction(g), bar_w, theme));
    two.extend([
        pct(&mem_fraction(g), theme, text),
        Span::raw("  "),
        memory(g, theme),
    ]);
    vec![Line::from(one), Line::from(two)]
}

fn single(v: &GpuView<'_>, w: usize, theme: &Theme) -> Line<'static> {
    let g = v.gpu;
    let text = theme.style(Role::Text);
    let show_name = w >= 96;
    let name_w = if show_name { 16 } else { 0 };
    let ([utl, ld, mem], extra) = short_labels();
    let fixed = 2 + 1 + name_w + 5 + 1 + 9 + 1 + 4 + 4 + 8 + 5 + 4 + 1 + extra;
    let rest = w.saturating_sub(fixed);
    let bar_w = (rest * 2 / 5).clamp(3, 20).min(rest / 2);
    let spark_w = rest.saturating_sub(bar_w * 2);
    let mut one = vec![index(v, theme), Span::raw(" ")];
    if show_name {
        one.extend([name(g, 15, theme), Span::raw(" ")]);
    }
    one.extend([
        temp(g, 5, theme),
        Span::raw(" "),
        power(g, 9, theme),
        Span::raw(" "),
        label(utl, theme),
    ]);
    one.extend(bar(&util_fraction(g), bar_w, theme));
    one.extend([
        pct(&util_fraction(g), theme, text),
        label(ld, theme),
        load(g, theme),
        label(mem, theme),
    ]);
    one.extend(mem_bar(&mem_fraction(g), bar_w, theme));
    one.push(pct(&mem_fraction(g), theme, text));
    if spark_w >= 4 {
        one.extend([Span::raw(" "), spark(v, spark_w - 1, theme)]);
    }
    Line::from(one)
}

fn half(v: &GpuView<'_>, w: usize, theme: &Theme) -> Line<'static> {
    let g = v.gpu;
    let text = theme.style(Role::Text);
    // idx(2) ␣ bar " 96%" " ld" " 84%" " mem" " 82%" " 80°C"
    let ([_, ld, _], _) = short_labels();
    let mem = format!(" {}", t!("gpu-mem"));
    let extra = (width(&ld) + width(&mem)).saturating_sub(3 + 4);
    let fixed = 2 + 1 + 4 + 3 + 4 + 4 + 4 + 5 + extra;
    let bar_w = w.saturating_sub(fixed).clamp(3, 20);
    let mut one = vec![index(v, theme), Span::raw(" ")];
    one.extend(bar(&util_fraction(g), bar_w, theme));
    one.extend([
        pct(&util_fraction(g), theme, text),
        label(ld, theme),
        load(g, theme),
        label(mem, theme),
        pct(&mem_fraction(g), theme, text),
        Span::raw(" "),
        temp(g, 4, theme),
    ]);
    Line::from(one)
}

/// Two half-lines side by side, the left one padded to `half` columns.
pub fn pair(left: Line<'static>, right: Option<Line<'static>>, half: usize) -> Line<'static> {
    let pad = half.saturating_sub(left.width());
    let mut spans = left.spans;
    if let Some(r) = right {
        spans.push(Span::raw(" ".repeat(pad)));
        spans.push(Span::raw(" "));
        spans.extend(r.spans);
    }
    Line::from(spans)
}

/// The widest a line of `density` can be drawn in, for choosing one.
pub fn fits(density: Density, w: usize) -> bool {
    match density {
        Density::Double => w >= 88,
        Density::Single => w >= 60,
        Density::Half => w > 2 * (27 + 3),
    }
}
