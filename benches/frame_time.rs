//! Frame times of the real cockpit loop while the provider hangs.
//!
//! Part 1 runs `cockpit::run` itself on a `TestBackend` (120×40): the demo fixture, eight
//! simulated GPUs sampled every 10 ms (a hundred times the cockpit's default rate, to draw many
//! frames), the clock's ticks, and a provider whose every call hangs for 30 s. The loop's own
//! `on_frame` hook reports each draw. Part 2 sends keys (fleet, help, processes, focus, rows,
//! the extend prompt) through `update` and draws after each, as the loop does for a key press
//! (the loop reads keys from the terminal, which a benchmark does not have).
//!
//! Prints p50, p99 and max per part; the target is p99 ≤ 16 ms. Asserts nothing.
//!
//!     cargo bench --bench frame_time            # FRAME_BENCH_SECS=10 by default

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use gpumeter::app::{App, Event, update};
use gpumeter::app::{KeyCode, KeyPress};
use gpumeter::demo::demo_app;
use gpumeter::provider::{Action, ActionReport, Capabilities, Inventory, Provider, ProviderError};
use gpumeter::terminal::Screen;
use gpumeter::ui::render;
use gpumeter::ui::theme::Theme;
use ratatui::backend::TestBackend;

#[path = "../tests/screens/common/demo_loop.rs"]
mod demo_loop;

const HANG: Duration = Duration::from_secs(30);

/// Every call takes 30 seconds and then fails.
struct Hanging;

#[async_trait]
impl Provider for Hanging {
    fn name(&self) -> &'static str {
        "hanging"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            start: false,
            stop: true,
            snapshots: true,
            deadline: true,
        }
    }

    fn plan_instance(&self, _action: &Action) -> Vec<String> {
        Vec::new()
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        tokio::time::sleep(HANG).await;
        Err(ProviderError::unreachable("hung", "hung for 30 s"))
    }

    async fn act(&self, _action: &Action) -> Result<ActionReport, ProviderError> {
        tokio::time::sleep(HANG).await;
        Err(ProviderError::unreachable("hung", "hung for 30 s"))
    }
}

fn app() -> App {
    demo_app(Duration::from_secs(200 * 60))
}

fn figures(name: &str, mut frames: Vec<Duration>) {
    if frames.is_empty() {
        println!("{name}: no frames");
        return;
    }
    frames.sort();
    let at = |q: f64| {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss,
            reason = "an index into a short list"
        )]
        let i = ((frames.len() - 1) as f64 * q).round() as usize;
        frames[i].as_secs_f64() * 1000.0
    };
    let p99 = at(0.99);
    println!(
        "{name}: {} frames  p50 {:.2} ms  p99 {:.2} ms  max {:.2} ms  (p99 <= 16 ms: {})",
        frames.len(),
        at(0.5),
        p99,
        at(1.0),
        if p99 <= 16.0 { "yes" } else { "NO" }
    );
}

/// Part 1: the real loop, for `secs` seconds.
fn real_loop(secs: u64) -> Vec<Duration> {
    let frames = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&frames);
    demo_loop::run_for(
        Duration::from_secs(secs),
        app(),
        Arc::new(Hanging),
        Duration::from_millis(10),
        Box::new(move |d| {
            if let Ok(mut f) = seen.lock() {
                f.push(d);
            }
        }),
    );
    frames.lock().map(|f| f.clone()).unwrap_or_default()
}

/// Part 2: keys through `update`, a frame after each.
fn keys(rounds: usize) -> Vec<Duration> {
    let mut app = app();
    let theme = Theme::default();
    let mut screen = Screen::new(TestBackend::new(120, 40));
    let key = |c| Event::Key(KeyPress::new(c));
    let script = [
        KeyCode::Char('F'),
        KeyCode::Char('F'),
        KeyCode::Char('?'),
        KeyCode::Esc,
        KeyCode::Char('p'),
        KeyCode::Char('j'),
        KeyCode::Char('k'),
        KeyCode::Char('p'),
        KeyCode::Tab,
        KeyCode::Char('j'),
        KeyCode::Tab,
        KeyCode::Tab,
        KeyCode::Tab,
        KeyCode::Char('E'),
        KeyCode::Char('2'),
        KeyCode::Char('h'),
        KeyCode::Esc,
    ];
    let mut frames = Vec::with_capacity(rounds * script.len());
    for _ in 0..rounds {
        for code in script {
            update(&mut app, key(code));
            let started = Instant::now();
            screen
                .draw(|area, buf| render(area, buf, &app, &theme))
                .expect("a test backend draws");
            frames.push(started.elapsed());
        }
    }
    frames
}

fn main() {
    // Without a terminal, the loop's key reader (crossterm's event stream) panics in its own
    // task and ends; the loop goes on without keys. Keep that one panic out of the figures.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
        let quiet = message.is_some_and(|m| m.contains("reader source not set"));
        if !quiet {
            default_hook(info);
        }
    }));
    // `cargo test --benches` runs this with --bench absent: keep that quick.
    let benching = std::env::args().any(|a| a == "--bench");
    let secs = std::env::var("FRAME_BENCH_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if benching { 10 } else { 1 });
    figures("real loop, provider hanging", real_loop(secs));
    figures("keys", keys(if benching { 100 } else { 2 }));
}
