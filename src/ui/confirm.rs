//! The confirmation a destructive key opens: the target and its cost per hour, what will be
//! deleted, what survives with its monthly cost, and the choice, with "cancel" the default.
//! `y` confirms; the lists shorten when the screen is small, but the choice always shows.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget as _};

use super::text::{amount, centered, to_u16, truncate, width, wrap};
use super::theme::{Role, Theme};
use crate::app::{Choice, Confirm, ConfirmLine};
use crate::provider::Action;

/// The widest the dialog grows.
const MAX_WIDTH: usize = 76;

pub fn render_confirm(area: Rect, buf: &mut Buffer, c: &Confirm, theme: &Theme) {
    let w = usize::from(area.width).saturating_sub(4).min(MAX_WIDTH - 4);
    let dim = theme.style(Role::TextDim);
    let text = theme.style(Role::Text);
    let currency = c.currency.map(|c| format!(" {c}")).unwrap_or_default();
    let mut head = vec![
        Line::from(vec![
            Span::styled("target   ", dim),
            Span::styled(
                truncate(&c.target, w.saturating_sub(9)),
                theme.style(Role::Title),
            ),
        ]),
        Line::from(vec![
            Span::styled("costs    ", dim),
            match c.cost_per_hour {
                Some(m) => Span::styled(format!("{m}/h now"), text),
                None => Span::styled("unknown (no price sheet)", theme.style(Role::NA)),
            },
        ]),
    ];
    let mut note: Vec<Line<'static>> = wrap(&c.note, w)
        .into_iter()
        .map(|l| Line::styled(l, text))
        .collect();
    let buttons = buttons(c, theme);
    let keys = Line::from(vec![
        Span::styled("y", theme.style(Role::HelpKey)),
        Span::styled(" confirms · ", dim),
        Span::styled("Esc", theme.style(Role::HelpKey)),
        Span::styled("/", dim),
        Span::styled("n", theme.style(Role::HelpKey)),
        Span::styled(" cancels · ", dim),
        Span::styled("← →", theme.style(Role::HelpKey)),
        Span::styled(" choose", dim),
    ])
    .alignment(Alignment::Center);
    // Fixed lines: head, blank, note, blank, buttons, keys; the lists get what is left.
    let fixed = head.len() + 1 + note.len() + 1 + 2;
    let room = usize::from(area.height).saturating_sub(2 + fixed);
    let mut lists = lists(c, &currency, w, room, theme);
    let mut lines = Vec::new();
    lines.append(&mut head);
    lines.push(Line::raw(""));
    lines.append(&mut lists);
    lines.append(&mut note);
    fit_body(
        &mut lines,
        usize::from(area.height).saturating_sub(2 + 3),
        dim,
    );
    lines.push(Line::raw(""));
    lines.push(buttons);
    lines.push(keys);
    let content_w = lines.iter().map(Line::width).max().unwrap_or(0).max(40);
    let popup = centered(area, to_u16(content_w + 4), to_u16(lines.len() + 2));
    let block = Block::bordered()
        .border_style(theme.style(Role::DialogBorder))
        .title(Span::styled(
            format!(" {} ", c.title),
            theme.style(Role::DialogDanger),
        ));
    Clear.render(popup, buf);
    Paragraph::new(lines)
        .block(block.padding(ratatui::widgets::Padding::horizontal(1)))
        .render(popup, buf);
}

/// Cuts the body to `room` lines so the choice and its keys always show: blank lines go
/// first, then the end, with a line that says how much is not shown.
fn fit_body(lines: &mut Vec<Line<'static>>, room: usize, dim: Style) {
    if lines.len() <= room {
        return;
    }
    let mut first = true;
    lines.retain(|l| {
        let keep = first || l.width() > 0;
        first = false;
        keep
    });
    if lines.len() <= room {
        return;
    }
    let cut = lines.len() + 1 - room.max(1);
    lines.truncate(room.saturating_sub(1));
    lines.push(Line::styled(
        format!("… {cut} more lines: a taller terminal shows them"),
        dim,
    ));
}

