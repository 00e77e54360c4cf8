//! The extend prompt's line editing and its second question above a day.

use std::time::Duration;

use gpumeter_core::app::{App, Event, KeyCode, KeyPress, Mode, extend_question, update};
use gpumeter_core::demo::demo_app;
use jiff::SignedDuration;

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        update(app, Event::Key(KeyPress::new(KeyCode::Char(c))));
    }
}

fn ctrl(app: &mut App, c: char) {
    update(app, Event::Key(KeyPress::ctrl(c)));
}

fn input(app: &App) -> &str {
    match &app.mode {
        Mode::Prompt { input, .. } => input,
        other => panic!("not prompting: {other:?}"),
    }
}

fn prompting() -> App {
    let mut app = demo_app(Duration::from_secs(3600));
    typed(&mut app, "E");
    app
}

#[test]
fn ctrl_u_clears_and_ctrl_w_deletes_the_last_word() {
    let mut app = prompting();
    typed(&mut app, "1h 30m");
    ctrl(&mut app, 'w');
    assert_eq!(input(&app), "1h ");
    ctrl(&mut app, 'w');
    assert_eq!(input(&app), "");
    typed(&mut app, "2h");
    ctrl(&mut app, 'u');
    assert_eq!(input(&app), "", "Ctrl-U types no literal u");
    typed(&mut app, "a  b  ");
    ctrl(&mut app, 'w');
    assert_eq!(input(&app), "a  ");
}

#[test]
fn more_than_a_day_is_asked_once_more_with_the_date() {
    let mut app = prompting();
    let before = app.deadline.map(|d| d.at);
    typed(&mut app, "10000h");
    update(&mut app, Event::Key(KeyPress::new(KeyCode::Enter)));
    let Mode::Prompt { asking, .. } = &app.mode else {
        panic!("still asking")
    };
    assert_eq!(*asking, Some(SignedDuration::from_hours(10_000)));
    let question = extend_question(&app, SignedDuration::from_hours(10_000));
    assert!(
        question.starts_with("extend by 10000h, to 20"),
        "{question}"
    );
    assert!(question.ends_with("? y/N"), "{question}");
    assert_eq!(app.deadline.map(|d| d.at), before, "nothing moved yet");
    // Any key but y goes back to the line, as typed.
    typed(&mut app, "n");
    assert_eq!(input(&app), "10000h");
    assert_eq!(app.deadline.map(|d| d.at), before);
    update(&mut app, Event::Key(KeyPress::new(KeyCode::Enter)));
    typed(&mut app, "y");
    assert_eq!(app.mode, Mode::Main);
    let moved = app.deadline.map(|d| d.at).expect("a deadline");
    assert!(before.is_none_or(|b| moved > b));
    let said = &app.events.back().expect("a line").text;
    assert!(
        said.contains("extended by 10000h to 20"),
        "a deadline on another day shows its date: {said}"
    );
}

#[test]
fn a_day_or_less_extends_at_once_and_says_the_time_alone_today() {
    let mut app = prompting();
    typed(&mut app, "1m");
    update(&mut app, Event::Key(KeyPress::new(KeyCode::Enter)));
    assert_eq!(app.mode, Mode::Main);
    let said = &app.events.back().expect("a line").text;
    let time = said.rsplit(' ').next().unwrap_or_default();
    assert_eq!(time.len(), 5, "{said}");
}
