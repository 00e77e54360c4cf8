//! The real binary in a real terminal: tmux runs `gpumeter --demo`, keys go in with send-keys
//! and the screen comes back with capture-pane.

use std::os::unix::fs::PermissionsExt as _;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

pub(crate) struct Tmux {
    socket: String,
    pub(crate) data_dir: PathBuf,
}

impl Tmux {
    /// Starts `gpumeter --demo` in a detached 120x40 tmux session, or `None` without tmux.
    pub(crate) fn start(name: &str, env: &str) -> Option<Tmux> {
        Self::start_with(name, env, "")
    }

    /// Like [`Tmux::start`], with extra cockpit flags.
    pub(crate) fn start_with(name: &str, env: &str, flags: &str) -> Option<Tmux> {
        Self::start_full(name, env, flags, None)
    }

    /// Like [`Tmux::start_with`], the shell first setting `umask`; the data directory is left
    /// for gpumeter to create.
    pub(crate) fn start_full(
        name: &str,
        env: &str,
        flags: &str,
        umask: Option<&str>,
    ) -> Option<Tmux> {
        let tmux = Self::session(name, umask.is_none())?;
        let umask = umask.map(|u| format!("umask {u}; ")).unwrap_or_default();
        tmux.run(&format!(
            "{umask}GPUMETER_DATA_DIR='{}' GPUMETER_DEMO_DELAY_MS=300 GPUMETER_WATCHDOG_INTERVAL=1s {env} '{}' --demo --reset {flags}",
            tmux.data_dir.display(),
            env!("CARGO_BIN_EXE_gpumeter"),
        ));
        Some(tmux)
    }

    /// `gpumeter` on the machine's own GPUs (no `--demo`) with an empty config and nothing to
    /// detect, `env` set before it: the cockpit as a plain GPU box shows it.
    pub(crate) fn start_live(name: &str, env: &str) -> Option<Tmux> {
        let tmux = Self::session(name, true)?;
        let home = tmux.data_dir.display();
        std::fs::create_dir_all(tmux.data_dir.join("dmi")).unwrap();
        std::fs::write(tmux.data_dir.join("environ"), "").unwrap();
        std::fs::write(tmux.data_dir.join("empty.toml"), "").unwrap();
        tmux.run(&format!(
            "GPUMETER_DATA_DIR='{home}' GPUMETER_DETECT_DMI='{home}/dmi' \
             GPUMETER_DETECT_PID1_ENVIRON='{home}/environ' {env} '{}' --config '{home}/empty.toml'",
            env!("CARGO_BIN_EXE_gpumeter"),
        ));
        Some(tmux)
    }

