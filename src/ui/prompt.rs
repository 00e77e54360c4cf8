//! The prompt `E` opens: type how long to extend the deadline by (Ctrl-U clears, Ctrl-W
//! deletes a word); more than a day is asked once more, with the date it moves to.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Padding, Paragraph, Widget as _};

use super::text::{centered, local_time, to_u16, truncate, width, wrap};
use super::theme::{Role, Theme};
use crate::app::App;
use crate::t;

const WIDTH: u16 = 52;

pub fn render_prompt(
    area: Rect,
    buf: &mut Buffer,
    app: &App,
    input: &str,
    (error, asking): (Option<&str>, Option<jiff::SignedDuration>),
    theme: &Theme,
) -> Option<Position> {
    let inner_w = usize::from(WIDTH.min(area.width).saturating_sub(4));
    let dim = theme.style(Role::TextDim);
    let now = match &app.deadline {
        Some(d) => t!(
            "prompt-deadline-now",
            at = local_time(d.at, app.now, &app.spend.time_zone)
        ),
        None => t!("prompt-no-deadline").into_owned(),
    };
    let shown = truncate(input, inner_w.saturating_sub(3));
    let mut lines = vec![
        Line::styled(t!("prompt-how-long"), theme.style(Role::Text)),
        Line::styled(now, dim),
        Line::raw(""),
        Line::from(vec![
            Span::styled("> ", theme.style(Role::HelpKey)),
            Span::styled(shown.clone(), theme.style(Role::Text)),
        ]),
    ];
    if let Some(by) = asking {
        lines.push(Line::styled(
            crate::app::extend_question(app, by),
            theme.style(Role::AlertWarn),
        ));
    } else {
        lines.push(Line::styled(t!("prompt-editing"), dim));
    }
    if let Some(e) = error {
        lines.extend(
            wrap(e, inner_w)
                .into_iter()
                .map(|l| Line::styled(l, theme.style(Role::AlertError))),
        );
    }
    let lines: Vec<Line<'static>> = lines
        .into_iter()
        .flat_map(|l| {
            if l.width() > inner_w {
                let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
                let style = l.spans.first().map(|s| s.style).unwrap_or_default();
                wrap(&text, inner_w)
                    .into_iter()
                    .map(|w| Line::styled(w, style))
                    .collect()
            } else {
                vec![l]
            }
        })
        .collect();
    let input_row = lines
        .iter()
        .position(|l| l.spans.first().is_some_and(|s| s.content == "> "))
        .unwrap_or(0);
    let popup = centered(area, WIDTH, to_u16(lines.len() + 2));
    let block = Block::bordered()
        .border_style(theme.style(Role::DialogBorder))
        .padding(Padding::horizontal(1))
        .title(Span::styled(
            format!(" {} ", t!("prompt-title")),
            theme.style(Role::Title),
        ))
        .title_bottom(
            Line::from(if asking.is_some() {
                vec![
                    Span::styled(" y", theme.style(Role::HelpKey)),
                    Span::styled(format!(" {} ", t!("prompt-extends-or-edit")), dim),
                ]
            } else {
                vec![
                    Span::styled(" Enter", theme.style(Role::HelpKey)),
                    Span::styled(format!(" {} · ", t!("prompt-extends")), dim),
                    Span::styled("Esc", theme.style(Role::HelpKey)),
                    Span::styled(format!(" {} ", t!("prompt-cancels")), dim),
                ]
            })
            .alignment(Alignment::Right),
        );
    let inner = block.inner(popup);
    super::text::clear_popup(popup, buf);
    Paragraph::new(lines).block(block).render(popup, buf);
    let cursor = Position {
        x: inner.x + to_u16(2 + width(&shown)).min(inner.width.saturating_sub(1)),
        y: inner.y + to_u16(input_row).min(inner.height.saturating_sub(1)),
    };
    (inner.width > 0 && inner.height > 0).then_some(cursor)
}
