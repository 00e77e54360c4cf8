//! The prompt `E` opens: a duration typed with the usual line-editing keys (Ctrl-U clears,
//! Ctrl-W deletes a word), and one more question before an extension longer than a day.

use jiff::SignedDuration;

use super::Effect;
use super::guard::extend;
use crate::app::deadline::{ASK_ABOVE, extended_at, when};
use crate::app::keymap::{KeyCode, KeyPress};
use crate::app::state::{App, Mode};

/// The longest input kept: a duration never needs more.
const MAX_INPUT: usize = 32;

/// "extend by 10000h, to 2028-02-03 01:16? y/N": what a long extension is asked as.
pub fn extend_question(app: &App, by: SignedDuration) -> String {
    let at = extended_at(app.deadline.map(|d| d.at), by, app.now);
    let to = when(at, app.now, &app.spend.time_zone);
    format!("extend by {by:#}, to {to}? y/N")
}

/// `input` without its last word and the spaces after it, as Ctrl-W leaves a shell's line.
fn without_last_word(input: &str) -> String {
    let kept = input.trim_end();
    let cut = kept.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    kept[..cut].to_string()
}

pub(super) fn on_prompt_key(
    app: &mut App,
    mut input: String,
    asking: Option<SignedDuration>,
    key: KeyPress,
) -> Vec<Effect> {
    if let Some(by) = asking {
        match key.code {
            KeyCode::Char('y' | 'Y') if !key.ctrl => {
                app.mode = Mode::Main;
                return extend(app, by);
            }
            KeyCode::Esc => app.mode = Mode::Main,
            // Anything else is a no: back to the line, as typed, to fix it.
            _ => {
                app.mode = Mode::Prompt {
                    input,
                    error: None,
                    asking: None,
                };
            }
        }
        return Vec::new();
    }
    match key.code {
        KeyCode::Esc => {
            app.mode = Mode::Main;
            return Vec::new();
        }
        KeyCode::Enter => return on_enter(app, input),
        KeyCode::Char('u') if key.ctrl => input.clear(),
        KeyCode::Char('w') if key.ctrl => input = without_last_word(&input),
        KeyCode::Backspace => {
            input.pop();
        }
        KeyCode::Char(c) if !key.ctrl && !c.is_control() && input.len() < MAX_INPUT => {
            input.push(c);
        }
        _ => return Vec::new(),
    }
    app.mode = Mode::Prompt {
        input,
        error: None,
        asking: None,
    };
    Vec::new()
}

fn on_enter(app: &mut App, input: String) -> Vec<Effect> {
    match input.trim().parse::<SignedDuration>() {
        Ok(by) if by > ASK_ABOVE => {
            app.mode = Mode::Prompt {
                input,
                error: None,
                asking: Some(by),
            };
            Vec::new()
        }
        Ok(by) if by > SignedDuration::ZERO => {
            app.mode = Mode::Main;
            extend(app, by)
        }
        _ => {
            app.mode = Mode::Prompt {
                error: Some(format!("`{input}` is not a duration: try 45m, 2h or 1h30m")),
                input,
                asking: None,
            };
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::app::{Event, update};
    use crate::demo::demo_app;

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
        assert_eq!(without_last_word("a  b  "), "a  ");
        assert_eq!(without_last_word("abc"), "");
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
}
