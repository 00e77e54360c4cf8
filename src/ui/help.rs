//! The help overlay, generated from the key table so the two cannot drift. Under
//! `--read-only` the keys that write are not listed, nor those the instance's state has no
//! use for (no release after a release), because they do nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget as _};

use super::text::{centered, to_u16, width};
use super::theme::{Role, Theme};
use crate::app::{App, Binding, Key, offered};
use crate::t;

fn keys_label(b: &Binding) -> String {
    b.keys
        .iter()
        .map(|k| k.label())
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn render_help(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    let read_only = app.settings.read_only;
    let rows: Vec<&Binding> = offered(app).collect();
    let key_w = rows
        .iter()
        .map(|b| width(&keys_label(b)))
        .max()
        .unwrap_or(0);
    let mut lines: Vec<Line<'static>> = rows
        .iter()
        .map(|b| {
            let mut spans = vec![
                Span::styled(
                    format!(" {:key_w$}  ", keys_label(b)),
                    theme.style(Role::HelpKey),
                ),
                Span::styled(super::words::describe(b), theme.style(Role::Text)),
            ];
            if b.destructive {
                spans.push(Span::styled(
                    format!(" {}", t!("help-asks-first")),
                    theme.style(Role::TextDim),
                ));
            }
            Line::from(spans)
        })
        .collect();
    lines.push(Line::raw(""));
    if read_only {
        lines.push(Line::styled(
            format!(" {}", t!("help-read-only")),
            theme.style(Role::AlertInfo),
        ));
    } else {
        lines.push(Line::styled(
            format!(" {}", t!("help-capitals", confirm = Key::Char('y').label())),
            theme.style(Role::TextDim),
        ));
    }
    // Too short for every key: the closing note goes first, then say how many keys are not
    // shown rather than drop them silently.
    let room = usize::from(area.height).saturating_sub(2);
    if lines.len() > room && rows.len() <= room {
        lines.truncate(rows.len());
    }
    if lines.len() > room && room > 0 {
        let cut = lines.len() - room + 1;
        lines.truncate(room - 1);
        lines.push(Line::styled(
            format!(" {}", t!("help-more", count = cut)),
            theme.style(Role::AlertInfo),
        ));
    }
    let content_w = lines.iter().map(Line::width).max().unwrap_or(0) + 2;
    let popup = centered(area, to_u16(content_w + 2), to_u16(lines.len() + 2));
    let block = Block::bordered()
        .border_style(theme.style(Role::DialogBorder))
        .title(Span::styled(
            format!(" {} ", t!("help-title")),
            theme.style(Role::Title),
        ))
        .title_bottom(
            Line::from(vec![
                Span::styled(" Esc", theme.style(Role::HelpKey)),
                Span::styled(format!(" {} ", t!("help-or")), theme.style(Role::TextDim)),
                Span::styled("?", theme.style(Role::HelpKey)),
                Span::styled(
                    format!(" {} ", t!("help-closes")),
                    theme.style(Role::TextDim),
                ),
            ])
            .alignment(Alignment::Right),
        );
    super::text::clear_popup(popup, buf);
    Paragraph::new(lines).block(block).render(popup, buf);
}