fn buttons(c: &Confirm, theme: &Theme) -> Line<'static> {
    let chosen = theme.style(Role::Selected);
    let plain = theme.style(Role::Text);
    let (cancel, confirm) = match c.choice {
        Choice::Cancel => (chosen, plain),
        Choice::Confirm => (plain, theme.style(Role::DialogDanger)),
    };
    let verb = c.action.label();
    Line::from(vec![
        Span::styled("[ cancel ]", cancel),
        Span::raw("     "),
        Span::styled(format!("[ {verb} ]"), confirm),
    ])
    .alignment(Alignment::Center)
}

/// The "deleted" and "survives" lists in at most `room` lines: the longer list gives way
/// first, down to one item and "… and N more".
fn lists(c: &Confirm, currency: &str, w: usize, room: usize, theme: &Theme) -> Vec<Line<'static>> {
    let dim = theme.style(Role::TextDim);
    let warn = theme.style(Role::LeftoverWarning);
    let items = [c.deleted.as_slice(), c.survivors.as_slice()];
    // A list takes its title, its items, "… more" when cut, the survivors' total and a blank.
    let lines = |i: usize, shown: usize| {
        let n = items[i].len();
        if n == 0 {
            0
        } else {
            2 + shown + usize::from(shown < n) + i
        }
    };
    let mut shown = [items[0].len(), items[1].len()];
    while lines(0, shown[0]) + lines(1, shown[1]) > room {
        let i = usize::from(shown[1] > shown[0]);
        if shown[i] <= 1 {
            break;
        }
        shown[i] -= 1;
    }
    let mut out = Vec::new();
    let (kept, total_label) = match c.action {
        Action::Stop => ("keeps billing while stopped", "  total while stopped"),
        Action::Start => ("billing as before", "  total"),
        Action::SnapshotClean { .. } => ("kept, and keeps billing", "  total kept"),
        Action::Cleanup { .. } => ("stays, and keeps billing", "  total that stays"),
        Action::Release | Action::SetDeadline { .. } => {
            ("survives and keeps billing", "  total after release")
        }
    };
    for (i, title) in ["will be deleted", kept].iter().enumerate() {
        if items[i].is_empty() {
            continue;
        }
        let per_month = if i == 1 {
            "per month"
        } else {
            "saves per month"
        };
        out.push(Line::from(vec![
            Span::styled((*title).to_string(), dim),
            Span::raw(" ".repeat(w.saturating_sub(width(title) + width(per_month)))),
            Span::styled(per_month, dim),
        ]));
        let style = if i == 1 { theme.style(Role::Text) } else { dim };
        for item in &items[i][..shown[i]] {
            out.push(item_line(item, currency, w, style, theme));
        }
        if shown[i] < items[i].len() {
            out.push(Line::styled(
                format!("  … and {} more", items[i].len() - shown[i]),
                dim,
            ));
        }
        if i == 1 {
            let total = format!("{}{currency}", amount(c.survivors_monthly()));
            let label = total_label;
            out.push(Line::from(vec![
                Span::styled(label, warn),
                Span::raw(" ".repeat(w.saturating_sub(width(label) + width(&total)))),
                Span::styled(total, warn),
            ]));
        }
        out.push(Line::raw(""));
    }
    out
}

fn item_line(
    item: &ConfirmLine,
    currency: &str,
    w: usize,
    style: Style,
    theme: &Theme,
) -> Line<'static> {
    let (price, price_style) = match item.monthly {
        Some(m) => (format!("{}{currency}", amount(m)), style),
        None => ("no price".to_string(), theme.style(Role::AlertWarn)),
    };
    let label_w = w.saturating_sub(width(&price) + 3);
    let label = truncate(&item.label, label_w);
    Line::from(vec![
        Span::styled(format!("  {label}"), style),
        Span::raw(" ".repeat(w.saturating_sub(2 + width(&label) + width(&price)))),
        Span::styled(price, price_style),
    ])
}
