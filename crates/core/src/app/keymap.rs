//! Every key the cockpit knows, in one table. The help overlay is generated from it, so the
//! two cannot drift; `--read-only` drops the rows that change the cloud or the deadline
//! entirely, and [`super::offer`] drops the rows the instance's state has no use for.

/// A key press as the terminal reported it, reduced to what the cockpit reads. The event loop
/// turns the terminal library's events into these (and drops key releases).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyPress {
    pub code: KeyCode,
    /// Control was held.
    pub ctrl: bool,
}

impl KeyPress {
    pub fn new(code: KeyCode) -> KeyPress {
        KeyPress { code, ctrl: false }
    }

    pub fn ctrl(c: char) -> KeyPress {
        KeyPress {
            code: KeyCode::Char(c),
            ctrl: true,
        }
    }
}

/// The keys the cockpit tells apart; every other key is `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyCode {
    Char(char),
    Enter,
    Backspace,
    Esc,
    Tab,
    BackTab,
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Other,
}

/// What a key asks for, before the current mode decides what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    Quit,
    Help,
    Close,
    FocusNext,
    FocusPrev,
    Up,
    Down,
    Left,
    Right,
    Processes,
    Fleet,
    Extend,
    ExtendPrompt,
    Release,
    Stop,
    Start,
    SnapshotClean,
    /// Delete the selected linked resource (a dialog first).
    Cleanup,
    /// Show the selected linked resource's details.
    Details,
    RetryGpu,
    Confirm,
    /// Jump to the first (oldest) row of the focused list.
    Top,
    /// Jump to the last (newest) row of the focused list.
    Bottom,
    PageUp,
    PageDown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Char(char),
    Ctrl(char),
    Enter,
    Esc,
    Tab,
    BackTab,
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
}

impl Key {
    pub fn label(self) -> String {
        match self {
            Key::Char(c) => c.to_string(),
            Key::Ctrl(c) => format!("Ctrl-{}", c.to_ascii_uppercase()),
            Key::Enter => "Enter".into(),
            Key::Esc => "Esc".into(),
            Key::Tab => "Tab".into(),
            Key::BackTab => "Shift-Tab".into(),
            Key::Up => "↑".into(),
            Key::Down => "↓".into(),
            Key::Left => "←".into(),
            Key::Right => "→".into(),
            Key::PageUp => "PgUp".into(),
            Key::PageDown => "PgDn".into(),
        }
    }

