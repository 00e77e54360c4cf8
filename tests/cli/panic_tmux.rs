//! A panic while the cockpit holds the terminal, on a thread other than the one drawing (as in
//! a provider's task or a sampler's thread): the terminal comes back as it was (the normal
//! screen, the cursor shown, the tty's modes sane) and the process ends with 101 rather than
//! drawing on. tmux runs this test binary itself, for the ignored test below alone.

use std::process::Command;
use std::time::{Duration, Instant};

/// The tty modes raw mode turns off, each of which a shell needs back.
const SANE: [&str; 4] = ["icanon", "echo", "opost", "isig"];

#[test]
#[ignore = "not a test of its own: a_panic_gives_the_terminal_back runs it in a terminal"]
fn holds_the_terminal_and_panics_on_another_thread() {
    let mut screen = gpumeter::terminal::take_screen().expect("a terminal");
    // One frame, which hides the cursor, as the cockpit's frames do.
    screen
        .draw(|_, buf| {
            buf[(0, 0)].set_symbol("x");
            None
        })
        .expect("a frame");
    let _ = std::thread::spawn(|| panic!("a panic on purpose")).join();
    std::thread::sleep(Duration::from_secs(60));
}

#[test]
fn a_panic_gives_the_terminal_back() {
    if !crate::peer::installed("tmux") {
        return;
    }
    let socket = format!("gpumeter-panic-{}", std::process::id());
    let tmux = |args: &[&str]| {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&socket)
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let me = std::env::current_exe().unwrap();
    let script = format!(
        "'{}' --ignored --exact panic_tmux::holds_the_terminal_and_panics_on_another_thread \
         --nocapture; echo \"EXITED $?\"; sleep 60",
        me.display()
    );
    tmux(&[
        "new-session",
        "-d",
        "-x",
        "100",
        "-y",
        "30",
        "sh",
        "-c",
        &script,
    ]);
    let _server = KillServer(&tmux);
    let start = Instant::now();
    let screen = loop {
        let screen = tmux(&["capture-pane", "-p"]);
        if screen.contains("EXITED ") {
            break screen;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the process did not end on its panic:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(screen.contains("a panic on purpose"), "{screen}");
    assert!(screen.contains("EXITED 101"), "{screen}");
    assert_eq!(tmux(&["display", "-p", "#{alternate_on}"]), "0", "{screen}");
    assert_eq!(
        tmux(&["display", "-p", "#{cursor_flag}"]),
        "1",
        "the cursor is hidden"
    );
    let tty = tmux(&["display", "-p", "#{pane_tty}"]);
    let modes = Command::new("stty")
        .args(["-a", "-F", &tty])
        .output()
        .unwrap();
    let modes = String::from_utf8_lossy(&modes.stdout);
    let set: Vec<&str> = modes.split([' ', ';', '\n']).collect();
    for mode in SANE {
        assert!(set.contains(&mode), "{mode} left off:\n{modes}");
    }
}

/// Ends the tmux server when the test ends, passed or not.
struct KillServer<'a, F: Fn(&[&str]) -> String>(&'a F);

impl<F: Fn(&[&str]) -> String> Drop for KillServer<'_, F> {
    fn drop(&mut self) {
        (self.0)(&["kill-server"]);
    }
}
