//! How the cost meter's lines are laid out: stacked when the panel is wide and tall, the
//! summary beside the table when it is narrow, and the bare table when it is narrower still.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::bars::{gauge, levels};
use super::cost::{Budget, Meter};
use super::text::{truncate, width, wrap};
use super::theme::{Role, Theme};
use crate::t;
use gpumeter_core::cell::Cell;
use gpumeter_core::text::one_line;

fn pad_between(left: Vec<Span<'static>>, right: Span<'static>, w: usize) -> Line<'static> {
    let used: usize = left.iter().map(Span::width).sum::<usize>() + right.width();
    let mut spans = left;
    spans.push(Span::raw(" ".repeat(w.saturating_sub(used).max(1))));
    spans.push(right);
    Line::from(spans)
}

fn budget_line(b: &Budget, w: usize, theme: &Theme) -> Line<'static> {
    labelled_line(format!("{} ", t!("cost-budget")), b, w, theme)
}

/// "balance 208.51 USD · 7h28m left", cut to the width.
fn balance_line(b: &Budget, w: usize, theme: &Theme) -> Line<'static> {
    cell_line(format!("{} ", t!("cost-balance")), b, w, theme)
}

/// "plan 20d0h left · no renewal · leave now 666.67 CNY vouchers", cut to the width.
fn plan_line(b: &Budget, w: usize, theme: &Theme) -> Line<'static> {
    cell_line(format!("{} ", t!("sub-cost-label")), b, w, theme)
}

/// The plan line wrapped to the width, for a panel with the rows.
fn plan_lines(b: &Budget, w: usize, theme: &Theme) -> Vec<Line<'static>> {
    let label = format!("{} ", t!("sub-cost-label"));
    let mut lines = wrap(&format!("{label}{}", b.text), w).into_iter();
    let Some(first) = lines.next() else {
        return Vec::new();
    };
    let rest = first
        .strip_prefix(label.as_str())
        .unwrap_or(&first)
        .to_string();
    let mut out = vec![Line::from(vec![
        Span::styled(label, theme.style(Role::TextDim)),
        Span::styled(rest, b.style),
    ])];
    out.extend(lines.map(|l| Line::styled(l, b.style)));
    out
}

fn cell_line(label: String, b: &Budget, w: usize, theme: &Theme) -> Line<'static> {
    let room = w.saturating_sub(width(&label));
    Line::from(vec![
        Span::styled(label, theme.style(Role::TextDim)),
        Span::styled(truncate(&b.text, room), b.style),
    ])
}

fn labelled_line(label: String, b: &Budget, w: usize, theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::styled(label, theme.style(Role::TextDim))];
    if let Some(f) = b.fraction {
        let bar_w = w.saturating_sub(8 + width(&b.text)).min(30);
        spans.extend(gauge(f, bar_w, theme));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled(b.text.clone(), b.style));
    Line::from(spans)
}

/// "last hour ▁▂▃▅█ per min": what each of the last sixty minutes cost, by shape.
fn spark_line(m: &Meter, w: usize, theme: &Theme) -> Option<Line<'static>> {
    let label = format!("{} ", t!("cost-last-hour"));
    let per = format!(" {}", t!("cost-per-min"));
    let room = w
        .saturating_sub(width(&label) + width(&per) + 3)
        .min(m.per_minute.len());
    (room >= 10).then(|| {
        Line::from(vec![
            Span::styled(label, theme.style(Role::TextDim)),
            Span::styled(levels(&m.per_minute, room), theme.style(Role::Sparkline)),
            Span::styled(per, theme.style(Role::TextDim)),
        ])
    })
}

fn unknown_text(m: &Meter) -> String {
    // Names come from the provider and the sheet: one clean line before they are drawn.
    one_line(
        &t!("cost-total-incomplete", unknown = m.unknown.join("; ")),
        1000,
    )
}

