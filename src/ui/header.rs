//! The header line: which instance this is, what it costs per hour and where that price comes
//! from, how long it has been up and in what state. Segments drop by priority when the line is
//! narrow, so 80 columns keep what matters.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::events::progress;
use super::paint;
use super::text::{amount, money, short_duration, truncate, width};
use super::theme::{Role, Theme};
use super::words;
use crate::app::App;
use crate::meter::{ComputeTerms, InstanceState};
use crate::spend::PriceKind;
use crate::t;

/// A piece of the header and how much it matters: 0 stays longest.
struct Segment {
    priority: u8,
    spans: Vec<Span<'static>>,
}

/// The widest any one piece of text in the header gets.
const MAX_PART: usize = 40;

fn seg(priority: u8, spans: Vec<Span<'static>>) -> Segment {
    let spans = spans
        .into_iter()
        .map(|s| Span::styled(truncate(&s.content, MAX_PART), s.style))
        .collect();
    Segment { priority, spans }
}

pub fn render_header(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    if let Some(at) = app.interruption {
        // A spot reclaim beats everything else the header could say.
        let banner = crate::app::deadline::spot_banner(at, app.now);
        let style = theme
            .style(Role::AlertError)
            .add_modifier(ratatui::style::Modifier::REVERSED);
        paint::line(area, buf, &Line::styled(banner, style));
        return;
    }
    if app
        .guard
        .supervisor
        .as_ref()
        .is_some_and(|s| s.down().is_some())
    {
        // Nothing acts at the deadline once this cockpit is gone: the events say why.
        let banner = format!(" {} ", t!("header-no-watchdog"));
        let style = theme
            .style(Role::AlertError)
            .add_modifier(ratatui::style::Modifier::REVERSED);
        paint::line(area, buf, &Line::styled(banner, style));
        return;
    }
    let left = segments(app, theme);
    let right = right_segment(app, theme);
    let line = fit(left, right, usize::from(area.width), theme);
    paint::line(area, buf, &line);
}

fn segments(app: &App, theme: &Theme) -> Vec<Segment> {
    let head = theme.style(Role::Header);
    let dim = theme.style(Role::TextDim);
    let text = theme.style(Role::Text);
    let instance = app
        .cloud
        .inventory
        .as_ref()
        .and_then(|i| i.instance.as_ref());
    let mut out = vec![seg(6, vec![Span::styled("gpumeter", head)])];
    if !app.cloud.configured {
        // Said plainly, not as a warning: the welcome below says what to do about it.
        out.push(seg(0, vec![Span::styled(t!("header-no-provider"), dim)]));
        if app.spend.pricing.is_some() {
            out.extend(price_segments(app, None, theme));
        }
        out.extend(read_only_segment(app, theme));
        return out;
    }
    out.push(seg(0, vec![Span::styled(app.cloud.provider.clone(), head)]));
    match instance {
        Some(i) => {
            out.push(seg(0, vec![Span::styled(i.id.clone(), head)]));
            out.push(seg(3, vec![Span::styled(i.name.clone(), text)]));
            out.push(seg(1, vec![Span::styled(i.sku.clone(), text)]));
        }
        None if app.cloud.inventory.is_some() => {
            out.push(seg(
                0,
                vec![Span::styled(
                    t!("header-no-instance"),
                    theme.style(Role::AlertWarn),
                )],
            ));
        }
        None => out.push(seg(0, vec![Span::styled(t!("header-reading"), dim)])),
    }
    out.extend(price_segments(app, instance, theme));
    if let Some(i) = instance {
        if i.state.is_up() {
            let up = short_duration(app.now.duration_since(i.created));
            out.push(seg(
                2,
                vec![
                    Span::styled(format!("{} ", t!("header-up")), dim),
                    Span::styled(up, text),
                ],
            ));
        }
        let role = match i.state {
            InstanceState::Running | InstanceState::NoGpu => Role::ActionOk,
            InstanceState::Stopped => Role::AlertWarn,
            InstanceState::Released => Role::TextDim,
        };
        let label = words::instance_state(i.state);
        // Stopped or released is what the burn beside it is explained by: it stays.
        let priority = u8::from(i.state.is_up());
        out.push(seg(priority, vec![Span::styled(label, theme.style(role))]));
    }
    out.extend(read_only_segment(app, theme));
    out
}

fn read_only_segment(app: &App, theme: &Theme) -> Option<Segment> {
    app.settings.read_only.then(|| {
        seg(
            1,
            vec![Span::styled(
                t!("header-read-only"),
                theme.style(Role::AlertInfo),
            )],
        )
    })
}

