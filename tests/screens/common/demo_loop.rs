//! The real cockpit loop on a 120x40 test terminal, fed by the demo's simulated GPUs and host.
//!
//! The frame-time bench includes this file too, with
//! `#[path = "../tests/screens/common/demo_loop.rs"] mod demo_loop;`.

use std::sync::Arc;
use std::time::Duration;

use gpumeter::app::App;
use gpumeter::cockpit::{Sources, run};
use gpumeter::demo::demo_simulator;
use gpumeter::provider::Provider;
use gpumeter::telemetry::SamplerConfig;
use gpumeter::terminal::Screen;
use gpumeter::ui::theme::Theme;
use ratatui::backend::TestBackend;

/// Runs the loop for `wall`, sampling every `every` and asking `provider`; `on_frame` is told
/// how long each frame took. The loop runs until quit, so dropping it after `wall` stops it.
pub fn run_for(
    wall: Duration,
    app: App,
    provider: Arc<dyn Provider>,
    every: Duration,
    on_frame: Box<dyn FnMut(Duration) + Send>,
) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let sim = demo_simulator("training");
    let sources = Sources {
        gpu: sim.clone(),
        host: sim,
        on_frame: Some(on_frame),
        sampling: SamplerConfig { interval: every },
        inventory_every: gpumeter::cockpit::DEMO_INVENTORY_EVERY,
        provider,
        ledger: None,
        idle: gpumeter::guard::IdleRule::default(),
        notify: None,
        fleet: None,
        watchdog: None,
        stop: None,
    };
    let theme = Theme::default();
    runtime.block_on(async {
        let mut screen = Screen::new(TestBackend::new(120, 40));
        let _ = tokio::time::timeout(wall, run(&mut screen, app, sources, &theme)).await;
    });
    runtime.shutdown_timeout(Duration::from_millis(100));
}
