//! The terminal's key events as the core's [`KeyPress`]es: releases are dropped, and every key
//! the cockpit does not tell apart becomes `Other`.

use crossterm::event::{KeyCode as TermKey, KeyEvent, KeyEventKind, KeyModifiers};

use crate::app::{KeyCode, KeyPress};

/// The key press `event` reports; `None` for a key release.
pub fn key_press(event: &KeyEvent) -> Option<KeyPress> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    let code = match event.code {
        TermKey::Char(c) => KeyCode::Char(c),
        TermKey::Enter => KeyCode::Enter,
        TermKey::Backspace => KeyCode::Backspace,
        TermKey::Esc => KeyCode::Esc,
        TermKey::Tab => KeyCode::Tab,
        TermKey::BackTab => KeyCode::BackTab,
        TermKey::Up => KeyCode::Up,
        TermKey::Down => KeyCode::Down,
        TermKey::Left => KeyCode::Left,
        TermKey::Right => KeyCode::Right,
        TermKey::PageUp => KeyCode::PageUp,
        TermKey::PageDown => KeyCode::PageDown,
        _ => KeyCode::Other,
    };
    Some(KeyPress {
        code,
        ctrl: event.modifiers.contains(KeyModifiers::CONTROL),
    })
}

#[cfg(test)]
mod tests {
    use crossterm::event::KeyEventState;

    use super::*;

    #[test]
    fn releases_are_dropped_and_control_is_kept() {
        let press = KeyEvent::new(TermKey::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(key_press(&press), Some(KeyPress::ctrl('c')));
        let release = KeyEvent {
            kind: KeyEventKind::Release,
            state: KeyEventState::NONE,
            ..press
        };
        assert_eq!(key_press(&release), None);
        let f5 = KeyEvent::new(TermKey::F(5), KeyModifiers::NONE);
        assert_eq!(key_press(&f5).map(|k| k.code), Some(KeyCode::Other));
    }
}
