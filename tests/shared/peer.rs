//! One rule for a test whose peer is missing (a program or package scripts/test installs: tmux,
//! libfaketime, promtool, Prometheus, moto, the official SDK models, focus-validator): outside
//! CI the test says so on stderr and passes; under `CI`, where scripts/test has installed them
//! all, it fails. Each test binary includes this file.

use std::io::Write as _;
use std::process::Command;

/// Says the running test skips for want of `peer`, or fails it under `CI`.
pub fn missing(peer: &str) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    assert!(
        std::env::var_os("CI").is_none(),
        "{test}: {peer} missing, and CI requires it (scripts/test installs it)"
    );
    // Past the test harness's capture, which would hide the line of a test that passes.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {test}: {peer} missing (scripts/test installs it)"
    );
}

/// Whether `program` runs (`program -V`); when it does not, says so as [`missing`] does.
pub fn installed(program: &str) -> bool {
    let runs = Command::new(program).arg("-V").output().is_ok();
    if !runs {
        missing(program);
    }
    runs
}
