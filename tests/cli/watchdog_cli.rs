//! `gpumeter watchdog` as a user runs it: intervals it refuses wherever they come from, and
//! the systemd user unit it writes (no systemd needed: the unit is only written).

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
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

    fn unit(&self) -> PathBuf {
        self.dir
            .join("config/systemd/user/gpumeter-watchdog.service")
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

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
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

#[test]
fn an_inventory_interval_that_is_not_a_duration_is_refused_from_the_flag_and_the_variable() {
    let home = Home::new("inventory-interval");
    for (args, env) in [
        (vec!["--inventory-interval", "often"], vec![]),
        (vec![], vec![("GPUMETER_INVENTORY_INTERVAL", "10 parsecs")]),
    ] {
        let mut all = vec!["watchdog", "--foreground"];
        all.extend(&args);
        let out = home.run(&all, &env);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?} {env:?}: {err}");
        assert!(
            err.contains("--inventory-interval (or GPUMETER_INVENTORY_INTERVAL): "),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    // The cockpit reads the variable too, and refuses it before starting a watchdog that would.
    let out = home.run(&[], &[("GPUMETER_INVENTORY_INTERVAL", "10 parsecs")]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("GPUMETER_INVENTORY_INTERVAL: "), "{err}");
}

#[test]
fn dry_run_prints_the_unit_and_writes_nothing() {
    let home = Home::new("dry");
    let out = home.run(
        &[
            "watchdog",
            "--install-service",
            "--dry-run",
            "--interval",
            "10s",
            "--inventory-interval",
            "15m",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("would write") && text.contains("(mode 0600)"),
        "{text}"
    );
    let exec = text
        .lines()
        .find(|l| l.starts_with("ExecStart="))
        .expect("an ExecStart line");
    let bin = env!("CARGO_BIN_EXE_gpumeter");
    let data = home.data();
    let expected = format!(
        "ExecStart=\"{bin}\" \"watchdog\" \"--foreground\" \"--data-dir\" \"{}\" \"--demo\" \
         \"--scenario\" \"training\" \"--gpus\" \"8\" \"--interval\" \"10s\" \"--inventory-interval\" \"15m\"",
        data.display()
    );
    assert_eq!(exec, expected);
    assert!(text.contains("\nRestart=on-failure\n"), "{text}");
    assert!(!home.unit().exists(), "a dry run writes nothing");
    assert!(!home.dir.join("config").exists(), "not even the directory");
}

#[test]
fn the_unit_is_private_names_no_secret_and_is_removed_again() {
    let home = Home::new("install");
    let config = home.dir.join("gpumeter.toml");
    std::fs::write(
        &config,
        "[[notify.webhook]]\nkind = \"dingtalk\"\n\
         url = \"https://oapi.dingtalk.com/robot/send?access_token=TOKENxyzzy\"\n\
         secret = \"SECxyzzy\"\n",
    )
    .unwrap();
    let secrets = [("AWS_SECRET_ACCESS_KEY", "AKSECRETxyzzy")];
    let config_arg = config.display().to_string();
    let args = [
        "--config",
        config_arg.as_str(),
        "watchdog",
        "--install-service",
        "--on-idle",
        "stop",
    ];
    let dry = home.run(&[&args[..], &["--dry-run"]].concat(), &secrets);
    assert!(dry.status.success(), "{}", stderr(&dry));
    let out = home.run(&args, &secrets);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = stdout(&out);
    for step in [
        "systemctl --user enable --now gpumeter-watchdog.service",
        "loginctl enable-linger",
    ] {
        assert!(said.contains(step), "{said}");
    }
    let unit = home.unit();
    let text = std::fs::read_to_string(&unit).unwrap();
    let mode = std::fs::metadata(&unit).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{unit:?}");
    assert!(
        stdout(&dry).contains(&text),
        "the dry run printed what is written"
    );
    assert!(
        text.contains(&format!("\"--config\" \"{}\"", config.display())),
        "{text}"
    );
    assert!(text.contains("\"--on-idle\" \"stop\""), "{text}");
    for secret in ["AKSECRETxyzzy", "TOKENxyzzy", "SECxyzzy", "AWS_"] {
        assert!(!text.contains(secret), "{secret} in:\n{text}");
    }
    assert_no_other_files(&unit);

    let out = home.run(&["watchdog", "--uninstall-service", "--dry-run"], &[]);
    assert!(stdout(&out).contains("would remove"), "{}", stdout(&out));
    assert!(unit.exists());
    let out = home.run(&["watchdog", "--uninstall-service"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!unit.exists());
    let out = home.run(&["watchdog", "--uninstall-service"], &[]);
    assert!(
        stdout(&out).contains("nothing to remove"),
        "{}",
        stdout(&out)
    );
}

/// The unit's directory holds the unit and nothing left over from writing it.
fn assert_no_other_files(unit: &Path) {
    let names: Vec<String> = std::fs::read_dir(unit.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["gpumeter-watchdog.service"]);
}

#[test]
fn status_names_the_idle_rule_when_it_is_the_only_rule_armed() {
    let home = Home::new("idle-status");
    std::fs::create_dir_all(home.data()).unwrap();
    let mut watchdog = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["watchdog", "--foreground", "--demo", "--interval", "200ms"])
        .args(["--idle-after", "30m", "--on-idle", "stop"])
        .args(["--stopped-release-after", "3d"])
        .env("GPUMETER_DATA_DIR", home.data())
        .env("GPUMETER_DEMO_DELAY_MS", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        let out = home.run(&["watchdog", "--status", "--interval", "200ms"], &[]);
        if out.status.success() && stdout(&out).contains("idle rule: stop") {
            break stdout(&out);
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = watchdog.kill();
            panic!(
                "no live watchdog with its idle rule in 30s: {}",
                stdout(&out)
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let _ = watchdog.kill();
    let _ = watchdog.wait();
    assert!(status.contains("running (pid "), "{status}");
    assert!(status.contains("deadline: none"), "{status}");
    assert!(
        status.contains("idle rule: stop after 1800s idle"),
        "{status}"
    );
    assert!(status.contains("budget: none"), "{status}");
    assert!(
        status.contains("stopped: release once stopped 3d0h (stopped_release_after)"),
        "{status}"
    );
    assert!(!status.contains("no deadline"), "{status}");
    // Killed, it enforces nothing, whatever it published.
    let after = stdout(&home.run(&["watchdog", "--status", "--interval", "200ms"], &[]));
    assert!(
        after.contains("stopped: kept until told (no stopped_release_after enforced)"),
        "{after}"
    );
}

/// `gpumeter watchdog --foreground --demo --interval INTERVAL` in `home`, its output piped.
fn start_watchdog(home: &Home, interval: &str) -> std::process::Child {
    std::fs::create_dir_all(home.data()).unwrap();
    Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["watchdog", "--foreground", "--demo", "--interval", interval])
        .env("GPUMETER_DATA_DIR", home.data())
        .env("GPUMETER_DEMO_DELAY_MS", "0")
        .env_remove("GPUMETER_WATCHDOG_INTERVAL")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits (30 s at most) until `watchdog --status` says `pid` runs; its output then.
fn wait_running(home: &Home, pid: u32, watchdog: &mut std::process::Child) -> String {
    let start = Instant::now();
    loop {
        let out = home.run(&["watchdog", "--status", "--interval", "1h"], &[]);
        if out.status.success() && stdout(&out).contains(&format!("running (pid {pid})")) {
            return stdout(&out);
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = watchdog.kill();
            panic!("the watchdog did not run within 30s: {}", stdout(&out));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_live_watchdog_with_an_old_heartbeat_runs_and_a_second_one_is_refused() {
    let home = Home::new("liveness");
    // Checks hourly: its next heartbeat is an hour away.
    let mut first = start_watchdog(&home, "1h");
    let pid = first.id();
    wait_running(&home, pid, &mut first);
    // Its heartbeat three hours old, as a wall clock that stepped forward would make it.
    let ledger = rusqlite::Connection::open(home.data().join("demo-ledger.sqlite")).unwrap();
    ledger.busy_timeout(Duration::from_secs(10)).unwrap();
    let n = ledger
        .execute("UPDATE guard SET heartbeat = heartbeat - 10800", [])
        .unwrap();
    assert_eq!(n, 1);
    drop(ledger);
    // Looked at by one that expects a check every 200ms: still running, as its lock says.
    let out = home.run(&["watchdog", "--status", "--interval", "200ms"], &[]);
    let said = stdout(&out);
    assert!(out.status.success(), "{said}{}", stderr(&out));
    assert!(said.contains(&format!("running (pid {pid})")), "{said}");
    // A second one is refused, naming the first, and leaves it in charge.
    let out = home.run(&["watchdog", "--foreground", "--interval", "200ms"], &[]);
    let said = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{said}{}", stderr(&out));
    assert!(
        said.contains(&format!(
            "a watchdog (pid {pid}) already guards this instance"
        )),
        "{said}"
    );
    assert!(first.try_wait().unwrap().is_none(), "the first still runs");
    let _ = first.kill();
    let _ = first.wait();
    // Killed, its lock is free at once: not running, whatever its heartbeat says.
    let out = home.run(&["watchdog", "--status", "--interval", "1h"], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("NOT running"), "{}", stdout(&out));
}

#[test]
fn a_watchdog_whose_ledger_is_deleted_stops_and_says_why() {
    let home = Home::new("deleted");
    let mut watchdog = start_watchdog(&home, "200ms");
    let pid = watchdog.id();
    wait_running(&home, pid, &mut watchdog);
    let ledger = home.data().join("demo-ledger.sqlite");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", ledger.display()));
    }
    let start = Instant::now();
    while watchdog.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    if watchdog.try_wait().unwrap().is_none() {
        let _ = watchdog.kill();
        panic!("the watchdog still ran 20s after its ledger was deleted");
    }
    let out = watchdog.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("demo-ledger.sqlite was deleted"), "{err}");
}

/// The texts of the ledger's events in `home` that start with `prefix`, oldest first.
fn events_starting(home: &Home, prefix: &str) -> Vec<String> {
    let Ok(ledger) = rusqlite::Connection::open(home.data().join("demo-ledger.sqlite")) else {
        return Vec::new();
    };
    ledger.busy_timeout(Duration::from_secs(10)).unwrap();
    let Ok(mut statement) =
        ledger.prepare("SELECT text FROM events WHERE text LIKE ?1 ORDER BY id")
    else {
        return Vec::new();
    };
    statement
        .query_map([format!("{prefix}%")], |r| r.get(0))
        .and_then(Iterator::collect)
        .unwrap_or_default()
}

#[test]
fn the_watchdog_reads_the_budget_of_its_config_and_records_the_limit_reached() {
    let home = Home::new("budget");
    let config = home.dir.join("budget.toml");
    std::fs::write(&config, "[budget]\nper_instance = \"0.01\"\n").unwrap();
    std::fs::create_dir_all(home.data()).unwrap();
    let mut watchdog = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["watchdog", "--foreground", "--demo", "--interval", "200ms"])
        .arg("--config")
        .arg(&config)
        .env("GPUMETER_DATA_DIR", home.data())
        .env("GPUMETER_DEMO_DELAY_MS", "0")
        .env_remove("GPUMETER_WATCHDOG_INTERVAL")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut said = Vec::new();
    while said.is_empty() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(100));
        said = events_starting(&home, "budget: ");
    }
    let _ = watchdog.kill();
    let out = watchdog.wait_with_output().unwrap();
    // The demo instance has cost far more than 0.01: the first check says the level reached.
    assert_eq!(said.len(), 1, "{said:?}\n{}", stderr(&out));
    assert!(
        said[0].contains("% used (") && said[0].contains(" of 0.01 "),
        "{said:?}"
    );
    let level: u64 = said[0]["budget: ".len()..]
        .split('%')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no level in {said:?}"));
    assert!(level > 100, "{said:?}");
}
