//! The key hints along the bottom of a wide screen. The keys come from the key table, so a key
//! that changes, that `--read-only` removes, or that the instance's state has no use for,
//! changes here too.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::paint;
use super::text::{short_duration, width};
use super::theme::{Role, Theme};
use crate::app::{App, Intent, Key, offered};
use crate::t;

/// The hints shown, in order: the intents whose keys are listed (named by `words::hint`).
const HINTS: &[&[Intent]] = &[
    &[Intent::Help],
    &[Intent::FocusNext],
    &[Intent::Down, Intent::Up],
    &[Intent::Processes],
    &[Intent::Extend],
    &[Intent::ExtendPrompt],
    &[Intent::Release],
    &[Intent::Stop],
    &[Intent::SnapshotClean],
    &[Intent::Quit],
];

/// The key to show for an intent, when it applies now: its letter if it has one, else its
/// first key.
fn key_for(intent: Intent, app: &App) -> Option<String> {
    let b = offered(app).find(|b| b.intent == intent)?;
    let key = b
        .keys
        .iter()
        .find(|k| matches!(k, Key::Char(_)))
        .or(b.keys.first())?;
    Some(key.label())
}

pub fn render_footer(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    let max = usize::from(area.width);
    let mut spans = vec![Span::raw(" ")];
    let mut used = 1;
    for intents in HINTS {
        let keys: Vec<String> = intents.iter().filter_map(|c| key_for(*c, app)).collect();
        if keys.is_empty() {
            continue;
        }
        let label = if intents == &[Intent::Extend] {
            format!("+{}", short_duration(app.settings.extend_step))
        } else {
            super::words::hint(intents[0]).into_owned()
        };
        let keys = keys.join("/");
        let w = width(&keys) + 1 + width(&label) + 2;
        if used + w > max {
            break;
        }
        used += w;
        spans.push(Span::styled(keys, theme.style(Role::HelpKey)));
        spans.push(Span::styled(
            format!(" {label}  "),
            theme.style(Role::TextDim),
        ));
    }
    paint::line(area, buf, &Line::from(spans));
}

/// " ? help " at the right end of `row` (a bottom border on compact screens, which have no
/// footer), one column in from the corner, where the border is bare.
pub fn render_help_hint(row: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    let Some(key) = key_for(Intent::Help, app) else {
        return;
    };
    let spans = vec![
        Span::raw(" "),
        Span::styled(key.clone(), theme.style(Role::HelpKey)),
        Span::styled(format!(" {} ", t!("hint-help")), theme.style(Role::TextDim)),
    ];
    let w = super::text::to_u16(width(&key) + width(&t!("hint-help")) + 3);
    if row.width < w + 2 {
        return;
    }
    let area = Rect {
        x: row.x + row.width - w - 1,
        width: w,
        height: 1,
        ..row
    };
    let bare = (area.left()..area.right()).all(|x| buf[(x, area.y)].symbol() == "─");
    if bare {
        paint::line(area, buf, &Line::from(spans));
    }
}
