//! `gpumeter watchdog` as a user runs it: intervals it refuses wherever they come from.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

struct Home {
    dir: PathBuf,
}

impl Home {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("gpumeter-watchdog-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Home { dir }
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// `gpumeter ARGS --demo` with this home; a run past 30 s is killed and reported as such,
    /// so a watchdog that spins instead of refusing fails rather than hangs.
    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
        cmd.args(args)
            .arg("--demo")
            .env("HOME", &self.dir)
            .env("XDG_CONFIG_HOME", self.dir.join("config"))
            .env("GPUMETER_DATA_DIR", self.data())
            .env("GPUMETER_DEMO_DELAY_MS", "0")
            .env_remove("GPUMETER_WATCHDOG_INTERVAL")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().unwrap();
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                let out = child.wait_with_output().unwrap();
                panic!(
                    "gpumeter {args:?} still ran after 30s; stderr:\n{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        child.wait_with_output().unwrap()
    }
}

impl Drop for Home {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn intervals_too_short_or_too_long_are_refused_from_the_flag_and_the_variable() {
    let home = Home::new("interval");
    for (args, env) in [
        (vec!["--interval", "0s"], vec![]),
        (vec!["--interval", "1ns"], vec![]),
        (vec!["--interval", "2h"], vec![]),
        (vec![], vec![("GPUMETER_WATCHDOG_INTERVAL", "0s")]),
    ] {
        let mut all = vec!["watchdog", "--foreground"];
        all.extend(&args);
        let out = home.run(&all, &env);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?} {env:?}: {err}");
        assert!(
            err.contains("--interval (or GPUMETER_WATCHDOG_INTERVAL)")
                && (err.contains("under 100ms") || err.contains("over 1h")),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    // The cockpit refuses it too, before it would start a watchdog that dies of it.
    let out = home.run(&[], &[("GPUMETER_WATCHDOG_INTERVAL", "0s")]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("GPUMETER_WATCHDOG_INTERVAL: `0s` is under 100ms"),
        "{err}"
    );
}
