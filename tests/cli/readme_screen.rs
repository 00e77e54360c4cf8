//! The screen in README.md is the real demo: `gpumeter --demo --reset` in an 80×24 tmux
//! window shows the same panels in the same places, with the same titles. Only what moves
//! (numbers, times, bars) may differ.

use std::process::Command;
use std::time::{Duration, Instant};

/// The first fenced block of README.md, which is the screen.
fn readme_screen() -> Vec<String> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    readme
        .split("```")
        .nth(1)
        .expect("a fenced block")
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect()
}

/// Where the frame is on a line, and the words of a panel's top or bottom edge: what stays put
/// while the numbers move.
fn skeleton(line: &str) -> (Vec<usize>, Vec<String>) {
    let corners = line
        .chars()
        .enumerate()
        .filter(|(_, c)| matches!(c, '┌' | '┐' | '└' | '┘'))
        .map(|(i, _)| i)
        .collect();
    let edge = line.trim_start().starts_with(['┌', '└']);
    let titles = if edge {
        line.split(|c: char| !c.is_alphabetic())
            .filter(|w| w.len() >= 4)
            .map(str::to_string)
            .collect()
    } else {
        Vec::new()
    };
    (corners, titles)
}

#[test]
fn the_readme_screen_is_what_the_demo_shows_at_80x24() {
    if !crate::peer::installed("tmux") {
        return;
    }
    let want = readme_screen();
    assert_eq!(want.len(), 24, "the README screen is 80×24");
    let socket = format!("gpumeter-readme-{}", std::process::id());
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "GPUMETER_DATA_DIR='{}' '{}' --demo --reset; sleep 30",
        dir.path().display(),
        env!("CARGO_BIN_EXE_gpumeter")
    );
    let tmux = |args: &[&str]| {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&socket)
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    tmux(&[
        "new-session",
        "-d",
        "-x",
        "80",
        "-y",
        "24",
        "sh",
        "-c",
        &script,
    ]);
    let start = Instant::now();
    let screen = loop {
        let screen = tmux(&["capture-pane", "-p"]);
        // The watchdog's mark comes last: the cockpit starts it after the first frame.
        if screen.contains("Linked resources") && screen.contains("✓ watchdog") {
            // One more frame, so every panel has its first reading.
            std::thread::sleep(Duration::from_millis(1500));
            break tmux(&["capture-pane", "-p"]);
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the demo never drew:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    tmux(&["kill-server"]);
    let got: Vec<&str> = screen.lines().collect();
    for (row, want) in want.iter().enumerate() {
        let got = got.get(row).copied().unwrap_or_default();
        assert_eq!(
            skeleton(want),
            skeleton(got),
            "row {row} differs from README:\nREADME: {want}\ndemo:   {got}\n\nthe demo shows:\n{screen}"
        );
    }
}
