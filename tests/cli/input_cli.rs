//! The binary against careless and hostile input and a permissive umask: what it writes stays
//! its user's, a FIFO named as the config is refused at once, and flags and values that would
//! do nothing, or something else than meant, are bad input (exit 2) that says why.

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `gpumeter` with no config but what a test gives and its data in `home`.
fn gpumeter(home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
    command
        .env("NO_COLOR", "1")
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("GPUMETER_DATA_DIR")
        .stdin(Stdio::null());
    command
}

/// `gpumeter ARGS` under `umask 000`, as a shell with the most permissive umask starts it.
fn under_open_umask(home: &Path, args: &[&str]) -> Output {
    let mut command = Command::new("sh");
    command
        .args([
            "-c",
            "umask 000; exec \"$0\" \"$@\"",
            env!("CARGO_BIN_EXE_gpumeter"),
        ])
        .args(args)
        .env("NO_COLOR", "1")
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("GPUMETER_DATA_DIR")
        .stdin(Stdio::null());
    command.output().unwrap()
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// Runs `command` for at most ten seconds.
fn within_seconds(mut command: Command) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("still running after 10 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn bad_input(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("gpumeter: "), "{err}");
    err
}

#[test]
fn the_data_directory_and_what_the_demo_writes_in_it_are_private_under_umask_000() {
    let home = tempfile::tempdir().unwrap();
    let out = under_open_umask(home.path(), &["--demo", "report", "--csv"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = under_open_umask(home.path(), &["--demo", "checklist"]);
    assert!(
        out.status.code() == Some(3),
        "the demo's leftovers keep billing: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The default data directory, and the parents gpumeter made for it.
    let data = home.path().join("data");
    let dir = data.join("gpumeter");
    assert_eq!(mode(&data), 0o700);
    assert_eq!(mode(&dir), 0o700);
    for file in std::fs::read_dir(&dir).unwrap() {
        let path = file.unwrap().path();
        assert_eq!(mode(&path), 0o600, "{}", path.display());
    }
    assert!(dir.join("demo-cloud.json").exists());
    assert!(dir.join("demo-ledger.sqlite").exists());
}

#[test]
fn a_fifo_as_the_config_is_refused_at_once() {
    let home = tempfile::tempdir().unwrap();
    let fifo = home.path().join("config.toml");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let mut command = gpumeter(home.path());
    command
        .arg("--config")
        .arg(&fifo)
        .args(["--demo", "checklist"]);
    let err = bad_input(&within_seconds(command));
    assert!(
        err.contains(&format!(
            "cannot read config file {}: it is a FIFO (named pipe), not a regular file",
            fifo.display()
        )),
        "{err}"
    );
}

#[test]
fn gpus_where_it_does_nothing_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| gpumeter(home.path()).args(args).output().unwrap();

    // The cockpit and the watchdog without the simulator read the real GPUs.
    for args in [
        &["--gpus", "4"][..],
        &["watchdog", "--status", "--gpus", "4"],
    ] {
        let err = bad_input(&run(args));
        assert!(
            err.contains("--gpus only applies with --demo"),
            "{args:?}: {err}"
        );
    }
    // Given before a subcommand, the cockpit's flag is not the subcommand's.
    let err = bad_input(&run(&["--demo", "--gpus", "2", "status"]));
    assert!(
        err.contains("--gpus before `status` does nothing: give it after"),
        "{err}"
    );
    let err = bad_input(&run(&["--demo", "--gpus", "2", "report"]));
    assert!(
        err.contains("--gpus is a flag of the cockpit")
            && err.contains("`report` does not take it"),
        "{err}"
    );
    // So are the other cockpit flags, which `status` used to ignore in silence.
    let err = bad_input(&run(&["--demo", "--scenario", "idle", "status"]));
    assert!(
        err.contains("--scenario before `status` does nothing"),
        "{err}"
    );
    let err = bad_input(&run(&["--demo", "--release-in", "2h", "checklist"]));
    assert!(
        err.contains("--release-in is a flag of the cockpit"),
        "{err}"
    );
    // Where it does something it is still taken.
    let out = run(&["status", "--demo", "--json", "--gpus", "2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_duration_too_long_says_so_and_names_the_longest() {
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| gpumeter(home.path()).args(args).output().unwrap();
    let largest = "is too large: the largest duration accepted is 87600h (10 years)";
    let err = bad_input(&run(&["--demo", "--release-in", "99999999999h"]));
    assert!(
        err.contains(&format!("--release-in: `99999999999h` {largest}")),
        "{err}"
    );
    let err = bad_input(&run(&["--demo", "extend", "99999999999999999999h"]));
    assert!(
        err.contains(&format!("DURATION: `99999999999999999999h` {largest}")),
        "{err}"
    );
    let err = bad_input(&run(&["--demo", "watchdog", "--interval", "100000h"]));
    assert!(
        err.contains(&format!(
            "--interval (or GPUMETER_WATCHDOG_INTERVAL): `100000h` {largest}"
        )),
        "{err}"
    );
}

#[test]
fn config_values_out_of_range_point_at_file_line_and_column() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("bad.toml");
    let run = |text: &str| {
        std::fs::write(&config, text).unwrap();
        gpumeter(home.path())
            .arg("--config")
            .arg(&config)
            .args(["--demo", "checklist"])
            .output()
            .unwrap()
    };
    let err = bad_input(&run("[idle]\ngpu_below_pct = 200\n"));
    assert!(
        err.contains(&format!(
            "{}:2:17: idle.gpu_below_pct: `200` is not a percentage: expected a number from 0 to 100",
            config.display()
        )),
        "{err}"
    );
    let err = bad_input(&run("[deadline]\nrelease_in = \"99999999999h\"\n"));
    assert!(
        err.contains(&format!(
            "{}:2:14: deadline.release_in: `99999999999h` is too large",
            config.display()
        )),
        "{err}"
    );
    let err = bad_input(&run(
        "[pricing]\nsheet = \"aws-us-east-1\"\n[budget]\ncurrency = \"CNY\"\nper_month = 100\n",
    ));
    assert!(
        err.contains(&format!(
            "{}:4:1: budget.currency: the budget is in CNY but the price sheet `aws-us-east-1` prices in USD",
            config.display()
        )),
        "{err}"
    );
}
