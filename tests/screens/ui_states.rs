//! The screen never panics: every odd state (nothing read yet, no pricing, zero or many GPUs,
//! every metric missing, huge amounts, long strings, an overdue deadline, each overlay) drawn
//! at every size from a single cell to a very wide terminal.

use std::time::Duration;

use gpumeter::app::{App, Confirm, Focus, Level, Mode};
use gpumeter::demo::demo_app;
use gpumeter::meter::Breakdown;
use gpumeter::money::{Currency, Money};
use gpumeter::provider::Action;
use gpumeter::telemetry::{GpuReading, GpuSample, Unavailable};
use gpumeter::ui::theme::Theme;
use jiff::SignedDuration;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use rust_decimal::Decimal;

use crate::common::ui_frame::render;

fn base() -> App {
    demo_app(Duration::from_secs(200 * 60))
}

fn huge() -> Decimal {
    Decimal::from(10_i64.pow(12)) + Decimal::new(123_456_789, 8)
}

fn with_reading(mut app: App, f: impl Fn(&mut Breakdown)) -> App {
    if let Some(r) = app.spend.reading.as_mut() {
        f(&mut r.accrual.accrued);
        f(&mut r.accrual.billed);
        f(&mut r.accrual.burn_per_hour);
        f(&mut r.at_end_of_day);
        if let Some(d) = r.at_deadline.as_mut() {
            f(d);
        }
        r.leftover_monthly = huge();
    }
    app
}

fn gpus(app: &mut App, gpus: Vec<GpuSample>) {
    if let Some(Ok(reading)) = app.telemetry.gpus.as_mut() {
        reading.gpus = gpus;
    } else {
        let driver = match base().telemetry.gpus {
            Some(Ok(r)) => r.driver,
            _ => unreachable!("the fixture has GPUs"),
        };
        app.telemetry.gpus = Some(Ok(GpuReading { driver, gpus }));
    }
}

#[expect(
    clippy::too_many_lines,
    reason = "one line per odd state, read as a list"
)]
fn states() -> Vec<(&'static str, App)> {
    let mut out = vec![("fixture", base())];
    let mut a = base();
    a.spend.pricing = None;
    a.spend.reading = None;
    out.push(("no pricing", a));
    let mut a = base();
    a.cloud.inventory = None;
    a.spend.reading = None;
    a.telemetry.gpus = None;
    a.telemetry.host = None;
    a.deadline = None;
    out.push(("nothing read yet", a));
    let mut a = base();
    gpus(&mut a, Vec::new());
    out.push(("zero GPUs", a));
    let mut a = base();
    gpus(
        &mut a,
        (0..3)
            .map(|i| GpuSample::unavailable(i, Unavailable::Failed("gpu_lost")))
            .collect(),
    );
    a.show_processes = true;
    out.push(("every metric missing", a));
    let mut a = base();
    let one = match &a.telemetry.gpus {
        Some(Ok(r)) => r.gpus[0].clone(),
        _ => unreachable!("the fixture has GPUs"),
    };
    gpus(
        &mut a,
        (0..64)
            .map(|i| GpuSample {
                index: i,
                ..one.clone()
            })
            .collect(),
    );
    a.selected_gpu = 63;
    out.push(("64 GPUs, the last selected", a));
    let mut a = with_reading(base(), |b| {
        b.compute = huge();
        b.storage = -huge();
        b.extras = huge();
    });
    a.spend.budget = Some(Money::new(Decimal::new(1, 2), Currency::USD));
    out.push(("huge amounts over a tiny budget", a));
    let mut a = base();
    a.spend.budget = Some(Money::new(Decimal::from(100), Currency::CNY));
    out.push(("a budget in another currency", a));
    let mut a = base();
    let long = "x".repeat(500);
    if let Some(inv) = a.cloud.inventory.as_mut() {
        if let Some(i) = inv.instance.as_mut() {
            i.name.clone_from(&long);
            i.id.clone_from(&long);
        }
        for r in &mut inv.resources {
            r.name.clone_from(&long);
            r.size_gib = huge();
        }
    }
    a.log(Level::Error, long.clone());
    a.log(Level::Done, format!("{long} {long}"));
    a.cloud.error = Some(gpumeter::provider::ProviderError::state("demo", &long));
    a.selected_resource = 1000;
    a.focus = Focus::Resources;
    out.push(("long strings", a));
    let mut a = base();
    if let Some(inv) = a.cloud.inventory.as_mut() {
        inv.resources.clear();
    }
    out.push(("no resources", a));
    let mut a = base();
    if let Some(d) = a.deadline.as_mut() {
        d.at = a.now - SignedDuration::from_hours(30);
    }
    out.push(("overdue", a));
    let mut a = base();
    if let Some(d) = a.deadline.as_mut() {
        d.at = a.now + SignedDuration::from_hours(100_000);
    }
    out.push(("far away", a));
    let mut a = base();
    a.cloud.running = Some((Action::Release, a.now + SignedDuration::from_hours(1)));
    out.push(("an action that started in the future", a));
    for action in [
        Action::Release,
        Action::Stop,
        Action::SnapshotClean {
            keep: 0,
            final_snapshot: false,
            delete: None,
        },
    ] {
        let mut a = base();
        a.mode = Mode::Confirm(Confirm::for_action(&a, action));
        out.push(("a confirmation", a));
    }
    let mut a = base();
    a.mode = Mode::Prompt {
        input: "9".repeat(32),
        error: Some(long),
        asking: None,
    };
    out.push(("a prompt with a long error", a));
    let mut a = base();
    a.settings.read_only = true;
    a.mode = Mode::Help;
    out.push(("read-only help", a));
    out
}

#[test]
fn no_state_at_any_size_panics() {
    let theme = Theme::default();
    let sizes = [
        (1, 1),
        (2, 3),
        (10, 5),
        (59, 15),
        (60, 16),
        (61, 17),
        (70, 20),
        (80, 24),
        (100, 30),
        (119, 31),
        (120, 32),
        (160, 48),
        (250, 70),
        (300, 20),
        (60, 80),
    ];
    for (name, app) in states() {
        for (w, h) in sizes {
            let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
            let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                terminal
                    .draw(|frame| render(frame, &app, &theme))
                    .map(|_| ())
            }));
            assert!(
                matches!(drawn, Ok(Ok(()))),
                "{name} at {w}×{h} did not draw"
            );
            // Not panicking by drawing nothing does not count: a usable size shows text.
            if w >= 60 && h >= 16 {
                let buffer = terminal.backend().buffer();
                assert!(
                    buffer
                        .content()
                        .iter()
                        .any(|c| !c.symbol().trim().is_empty()),
                    "{name} at {w}×{h} drew a blank screen"
                );
            }
        }
    }
}
