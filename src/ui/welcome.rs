//! The welcome, in the linked resources' place while no provider is configured or detected:
//! what works now, and the commands that get the rest. It is said once, here; the other panels
//! only say plainly what they lack.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::paint;
use super::panel::Panel;
use super::text::{to_u16, truncate, width, wrap};
use super::theme::{Role, Theme};
use crate::app::App;
use crate::t;

/// The commands to try, and what each gives; each fits the 44 columns the panel has at 80×24.
fn commands() -> [(&'static str, Cow<'static, str>); 3] {
    [
        ("gpumeter --demo", t!("welcome-demo")),
        ("gpumeter doctor", t!("welcome-doctor")),
        ("gpumeter init", t!("welcome-init")),
    ]
}

/// Between a command and what it gives.
const GAP: usize = 2;

/// What the welcome says before the commands, and how it is styled: what is missing, and
/// what works now.
fn prose(app: &App) -> [(Cow<'static, str>, Role); 2] {
    let no_gpu = match &app.telemetry.gpus {
        Some(Ok(r)) => r.gpus.is_empty(),
        Some(Err(_)) => true,
        None => false,
    };
    // The GPU panel already says why there is no GPU: only the host reads here.
    let works = if no_gpu {
        t!("welcome-host-works")
    } else {
        t!("welcome-gpu-works")
    };
    [
        (t!("welcome-no-provider"), Role::Text),
        (works, Role::TextDim),
    ]
}

/// The welcome's lines for a panel `w` columns wide inside: the prose wrapped, and each
/// command with what it gives where both fit, the command alone where they do not.
pub fn welcome_lines(app: &App, w: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = prose(app)
        .into_iter()
        .flat_map(|(text, role)| {
            wrap(&text, w)
                .into_iter()
                .map(move |l| Line::styled(l, theme.style(role)))
        })
        .collect();
    let commands = commands();
    let column = commands.iter().map(|(c, _)| width(c)).max().unwrap_or(0) + GAP;
    for (command, gives) in commands {
        let mut spans = vec![Span::styled(
            truncate(command, w),
            theme.style(Role::HelpKey),
        )];
        if column + width(&gives) <= w {
            spans.push(Span::styled(
                format!("{:pad$}{gives}", "", pad = column - width(command)),
                theme.style(Role::TextDim),
            ));
        }
        lines.push(Line::from(spans));
    }
    lines
}

/// The rows the welcome panel takes, borders included, in an area `area_width` wide.
pub fn welcome_height(app: &App, area_width: u16) -> u16 {
    let inner = usize::from(area_width.saturating_sub(4));
    let prose: usize = prose(app)
        .iter()
        .map(|(text, _)| wrap(text, inner).len())
        .sum();
    to_u16(prose + commands().len()) + 2
}

pub fn render_welcome(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, focused: bool) {
    let panel = Panel::new(theme.border(focused)).title(Span::styled(
        format!(" {} ", t!("panel-welcome")),
        theme.style(Role::Title),
    ));
    let inner = panel.inner(area);
    panel.render(area, buf);
    let lines = welcome_lines(app, usize::from(inner.width), theme);
    paint::lines(inner, buf, &lines);
}
