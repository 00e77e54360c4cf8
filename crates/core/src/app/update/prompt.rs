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
    crate::t!("prompt-ask-extend", by = format!("{by:#}"), to = to)
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
                error: Some(crate::t!("prompt-not-a-duration", input = input.clone())),
                input,
                asking: None,
            };
            Vec::new()
        }
    }
}
