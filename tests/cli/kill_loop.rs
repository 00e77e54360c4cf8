//! SIGKILL the long-running processes that write the ledger, the watchdog (a heartbeat a
//! commit, every 100 ms), `serve`, `extend` and the cockpit (under tmux, extending the deadline
//! with `e`), at random points, over and over, on one data directory. After every kill the
//! ledger must open, pass SQLite's integrity check, and still hold everything committed before:
//! no event or session gone, the guard row's revision and heartbeat never older than they were.

mod cockpit;

use cockpit::{Cockpit, kill_strays};

use std::collections::HashSet;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const TRIALS: usize = 30;
const TIME_LIMIT: Duration = Duration::from_secs(150);

fn gpumeter(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
    cmd.args(args)
        .arg("--demo")
        .env("GPUMETER_DATA_DIR", dir)
        .env("GPUMETER_DEMO_DELAY_MS", "0")
        .env_remove("GPUMETER_DEMO_FAIL")
        .env_remove("GPUMETER_WATCHDOG_INTERVAL")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

/// What a later trial must still find: every event and session id, and the guard row's
/// revision and heartbeat.
#[derive(Debug, Default, PartialEq)]
struct Committed {
    events: HashSet<i64>,
    sessions: HashSet<i64>,
    revision: i64,
    heartbeat: i64,
}

fn read(path: &Path) -> Committed {
    let ledger = gpumeter::ledger::Ledger::open(path).expect("the ledger opens after a kill");
    assert_eq!(ledger.integrity_check().expect("integrity check"), "ok");
    let conn = rusqlite::Connection::open(path).unwrap();
    let ids = |table: &str| {
        conn.prepare(&format!("SELECT id FROM {table}"))
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let (events, sessions) = (ids("events"), ids("sessions"));
    let (revision, heartbeat) = conn
        .query_row(
            "SELECT coalesce(max(revision), 0), coalesce(max(heartbeat), 0) FROM guard",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    Committed {
        events,
        sessions,
        revision,
        heartbeat,
    }
}

fn kill(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// Who last changed the guard row's policy (its `updated_by`).
fn updated_by(path: &Path) -> String {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.query_row("SELECT updated_by FROM guard", [], |r| r.get(0))
        .unwrap_or_default()
}

/// Presses `e` until the guard row was last written by this cockpit: it writes only once it
/// has read the row, and a key before that is kept to itself.
fn extend_from_cockpit(cockpit: &Cockpit, path: &Path) {
    let me = format!("cockpit {}", cockpit.pid().expect("a running cockpit"));
    cockpit.wait("the cockpit writes the deadline", || {
        cockpit.key("e");
        std::thread::sleep(Duration::from_millis(100));
        updated_by(path) == me
    });
}

#[test]
fn sigkill_of_the_cockpit_watchdog_serve_and_extend_never_damages_the_ledger_or_loses_a_commit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("demo-ledger.sqlite");
    // A deadline gives the watchdog something to guard; alert only, so nothing is released.
    let out = gpumeter(dir.path(), &["extend", "8h", "--yes"])
        .output()
        .unwrap();
    assert!(out.status.success(), "extend: {out:?}");
    // Dropped before `dir`: it ends the tmux server and whatever the cockpits left running.
    let mut cockpit = Cockpit::new(dir.path());
    let mut rng = fastrand::Rng::with_seed(0x6b11);
    let mut before = read(&path);
    let started = Instant::now();
    let (mut trials, mut lost, mut kills, mut cockpits, mut strays) = (0, 0, 0, 0, 0);
    while trials < TRIALS && started.elapsed() < TIME_LIMIT {
        let watchdog = gpumeter(
            dir.path(),
            &["watchdog", "--foreground", "--interval", "100ms"],
        )
        .spawn()
        .unwrap();
        let serve = gpumeter(dir.path(), &["serve", "--listen", "127.0.0.1:0"])
            .spawn()
            .unwrap();
        if let Some(c) = cockpit.as_mut() {
            c.launch();
            extend_from_cockpit(c, &path);
        }
        std::thread::sleep(Duration::from_millis(rng.u64(50..400)));
        let extend = gpumeter(dir.path(), &["extend", "1m", "--yes"])
            .spawn()
            .unwrap();
        let window = rng.u64(0..300);
        let key_at = rng.u64(0..=window);
        std::thread::sleep(Duration::from_millis(key_at));
        if let Some(c) = &cockpit {
            c.key("e");
        }
        std::thread::sleep(Duration::from_millis(window - key_at));
        if let Some(c) = cockpit.as_mut() {
            c.kill();
            cockpits += 1;
            kills += 1;
        }
        for child in [watchdog, serve, extend] {
            kill(child);
            kills += 1;
        }
        // The watchdogs the cockpit started, in sessions of their own.
        let stray = kill_strays(dir.path());
        strays += stray;
        kills += stray;
        let after = read(&path);
        lost += before.events.difference(&after.events).count();
        assert!(after.events.is_superset(&before.events), "trial {trials}");
        assert!(
            after.sessions.is_superset(&before.sessions),
            "trial {trials}"
        );
        assert!(
            after.revision >= before.revision,
            "trial {trials}: {after:?}"
        );
        // A watchdog that stops on its own clears its claim, heartbeat included, in a commit
        // of its own: a later revision. Anything else older than before is a lost commit.
        let released = after.heartbeat == 0 && after.revision > before.revision;
        assert!(
            after.heartbeat >= before.heartbeat || released,
            "trial {trials}: {after:?}"
        );
        before = after;
        trials += 1;
    }
    assert!(
        trials >= TRIALS,
        "only {trials} trials in {:?}",
        started.elapsed()
    );
    assert!(
        before.revision > 1,
        "extend and the watchdog wrote: {before:?}"
    );
    assert!(
        cockpit.is_none() || !before.sessions.is_empty(),
        "the cockpits recorded no session: {before:?}"
    );
    // A watchdog the last cockpit forked just before its kill may start after the last
    // sweep, more so on a busy machine: it is swept too; anything a SIGKILL did not end is
    // still there for the sweep after.
    std::thread::sleep(Duration::from_secs(1));
    strays += kill_strays(dir.path());
    assert_eq!(kill_strays(dir.path()), 0, "a process outlived its SIGKILL");
    eprintln!(
        "{trials} trials, {kills} processes killed ({cockpits} cockpits, {strays} watchdogs \
         they left): corrupt 0, lost committed events {lost}, revision {} and {} sessions at \
         the end",
        before.revision,
        before.sessions.len()
    );
}
