//! The binary against careless input: flags and values that would do nothing, or something
//! else than meant, are bad input (exit 2) that says why.

use std::path::Path;
use std::process::{Command, Output, Stdio};

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

fn bad_input(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("gpumeter: "), "{err}");
    err
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
    assert!(err.contains("to the cockpit and `serve`"), "{err}");
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
        err.contains(&format!("--interval: `100000h` {largest}")),
        "{err}"
    );
}
