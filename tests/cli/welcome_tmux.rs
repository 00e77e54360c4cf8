//! The first run in a real terminal: `gpumeter` with an empty config and an empty data
//! directory at 80×24, as a new user meets it. It welcomes, says what works and what to run,
//! and starts no watchdog, since there is nothing to guard.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The welcome's lines, each of which must show whole at 80 columns.
const WELCOME: [&str; 4] = [
    "No provider configured or detected yet.",
    "gpumeter --demo  try every panel, simulated",
    "gpumeter doctor  what works, what is missing",
    "gpumeter init    write a config for this box",
];

/// What the first run showed before: alarms for what the user never asked for.
const ALARMS: [&str; 4] = [
    "NO WATCHDOG",
    "watchdog DOWN",
    "reading the provider",
    "starting it again",
];

struct FirstRun {
    socket: String,
    dir: PathBuf,
}

impl FirstRun {
    /// `gpumeter` with nothing configured, in a detached tmux session `width`×`height`, or
    /// `None` without tmux.
    fn start(width: u16, height: u16) -> Option<FirstRun> {
        if !crate::peer::installed("tmux") {
            return None;
        }
        let socket = format!("gpumeter-welcome-{width}x{height}-{}", std::process::id());
        let dir = std::env::temp_dir().join(&socket);
        let _ = std::fs::remove_dir_all(&dir);
        let data = dir.join("data");
        std::fs::create_dir_all(&data).unwrap();
        for d in [&dir, &data] {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        let config = dir.join("empty.toml");
        std::fs::write(&config, "").unwrap();
        // A bare environment on a plain machine: no cloud's variables from the machine running
        // the tests, and detection reads an empty DMI tree and PID 1 environment, so a test run
        // on a cloud VM still sees nothing to detect.
        std::fs::create_dir_all(dir.join("dmi")).unwrap();
        std::fs::write(dir.join("environ"), "").unwrap();
        let script = format!(
            "env -i PATH=\"$PATH\" TERM=\"$TERM\" HOME='{home}' GPUMETER_DATA_DIR='{data}' \
             GPUMETER_DETECT_DMI='{home}/dmi' GPUMETER_DETECT_PID1_ENVIRON='{home}/environ' \
             GPUMETER_WATCHDOG_INTERVAL=1s '{bin}' --config '{config}'; \
             echo \"EXITED $?\"; sleep 60",
            home = dir.display(),
            data = data.display(),
            bin = env!("CARGO_BIN_EXE_gpumeter"),
            config = config.display(),
        );
        let run = FirstRun { socket, dir };
        let (w, h) = (width.to_string(), height.to_string());
        run.tmux(&["new-session", "-d", "-x", &w, "-y", &h, "sh", "-c", &script]);
        Some(run)
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
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

    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p"])
    }

    fn wait_for(&self, text: &str) -> String {
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
}

impl Drop for FirstRun {
    fn drop(&mut self) {
        self.tmux(&["kill-server"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Every process whose command line is `gpumeter watchdog` with this data directory: what the
/// cockpit would have started.
fn watchdogs_of(data: &Path) -> Vec<String> {
    let data = data.display().to_string();
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    procs
        .filter_map(|p| std::fs::read(p.ok()?.path().join("cmdline")).ok())
        .map(|raw| {
            raw.split(|b| *b == 0)
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect::<Vec<_>>()
        })
        .filter(|args| args.iter().any(|a| a == "watchdog") && args.contains(&data))
        .map(|args| args.join(" "))
        .collect()
}

#[test]
fn the_first_run_welcomes_uncut_at_80x24_and_starts_no_watchdog() {
    let Some(run) = FirstRun::start(80, 24) else {
        return;
    };
    run.wait_for(WELCOME[0]);
    // The old first run had started, lost and given up on four watchdogs by now.
    std::thread::sleep(Duration::from_secs(5));
    let screen = run.screen();
    for line in WELCOME {
        assert!(screen.contains(line), "{line:?} missing or cut:\n{screen}");
    }
    assert!(
        screen.contains("work now.") || screen.contains("works now."),
        "{screen}"
    );
    for alarm in ALARMS {
        assert!(
            !screen.contains(alarm),
            "{alarm:?} on the first run:\n{screen}"
        );
    }
    assert!(screen.contains("nothing to guard yet"), "{screen}");
    assert!(screen.contains("gpumeter init or --provider"), "{screen}");
    assert!(
        screen.contains("no provider configured"),
        "the header says it plainly:\n{screen}"
    );
    let data = run.data();
    assert!(
        !data.join("watchdog.log").exists(),
        "a watchdog was started: {:?}",
        std::fs::read_to_string(data.join("watchdog.log"))
    );
    assert_eq!(watchdogs_of(&data), Vec::<String>::new());

    run.tmux(&["send-keys", "q"]);
    let after = run.wait_for("EXITED");
    assert!(after.contains("EXITED 0"), "{after}");
    assert!(
        after.contains("no provider configured: nothing to guard, no watchdog started"),
        "the line at quit says why nothing guards:\n{after}"
    );
    assert_eq!(watchdogs_of(&data), Vec::<String>::new());
}
