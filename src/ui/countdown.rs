//! The release countdown: time left in large digits, the deadline as a local clock time, what
//! happens at zero and who holds the deadline. Its colour warns under 30, 10 and 1 minutes.

use jiff::SignedDuration;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget as _};

use super::bigdigits::{self, Size};
use super::paint;
use super::panel::Panel;
use super::text::{local_time, local_time_named, short_duration, to_u16};
use super::theme::{Role, Theme};
use crate::app::{App, Deadline, format_remaining};
use crate::config::OnExpiry;
use crate::meter::InstanceState;
use crate::t;
use gpumeter_core::cloud::{ReleasedBy, StoppedPolicy, last_shutdown, release_countdown};

/// The countdown's style for `left`: calm, warning under 30 minutes, urgent under 10, and
/// urgent and reversed in the last minute and once overdue.
pub fn countdown_style(left: SignedDuration, theme: &Theme) -> Style {
    let minutes = |m: i64| SignedDuration::from_mins(m);
    if left <= minutes(1) {
        theme
            .style(Role::CountdownUrgent)
            .add_modifier(Modifier::REVERSED)
    } else if left <= minutes(10) {
        theme.style(Role::CountdownUrgent)
    } else if left <= minutes(30) {
        theme.style(Role::CountdownWarn)
    } else {
        theme.style(Role::Countdown)
    }
}

pub fn render_countdown(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    let step = short_duration(app.settings.extend_step);
    let mut panel = Panel::new(theme.border(false)).title(Span::styled(
        format!(" {} ", t!("panel-release")),
        theme.style(Role::Title),
    ));
    // The hint only where `e` would do something: not after a release, not read-only.
    if crate::app::is_offered(crate::app::Intent::Extend, app) {
        panel = panel.title(
            Line::from(vec![
                Span::styled(" e", theme.style(Role::HelpKey)),
                Span::styled(format!(" +{step} "), theme.style(Role::TextDim)),
            ])
            .alignment(Alignment::Right),
        );
    }
    let released = released_at(app);
    // Narrow panels keep only what matters: who enforces the deadline.
    let wide = area.width >= 44;
    if let (Some(d), None) = (&app.deadline, released)
        && (wide || d.held_by_provider)
    {
        panel = panel.title_bottom(held_title(d, wide, theme));
    }
    if released.is_none() {
        panel = panel.title_bottom(watchdog_title(app, wide, theme).alignment(Alignment::Right));
    }
    let inner = panel.inner(area);
    panel.render(area, buf);
    if let Some(at) = released {
        let when = local_time(at, app.now, &app.spend.time_zone);
        let lines = vec![
            Line::styled(
                t!("countdown-released-at", at = when),
                theme.style(Role::ActionOk),
            ),
            Line::styled(t!("countdown-nothing-left"), theme.style(Role::TextDim)),
        ];
        Paragraph::new(lines)
            .wrap(ratatui::widgets::Wrap { trim: true })
            .render(inner, buf);
        return;
    }
    let guards = super::guards::guard_lines(app, wide, theme);
    let Some(deadline) = app.deadline.as_ref() else {
        let line = forced_release_line(app, theme).unwrap_or_else(|| no_deadline_hint(app, theme));
        let hint_h = inner.height.saturating_sub(to_u16(guards.len()));
        Paragraph::new(line)
            .wrap(ratatui::widgets::Wrap { trim: true })
            .render(
                Rect {
                    height: hint_h,
                    ..inner
                },
                buf,
            );
        let below = Rect {
            y: inner.y + hint_h,
            height: inner.height - hint_h,
            ..inner
        };
        paint::lines(below, buf, &guards);
        return;
    };
    let left = deadline.remaining(app.now);
    let style = countdown_style(left, theme);
    let (mut info, why) = info_lines(app, deadline, usize::from(inner.width), theme);
    let clock = format_remaining(left);
    let fits = |size: Size, rows: usize, below: usize| {
        usize::from(inner.height).saturating_sub(below) >= rows
            && bigdigits::width(&clock, size).is_some_and(|w| w <= usize::from(inner.width))
    };
    // Why nothing enforces the deadline outranks the digits' size: smaller digits with the
    // reason first, and only where no digits fit with it, the digits without it.
    let without = info.len() + guards.len();
    let with_why = without + why.len();
    let tries = [(Size::Large, 5, true), (Size::Small, 3, true)]
        .into_iter()
        .chain([(Size::Large, 5, false), (Size::Small, 3, false)]);
    let chosen = tries
        .into_iter()
        .find(|&(size, rows, keep)| fits(size, rows, if keep { with_why } else { without }));
    if chosen.is_none_or(|(_, _, keep)| keep) {
        info.extend(why);
    }
    info.extend(guards);
    let size = chosen.map(|(size, _, _)| size);
    let mut lines: Vec<Line<'static>> =
        if let Some(rows) = size.and_then(|s| bigdigits::render(&clock, s)) {
            rows.into_iter()
                .map(|r| Line::styled(r, style).alignment(Alignment::Center))
                .collect()
        } else {
            vec![Line::styled(clock, style.add_modifier(Modifier::BOLD))]
        };
    // Spare rows go above the digits, so the block sits in the middle.
    let spare = usize::from(inner.height).saturating_sub(lines.len() + info.len());
    let mut padded = vec![Line::raw(""); spare / 2];
    padded.append(&mut lines);
    padded.extend(info);
    let text_area = Rect {
        height: inner.height.min(to_u16(padded.len())),
        ..inner
    };
    paint::lines(text_area, buf, &padded);
}

