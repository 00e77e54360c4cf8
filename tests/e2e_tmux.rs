//! The real binary in a real terminal: tmux runs `gpumeter --demo`, keys go in with send-keys
//! and the screen comes back with capture-pane.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
    data_dir: PathBuf,
}

impl Tmux {
    /// Starts `gpumeter --demo` in a detached 120x40 tmux session, or `None` without tmux.
    fn start(name: &str, env: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(
                std::env::var_os("CI").is_none(),
                "tmux is required in CI: scripts/test installs it"
            );
            eprintln!("skipping: tmux is not installed");
            return None;
        }
        let socket = format!("gpumeter-e2e-{name}-{}", std::process::id());
        let data_dir = std::env::temp_dir().join(&socket);
        let _ = std::fs::remove_dir_all(&data_dir);
        std::fs::create_dir_all(&data_dir).unwrap();
        let bin = env!("CARGO_BIN_EXE_gpumeter");
        let script = format!(
            "GPUMETER_DATA_DIR='{}' GPUMETER_DEMO_DELAY_MS=300 {env} '{bin}' --demo --reset; \
             echo \"EXITED $?\"; sleep 60",
            data_dir.display()
        );
        let tmux = Tmux { socket, data_dir };
        tmux.cmd(&[
            "new-session",
            "-d",
            "-x",
            "120",
            "-y",
            "40",
            "sh",
            "-c",
            &script,
        ]);
        Some(tmux)
    }

    fn cmd(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn screen(&self) -> String {
        self.cmd(&["capture-pane", "-p"])
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys"];
        args.extend_from_slice(keys);
        self.cmd(&args);
    }

    /// Waits until the screen shows `text`, for at most ten seconds.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the screen never showed {text:?}; it shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn demo_state(&self) -> serde_json::Value {
        let text = std::fs::read_to_string(self.data_dir.join("demo-cloud.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.cmd(&["kill-server"]);
        let _ = std::fs::remove_dir_all(&self.data_dir);
    }
}

#[test]
fn help_extend_release_and_quit_in_a_real_terminal() {
    let Some(t) = Tmux::start("main", "") else {
        return;
    };
    t.wait_for("i-0demo4a100f00d");
    assert_eq!(t.cmd(&["display", "-p", "#{alternate_on}"]).trim(), "1");

    t.keys(&["?"]);
    let help = t.wait_for("show or hide this help");
    assert!(help.contains("release the instance"), "{help}");
    t.keys(&["Escape"]);

    t.keys(&["e"]);
    t.wait_for("deadline extended");

    t.keys(&["R"]);
    let dialog = t.wait_for("Release the instance");
    assert!(
        dialog.contains("vol-0data"),
        "the dialog names what survives:\n{dialog}"
    );
    t.keys(&["y"]);
    let after = t.wait_for("release: done");
    assert_eq!(t.demo_state()["instance"]["state"], "released");
    // The survivors are still listed, with what they cost each month.
    let after = if after.contains("160.00") {
        after
    } else {
        t.wait_for("160.00")
    };
    assert!(after.contains("vol-0data"), "{after}");

    t.keys(&["q"]);
    let end = t.wait_for("EXITED 0");
    assert!(
        !end.contains("i-0demo4a100f00d"),
        "the cockpit screen is gone:\n{end}"
    );
    assert_eq!(t.cmd(&["display", "-p", "#{alternate_on}"]).trim(), "0");
}

#[test]
fn a_refused_release_is_shown_as_failed_and_ctrl_c_restores_the_terminal() {
    let Some(t) = Tmux::start("fail", "GPUMETER_DEMO_FAIL=release") else {
        return;
    };
    t.wait_for("i-0demo4a100f00d");
    t.keys(&["R"]);
    t.wait_for("Release the instance");
    t.keys(&["y"]);
    t.wait_for("release failed");
    assert_eq!(t.demo_state()["instance"]["state"], "running");
    t.keys(&["C-c"]);
    t.wait_for("EXITED 0");
    assert_eq!(t.cmd(&["display", "-p", "#{alternate_on}"]).trim(), "0");
}
