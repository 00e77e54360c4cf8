//! The cockpit screen. This file holds only the top-level layout; each panel draws itself in
//! its own file, and [`render`] is pure: it reads the state (time included) and draws it.
//!
//! Wide, from 120×32, in columns (a sketch; `tests/screens/snapshots` holds real captures):
//!
//! ```text
//!  gpumeter │ demo │ i-0demo4a100f00d │ llm-finetune │ p4de.24xlarge │ 27.45 USD/h …
//! ┌ GPUs 8× A100-SXM4-80GB · driver · CUDA ─ p processes ┐┌ Release ────────── e +1h ┐
//! │  0 A100-SXM4-80GB  80°C 349/400W util ███▌ 96% ld 84%││  ▀▀█ ▄ ▀█  █▀▀ ▄ █▀█ █▀█ │
//! │    SM 1410 MHz fan n/a        mem  ██▊· 82% 65.6/80.0││  large digits, 2:15:00   │
//! │  … two lines a GPU; one, or half, when narrower      ││  deadline 16:15 UTC      │
//! │ host  CPU 27%  load 8.71  RAM 24.0/256.0 GiB  net ↑↓ ││ at zero: alert only, …   │
//! │                                                      │└ not held by the provider ┘
//! │ GPU 0 · last 10m: util and load sparklines           │┌ Cost ─────────────── USD ┐
//! │ (with p: GPU, PID, USER, GPU MEM, COMMAND instead)   ││        so far  per hour  │
//! │                                                      ││ compute, bandwidth,      │
//! │                                                      ││ storage, extras; total;  │
//! └ ✓ got the 8 × A100 80GB you pay for ─────────────────┘│ billed; at deadline; by  │
//! ┌ Linked resources ───────────────────────────────── 8 ┐│ midnight; budget gauge   │
//! │ ✓ system disk vol-0root  200 GiB deleted         —   │└──────────────────────────┘
//! │ ! data disk   vol-0data 2000 GiB survives   160.00   │┌ Events ──────────────────┐
//! │ … a row per resource; j/k selects when focused       ││ 14:00:00 ! 3 snapshots…  │
//! └ keeps billing after release: 293.65 USD/month ───────┘└──────────────────────────┘
//!  ? help  Tab focus  j/k select  p processes  e +1h  E extend by…  R release …  q quit
//! ```
//!
//! At 80×24 the same panels stack, abbreviated: GPUs on top (two per line when there are
//! many), then cost beside the countdown, then resources beside the events; the resources and
//! events give way to the process view when `p` is on:
//!
//! ```text
//!  demo  i-0demo4a100f00d  p4de.24xlarge  27.45 USD/h on-demand  up 3h20m  running
//! ┌ GPUs 8× A100-SXM4-80GB · driver 550.54.15 · CUDA 12.4 ────────── p processes ┐
//! │  0 █████████▋ 96% ld 84% mem 82% 80°C  1 █████████▊ 98% ld 91% mem 82% 81°C  │
//! │  2 █████████▉ 99% ld 87% mem 82% 81°C  3 █████████▊ 97% ld 85% mem 82% 79°C  │
//! │  4 █████████▋ 96% ld 88% mem 82% 81°C  5 █████████▌ 95% ld 80% mem 82% 80°C  │
//! │  6 █████████▌ 95% ld 84% mem 82% 79°C  7 █████████▎ 93% ld 80% mem 82% 79°C  │
//! └ ✓ got the 8 × A100 80GB you pay for ─────────────────────────────────────────┘
//! ┌ Cost ─────────────────────────────────── USD ┐┌ Release ────────────── e +1h ┐
//! │           so far    /h │ total         94.54 ││    ▀▀█ ▄ ▀█  █▀▀ ▄ █▀█ █▀█   │
//! │ compute    91.49 27.45 │ burn        27.87/h ││    █▀▀ ▄  █  ▀▀█ ▄ █ █ █ █   │
//! │ bandwidth   0.00  0.00 │ billed        94.54 ││    ▀▀▀   ▀▀▀ ▀▀▀   ▀▀▀ ▀▀▀   │
//! │ storage     3.03  0.42 │ deadline     157.25 ││ deadline 16:15 UTC           │
//! │ extras      0.02  0.00 │ midnight     373.26 ││ at zero: alert only          │
//! └ ! incomplete: 1 unknown ──────────────────────┘└ not held by the provider ────┘
//! ┌ Linked resources ───────────────────────── 8 ┐┌ Events ──────────────────────┐
//! │ ✓ root disk vol-0root    200 GiB        —    ││ 14:00 · demo cloud ready:    │
//! │ ! data disk vol-0data   2000 GiB   160.00    ││         i-0demo4a100f00d     │
//! │ ! snapshot  snap-0a      200 GiB    10.00    ││         (llm-finetune)       │
//! │ ! snapshot  snap-0b      200 GiB    10.00    ││ 14:00 ! 3 snapshots and a    │
//! │ ! snapshot  snap-0c     2000 GiB   100.00    ││         2000 GiB disk will   │
//! │ ! image     ami-0train   200 GiB    10.00    ││         outlive a release    │
//! │ ! public IP eipalloc-0d        —     3.65    ││                              │
//! │ ! load bal. lb-0api            — no price    ││                              │
//! └ after release: 293.65 USD/mo + 1 unknown ────┘└──────────────────────────────┘
//! ```
//!
//! With no provider configured or detected, the welcome (`welcome.rs`) takes the linked
//! resources' place in either layout: there are none to list.
//!
//! Below 60×16 only a line saying how large the terminal needs to be is drawn. Overlays (help,
//! the confirm dialog, the `E` prompt, a resource's details) draw over either layout.
//!
//! Two ways to draw, on purpose: [`paint`] and [`panel::Panel`] draw what the main screen
//! redraws every second (lines that neither wrap nor scroll, framed panels) cell for cell as
//! ratatui's `Paragraph` and `Block` would, without their passes over every cell; proptests
//! keep them equal. Everything else (wrapping text, the dialogs, tables, the fleet screen)
//! uses ratatui's widgets, until a profile shows a frame spending its time there.

