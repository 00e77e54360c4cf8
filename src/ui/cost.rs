//! The cost meter: compute, bandwidth, storage and extras, each with the amount so far and its
//! rate per hour; the total and the burn rate; billed beside accrued; where the spend will be
//! at the deadline and at midnight; the budget gauge; what the sheet could not price.
//!
//! Every number comes from the meter's reading; lines are rounded with `to_cents`, so they add
//! up to the total shown. Wide, the summary sits under the table; narrow, beside it.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Padding, Paragraph};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

use super::bars::gauge;
use super::text::{amount, local_time, short_duration, truncate, width, wrap};
use super::theme::{Role, Theme};
use crate::app::{App, Pricing, SpendReading};
use crate::meter::{Breakdown, ComputeTerms};
use crate::money::Money;

/// The summary goes under the table from this inner size, beside it below.
const STACKED_FROM: (usize, usize) = (50, 11);

/// The meter as strings and styles, ready to lay out.
struct Meter {
    /// The four lines: label, so far, per hour.
    lines: [(&'static str, String, String); 4],
    total: String,
    burn: String,
    total_style: Style,
    billed: String,
    /// "per second", "per minute, min 1h", ...
    step: String,
    /// (long label, short label, value, style) for the deadline and midnight.
    projections: Vec<(String, String, String, Style)>,
    budget: Option<Budget>,
    unpriced: Vec<String>,
}

struct Budget {
    fraction: Option<f64>,
    text: String,
    style: Style,
}

pub fn render_cost(frame: &mut Frame, area: Rect, app: &App, theme: &Theme, focused: bool) {
    let mut block = Block::bordered()
        .border_style(theme.border(focused))
        .padding(Padding::horizontal(1))
        .title(Span::styled(" Cost ", theme.style(Role::Title)));
    if let Some(p) = &app.spend.pricing {
        block = block.title(
            Line::styled(
                format!(" {} ", p.sheet.currency),
                theme.style(Role::TextDim),
            )
            .alignment(Alignment::Right),
        );
    }
    let inner = block.inner(area);
    let (w, h) = (usize::from(inner.width), usize::from(inner.height));
    let lines = match (&app.spend.pricing, &app.spend.reading) {
        (None, _) => no_pricing(w, theme),
        (Some(_), None) => vec![Line::styled(
            "waiting for the instance's inventory…",
            theme.style(Role::TextDim),
        )],
        (Some(p), Some(r)) => {
            let meter = meter(app, p, r, theme);
            let (lines, left_out) = if w >= STACKED_FROM.0 && h >= STACKED_FROM.1 {
                stacked(&meter, w, h, theme)
            } else {
                side_by_side(&meter, w, h, theme)
            };
            if let Some(note) = left_out {
                block = block.title_bottom(note);
            }
            lines
        }
    };
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn no_pricing(w: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = vec![Line::styled(
        "no price sheet for this instance",
        theme.style(Role::AlertWarn),
    )];
    let hint = "name a sheet and SKU in the config; `gpumeter pricing list` shows them";
    out.extend(
        wrap(hint, w)
            .into_iter()
            .map(|l| Line::styled(l, theme.style(Role::TextDim))),
    );
    out
}

/// `spent / budget`, when both are in one currency and the budget is positive.
fn fraction_of(spent: Money, budget: Money) -> Option<f64> {
    if spent.currency != budget.currency || budget.amount <= Decimal::ZERO {
        return None;
    }
    (spent.amount / budget.amount).to_f64()
}

/// The spend's style against the budget: ok, nearing it (from 80 %), or over.
fn budget_role(fraction: Option<f64>) -> Role {
    match fraction {
        Some(f) if f >= 1.0 => Role::CostOver,
        Some(f) if f >= 0.8 => Role::CostWarn,
        _ => Role::CostOk,
    }
}

fn step_label(pricing: &Pricing) -> String {
    let billing = &pricing.sheet.billing;
    let step = match billing.step_seconds {
        0 | 1 => "per second".to_string(),
        60 => "per minute".to_string(),
        3600 => "per hour".to_string(),
        s => format!("per {s} s"),
    };
    if billing.minimum_seconds > billing.step_seconds {
        let min = jiff::SignedDuration::from_secs(i64::from(billing.minimum_seconds));
        format!("{step}, min {}", short_duration(min))
    } else {
        step
    }
}

fn meter(app: &App, pricing: &Pricing, reading: &SpendReading, theme: &Theme) -> Meter {
    let accrued = reading.accrual.accrued.to_cents().map(amount);
    let burn = reading.accrual.burn_per_hour.to_cents().map(amount);
    let budget = app.spend.budget;
    let spent = reading.accrual.accrued.total();
    let fraction = budget.and_then(|b| fraction_of(spent, b));
    let compute = if matches!(pricing.terms, ComputeTerms::Committed { .. }) {
        "committed"
    } else {
        "compute"
    };
    let labels = [compute, "bandwidth", "storage", "extras"];
    let projected = |b: &Breakdown| {
        let over = budget
            .and_then(|budget| fraction_of(b.total(), budget))
            .is_some_and(|f| f >= 1.0);
        let style = theme.style(if over { Role::CostOver } else { Role::Text });
        (amount(b.to_cents()[4]), style)
    };
    let mut projections = Vec::new();
    if let (Some(b), Some(d)) = (&reading.at_deadline, &app.deadline) {
        let (value, style) = projected(b);
        let at = local_time(d.at, app.now, &app.spend.time_zone);
        projections.push((
            format!("at deadline {at}"),
            "deadline".to_string(),
            value,
            style,
        ));
    }
    let (value, style) = projected(&reading.at_end_of_day);
    projections.push(("by midnight".into(), "midnight".into(), value, style));
    Meter {
        lines: std::array::from_fn(|i| (labels[i], accrued[i].clone(), burn[i].clone())),
        total: accrued[4].clone(),
        burn: burn[4].clone(),
        total_style: theme.style(budget_role(fraction)),
        billed: amount(reading.accrual.billed.to_cents()[4]),
        step: step_label(pricing),
        projections,
        budget: budget.map(|b| Budget {
            fraction,
            text: match fraction {
                Some(f) if f >= 10.0 => format!(">999% of {}", amount(b.amount)),
                Some(f) => format!("{:.0}% of {}", f * 100.0, amount(b.amount)),
                None => format!("budget in {}, meter in {}", b.currency, spent.currency),
            },
            style: theme.style(if fraction.is_some() {
                budget_role(fraction)
            } else {
                Role::AlertWarn
            }),
        }),
        unpriced: reading.accrual.unpriced.clone(),
    }
}

fn pad_between(left: Vec<Span<'static>>, right: Span<'static>, w: usize) -> Line<'static> {
    let used: usize = left.iter().map(Span::width).sum::<usize>() + right.width();
    let mut spans = left;
    spans.push(Span::raw(" ".repeat(w.saturating_sub(used).max(1))));
    spans.push(right);
    Line::from(spans)
}

fn budget_line(b: &Budget, w: usize, theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::styled("budget ", theme.style(Role::TextDim))];
    if let Some(f) = b.fraction {
        let bar_w = w.saturating_sub(8 + width(&b.text)).min(30);
        spans.extend(gauge(f, bar_w, theme));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled(b.text.clone(), b.style));
    Line::from(spans)
}

fn unpriced_line(m: &Meter, w: usize, theme: &Theme) -> Line<'static> {
    let text = format!("! unpriced, counted as 0: {}", m.unpriced.join(", "));
    Line::styled(truncate(&text, w), theme.style(Role::AlertWarn))
}

