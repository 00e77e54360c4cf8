//! The GPU panel: one row (or two, or half) per GPU as room allows, the host beneath, what
//! you paid for against what you got, and the selected GPU's history where space is left.
//! Without a GPU it says why and how to retry; `p` swaps in the process view.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};

use super::gpu_chart::render_gpu_chart;
use super::gpu_rows::{Density, GpuView, fits, gpu_lines, pair};
use super::paint;
use super::panel::Panel;
use super::processes::render_processes;
use super::text::{gpu_model, metric, to_u16, truncate, wrap};
use super::theme::{Role, Theme};
use crate::app::App;
use crate::t;
use crate::telemetry::{Finding, GpuReading, GpuUnavailable, Severity};
use gpumeter_core::verify::Verdict;

/// Rows the chart needs to be worth drawing.
const CHART_MIN_ROWS: usize = 6;

pub fn render_gpus(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, focused: bool) {
    let mut panel =
        Panel::new(theme.border(focused)).title(title(app, usize::from(area.width), theme));
    let running = crate::app::enforced::not_running_word(app).is_none();
    if let Some(Ok(reading)) = app.telemetry.gpus.as_ref().filter(|_| running) {
        let hint = if app.show_processes {
            format!(" {} ", t!("gpus-hide-processes"))
        } else {
            format!(" {} ", t!("hint-processes"))
        };
        let mut spans = Vec::new();
        let (shown, n) = (visible(app, reading, panel.inner(area)), reading.gpus.len());
        if shown < n && !app.show_processes {
            // Rows cut: say how many GPUs are not on screen, and which one is selected.
            let at = app.selected_gpu.min(n - 1) + 1;
            spans.push(Span::styled(
                format!(" {} ", t!("gpus-more", at = at, n = n, more = n - shown)),
                theme.style(Role::AlertInfo),
            ));
        }
        spans.push(Span::styled(" p", theme.style(Role::HelpKey)));
        spans.push(Span::styled(hint, theme.style(Role::TextDim)));
        panel = panel.title(Line::from(spans).alignment(Alignment::Right));
        if let Some(line) = findings_title(app, theme) {
            panel = panel.title_bottom(line);
        }
        if let Some(line) = verified_title(app, theme) {
            panel = panel.title_bottom(line.alignment(Alignment::Right));
        }
    }
    let inner = panel.inner(area);
    panel.render(area, buf);
    // A stopped or released instance does no work, whatever a last reading says.
    if let Some(word) = crate::app::enforced::not_running_word(app) {
        let line = t!("gpus-not-running", state = word);
        paint::line(inner, buf, &Line::styled(line, theme.style(Role::TextDim)));
        return;
    }
    let no_reading = !matches!(&app.telemetry.gpus, Some(Ok(r)) if !r.gpus.is_empty());
    if no_reading && crate::app::enforced::runs_without_gpus(app) {
        let line = crate::t!("gpus-none-by-choice");
        paint::lines(
            inner,
            buf,
            &wrap(&line, usize::from(inner.width))
                .into_iter()
                .map(|l| Line::styled(l, theme.style(Role::TextDim)))
                .collect::<Vec<_>>(),
        );
        return;
    }
    match &app.telemetry.gpus {
        None => paint::line(
            inner,
            buf,
            &Line::styled(t!("gpus-waiting"), theme.style(Role::TextDim)),
        ),
        Some(Err(e)) => render_no_gpu(inner, buf, e, app.cloud.configured, theme),
        Some(Ok(r)) if r.gpus.is_empty() => {
            let e = GpuUnavailable {
                kind: crate::telemetry::GpuUnavailableKind::Other,
                detail: t!("gpus-none-reported").into_owned(),
            };
            render_no_gpu(inner, buf, &e, app.cloud.configured, theme);
        }
        Some(Ok(r)) => render_reading(inner, buf, app, r, theme, focused),
    }
}

fn title(app: &App, w: usize, theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::styled(
        format!(" {} ", t!("panel-gpus")),
        theme.style(Role::Title),
    )];
    if let Some(Ok(r)) = &app.telemetry.gpus
        && let Some(first) = r.gpus.first()
    {
        let dim = theme.style(Role::TextDim);
        let same = r.gpus.iter().all(|g| g.name == first.name);
        let model = match (first.name.value(), same) {
            (Some(n), true) => format!("{}× {}", r.gpus.len(), gpu_model(n)),
            _ => t!("gpus-count", count = r.gpus.len()),
        };
        spans.push(Span::styled(model, theme.style(Role::Text)));
        if w < 72 {
            spans.push(Span::raw(" "));
            return Line::from(spans);
        }
        spans.push(Span::styled(format!(" · {} ", t!("gpus-driver")), dim));
        spans.push(metric(&r.driver.driver_version, theme, dim, Clone::clone));
        spans.push(Span::styled(" · CUDA ", dim));
        spans.push(metric(
            &r.driver.cuda_version,
            theme,
            dim,
            ToString::to_string,
        ));
        spans.push(Span::raw(" "));
    }
    Line::from(spans)
}