/// The rows the panel's text needs beside its guard lines where no deadline counts down, at
/// `width` columns inside: the release a stopped instance is heading for wraps over several.
pub fn hint_rows(app: &App, width: u16) -> u16 {
    if app.deadline.is_some() {
        return 0;
    }
    let Some(text) = release_text(app) else {
        return 1;
    };
    let width = usize::from(width.max(1));
    // Word wrapping can leave a row's end short: one row more than the characters need.
    to_u16(Line::raw(text).width().div_ceil(width) + 1)
}

/// In place of the deadline's hint, for a stopped instance something will release: the
/// platform on its own (AutoDL, 15 days shut down) or `stopped_release_after`, whichever comes
/// first; when, what it erases, and that a start resets it.
fn forced_release_line(app: &App, theme: &Theme) -> Option<Line<'static>> {
    Some(Line::styled(
        release_text(app)?,
        theme.style(Role::AlertWarn),
    ))
}

fn release_text(app: &App) -> Option<String> {
    let inventory = app.cloud.inventory.as_ref()?;
    let instance = inventory.instance.as_ref()?;
    let policy = StoppedPolicy {
        sheet_days: app
            .spend
            .pricing
            .as_ref()
            .and_then(|p| p.sheet.billing.released_after_stopped_days),
        // Until the watchdog's sighting is known, the cockpit's own (a read apart at most).
        seen: app
            .stopped_release
            .seen
            .or_else(|| last_shutdown(&instance.history)),
        ..app.stopped_release
    };
    let countdown = release_countdown(inventory, policy, app.now)?;
    let left = short_duration(
        countdown
            .instant
            .duration_since(app.now)
            .max(SignedDuration::ZERO),
    );
    let after = SignedDuration::from_secs(countdown.after_s);
    let text = match countdown.by {
        ReleasedBy::Platform => t!(
            "countdown-forced-release",
            provider = instance.provider.as_str(),
            left = left,
            days = after.as_hours() / 24
        ),
        ReleasedBy::Policy if countdown.final_snapshot_first => t!(
            "sr-countdown-snapshot",
            left = left,
            after = short_duration(after),
            erases = countdown.erases.join(", ")
        ),
        ReleasedBy::Policy => t!(
            "sr-countdown",
            left = left,
            after = short_duration(after),
            erases = countdown.erases.join(", ")
        ),
    };
    Some(text)
}

/// In place of the countdown: how to set a deadline, or with no provider, that there is
/// nothing to guard yet.
fn no_deadline_hint(app: &App, theme: &Theme) -> Line<'static> {
    if crate::app::welcome::nothing_to_guard(app) {
        return Line::styled(t!("countdown-nothing-to-guard"), theme.style(Role::TextDim));
    }
    Line::from(vec![
        Span::styled(
            format!("{} ", t!("countdown-no-deadline-press")),
            theme.style(Role::TextDim),
        ),
        Span::styled("e", theme.style(Role::HelpKey)),
        Span::styled(
            format!(" {}", t!("countdown-to-set-one")),
            theme.style(Role::TextDim),
        ),
    ])
}