    /// A tmux server of its own for `name`, and the data directory (made private when
    /// `private`), or `None` without tmux.
    fn session(name: &str, private: bool) -> Option<Tmux> {
        if !crate::peer::installed("tmux") {
            return None;
        }
        let socket = format!("gpumeter-e2e-{name}-{}", std::process::id());
        let data_dir = std::env::temp_dir().join(&socket);
        let _ = std::fs::remove_dir_all(&data_dir);
        if private {
            // Private, as gpumeter makes its own: a directory open to others adds a long
            // warning to the events, which can push out the event a test waits for.
            std::fs::create_dir_all(&data_dir).unwrap();
            std::fs::set_permissions(&data_dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        Some(Tmux { socket, data_dir })
    }

    /// Runs `command` in a detached 120x40 session; when it ends the screen says how.
    fn run(&self, command: &str) {
        let script = format!("{command}; echo \"EXITED $?\"; sleep 60");
        self.cmd(&[
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
    }

    pub(crate) fn cmd(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Resizes the session's window, as a user dragging the terminal does.
    pub(crate) fn resize(&self, width: u16, height: u16) {
        let (w, h) = (width.to_string(), height.to_string());
        self.cmd(&["resize-window", "-x", &w, "-y", &h]);
    }

    pub(crate) fn screen(&self) -> String {
        self.cmd(&["capture-pane", "-p"])
    }

    pub(crate) fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys"];
        args.extend_from_slice(keys);
        self.cmd(&args);
    }

    /// Waits until the screen shows `text`, for at most ten seconds.
    pub(crate) fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            // Generous: on a loaded two-core machine the first frame can take seconds.
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the screen never showed {text:?}; it shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the screen no longer shows `text`, for at most thirty seconds. After an
    /// Escape, the next key must wait for this: an Escape read together with the next key is
    /// that key with Alt.
    pub(crate) fn wait_gone(&self, text: &str) {
        let start = Instant::now();
        while self.screen().contains(text) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the screen still shows {text:?}:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Whether `gpumeter watchdog --status` finds a live watchdog for the demo instance.
    pub(crate) fn watchdog_alive(&self) -> bool {
        Command::new(env!("CARGO_BIN_EXE_gpumeter"))
            .args(["watchdog", "--status", "--demo", "--interval", "1s"])
            .env("GPUMETER_DATA_DIR", &self.data_dir)
            .status()
            .is_ok_and(|s| s.success())
    }

    /// The pid `gpumeter watchdog --status` says guards the demo instance, if one does.
    pub(crate) fn watchdog_pid(&self) -> Option<u32> {
        let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
            .args(["watchdog", "--status", "--demo", "--interval", "1s"])
            .env("GPUMETER_DATA_DIR", &self.data_dir)
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        let (_, rest) = text.split_once("running (pid ")?;
        out.status
            .success()
            .then(|| rest.split(')').next()?.parse().ok())?
    }

    pub(crate) fn demo_state(&self) -> serde_json::Value {
        let text = std::fs::read_to_string(self.data_dir.join("demo-cloud.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.cmd(&["kill-server"]);
        // The cockpit started a detached watchdog: stop it before its data goes.
        let _ = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
            .args(["watchdog", "--stop", "--demo"])
            .env("GPUMETER_DATA_DIR", &self.data_dir)
            .output();
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
    t.wait_gone("show or hide this help");

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

#[test]
fn the_demo_watchdog_ends_with_its_cockpit_when_nothing_is_left_to_enforce() {
    let Some(t) = Tmux::start("unwatched", "") else {
        return;
    };
    t.wait_for("i-0demo4a100f00d");
    t.wait_for("watchdog ✓");
    assert!(t.watchdog_alive(), "the cockpit started no watchdog");
    t.keys(&["q"]);
    let end = t.wait_for("EXITED 0");
    // Nothing armed stops or releases the instance: the cockpit stops its demo's watchdog.
    assert!(end.contains("stopped the demo's watchdog (pid"), "{end}");
    let start = Instant::now();
    while t.watchdog_alive() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the demo's watchdog outlived its cockpit; its log:\n{}",
            std::fs::read_to_string(t.data_dir.join("watchdog.log")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let log = std::fs::read_to_string(t.data_dir.join("watchdog.log")).unwrap_or_default();
    assert!(log.contains("watchdog stopped"), "{log}");
}

#[test]
fn a_killed_watchdog_is_started_again_by_its_cockpit() {
    let Some(t) = Tmux::start("killed", "") else {
        return;
    };
    t.wait_for("i-0demo4a100f00d");
    t.wait_for("watchdog ✓");
    let first = t.watchdog_pid().expect("the cockpit started a watchdog");
    let killed = Command::new("kill")
        .args(["-KILL", &first.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // A loaded machine may take a while to start the new one.
    let start = Instant::now();
    let second = loop {
        match t.watchdog_pid() {
            Some(pid) if pid != first => break pid,
            _ => {}
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no new watchdog after {first} was killed; the screen:\n{}\nits log:\n{}",
            t.screen(),
            std::fs::read_to_string(t.data_dir.join("watchdog.log")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_ne!(second, first);
    let screen = t.wait_for("watchdog ✓");
    assert!(!screen.contains("NO WATCHDOG"), "{screen}");
}

/// How long the watchdog may take to release: the deadline is seconds away, but a busy 2-core
/// machine can delay the detached process's start well beyond that.
const RELEASE_WAIT: Duration = Duration::from_secs(90);

/// The watchdog's log once it holds `needle`, or as it is after a few seconds: the release
/// shows in the demo cloud a moment before the watchdog has written it down.
fn log_with(t: &Tmux, needle: &str) -> String {
    let start = Instant::now();
    loop {
        let log = std::fs::read_to_string(t.data_dir.join("watchdog.log")).unwrap_or_default();
        if log.contains(needle) || start.elapsed() > Duration::from_secs(10) {
            return log;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Polls the demo cloud until the instance is released, for at most `limit`.
fn wait_released(t: &Tmux, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if t.demo_state()["instance"]["state"] == "released" {
            return true;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    false
}

#[test]
fn the_watchdog_releases_at_the_deadline_after_the_terminal_is_gone() {
    let flags = "--release-in 5s --on-expiry release --grace 2s";
    let Some(t) = Tmux::start_with("deadline", "", flags) else {
        return;
    };
    t.wait_for("i-0demo4a100f00d");
    // Alive and beating, not only named: the check mark comes with its heartbeat.
    t.wait_for("watchdog ✓");
    // The ssh session drops: the cockpit is gone, the watchdog is not.
    t.cmd(&["kill-server"]);
    assert!(
        wait_released(&t, RELEASE_WAIT),
        "the watchdog did not release the instance; its log:\n{}",
        std::fs::read_to_string(t.data_dir.join("watchdog.log")).unwrap_or_default()
    );
    let log = log_with(&t, "release: done");
    assert!(log.contains("release: done"), "{log}");
}

#[test]
fn the_watchdog_releases_an_idle_instance_after_the_terminal_is_gone() {
    let config =
        std::env::temp_dir().join(format!("gpumeter-e2e-idle-{}.toml", std::process::id()));
    std::fs::write(&config, "[idle]\nafter = \"4s\"\non_idle = \"release\"\n").unwrap();
    let flags = format!("--scenario idle --config '{}'", config.display());
    let Some(t) = Tmux::start_with("idle", "", &flags) else {
        return;
    };
    t.wait_for("i-0demo4a100f00d");
    // Alive and beating, not only named: the check mark comes with its heartbeat.
    t.wait_for("watchdog ✓");
    t.cmd(&["kill-server"]);
    let released = wait_released(&t, RELEASE_WAIT);
    let log = log_with(&t, "idle since");
    let _ = std::fs::remove_file(&config);
    assert!(
        released,
        "the idle instance was not released; the watchdog's log:\n{log}"
    );
    assert!(log.contains("idle since"), "{log}");
}

#[test]
fn a_fifo_as_the_theme_is_a_warning_and_q_still_quits() {
    let fifo = std::env::temp_dir().join(format!("gpumeter-theme-fifo-{}", std::process::id()));
    let _ = std::fs::remove_file(&fifo);
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let flags = format!("--theme '{}'", fifo.display());
    let Some(t) = Tmux::start_with("fifo", "", &flags) else {
        return;
    };
    t.wait_for("i-0demo4a100f00d");
    t.wait_for("not a regular file");
    t.keys(&["q"]);
    t.wait_for("EXITED 0");
    let _ = std::fs::remove_file(&fifo);
}

#[test]
fn a_budget_in_another_currency_than_the_sheet_stops_the_cockpit_before_it_starts() {
    let config = std::env::temp_dir().join(format!("gpumeter-e2e-eur-{}.toml", std::process::id()));
    std::fs::write(&config, "[budget]\ncurrency = \"EUR\"\nper_instance = 50\n").unwrap();
    let flags = format!("--config '{}'", config.display());
    let Some(t) = Tmux::start_with("currency", "", &flags) else {
        return;
    };
    let end = t.wait_for("EXITED 2");
    let _ = std::fs::remove_file(&config);
    assert!(
        end.contains("budget.currency: the budget is in EUR but the price sheet")
            && end.contains("prices in USD"),
        "{end}"
    );
    assert!(
        !t.data_dir.join("watchdog.log").exists(),
        "no watchdog was started"
    );
}

#[test]
fn under_umask_000_the_cockpit_keeps_its_files_private() {
    let Some(t) = Tmux::start_full("umask", "", "", Some("000")) else {
        return;
    };
    t.wait_for("i-0demo4a100f00d");
    t.wait_for("watchdog ✓");
    let mode = |name: &str| {
        let path = t.data_dir.join(name);
        std::fs::metadata(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode(""), 0o700, "the data directory");
    // The cockpit and the watchdog both hold the ledger open: its WAL and shared memory are
    // there, and take the ledger's mode.
    for name in [
        "demo-ledger.sqlite",
        "demo-ledger.sqlite-wal",
        "demo-ledger.sqlite-shm",
        "demo-cloud.json",
        "watchdog.log",
    ] {
        assert_eq!(mode(name), 0o600, "{name}");
    }
    t.keys(&["q"]);
    t.wait_for("EXITED 0");
}