fn severity_role(s: Severity) -> Role {
    match s {
        Severity::Info => Role::AlertInfo,
        Severity::Warning => Role::AlertWarn,
        Severity::Critical => Role::AlertError,
    }
}

/// Paid for against got, in one line for the bottom border.
fn findings_title(app: &App, theme: &Theme) -> Option<Line<'static>> {
    let findings = &app.telemetry.findings;
    match findings.first() {
        None => {
            // Claim a match only when every GPU the SKU promises was read and named.
            let sku = &app.spend.pricing.as_ref()?.sku;
            let Some(Ok(reading)) = &app.telemetry.gpus else {
                return None;
            };
            let all_named = reading.gpus.iter().all(|g| g.name.is_value());
            let count = u32::try_from(reading.gpus.len()).unwrap_or(u32::MAX);
            if count != sku.gpu_count || !all_named {
                return None;
            }
            Some(Line::styled(
                format!(
                    " {} ",
                    t!(
                        "gpus-got-what-you-pay-for",
                        count = sku.gpu_count,
                        model = sku.gpu_model.clone()
                    )
                ),
                theme.style(Role::ActionOk),
            ))
        }
        Some(f) => {
            let more = if findings.len() > 1 {
                format!(" {}", t!("gpus-more-findings", count = findings.len() - 1))
            } else {
                String::new()
            };
            Some(Line::styled(
                format!(" ! {}{more} ", f.shown()),
                theme.style(severity_role(f.severity)),
            ))
        }
    }
}

/// What the last `gpumeter verify` found: "verified 09:12: 97 % of rated, dedicated", in the
/// verdict's colour.
fn verified_title(app: &App, theme: &Theme) -> Option<Line<'static>> {
    let v = app.telemetry.verified.as_ref()?;
    let at =
        v.at.to_zoned_datetime(app.spend.time_zone.clone())
            .strftime("%H:%M");
    let role = match v.verdict {
        Verdict::Pass => Role::ActionOk,
        Verdict::Incomplete | Verdict::Warn => Role::AlertWarn,
        Verdict::Fail => Role::AlertError,
    };
    Some(Line::styled(
        format!(
            " {} ",
            t!(
                "gpus-verified",
                at = at.to_string(),
                summary = v.summary.clone()
            )
        ),
        theme.style(role),
    ))
}

fn render_no_gpu(
    area: Rect,
    buf: &mut Buffer,
    e: &GpuUnavailable,
    configured: bool,
    theme: &Theme,
) {
    let w = usize::from(area.width);
    let dim = theme.style(Role::TextDim);
    let why = super::words::gpu_unavailable(e.kind);
    let mut lines: Vec<Line<'static>> = wrap(&t!("gpus-no-nvidia", why = why), w)
        .into_iter()
        .map(|l| Line::styled(l, theme.style(Role::AlertError)))
        .collect();
    lines.extend(wrap(&e.detail, w).into_iter().map(|l| Line::styled(l, dim)));
    lines.push(Line::from(vec![
        Span::styled(format!("{} ", t!("gpus-press")), dim),
        Span::styled("r", theme.style(Role::HelpKey)),
        Span::styled(format!(" {}", t!("gpus-to-retry")), dim),
    ]));
    // Without a provider there is no meter or checklist to keep: the welcome says what works.
    if configured {
        lines.push(Line::styled(
            truncate(&t!("gpus-meter-keeps-working"), w),
            dim,
        ));
    }
    paint::lines(area, buf, &lines);
}

/// The densest layout that shows every GPU in `h` rows, or the roomiest that fits the width
/// when none does (the rows then scroll to the selected GPU).
fn choose(n: usize, w: usize, h: usize) -> (Density, usize) {
    let rows = |d: Density| match d {
        Density::Double => 2 * n,
        Density::Single => n,
        Density::Half => n.div_ceil(2),
    };
    for d in [Density::Double, Density::Single, Density::Half] {
        if fits(d, w) && rows(d) <= h {
            return (d, rows(d));
        }
    }
    let d = if fits(Density::Half, w) {
        Density::Half
    } else {
        Density::Single
    };
    (d, rows(d).min(h))
}

