//! The first screen with nothing configured and nothing detected: a welcome in the linked
//! resources' place, uncut at 80×24, and no alarm anywhere for what the user never asked for.

use std::time::Duration;

use gpumeter::app::{App, CloudView, Deadline, Event, IdleWatch, Settings, update};
use gpumeter::config::OnExpiry;
use gpumeter::demo::{demo_simulator, fixture_now};
use gpumeter::guard::{IdleRule, Supervisor};
use gpumeter::spend::Spend;
use gpumeter::telemetry::{GpuUnavailable, GpuUnavailableKind, Stamped, Telemetry};
use gpumeter::ui::theme::Theme;
use jiff::SignedDuration;
use jiff::tz::TimeZone;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::common::ui_frame::render;

/// The cockpit as `gpumeter` builds it with an empty config on a machine that says nothing
/// about itself, after its first tick and a minute of samples (`gpus`: NVML's, or none).
fn welcome(gpus: bool) -> App {
    welcome_with(gpus, None)
}

/// [`welcome`], with a deadline `deadline_in` from the start set by the flags or the config.
fn welcome_with(gpus: bool, deadline_in: Option<SignedDuration>) -> App {
    let now = fixture_now();
    let start = now - SignedDuration::from_mins(1);
    let spend = Spend::new(None, None, TimeZone::UTC);
    let mut app = App::new(start, Settings::default(), CloudView::unconfigured(), spend);
    app.idle = Some(IdleWatch::new(IdleRule::default(), OnExpiry::Alert));
    app.guard.supervisor = Some(Supervisor::new(Duration::from_secs(5)));
    app.deadline = deadline_in.map(|d| Deadline::new(start + d, OnExpiry::Release, start));
    let sim = demo_simulator("training");
    for s in 0..=60 {
        let (at, time) = (
            Duration::from_secs(s),
            start + SignedDuration::from_secs(i64::try_from(s).unwrap_or(0)),
        );
        update(&mut app, Event::Tick(time));
        let value = if gpus {
            Ok(sim.gpus_at(at))
        } else {
            Err(GpuUnavailable {
                kind: GpuUnavailableKind::LibraryNotFound,
                detail: "libnvidia-ml.so.1: cannot open shared object file".into(),
            })
        };
        update(
            &mut app,
            Event::Telemetry(Telemetry::Gpu(Stamped { at, time, value })),
        );
        let host = sim.host_at(at);
        update(
            &mut app,
            Event::Telemetry(Telemetry::Host(Stamped {
                at,
                time,
                value: host,
            })),
        );
    }
    app
}

fn draw(name: &str, app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
    terminal
        .draw(|frame| render(frame, app, &Theme::default()))
        .expect("drawing never fails on a test backend");
    insta::assert_snapshot!(name, terminal.backend());
    terminal.backend().to_string()
}

/// What the welcome says, each line whole: a cut line would end in "…" or lose its end.
const WELCOME: [&str; 4] = [
    "No provider configured or detected yet.",
    "gpumeter --demo  try every panel, simulated",
    "gpumeter doctor  what works, what is missing",
    "gpumeter init    write a config for this box",
];

fn assert_welcomes(screen: &str) {
    for line in WELCOME {
        assert!(screen.contains(line), "{line:?} missing or cut:\n{screen}");
    }
    assert_eq!(
        screen.matches("No provider configured").count(),
        1,
        "said once"
    );
    for alarm in [
        "NO WATCHDOG",
        "watchdog DOWN",
        "reading the provider",
        "✗ no provider",
    ] {
        assert!(
            !screen.contains(alarm),
            "{alarm:?} on the welcome:\n{screen}"
        );
    }
    assert!(screen.contains("nothing to guard yet"), "{screen}");
    assert!(screen.contains("gpumeter init or --provider"), "{screen}");
    assert!(
        !screen.contains("R release"),
        "no provider key offered:\n{screen}"
    );
}

#[test]
fn welcome_80x24_on_a_plain_machine() {
    let app = welcome(false);
    let screen = draw("welcome_80x24_plain_machine", &app, 80, 24);
    assert_welcomes(&screen);
    assert!(
        screen.contains("The host's telemetry works now."),
        "{screen}"
    );
    assert!(!screen.contains("checklist keep working"), "{screen}");
}

#[test]
fn welcome_80x24_on_a_gpu_box() {
    let app = welcome(true);
    let screen = draw("welcome_80x24_gpu_box", &app, 80, 24);
    assert_welcomes(&screen);
    assert!(
        screen.contains("GPU telemetry and the host work now."),
        "{screen}"
    );
    assert!(screen.contains("A100"), "the GPUs are read:\n{screen}");
}

#[test]
fn welcome_120x40() {
    let screen = draw("welcome_120x40", &welcome(true), 120, 40);
    assert_welcomes(&screen);
    assert!(
        screen.contains("gpumeter init or --provider gives it one"),
        "{screen}"
    );
}

#[test]
fn a_deadline_with_no_provider_is_plain_not_an_alarm() {
    let app = welcome_with(true, Some(SignedDuration::from_mins(90)));
    let screen = draw("deadline_without_provider_80x24", &app, 80, 24);
    assert!(screen.contains("not enforced: no provider"), "{screen}");
    assert!(
        screen.contains("init` or --provider") && screen.contains("gives one"),
        "the fix is not cut:\n{screen}"
    );
    assert!(screen.contains("at zero: release"), "{screen}");
    assert!(
        screen.contains("! nothing enforces the"),
        "said once, as a warning:\n{screen}"
    );
    assert!(!screen.contains("NO WATCHDOG"), "{screen}");
    assert!(!screen.contains("✗"), "no error anywhere:\n{screen}");
}

#[test]
fn the_welcome_never_panics_and_stays_whole_from_80x24_up() {
    let apps = [welcome(false), welcome(true)];
    for app in &apps {
        for width in (1..=200).step_by(7).chain([79, 80, 81, 119, 120, 121]) {
            for height in (1..=60).step_by(5).chain([23, 24, 31, 32, 40]) {
                let mut terminal =
                    Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
                terminal
                    .draw(|frame| render(frame, app, &Theme::default()))
                    .expect("drawing never fails on a test backend");
                let screen = terminal.backend().to_string();
                if width >= 80 && height >= 24 {
                    for line in WELCOME {
                        assert!(
                            screen.contains(line),
                            "{line:?} cut at {width}×{height}:\n{screen}"
                        );
                    }
                }
            }
        }
    }
}