pub mod balance;
pub mod bars;
pub mod bigdigits;
pub mod confirm;
pub mod cost;
pub mod cost_layout;
pub mod countdown;
pub mod details;
pub mod events;
pub mod fleet;
pub mod footer;
pub mod gpu_chart;
pub mod gpu_rows;
pub mod gpus;
pub mod guard_choice;
pub mod guards;
pub mod header;
pub mod help;
pub mod host;
mod leftover;
pub mod paint;
pub mod panel;
pub mod processes;
pub mod prompt;
pub mod resources;
pub mod subscription;
pub mod text;
pub mod theme;
mod theme_file;
pub mod welcome;
pub mod words;

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Layout, Position, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget as _, Wrap};

use crate::app::{App, Focus, Mode};
use theme::{Role, Theme};

/// Below this the screen only says how large it needs to be.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 16;
/// From this size the panels sit in columns.
pub const WIDE_WIDTH: u16 = 120;
pub const WIDE_HEIGHT: u16 = 32;

/// Draws the whole screen for `app` into `area` of `buf`, and says where the terminal's cursor
/// goes (only a prompt shows one). Pure: no I/O, no clock (time is `app.now`).
pub fn render(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) -> Option<Position> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        render_too_small(area, buf, theme);
        return None;
    }
    if app.show_fleet {
        fleet::render_fleet(area, buf, app, theme);
    } else if area.width >= WIDE_WIDTH && area.height >= WIDE_HEIGHT {
        render_wide(area, buf, app, theme);
    } else {
        render_compact(area, buf, app, theme);
    }
    if !app.show_fleet {
        guards::render_grace_banner(area, buf, app, theme);
    }
    match &app.mode {
        Mode::Main => None,
        Mode::Help => {
            help::render_help(area, buf, app, theme);
            None
        }
        Mode::Confirm(c) => {
            confirm::render_confirm(area, buf, c, theme);
            None
        }
        Mode::Prompt {
            input,
            error,
            asking,
        } => prompt::render_prompt(area, buf, app, input, (error.as_deref(), *asking), theme),
        Mode::Details(d) => {
            details::render_details(area, buf, app, d, theme);
            None
        }
        Mode::GuardChoice(c) => {
            guard_choice::render_guard_choice(area, buf, app, c, theme);
            None
        }
    }
}

fn render_too_small(area: Rect, buf: &mut Buffer, theme: &Theme) {
    let text = crate::t!(
        "screen-too-small",
        need = format!("{MIN_WIDTH}×{MIN_HEIGHT}"),
        now = format!("{}×{}", area.width, area.height)
    );
    let middle = Rect {
        y: area.y + area.height.saturating_sub(1) / 2,
        height: area.height.min(2),
        ..area
    };
    Paragraph::new(Line::styled(text, theme.style(Role::AlertWarn)))
        .alignment(Alignment::Center)
        .wrap(Wrap { trim: true })
        .render(middle, buf);
}

