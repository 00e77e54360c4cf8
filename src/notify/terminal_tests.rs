use jiff::Timestamp;

use super::*;
use crate::app::Level;
use crate::config::MinLevel;

fn alert(level: Level, title: &str, body: &str) -> Alert {
    Alert::new(level, "deadline:10m", title, body, Timestamp::UNIX_EPOCH)
}

fn config(bell: bool, osc: OscStyle) -> NotifyConfig {
    NotifyConfig {
        bell,
        osc,
        ..NotifyConfig::default()
    }
}

#[test]
fn osc_9_and_777_carry_title_and_body() {
    let a = alert(Level::Warn, "Release in 10 minutes", "i-0abc at 18:30");
    assert_eq!(
        osc9(&a),
        "\x1b]9;Release in 10 minutes: i-0abc at 18:30\x07"
    );
    assert_eq!(
        osc777(&a),
        "\x1b]777;notify;Release in 10 minutes;i-0abc at 18:30\x07"
    );
    assert_eq!(osc9(&alert(Level::Warn, "Idle", "")), "\x1b]9;Idle\x07");
}

#[test]
fn a_body_cannot_inject_escape_sequences() {
    let evil = "done\x07\x1b]0;pwned\x07\x1b[2J\u{9b}31m\r\nrm -rf\u{7f}";
    let a = alert(Level::Error, "Title\x1b]9;x", evil);
    for seq in [osc9(&a), osc777(&a)] {
        let inner = &seq[2..seq.len() - 1];
        assert!(
            !inner.chars().any(char::is_control),
            "control characters left in {seq:?}"
        );
        assert_eq!(seq.matches('\x1b').count(), 1, "{seq:?}");
        assert!(seq.ends_with('\x07'));
    }
    assert_eq!(sanitize(evil), "done ]0;pwned [2J 31m rm -rf");
}

#[test]
fn a_bidirectional_override_does_not_reach_a_notification() {
    let a = alert(
        Level::Warn,
        "gpu-\u{202E}kcab",
        "\u{2067}i-0abc\u{2069} at 18:30",
    );
    for seq in [osc9(&a), osc777(&a)] {
        let inner = &seq[2..seq.len() - 1];
        assert!(!inner.contains(gpumeter_core::text::is_unsafe), "{seq:?}");
    }
    assert_eq!(osc9(&a), "\x1b]9;gpu- kcab: i-0abc at 18:30\x07");
}

#[test]
fn a_semicolon_in_the_title_does_not_split_osc_777() {
    let a = alert(Level::Warn, "a;b", "c;d");
    assert_eq!(osc777(&a), "\x1b]777;notify;a,b;c;d\x07");
}

#[test]
fn a_leading_digit_is_not_read_as_a_conemu_command() {
    let a = alert(Level::Warn, "4;1;50", "");
    assert_eq!(osc9(&a), "\x1b]9;gpumeter: 4;1;50\x07");
}

#[test]
fn long_text_is_cut_with_an_ellipsis() {
    let long = "x".repeat(500);
    let cut = sanitize(&long);
    assert_eq!(cut.chars().count(), MAX_CHARS + 1);
    assert!(cut.ends_with('…'));
    assert_eq!(sanitize("  a \t\n b  "), "a b");
}

#[test]
fn inside_tmux_sequences_are_wrapped_with_escapes_doubled() {
    let a = alert(Level::Warn, "T", "B");
    assert_eq!(tmux_wrap(&osc9(&a)), "\x1bPtmux;\x1b\x1b]9;T: B\x07\x1b\\");
    let out = output(&a, &config(true, OscStyle::Both), true);
    assert_eq!(
        out,
        "\x1bPtmux;\x1b\x1b]9;T: B\x07\x1b\\\x1bPtmux;\x1b\x1b]777;notify;T;B\x07\x1b\\\x07"
    );
}

#[test]
fn output_follows_the_toggles_and_the_level() {
    let a = alert(Level::Warn, "T", "B");
    assert_eq!(output(&a, &config(true, OscStyle::Off), false), BELL);
    assert_eq!(output(&a, &config(false, OscStyle::Off), false), "");
    assert_eq!(
        output(&a, &config(false, OscStyle::Osc777), false),
        "\x1b]777;notify;T;B\x07"
    );
    assert_eq!(
        output(&a, &config(true, OscStyle::Osc9), false),
        "\x1b]9;T: B\x07\x07"
    );
    let info = alert(Level::Info, "T", "B");
    assert_eq!(output(&info, &config(true, OscStyle::Both), false), "");
    let mut chatty = config(true, OscStyle::Osc9);
    chatty.min_level = MinLevel::Info;
    assert_eq!(output(&info, &chatty, false), "\x1b]9;T: B\x07\x07");
}
