//! The question a cockpit asks when it starts and finds another deadline in the shared guard
//! row than its flags ask for: what the row holds (and who set it), what this cockpit asks
//! for, and the choice, with "keep" the default.

use jiff::Timestamp;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Padding, Paragraph, Widget as _};

use super::text::{centered, local_time, to_u16, wrap};
use super::theme::{Role, Theme};
use crate::app::{App, Choice, GuardChoice};
use crate::config::OnExpiry;
use crate::t;
use gpumeter_core::cell::Cell;

pub fn render_guard_choice(
    area: Rect,
    buf: &mut Buffer,
    app: &App,
    c: &GuardChoice,
    theme: &Theme,
) {
    let dim = theme.style(Role::TextDim);
    let text = theme.style(Role::Text);
    let w = usize::from(area.width).saturating_sub(6).min(68);
    let policy = |(at, on_expiry): (Timestamp, OnExpiry)| {
        t!(
            "guard-choice-policy",
            at = local_time(at, app.now, &app.spend.time_zone),
            action = super::words::on_expiry(on_expiry, false),
        )
    };
    let mut lines = vec![
        Line::from(vec![
            Span::styled(format!("{:<9}", Cell(t!("guard-choice-instance"))), dim),
            Span::styled(c.instance.clone(), theme.style(Role::Title)),
        ]),
        Line::from(vec![
            Span::styled(format!("{:<9}", Cell(t!("guard-choice-shared"))), dim),
            Span::styled(policy(c.existing), text),
        ]),
        Line::styled(
            format!(
                "         {}",
                t!(
                    "guard-choice-set-by",
                    who = c.set_by.as_str(),
                    at = local_time(c.set_at, app.now, &app.spend.time_zone)
                )
            ),
            dim,
        ),
        Line::from(vec![
            Span::styled(format!("{:<9}", Cell(t!("guard-choice-asked"))), dim),
            Span::styled(policy(c.wanted), text),
        ]),
        Line::raw(""),
    ];
    let note = t!("guard-choice-note");
    lines.extend(wrap(&note, w).into_iter().map(|l| Line::styled(l, text)));
    lines.push(Line::raw(""));
    let chosen = theme.style(Role::Selected);
    let (keep, replace) = match c.choice {
        Choice::Cancel => (chosen, text),
        Choice::Confirm => (text, theme.style(Role::DialogDanger)),
    };
    lines.push(
        Line::from(vec![
            Span::styled(format!("[ {} ]", t!("guard-choice-keep")), keep),
            Span::raw("     "),
            Span::styled(format!("[ {} ]", t!("guard-choice-replace")), replace),
        ])
        .alignment(Alignment::Center),
    );
    let key = theme.style(Role::HelpKey);
    lines.push(
        Line::from(vec![
            Span::styled("y", key),
            Span::styled(format!(" {} · ", t!("guard-choice-replaces")), dim),
            Span::styled("Esc", key),
            Span::styled("/", dim),
            Span::styled("n", key),
            Span::styled(format!(" {} · ", t!("guard-choice-keeps")), dim),
            Span::styled("← →", key),
            Span::styled(format!(" {}", t!("confirm-choose")), dim),
        ])
        .alignment(Alignment::Center),
    );
    let content_w = lines.iter().map(Line::width).max().unwrap_or(0).max(40);
    let popup = centered(area, to_u16(content_w + 4), to_u16(lines.len() + 2));
    let block = Block::bordered()
        .border_style(theme.style(Role::DialogBorder))
        .title(Span::styled(
            format!(" {} ", t!("guard-choice-title")),
            theme.style(Role::DialogDanger),
        ));
    super::text::clear_popup(popup, buf);
    Paragraph::new(lines)
        .block(block.padding(Padding::horizontal(1)))
        .render(popup, buf);
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use jiff::SignedDuration;

    use crate::app::{Choice, GuardChoice, Mode};
    use crate::config::OnExpiry;
    use crate::demo::demo_app;

    fn screen(choice: Choice, width: u16, height: u16) -> String {
        let mut app = demo_app(Duration::from_secs(3600));
        let now = app.now;
        app.mode = Mode::GuardChoice(GuardChoice {
            instance: "i-0demo4a100f00d".into(),
            existing: (now + SignedDuration::from_hours(8), OnExpiry::Alert),
            set_by: "cockpit 4242".into(),
            set_at: now - SignedDuration::from_mins(5),
            wanted: (now + SignedDuration::from_secs(30), OnExpiry::Release),
            choice,
        });
        let drawn = crate::ui::drawn(&app, width, height);
        let buf = drawn.buffer();
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn the_question_shows_both_deadlines_who_set_the_shared_one_and_the_choice() {
        for (width, height) in [(120, 40), (60, 16)] {
            let text = screen(Choice::Cancel, width, height);
            for said in [
                "another deadline is already set",
                "then alert only",
                "then release",
                "cockpit 4242",
                "[ keep shared ]",
                "[ replace ]",
            ] {
                assert!(text.contains(said), "{width}×{height}: {said}\n{text}");
            }
        }
    }
}
