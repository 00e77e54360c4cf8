//! The real cockpit loop on a test terminal: the clock and both samplers beat once a second,
//! and each second costs one frame, not one per beat.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use gpumeter::app::fixture::{demo_app, demo_simulator};
use gpumeter::cockpit::screen::Screen;
use gpumeter::cockpit::{Sources, run};
use gpumeter::provider::none::NoProvider;
use gpumeter::telemetry::SamplerConfig;
use gpumeter::ui::theme::Theme;
use ratatui::backend::TestBackend;

/// Frames drawn while the loop runs for `wall`.
fn frames_in(wall: Duration) -> usize {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let frames = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&frames);
    let sim = demo_simulator("training");
    let sources = Sources {
        gpu: sim.clone(),
        host: sim,
        on_frame: Some(Box::new(move |_| {
            seen.fetch_add(1, Ordering::SeqCst);
        })),
        sampling: SamplerConfig {
            interval: Duration::from_secs(1),
        },
        provider: Arc::new(NoProvider::new("no provider in this test")),
        ledger: None,
        idle: gpumeter::guard::IdleRule::default(),
        notify: None,
        fleet: None,
    };
    let theme = Theme::default();
    runtime.block_on(async {
        let mut screen = Screen::new(TestBackend::new(120, 40));
        let app = demo_app(Duration::from_secs(3600));
        // The loop runs until quit; dropping it after `wall` stops it.
        let _ = tokio::time::timeout(wall, run(&mut screen, app, sources, &theme)).await;
    });
    runtime.shutdown_timeout(Duration::from_millis(100));
    frames.load(Ordering::SeqCst)
}

#[test]
fn a_second_of_clock_and_samples_is_one_frame() {
    // 4.5 s: the first frame, then about one a second; beats drawn one by one would be 10 or
    // more (a tick, a GPU round and a host sample each second, the first ones at once).
    let frames = frames_in(Duration::from_millis(4500));
    assert!((3..=7).contains(&frames), "{frames} frames in 4.5 s");
}