fn unknown_line(m: &Meter, w: usize, theme: &Theme) -> Line<'static> {
    Line::styled(truncate(&unknown_text(m), w), theme.style(Role::AlertWarn))
}

/// Every unknown with its missing key, wrapped, where the panel has the rows.
fn unknown_lines(m: &Meter, w: usize, theme: &Theme) -> Vec<Line<'static>> {
    wrap(&unknown_text(m), w)
        .into_iter()
        .map(|l| Line::styled(l, theme.style(Role::AlertWarn)))
        .collect()
}

/// Wide: the table, the total and billed under a rule, then projections, budget, what is unknown.
pub(super) fn stacked(
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
            Span::styled(format!("{:<11}", Cell(label)), dim),
            Span::styled(format!("{a:>col$}"), style),
            Span::styled(format!("{b:>col$}"), b_style),
        ])
    };
    let mut out = vec![row(
        "",
        t!("cost-so-far").into_owned(),
        t!("cost-per-hour").into_owned(),
        dim,
        dim,
    )];
    for (label, so_far, per_hour) in &m.lines {
        out.push(row(label, so_far.clone(), per_hour.clone(), text, text));
    }
    out.push(Line::styled(
        "─".repeat(11 + 2 * col),
        theme.style(Role::Border),
    ));
    out.push(row(
        &t!("cost-total"),
        m.total.clone(),
        m.burn.clone(),
        m.total_style,
        m.total_style,
    ));
    let mut billed = row(
        &t!("cost-billed"),
        m.billed.clone(),
        String::new(),
        text,
        text,
    );
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
    if let Some(b) = &m.balance {
        tail.push(balance_line(b, w, theme));
    }
    if !m.unknown.is_empty() {
        tail.extend(unknown_lines(m, w, theme));
    }
    for e in &m.egress {
        let style = e.style(theme);
        tail.extend(wrap(&e.text, w).into_iter().map(|l| Line::styled(l, style)));
    }
    if let Some((p, _)) = &m.plan {
        tail.extend(plan_lines(p, w, theme));
    }
    if out.len() + tail.len() < h
        && let Some(spark) = spark_line(m, w, theme)
    {
        tail.push(spark);
    }
    if h > out.len() + tail.len() {
        out.push(Line::raw(""));
    }
    out.extend(tail);
    (out, None)
}

