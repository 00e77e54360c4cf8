//! The cockpit without a terminal: a clear error and exit 2, never a panic or a raw terminal.

use std::process::{Command, Stdio};

#[test]
fn without_a_terminal_the_cockpit_exits_2_with_a_pointer_to_status() {
    let dir = std::env::temp_dir().join(format!("gpumeter-notty-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .arg("--demo")
        .env("GPUMETER_DATA_DIR", &dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("needs a terminal") && err.contains("status --json"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.stdout.is_empty(), "nothing was drawn");
}
