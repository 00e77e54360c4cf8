//! The cockpit for the kill loop: `gpumeter --demo` in a detached tmux server with a socket of
//! its own. Its one pane is the cockpit's process itself (the shell execs it) and stays when
//! the cockpit is killed (`remain-on-exit`), so each trial respawns the cockpit in it.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How long the cockpit may take to show its instance, or to write what a key asked for.
const WAIT: Duration = Duration::from_secs(20);

pub struct Cockpit {
    socket: String,
    dir: PathBuf,
    /// The pane's process, the cockpit, while it may still run.
    pid: Option<u32>,
    started: bool,
}

impl Cockpit {
    /// A cockpit on the data directory `dir`, not started yet; `None` without tmux.
    pub fn new(dir: &Path) -> Option<Cockpit> {
        if !crate::peer::installed("tmux") {
            return None;
        }
        Some(Cockpit {
            socket: format!("gpumeter-kill-{}", std::process::id()),
            dir: dir.to_path_buf(),
            pid: None,
            started: false,
        })
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Starts the cockpit (again) and waits until it shows the demo's instance.
    pub fn launch(&mut self) {
        let script = format!(
            "exec env -u GPUMETER_DEMO_FAIL GPUMETER_DATA_DIR='{}' GPUMETER_DEMO_DELAY_MS=0 \
             GPUMETER_WATCHDOG_INTERVAL=100ms '{}' --demo",
            self.dir.display(),
            env!("CARGO_BIN_EXE_gpumeter")
        );
        if self.started {
            self.tmux(&["respawn-pane", "-k", &script]);
        } else {
            self.tmux(&[
                "new-session",
                "-d",
                "-x",
                "120",
                "-y",
                "40",
                &script,
                ";",
                "set-option",
                "-w",
                "remain-on-exit",
                "on",
            ]);
            self.started = true;
        }
        let pid = self.tmux(&["display", "-p", "#{pane_pid}"]);
        self.pid = Some(pid.trim().parse().expect("the pane's pid"));
        self.wait("the cockpit shows its instance", || {
            self.tmux(&["capture-pane", "-p"])
                .contains("i-0demo4a100f00d")
        });
    }

    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    pub fn key(&self, key: &str) {
        self.tmux(&["send-keys", key]);
    }

    /// Waits until `done`, for at most [`WAIT`]; panics with the screen when it never is.
    pub fn wait(&self, what: &str, mut done: impl FnMut() -> bool) {
        let start = Instant::now();
        while !done() {
            assert!(
                start.elapsed() < WAIT,
                "{what}: not within {WAIT:?}; the screen:\n{}",
                self.tmux(&["capture-pane", "-p"])
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// SIGKILLs the cockpit and waits until tmux has seen it die.
    pub fn kill(&mut self) {
        let Some(pid) = self.pid.take() else { return };
        // tmux reaps its pane's process at once: a cockpit that ended by itself is gone.
        assert!(
            Path::new(&format!("/proc/{pid}")).exists(),
            "the cockpit ended before it was killed; the screen:\n{}",
            self.tmux(&["capture-pane", "-p"])
        );
        sigkill(pid);
        self.wait("the killed cockpit's pane is dead", || {
            self.tmux(&["display", "-p", "#{pane_dead}"]).trim() == "1"
        });
    }
}

impl Drop for Cockpit {
    fn drop(&mut self) {
        if let Some(pid) = self.pid.take() {
            sigkill(pid);
        }
        if self.started {
            self.tmux(&["kill-server"]);
        }
        kill_strays(&self.dir);
    }
}

fn sigkill(pid: u32) {
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
    }
}

/// SIGKILLs every process still running on the data directory `dir` (its environment names
/// it): the watchdogs a cockpit started, which live on in a session of their own. How many.
pub fn kill_strays(dir: &Path) -> usize {
    let mark = format!("GPUMETER_DATA_DIR={}", dir.display());
    let mut killed = HashSet::new();
    loop {
        let found: Vec<u32> = std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse().ok())
            .filter(|pid| *pid != std::process::id() && !killed.contains(pid))
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|env| env.split(|b| *b == 0).any(|v| v == mark.as_bytes()))
            })
            .collect();
        if found.is_empty() {
            return killed.len();
        }
        for pid in found {
            sigkill(pid);
            killed.insert(pid);
        }
    }
}
