//! The guards where the user can see them: the idle line and the armed policies under the
//! countdown, and the full-width banner while a stop or release waits out its grace period.
//! Every number comes from the core (`app::guards`); this only lays out and colours it.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::paint;
use super::theme::{Role, Theme};
use crate::app::guards::{IdleStatus, armed, grace_banner, idle_status_of};
use crate::app::welcome::nothing_to_guard;
use crate::app::{App, Mode};
use crate::config::OnExpiry;
use crate::t;

/// How many lines [`guard_lines`] draws in a panel `wide` or not.
pub fn guard_line_count(app: &App, wide: bool) -> u16 {
    if nothing_to_guard(app) {
        return 1;
    }
    let Some(watch) = app.idle.as_ref() else {
        return 0;
    };
    match (wide, idle_status_of(app, watch)) {
        (true, _) => 2,
        (false, IdleStatus::Idle { .. }) => 1,
        (
            false,
            IdleStatus::Active { .. } | IdleStatus::Stopped { .. } | IdleStatus::WithoutGpus { .. },
        ) => 0,
    }
}

/// The idle line, and in a wide panel the armed policies; nothing when no idle rule is shown.
/// A narrow panel shows the idle line only while idle time accrues: otherwise its rows keep
/// the countdown's large digits.
pub fn guard_lines(app: &App, wide: bool, theme: &Theme) -> Vec<Line<'static>> {
    if nothing_to_guard(app) {
        return vec![how_to_guard(app, wide, theme)];
    }
    let Some(watch) = app.idle.as_ref() else {
        return Vec::new();
    };
    let tz = &app.spend.time_zone;
    let status = idle_status_of(app, watch);
    if !wide
        && matches!(
            status,
            IdleStatus::Active { .. } | IdleStatus::Stopped { .. } | IdleStatus::WithoutGpus { .. }
        )
    {
        return Vec::new();
    }
    let role = match status {
        IdleStatus::Active { .. } | IdleStatus::Stopped { .. } | IdleStatus::WithoutGpus { .. } => {
            Role::TextDim
        }
        IdleStatus::Idle {
            on_idle: OnExpiry::Alert,
            ..
        } => Role::AlertInfo,
        IdleStatus::Idle { .. } => Role::AlertWarn,
    };
    let align = if wide {
        Alignment::Center
    } else {
        Alignment::Left
    };
    let mut lines = vec![Line::styled(status.text(tz), theme.style(role)).alignment(align)];
    if wide {
        let summary = armed(app).summary(tz);
        lines.push(Line::styled(summary, theme.style(Role::TextDim)).alignment(align));
    }
    lines
}

/// With no provider there is nothing to guard, so no idle rule or policy is armed: the one
/// line says how to give the cockpit something to guard, or, under a deadline the user set
/// anyway, that nothing enforces it (the events say the whole of it, once).
fn how_to_guard(app: &App, wide: bool, theme: &Theme) -> Line<'static> {
    let dim = theme.style(Role::TextDim);
    let key = theme.style(Role::HelpKey);
    let mut spans = if app.deadline.is_some() {
        vec![Span::styled(
            t!("guards-not-enforced-no-provider"),
            theme.style(Role::AlertWarn),
        )]
    } else {
        vec![
            Span::styled("gpumeter init", key),
            Span::styled(format!(" {} ", t!("guards-or")), dim),
            Span::styled("--provider", key),
        ]
    };
    if wide {
        let more = if app.deadline.is_some() {
            " · gpumeter init".to_string()
        } else {
            format!(" {}", t!("guards-gives-it-one"))
        };
        spans.push(Span::styled(more, dim));
    }
    let align = if wide {
        Alignment::Center
    } else {
        Alignment::Left
    };
    Line::from(spans).alignment(align)
}

/// A full-width line over the top of the main screen while a stop or release is pending:
/// the alarm's colours, reversed and bold, so it reads without colour too.
pub fn render_grace_banner(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    if app.mode != Mode::Main || area.height == 0 {
        return;
    }
    let Some(banner) = grace_banner(app, app.now) else {
        return;
    };
    let style = theme
        .style(Role::AlertError)
        .add_modifier(Modifier::REVERSED | Modifier::BOLD);
    let row = Rect { height: 1, ..area }.intersection(buf.area);
    // The header's text under the banner goes: the whole row is the banner's.
    buf.set_string(row.x, row.y, " ".repeat(usize::from(row.width)), style);
    let line = Line::styled(banner.text(), style).alignment(Alignment::Center);
    paint::lines(row, buf, &[line]);
}
