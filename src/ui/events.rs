//! The alerts and events log: the latest entries, newest at the bottom, styled by level (or
//! older ones, scrolled back with `k`, PgUp and `g`, the position in the title), and
//! the action in flight with a spinner and the time it has taken so far.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::paint;
use super::panel::Panel;
use super::text::{clock, short_duration, width, wrap};
use super::theme::{Role, Theme};
use crate::app::{App, Level};
use crate::t;

const SPINNER: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/// The action in flight as `⠹ release 3s`, turning once a second with the clock.
pub fn progress(app: &App) -> Option<String> {
    let (action, since) = app.cloud.running.as_ref()?;
    let elapsed = app.now.duration_since(*since);
    let turn = usize::try_from(elapsed.as_secs().max(0)).unwrap_or(0) % SPINNER.len();
    Some(format!(
        "{} {} {}",
        SPINNER[turn],
        super::words::verb(action),
        short_duration(elapsed)
    ))
}

fn look(level: Level) -> (&'static str, Role, Role) {
    match level {
        Level::Info => ("·", Role::AlertInfo, Role::Text),
        Level::Warn => ("!", Role::AlertWarn, Role::AlertWarn),
        Level::Error => ("✗", Role::ActionFailed, Role::ActionFailed),
        Level::Done => ("✓", Role::ActionOk, Role::ActionOk),
    }
}

