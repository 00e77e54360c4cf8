//! Driving the cockpit's state the way a user does: a key, a letter, and the last line it
//! logged.

use gpumeter_core::app::{App, Effect, Event, KeyCode, KeyPress, Level, update};

pub fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
    update(app, Event::Key(KeyPress::new(code)))
}

pub fn ch(app: &mut App, c: char) -> Vec<Effect> {
    press(app, KeyCode::Char(c))
}

pub fn last_log(app: &App) -> (Level, String) {
    let e = app.events.back().expect("a log line");
    (e.level, e.text.clone())
}