fn resource_count(app: &App) -> u16 {
    let n = app
        .cloud
        .inventory
        .as_ref()
        .map_or(0, |i| i.resources.len());
    text::to_u16(n)
}

fn render_wide(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    let [header, body, footer] = area.layout(&Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
    ]));
    let right_w = (area.width * 7 / 20).clamp(52, 60);
    let [left, right] = body.layout(&Layout::horizontal([
        Constraint::Fill(1),
        Constraint::Length(right_w),
    ]));
    let resources_h = if app.cloud.configured {
        (resource_count(app) + 3).clamp(5, 14)
    } else {
        welcome::welcome_height(app, left.width)
    };
    let [gpus, resources] = left.layout(&Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(resources_h),
    ]));
    let release_h = if app.deadline.is_some() {
        9
    } else {
        2 + countdown::hint_rows(app, right_w.saturating_sub(4))
    } + guards::guard_line_count(app, true);
    let [release, cost, events] = right.layout(&Layout::vertical([
        Constraint::Length(release_h),
        Constraint::Length(16),
        Constraint::Fill(1),
    ]));
    header::render_header(header, buf, app, theme);
    gpus::render_gpus(gpus, buf, app, theme, app.focus == Focus::Gpus);
    render_resources_or_welcome(resources, buf, app, theme);
    countdown::render_countdown(release, buf, app, theme);
    cost::render_cost(cost, buf, app, theme, app.focus == Focus::Cost);
    events::render_events(events, buf, app, theme, app.focus == Focus::Events);
    footer::render_footer(footer, buf, app, theme);
}

fn render_compact(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    let [header, body] = area.layout(&Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
    ]));
    // Heights by hand, so the squeeze at the minimum size is chosen, not solved: the GPU rows
    // keep three rows, the resources and events give way first, then cost and countdown.
    let avail = body.height;
    let band = 7;
    let side = (area.width * 2 / 5).clamp(27, 40);
    let bottom = if app.show_processes {
        0
    } else if !app.cloud.configured {
        welcome::welcome_height(app, area.width.saturating_sub(side))
    } else {
        (resource_count(app) + 2).clamp(5, 10)
    };
    let gpu_h = avail.saturating_sub(band + bottom).max(3);
    let bottom = if app.show_processes {
        0
    } else {
        avail.saturating_sub(band + gpu_h).max(3).min(bottom)
    };
    let band = avail.saturating_sub(gpu_h + bottom);
    let [gpus, middle, lower] = body.layout(&Layout::vertical([
        Constraint::Length(gpu_h),
        Constraint::Length(band),
        Constraint::Length(bottom),
    ]));
    let columns = Layout::horizontal([Constraint::Fill(1), Constraint::Length(side)]);
    let [cost, release] = middle.layout(&columns);
    let [resources, events] = lower.layout(&columns);
    header::render_header(header, buf, app, theme);
    gpus::render_gpus(gpus, buf, app, theme, app.focus == Focus::Gpus);
    cost::render_cost(cost, buf, app, theme, app.focus == Focus::Cost);
    countdown::render_countdown(release, buf, app, theme);
    if bottom > 0 {
        render_resources_or_welcome(resources, buf, app, theme);
        events::render_events(events, buf, app, theme, app.focus == Focus::Events);
    }
    // No footer here: the help key sits in the last bottom border.
    let last = Rect {
        y: area.bottom().saturating_sub(1),
        height: 1,
        ..area
    };
    footer::render_help_hint(last, buf, app, theme);
}

/// The linked resources, or with no provider to list them, the welcome in their place.
fn render_resources_or_welcome(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    let focused = app.focus == Focus::Resources;
    if app.cloud.configured {
        resources::render_resources(area, buf, app, theme, focused);
    } else {
        welcome::render_welcome(area, buf, app, theme, focused);
    }
}

/// The whole screen drawn from `app` on a test terminal of `width`×`height`, default theme.
#[cfg(test)]
pub(crate) fn drawn(app: &App, width: u16, height: u16) -> ratatui::backend::TestBackend {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height))
        .expect("a test terminal");
    let theme = theme::Theme::default();
    terminal
        .draw(|frame| {
            render(frame.area(), frame.buffer_mut(), app, &theme);
        })
        .expect("a frame");
    terminal.backend().clone()
}