/// Narrow: the four lines on the left, total, burn, billed and projections on the right; the
/// budget and the note of what is unknown below when there is room, else in the bottom border.
pub(super) fn side_by_side(
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
        format!(
            "{:9} {:>so_w$} {:>rate_w$}",
            "",
            Cell(t!("cost-so-far")),
            Cell(t!("cost-per-hour-short"))
        ),
        dim,
    )])
    .chain(m.lines.iter().map(|(label, so_far, per_hour)| {
        vec![
            Span::styled(format!("{:9} ", Cell(label)), dim),
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
            vec![Span::styled(t!("cost-total"), dim)],
            Span::styled(m.total.clone(), m.total_style),
            right_w,
        ),
        pad_between(
            vec![Span::styled(t!("cost-burn"), dim)],
            Span::styled(format!("{}/h", m.burn), m.total_style),
            right_w,
        ),
        pad_between(
            vec![Span::styled(t!("cost-billed"), dim)],
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
    let note = below_or_in_border(m, &mut out, w, h, theme);
    (out, note)
}

/// The budget and what is unknown under the lines while rows last, else in the bottom border.
fn below_or_in_border(
    m: &Meter,
    out: &mut Vec<Line<'static>>,
    w: usize,
    h: usize,
    theme: &Theme,
) -> Option<Line<'static>> {
    let mut border: Vec<Span<'static>> = Vec::new();
    if let Some(b) = &m.budget {
        if out.len() < h {
            out.push(budget_line(b, w, theme));
        } else {
            // A short gauge still fits in the border.
            border.push(Span::styled(
                format!(" {} ", t!("cost-budget")),
                theme.style(Role::TextDim),
            ));
            if let Some(f) = b.fraction {
                border.extend(gauge(f, 8, theme));
                border.push(Span::raw(" "));
            }
            border.push(Span::styled(format!("{} ", b.text), b.style));
        }
    }
    if let Some(b) = &m.balance {
        if out.len() < h {
            out.push(balance_line(b, w, theme));
        } else {
            border.push(Span::styled(" ", theme.style(Role::TextDim)));
            border.push(Span::styled(format!("{} ", b.text), b.style));
        }
    }
    if out.len() + usize::from(!m.unknown.is_empty()) < h
        && let Some(spark) = spark_line(m, w, theme)
    {
        out.push(spark);
    }
    if !m.unknown.is_empty() {
        if out.len() < h {
            let mut lines = unknown_lines(m, w, theme);
            if out.len() + lines.len() > h {
                lines = vec![unknown_line(m, w, theme)];
            }
            out.extend(lines);
        } else {
            border.push(Span::styled(
                format!(" {} ", t!("cost-incomplete-count", count = m.unknown.len())),
                theme.style(Role::AlertWarn),
            ));
        }
    }
    egress_below_or_in_border(m, out, (w, h), &mut border, theme);
    if let Some((p, left)) = &m.plan {
        let lines = plan_lines(p, w, theme);
        if out.len() + lines.len() <= h {
            out.extend(lines);
        } else if out.len() < h {
            out.push(plan_line(p, w, theme));
        } else {
            border.push(Span::styled(format!(" {left} "), p.style));
        }
    }
    (!border.is_empty()).then(|| Line::from(border))
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
            Span::styled(format!("{:9} ", Cell(label)), dim),
            Span::styled(format!("{a:>so_w$} {b:>rate_w$}"), style),
        ])
    };
    let mut out: Vec<Line<'static>> = m.lines.iter().map(|(l, a, b)| row(l, a, b, text)).collect();
    out.push(row(&t!("cost-total"), &m.total, &m.burn, m.total_style));
    out.push(row(&t!("cost-billed"), &m.billed, "", text));
    for (_, short, value, style) in &m.projections {
        out.push(row(short, value, "", *style));
    }
    out.truncate(h.max(5));
    let mut note: Vec<Span<'static>> = Vec::new();
    // An upload under way costs by the minute: named first, where a narrow border keeps it.
    if m.egress.iter().any(|e| e.warning) {
        note.push(Span::styled(
            format!(" {} ", t!("traffic-upload-label")),
            theme.style(Role::AlertWarn),
        ));
    }
    if let Some(b) = &m.balance {
        note.push(Span::styled(format!(" {} ", b.text), b.style));
    }
    if !m.unknown.is_empty() {
        note.push(Span::styled(
            format!(" {} ", t!("cost-incomplete-count", count = m.unknown.len())),
            theme.style(Role::AlertWarn),
        ));
    }
    if let Some((p, left)) = &m.plan {
        note.push(Span::styled(format!(" {left} "), p.style));
    }
    (out, (!note.is_empty()).then(|| Line::from(note)))
}

/// The upload warning and the egress split under the lines while rows last; the warning that
/// does not fit is named in the border.
fn egress_below_or_in_border(
    m: &Meter,
    out: &mut Vec<Line<'static>>,
    (w, h): (usize, usize),
    border: &mut Vec<Span<'static>>,
    theme: &Theme,
) {
    for e in &m.egress {
        let lines = wrap(&e.text, w);
        if out.len() + lines.len() <= h {
            out.extend(lines.into_iter().map(|l| Line::styled(l, e.style(theme))));
        } else if out.len() < h {
            out.push(Line::styled(truncate(&e.text, w), e.style(theme)));
        } else if e.warning {
            border.push(Span::styled(
                format!(" {} ", t!("traffic-upload-label")),
                e.style(theme),
            ));
        }
    }
}