    fn matches(self, event: KeyPress) -> bool {
        let ctrl = event.ctrl;
        match (self, event.code) {
            (Key::Char(c), KeyCode::Char(got)) => !ctrl && c == got,
            (Key::Ctrl(c), KeyCode::Char(got)) => ctrl && got.eq_ignore_ascii_case(&c),
            (Key::Enter, KeyCode::Enter)
            | (Key::Esc, KeyCode::Esc)
            | (Key::Tab, KeyCode::Tab)
            | (Key::BackTab, KeyCode::BackTab)
            | (Key::Up, KeyCode::Up)
            | (Key::Down, KeyCode::Down)
            | (Key::Left, KeyCode::Left)
            | (Key::Right, KeyCode::Right)
            | (Key::PageUp, KeyCode::PageUp)
            | (Key::PageDown, KeyCode::PageDown) => true,
            _ => false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Binding {
    pub keys: &'static [Key],
    pub intent: Intent,
    pub description: &'static str,
    /// Opens a confirmation and changes the cloud.
    pub destructive: bool,
    /// Changes the cloud or the deadline the watchdog enforces: absent under `--read-only`.
    pub writes: bool,
}

const fn bind(keys: &'static [Key], intent: Intent, description: &'static str) -> Binding {
    Binding {
        keys,
        intent,
        description,
        destructive: false,
        writes: false,
    }
}

/// Moves the deadline: no confirmation, but still a change a read-only cockpit never makes.
const fn writes(keys: &'static [Key], intent: Intent, description: &'static str) -> Binding {
    Binding {
        keys,
        intent,
        description,
        destructive: false,
        writes: true,
    }
}

const fn danger(keys: &'static [Key], intent: Intent, description: &'static str) -> Binding {
    Binding {
        keys,
        intent,
        description,
        destructive: true,
        writes: true,
    }
}

pub const BINDINGS: &[Binding] = &[
    bind(&[Key::Char('?')], Intent::Help, "show or hide this help"),
    bind(
        &[Key::Char('q'), Key::Ctrl('c')],
        Intent::Quit,
        "quit (the instance keeps running)",
    ),
    bind(&[Key::Esc], Intent::Close, "close a dialog"),
    bind(
        &[Key::Tab, Key::BackTab],
        Intent::FocusNext,
        "move focus between panels",
    ),
    bind(
        &[Key::Up, Key::Char('k')],
        Intent::Up,
        "select the previous row",
    ),
    bind(
        &[Key::Down, Key::Char('j')],
        Intent::Down,
        "select the next row",
    ),
    bind(
        &[Key::Left, Key::Char('h')],
        Intent::Left,
        "previous panel / dialog choice",
    ),
    bind(
        &[Key::Right, Key::Char('l')],
        Intent::Right,
        "next panel / dialog choice",
    ),
    bind(
        &[Key::Enter],
        Intent::Details,
        "show the selected linked resource's details",
    ),
    bind(&[Key::Char('p')], Intent::Processes, "show GPU processes"),
    bind(
        &[Key::Char('F')],
        Intent::Fleet,
        "show the fleet: all instances, by cost",
    ),
    bind(
        &[Key::Char('g'), Key::Char('G')],
        Intent::Top,
        "first / last row (events: oldest / newest)",
    ),
    bind(
        &[Key::PageUp, Key::PageDown],
        Intent::PageUp,
        "scroll the focused list a page up / down",
    ),
    writes(
        &[Key::Char('e')],
        Intent::Extend,
        "extend the deadline by the configured step",
    ),
    writes(
        &[Key::Char('E')],
        Intent::ExtendPrompt,
        "extend the deadline by a duration you type",
    ),
    bind(
        &[Key::Char('r')],
        Intent::RetryGpu,
        "retry reading the GPUs (NVML)",
    ),
    danger(&[Key::Char('R')], Intent::Release, "release the instance"),
    danger(&[Key::Char('S')], Intent::Stop, "stop the instance"),
    writes(
        &[Key::Char('s')],
        Intent::Start,
        "start the stopped instance again",
    ),
    danger(
        &[Key::Char('C')],
        Intent::SnapshotClean,
        "delete old snapshots",
    ),
    danger(
        &[Key::Char('D')],
        Intent::Cleanup,
        "delete the selected linked resource",
    ),
    bind(
        &[Key::Char('y')],
        Intent::Confirm,
        "confirm the open dialog",
    ),
];

/// The bindings in force: all of them, or without the ones that write under `--read-only`.
pub fn bindings(read_only: bool) -> impl Iterator<Item = &'static Binding> {
    BINDINGS.iter().filter(move |b| !(read_only && b.writes))
}

/// The binding a key press matches, whether or not it is in force.
pub fn binding_for(event: KeyPress) -> Option<&'static Binding> {
    BINDINGS
        .iter()
        .find(|b| b.keys.iter().any(|k| k.matches(event)))
}

/// The intent a key press asks for, if any binding in force has that key.
pub fn intent_for(event: KeyPress, read_only: bool) -> Option<Intent> {
    let intent = bindings(read_only)
        .find(|b| b.keys.iter().any(|k| k.matches(event)))
        .map(|b| b.intent)?;
    // Shift-Tab shares a row with Tab in the help, but moves the other way; so do G and PgDn.
    Some(match event.code {
        KeyCode::BackTab => Intent::FocusPrev,
        KeyCode::Char('G') if !event.ctrl => Intent::Bottom,
        KeyCode::PageDown => Intent::PageDown,
        _ => intent,
    })
}

/// What a key does, as the help overlay lists it.
pub fn describe(b: &Binding) -> std::borrow::Cow<'static, str> {
    match b.intent {
        Intent::Help => crate::t!("key-help"),
        Intent::Quit => crate::t!("key-quit"),
        Intent::Close => crate::t!("key-close"),
        Intent::FocusNext => crate::t!("key-focus"),
        Intent::Up => crate::t!("key-up"),
        Intent::Down => crate::t!("key-down"),
        Intent::Left => crate::t!("key-left"),
        Intent::Right => crate::t!("key-right"),
        Intent::Details => crate::t!("key-details"),
        Intent::Processes => crate::t!("key-processes"),
        Intent::Fleet => crate::t!("key-fleet"),
        Intent::Top => crate::t!("key-top"),
        Intent::PageUp => crate::t!("key-page"),
        Intent::Extend => crate::t!("key-extend"),
        Intent::ExtendPrompt => crate::t!("key-extend-prompt"),
        Intent::RetryGpu => crate::t!("key-retry-gpu"),
        Intent::Release => crate::t!("key-release"),
        Intent::Stop => crate::t!("key-stop"),
        Intent::Start => crate::t!("key-start"),
        Intent::SnapshotClean => crate::t!("key-snapshot-clean"),
        Intent::Cleanup => crate::t!("key-cleanup"),
        Intent::Confirm => crate::t!("key-confirm"),
        // Not in the key table on their own (they share a row above).
        Intent::FocusPrev | Intent::Bottom | Intent::PageDown => {
            std::borrow::Cow::Borrowed(b.description)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyPress {
        KeyPress::new(code)
    }

    #[test]
    fn letters_are_case_sensitive_and_ctrl_c_quits() {
        assert_eq!(
            intent_for(key(KeyCode::Char('e')), false),
            Some(Intent::Extend)
        );
        assert_eq!(
            intent_for(key(KeyCode::Char('E')), false),
            Some(Intent::ExtendPrompt)
        );
        let ctrl_c = KeyPress::ctrl('c');
        assert_eq!(intent_for(ctrl_c, false), Some(Intent::Quit));
        assert_eq!(intent_for(key(KeyCode::Char('c')), false), None);
        assert_eq!(
            intent_for(key(KeyCode::BackTab), false),
            Some(Intent::FocusPrev)
        );
    }

    #[test]
    fn read_only_removes_every_key_that_writes() {
        for b in BINDINGS.iter().filter(|b| b.writes) {
            for k in b.keys {
                let Key::Char(c) = k else { continue };
                assert_eq!(intent_for(key(KeyCode::Char(*c)), true), None, "{c}");
                assert!(intent_for(key(KeyCode::Char(*c)), false).is_some(), "{c}");
            }
        }
        assert!(bindings(true).all(|b| !b.destructive && !b.writes));
        assert!(BINDINGS.iter().all(|b| b.writes || !b.destructive));
        assert_eq!(intent_for(key(KeyCode::Char('e')), true), None);
        assert_eq!(intent_for(key(KeyCode::Char('E')), true), None);
    }

    #[test]
    fn no_key_is_bound_twice() {
        let all: Vec<Key> = BINDINGS
            .iter()
            .flat_map(|b| b.keys.iter().copied())
            .collect();
        for (i, k) in all.iter().enumerate() {
            assert!(!all[i + 1..].contains(k), "{k:?} bound twice");
        }
    }
}