/// Wide: the table, the total and billed under a rule, then projections, budget, unpriced.
fn stacked(
    m: &Meter,
    w: usize,
    h: usize,
    theme: &Theme,
) -> (Vec<Line<'static>>, Option<Line<'static>>) {
    let dim = theme.style(Role::TextDim);
    let text = theme.style(Role::Text);
    let widest = m
        .lines
        .iter()
        .flat_map(|l| [width(&l.1), width(&l.2)])
        .chain([width(&m.total), width(&m.burn), width(&m.billed)])
        .max()
        .unwrap_or(0);
    let col = (widest + 2).max(10);
    let row = |label: &str, a: String, b: String, style: Style, b_style: Style| {
        Line::from(vec![
            Span::styled(format!("{label:<11}"), dim),
            Span::styled(format!("{a:>col$}"), style),
            Span::styled(format!("{b:>col$}"), b_style),
        ])
    };
    let mut out = vec![row("", "so far".into(), "per hour".into(), dim, dim)];
    for (label, so_far, per_hour) in &m.lines {
        out.push(row(label, so_far.clone(), per_hour.clone(), text, text));
    }
    out.push(Line::styled(
        "─".repeat(11 + 2 * col),
        theme.style(Role::Border),
    ));
    out.push(row(
        "total",
        m.total.clone(),
        m.burn.clone(),
        m.total_style,
        m.total_style,
    ));
    let mut billed = row("billed", m.billed.clone(), String::new(), text, text);
    let note_w = w.saturating_sub(billed.width() + 2);
    billed.push_span(Span::styled(
        format!("  {}", truncate(&m.step, note_w)),
        dim,
    ));
    out.push(billed);
    let table_w = 11 + 2 * col;
    let mut tail: Vec<Line<'static>> = m
        .projections
        .iter()
        .map(|(long, _, value, style)| {
            pad_between(
                vec![Span::styled(long.clone(), dim)],
                Span::styled(value.clone(), *style),
                table_w,
            )
        })
        .collect();
    if let Some(b) = &m.budget {
        tail.push(budget_line(b, w, theme));
    }
    if !m.unpriced.is_empty() {
        tail.push(unpriced_line(m, w, theme));
    }
    if h > out.len() + tail.len() {
        out.push(Line::raw(""));
    }
    out.extend(tail);
    (out, None)
}