/// The deadline and what happens at zero; then, apart, why nothing enforces it and the fix,
/// lines the countdown drops before it gives up its large digits.
fn info_lines(
    app: &App,
    d: &Deadline,
    w: usize,
    theme: &Theme,
) -> (Vec<Line<'static>>, Vec<Line<'static>>) {
    let dim = theme.style(Role::TextDim);
    let wide = w >= 40;
    let tz = &app.spend.time_zone;
    // The zone named where it fits: `18:30 CST (Asia/Shanghai)`, else `18:30 CST`.
    let named = local_time_named(d.at, app.now, tz);
    let label = format!("{} ", t!("countdown-deadline"));
    let at = if super::text::width(&label) + super::text::width(&named) <= w {
        named
    } else {
        local_time(d.at, app.now, tz)
    };
    let what = super::words::on_expiry(d.on_expiry, wide);
    let role = match d.on_expiry {
        OnExpiry::Alert => Role::Text,
        OnExpiry::Stop | OnExpiry::Release => Role::AlertWarn,
    };
    let align = if wide {
        Alignment::Center
    } else {
        Alignment::Left
    };
    // A stop or release is shown armed only while something that outlives the cockpit holds
    // it; an alert the open cockpit gives itself.
    let enforcement = crate::app::enforced::deadline_enforcement(app);
    let unenforced = d.on_expiry != OnExpiry::Alert && !enforcement.is_enforced();
    let warn = theme.style(Role::AlertWarn);
    let mut at_zero = vec![
        if d.remaining(app.now) <= SignedDuration::ZERO {
            Span::styled(
                format!("{} ", t!("countdown-overdue")),
                theme.style(Role::CountdownUrgent),
            )
        } else {
            Span::styled(format!("{} ", t!("countdown-at-zero")), dim)
        },
        Span::styled(what, theme.style(role)),
    ];
    // With no provider the guard line under these already says it is not enforced and why.
    let say_why = unenforced && !crate::app::welcome::nothing_to_guard(app);
    if say_why {
        at_zero.push(Span::styled(
            format!(" {}", t!("countdown-not-enforced")),
            warn,
        ));
    }
    let mut why = Vec::new();
    if let (true, crate::guard::Enforcement::Nothing { cause, .. }) = (say_why, &enforcement) {
        let (reason, fix) = cause.said();
        why.push(Line::styled(super::text::truncate(&reason, w), warn).alignment(align));
        if wide {
            why.push(Line::styled(super::text::truncate(&fix, w), dim).alignment(align));
        }
    }
    let lines = vec![
        Line::from(vec![
            Span::styled(label, dim),
            Span::styled(at, theme.style(Role::Text)),
        ])
        .alignment(align),
        Line::from(at_zero).alignment(align),
    ];
    (lines, why)
}

/// Who holds the deadline, for the bottom border: the provider (it fires even if this machine
/// is gone) or only this side.
fn held_title(d: &Deadline, wide: bool, theme: &Theme) -> Line<'static> {
    match (d.held_by_provider, wide) {
        (true, true) => Line::styled(
            format!(" {} ", t!("countdown-held-by-provider")),
            theme.style(Role::ActionOk),
        ),
        (true, false) => Line::styled(
            format!(" {} ", t!("countdown-held-provider")),
            theme.style(Role::ActionOk),
        ),
        (false, _) => Line::styled(
            format!(" {} ", t!("countdown-not-held")),
            theme.style(Role::TextDim),
        ),
    }
}

/// Whether the watchdog that enforces the deadline (and the idle rule) is alive.
fn watchdog_title(app: &App, wide: bool, theme: &Theme) -> Line<'static> {
    let supervisor = app.guard.supervisor.as_ref();
    if supervisor.is_some_and(|s| s.down().is_some()) {
        return Line::styled(
            format!(" {} ", t!("watchdog-down")),
            theme.style(Role::AlertError),
        );
    }
    if supervisor.is_some_and(crate::guard::Supervisor::restarting) {
        return Line::styled(
            format!(" {} ", t!("watchdog-restarting")),
            theme.style(Role::AlertWarn),
        );
    }
    match app.guard.watchdog {
        Some(w) if w.alive && wide => {
            let ago = (app.now.as_second() - w.last_check.as_second()).max(0);
            Line::styled(
                format!(" {} ", t!("watchdog-checked-ago", seconds = ago)),
                theme.style(Role::ActionOk),
            )
        }
        Some(w) if w.alive => Line::styled(
            format!(" {} ", t!("watchdog-alive")),
            theme.style(Role::ActionOk),
        ),
        Some(_) => Line::styled(
            format!(" {} ", t!("watchdog-silent")),
            theme.style(Role::AlertWarn),
        ),
        None => Line::styled(
            format!(" {} ", t!("watchdog-none")),
            theme.style(Role::TextDim),
        ),
    }
}

/// When the instance was released, if it has been.
fn released_at(app: &App) -> Option<jiff::Timestamp> {
    let instance = app.cloud.inventory.as_ref()?.instance.as_ref()?;
    if instance.state != InstanceState::Released {
        return None;
    }
    let at = instance
        .history
        .iter()
        .rev()
        .find(|(_, s)| *s == InstanceState::Released)
        .map_or(app.now, |(at, _)| *at);
    Some(at)
}
