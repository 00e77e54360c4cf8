//! Bell and desktop notifications through the terminal, as strings for the caller to write.
//!
//! OSC 9 (`ESC ] 9 ; text BEL`) and OSC 777 (`ESC ] 777 ; notify ; title ; body BEL`) are
//! read by the terminal on the user's own machine, so they work over ssh. Inside tmux they must
//! be wrapped in a DCS passthrough, and tmux (3.3 and later) must allow it:
//! `set -g allow-passthrough on`.
//!
//! Alert text comes from outside (instance names, provider messages), so every control
//! character (and bidirectional control) is taken out before it goes between escape sequences: a body cannot end the
//! sequence early and inject one of its own.

use super::Alert;
use crate::config::{NotifyConfig, OscStyle};

pub const BELL: &str = "\x07";

/// Notification text longer than this is cut (terminals show a line or two anyway).
pub const MAX_CHARS: usize = 200;

/// `text` with every [unsafe](gpumeter_core::text::is_unsafe) character turned into a space,
/// runs of spaces collapsed, trimmed, and cut to [`MAX_CHARS`] with an ellipsis.
pub fn sanitize(text: &str) -> String {
    gpumeter_core::text::one_line(text, MAX_CHARS)
}

/// One line: "title: body", or the title alone when the body is empty.
fn one_line(alert: &Alert) -> String {
    let title = sanitize(&alert.title);
    let body = sanitize(&alert.body);
    match (title.is_empty(), body.is_empty()) {
        (_, true) => title,
        (true, false) => body,
        (false, false) => sanitize(&format!("{title}: {body}")),
    }
}

/// `ESC ] 9 ; text BEL`.
pub fn osc9(alert: &Alert) -> String {
    let text = one_line(alert);
    // ConEmu reads `9;<digit>;` as one of its own commands (progress, cwd): keep clear of it.
    let guard = if text.starts_with(|c: char| c.is_ascii_digit()) {
        "gpumeter: "
    } else {
        ""
    };
    format!("\x1b]9;{guard}{text}\x07")
}

/// `ESC ] 777 ; notify ; title ; body BEL`. A `;` in the title would start the body early,
/// so it becomes `,`.
pub fn osc777(alert: &Alert) -> String {
    let title = sanitize(&alert.title).replace(';', ",");
    let title = if title.is_empty() {
        "gpumeter".to_string()
    } else {
        title
    };
    let body = sanitize(&alert.body);
    format!("\x1b]777;notify;{title};{body}\x07")
}

/// `seq` inside a tmux DCS passthrough: `ESC P tmux ; ... ESC \`, with each ESC doubled.
pub fn tmux_wrap(seq: &str) -> String {
    format!("\x1bPtmux;{}\x1b\\", seq.replace('\x1b', "\x1b\x1b"))
}

/// Everything the terminal should be sent for `alert` under `config`: the bell and the
/// configured OSC notifications, or nothing when the alert is below `min_level`.
/// `in_tmux` is decided at the edge (`$TMUX` is set).
pub fn output(alert: &Alert, config: &NotifyConfig, in_tmux: bool) -> String {
    if !config.min_level.admits(alert.level) {
        return String::new();
    }
    let mut sequences = Vec::new();
    if matches!(config.osc, OscStyle::Osc9 | OscStyle::Both) {
        sequences.push(osc9(alert));
    }
    if matches!(config.osc, OscStyle::Osc777 | OscStyle::Both) {
        sequences.push(osc777(alert));
    }
    let mut out: String = if in_tmux {
        sequences.iter().map(|s| tmux_wrap(s)).collect()
    } else {
        sequences.concat()
    };
    // tmux passes a plain bell on by itself (and may show it in the status line).
    if config.bell {
        out.push_str(BELL);
    }
    out
}

#[cfg(test)]
#[path = "terminal_tests.rs"]
mod tests;