pub fn render_events(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, focused: bool) {
    let mut panel = Panel::new(theme.border(focused)).title(Span::styled(
        format!(" {} ", t!("panel-events")),
        theme.style(Role::Title),
    ));
    // Scrolled back: which entry is the newest shown, of how many (the newest is the last).
    let total = app.events.len();
    let skip = app.events_scroll.min(total.saturating_sub(1));
    if skip > 0 {
        panel = panel.title(
            Line::from(vec![
                Span::styled(
                    format!(" {}/{total} ", total - skip),
                    theme.style(Role::TextDim),
                ),
                Span::styled("G", theme.style(Role::HelpKey)),
                Span::styled(
                    format!(" {} ", t!("events-newest")),
                    theme.style(Role::TextDim),
                ),
            ])
            .alignment(ratatui::layout::Alignment::Right),
        );
    }
    let inner = panel.inner(area);
    panel.render(area, buf);
    let (w, h) = (usize::from(inner.width), usize::from(inner.height));
    if w == 0 || h == 0 {
        return;
    }
    let mut tail: Vec<Line<'static>> = Vec::new();
    if let Some(p) = progress(app) {
        let text = format!(
            "{p} · {}",
            t!("events-waiting-for", provider = app.cloud.provider.clone())
        );
        tail.extend(
            wrap(&text, w)
                .into_iter()
                .map(|l| Line::styled(l, theme.style(Role::AlertWarn))),
        );
        tail.truncate(h);
    }
    let room = h.saturating_sub(tail.len());
    let seconds = w >= 50;
    let mut lines: Vec<Line<'static>> = Vec::new();
    for entry in app.events.iter().rev().skip(skip) {
        if lines.len() >= room {
            break;
        }
        let (marker, marker_role, text_role) = look(entry.level);
        let mut time = clock(entry.at, &app.spend.time_zone);
        if !seconds {
            time.truncate(5);
        }
        let prefix = format!("{time} {marker} ");
        let indent = width(&prefix);
        let wrapped = wrap(&entry.text, w.saturating_sub(indent).max(8));
        let mut entry_lines: Vec<Line<'static>> = wrapped
            .into_iter()
            .enumerate()
            .map(|(i, part)| {
                let lead = if i == 0 {
                    vec![
                        Span::styled(time.clone(), theme.style(Role::TextDim)),
                        Span::raw(" "),
                        Span::styled(marker, theme.style(marker_role)),
                        Span::raw(" "),
                    ]
                } else {
                    vec![Span::raw(" ".repeat(indent))]
                };
                let mut spans = lead;
                spans.push(Span::styled(part, theme.style(text_role)));
                Line::from(spans)
            })
            .collect();
        // Keep the start of an entry that does not fit whole, at the top of the panel.
        let keep = room - lines.len();
        entry_lines.truncate(keep.max(1));
        entry_lines.extend(lines);
        lines = entry_lines;
    }
    if lines.is_empty() && tail.is_empty() {
        lines.push(Line::styled(
            t!("events-nothing-yet"),
            theme.style(Role::TextDim),
        ));
    }
    lines.extend(tail);
    paint::lines(inner, buf, &lines);
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use ratatui::buffer::Buffer;

    use crate::app::{App, Event, update};
    use crate::demo::demo_app;
    use crate::provider::{Action, ProviderError};

    fn draw(app: &App, width: u16, height: u16) -> Buffer {
        crate::ui::drawn(app, width, height).buffer().clone()
    }

    /// The words inside the Events panel, in reading order.
    fn events_panel(buf: &Buffer) -> String {
        let area = buf.area;
        let row = |y: u16| -> String { (0..area.width).map(|x| buf[(x, y)].symbol()).collect() };
        let top = (0..area.height)
            .find(|&y| row(y).contains("┌ Events "))
            .expect("an Events panel");
        let line = row(top);
        let start = line.find("┌ Events ").unwrap();
        let left = u16::try_from(line[..start].chars().count()).unwrap();
        let right = (left + 1..area.width)
            .find(|&x| buf[(x, top)].symbol() == "┐")
            .unwrap();
        let mut words = Vec::new();
        for y in top + 1..area.height {
            if buf[(left, y)].symbol() == "└" {
                break;
            }
            let inner: String = (left + 1..right).map(|x| buf[(x, y)].symbol()).collect();
            words.extend(inner.split_whitespace().map(str::to_string));
        }
        words.join(" ")
    }

    #[test]
    fn a_failed_action_says_its_kind_and_what_to_fix() {
        let mut app = demo_app(Duration::from_secs(200 * 60));
        let denied = ProviderError::permission("aws", Some("ec2:TerminateInstances"))
            .with_call("ec2 TerminateInstances")
            .with_code("UnauthorizedOperation")
            .with_message("You are not authorized to perform this operation.");
        update(
            &mut app,
            Event::ActionDone {
                action: Action::Release,
                result: Err(denied),
            },
        );
        let wide = events_panel(&draw(&app, 160, 48));
        assert!(
            wide.contains("✗ release failed (permission): the key lacks ec2:TerminateInstances;"),
            "{wide}"
        );
        // What to fix comes first: an entry too tall for a small panel keeps its start (a word
        // longer than the panel's width is cut across lines).
        let narrow = events_panel(&draw(&app, 80, 24)).replace(' ', "");
        assert!(
            narrow.contains("releasefailed(permission):thekeylacksec2:TerminateInstances;"),
            "{narrow}"
        );
    }

    #[test]
    fn a_refused_key_on_an_action_names_the_variable() {
        let mut app = demo_app(Duration::from_secs(200 * 60));
        let refused = ProviderError::refused("runpod", "the API key", &["RUNPOD_API_KEY"])
            .with_call("POST /v2/pods/p/stop")
            .with_code("HTTP 401");
        update(
            &mut app,
            Event::ActionDone {
                action: Action::Stop,
                result: Err(refused),
            },
        );
        let said = events_panel(&draw(&app, 160, 48));
        assert!(
            said.contains(
                "✗ stop failed (auth): check RUNPOD_API_KEY; RunPod refused the API key."
            ),
            "{said}"
        );
    }
    #[test]
    fn a_failed_action_is_said_in_the_users_language() {
        use crate::i18n::{Lang, scoped};
        let mut app = demo_app(Duration::from_secs(200 * 60));
        let denied = ProviderError::permission("aws", Some("ec2:TerminateInstances"))
            .with_call("ec2 TerminateInstances")
            .with_code("UnauthorizedOperation");
        // The entry is written in the language of the moment it happened.
        scoped(Lang::ZhCn, || {
            update(
                &mut app,
                Event::ActionDone {
                    action: Action::Release,
                    result: Err(denied),
                },
            );
        });
        // A wide character takes two cells: the panel's words are read without spaces.
        let said = events_panel(&draw(&app, 160, 48)).replace(' ', "");
        assert!(
            said.contains("密钥缺少ec2:TerminateInstances权限"),
            "{said}"
        );
        assert!(!said.contains("thekeylacks"), "{said}");
    }
}
