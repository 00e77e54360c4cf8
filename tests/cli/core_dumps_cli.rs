//! No gpumeter process can be dumped: its core file size limit is 0 and, on Linux, it is not
//! dumpable, which the kernel shows by giving the files under its `/proc/<pid>` to root. `serve` holds the
//! provider's secret key and session token for as long as it runs, so it is the one checked.

use std::os::unix::fs::MetadataExt as _;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The user a root test runs gpumeter as, so that root's `/proc/<pid>` tells the two apart.
const NOBODY: u32 = 65534;

#[test]
fn serve_runs_with_core_dumps_off_and_not_dumpable() {
    let dir = tempfile::tempdir().unwrap();
    let root = rustix::process::geteuid().is_root();
    let mut serve = start_serve(dir.path(), root);
    let pid = serve.id();
    // The process is the test's own user unless it made itself not dumpable.
    let user = if root {
        NOBODY
    } else {
        rustix::process::geteuid().as_raw()
    };
    let start = Instant::now();
    let (limit, owner) = loop {
        let limit = core_limit(pid);
        let owner = std::fs::metadata(format!("/proc/{pid}/status")).map(|m| m.uid());
        let done = limit.as_deref() == Some("0 0") && owner.as_ref().is_ok_and(|&o| o == 0);
        if done || start.elapsed() > Duration::from_secs(20) {
            break (limit, owner);
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let running = serve.try_wait().unwrap().is_none();
    let _ = serve.kill();
    let _ = serve.wait();
    assert!(running, "serve ended early");
    assert_eq!(limit.as_deref(), Some("0 0"), "core file size (soft hard)");
    assert_eq!(
        owner.unwrap(),
        0,
        "/proc/{pid}/status belongs to {user}: the process is dumpable"
    );
}

/// `gpumeter serve --demo` on a port of the kernel's choosing; as root, run as nobody.
fn start_serve(dir: &Path, root: bool) -> Child {
    let bin = env!("CARGO_BIN_EXE_gpumeter");
    let mut cmd = if root {
        std::os::unix::fs::chown(dir, Some(NOBODY), Some(NOBODY)).unwrap();
        let mut cmd = Command::new("setpriv");
        cmd.args([
            &format!("--reuid={NOBODY}"),
            &format!("--regid={NOBODY}"),
            "--clear-groups",
            bin,
        ]);
        cmd
    } else {
        Command::new(bin)
    };
    cmd.args(["serve", "--demo", "--listen", "127.0.0.1:0"])
        .env("GPUMETER_DATA_DIR", dir)
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir)
        .env("GPUMETER_DEMO_DELAY_MS", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // setpriv runs gpumeter in its own place: the pid is gpumeter's.
    cmd.spawn()
        .expect("setpriv (util-linux) runs a root test as another user")
}

/// "soft hard" from the "Max core file size" row of `/proc/<pid>/limits`.
fn core_limit(pid: u32) -> Option<String> {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).ok()?;
    let row = limits
        .lines()
        .find(|l| l.starts_with("Max core file size"))?;
    let mut values = row["Max core file size".len()..].split_whitespace();
    Some(format!("{} {}", values.next()?, values.next()?))
}
