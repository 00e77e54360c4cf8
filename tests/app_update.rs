//! `update` for every key, on the demo fixture.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use gpumeter::app::fixture::demo_app;
use gpumeter::app::{App, Effect, Event, Mode, update};

fn app() -> App {
    demo_app(Duration::from_secs(3 * 3600))
}

#[test]
fn the_fixture_has_a_reading() {
    let app = app();
    let r = app.spend.reading.as_ref().expect("a reading");
    assert!(r.accrual.accrued.compute > rust_decimal::Decimal::ZERO);
    assert!(!r.leftovers.is_empty());
    assert!(matches!(app.mode, Mode::Main));
    let _ = (
        KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE),
        Effect::RetryGpu,
        Event::Resize,
        update,
    );
}