/// Narrow: the four lines on the left, total, burn, billed and projections on the right; the
/// budget and the unpriced note below when there is room, else in the bottom border.
fn side_by_side(
    m: &Meter,
    w: usize,
    h: usize,
    theme: &Theme,
) -> (Vec<Line<'static>>, Option<Line<'static>>) {
    let dim = theme.style(Role::TextDim);
    let text = theme.style(Role::Text);
    let so_w = m
        .lines
        .iter()
        .map(|l| width(&l.1))
        .chain([6])
        .max()
        .unwrap_or(6);
    let rate_w = m
        .lines
        .iter()
        .map(|l| width(&l.2))
        .chain([2])
        .max()
        .unwrap_or(2);
    let left: Vec<Vec<Span<'static>>> = std::iter::once(vec![Span::styled(
        format!("{:9} {:>so_w$} {:>rate_w$}", "", "so far", "/h"),
        dim,
    )])
    .chain(m.lines.iter().map(|(label, so_far, per_hour)| {
        vec![
            Span::styled(format!("{label:9} "), dim),
            Span::styled(format!("{so_far:>so_w$} {per_hour:>rate_w$}"), text),
        ]
    }))
    .collect();
    let left_w = 9 + 1 + so_w + 1 + rate_w;
    let right_w = w.saturating_sub(left_w + 3);
    if right_w < 16 {
        return narrow(m, (so_w, rate_w), h, theme);
    }
    let mut right = vec![
        pad_between(
            vec![Span::styled("total", dim)],
            Span::styled(m.total.clone(), m.total_style),
            right_w,
        ),
        pad_between(
            vec![Span::styled("burn", dim)],
            Span::styled(format!("{}/h", m.burn), m.total_style),
            right_w,
        ),
        pad_between(
            vec![Span::styled("billed", dim)],
            Span::styled(m.billed.clone(), text),
            right_w,
        ),
    ];
    for (_, short, value, style) in &m.projections {
        right.push(pad_between(
            vec![Span::styled(short.clone(), dim)],
            Span::styled(value.clone(), *style),
            right_w,
        ));
    }
    let mut out: Vec<Line<'static>> = (0..left.len().max(right.len()))
        .map(|i| {
            let mut spans = left.get(i).cloned().unwrap_or_default();
            let used: usize = spans.iter().map(Span::width).sum();
            spans.push(Span::raw(" ".repeat(left_w.saturating_sub(used) + 1)));
            spans.push(Span::styled("│ ", theme.style(Role::Border)));
            if let Some(r) = right.get(i) {
                spans.extend(r.spans.clone());
            }
            Line::from(spans)
        })
        .collect();
    let mut border: Vec<Span<'static>> = Vec::new();
    if let Some(b) = &m.budget {
        if out.len() < h {
            out.push(budget_line(b, w, theme));
        } else {
            border.push(Span::styled(format!(" budget {} ", b.text), b.style));
        }
    }
    if !m.unpriced.is_empty() {
        if out.len() < h {
            out.push(unpriced_line(m, w, theme));
        } else {
            border.push(Span::styled(
                format!(" ! {} unpriced ", m.unpriced.len()),
                theme.style(Role::AlertWarn),
            ));
        }
    }
    let note = (!border.is_empty()).then(|| Line::from(border));
    (out, note)
}

/// Narrowest: the four lines and the total with its rate; billed and the projections below
/// while rows last; what does not fit is named in the bottom border.
fn narrow(
    m: &Meter,
    (so_w, rate_w): (usize, usize),
    h: usize,
    theme: &Theme,
) -> (Vec<Line<'static>>, Option<Line<'static>>) {
    let dim = theme.style(Role::TextDim);
    let text = theme.style(Role::Text);
    let row = |label: &str, a: &str, b: &str, style: Style| {
        Line::from(vec![
            Span::styled(format!("{label:9} "), dim),
            Span::styled(format!("{a:>so_w$} {b:>rate_w$}"), style),
        ])
    };
    let mut out: Vec<Line<'static>> = m.lines.iter().map(|(l, a, b)| row(l, a, b, text)).collect();
    out.push(row("total", &m.total, &m.burn, m.total_style));
    out.push(row("billed", &m.billed, "", text));
    for (_, short, value, style) in &m.projections {
        out.push(row(short, value, "", *style));
    }
    out.truncate(h.max(5));
    let note = (!m.unpriced.is_empty()).then(|| {
        Line::styled(
            format!(" ! {} unpriced ", m.unpriced.len()),
            theme.style(Role::AlertWarn),
        )
    });
    (out, note)
}
