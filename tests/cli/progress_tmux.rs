//! A command that waits on its provider is never silent: in a terminal, a spinner with the
//! seconds spent shows from `y` until the provider's answer, then is wiped.

use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(socket: &str, args: &[&str]) -> String {
    let out = Command::new("tmux")
        .arg("-L")
        .arg(socket)
        .args(args)
        .env_remove("TMUX")
        .output()
        .expect("tmux runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn wait_for(socket: &str, text: &str) -> String {
    let start = Instant::now();
    loop {
        let screen = tmux(socket, &["capture-pane", "-p"]);
        if screen.contains(text) {
            return screen;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the screen never showed {text:?}; it shows:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_release_in_a_terminal_shows_a_spinner_until_the_answer() {
    if !crate::peer::installed("tmux") {
        return;
    }
    let socket = format!("gpumeter-progress-{}", std::process::id());
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "GPUMETER_DATA_DIR='{}' GPUMETER_DEMO_DELAY_MS=2500 '{}' --demo release; \
         echo \"EXITED $?\"; sleep 30",
        dir.path().display(),
        env!("CARGO_BIN_EXE_gpumeter")
    );
    tmux(
        &socket,
        &[
            "new-session",
            "-d",
            "-x",
            "100",
            "-y",
            "20",
            "sh",
            "-c",
            &script,
        ],
    );
    wait_for(&socket, "release? [y/N]");
    tmux(&socket, &["send-keys", "y", "Enter"]);
    let waiting = wait_for(&socket, "release: waiting for demo to confirm");
    assert!(
        waiting.contains(" s)"),
        "the spinner counts seconds:\n{waiting}"
    );
    let done = wait_for(&socket, "EXITED 0");
    assert!(done.contains("release: done"), "{done}");
    assert!(
        !done.contains("waiting for demo"),
        "the spinner is wiped once the answer is in:\n{done}"
    );
    tmux(&socket, &["kill-server"]);
}