/// What the instance costs per hour and where the price comes from; once it is stopped or
/// released, what still bills instead.
fn price_segments(
    app: &App,
    instance: Option<&crate::provider::InstanceInfo>,
    theme: &Theme,
) -> Vec<Segment> {
    let dim = theme.style(Role::TextDim);
    let text = theme.style(Role::Text);
    let pricing = app.spend.pricing.as_ref();
    let mut out = Vec::new();
    let running = instance.is_none_or(|i| i.state.is_up());
    let burn = app
        .spend
        .reading
        .as_ref()
        .map(|r| r.accrual.burn_per_hour.total());
    if let (Some(burn), false) = (burn.filter(|_| pricing.is_some()), running) {
        // Stopped or released, the list price is not what bills: the survivors' burn is.
        out.push(seg(
            0,
            vec![
                Span::styled(format!("{} ", t!("cost-burn")), dim),
                Span::styled(format!("{}/h", money(burn)), text),
            ],
        ));
    } else if let Some(p) = pricing {
        let rate = match p.terms {
            ComputeTerms::Hourly { per_hour } => {
                format!("{} {}/h", amount(per_hour), p.sheet.currency)
            }
            ComputeTerms::Committed { amount: a } => {
                format!(
                    "{} {} {}",
                    amount(a),
                    p.sheet.currency,
                    t!("cost-committed")
                )
            }
        };
        out.push(seg(
            0,
            vec![
                Span::styled(rate, theme.style(Role::CostOk)),
                Span::styled(format!(" {}", words::billing_mode(p.mode)), text),
            ],
        ));
        let origin = p.origin(instance.and_then(|i| i.region.as_deref()));
        match (origin.kind, &origin.instance_region) {
            (PriceKind::Live, _) => {
                out.push(seg(4, vec![Span::styled(t!("header-live-price"), dim)]));
            }
            // Another region's sheet is an estimate: said, and kept longer than a plain source.
            (PriceKind::OtherRegion, Some(region)) => out.push(seg(
                2,
                vec![Span::styled(
                    t!(
                        "header-other-region",
                        sheet = origin.sheet.clone(),
                        region = region.clone()
                    ),
                    theme.style(Role::AlertWarn),
                )],
            )),
            _ => out.push(seg(
                4,
                vec![Span::styled(
                    t!("header-sheet", sheet = origin.sheet.clone()),
                    dim,
                )],
            )),
        }
    } else {
        out.push(seg(
            0,
            vec![Span::styled(
                t!("header-cost-unknown"),
                theme.style(Role::AlertWarn),
            )],
        ));
    }
    out
}

fn right_segment(app: &App, theme: &Theme) -> Segment {
    match progress(app) {
        Some(p) => seg(0, vec![Span::styled(p, theme.style(Role::AlertWarn))]),
        None => seg(
            5,
            vec![
                Span::styled("?", theme.style(Role::HelpKey)),
                Span::styled(format!(" {}", t!("hint-help")), theme.style(Role::TextDim)),
            ],
        ),
    }
}

/// Between segments when everything fits, and when the line is tight.
const SEPARATOR: &str = " │ ";
const TIGHT: &str = "  ";

/// Drops the least important segments until the line fits `max` columns, then right-aligns
/// the right segment in what is left.
fn fit(mut left: Vec<Segment>, right: Segment, max: usize, theme: &Theme) -> Line<'static> {
    let seg_width = |s: &Segment| s.spans.iter().map(Span::width).sum::<usize>();
    let total = |segs: &[Segment], sep: &str| {
        segs.iter().map(seg_width).sum::<usize>() + width(sep) * segs.len().saturating_sub(1) + 1
    };
    let mut right = Some(right);
    let roomy = total(&left, SEPARATOR) + right.as_ref().map_or(0, |r| seg_width(r) + 2) <= max;
    let sep = if roomy { SEPARATOR } else { TIGHT };
    loop {
        let right_w = right.as_ref().map_or(0, |r| seg_width(r) + 2);
        if total(&left, sep) + right_w <= max {
            break;
        }
        let worst_left = left.iter().map(|s| s.priority).max();
        let right_p = right.as_ref().map(|r| r.priority);
        match (worst_left, right_p) {
            (Some(l), Some(r)) if r >= l => right = None,
            (Some(l), _) if left.len() > 1 => {
                if let Some(i) = left.iter().rposition(|s| s.priority == l) {
                    left.remove(i);
                }
            }
            (_, Some(_)) => right = None,
            _ => break,
        }
    }
    let used = total(&left, sep);
    let mut spans = vec![Span::raw(" ")];
    for (i, s) in left.into_iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(sep, theme.style(Role::Border)));
        }
        spans.extend(s.spans);
    }
    if let Some(r) = right {
        let w = seg_width(&r);
        spans.push(Span::raw(" ".repeat(max.saturating_sub(used + w + 1))));
        spans.extend(r.spans);
    }
    Line::from(spans)
}
