//! Whether the guard row's watchdog lives, as a command that is not its supervisor can tell:
//! its lock first (held is alive, free is gone, whatever the heartbeat says), and only where
//! the lock cannot be looked at, a fresh heartbeat from a process that still runs.

use std::path::Path;
use std::time::Duration;

use jiff::Timestamp;

use crate::guard::GuardState;

/// The row's watchdog as `(pid, alive)` at `now` (a heartbeat older than `stale_after` is
/// silent), its lock beside the ledger at `ledger`;
/// `None` when no watchdog ever claimed the row and none holds the lock.
pub fn watchdog_of(
    ledger: &Path,
    row: &GuardState,
    stale_after: Duration,
    now: Timestamp,
) -> Option<(u32, bool)> {
    let recorded = row.watchdog;
    match super::lock::holder(ledger, &row.instance) {
        // A lock held with no pid written in it is still a live watchdog.
        super::lock::Probe::Held(pid) => Some((pid.or(recorded.map(|w| w.pid)).unwrap_or(0), true)),
        super::lock::Probe::Free => recorded.map(|w| (w.pid, false)),
        super::lock::Probe::Unknown => recorded.map(|w| {
            let alive = w.alive(now, stale_after) && super::process::running(w.pid);
            (w.pid, alive)
        }),
    }
}