/// The rows the GPU lines get in `area`, and how they are drawn.
fn layout(app: &App, reading: &GpuReading, area: Rect) -> (Density, usize) {
    let (w, h) = (usize::from(area.width), usize::from(area.height));
    let n = reading.gpus.len();
    // The process view keeps at least a few rows; the GPU rows give way to it.
    let gpu_room = if app.show_processes {
        h.saturating_sub(4 + n.min(4))
    } else {
        h
    };
    let (density, rows) = choose(n, w, gpu_room);
    if app.show_processes && gpu_room == 0 {
        (density, 0)
    } else {
        (density, rows)
    }
}

/// How many GPUs `rows` rows of `density` show.
fn per_screen(density: Density, rows: usize) -> usize {
    let per_row = if density == Density::Half { 2 } else { 1 };
    let lines_per = if density == Density::Double { 2 } else { 1 };
    (rows / lines_per).max(usize::from(rows > 0)) * per_row
}

/// How many GPUs the panel's inner `area` shows.
fn visible(app: &App, reading: &GpuReading, area: Rect) -> usize {
    let (density, rows) = layout(app, reading, area);
    per_screen(density, rows).min(reading.gpus.len())
}

fn render_reading(
    area: Rect,
    buf: &mut Buffer,
    app: &App,
    reading: &GpuReading,
    theme: &Theme,
    focused: bool,
) {
    let w = usize::from(area.width);
    let (density, rows) = layout(app, reading, area);
    let lines = gpu_block(app, reading, density, rows, w, theme, focused);
    let used = to_u16(lines.len());
    let lines_area = Rect {
        height: used.min(area.height),
        ..area
    };
    paint::lines(lines_area, buf, &lines);
    let rest = Rect {
        y: area.y + used.min(area.height),
        height: area.height.saturating_sub(used),
        ..area
    };
    if app.show_processes {
        render_processes(rest, buf, reading, theme);
        return;
    }
    let mut extra: Vec<Line<'static>> = Vec::new();
    if let Some(host) = &app.telemetry.host {
        extra.push(super::host::host_line(host, w, theme));
    }
    if app.telemetry.findings.len() > 1 {
        extra.extend(findings_lines(&app.telemetry.findings, w, theme));
    }
    extra.truncate(usize::from(rest.height));
    let extra_h = to_u16(extra.len());
    paint::lines(rest, buf, &extra);
    let chart = Rect {
        y: rest.y + extra_h + 1,
        height: rest.height.saturating_sub(extra_h + 1),
        ..rest
    };
    if usize::from(chart.height) >= CHART_MIN_ROWS {
        let selected = reading.gpus.get(app.selected_gpu).map(|g| g.index);
        let series = app
            .telemetry
            .history
            .gpus()
            .iter()
            .find(|s| Some(s.index) == selected);
        if let Some(series) = series {
            render_gpu_chart(chart, buf, series, app.telemetry.history.span(), theme);
        }
    }
}

/// The GPU rows, scrolled so the selected GPU is among the `rows` shown.
fn gpu_block(
    app: &App,
    reading: &GpuReading,
    density: Density,
    rows: usize,
    w: usize,
    theme: &Theme,
    focused: bool,
) -> Vec<Line<'static>> {
    let per_row = if density == Density::Half { 2 } else { 1 };
    let visible = per_screen(density, rows);
    let selected = app.selected_gpu.min(reading.gpus.len().saturating_sub(1));
    let start = (selected / per_row * per_row).saturating_sub(visible.saturating_sub(per_row));
    let half = w.saturating_sub(1) / 2;
    let cell_w = if density == Density::Half { half } else { w };
    let view = |i: usize| {
        let gpu = &reading.gpus[i];
        let history = app
            .telemetry
            .history
            .gpus()
            .iter()
            .find(|s| s.index == gpu.index);
        let v = GpuView {
            gpu,
            history: history.map(|s| &s.util_pct),
            span: app.telemetry.history.span(),
            selected: focused && i == selected,
        };
        gpu_lines(&v, density, cell_w, theme)
    };
    let end = (start + visible).min(reading.gpus.len());
    let mut out = Vec::new();
    let mut i = start;
    while i < end {
        if density == Density::Half {
            let left = view(i).remove(0);
            let right = (i + 1 < end).then(|| view(i + 1).remove(0));
            out.push(pair(left, right, half));
            i += 2;
        } else {
            out.extend(view(i));
            i += 1;
        }
    }
    out
}

fn findings_lines(findings: &[Finding], w: usize, theme: &Theme) -> Vec<Line<'static>> {
    findings
        .iter()
        .map(|f| {
            Line::styled(
                truncate(&format!("! {}", f.shown()), w),
                theme.style(severity_role(f.severity)),
            )
        })
        .collect()
}
