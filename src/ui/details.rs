//! The overlay `Enter` opens on a linked resource: its rows as the core computed them
//! ([`crate::app::Details`]), the price in the warning style when the sheet has none, and what
//! of its data others can read in the theme's warning and critical colours. Esc or Enter closes.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Padding, Paragraph, Widget as _};

use super::text::{centered, to_u16, truncate, width, wrap};
use super::theme::{Role, Theme};
use super::words::detail_label;
use crate::app::{App, Details, Intent, is_offered};
use crate::provider::Severity;
use crate::t;
use gpumeter_core::cell::Cell;

/// The widest the overlay grows.
const MAX_WIDTH: usize = 76;

pub fn render_details(area: Rect, buf: &mut Buffer, app: &App, d: &Details, theme: &Theme) {
    let w = usize::from(area.width).saturating_sub(4).min(MAX_WIDTH - 4);
    let dim = theme.style(Role::TextDim);
    let room = usize::from(area.height).saturating_sub(2);
    // Wrapped where it needs more than a line; one line each, cut with "…", when the screen
    // is too short for that.
    let mut lines = body(d, w, true, theme);
    if lines.len() > room {
        lines = body(d, w, false, theme);
    }
    // Still too short: the end gives way, and says so.
    if lines.len() > room && room > 0 {
        let cut = lines.len() - room + 1;
        lines.truncate(room - 1);
        lines.push(Line::styled(
            t!("confirm-more-lines", count = cut),
            theme.style(Role::AlertInfo),
        ));
    }
    let content_w = lines.iter().map(Line::width).max().unwrap_or(0).max(40);
    let popup = centered(area, to_u16(content_w + 4), to_u16(lines.len() + 2));
    let key = theme.style(Role::HelpKey);
    let mut keys = vec![
        Span::styled(" Esc", key),
        Span::styled("/", dim),
        Span::styled("Enter", key),
        Span::styled(format!(" {} ", t!("help-closes")), dim),
    ];
    if is_offered(Intent::Cleanup, app) {
        keys.extend([
            Span::styled("· ", dim),
            Span::styled("D", key),
            Span::styled(format!(" {} ", t!("details-deletes")), dim),
        ]);
    }
    let block = Block::bordered()
        .border_style(theme.style(Role::DialogBorder))
        .title(Span::styled(
            format!(" {} ", d.title),
            theme.style(Role::Title),
        ))
        .title_bottom(Line::from(keys).alignment(Alignment::Right));
    super::text::clear_popup(popup, buf);
    Paragraph::new(lines)
        .block(block.padding(Padding::horizontal(1)))
        .render(popup, buf);
}

/// The overlay's lines: what others can read of its data first, the gravest first, in the
/// theme's critical and warning colours; then the rows.
fn body(d: &Details, w: usize, wrapped: bool, theme: &Theme) -> Vec<Line<'static>> {
    let dim = theme.style(Role::TextDim);
    let text = theme.style(Role::Text);
    let parts = |s: &str, max: usize| -> Vec<String> {
        if wrapped {
            wrap(s, max)
        } else {
            vec![truncate(s, max)]
        }
    };
    let mut lines: Vec<Line<'static>> = Vec::new();
    if d.gone {
        lines.push(Line::styled(
            t!("details-gone"),
            theme.style(Role::AlertWarn),
        ));
    }
    for f in &d.findings {
        let style = match f.severity {
            Severity::Critical => theme.style(Role::AlertError),
            Severity::Warning => theme.style(Role::AlertWarn),
        };
        let said = f.shown_said();
        for (i, part) in parts(&said, w).into_iter().enumerate() {
            let lead = if i == 0 { "" } else { "  " };
            lines.push(Line::styled(format!("{lead}{part}"), style));
        }
    }
    if !d.findings.is_empty() && wrapped {
        lines.push(Line::raw(""));
    }
    let label_w = d
        .rows
        .iter()
        .map(|(l, _)| width(&detail_label(l)))
        .max()
        .unwrap_or(0)
        + 2;
    let value_w = w.saturating_sub(label_w).max(8);
    for (label, value) in &d.rows {
        let style = match *label {
            "per month" if d.unpriced => theme.style(Role::AlertWarn),
            "on release" if d.survives => theme.style(Role::LeftoverWarning),
            "id" => theme.style(Role::Title),
            _ => text,
        };
        for (i, part) in parts(value, value_w).into_iter().enumerate() {
            let head = if i == 0 {
                detail_label(label)
            } else {
                "".into()
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{:label_w$}", Cell(head)), dim),
                Span::styled(part, style),
            ]));
        }
    }
    lines
}
