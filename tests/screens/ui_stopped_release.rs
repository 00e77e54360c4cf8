//! The release panel of a stopped instance with no deadline: `stopped_release_after`'s
//! countdown and what the release erases, or the platform's own release where it comes first,
//! in English and Chinese.

use std::time::Duration;

use gpumeter::app::App;
use gpumeter::demo::demo_app;
use gpumeter::i18n::{Lang, scoped};
use gpumeter::meter::InstanceState;
use gpumeter::ui::theme::{Preset, Theme};
use jiff::SignedDuration;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::common::ui_frame::render;

/// The screen's text, row by row.
fn screen(app: &App) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(120, 32)).expect("a test terminal");
    let theme = Theme::builtin(Preset::Dark);
    terminal
        .draw(|frame| render(frame, app, &theme))
        .expect("drawing never fails on a test backend");
    let buffer = terminal.backend().buffer();
    (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

/// The demo cockpit's instance on `provider`, stopped five hours ago, with no deadline and
/// `stopped_release_after` of `days`.
fn stopped_for_five_hours(provider: &str, days: i64) -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    let now = app.now;
    if let Some(i) = app
        .cloud
        .inventory
        .as_mut()
        .and_then(|i| i.instance.as_mut())
    {
        i.provider = provider.into();
        i.state = InstanceState::Stopped;
        i.history
            .push((now - SignedDuration::from_hours(5), InstanceState::Stopped));
    }
    app.deadline = None;
    app.stopped_release.after = Some(SignedDuration::from_hours(days * 24));
    app
}

fn shows(rows: &[String], text: &str) -> bool {
    rows.iter().any(|r| r.contains(text))
}

/// Whether `text` is on a row, spaces aside: a wide character's second cell is blank.
fn shows_wide(rows: &[String], text: &str) -> bool {
    let squeeze = |s: &str| s.replace(' ', "");
    rows.iter().any(|r| squeeze(r).contains(&squeeze(text)))
}

#[test]
fn a_stopped_instance_counts_down_to_the_policys_release_and_names_what_it_erases() {
    let app = stopped_for_five_hours("demo", 3);
    let id = app
        .cloud
        .inventory
        .as_ref()
        .unwrap()
        .instance
        .as_ref()
        .unwrap()
        .id
        .clone();
    let rows = scoped(Lang::En, || screen(&app));
    assert!(shows(&rows, "stopped_release_after"), "{rows:#?}");
    assert!(
        shows(&rows, "releases it in 2d19h"),
        "3 days less 5 hours: {rows:#?}"
    );
    assert!(shows(&rows, "(3d0h"), "{rows:#?}");
    assert!(
        shows(&rows, "vol-0root;"),
        "the disk that goes with it: {rows:#?}"
    );
    assert!(shows(&rows, &id), "the instance it erases: {rows:#?}");
    let chinese = scoped(Lang::ZhCn, || screen(&app));
    assert!(shows(&chinese, "2d19h"), "{chinese:#?}");
    assert!(shows_wide(&chinese, "后释放它"), "{chinese:#?}");
    assert!(!shows(&chinese, "releases it"), "{chinese:#?}");
    // Started again: nothing counts down.
    let mut started = app;
    if let Some(i) = started
        .cloud
        .inventory
        .as_mut()
        .and_then(|i| i.instance.as_mut())
    {
        i.state = InstanceState::Running;
    }
    let rows = scoped(Lang::En, || screen(&started));
    assert!(!shows(&rows, "stopped_release_after"), "{rows:#?}");
}

#[test]
fn the_platforms_release_is_shown_where_it_comes_first() {
    // AutoDL releases after 15 days shut down: before a 20-day policy, after a 3-day one.
    let late = scoped(Lang::En, || screen(&stopped_for_five_hours("autodl", 20)));
    assert!(shows(&late, "autodl releases it in 14d19h"), "{late:#?}");
    assert!(!shows(&late, "stopped_release_after"), "{late:#?}");
    let soon = scoped(Lang::En, || screen(&stopped_for_five_hours("autodl", 3)));
    assert!(shows(&soon, "releases it in 2d19h"), "{soon:#?}");
    assert!(!shows(&soon, "autodl releases"), "{soon:#?}");
}

#[test]
fn a_final_snapshot_chosen_is_named_in_the_countdown() {
    let mut app = stopped_for_five_hours("demo", 3);
    assert!(!shows(&scoped(Lang::En, || screen(&app)), "final snapshot"));
    app.stopped_release.final_snapshot = true;
    let rows = scoped(Lang::En, || screen(&app));
    assert!(shows(&rows, "after a final snapshot"), "{rows:#?}");
    let chinese = scoped(Lang::ZhCn, || screen(&app));
    assert!(shows_wide(&chinese, "最终快照"), "{chinese:#?}");
}
